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

    @OptionGroup var faces: LandmarkerFlags<Faces>

    @Flag(help: "Output the 52 blendshape scores of each face.")
    var outputFaceBlendshapes = false

    @Flag(help: "Output each face's 4×4 facial transformation matrix (row-major).")
    var outputFacialTransformationMatrixes = false

    @OptionGroup var common: TaskOptions

    typealias Task = FaceLandmarker

    static func setLiveStreamDelegate(_ live: LiveStreamHandler<FaceLandmarkerResult>?, of options: FaceLandmarkerOptions) {
        options.faceLandmarkerLiveStreamDelegate = live
    }

    func makeOptions(_ base: BaseOptions, mode: RunningMode) -> FaceLandmarkerOptions {
        return FaceLandmarkerOptions(
            baseOptions: base, runningMode: mode, numFaces: faces.count,
            minFaceDetectionConfidence: faces.minDetectionConfidence, minFacePresenceConfidence: faces.minPresenceConfidence,
            minTrackingConfidence: faces.minTrackingConfidence, outputFaceBlendshapes: outputFaceBlendshapes,
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
