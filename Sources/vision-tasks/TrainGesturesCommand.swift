import ArgumentParser
import Foundation
import Training
import VisionCore
import VisionErrors
import VisionTasks

/// `vision-tasks train-gestures DATA --model gesture_recognizer.task --output my_gestures.task [--report FILE]
/// [training options]`: trains the Gesture Recognizer's custom classifier from one folder of photos per label
/// (one named `none`) and writes a `.task` that MediaPipe and this tool load. The report goes to stdout (and
/// `--report`), a progress bar to stderr on a terminal.
struct TrainGesturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-gestures",
        abstract: "Train custom gestures from folders of photos into a gesture_recognizer.task that MediaPipe loads.",
        discussion: """
            DATA holds one folder of photos per label, one of them named none (any case): hands showing none of \
            the gestures. The none label is written as MediaPipe's background label None: when the custom \
            classifier says None, the recognizer falls back to the canned gestures (hide them with \
            --canned-gestures-allowlist None when recognizing; in MediaPipe, a canned score threshold of 1). Photos without a hand, or unreadable, are \
            skipped and counted. At most \(GestureSamples.maxPhotos) photos in at most \(GestureSamples.maxLabels) labels \
            (JPEG or PNG); subfolders of a label folder, hidden entries and macOS's __MACOSX are not read. The output is written through a temporary file: it is never left half-written.

            By default (--search auto) the settings you do not give (layer widths, batch size, epochs, dropout, \
            gamma, class balancing) are chosen by cross-validation on the photos' hands, and the chosen ones are \
            trained on every hand; the report lists each candidate's accuracy. --search off takes the defaults below.

            \(TaskArguments.heading("TRAINING OPTIONS", GestureTrainingOptions.declaredOptions))
            \(TaskArguments.help(GestureTrainingOptions.declaredOptions))
            """)

    @Option(
        help:
            "The base gesture recognizer bundle (gesture_recognizer.task): its hand landmarker, gesture embedder and canned classifier are reused."
    )
    var model: String

    @Option(help: "Where to write the new .task.")
    var output: String

    @Option(help: "Also write the report as JSON to this file.")
    var report: String?

    @Option(help: "Photos searched for hands at once (default: the cores available).")
    var threads: Int = min(ProcessInfo.processInfo.activeProcessorCount, GestureTrainer.threadRange.upperBound)

    @OptionGroup var imageLimit: ImageLimitOptions

    @Flag(inversion: .prefixedNo, help: "Show a progress bar on stderr (default: when stderr is a terminal).")
    var progress: Bool?

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("DATA, the folder of label folders, and the training options.", valueName: "data"))
    var arguments: [String] = []

    func validate() throws {
        let parsed = try TaskArguments.validated(
            arguments, command: Self.configuration.commandName ?? "", options: GestureTrainingOptions.declaredOptions)
        guard parsed.inputs.count == 1 else {
            throw ValidationError(
                "Give one DATA folder (got \(parsed.inputs.count): \(parsed.inputs.joined(separator: " ")))")
        }
        if let report,
            URL(fileURLWithPath: report).standardizedFileURL == URL(fileURLWithPath: output).standardizedFileURL
        {
            throw ValidationError("--report and --output name one file (\(output)): the report would replace the model")
        }
        let range = GestureTrainer.threadRange
        guard range.contains(threads) else {
            throw ValidationError("--threads must be \(range.lowerBound)...\(range.upperBound), got \(threads)")
        }
    }

    func run() async throws {
        try await reportingErrorsAsync {
            let parsed = try TaskArguments(
                arguments, command: Self.configuration.commandName ?? "",
                options: GestureTrainingOptions.declaredOptions)
            let options = GestureTrainingOptions()
            for (name, text) in parsed.values {
                try GestureTrainingOptions.declaredOptions.first { $0.name == name }?.apply(text: text, to: options)
            }
            do {
                try options.validate()
            } catch VisionTasksError.invalidOption(let property, let reason) {
                let flag =
                    GestureTrainingOptions.declaredOptions.first { $0.names(property) }.map { "--" + $0.name }
                    ?? property
                throw VisionTasksError.invalidOption(name: flag, reason: reason)
            }
            try OutputFiles.checkWritable(output, option: "--output")
            if let report { try OutputFiles.checkWritable(report, option: "--report") }
            let samples = try GestureSamples(folder: parsed.inputs[0])
            for warning in samples.warnings { Console.error("warning: \(warning)\n") }
            // Neither output may be the base model or a photo: the run would write over what it reads.
            let inputs = OutputFiles.InputFiles([model] + samples.photos.map(\.name))
            try OutputFiles.checkNotAnInput(output, option: "--output", inputs: inputs)
            if let report { try OutputFiles.checkNotAnInput(report, option: "--report", inputs: inputs) }
            let trainer = try GestureTrainer(
                baseModelPath: model, options: options, numThreads: threads, decoding: imageLimit.imageDecoding)
            let bar = (progress ?? (isatty(STDERR_FILENO) == 1)) ? StageProgress() : nil
            let outcome = try await trainer.train(samples) { bar?.update($0) }
            bar?.finish()
            // A stop signal while the files are written removes their partial files (`<path>.partial-<pid>`).
            try Console.endingCleanly { try outcome.write(to: output) }
            // Said before the report is written: a report that cannot be written (a full disk) fails the run after
            // the model was, and the summary said nothing.
            Console.out(
                outcome.report.text + "\nwrote \(output) (labels: \(outcome.labels.joined(separator: ", ")))\n")
            if let report {
                let json = try outcome.report.jsonData()
                try Console.endingCleanly { try OutputFile.write(json, to: report, what: "the report") }
            }
        }
    }
}

/// The training's progress as one bar per step on stderr.
private final class StageProgress: @unchecked Sendable {
    /// What each step counts.
    private static let units: [GestureTrainingProgress.Stage: String] = [
        .findingHands: "photos", .training: "epochs", .searching: "fold trainings",
    ]
    private let lock = NSLock()
    private var stage: GestureTrainingProgress.Stage?
    private var bar: ProgressBar?

    func update(_ progress: GestureTrainingProgress) {
        lock.withLock {
            if stage != progress.stage {
                if bar != nil { Console.error("\n") }
                stage = progress.stage
                bar = ProgressBar(
                    total: progress.total,
                    unit: Self.units[progress.stage] ?? "hands")
                Console.error("\(progress.stage.rawValue):\n")
            }
            bar?.update(done: progress.completed)
        }
    }

    func finish() {
        lock.withLock { if bar != nil { Console.error("\n") } }
    }
}
