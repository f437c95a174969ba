import Foundation
import Testing
import VisionTasks

/// Collects what a live-stream detector delivers.
final class FaceDeliveries: FaceDetectorLiveStreamDelegate, @unchecked Sendable {
    struct Delivery {
        let result: FaceDetectorResult?
        let timestamp: Int
        let error: String?
    }
    private let lock = NSLock()
    private var items: [Delivery] = []
    private var threads = Set<String>()

    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        lock.withLock {
            items.append(Delivery(result: result, timestamp: timestampInMilliseconds, error: error.map { "\($0)" }))
        }
    }

    var all: [Delivery] { lock.withLock { items } }
}

/// Running modes, live-stream delivery and bad input (issue #3, "What must show").
@Suite struct FaceDetectorModeTests {
    private func image(_ name: String = "astronaut.png") throws -> MPImage {
        try MPImage(contentsOfFile: FaceDetectorSupport.imagePath(name))
    }

    @Test func liveStreamDeliversInTimestampOrderWithMediaPipesResults() throws {
        let frames = try FaceDetectorSupport.videoFrames()
        let sink = FaceDeliveries()
        let detector = try FaceDetectorSupport.detector(.liveStream, delegate: sink)
        for frame in frames {
            let image = try MPImage(contentsOfFile: FaceDetectorSupport.imagePath(frame.image))
            try detector.detectAsync(image: image, timestampInMilliseconds: frame.timestampInMilliseconds)
        }
        detector.waitUntilIdle()
        let delivered = sink.all
        #expect(!delivered.isEmpty)
        #expect(delivered.map(\.timestamp) == delivered.map(\.timestamp).sorted())
        #expect(Set(delivered.map(\.timestamp)).count == delivered.count)
        // The newest frame is never dropped.
        #expect(delivered.last?.timestamp == frames.last?.timestampInMilliseconds)
        for d in delivered {
            let frame = try #require(frames.first { $0.timestampInMilliseconds == d.timestamp })
            let result = try #require(d.result)
            #expect(d.error == nil)
            #expect(result.timestampInMilliseconds == d.timestamp)
            FaceDetectorSupport.expectMatches(result, frame.result, "live \(frame.image)")
        }
    }

