import Foundation
import VisionTasks

// The Hand Landmarker guide for iOS.

class HandLandmarkerResultProcessor: NSObject, HandLandmarkerLiveStreamDelegate {
    var handsPerFrame: [Int] = []

    func handLandmarker(
        _ handLandmarker: HandLandmarker,
        didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the hand landmarker result or errors here.
        handsPerFrame.append(result?.landmarks.count ?? 0)
    }
}

enum HandLandmarkerGuide {
    static func run(models: String, imagePath: String) throws -> String {
        let modelPath = "\(models)/hand_landmarker.task" // was Bundle.main.path(...)

        // Image
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.minHandDetectionConfidence = 0.5
        options.minHandPresenceConfidence = 0.5
        options.minTrackingConfidence = 0.5
        options.numHands = 2
        let handLandmarker = try HandLandmarker(options: options)
        let image = try MPImage(contentsOfFile: imagePath) // was MPImage(uiImage: image)
        let result = try handLandmarker.detect(image: image)

        // Video
        options.runningMode = .video
        let videoLandmarker = try HandLandmarker(options: options)
        let timestamp = 0
        let videoResult = try videoLandmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)

        // Live stream
        let processor = HandLandmarkerResultProcessor()
        options.runningMode = .liveStream
        options.handLandmarkerLiveStreamDelegate = processor
        let liveLandmarker = try HandLandmarker(options: options)
        try liveLandmarker.detectAsync(image: image, timestampInMilliseconds: timestamp)
        liveLandmarker.waitUntilIdle()

        let bones = HandLandmarker.handConnections.count
        return
            "hand landmarker: image \(result.landmarks.count) hands, video \(videoResult.landmarks.count), live \(processor.handsPerFrame), \(bones) connections"
    }
}
