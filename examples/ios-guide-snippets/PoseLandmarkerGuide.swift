import Foundation
import VisionTasks

// The Pose Landmarker guide for iOS.

class PoseLandmarkerResultProcessor: NSObject, PoseLandmarkerLiveStreamDelegate {
    var posesPerFrame: [Int] = []

    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker,
        didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the pose landmarker result or errors here.
        posesPerFrame.append(result?.landmarks.count ?? 0)
    }
}

enum PoseLandmarkerGuide {
    static func run(models: String, imagePath: String) throws -> String {
        let modelPath = "\(models)/pose_landmarker_full.task" // was Bundle.main.path(...)

        // Image
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.minPoseDetectionConfidence = 0.5
        options.minPosePresenceConfidence = 0.5
        options.minTrackingConfidence = 0.5
        options.numPoses = 1
        let poseLandmarker = try PoseLandmarker(options: options)
        let image = try MPImage(contentsOfFile: imagePath) // was MPImage(uiImage: image)
        let result = try poseLandmarker.detect(image: image)

        // Video
        options.runningMode = .video
        let videoLandmarker = try PoseLandmarker(options: options)
        let timestamp = 0
        let videoResult = try videoLandmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)

        // Live stream
        let processor = PoseLandmarkerResultProcessor()
        options.runningMode = .liveStream
        options.poseLandmarkerLiveStreamDelegate = processor
        let liveLandmarker = try PoseLandmarker(options: options)
        try liveLandmarker.detectAsync(image: image, timestampInMilliseconds: timestamp)
        liveLandmarker.waitUntilIdle()

        let bones = PoseLandmarker.poseLandmarks.count
        return
            "pose landmarker: image \(result.landmarks.first?.count ?? 0) landmarks, video \(videoResult.landmarks.count) poses, live \(processor.posesPerFrame), \(bones) connections"
    }
}
