import ArgumentParser
import Foundation
import VisionTasks

/// The options every task subcommand shares: the model, inference threads, the inputs and the
/// media options (images and folders, `--video`, `--live`, `--annotate`, ...).
struct TaskOptions: ParsableArguments {
    @Option(help: "The model file (.tflite or .task bundle; the command's overview says which).")
    var model: String

    @Option(help: "Inference threads.")
    var threads: Int = BaseOptions.defaultNumThreads

    @Option(help: ArgumentHelp("The most bytes inflated from a .task bundle, nested bundles included (a zip bomb stops there).",
                               valueName: "bytes"))
    var maxBundleBytes: Int = BaseOptions.defaultMaxDecompressedBundleBytes

    @OptionGroup var media: MediaOptions

    @OptionGroup var batch: BatchOptions

    @Argument(help: "Image files (JPEG or PNG) or folders of them (walked into sub-folders).")
    var images: [String] = []

    /// Usage errors (exit 64): the inputs must name one kind of source and the options fit it.
    func validate() throws {
        try media.validate(images: images, inputList: batch.inputList != nil, videoList: batch.videoList != nil)
        try batch.validate(hasImages: !images.isEmpty)
    }

    /// `BaseOptions` for the model, thread count and bundle limit given.
    var baseOptions: BaseOptions {
        BaseOptions(modelAssetPath: model, numThreads: threads, maxDecompressedBundleBytes: maxBundleBytes)
    }
}

/// A task subcommand: it declares its own options and makes its task's options from them; the
/// shared options, making the task, the image/folder/video/live dispatch, JSON output and exit
/// status come from here.
protocol TaskCommand: ParsableCommand {
    /// The task the subcommand runs.
    associatedtype Task: MediaTask
    /// The shared options (`@OptionGroup`).
    var common: TaskOptions { get }
    /// Makes `live` the delegate of `options` that receives the live-stream results (nil: none).
    static func setLiveStreamDelegate(_ live: LiveStreamHandler<Task.TaskResult>?, of options: Task.Options)
    /// The task's options in `mode` with the subcommand's options.
    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> Task.Options
}

extension TaskCommand {
    /// Runs the task over the inputs; any input failing, or the task failing to start, exits 1.
    func run() throws {
        try reportingErrors {
            let factory = MediaTaskFactory<Task> { mode, live in
                do {
                    let options = makeOptions(common.baseOptions, mode: mode)
                    Self.setLiveStreamDelegate(live, of: options)
                    return try Task(options: options)
                } catch VisionTasksError.invalidOption(let name, let reason) {
                    throw VisionTasksError.invalidOption(name: OptionFlag.name(forOption: name), reason: reason)
                }
            }
            if try !MediaRun.run(common, factory: factory) { throw ExitCode.failure }
        }
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
        Console.error("error: \(JSONLines.message(error))\n")
        throw ExitCode.failure
    }
}

/// The command-line flag of a task option the library names by its Swift property, so messages
/// name what the user typed: `minDetectionConfidence` → `--min-detection-confidence`,
/// `cannedGesturesClassifierOptions.categoryAllowlist` → `--canned-gestures-allowlist`; one flag,
/// `--display-names-locale`, sets the locale of every classifier.
enum OptionFlag {
    static func name(forOption option: String) -> String {
        switch option {
        case "numThreads": return "--threads"
        case "modelAssetPath": return "--model"
        case "maxDecompressedBundleBytes": return "--max-bundle-bytes"
        default: break
        }
        let parts = option.split(separator: ".")
        if parts.count == 2, parts[0].hasSuffix("ClassifierOptions"), parts[1] == "displayNamesLocale" {
            return "--display-names-locale"
        }
        var property = option
        if parts.count == 2, parts[0].hasSuffix("ClassifierOptions") {
            let field = parts[1].hasPrefix("category") ? parts[1].dropFirst("category".count) : parts[1]
            property = String(parts[0].dropLast("ClassifierOptions".count)) + field.prefix(1).uppercased() + field.dropFirst()
        } else if parts.count != 1 {
            return option
        }
        return "--" + property.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
    }
}
