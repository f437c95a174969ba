import Synchronization

/// The pixels of the live frames in work on every socket together, from their decoding until their result (or error)
/// comes: at most `ServerConfiguration.heldLivePixels`. Each socket's task holds one frame in flight and one waiting,
/// plus what that frame's result makes (a segmentation mask of its size), so sixteen sockets of 64-megapixel frames
/// would otherwise hold gigabytes.
final class LiveFrameBudget: Sendable {
    /// The most pixels held at once.
    let limit: Int
    private let held = Mutex(0)

    /// A budget of `limit` pixels, none held.
    init(limit: Int) {
        self.limit = limit
    }

    /// Pixels held now.
    var heldPixels: Int { held.withLock { $0 } }

    /// Holds `pixels` more when they fit within the limit; false (nothing held) when they do not.
    func take(_ pixels: Int) -> Bool {
        held.withLock { held in
            guard pixels <= limit - held else { return false }
            held += pixels
            return true
        }
    }

    /// Gives back `pixels` taken earlier.
    func give(_ pixels: Int) {
        guard pixels > 0 else { return }
        held.withLock { $0 -= pixels }
    }
}
