// Binds the packed C kernels (Sources/Inference/Kernels) to graph nodes: weights are packed
// once here, and each run is one call into CKernels through a closure over fixed pointers.

import VisionErrors

extension ClampRange {
    /// The clamp of a fused activation.
    init(_ activation: Activation) {
        let b = activation.bounds
        self.init(min: b.min, max: b.max)
    }
}

extension Conv2DGeometry {
    /// [batch, outputHeight, outputWidth, outputChannels].
    var outputShape: [Int] { [batch, outputHeight, outputWidth, outputChannels] }
}

/// A kernel whose work is a closure made at load time (it captures pointers, packed weights and
/// scratch, so calling it allocates nothing).
final class BoundKernel: Kernel {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    func run() { body() }
}

/// Reads a node's constant weights (slot 1) and optional bias (slot 2).
private func weightsAndBias(_ context: KernelContext, _ opName: String) throws -> ([Float], [Float]?) {
    guard let weights = context.constantValues(1) else {
        throw VisionTasksError.unsupportedModel("\(opName) weights must be constant")
    }
    return (weights, context.constantValues(2))
}

func makeConvolutionKernel(geometry: Conv2DGeometry, options: ConvolutionOptions, context: KernelContext) throws -> Kernel {
    let (filter, bias) = try weightsAndBias(context, "CONV_2D")
    let weights = try PackedConv2DWeights(geometry: geometry, filter: filter, bias: bias)
    let (input, output, threads, clamp) = (context.input(0), context.output(0), context.threads,
                                           ClampRange(options.activation))
    let residual = options.hasResidual ? context.input(3) : nil
    let alpha = options.hasPReLU ? context.input(4) : nil
    let scratchCount = weights.scratchCount(threads: threads)
    let scratch = scratchCount > 0 ? AlignedFloats(count: scratchCount) : nil
    return BoundKernel {
        conv2D(input: input, output: output, weights: weights, activation: clamp, residual: residual,
               preluAlpha: alpha, scratch: scratch?.pointer, threads: threads)
    }
}

func makeDepthwiseKernel(geometry: Conv2DGeometry, activation: Activation, context: KernelContext) throws -> Kernel {
    let (filter, bias) = try weightsAndBias(context, "DEPTHWISE_CONV_2D")
    let weights = try PackedDepthwiseWeights(geometry: geometry, filter: filter, bias: bias)
    let (input, output, threads, clamp) = (context.input(0), context.output(0), context.threads, ClampRange(activation))
    return BoundKernel {
        depthwiseConv2D(input: input, output: output, weights: weights, activation: clamp, threads: threads)
    }
}

func makeFullyConnectedKernel(rows: Int, depth: Int, units: Int, activation: Activation,
                              context: KernelContext) throws -> Kernel {
    let (values, bias) = try weightsAndBias(context, "FULLY_CONNECTED")
    let weights = try PackedFullyConnectedWeights(inputCount: depth, outputCount: units, weights: values, bias: bias)
    let (input, output, threads, clamp) = (context.input(0), context.output(0), context.threads, ClampRange(activation))
    return BoundKernel {
        fullyConnected(input: input, output: output, rows: rows, weights: weights, activation: clamp, threads: threads)
    }
}

func makeMaxPoolKernel(geometry: Conv2DGeometry, activation: Activation, context: KernelContext) -> Kernel {
    let (input, output, threads, clamp) = (context.input(0), context.output(0), context.threads, ClampRange(activation))
    return BoundKernel {
        maxPool2D(input: input, output: output, geometry: geometry, activation: clamp, threads: threads)
    }
}

/// PRELU with one alpha per channel (the models' [1, 1, C] alpha).
func makeChannelPReLUKernel(pixels: Int, channels: Int, context: KernelContext) -> Kernel {
    let (input, alpha, output, threads) = (context.input(0), context.input(1), context.output(0), context.threads)
    return BoundKernel {
        prelu(input: input, alpha: alpha, output: output, pixels: pixels, channels: channels, threads: threads)
    }
}

/// ADD of two same-shape tensors.
func makeSameShapeAddKernel(count: Int, activation: Activation, context: KernelContext) -> Kernel {
    let (a, b, output, threads, clamp) = (context.input(0), context.input(1), context.output(0), context.threads,
                                          ClampRange(activation))
    return BoundKernel {
        add(a, b, output: output, count: count, activation: clamp, threads: threads)
    }
}
