import Foundation
import Testing
import VisionTasks

/// The CLI's task subcommands and help, and the README's option tables, are made from the library's
/// task catalog: the same defaults, ranges and names everywhere.
@Suite struct TaskCatalogCLITests {
    /// Every task has its subcommand, whose help lists each option with the declared default and range.
    @Test func everyTaskOptionIsAFlagWithTheDeclaredDefault() throws {
        #expect(TaskDescription.all.count == 6)
        for task in TaskDescription.all {
            let run = try CLIRun.run([task.name, "--help"])
            #expect(run.status == 0, "\(task.name): \(run.stderr)")
            for option in task.options {
                let range = option.rangeText.isEmpty ? "" : "\(option.rangeText); "
                #expect(run.stdout.contains("--\(option.name)"), "\(task.name) --help lacks --\(option.name)")
                #expect(
                    run.stdout.contains("(\(range)default: \(option.defaultText))"),
                    "\(task.name) --\(option.name): \(run.stdout)")
            }
        }
    }

    /// `vision-tasks tasks` prints the same catalog as `GET /api/v1/tasks`, with the library's defaults.
    @Test func theCatalogCommandPrintsEveryOption() throws {
        let run = try CLIRun.run(["tasks"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tasks = try #require(object["tasks"] as? [[String: Any]])
        #expect(tasks.compactMap { $0["name"] as? String } == TaskDescription.all.map(\.name))
        let landmarker = try #require(tasks.first { $0["name"] as? String == "face-landmarker" })
        let numFaces = try #require(
            (landmarker["options"] as? [[String: Any]])?.first { $0["name"] as? String == "num-faces" })
        #expect(numFaces["default"] as? Int == FaceLandmarkerOptions().numFaces)
        #expect(numFaces["min"] as? Int == 1)
    }

    /// README's "Task options" tables are what `vision-tasks tasks --markdown` prints
    /// (tools/checks/readme_task_options.py writes them).
    @Test func readmeTablesAreTheCatalogs() throws {
        let run = try CLIRun.run(["tasks", "--markdown"])
        #expect(run.status == 0)
        let readme = try String(contentsOf: CLIRun.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = "<!-- task-options:begin -->\n", end = "<!-- task-options:end -->"
        let start = try #require(readme.range(of: begin), "README.md has no task-options section")
        let stop = try #require(readme.range(of: end, range: start.upperBound..<readme.endIndex))
        #expect(
            String(readme[start.upperBound..<stop.lowerBound]) == run.stdout,
            "README.md's task options differ from the catalog: run tools/checks/readme_task_options.py .build/debug/vision-tasks"
        )
    }
}
