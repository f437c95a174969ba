import Foundation

/// Runs the built `vision-tasks` tool as a user runs it (the binary `swift build` puts beside the
/// tests), for the command-line tests of every task.
enum VisionTasksCLI {
    /// The built `vision-tasks` executable, next to the test bundle.
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("vision-tasks")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return FaceDetectorSupport.root.appendingPathComponent(".build/debug/vision-tasks")
    }

    /// Runs the tool with `arguments`; returns its standard output lines, exit status and standard error.
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
