// The rewrites that fold neighbours into a CONV_2D, each removing a pass over a large tensor: a
// CONV_2D followed by ADD of a same-shape tensor and/or a per-channel PRELU becomes one convolution
// whose C kernel adds the residual and applies PRELU as it writes each output tile; and when that
// residual is a PAD adding zero channels at the end (the skip path of BlazeFace's and BlazePalm's
// blocks), the convolution reads the unpadded tensor and adds zero past its channels.

extension Conv2DOperator {
    /// An enlarging RESIZE_BILINEAR before a 1×1 one turned round (ConvolutionBeforeResize.swift: first, as a fused
    /// ADD would hide the convolution's output), a PAD of the rows and columns before it (`fuseSpatialPad`), then
    /// residual ADD, PRELU and channel PAD.
    static let rewrites: [GraphRewrite] = [
        .whole { $0.convolveBeforeResize() },
        spatialPadRewrite(options: { ($0 as? Conv2DOperator)?.options }, rebuild: { Conv2DOperator(options: $0) }),
        .pair(fuseResidualAdd), .pair(fusePReLU), .pair(fuseChannelPad),
    ]

    /// `inputs` extended with absent slots up to (not including) `slot`, then `tensor` at `slot`.
    private static func inputs(_ inputs: [Int], setting slot: Slot, to tensor: Int) -> [Int] {
        Array((inputs + Array(repeating: -1, count: slot.rawValue)).prefix(slot.rawValue)) + [tensor]
    }

    /// CONV_2D (no activation) → ADD(act) of a same-shape float tensor: the ADD's other input becomes
    /// the residual and its activation the convolution's.
    @Sendable private static func fuseResidualAdd(_ graph: Graph, _ producer: GraphNode, _ consumer: GraphNode)
        -> GraphNode?
    {
        guard var o = (producer.operation as? Conv2DOperator)?.options, o.activation == .none, !o.hasResidual,
            !o.hasPReLU,
            let add = consumer.operation as? BinaryOperator, add.kind == .add, consumer.inputs.count == 2
        else { return nil }
        let mine = producer.outputs[0]
        let other = consumer.inputs[0] == mine ? consumer.inputs[1] : consumer.inputs[0]
        guard other != mine, other >= 0, graph.tensors[other].type == .float32,
            graph.tensors[other].shape == graph.tensors[mine].shape,
            graph.tensors[consumer.outputs[0]].shape == graph.tensors[mine].shape
        else { return nil }
        o.activation = add.activation
        o.hasResidual = true
        var node = producer
        node.operation = Conv2DOperator(options: o)
        node.inputs = inputs(node.inputs, setting: .residual, to: other) + [-1]
        return node
    }

    /// CONV_2D → PRELU with a constant alpha of one value per output channel: the alpha becomes the
    /// convolution's `preluAlpha` input.
    @Sendable private static func fusePReLU(_ graph: Graph, _ producer: GraphNode, _ consumer: GraphNode) -> GraphNode?
    {
        guard var o = (producer.operation as? Conv2DOperator)?.options, !o.hasPReLU,
            (consumer.operation as? BinaryOperator)?.kind == .prelu, consumer.inputs.count == 2,
            consumer.inputs[0] == producer.outputs[0]
        else { return nil }
        let alpha = graph.tensors[consumer.inputs[1]]
        let shape = graph.tensors[producer.outputs[0]].shape
        guard case .float32(let values)? = alpha.constant, let channels = shape.last, values.count == channels,
            alpha.shape.last == channels, graph.tensors[consumer.outputs[0]].shape == shape
        else { return nil }
        o.hasPReLU = true
        var node = producer
        node.operation = Conv2DOperator(options: o)
        node.inputs = inputs(node.inputs, setting: .preluAlpha, to: consumer.inputs[1])
        return node
    }

    /// PAD appending zero channels → the residual of a fused CONV_2D: the convolution reads the
    /// unpadded tensor (the kernel adds zero past its channels).
    @Sendable private static func fuseChannelPad(_ graph: Graph, _ producer: GraphNode, _ consumer: GraphNode)
        -> GraphNode?
    {
        let residual = Slot.residual.rawValue
        guard producer.operation is PadOperator, producer.inputs.count == 2,
            (consumer.operation as? Conv2DOperator)?.options.hasResidual == true,
            consumer.inputs.count > residual, consumer.inputs[residual] == producer.outputs[0],
            consumer.inputs[Slot.input.rawValue] != producer.outputs[0],
            case .int32(let paddings)? = graph.tensors[producer.inputs[1]].constant
        else { return nil }
        let rank = graph.tensors[producer.inputs[0]].shape.count
        // Only zeros appended to the last dimension: the padded tensor is the unpadded one with more channels.
        guard rank >= 1, paddings.count == 2 * rank, paddings.dropLast().allSatisfy({ $0 == 0 }),
            graph.tensors[producer.inputs[0]].type == .float32
        else { return nil }
        var node = consumer
        node.inputs[residual] = producer.inputs[0]
        return node
    }
}
