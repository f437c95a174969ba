import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks face-detector`: MediaPipe's Face Detector on image files, one JSON line per image.
struct FaceDetectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-detector",
        abstract: "Detect faces (BlazeFace short range) and print one JSON line per image.")

    @Option(help: "The face detector model: blaze_face_short_range.tflite, or a .task bundle holding face_detector.tflite.")
    var model: String

    @Option(help: "Faces scoring below this are dropped (0...1).")
    var minDetectionConfidence: Float = 0.5

    @Option(help: "Overlap (IoU) above which detections of one face are merged (0...1).")
    var minSuppressionThreshold: Float = 0.3

    @Option(help: "Inference threads.")
    var threads: Int = BaseOptions.defaultNumThreads

    @Argument(help: "Image files (JPEG or PNG).")
    var images: [String]

    func run() throws {
        let options = FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: model, numThreads: threads),
                                          minDetectionConfidence: minDetectionConfidence,
                                          minSuppressionThreshold: minSuppressionThreshold)
        let detector: FaceDetector
        do {
            detector = try FaceDetector(options: options)
        } catch {
            throw ValidationError(JSONLines.message(error))
        }
        let output = JSONLines()
        for path in images {
            output.process(input: path) { try detector.detect(image: try MPImage(contentsOfFile: path)) }
        }
        if output.anyFailed { throw ExitCode(1) }
    }
}
