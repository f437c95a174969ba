import Foundation
import Testing

@testable import VisionTasks

/// An iOS-style delegate: a non-final `NSObject` subclass, not `Sendable`, with plain mutable
/// state (issue 13, "Delegates as on iOS"). The library calls it on its one serial result queue.
class FaceResultProcessor: NSObject, FaceDetectorLiveStreamDelegate {
    var timestamps: [Int] = []
    var faces: [Int] = []

    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        timestamps.append(timestampInMilliseconds)
        faces.append(result?.detections.count ?? -1)
    }
}

/// A subclass of it, as an app would write one.
final class CountingFaceResultProcessor: FaceResultProcessor {}

/// The async variants, the `AsyncSequence` of live-stream results and `reset()` (issue 13, point 5).
@Suite struct AsyncAPITests {
    private func runner(_ mode: RunningMode, delay: Double = 0, resets: ResetCounter? = nil) -> TaskRunner<Int, Int> {
        let process: TaskRunner<Int, Int>.Process = { input, _ in
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            if input < 0 { throw VisionTasksError.processingFailed("frame \(input) is bad") }
            return input * 2
        }
        let ignore: TaskRunner<Int, Int>.Deliver = { _, _ in }
        let reset: @Sendable () -> Void = { resets?.add() }
        return TaskRunner(
            taskName: "TestTask", verb: "detect", runningMode: mode, process: process,
            deliver: mode == .liveStream ? ignore : nil, reset: reset)
    }

