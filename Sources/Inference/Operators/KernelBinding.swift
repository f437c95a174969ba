// What the operators' kernel bindings share: a kernel that is a closure over fixed pointers and
// packed weights (one call into CKernels per run), the clamp of a fused activation, constant weights.

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
func weightsAndBias(_ context: KernelContext, _ opName: String) throws -> ([Float], [Float]?) {
    guard let weights = context.constantValues(1) else {
        throw VisionTasksError.unsupportedModel("\(opName) weights must be constant")
    }
    return (weights, context.constantValues(2))
}
