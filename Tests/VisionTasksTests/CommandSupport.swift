import Foundation

/// Runs the built `vision-tasks` executable as a user runs it, for the command-line tests.
enum CommandSupport {
    /// The built `vision-tasks` executable, next to the test bundle (or under .build/debug).
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("vision-tasks")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/vision-tasks")
    }

    /// Runs `vision-tasks arguments...`; its stdout lines, exit status and stderr.
    static func run(_ arguments: [String]) throws -> (lines: [String], status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return (lines, process.terminationStatus, String(decoding: errData, as: UTF8.self))
    }
}
