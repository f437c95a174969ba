import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

// Options, modes, timestamps and bad inputs of the Hand Landmarker and Gesture Recognizer: each a
// clear VisionTasksError naming the problem, never a crash.

private func handOptions(_ mode: RunningMode = .image, numHands: Int = 1) -> HandLandmarkerOptions {
    HandLandmarkerOptions(
        baseOptions: BaseOptions(modelAssetPath: HandSupport.model("hand_landmarker.task")), runningMode: mode
    ) {
        $0.numHands = numHands
    }
}

private func gestureOptions(_ bundle: String = "gesture_recognizer.task", _ mode: RunningMode = .image)
    -> GestureRecognizerOptions
{
    GestureRecognizerOptions(baseOptions: BaseOptions(modelAssetPath: HandSupport.model(bundle)), runningMode: mode)
}

private func thumbsUp() throws -> MPImage {
    try MPImage(contentsOfFile: HandSupport.fixture("images/hand_thumb_up.jpg"))
}

private func expectOption(_ name: String, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected an invalidOption error for \(name)")
    } catch let VisionTasksError.invalidOption(option, _) {
        #expect(option.contains(name), "error names \(option), expected \(name)")
    } catch {
        Issue.record("expected invalidOption for \(name), got \(error)")
    }
}

/// Collects live-stream results in arrival order.
private final class Collector: HandLandmarkerLiveStreamDelegate, GestureRecognizerLiveStreamDelegate,
    @unchecked Sendable
{
    private let lock = NSLock()
    private var _timestamps: [Int] = []
    private var _hands: [Int] = []
    var timestamps: [Int] { lock.withLock { _timestamps } }
    var hands: [Int] { lock.withLock { _hands } }

    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        lock.withLock {
            _timestamps.append(timestampInMilliseconds)
            _hands.append(result?.landmarks.count ?? -1)
        }
    }

    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, didFinishGestureRecognition result: GestureRecognizerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        lock.withLock {
            _timestamps.append(timestampInMilliseconds)
            _hands.append(result?.gestures.count ?? -1)
        }
    }
}

@Suite
struct HandTaskRulesTests {
    @Test func rejectsBadOptions() {
        expectOption("numHands") { _ = try HandLandmarker(options: handOptions(numHands: 0)) }
        let g = gestureOptions()
        g.numHands = 0
        expectOption("numHands") { _ = try GestureRecognizer(options: g) }
        for name in ["minHandDetectionConfidence", "minHandPresenceConfidence", "minTrackingConfidence"] {
            let o = handOptions()
            switch name {
            case "minHandDetectionConfidence": o.minHandDetectionConfidence = 1.5
            case "minHandPresenceConfidence": o.minHandPresenceConfidence = -0.1
            default: o.minTrackingConfidence = .nan
            }
            expectOption(name) { _ = try HandLandmarker(options: o) }
        }
        expectOption("handLandmarkerLiveStreamDelegate") { _ = try HandLandmarker(options: handOptions(.liveStream)) }
        let both = gestureOptions()
        both.cannedGesturesClassifierOptions = ClassifierOptions(
            categoryAllowlist: ["Thumb_Up"], categoryDenylist: ["None"])
        expectOption("cannedGesturesClassifierOptions") { _ = try GestureRecognizer(options: both) }
        let zero = gestureOptions("operations.task")
        zero.customGesturesClassifierOptions = ClassifierOptions(maxResults: 0)
        expectOption("customGesturesClassifierOptions.maxResults") { _ = try GestureRecognizer(options: zero) }
    }

    @Test func rejectsBundlesWithoutTheModels() {
        // A hand landmarker bundle has no gesture models.
        #expect(throws: VisionTasksError.self) {
            _ = try GestureRecognizer(modelPath: HandSupport.model("hand_landmarker.task"))
        }
        do {
            _ = try GestureRecognizer(modelPath: HandSupport.model("hand_landmarker.task"))
        } catch let VisionTasksError.invalidBundle(message) {
            #expect(message.contains("hand_gesture_recognizer.task"))
        } catch {
            Issue.record("expected invalidBundle, got \(error)")
        }
        // A face bundle is no hand bundle; a bare .tflite is no bundle; a missing file is named.
        #expect(throws: VisionTasksError.self) {
            _ = try HandLandmarker(modelPath: HandSupport.model("face_landmarker.task"))
        }
        #expect(throws: VisionTasksError.self) {
            _ = try HandLandmarker(modelPath: HandSupport.model("blaze_face_short_range.tflite"))
        }
        #expect(throws: VisionTasksError.fileNotFound(path: "/no/such/hand_landmarker.task")) {
            _ = try HandLandmarker(modelPath: "/no/such/hand_landmarker.task")
        }
    }

    @Test func enforcesModesAndTimestamps() throws {
        let picture = try thumbsUp()
        let image = try HandLandmarker(options: handOptions())
        #expect(throws: VisionTasksError.self) { _ = try image.detect(videoFrame: picture, timestampInMilliseconds: 0) }
        let video = try GestureRecognizer(options: gestureOptions("gesture_recognizer.task", .video))
        #expect(throws: VisionTasksError.self) { _ = try video.recognize(image: picture) }
        _ = try video.recognize(videoFrame: picture, timestampInMilliseconds: 100)
        #expect(throws: VisionTasksError.self) {
            _ = try video.recognize(videoFrame: picture, timestampInMilliseconds: 100)
        }
        #expect(throws: VisionTasksError.self) {
            _ = try video.recognize(videoFrame: picture, timestampInMilliseconds: 50)
        }
        _ = try video.recognize(videoFrame: picture, timestampInMilliseconds: 133)
    }

    @Test func findsNothingInAnEmptyPicture() throws {
        let gray = [UInt8](repeating: 128, count: 64 * 48 * 3)
        let picture = try gray.withUnsafeBytes {
            try MPImage(pixels: $0, width: 64, height: 48, bytesPerRow: 64 * 3, format: .rgb8)
        }
        let r = try GestureRecognizer(options: gestureOptions()).recognize(image: picture)
        #expect(r.gestures.isEmpty && r.handedness.isEmpty && r.landmarks.isEmpty && r.worldLandmarks.isEmpty)
        #expect(try HandLandmarker(options: handOptions()).detect(image: picture).landmarks.isEmpty)
    }

    @Test func liveStreamDeliversInTimestampOrder() throws {
        let collector = Collector()
        let options = gestureOptions("gesture_recognizer.task", .liveStream)
        options.gestureRecognizerLiveStreamDelegate = collector
        let recognizer = try GestureRecognizer(options: options)
        let picture = try thumbsUp()
        for t in stride(from: 0, to: 200, by: 40) {
            try recognizer.recognizeAsync(image: picture, timestampInMilliseconds: t)
        }
        #expect(throws: VisionTasksError.self) {
            try recognizer.recognizeAsync(image: picture, timestampInMilliseconds: 160)
        }
        recognizer.waitUntilIdle()
        let timestamps = collector.timestamps
        #expect(!timestamps.isEmpty && timestamps == timestamps.sorted() && timestamps.last == 160)
        #expect(collector.hands.allSatisfy { $0 == 1 })
    }
}
