import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks-bench TASK`: the task's image-mode call (`detect(image:)`, `recognize(image:)`,
/// `segment(image:)`) on one image, or its video-mode call on it as a stream of frames (tracking on).
/// The task is made from the shared options and its own options as the CLI takes them (`--num-faces 2`).
struct TaskBench<Task: DescribedTask>: ParsableCommand {
    static var configuration: CommandConfiguration {
        let description = Task.taskDescription
        return CommandConfiguration(
            commandName: description.name,
            abstract: "Time \(Task.self) per image (image mode) or per video frame (video mode).",
            discussion: "TASK OPTIONS (as `vision-tasks \(description.name)` takes them):\n"
                + TaskArguments.help(description))
    }
    @OptionGroup var options: BenchOptions
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The task's options, as the CLI takes them (--num-hands 2).", valueName: "task options"))
    var taskArguments: [String] = []

    func run() throws {
        let parsed = try TaskArguments(taskArguments, description: Task.taskDescription)
        guard parsed.inputs.isEmpty else {
            throw ValidationError("One image only (also got \(parsed.inputs.joined(separator: " ")))")
        }
        let taskOptions = try Task.options(
            baseOptions: options.baseOptions, runningMode: options.runningMode, values: parsed.values)
        try options.report(task: Task.taskDescription.name, timing: try Task(options: taskOptions))
    }
}
