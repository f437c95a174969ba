// Shape inference and kernel preparation for one node: checks the operator's inputs, computes
// its output shapes, and returns a recipe that binds a kernel to buffers once they are placed.

import VisionErrors

/// The buffers a kernel is bound to, and constant data for packing weights.
protocol KernelContext {
    /// The buffer of the node's input at `slot` (constant or arena).
    func input(_ slot: Int) -> UnsafePointer<Float>
    /// The buffer of the node's output at `slot`.
    func output(_ slot: Int) -> UnsafeMutablePointer<Float>
    /// The values of the node's constant float input at `slot` (weights, biases), nil if absent.
    func constantValues(_ slot: Int) -> [Float]?
    /// How many threads a kernel may split its work over.
    var threads: KernelThreads { get }
}

/// What planning learned about a node: its output shapes, and how to make its kernel.
struct PreparedNode {
    var outputShapes: [[Int]]
    /// True when the output is the input's data under another shape (RESHAPE): no kernel needed
    /// if the two can share a buffer.
    var isReshape = false
    var make: (KernelContext) throws -> Kernel
}

/// Reads a node's inputs from the graph and prepares it.
struct NodePreparer {
    let graph: Graph
    let node: GraphNode

    private func tensor(_ slot: Int) throws(VisionTasksError) -> GraphTensor {
        guard slot < node.inputs.count, node.inputs[slot] >= 0 else {
            throw VisionTasksError.invalidModel("input \(slot) is missing")
        }
        return graph.tensors[node.inputs[slot]]
    }

    private func hasInput(_ slot: Int) -> Bool { slot < node.inputs.count && node.inputs[slot] >= 0 }

    /// Shape of a float input (runtime or constant).
    private func floatShape(_ slot: Int) throws(VisionTasksError) -> [Int] {
        let t = try tensor(slot)
        guard t.type == .float32 else {
            throw VisionTasksError.unsupportedModel("input \(slot) (\(t.name)) has type \(t.type); only float32 is supported here")
        }
        return t.shape
    }

    /// Values of a constant int32 argument (shape, axes, permutation, paddings, indices, size).
    private func ints(_ slot: Int) throws(VisionTasksError) -> [Int] {
        let t = try tensor(slot)
        guard case .int32(let v)? = t.constant else {
            throw VisionTasksError.unsupportedModel("input \(slot) (\(t.name)) must be a constant int32 tensor")
        }
        return v.map(Int.init)
    }

    private func requireOutputs(_ n: Int) throws(VisionTasksError) {
        try require(node.outputs.count == n, "has \(node.outputs.count) outputs, expected \(n)")
    }

