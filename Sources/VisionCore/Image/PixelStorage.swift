import CImageCodecs
import Foundation
import VisionErrors

/// Pixel memory owned by an `MPImage`: from `ic_pixels_alloc` (a photo's megabytes on huge pages,
/// see CImageCodecs/pixel_memory.c), written once while the image is made, then only read, so it
/// can be shared across threads.
final class PixelStorage: @unchecked Sendable {
    /// The first byte. Never written after the image is made.
    let base: UnsafeMutableRawPointer
    /// Number of bytes.
    let count: Int

    /// Takes ownership of `base`, which must come from `ic_pixels_alloc` (a decoder's `ic_image`).
    init(adopting base: UnsafeMutableRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// Allocates `count` bytes, not cleared: the caller writes every one before the image is made
    /// (a copy, a conversion, a frame read in full). Throws when memory is short.
    init(count: Int, for what: String) throws {
        guard count > 0, let base = ic_pixels_alloc_overwritten(count) else {
            throw VisionTasksError.invalidImage("\(what): cannot allocate \(count) bytes")
        }
        self.base = base
        self.count = count
    }

    deinit { ic_pixels_free(base) }
}

/// The pixel memory kept for reuse after images are freed (a photo's or frame's block, so the next
/// one of its size touches no new page): what a process gone idle gives back.
public enum KeptPixelMemory {
    /// Unmaps the blocks kept `seconds` or longer without being reused (0: all); returns how many stay kept.
    @discardableResult
    public static func release(unusedFor seconds: Double) -> Int {
        Int(ic_pixels_release_kept(seconds))
    }
}