    @Test func asyncVideoFramesKeepCallOrderAndReportErrors() async throws {
        let r = runner(.video, delay: 0.002)
        // Started concurrently but called in order: timestamps are accepted at the call.
        var results: [Int] = []
        for t in 0..<10 { results.append(try await r.processVideoFrame(t, timestampInMilliseconds: t * 33)) }
        #expect(results == (0..<10).map { $0 * 2 })
        await #expect(throws: VisionTasksError.processingFailed("frame -1 is bad")) {
            _ = try await r.processVideoFrame(-1, timestampInMilliseconds: 1000)
        }
        await #expect(
            throws: VisionTasksError.invalidTimestamp(
                "TestTask got timestamp 1000 ms after 1000 ms; timestamps must strictly increase in VIDEO mode")
        ) {
            _ = try await r.processVideoFrame(1, timestampInMilliseconds: 1000)
        }
        await #expect(throws: VisionTasksError.self) { _ = try await r.processImage(1) }
        #expect(try await runner(.image).processImage(21) == 42)
    }

    @Test func cancelledAsyncCallsThrowCancellationError() async throws {
        let r = runner(.image, delay: 0.2)
        // A call cancelled before it starts never runs.
        let early = Task { () async throws -> Int in
            try? await Task.sleep(for: .seconds(60)) // ends when cancelled (at once)
            return try await r.processImage(1)
        }
        early.cancel()
        await #expect(throws: CancellationError.self) { _ = try await early.value }
        // A call cancelled while it waits behind a running one is not run either. The running one is
        // held until the waiting one is cancelled, so the order does not depend on the machine's load.
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let held: TaskRunner<Int, Int>.Process = { input, _ in
            if input == 1 {
                started.signal()
                _ = gate.wait(timeout: .now() + 60)
            }
            return input * 2
        }
        let queue = TaskRunner<Int, Int>(
            taskName: "TestTask", verb: "detect", runningMode: .image, process: held, deliver: nil)
        let first = Task { try await queue.processImage(1) }
        let didStart = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async { done.resume(returning: started.wait(timeout: .now() + 60) == .success) }
        }
        try #require(didStart, "the first call did not start within 60 s")
        let second = Task { try await queue.processImage(2) }
        second.cancel()
        gate.signal()
        #expect(try await first.value == 2)
        await #expect(throws: CancellationError.self) { _ = try await second.value }
    }

    @Test func resetLetsTimestampsStartAgainAndClearsState() throws {
        let resets = ResetCounter()
        let video = runner(.video, resets: resets)
        _ = try video.processVideoFrame(1, timestampInMilliseconds: 100)
        #expect(throws: VisionTasksError.self) { _ = try video.processVideoFrame(1, timestampInMilliseconds: 0) }
        try video.reset()
        #expect(resets.count == 1)
        #expect(try video.processVideoFrame(3, timestampInMilliseconds: 0) == 6)

        let live = runner(.liveStream, delay: 0.01, resets: resets)
        for t in 0..<5 { try live.processAsync(t, timestampInMilliseconds: t) }
        try live.reset() // waits for the frames sent so far
        #expect(resets.count == 2)
        #expect(live.waitingResultCount == 0)
        try live.processAsync(0, timestampInMilliseconds: 0)
        live.waitUntilIdle()

        #expect(
            throws: VisionTasksError.runningModeMismatch(
                "TestTask was created in IMAGE mode; reset() needs VIDEO or LIVE_STREAM mode (images are independent already)"
            )
        ) {
            try runner(.image).reset()
        }
    }

    // MARK: - Through the public API, with the real model

    private func frames() throws -> [(image: MPImage, timestamp: Int, reference: FaceDetectorResult)] {
        let frames = try FaceDetectorSupport.videoFrames()
        #expect(frames.count == 10)
        return try frames.map {
            (
                try MPImage(contentsOfFile: FaceDetectorSupport.imagePath($0.image)), $0.timestampInMilliseconds,
                $0.result
            )
        }
    }

    @Test func asyncDetectMatchesMediaPipeInVideoMode() async throws {
        let detector = try FaceDetectorSupport.detector(.video)
        for frame in try frames() {
            let result = try await detector.detect(videoFrame: frame.image, timestampInMilliseconds: frame.timestamp)
            #expect(result.timestampInMilliseconds == frame.timestamp)
            FaceDetectorSupport.expectMatches(result, frame.reference, "async frame at \(frame.timestamp) ms")
        }
        let still = try FaceDetectorSupport.detector(.image)
        let image = try MPImage(contentsOfFile: FaceDetectorSupport.imagePath("astronaut.png"))
        #expect(try await still.detect(image: image).detections.count == 1)
    }

    @Test func nsObjectSubclassDelegateReceivesResultsInOrder() throws {
        let processor = CountingFaceResultProcessor()
        let detector = try FaceDetectorSupport.detector(.liveStream, delegate: processor)
        let frames = try frames()
        for frame in frames {
            try detector.detectAsync(image: frame.image, timestampInMilliseconds: frame.timestamp)
            detector.waitUntilIdle() // one at a time: none dropped
        }
        #expect(processor.timestamps == frames.map(\.timestamp))
        #expect(processor.faces == frames.map(\.reference.detections.count))
        #expect(detector.droppedFrameCount == 0 && detector.droppedResultCount == 0)
    }

    @Test func closureDelegateReceivesEveryResultInOrder() throws {
        let received = NSLock()
        nonisolated(unsafe) var got: [LiveStreamResult<FaceDetectorResult>] = [] // guarded by `received`
        let handler = LiveStreamHandler<FaceDetectorResult> { delivery in received.withLock { got.append(delivery) } }
        let detector = try FaceDetectorSupport.detector(.liveStream, delegate: handler)
        let frames = try frames()
        for frame in frames {
            try detector.detectAsync(image: frame.image, timestampInMilliseconds: frame.timestamp)
            detector.waitUntilIdle() // one at a time: none dropped
        }
        let results = received.withLock { got }
        #expect(results.map(\.timestampInMilliseconds) == frames.map(\.timestamp))
        for (item, frame) in zip(results, frames) {
            FaceDetectorSupport.expectMatches(
                try item.get(), frame.reference, "closure delegate, frame at \(frame.timestamp) ms")
        }
    }

    @Test func aClosureDelegateGetsAFramesErrorAsAThrowingResult() throws {
        // Errors met while processing reach the delegate (the runner's own tests make them); here, what the
        // closure delegate makes of one.
        nonisolated(unsafe) var got: [LiveStreamResult<FaceDetectorResult>] = []
        let handler = LiveStreamHandler<FaceDetectorResult> { got.append($0) }
        let detector = try FaceDetectorSupport.detector(.image)
        handler.faceDetector(
            detector, didFinishDetection: nil, timestampInMilliseconds: 7,
            error: VisionTasksError.processingFailed("frame 7 is bad"))
        handler.faceDetector(detector, didFinishDetection: nil, timestampInMilliseconds: 8, error: nil)
        #expect(got.map(\.timestampInMilliseconds) == [7, 8])
        #expect(throws: VisionTasksError.processingFailed("frame 7 is bad")) { _ = try got[0].get() }
        #expect(throws: VisionTasksError.processingFailed("no result for the frame at 8 ms")) { _ = try got[1].get() }
    }

    @Test func liveStreamResultsAreAnAsyncSequenceInTimestampOrder() async throws {
        let results = LiveStreamResults<FaceDetectorResult>()
        let detector = try FaceDetectorSupport.detector(.liveStream, delegate: results)
        let frames = try frames()
        let reader = Task { () -> [LiveStreamResult<FaceDetectorResult>] in
            var got: [LiveStreamResult<FaceDetectorResult>] = []
            for await item in results { got.append(item) }
            return got
        }
        for frame in frames {
            try detector.detectAsync(image: frame.image, timestampInMilliseconds: frame.timestamp)
        }
        detector.waitUntilIdle()
        results.finish()
        let got = await reader.value
        let timestamps = got.map(\.timestampInMilliseconds)
        #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
        #expect(
            got.count + detector.droppedFrameCount + detector.droppedResultCount + results.droppedResultCount
                == frames.count)
        #expect(got.last?.timestampInMilliseconds == frames.last?.timestamp)
        for item in got {
            let reference = try #require(frames.first { $0.timestamp == item.timestampInMilliseconds }).reference
            FaceDetectorSupport.expectMatches(
                try item.get(), reference, "sequence frame at \(item.timestampInMilliseconds) ms")
        }
    }

    @Test func cancellingTheReaderEndsTheSequence() async throws {
        let results = LiveStreamResults<FaceDetectorResult>()
        let reader = Task { () -> Int in
            var count = 0
            for await _ in results { count += 1 }
            return count
        }
        reader.cancel()
        #expect(await reader.value == 0)
    }

    /// Face Landmarker in video mode tracks the face and smooths its landmarks: after `reset()` the
    /// same frames from timestamp 0 give exactly the first pass's numbers, as a fresh task does.
    @Test func resetStartsANewVideoWithTrackingCleared() throws {
        let images = try frames().prefix(3).map(\.image)
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath =
            FaceDetectorSupport.root.appendingPathComponent("models/face_landmarker.task").path
        options.runningMode = .video
        let landmarker = try FaceLandmarker(options: options)
        let first = try images.enumerated().map {
            try landmarker.detect(videoFrame: $1, timestampInMilliseconds: $0 * 33)
        }
        #expect(throws: VisionTasksError.self) {
            _ = try landmarker.detect(videoFrame: images[0], timestampInMilliseconds: 0)
        }
        try landmarker.reset()
        let second = try images.enumerated().map {
            try landmarker.detect(videoFrame: $1, timestampInMilliseconds: $0 * 33)
        }
        // Tolerance: exact; the same frames from a cleared state give the same numbers.
        #expect(first.map(\.faceLandmarks) == second.map(\.faceLandmarks))
        #expect(first.allSatisfy { $0.faceLandmarks.count == 1 })
        let fresh = try FaceLandmarker(options: options)
        #expect(
            try fresh.detect(videoFrame: images[0], timestampInMilliseconds: 0).faceLandmarks == second[0].faceLandmarks
        )
        // Without reset the tracked, smoothed face differs from a fresh start on the same frame.
        let carried = try landmarker.detect(videoFrame: images[0], timestampInMilliseconds: 1000)
        #expect(carried.faceLandmarks != second[0].faceLandmarks)
    }
}

/// Counts the runner's reset calls.
final class ResetCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
