import ArgumentParser
import Foundation
import VisionServer
import VisionTasks

/// `vision-tasks tasks`: the library's description of every task (`TaskDescription`), as the JSON
/// `GET /api/v1/tasks` serves or as the README's option tables (`--markdown`).
struct TasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract: "Describe every task's options and outputs (JSON, or the README's Markdown tables).")

    @Flag(help: "Markdown tables, one per task (the README's \"Task options\" section).")
    var markdown = false

    func run() throws {
        if markdown {
            Console.out(Self.markdown())
        } else {
            Console.out(
                String(
                    decoding: TaskCatalogJSON.encode(threadsDefault: BaseOptions.Declared.threads.defaultValue),
                    as: UTF8.self) + "\n")
        }
    }

    /// One table per task: flag (and query parameter), Swift property, type, range, default, help.
    static func markdown() -> String {
        TaskDescription.all.map { task in
            let rows = task.options.map { option in
                "| `--\(option.name)` | `\(option.property)` | \(option.type.rawValue) | \(option.rangeText) | \(option.defaultText) | \(option.help) |"
            }
            return
                ([
                    "### \(task.title) (`\(task.name)`)", "",
                    "Results: \(task.outputs.map { "`\($0)`" }.joined(separator: ", ")). Model: \(task.modelHelp)", "",
                    "| option | Swift property | type | range | default | meaning |", "|---|---|---|---|---|---|",
                ]
                + rows).joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
    }
}
