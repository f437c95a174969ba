import ArgumentParser
import Foundation
import VisionRender
import VisionTasks

/// `vision-tasks gesture-recognizer`: MediaPipe's Gesture Recognizer on images, folders, a video
/// or a live source, one JSON line per image or frame.
struct GestureRecognizerCommand: TaskCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-recognizer",
        abstract: "Recognize hand gestures (with landmarks and handedness) and print one JSON line per image or frame.",
        discussion: "--model: the gesture recognizer bundle, gesture_recognizer.task (or one with a custom classifier).")

    @OptionGroup var hands: HandOptions

    @Option(help: "The most canned gestures to consider per hand, best first (-1: all).")
    var cannedGesturesMaxResults: Int = -1

    @Option(help: "Canned gestures scoring below this are dropped (default: the model's threshold).")
    var cannedGesturesScoreThreshold: Float?

    @Option(help: "Only these canned gestures (comma-separated names).")
    var cannedGesturesAllowlist: String?

    @Option(help: "Never these canned gestures (comma-separated names).")
    var cannedGesturesDenylist: String?

    @Option(help: "The most custom gestures to consider per hand, best first (-1: all); for a bundle with a custom classifier.")
    var customGesturesMaxResults: Int?

    @Option(help: "Custom gestures scoring below this are dropped (default: the model's threshold).")
    var customGesturesScoreThreshold: Float?

    @Option(help: "Only these custom gestures (comma-separated names).")
    var customGesturesAllowlist: String?

    @Option(help: "Never these custom gestures (comma-separated names).")
    var customGesturesDenylist: String?

    @Option(help: ArgumentHelp("The locale of the display names read from the classifiers' label files (default en; a model without a file in that locale gives none).",
                               valueName: "locale"))
    var displayNamesLocale: String?

    @OptionGroup var common: TaskOptions

    typealias Task = GestureRecognizer

    static func setLiveStreamDelegate(_ live: LiveResults<GestureRecognizerResult>?, of options: GestureRecognizerOptions) {
        options.gestureRecognizerLiveStreamDelegate = live
    }

    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> GestureRecognizerOptions {
        func classifier(_ maxResults: Int?, _ threshold: Float?, _ allow: String?, _ deny: String?) -> ClassifierOptions {
            func names(_ list: String?) -> [String] {
                (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            return ClassifierOptions(displayNamesLocale: displayNamesLocale, maxResults: maxResults ?? -1, scoreThreshold: threshold,
                                     categoryAllowlist: names(allow), categoryDenylist: names(deny))
        }
        let canned = classifier(cannedGesturesMaxResults, cannedGesturesScoreThreshold, cannedGesturesAllowlist, cannedGesturesDenylist)
        let customGiven = customGesturesMaxResults != nil || customGesturesScoreThreshold != nil
            || customGesturesAllowlist != nil || customGesturesDenylist != nil || displayNamesLocale != nil
        let custom = customGiven
            ? classifier(customGesturesMaxResults, customGesturesScoreThreshold, customGesturesAllowlist, customGesturesDenylist) : nil
        return GestureRecognizerOptions(
            baseOptions: base, runningMode: mode, numHands: hands.numHands,
            minHandDetectionConfidence: hands.minHandDetectionConfidence,
            minHandPresenceConfidence: hands.minHandPresenceConfidence, minTrackingConfidence: hands.minTrackingConfidence,
            cannedGesturesClassifierOptions: canned, customGesturesClassifierOptions: custom)
    }
}

extension GestureRecognizer: MediaTask {
    static func found(in result: GestureRecognizerResult) -> Int { result.landmarks.count }
    static var foundNoun: String { "hands" }
    static func draw(_ result: GestureRecognizerResult, on annotation: Annotation) {
        annotation.draw(handLandmarks: result.landmarks, handedness: result.handedness, gestures: result.gestures)
    }
}
