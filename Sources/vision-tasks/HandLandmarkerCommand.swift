import ArgumentParser
import VisionRender
import VisionTasks

/// `vision-tasks hand-landmarker`: MediaPipe's Hand Landmarker on images, folders, a video or a
/// live source, one JSON line per image or frame.
struct HandLandmarkerCommand: TaskCommand {
    static let configuration = CommandConfiguration(
        commandName: "hand-landmarker",
        abstract: "Find hands (21 landmarks, world landmarks, handedness) and print one JSON line per image or frame.",
        discussion: "--model: the hand landmarker bundle, hand_landmarker.task.")

    @OptionGroup var hands: LandmarkerFlags<Hands>

    @OptionGroup var common: TaskOptions

    typealias Task = HandLandmarker

    static func setLiveStreamDelegate(_ live: LiveStreamHandler<HandLandmarkerResult>?, of options: HandLandmarkerOptions) {
        options.handLandmarkerLiveStreamDelegate = live
    }

    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> HandLandmarkerOptions {
        return HandLandmarkerOptions(
            baseOptions: base, runningMode: mode, numHands: hands.count,
            minHandDetectionConfidence: hands.minDetectionConfidence,
            minHandPresenceConfidence: hands.minPresenceConfidence, minTrackingConfidence: hands.minTrackingConfidence)
    }
}

extension HandLandmarker: MediaTask {
    static func found(in result: HandLandmarkerResult) -> Int { result.landmarks.count }
    static var foundNoun: String { "hands" }
    static func draw(_ result: HandLandmarkerResult, on annotation: Annotation) {
        annotation.draw(handLandmarks: result.landmarks, handedness: result.handedness)
    }
}
