import Foundation

/// A one-line progress bar on stderr: `[#######.......]  12/40  3.1 images/s`.
final class ProgressBar {
    private let total: Int
    private let unit: String
    private let started = Date()
    private var lastDraw = Date.distantPast

    init(total: Int, unit: String) {
        self.total = total
        self.unit = unit
    }

    /// Redraws with `done` items finished (at most ten times a second, and always at the end). More than `total`
    /// (a video whose container declared fewer frames than it holds) shows as all of them.
    func update(done: Int) {
        let total = max(self.total, done)
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        Console.error(String(format: "\r[%@] %d/%d  %.1f %@/s", bar, done, total, rate, unit))
    }

    /// Erases the bar.
    func clear() {
        Console.error("\r\u{1B}[K")
    }
}
