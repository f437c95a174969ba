import ArgumentParser
import Foundation
import VisionTasks

/// The options every task subcommand shares: the model, inference threads and the media options
/// (`--video`, `--live`, `--annotate`, ...); the inputs and the task's own options are parsed from
/// the free arguments by `TaskArguments`.
struct TaskOptions: ParsableArguments {
    @Option(help: ArgumentHelp(BaseOptions.Declared.model.option.help))
    var model: String

    /// `--threads` as given; nil: the declared default, or with several `--jobs` the cores shared out.
    @Option(
        help: ArgumentHelp(
            String(BaseOptions.Declared.threads.option.help.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
                + " (default: \(BaseOptions.Declared.threads.defaultValue); with several --jobs, the cores shared among the instances)."
        ))
    var threads: Int?

    @Option(help: ArgumentHelp(BaseOptions.Declared.maxBundleBytes.option.help, valueName: "bytes"))
    var maxBundleBytes: Int = BaseOptions.Declared.maxBundleBytes.defaultValue

    @OptionGroup var media: MediaOptions

    @OptionGroup var batch: BatchOptions

    /// Usage errors (exit 64): the inputs must name one kind of source and the options fit it.
    func validate(images: [String]) throws {
        try media.validate(images: images, inputList: batch.inputList != nil, videoList: batch.videoList != nil)
        try batch.validate(hasImages: !images.isEmpty)
    }

    /// `BaseOptions` for the model, thread count and bundle limit given.
    var baseOptions: BaseOptions {
        BaseOptions(
            modelAssetPath: model, numThreads: threads ?? BaseOptions.Declared.threads.defaultValue,
            maxDecompressedBundleBytes: maxBundleBytes)
    }
}

/// A task subcommand (`vision-tasks face-detector`, ...), built from the task's description: its
/// name, overview and options come from the library; making the task, the image/folder/video/live
/// dispatch, JSON output and exit status from here.
struct TaskCommand<Task: DescribedTask>: ParsableCommand {
    static var configuration: CommandConfiguration {
        let description = Task.taskDescription
        return CommandConfiguration(
            commandName: description.name,
            abstract: "\(description.summary) One JSON line per image or frame.",
            discussion:
                "--model: \(description.modelHelp)\n\n\(TaskArguments.heading("TASK OPTIONS", description.options))\n"
                + TaskArguments.help(description))
    }

    @OptionGroup var common: TaskOptions

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Image files (JPEG or PNG) or folders of them (walked into sub-folders), and the task options below.",
            valueName: "images"))
    var arguments: [String] = []

    /// Usage errors (exit 64): unknown or malformed task options, inputs that do not fit the media options.
    func validate() throws {
        let description = Task.taskDescription
        let parsed = try TaskArguments.validated(arguments, command: description.name, options: description.options)
        try common.validate(images: parsed.inputs)
        if common.media.masks != nil {
            guard let maskable = Task.TaskResult.self as? any MaskFileResult.Type else {
                throw ValidationError("--masks: \(Task.taskDescription.name) outputs no segmentation masks")
            }
            if let option = maskable.maskOption {
                guard parsed.values.contains(where: { $0.name == option && Bool(optionText: $0.text) == true })
                else { throw ValidationError("--masks writes the segmentation masks: add --\(option)") }
            }
        }
    }

    /// Runs the task over the inputs; any input failing, or the task failing to start, exits 1.
    func run() throws {
        try reportingErrors {
            let parsed = try TaskArguments(arguments, description: Task.taskDescription)
            // Checked as given: with several jobs, each instance's share of the cores would hide a value out of range.
            if let threads = common.threads {
                do {
                    try BaseOptions.Declared.threads.option.validate(text: String(threads))
                } catch VisionTasksError.invalidOption(_, let reason) {
                    throw VisionTasksError.invalidOption(name: "--threads", reason: reason)
                }
            }
            let factory = MediaTaskFactory<Task>(
                threads: common.baseOptions.numThreads, threadsGiven: common.threads != nil
            ) { mode, live, threadsAtMost in
                do {
                    var base = common.baseOptions
                    if let threadsAtMost { base.numThreads = min(base.numThreads, threadsAtMost) }
                    let options = try Task.options(baseOptions: base, runningMode: mode, values: parsed.values)
                    Task.setLiveStreamHandler(live, of: options)
                    return try Task(options: options)
                } catch VisionTasksError.invalidOption(let name, let reason) {
                    throw VisionTasksError.invalidOption(name: Self.flag(forOption: name), reason: reason)
                }
            }
            if try !MediaRun.run(common, images: parsed.inputs, factory: factory) { throw ExitCode.failure }
        }
    }

    /// The command-line flag of an option the library names by its Swift property, so messages name
    /// what the user typed: `minDetectionConfidence` → `--min-detection-confidence`.
    static func flag(forOption property: String) -> String {
        Task.taskDescription.option(forProperty: property).map { "--" + $0.name } ?? property
    }
}

/// The exit status rule of every subcommand, also in the tool's help: a command line that does not
/// parse or whose options do not fit together is a usage error (ArgumentParser's exit 64, with the
/// usage); a well-formed command that fails while running (model missing or corrupt, an option the
/// task rejects, an unreadable input) exits 1 after a one-line `error: ...` on standard error (inputs
/// that fail are reported on their own JSON lines instead).
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        Console.error(errorLine(error))
        throw ExitCode.failure
    }
}

/// The one line a command that fails while running prints on standard error.
func errorLine(_ error: any Error) -> String {
    "error: \(JSONLines.message(error))\(modelHint(for: error))\n"
}

/// Where to get a model file that is missing: MediaPipe's models are fetched, not shipped, so a
/// `.task` or `.tflite` not found points at `make models`; any other error gets no hint.
func modelHint(for error: any Error) -> String {
    guard case VisionTasksError.fileNotFound(let path) = error,
        path.hasSuffix(".task") || path.hasSuffix(".tflite")
    else { return "" }
    return " (MediaPipe's models are not shipped: `make models` in the VisionTasks checkout fetches them into models/)"
}

extension TaskArguments {
    /// Splits `arguments` as `init(_:command:options:)` does, a bad task option being a usage error (exit 64).
    static func validated(_ arguments: [String], command: String, options: [TaskOption]) throws -> TaskArguments {
        do {
            return try TaskArguments(arguments, command: command, options: options)
        } catch let error as TaskArgumentError {
            throw ValidationError(error.description)
        }
    }
}