    func prepare() throws(VisionTasksError) -> PreparedNode {
        switch node.operation {
        case .binary(let op, let activation):
            try requireOutputs(1)
            let a = try floatShape(0), b = try floatShape(1)
            guard let plan = BroadcastPlan(a, b) else {
                throw VisionTasksError.invalidModel("shapes \(a) and \(b) do not broadcast")
            }
            let count = plan.outputShape.reduce(1, *)
            let channels = a.last ?? 1
            let perChannelAlpha = op == .prelu && a == plan.outputShape && b.reduce(1, *) == channels
                && b.last == channels
            return PreparedNode(outputShapes: [plan.outputShape]) { ctx in
                if perChannelAlpha && channels > 0 {
                    return makeChannelPReLUKernel(pixels: count / channels, channels: channels, context: ctx)
                }
                if op == .add && a == b {
                    return makeSameShapeAddKernel(count: count, activation: activation, context: ctx)
                }
                return makeBinaryKernel(op, plan: plan, a: ctx.input(0), b: ctx.input(1), out: ctx.output(0),
                                        activation: activation)
            }
        case .unary(let op):
            try requireOutputs(1)
            let s = try floatShape(0)
            let count = s.reduce(1, *)
            return PreparedNode(outputShapes: [s]) { ctx in
                makeUnaryKernel(op, input: ctx.input(0), out: ctx.output(0), count: count)
            }
        case .softmax(let beta):
            try requireOutputs(1)
            let s = try floatShape(0)
            try require(!s.isEmpty, "softmax of a scalar")
            let depth = s[s.count - 1], rows = depth == 0 ? 0 : s.reduce(1, *) / depth
            return PreparedNode(outputShapes: [s]) { ctx in
                SoftmaxKernel(input: ctx.input(0), out: ctx.output(0), rows: rows, depth: depth, beta: beta)
            }
        case .reshape(let newShape):
            try requireOutputs(1)
            let s = try floatShape(0)
            let target: [Int]
            if hasInput(1) {
                target = try ints(1)
            } else if let newShape {
                target = newShape
            } else {
                // No target given: TFLite takes the output tensor's declared shape.
                target = graph.tensors[node.outputs[0]].shape
            }
            let out = try LayoutPlanner.reshape(s, newShape: target)
            let copy = try stridedCopy(extents: [s.reduce(1, *)], sourceStrides: [1], destinationStrides: [1])
            return PreparedNode(outputShapes: [out], isReshape: true) { ctx in
                CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy])
            }
        case .transpose:
            try requireOutputs(1)
            let (out, copy) = try LayoutPlanner.transpose(try floatShape(0), perm: try ints(1))
            return PreparedNode(outputShapes: [out]) { ctx in
                CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy])
            }
        case .pad:
            try requireOutputs(1)
            let (out, copy) = try LayoutPlanner.pad(try floatShape(0), paddings: try ints(1))
            let count = out.reduce(1, *)
            return PreparedNode(outputShapes: [out]) { ctx in
                CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy], zeroFillCount: count)
            }
        case .stridedSlice(let options):
            try requireOutputs(1)
            let (out, copy) = try LayoutPlanner.stridedSlice(try floatShape(0), begin: try ints(1), end: try ints(2),
                                                             strides: try ints(3), options: options)
            return PreparedNode(outputShapes: [out]) { ctx in
                CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy])
            }
        case .gather(let axis, let batchDims):
            try requireOutputs(1)
            let indicesShape = try tensor(1).shape
            let (out, copies) = try LayoutPlanner.gather(try floatShape(0), indices: try ints(1), indicesShape: indicesShape,
                                                         axis: axis, batchDims: batchDims)
            return PreparedNode(outputShapes: [out]) { ctx in
                CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: copies)
            }
        case .concatenation(let axis, let activation):
            try requireOutputs(1)
            var shapes: [[Int]] = []
            for slot in node.inputs.indices { shapes.append(try floatShape(slot)) }
            let (out, copies) = try LayoutPlanner.concatenation(shapes, axis: axis)
            let count = out.reduce(1, *)
            return PreparedNode(outputShapes: [out]) { ctx in
                let target = ctx.output(0)
                return MultiCopyKernel(parts: copies.enumerated().map { (ctx.input($0.offset), target, $0.element) },
                                       activation: activation, clampTarget: (target, count))
            }
        case .unpack(let num, let axis):
            try requireOutputs(num)
            let (out, copies) = try LayoutPlanner.unpack(try floatShape(0), num: num, axis: axis)
            return PreparedNode(outputShapes: Array(repeating: out, count: num)) { ctx in
                let source = ctx.input(0)
                return MultiCopyKernel(parts: copies.enumerated().map { (source, ctx.output($0.offset), $0.element) })
            }
        case .reduce(let op, let keepDims):
            try requireOutputs(1)
            let plan = try ReducePlan(input: try floatShape(0), axes: try ints(1), keepDims: keepDims)
            return PreparedNode(outputShapes: [plan.outputShape]) { ctx in
                ReduceKernel(plan: plan, op: op, input: ctx.input(0), out: ctx.output(0))
            }
        case .resizeBilinear(let alignCorners, let halfPixelCenters):
            try requireOutputs(1)
            let s = try floatShape(0)
            try require(s.count == 4, "input must be NHWC, got \(s)")
            let size = try ints(1)
            try require(size.count == 2 && size.allSatisfy { $0 > 0 }, "size \(size) is not two positive values")
            try require(!(alignCorners && halfPixelCenters), "align_corners and half_pixel_centers are both set")
            return PreparedNode(outputShapes: [[s[0], size[0], size[1], s[3]]]) { ctx in
                ResizeBilinearKernel(input: ctx.input(0), out: ctx.output(0), inputShape: s, outH: size[0], outW: size[1],
                                     alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
            }
        case .maxPool2d(let options):
            try requireOutputs(1)
            let s = try floatShape(0)
            try require(s.count == 4, "input must be NHWC, got \(s)")
            let geometry = try windowGeometry(input: s, kernelH: options.filterH, kernelW: options.filterW, outputChannels: s[3],
                                              options: ConvolutionOptions(padding: options.padding, strideH: options.strideH,
                                                                          strideW: options.strideW, activation: options.activation))
            return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
                makeMaxPoolKernel(geometry: geometry, activation: options.activation, context: ctx)
            }
        case .dequantize:
            try requireOutputs(1)
            let t = try tensor(0)
            try require(t.constant != nil, "dequantizing a tensor computed at run time (\(t.name)) is not supported")
            let values: [Float]
            switch t.constant {
            case .float16(let h)?: values = h.map(floatFromHalf)
            case .int8(let q)?:
                guard let quantization = t.quantization else { throw VisionTasksError.invalidModel("\(t.name) has no quantization") }
                values = try dequantize(q, shape: t.shape, quantization: quantization)
            case .uint8(let q)?:
                guard let quantization = t.quantization else { throw VisionTasksError.invalidModel("\(t.name) has no quantization") }
                values = try dequantize(q, shape: t.shape, quantization: quantization)
            case .float32(let f)?: values = f
            default: throw VisionTasksError.unsupportedModel("cannot dequantize \(t.type)")
            }
            return PreparedNode(outputShapes: [t.shape]) { ctx in
                ConstantKernel(values: values, out: ctx.output(0))
            }
        case .conv2d(let options):
            try requireOutputs(1)
            let s = try floatShape(0), f = try floatShape(1)
            try require(s.count == 4 && f.count == 4, "input \(s) and filter \(f) must be 4-D")
            try require(f[3] == s[3], "filter \(f) does not match input channels \(s[3])")
            let geometry = try windowGeometry(input: s, kernelH: f[1], kernelW: f[2], outputChannels: f[0], options: options)
            try requireBias(slot: 2, channels: f[0])
            if options.hasResidual {
                try require(try floatShape(3) == geometry.outputShape, "fused residual does not match the output")
            }
            if options.hasPReLU {
                let alphaIsConstant = try tensor(4).constant != nil
                let alphaCount = try floatShape(4).reduce(1, *)
                try require(alphaIsConstant && alphaCount == f[0], "fused PRELU alpha must be a constant with one value per channel")
            }
            return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
                try makeConvolutionKernel(geometry: geometry, options: options, context: ctx)
            }
        case .depthwiseConv2d(let options):
            try requireOutputs(1)
            let s = try floatShape(0), f = try floatShape(1)
            try require(s.count == 4 && f.count == 4 && f[0] == 1, "input \(s) and filter \(f) must be 4-D, filter [1,h,w,c]")
            try require(options.depthMultiplier >= 1 && f[3] == s[3] * options.depthMultiplier,
                        "filter \(f) does not match input channels \(s[3]) × multiplier \(options.depthMultiplier)")
            let geometry = try windowGeometry(input: s, kernelH: f[1], kernelW: f[2], outputChannels: f[3], options: options)
            try requireBias(slot: 2, channels: f[3])
            return PreparedNode(outputShapes: [geometry.outputShape]) { ctx in
                try makeDepthwiseKernel(geometry: geometry, activation: options.activation, context: ctx)
            }
        case .fullyConnected(let activation, let keepNumDims):
            try requireOutputs(1)
            let s = try floatShape(0), w = try floatShape(1)
            try require(w.count == 2 && !s.isEmpty, "weights \(w) must be 2-D")
            let depth = w[1], units = w[0]
            let count = s.reduce(1, *)
            try require(depth > 0 && count % depth == 0, "input \(s) does not divide into rows of \(depth)")
            try requireBias(slot: 2, channels: units)
            let rows = count / depth
            let out = keepNumDims ? Array(s.dropLast()) + [units] : [rows, units]
            return PreparedNode(outputShapes: [out]) { ctx in
                try makeFullyConnectedKernel(rows: rows, depth: depth, units: units, activation: activation, context: ctx)
            }
        }
    }

    /// The window geometry of a convolution or pool on NHWC `input`, with TFLite's padding rule.
    private func windowGeometry(input s: [Int], kernelH: Int, kernelW: Int, outputChannels: Int,
                                options: ConvolutionOptions) throws(VisionTasksError) -> Conv2DGeometry {
        try require(kernelH > 0 && kernelW > 0 && options.strideH > 0 && options.strideW > 0
                        && options.dilationH > 0 && options.dilationW > 0,
                    "kernel, stride and dilation must be positive")
        let g = Conv2DGeometry(batch: s[0], inputHeight: s[1], inputWidth: s[2], inputChannels: s[3],
                               outputChannels: outputChannels, kernelHeight: kernelH, kernelWidth: kernelW,
                               strideHeight: options.strideH, strideWidth: options.strideW,
                               dilationHeight: options.dilationH, dilationWidth: options.dilationW,
                               padding: options.padding)
        try require(g.outputHeight > 0 && g.outputWidth > 0, "window larger than input \(s)")
        do {
            try g.validate(node.opName)
        } catch {
            throw VisionTasksError.unsupportedModel("geometry out of range for input \(s)")
        }
        return g
    }

    private func requireBias(slot: Int, channels: Int) throws(VisionTasksError) {
        guard hasInput(slot) else { return }
        let b = try floatShape(slot)
        try require(b.reduce(1, *) == channels, "bias \(b) does not have \(channels) values")
    }
}

/// Writes constant values into its output (a DEQUANTIZE that could not be folded because its
/// output is a graph output; folding normally removes it).
final class ConstantKernel: Kernel {
    let values: [Float]
    let out: UnsafeMutablePointer<Float>

    init(values: [Float], out: UnsafeMutablePointer<Float>) {
        self.values = values
        self.out = out
    }

    func run() {
        values.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { out.update(from: base, count: b.count) }
        }
    }
}
