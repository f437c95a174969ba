import Foundation

/// Runs the built `vision-tasks` tool (next to the test bundle in .build/<config>/) and collects
/// its output, exit status and peak memory.
struct CLIRun {
    let stdout: String
    let stderr: String
    let status: Int32
    /// Lines of stdout decoded as JSON objects.
    var lines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/images")
    static let models = root.appendingPathComponent("models")

    static var binary: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("vision-tasks")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/vision-tasks")
    }

    /// Runs the tool with `arguments`; `interruptAfter` sends SIGINT after that many seconds.
    static func run(_ arguments: [String], interruptAfter: Double? = nil) throws -> CLIRun {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let interruptAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + interruptAfter) { process.interrupt() }
        }
        // Read both pipes fully before waiting (a full pipe would block the tool).
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLIRun(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                      status: process.terminationStatus)
    }

    /// A fresh scratch directory.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs ffmpeg quietly with `arguments`.
    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
