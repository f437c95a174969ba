import Foundation

/// The host the figures come from, for benchmark headers: CPU model, family and model numbers,
/// CPU count and cache sizes (Linux /proc/cpuinfo and /sys; fields it cannot read are left out).
enum HostCPU {
    /// One line, e.g. "AMD EPYC 7B13 (family 25 model 1), 2 CPUs; L1d 32K, L1i 32K, L2 512K, L3 32768K".
    static func describe() -> String {
        var fields: [String: String] = [:]
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        for line in info.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            if fields[key] == nil { fields[key] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        var out = fields["model name"] ?? "unknown CPU"
        if let family = fields["cpu family"], let model = fields["model"] {
            out += " (family \(family) model \(model))"
        }
        out += ", \(ProcessInfo.processInfo.activeProcessorCount) CPUs"
        let caches = self.caches()
        return caches.isEmpty ? out : out + "; " + caches.joined(separator: ", ")
    }

    /// CPU 0's caches, e.g. ["L1d 32K", "L1i 32K", "L2 512K", "L3 32768K"].
    static func caches() -> [String] {
        (0..<8).compactMap { index -> String? in
            let folder = "/sys/devices/system/cpu/cpu0/cache/index\(index)/"
            func read(_ name: String) -> String? {
                (try? String(contentsOfFile: folder + name, encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines)
            }
            guard let level = read("level"), let size = read("size") else { return nil }
            let kind = ["Data": "d", "Instruction": "i"][read("type") ?? ""] ?? ""
            return "L\(level)\(kind) \(size)"
        }
    }

    /// The 1, 5 and 15 minute load averages ("1.20 0.90 0.75"; "unknown" where unreadable).
    static func loadAverage() -> String {
        var load = [Double](repeating: 0, count: 3)
        guard getloadavg(&load, 3) == 3 else { return "unknown" }
        return load.map { String(format: "%.2f", $0) }.joined(separator: " ")
    }
}
