import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks face-landmarker`: MediaPipe's Face Landmarker on image files, one JSON line per image.
struct FaceLandmarkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-landmarker",
        abstract: "Find 478 face landmarks (and optionally blendshapes and transformation matrices); one JSON line per image.")

    @Option(help: "The face landmarker bundle: face_landmarker.task.")
    var model: String

    @Option(help: "The most faces to find (at least 1).")
    var numFaces: Int = 1

    @Option(help: "Face detections scoring below this are dropped (0...1).")
    var minFaceDetectionConfidence: Float = 0.5

    @Option(help: "Faces whose presence score is not above this are dropped (0...1).")
    var minFacePresenceConfidence: Float = 0.5

    @Option(help: "Overlap (IoU) above which a detection replaces a tracked face, in video mode (0...1).")
    var minTrackingConfidence: Float = 0.5

    @Flag(help: "Output the 52 blendshape scores of each face.")
    var outputFaceBlendshapes = false

    @Flag(help: "Output each face's 4×4 facial transformation matrix (row-major).")
    var outputFacialTransformationMatrixes = false

    @Option(help: "Inference threads.")
    var threads: Int = BaseOptions.defaultNumThreads

    @Argument(help: "Image files (JPEG or PNG).")
    var images: [String]

    func run() throws {
        let options = FaceLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: model, numThreads: threads), numFaces: numFaces,
            minFaceDetectionConfidence: minFaceDetectionConfidence, minFacePresenceConfidence: minFacePresenceConfidence,
            minTrackingConfidence: minTrackingConfidence, outputFaceBlendshapes: outputFaceBlendshapes,
            outputFacialTransformationMatrixes: outputFacialTransformationMatrixes)
        let landmarker: FaceLandmarker
        do {
            landmarker = try FaceLandmarker(options: options)
        } catch {
            throw ValidationError(JSONLines.message(error))
        }
        let output = JSONLines()
        for path in images {
            output.process(input: path) { try landmarker.detect(image: try MPImage(contentsOfFile: path)) }
        }
        if output.anyFailed { throw ExitCode(1) }
    }
}
