import Foundation
import VisionTasks

// The Gesture Recognizer guide for iOS.

class GestureRecognizerResultProcessor: NSObject, GestureRecognizerLiveStreamDelegate {
    var topGestures: [String] = []

    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer,
        didFinishGestureRecognition result: GestureRecognizerResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the gesture recognizer result or errors here.
        topGestures.append(result?.gestures.first?.first?.categoryName ?? "none")
    }
}

enum GestureRecognizerGuide {
    static func run(models: String, imagePath: String) throws -> String {
        let modelPath = "\(models)/gesture_recognizer.task" // was Bundle.main.path(...)

        // Image
        let options = GestureRecognizerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.minHandDetectionConfidence = 0.5
        options.minHandPresenceConfidence = 0.5
        options.minTrackingConfidence = 0.5
        options.numHands = 1
        let gestureRecognizer = try GestureRecognizer(options: options)
        let image = try MPImage(contentsOfFile: imagePath) // was MPImage(uiImage: image)
        let result = try gestureRecognizer.recognize(image: image)

        // Video
        options.runningMode = .video
        let videoRecognizer = try GestureRecognizer(options: options)
        let timestamp = 0
        let videoResult = try videoRecognizer.recognize(videoFrame: image, timestampInMilliseconds: timestamp)

        // Live stream
        let processor = GestureRecognizerResultProcessor()
        options.runningMode = .liveStream
        options.gestureRecognizerLiveStreamDelegate = processor
        let liveRecognizer = try GestureRecognizer(options: options)
        try liveRecognizer.recognizeAsync(image: image, timestampInMilliseconds: timestamp)
        liveRecognizer.waitUntilIdle()

        let top = result.gestures.first?.first?.categoryName ?? "none"
        let videoTop = videoResult.gestures.first?.first?.categoryName ?? "none"
        return "gesture recognizer: image \(top), video \(videoTop), live \(processor.topGestures)"
    }
}
