import Foundation

/// The process's resident set size, from /proc/self/statm.
enum Memory {
    /// Resident memory in MiB (0 if /proc cannot be read).
    static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Checks that every sample after the warm-up stays within `tolerance` (0.10 = 10%) of the
    /// first one after it; returns a failure message or nil, and the figures line.
    static func flat(_ samples: [Double], warmup: Int, tolerance: Double, what: String) -> (
        failure: String?, figures: String
    ) {
        let settled = Array(samples.dropFirst(warmup))
        guard let base = settled.first, base > 0, let high = settled.max(), let low = settled.min() else {
            return ("\(what): no RSS samples after the warm-up (\(samples.count) samples, warm-up \(warmup))", "")
        }
        let figures = String(
            format: "%@ RSS after warm-up: first %.1f MiB, min %.1f, max %.1f, last %.1f (%+.1f%%), %d samples",
            what, base, low, high, settled.last ?? base, ((settled.last ?? base) / base - 1) * 100, settled.count)
        if high > base * (1 + tolerance) || low < base * (1 - tolerance) {
            return (
                String(
                    format: "%@: RSS not flat within %.0f%% after warm-up (%.1f → max %.1f MiB)",
                    what, tolerance * 100, base, high), figures
            )
        }
        return (nil, figures)
    }
}
