import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks gesture-recognizer`: MediaPipe's Gesture Recognizer on image files, one JSON line per image.
struct GestureRecognizerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-recognizer",
        abstract: "Recognize hand gestures (with landmarks and handedness) and print one JSON line per image.")

    @Option(help: "The gesture recognizer bundle: gesture_recognizer.task (or one with a custom classifier).")
    var model: String

    @OptionGroup var hands: HandOptions

    @Option(help: "The most canned gestures to consider per hand, best first (-1: all).")
    var cannedGesturesMaxResults: Int = -1

    @Option(help: "Canned gestures scoring below this are dropped (default: the model's threshold).")
    var cannedGesturesScoreThreshold: Float?

    @Option(help: "Only these canned gestures (comma-separated names).")
    var cannedGesturesAllowlist: String?

    @Option(help: "Never these canned gestures (comma-separated names).")
    var cannedGesturesDenylist: String?

    @Argument(help: "Image files (JPEG or PNG).")
    var images: [String]

    func run() throws {
        func names(_ list: String?) -> [String] {
            (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let canned = ClassifierOptions(maxResults: cannedGesturesMaxResults, scoreThreshold: cannedGesturesScoreThreshold,
                                       categoryAllowlist: names(cannedGesturesAllowlist),
                                       categoryDenylist: names(cannedGesturesDenylist))
        let options = GestureRecognizerOptions(
            baseOptions: BaseOptions(modelAssetPath: model, numThreads: hands.threads), numHands: hands.numHands,
            minHandDetectionConfidence: hands.minHandDetectionConfidence,
            minHandPresenceConfidence: hands.minHandPresenceConfidence, minTrackingConfidence: hands.minTrackingConfidence,
            cannedGesturesClassifierOptions: canned)
        let recognizer: GestureRecognizer
        do {
            recognizer = try GestureRecognizer(options: options)
        } catch {
            throw ValidationError(JSONLines.message(error))
        }
        let output = JSONLines()
        for path in images {
            output.process(input: path) { try recognizer.recognize(image: try MPImage(contentsOfFile: path)) }
        }
        if output.anyFailed { throw ExitCode(1) }
    }
}
