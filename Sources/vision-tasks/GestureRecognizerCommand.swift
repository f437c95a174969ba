import ArgumentParser
import Foundation
import VisionRender
import VisionTasks

/// `vision-tasks gesture-recognizer`: MediaPipe's Gesture Recognizer on image files, one JSON line per image.
struct GestureRecognizerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-recognizer",
        abstract: "Recognize hand gestures (with landmarks and handedness) and print one JSON line per image or frame.")

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

    @OptionGroup var media: MediaOptions

    @Argument(help: "Image files (JPEG or PNG) or folders of them.")
    var images: [String] = []

    func validate() throws {
        try media.validate(images: images)
    }

    func run() throws {
        func names(_ list: String?) -> [String] {
            (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let canned = ClassifierOptions(maxResults: cannedGesturesMaxResults, scoreThreshold: cannedGesturesScoreThreshold,
                                       categoryAllowlist: names(cannedGesturesAllowlist),
                                       categoryDenylist: names(cannedGesturesDenylist))
        let factory = MediaTaskFactory<GestureRecognizer> { mode, live in
            let options = GestureRecognizerOptions(
                baseOptions: BaseOptions(modelAssetPath: model, numThreads: hands.threads), runningMode: mode, numHands: hands.numHands,
                minHandDetectionConfidence: hands.minHandDetectionConfidence,
                minHandPresenceConfidence: hands.minHandPresenceConfidence, minTrackingConfidence: hands.minTrackingConfidence,
                cannedGesturesClassifierOptions: canned)
            options.gestureRecognizerLiveStreamDelegate = live
            do {
                return try GestureRecognizer(options: options)
            } catch {
                throw ValidationError(JSONLines.message(error))
            }
        }
        if try !MediaRun.run(media, images: images, factory: factory) { throw ExitCode(1) }
    }
}

extension GestureRecognizer: MediaTask {
    func detect(image: MPImage) throws -> GestureRecognizerResult { try recognize(image: image) }
    func detect(videoFrame: MPImage, timestampInMilliseconds: Int) throws -> GestureRecognizerResult {
        try recognize(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds)
    }
    func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try recognizeAsync(image: image, timestampInMilliseconds: timestampInMilliseconds)
    }
    static func found(in result: GestureRecognizerResult) -> Int { result.landmarks.count }
    static var foundNoun: String { "hands" }
    static func draw(_ result: GestureRecognizerResult, on annotation: Annotation) {
        annotation.draw(handLandmarks: result.landmarks, handedness: result.handedness, gestures: result.gestures)
    }
}

extension LiveResults: GestureRecognizerLiveStreamDelegate where Result == GestureRecognizerResult {
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer,
                           didFinishGestureRecognition result: GestureRecognizerResult?,
                           timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}
