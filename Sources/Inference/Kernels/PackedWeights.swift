import CKernels
import VisionErrors

/// Raw fp32 storage aligned to 64 bytes, owned by a packed-weights object.
final class AlignedFloats: @unchecked Sendable {
    /// The first element.
    let pointer: UnsafeMutablePointer<Float>
    /// Number of elements.
    let count: Int

    /// Storage of `count` floats, zero filled.
    init(count: Int) {
        self.count = count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1) * 4, alignment: 64)
        pointer = raw.initializeMemory(as: Float.self, repeating: 0, count: Swift.max(count, 1))
    }

    deinit { pointer.deallocate() }

    /// Checks the sizes of `weights` (`weightCount` values) and `bias` (`biasCount` or nil), then
    /// allocates `packedCount` floats and fills them with `pack(weights, bias or NULL, storage)`.
    static func packing(_ operation: String, weights: UnsafeBufferPointer<Float>, weightCount: Int,
                        bias: UnsafeBufferPointer<Float>?, biasCount: Int, packedCount: Int,
                        _ pack: (UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>) -> Void)
        throws -> AlignedFloats {
        guard weights.count == weightCount, let base = weights.baseAddress else {
            throw VisionTasksError.unsupportedModel(
                "\(operation): weights have \(weights.count) values, the shape needs \(weightCount)")
        }
        if let bias, bias.count != biasCount {
            throw VisionTasksError.unsupportedModel(
                "\(operation): bias has \(bias.count) values, the output has \(biasCount) channels")
        }
        let storage = AlignedFloats(count: packedCount)
        pack(base, bias?.baseAddress, storage.pointer)
        return storage
    }
}

/// Calls `body` with buffers over `weights` and `bias` (nil stays nil).
func withWeightBuffers<R>(_ weights: [Float], _ bias: [Float]?,
                          _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>?) throws -> R) rethrows -> R {
    try weights.withUnsafeBufferPointer { w in
        try (bias ?? []).withUnsafeBufferPointer { b in try body(w, bias == nil ? nil : b) }
    }
}