    @Test func liveStreamDropsWaitingFramesUnderOverload() throws {
        let sink = FaceDeliveries()
        let detector = try FaceDetectorSupport.detector(.liveStream, delegate: sink)
        let big = try image("woman_sitting.jpg")
        let sent = 60
        for t in 0..<sent {
            try detector.detectAsync(image: big, timestampInMilliseconds: t) // returns at once
        }
        detector.waitUntilIdle()
        let delivered = sink.all.map(\.timestamp)
        #expect(
            delivered.count < sent, "sent \(sent) frames at once, \(delivered.count) processed: nothing was dropped")
        #expect(delivered.first == 0 && delivered.last == sent - 1)
        #expect(delivered == delivered.sorted())
    }

    @Test func liveStreamRefusesAMirroredFrameAtTheCallAndLeavesItsTimestampFree() throws {
        let sink = FaceDeliveries()
        let detector = try FaceDetectorSupport.detector(.liveStream, delegate: sink)
        let good = try image()
        let mirrored = try MPImage(
            contentsOfFile: FaceDetectorSupport.imagePath("astronaut.png"), orientation: .upMirrored)
        try detector.detectAsync(image: good, timestampInMilliseconds: 1)
        detector.waitUntilIdle()
        // As MediaPipe's iOS tasks do, the call itself throws; nothing reaches the delegate.
        let refusal = #expect(throws: VisionTasksError.self) {
            try detector.detectAsync(image: mirrored, timestampInMilliseconds: 2)
        }
        #expect(refusal.map { "\($0)".contains("upMirrored") } == true, "\(String(describing: refusal))")
        detector.waitUntilIdle()
        try detector.detectAsync(image: good, timestampInMilliseconds: 2) // the refused frame's timestamp
        detector.waitUntilIdle()
        let delivered = sink.all
        #expect(delivered.map(\.timestamp) == [1, 2])
        #expect(delivered.allSatisfy { $0.result?.detections.count == 1 && $0.error == nil })
        // Timestamps must still increase.
        #expect(throws: VisionTasksError.self) { try detector.detectAsync(image: good, timestampInMilliseconds: 2) }
    }

    @Test func methodsMustMatchTheRunningMode() throws {
        let still = try FaceDetectorSupport.detector(.image)
        let video = try FaceDetectorSupport.detector(.video)
        let picture = try image()
        #expect(throws: VisionTasksError.self) { try still.detect(videoFrame: picture, timestampInMilliseconds: 0) }
        #expect(throws: VisionTasksError.self) { try still.detectAsync(image: picture, timestampInMilliseconds: 0) }
        #expect(throws: VisionTasksError.self) { try video.detect(image: picture) }
        do {
            _ = try video.detectAsync(image: picture, timestampInMilliseconds: 0)
            Issue.record("detectAsync in video mode did not throw")
        } catch let error as VisionTasksError {
            guard case .runningModeMismatch(let message) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(message.contains("VIDEO"))
        }
    }

    @Test func videoTimestampsMustIncrease() throws {
        let video = try FaceDetectorSupport.detector(.video)
        let picture = try image()
        _ = try video.detect(videoFrame: picture, timestampInMilliseconds: 100)
        for bad in [100, 99, -5] {
            do {
                _ = try video.detect(videoFrame: picture, timestampInMilliseconds: bad)
                Issue.record("timestamp \(bad) after 100 was accepted")
            } catch let error as VisionTasksError {
                guard case .invalidTimestamp(let message) = error else {
                    Issue.record("wrong error \(error)")
                    continue
                }
                #expect(message.contains("\(bad)"))
            }
        }
        #expect(try video.detect(videoFrame: picture, timestampInMilliseconds: 101).timestampInMilliseconds == 101)
        // A frame refused for its image (mirrored) leaves its timestamp free: it was taken, and the same timestamp
        // with a good image was then refused as "102 ms after 102 ms".
        let mirrored = try MPImage(
            contentsOfFile: FaceDetectorSupport.imagePath("astronaut.png"), orientation: .upMirrored)
        #expect { _ = try video.detect(videoFrame: mirrored, timestampInMilliseconds: 102) } throws: {
            "\($0)".contains("mirrored")
        }
        #expect(try video.detect(videoFrame: picture, timestampInMilliseconds: 102).timestampInMilliseconds == 102)
    }

    @Test func optionsAreCheckedAtCreation() throws {
        func expectInvalid(_ name: String, _ configure: (FaceDetectorOptions) -> Void) {
            let options = FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: FaceDetectorSupport.modelPath))
            configure(options)
            do {
                _ = try FaceDetector(options: options)
                Issue.record("\(name): accepted")
            } catch let error as VisionTasksError {
                guard case .invalidOption(let option, _) = error else {
                    Issue.record("\(name): wrong error \(error)")
                    return
                }
                #expect(option == name)
            } catch {
                Issue.record("\(name): not a VisionTasksError: \(error)")
            }
        }
        expectInvalid("minDetectionConfidence") { $0.minDetectionConfidence = 1.5 }
        expectInvalid("minDetectionConfidence") { $0.minDetectionConfidence = -0.1 }
        expectInvalid("minDetectionConfidence") { $0.minDetectionConfidence = .nan }
        expectInvalid("minSuppressionThreshold") { $0.minSuppressionThreshold = 2 }
        expectInvalid("faceDetectorLiveStreamDelegate") { $0.runningMode = .liveStream }
        let sink = FaceDeliveries()
        expectInvalid("faceDetectorLiveStreamDelegate") { $0.faceDetectorLiveStreamDelegate = sink }
        expectInvalid("faceDetectorLiveStreamDelegate") {
            $0.runningMode = .video
            $0.faceDetectorLiveStreamDelegate = sink
        }
        expectInvalid("numThreads") { $0.baseOptions.numThreads = 0 }
        // The boundaries are allowed.
        _ = try FaceDetectorSupport.detector(confidence: 0, suppression: 1)
        _ = try FaceDetectorSupport.detector(confidence: 1, suppression: 0)
    }

    @Test func badModelsAreClearErrors() throws {
        #expect(throws: VisionTasksError.fileNotFound(path: "/no/such/model.tflite")) {
            try FaceDetector(modelPath: "/no/such/model.tflite")
        }
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("face-detector-junk-\(UUID()).tflite")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: junk)
        defer { try? FileManager.default.removeItem(at: junk) }
        do {
            _ = try FaceDetector(modelPath: junk.path)
            Issue.record("a junk model was accepted")
        } catch let error as VisionTasksError {
            #expect("\(error)".contains(junk.path))
        }
        // A bundle without face_detector.tflite.
        let hands = FaceDetectorSupport.root.appendingPathComponent("models/hand_landmarker.task").path
        do {
            _ = try FaceDetector(modelPath: hands)
            Issue.record("hand_landmarker.task accepted as a face detector")
        } catch let error as VisionTasksError {
            #expect("\(error)".contains("face_detector.tflite"))
        }
        // The model can also come as bytes (here a bundle holding face_detector.tflite).
        let options = FaceDetectorOptions(
            baseOptions: BaseOptions(
                modelAssetBuffer: try Data(
                    contentsOf:
                        FaceDetectorSupport.root.appendingPathComponent("models/face_landmarker.task"))))
        #expect(throws: Never.self) { try FaceDetector(options: options) }
    }

    @Test func badImagesAreClearErrors() throws {
        let detector = try FaceDetectorSupport.detector()
        let mirrored = try MPImage(
            contentsOfFile: FaceDetectorSupport.imagePath("astronaut.png"), orientation: .leftMirrored)
        #expect(throws: VisionTasksError.self) { try detector.detect(image: mirrored) }
        #expect(throws: VisionTasksError.self) { try MPImage(contentsOfFile: "/no/such/photo.jpg") }
        let corrupt = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID()).jpg")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: FaceDetectorSupport.imagePath("woman_sitting.jpg")))
        bytes = bytes.prefix(2000)
        try bytes.write(to: corrupt)
        defer { try? FileManager.default.removeItem(at: corrupt) }
        #expect(throws: VisionTasksError.self) { try MPImage(contentsOfFile: corrupt.path) }
        #expect(throws: VisionTasksError.self) {
            try [UInt8](repeating: 0, count: 16).withUnsafeBytes {
                try MPImage(pixels: $0, width: 0, height: 4, bytesPerRow: 0, format: .rgba8)
            }
        }
        // A tiny but valid frame is processed (letterboxed), not refused.
        let tiny = try [UInt8](repeating: 200, count: 3 * 2 * 1).withUnsafeBytes {
            try MPImage(pixels: $0, width: 2, height: 1, bytesPerRow: 6, format: .rgb8)
        }
        #expect(try detector.detect(image: tiny).detections.isEmpty)
    }
}
