import ArgumentParser
import Foundation
import VisionRender
import VisionTasks

/// `vision-tasks face-detector`: MediaPipe's Face Detector on images, folders, a video or a live
/// source, one JSON line per image or frame.
struct FaceDetectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-detector",
        abstract: "Detect faces (BlazeFace short range) and print one JSON line per image or frame.")

    @Option(help: "The face detector model: blaze_face_short_range.tflite, or a .task bundle holding face_detector.tflite.")
    var model: String

    @Option(help: "Faces scoring below this are dropped (0...1).")
    var minDetectionConfidence: Float = 0.5

    @Option(help: "Overlap (IoU) above which detections of one face are merged (0...1).")
    var minSuppressionThreshold: Float = 0.3

    @Option(help: "Inference threads.")
    var threads: Int = BaseOptions.defaultNumThreads

    @OptionGroup var media: MediaOptions

    @Argument(help: "Image files (JPEG or PNG) or folders of them.")
    var images: [String] = []

    func validate() throws {
        try media.validate(images: images)
    }

    func run() throws {
        let factory = MediaTaskFactory<FaceDetector> { mode, live in
            let options = FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: model, numThreads: threads),
                                              runningMode: mode,
                                              minDetectionConfidence: minDetectionConfidence,
                                              minSuppressionThreshold: minSuppressionThreshold)
            options.faceDetectorLiveStreamDelegate = live
            do {
                return try FaceDetector(options: options)
            } catch {
                throw ValidationError(JSONLines.message(error))
            }
        }
        if try !MediaRun.run(media, images: images, factory: factory) { throw ExitCode(1) }
    }
}

extension FaceDetector: MediaTask {
    static func found(in result: FaceDetectorResult) -> Int { result.detections.count }
    static var foundNoun: String { "faces" }
    static func draw(_ result: FaceDetectorResult, on annotation: Annotation) {
        annotation.draw(detections: result.detections)
    }
}

extension LiveResults: FaceDetectorLiveStreamDelegate where Result == FaceDetectorResult {
    func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
                      timestampInMilliseconds: Int, error: (any Error)?) {
        deliver(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}
