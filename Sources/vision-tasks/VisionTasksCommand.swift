import ArgumentParser
import VisionTasks

/// The `vision-tasks` command-line tool: MediaPipe's vision tasks on images, videos and live sources.
@main
struct VisionTasksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vision-tasks",
        abstract: "\(overviewTaskList), as MediaPipe computes them; train-gestures trains custom gestures.",
        discussion: """
            Exit status: 0 when every input succeeded; 1 when the command was well formed but failed \
            while running: a model missing or corrupt, an option the task rejects (out of range), \
            an output that cannot be written (one line "error: ..." on stderr), or any input that \
            could not be read or processed (its own JSON line with "error"); 64 for a command line \
            that does not parse or whose options do not fit together (unknown flag, malformed \
            number, no input or two kinds of input), with the usage. When standard output closes early \
            (vision-tasks ... | head -1) the tool ends quietly, as SIGPIPE ends any filter (141 in a shell).
            """,
        subcommands: [ModelCommand.self] + taskCommands + [
            BackgroundCommand.self, TrainGesturesCommand.self, TasksCommand.self, ServeCommand.self,
        ]
    )
}

/// The tasks of the catalog (`TaskDescription.all`) by title, for the overview: "A, B and C".
private let overviewTaskList: String = {
    let titles = TaskDescription.all.map(\.title)
    guard let last = titles.last, titles.count > 1 else { return titles.last ?? "" }
    return titles.dropLast().joined(separator: ", ") + " and " + last
}()

/// One subcommand for each task the library describes (`describedTasks`), in its order.
private let taskCommands: [ParsableCommand.Type] = describedTasks.map { taskCommand($0) }

/// The subcommand of `task`.
private func taskCommand<Task: DescribedTask>(_ task: Task.Type) -> ParsableCommand.Type {
    TaskCommand<Task>.self
}
