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

    /// Allocates `count` bytes (and `slack` more past them, not counted), not cleared: the caller writes
    /// every one before the image is made (a copy, a conversion, a frame read in full). Throws when memory is short.
    init(count: Int, slack: Int = 0, for what: String) throws {
        guard count > 0, slack >= 0, let base = ic_pixels_alloc_overwritten(count + slack) else {
            throw VisionTasksError.invalidImage("\(what): cannot allocate \(count) bytes")
        }
        self.base = base
        self.count = count
    }

    deinit { ic_pixels_free(base) }
}
