import Foundation
import VisionTasks

// The Face Landmarker guide for iOS.

class FaceLandmarkerResultProcessor: NSObject, FaceLandmarkerLiveStreamDelegate {
    var facesPerFrame: [Int] = []

    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker,
        didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the face landmarker result or errors here.
        facesPerFrame.append(result?.faceLandmarks.count ?? 0)
    }
}

enum FaceLandmarkerGuide {
    static func run(models: String, imagePath: String) throws -> String {
        let modelPath = "\(models)/face_landmarker.task" // was Bundle.main.path(...)

        // Image
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.minFaceDetectionConfidence = 0.5
        options.minFacePresenceConfidence = 0.5
        options.minTrackingConfidence = 0.5
        options.numFaces = 1
        let faceLandmarker = try FaceLandmarker(options: options)
        let image = try MPImage(contentsOfFile: imagePath) // was MPImage(uiImage: image)
        let result = try faceLandmarker.detect(image: image)

        // Video
        options.runningMode = .video
        let videoLandmarker = try FaceLandmarker(options: options)
        let timestamp = 0
        let videoResult = try videoLandmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)

        // Live stream
        let processor = FaceLandmarkerResultProcessor()
        options.runningMode = .liveStream
        options.faceLandmarkerLiveStreamDelegate = processor
        let liveLandmarker = try FaceLandmarker(options: options)
        try liveLandmarker.detectAsync(image: image, timestampInMilliseconds: timestamp)
        liveLandmarker.waitUntilIdle()

        // Drawing: the connections, as iOS names them.
        let lips = FaceLandmarker.lipsConnections().count
        return
            "face landmarker: image \(result.faceLandmarks.first?.count ?? 0) landmarks, video \(videoResult.faceLandmarks.count) faces, live \(processor.facesPerFrame), lips \(lips) connections"
    }
}
