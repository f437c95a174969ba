import ArgumentParser
import VisionRender
import VisionTasks

/// `vision-tasks face-landmarker`: MediaPipe's Face Landmarker on images, folders, a video or a
/// live source, one JSON line per image or frame.
struct FaceLandmarkerCommand: TaskCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-landmarker",
        abstract: "Find 478 face landmarks (and optionally blendshapes and transformation matrices); one JSON line per image or frame.",
        discussion: "--model: the face landmarker bundle, face_landmarker.task.")

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

    @OptionGroup var common: TaskOptions

    typealias Task = FaceLandmarker

    static func setLiveStreamDelegate(_ live: LiveResults<FaceLandmarkerResult>?, of options: FaceLandmarkerOptions) {
        options.faceLandmarkerLiveStreamDelegate = live
    }

    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> FaceLandmarkerOptions {
        return FaceLandmarkerOptions(
            baseOptions: base, runningMode: mode, numFaces: numFaces,
            minFaceDetectionConfidence: minFaceDetectionConfidence, minFacePresenceConfidence: minFacePresenceConfidence,
            minTrackingConfidence: minTrackingConfidence, outputFaceBlendshapes: outputFaceBlendshapes,
            outputFacialTransformationMatrixes: outputFacialTransformationMatrixes)
    }
}

extension FaceLandmarker: MediaTask {
    static func found(in result: FaceLandmarkerResult) -> Int { result.faceLandmarks.count }
    static var foundNoun: String { "faces" }
    static func draw(_ result: FaceLandmarkerResult, on annotation: Annotation) {
        annotation.draw(faceLandmarks: result.faceLandmarks)
    }
}
