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
    @Flag(help: "Time video frames (detect(videoFrame:timestampInMilliseconds:)) instead of images.")
    var video = false
    @Flag(help: "Also compute blendshapes and transformation matrices.")
    var allOutputs = false
    @Option(help: "Faces to find.")
    var numFaces = 1

    func run() throws {
        let landmarker = try FaceLandmarker(options: FaceLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: options.model, numThreads: options.threads),
            runningMode: video ? .video : .image, numFaces: numFaces,
            outputFaceBlendshapes: allOutputs, outputFacialTransformationMatrixes: allOutputs))
        let image = try MPImage(contentsOfFile: options.image)
        var timestamp = 0
        try options.report(task: video ? "face-landmarker-video" : "face-landmarker") {
            if video {
                timestamp += 33
                _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)
            } else {
                _ = try landmarker.detect(image: image)
            }
        }
    }
}
