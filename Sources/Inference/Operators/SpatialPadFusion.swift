// A zero PAD of the rows and columns only, read by a VALID convolution or depthwise convolution alone
// (MediaPipe's models pad before each stride-2 depthwise layer): the window operation reads the
// unpadded tensor with those paddings as its own, so the padded copy is neither written nor read.
// Taps in the padding add zero, as the padded zeros did.

/// The rewrite `Conv2DOperator` and `DepthwiseConv2DOperator` share: `options` reads a consumer's
/// convolution options (nil: another operation), `rebuild` makes the operation with new ones.
func spatialPadRewrite(
    options: @escaping @Sendable (any GraphOperation) -> ConvolutionOptions?,
    rebuild: @escaping @Sendable (ConvolutionOptions) -> any GraphOperation
) -> GraphRewrite {
    .pair { graph, producer, consumer in
        guard let current = options(consumer.operation), consumer.inputs.count > 1,
            case let filter = graph.tensors[consumer.inputs[1]].shape, filter.count == 4,
            let (inputs, fused) = fuseSpatialPad(
                graph, producer, consumer, options: current, kernel: (filter[1], filter[2]))
        else { return nil }
        var node = consumer
        node.operation = rebuild(fused)
        node.inputs = inputs
        return node
    }
}

/// The pair's fused inputs and `options` with the PAD's paddings made explicit, or nil when the pair
/// does not qualify.
func fuseSpatialPad(
    _ graph: Graph, _ producer: GraphNode, _ consumer: GraphNode, options: ConvolutionOptions,
    kernel: (height: Int, width: Int)?
) -> (inputs: [Int], options: ConvolutionOptions)? {
    guard producer.operation is PadOperator, producer.inputs.count == 2, options.padding == .valid,
        consumer.inputs.first == producer.outputs[0], !consumer.inputs.dropFirst().contains(producer.outputs[0]),
        let kernel, graph.tensors[producer.inputs[0]].type == .float32,
        graph.tensors[producer.inputs[0]].shape.count == 4,
        case .int32(let raw)? = graph.tensors[producer.inputs[1]].constant, raw.count == 8
    else { return nil }
    let p = raw.map(Int.init)
    guard p[0] == 0, p[1] == 0, p[6] == 0, p[7] == 0, p[2...5].allSatisfy({ $0 >= 0 }) else { return nil }
    // At most a window less one on a side: the kernels' border handling covers that much.
    let (reachH, reachW) = ((kernel.height - 1) * options.dilationH, (kernel.width - 1) * options.dilationW)
    guard p[2] <= reachH, p[3] <= reachH, p[4] <= reachW, p[5] <= reachW else { return nil }
    var fused = options
    fused.padding = .explicit(top: p[2], bottom: p[3], left: p[4], right: p[5])
    return ([producer.inputs[0]] + consumer.inputs.dropFirst(), fused)
}
