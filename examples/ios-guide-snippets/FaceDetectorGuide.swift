import Foundation
import VisionTasks

// The Face Detector guide for iOS: create the task, prepare data, run the task, handle results.

class FaceDetectorResultProcessor: NSObject, FaceDetectorLiveStreamDelegate {
    var detectionsPerFrame: [Int] = []

    func faceDetector(
        _ faceDetector: FaceDetector,
        didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the face detector result or errors here.
        detectionsPerFrame.append(result?.detections.count ?? 0)
    }
}

enum FaceDetectorGuide {
    static func run(models: String, imagePath: String) throws -> String {
        let modelPath = "\(models)/blaze_face_short_range.tflite" // was Bundle.main.path(...)

        // Image
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.baseOptions.delegate = .CPU
        options.runningMode = .image
        let faceDetector = try FaceDetector(options: options)
        let image = try MPImage(contentsOfFile: imagePath) // was MPImage(uiImage: image)
        let result = try faceDetector.detect(image: image)

        // Video
        options.runningMode = .video
        let videoDetector = try FaceDetector(options: options)
        let frame = try MPImage(contentsOfFile: imagePath)
        let timestamp = 0
        let videoResult = try videoDetector.detect(videoFrame: frame, timestampInMilliseconds: timestamp)

        // Live stream
        let processor = FaceDetectorResultProcessor()
        options.runningMode = .liveStream
        options.faceDetectorLiveStreamDelegate = processor
        let liveDetector = try FaceDetector(options: options)
        try liveDetector.detectAsync(image: frame, timestampInMilliseconds: timestamp)
        liveDetector.waitUntilIdle()

        return
            "face detector: image \(result.detections.count), video \(videoResult.detections.count), live \(processor.detectionsPerFrame)"
    }
}
