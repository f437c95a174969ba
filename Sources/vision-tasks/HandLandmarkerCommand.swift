import ArgumentParser
import VisionRender
import VisionTasks

/// Options shared by the hand subcommands (the iOS option names in kebab case).
struct HandOptions: ParsableArguments {
    @Option(help: "The most hands to find (at least 1).")
    var numHands: Int = 1

    @Option(help: "Palms scoring below this are not hands (0...1).")
    var minHandDetectionConfidence: Float = 0.5

    @Option(help: "Hands whose presence score is not above this are dropped (0...1).")
    var minHandPresenceConfidence: Float = 0.5

    @Option(help: "IoU above which a new hand is a tracked one (video and live stream; 0...1).")
    var minTrackingConfidence: Float = 0.5
}

/// `vision-tasks hand-landmarker`: MediaPipe's Hand Landmarker on images, folders, a video or a
/// live source, one JSON line per image or frame.
struct HandLandmarkerCommand: TaskCommand {
    static let configuration = CommandConfiguration(
        commandName: "hand-landmarker",
        abstract: "Find hands (21 landmarks, world landmarks, handedness) and print one JSON line per image or frame.",
        discussion: "--model: the hand landmarker bundle, hand_landmarker.task.")

    @OptionGroup var hands: HandOptions

    @OptionGroup var common: TaskOptions

    typealias Task = HandLandmarker

    static func setLiveStreamDelegate(_ live: LiveResults<HandLandmarkerResult>?, of options: HandLandmarkerOptions) {
        options.handLandmarkerLiveStreamDelegate = live
    }

    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> HandLandmarkerOptions {
        return HandLandmarkerOptions(
            baseOptions: base, runningMode: mode, numHands: hands.numHands,
            minHandDetectionConfidence: hands.minHandDetectionConfidence,
            minHandPresenceConfidence: hands.minHandPresenceConfidence, minTrackingConfidence: hands.minTrackingConfidence)
    }
}

extension HandLandmarker: MediaTask {
    static func found(in result: HandLandmarkerResult) -> Int { result.landmarks.count }
    static var foundNoun: String { "hands" }
    static func draw(_ result: HandLandmarkerResult, on annotation: Annotation) {
        annotation.draw(handLandmarks: result.landmarks, handedness: result.handedness)
    }
}
