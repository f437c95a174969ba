import ArgumentParser
import VisionRender
import VisionTasks

/// `vision-tasks face-detector`: MediaPipe's Face Detector on images, folders, a video or a live
/// source, one JSON line per image or frame.
struct FaceDetectorCommand: TaskCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-detector",
        abstract: "Detect faces (BlazeFace short range) and print one JSON line per image or frame.",
        discussion: "--model: blaze_face_short_range.tflite, or a .task bundle holding face_detector.tflite.")

    @Option(help: "Faces scoring below this are dropped (0...1).")
    var minDetectionConfidence: Float = 0.5

    @Option(help: "Overlap (IoU) above which detections of one face are merged (0...1).")
    var minSuppressionThreshold: Float = 0.3

    @OptionGroup var common: TaskOptions

    typealias Task = FaceDetector

    static func setLiveStreamDelegate(_ live: LiveStreamHandler<FaceDetectorResult>?, of options: FaceDetectorOptions) {
        options.faceDetectorLiveStreamDelegate = live
    }

    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> FaceDetectorOptions {
        return FaceDetectorOptions(baseOptions: base, runningMode: mode, minDetectionConfidence: minDetectionConfidence,
                                   minSuppressionThreshold: minSuppressionThreshold)
    }
}

extension FaceDetector: MediaTask {
    static func found(in result: FaceDetectorResult) -> Int { result.detections.count }
    static var foundNoun: String { "faces" }
    static func draw(_ result: FaceDetectorResult, on annotation: Annotation) {
        annotation.draw(detections: result.detections)
    }
}
