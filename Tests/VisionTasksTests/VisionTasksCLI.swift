import FixtureSupport
import Foundation

/// Runs the built `vision-tasks` tool as a user runs it, for the command-line tests of every task.
enum VisionTasksCLI {
    /// Runs the tool with `arguments`; returns its standard output lines, exit status and standard error.
    static func run(_ arguments: [String]) throws -> (lines: [String], status: Int32, stderr: String) {
        let output = try Tool.run(Tool.visionTasks, arguments)
        return (output.stdout.split(separator: "\n").map(String.init), output.status, output.stderr)
    }
}
