import ArgumentParser
import Foundation
import VisionTasks

/// `vision-tasks-bench face-landmarker`: `FaceLandmarker.detect(image:)` on one image, or
/// `detect(videoFrame:timestampInMilliseconds:)` on it as a stream of frames (tracking on).
struct FaceLandmarkerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-landmarker",
        abstract: "Time FaceLandmarker per image (image mode) or per video frame (video mode).")
    @OptionGroup var options: BenchOptions
    @Flag(help: "Also compute blendshapes and transformation matrices.")
    var allOutputs = false
    @Option(help: "Faces to find.")
    var numFaces = 1
    @Option(help: "A face detector model replacing the bundle's (faceDetectorModelAssetPath), e.g. the full-range one.")
    var faceDetectorModel: String?

    func run() throws {
        let landmarker = try FaceLandmarker(
            options: FaceLandmarkerOptions(
                baseOptions: options.baseOptions, runningMode: options.runningMode, numFaces: numFaces,
                outputFaceBlendshapes: allOutputs, outputFacialTransformationMatrixes: allOutputs,
                faceDetectorModelAssetPath: faceDetectorModel))
        try options.report(task: "face-landmarker", timing: landmarker)
    }
}
