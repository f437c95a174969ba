import ArgumentParser
import VisionRender
import VisionTasks

/// `vision-tasks gesture-recognizer`: MediaPipe's Gesture Recognizer on images, folders, a video
/// or a live source, one JSON line per image or frame.
struct GestureRecognizerCommand: TaskCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-recognizer",
        abstract: "Recognize hand gestures (with landmarks and handedness) and print one JSON line per image or frame.",
        discussion: "--model: the gesture recognizer bundle, gesture_recognizer.task (or one with a custom classifier).")

    @OptionGroup var hands: LandmarkerFlags<Hands>

    @OptionGroup var canned: ClassifierFlags<CannedGestures>

    @OptionGroup var custom: ClassifierFlags<CustomGestures>

    @Option(help: ArgumentHelp("The locale of the display names read from the classifiers' label files (default en; a model without a file in that locale gives none).",
                               valueName: "locale"))
    var displayNamesLocale: String?

    @OptionGroup var common: TaskOptions

    typealias Task = GestureRecognizer

    static func setLiveStreamDelegate(_ live: LiveStreamHandler<GestureRecognizerResult>?, of options: GestureRecognizerOptions) {
        options.gestureRecognizerLiveStreamDelegate = live
    }

    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> GestureRecognizerOptions {
        let customGiven = custom.given || displayNamesLocale != nil
        return GestureRecognizerOptions(
            baseOptions: base, runningMode: mode, numHands: hands.count,
            minHandDetectionConfidence: hands.minDetectionConfidence,
            minHandPresenceConfidence: hands.minPresenceConfidence, minTrackingConfidence: hands.minTrackingConfidence,
            cannedGesturesClassifierOptions: canned.classifierOptions(displayNamesLocale: displayNamesLocale),
            customGesturesClassifierOptions: customGiven ? custom.classifierOptions(displayNamesLocale: displayNamesLocale) : nil)
    }
}

extension GestureRecognizer: MediaTask {
    static func found(in result: GestureRecognizerResult) -> Int { result.landmarks.count }
    static var foundNoun: String { "hands" }
    static func draw(_ result: GestureRecognizerResult, on annotation: Annotation) {
        annotation.draw(handLandmarks: result.landmarks, handedness: result.handedness, gestures: result.gestures)
    }
}
