import CImageCodecs

/// Memory the process holds without using it, given back to the system: for a process gone idle
/// (a server between requests) or done loading (models widened and packed, their files read).
public enum ProcessMemory {
    /// Unmaps the pixel blocks kept for reuse after images were freed (a photo's or frame's block,
    /// so the next one of its size touches no new page) that `seconds` or more have passed without
    /// reuse (0: all); returns how many stay kept.
    @discardableResult
    public static func releaseKeptPixels(unusedFor seconds: Double) -> Int {
        Int(ic_pixels_release_kept(seconds))
    }

    /// Returns the free pages inside malloc's heaps (loading's transient buffers, freed but below
    /// memory still in use) to the system (glibc's `malloc_trim`; a no-op elsewhere).
    public static func trimHeap() {
        ic_trim_heap()
    }
}
