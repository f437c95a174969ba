import CKernels
import Foundation
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
    static func packing(
        _ operation: String, weights: UnsafeBufferPointer<Float>, weightCount: Int,
        bias: UnsafeBufferPointer<Float>?, biasCount: Int, packedCount: Int,
        _ pack: (UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>) -> Void
    )
        throws -> AlignedFloats
    {
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
        return PackedWeightsShelf.shared.intern(storage, operation)
    }
}

/// The packed weights of every interpreter in the process, so that several instances of one model
/// (`--jobs`, the server's workers) hold its weights once: freshly packed weights equal to ones
/// still in use, value for value, are dropped for those. Found by a hash of the values, confirmed
/// by comparing them all; held weakly, so weights go when their last interpreter does.
final class PackedWeightsShelf: @unchecked Sendable {
    static let shared = PackedWeightsShelf()

    private struct Key: Hashable {
        let operation: String
        let count: Int
        let hash: UInt64
    }

    private final class WeakStorage {
        weak var storage: AlignedFloats?
        init(_ storage: AlignedFloats) { self.storage = storage }
    }

    private let lock = NSLock()
    private var shelf: [Key: [WeakStorage]] = [:]

    /// `packed`, or weights in use equal to it (same operation and values).
    func intern(_ packed: AlignedFloats, _ operation: String) -> AlignedFloats {
        let key = Key(operation: operation, count: packed.count, hash: Self.hash(packed))
        lock.lock()
        defer { lock.unlock() }
        var entries = (shelf[key] ?? []).filter { $0.storage != nil }
        for entry in entries {
            if let held = entry.storage, memcmp(held.pointer, packed.pointer, packed.count * 4) == 0 { return held }
        }
        entries.append(WeakStorage(packed))
        shelf[key] = entries
        if shelf.count % 256 == 0 { shelf = shelf.filter { $0.value.contains { $0.storage != nil } } }
        return packed
    }

    /// FNV-1a over the bits of about 4,096 values spread over the weights: a sieve (equality is
    /// checked in full), so loading stays cheap.
    private static func hash(_ packed: AlignedFloats) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let words = UnsafeRawPointer(packed.pointer).assumingMemoryBound(to: UInt32.self)
        for i in stride(from: 0, to: packed.count, by: max(1, packed.count / 4096)) {
            h = (h ^ UInt64(words[i])) &* 0x0000_0100_0000_01b3
        }
        return h
    }
}

/// Calls `body` with buffers over `weights` and `bias` (nil stays nil).
func withWeightBuffers<R>(
    _ weights: [Float], _ bias: [Float]?,
    _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>?) throws -> R
) rethrows -> R {
    try weights.withUnsafeBufferPointer { w in
        try (bias ?? []).withUnsafeBufferPointer { b in try body(w, bias == nil ? nil : b) }
    }
}
