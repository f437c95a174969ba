import Foundation
import Testing
import VisionCore

@testable import VisionTasks

/// Collects live-stream deliveries from the runner's result queue.
/// `listenerDelay` makes it a slow listener: each delivery sleeps that long.
private final class Deliveries: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(value: Int?, error: String?, timestamp: Int)] = []
    private let listenerDelay: Double
    init(listenerDelay: Double = 0) { self.listenerDelay = listenerDelay }
    func add(_ result: Result<Int, any Error>, _ timestamp: Int) {
        if listenerDelay > 0 { Thread.sleep(forTimeInterval: listenerDelay) }
        lock.withLock {
            switch result {
            case .success(let value): items.append((value, nil, timestamp))
            case .failure(let error): items.append((nil, "\(error)", timestamp))
            }
        }
    }
    var all: [(value: Int?, error: String?, timestamp: Int)] { lock.withLock { items } }
}

/// The timestamps a runner's work saw, in order.
private final class RanTimestamps: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func add(_ timestamp: Int) { lock.withLock { items.append(timestamp) } }
    var all: [Int] { lock.withLock { items } }
}

/// The runner a listener calls back into, set once it is made.
private final class RunnerBox: @unchecked Sendable {
    var runner: TaskRunner<Int, Int>?
}

@Suite struct TaskRunnerTests {
    private func runner(_ mode: RunningMode, delay: Double = 0, sink: Deliveries? = nil) -> TaskRunner<Int, Int> {
        let process: TaskRunner<Int, Int>.Process = { input, _ in
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            if input < 0 { throw VisionTasksError.processingFailed("frame \(input) is bad") }
            return input * 2
        }
        var deliver: TaskRunner<Int, Int>.Deliver?
        if let sink { deliver = { result, timestamp in sink.add(result, timestamp) } }
        return TaskRunner(taskName: "TestTask", verb: "detect", runningMode: mode, process: process, deliver: deliver)
    }

    /// A listener that calls `reset()` (or `waitUntilIdle()`) on its own task: it waited for the delivery under way,
    /// its own, for good. It now waits for the frames to be processed only, and the stream starts again.
    @Test func aListenerMayResetItsOwnTask() throws {
        let box = RunnerBox()
        let returned = DispatchSemaphore(value: 0)
        let r = TaskRunner<Int, Int>(
            taskName: "TestTask", verb: "detect", runningMode: .liveStream, process: { input, _ in input * 2 },
            deliver: { _, timestamp in
                guard timestamp == 5 else { return }
                try? box.runner?.reset()
                box.runner?.waitUntilIdle()
                returned.signal()
            })
        box.runner = r
        try r.processAsync(1, timestampInMilliseconds: 5)
        #expect(returned.wait(timeout: .now() + 10) == .success, "reset() from the listener did not return")
        // Reset: the timestamps start again.
        try r.processAsync(2, timestampInMilliseconds: 1)
        r.waitUntilIdle()
    }

    /// Two listeners, each in its callback while calling `waitUntilIdle()` on the other's task: each waited for the
    /// other's delivery under way, for good. From any task's listener it now waits for the frames to be processed.
    @Test func twoListenersWaitingForEachOthersTaskReturn() throws {
        let boxes = (RunnerBox(), RunnerBox())
        let inCallback = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let returned = DispatchSemaphore(value: 0)
        func make(_ mine: DispatchSemaphore, _ theirs: DispatchSemaphore, _ other: RunnerBox) -> TaskRunner<Int, Int> {
            TaskRunner(
                taskName: "TestTask", verb: "detect", runningMode: .liveStream, process: { input, _ in input * 2 },
                deliver: { _, _ in
                    mine.signal()
                    _ = theirs.wait(timeout: .now() + 10) // both listeners in their callbacks
                    other.runner?.waitUntilIdle()
                    returned.signal()
                })
        }
        boxes.0.runner = make(inCallback.0, inCallback.1, boxes.1)
        boxes.1.runner = make(inCallback.1, inCallback.0, boxes.0)
        try boxes.0.runner?.processAsync(1, timestampInMilliseconds: 1)
        try boxes.1.runner?.processAsync(1, timestampInMilliseconds: 1)
        #expect(returned.wait(timeout: .now() + 20) == .success && returned.wait(timeout: .now() + 20) == .success)
    }

    /// Video frames sent from many tasks (or threads) at once run in the order their timestamps were accepted: each
    /// is run, or refused for a timestamp not above the last; none runs after a later one.
    @Test func concurrentVideoFramesRunInTheOrderTheirTimestampsWereAccepted() async throws {
        let ran = RanTimestamps()
        let r = TaskRunner<Int, Int>(
            taskName: "TestTask", verb: "detect", runningMode: .video,
            process: { input, timestamp in
                ran.add(timestamp)
                return input
            }, deliver: nil)
        await withTaskGroup(of: Void.self) { group in
            for t in 1...200 {
                group.addTask { _ = try? await r.processVideoFrame(t, timestampInMilliseconds: t) }
                group.addTask {
                    Thread.detachNewThread { _ = try? r.processVideoFrame(t, timestampInMilliseconds: t + 1000) }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(200)) // the threads' last frames
        let order = ran.all
        #expect(!order.isEmpty && zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "\(order)")
    }

    @Test func imageModeRunsImagesAndRejectsOtherMethods() throws {
        let r = runner(.image)
        #expect(try r.processImage(21) == 42)
        #expect(
            throws: VisionTasksError.runningModeMismatch(
                "TestTask was created in IMAGE mode; detect(videoFrame:timestampInMilliseconds:) needs VIDEO mode (use detect(image:))"
            )
        ) {
            _ = try r.processVideoFrame(1, timestampInMilliseconds: 0)
        }
        #expect(throws: VisionTasksError.self) { try r.processAsync(1, timestampInMilliseconds: 0) }
    }

    @Test func videoModeRequiresStrictlyIncreasingTimestamps() throws {
        let r = runner(.video)
        #expect(try r.processVideoFrame(1, timestampInMilliseconds: 10) == 2)
        #expect(try r.processVideoFrame(2, timestampInMilliseconds: 11) == 4)
        #expect(
            throws: VisionTasksError.invalidTimestamp(
                "TestTask got timestamp 11 ms after 11 ms; timestamps must strictly increase in VIDEO mode")
        ) {
            _ = try r.processVideoFrame(3, timestampInMilliseconds: 11)
        }
        #expect(throws: VisionTasksError.self) { _ = try r.processVideoFrame(3, timestampInMilliseconds: 5) }
        #expect(throws: VisionTasksError.self) { _ = try r.processImage(1) }
        // A failing frame still consumes its timestamp, as in MediaPipe.
        #expect(throws: VisionTasksError.processingFailed("frame -1 is bad")) {
            _ = try r.processVideoFrame(-1, timestampInMilliseconds: 20)
        }
        #expect(throws: VisionTasksError.self) { _ = try r.processVideoFrame(1, timestampInMilliseconds: 20) }
    }

    /// A timestamp outside `FrameContext.timestampRange` is refused in video and live-stream mode, before the
    /// frame runs and without taking the stream's place: the next timestamp in range still goes.
    @Test func timestampsOutsideTheRangeAreRefused() throws {
        let sink = Deliveries()
        let video = runner(.video), live = runner(.liveStream, sink: sink)
        let limit = FrameContext.timestampRange.upperBound
        for timestamp in [Int.min, -limit - 1, limit + 1, Int.max] {
            let refusal = VisionTasksError.invalidTimestamp(
                "TestTask got timestamp \(timestamp) ms; timestamps must lie within ±\(limit) ms")
            #expect(throws: refusal) { _ = try video.processVideoFrame(1, timestampInMilliseconds: timestamp) }
            #expect(throws: refusal) { try live.processAsync(1, timestampInMilliseconds: timestamp) }
        }
        #expect(try video.processVideoFrame(1, timestampInMilliseconds: -limit) == 2)
        try live.processAsync(2, timestampInMilliseconds: limit)
        live.waitUntilIdle()
        #expect(sink.all.map(\.timestamp) == [limit])
    }

    @Test func liveStreamDeliversInOrderWithErrors() throws {
        let sink = Deliveries()
        let r = runner(.liveStream, sink: sink)
        for t in 0..<20 {
            try r.processAsync(t == 7 ? -1 : t, timestampInMilliseconds: t * 33)
            r.waitUntilIdle() // one at a time: nothing may be dropped
        }
        let got = sink.all
        #expect(got.count == 20)
        #expect(got.map(\.timestamp) == (0..<20).map { $0 * 33 })
        #expect(got[7].value == nil && got[7].error == "Processing failed: frame -1 is bad")
        #expect(got[8].value == 16)
        #expect(r.droppedFrameCount == 0)
        #expect(throws: VisionTasksError.self) { try r.processAsync(1, timestampInMilliseconds: 19 * 33) }
        #expect(throws: VisionTasksError.self) { _ = try r.processImage(1) }
    }

    @Test func liveStreamDropsOlderWaitingFramesUnderOverload() throws {
        let sink = Deliveries()
        let r = runner(.liveStream, delay: 0.02, sink: sink)
        let frames = 60
        for t in 0..<frames { try r.processAsync(t, timestampInMilliseconds: t) } // far faster than 20 ms each
        r.waitUntilIdle()
        let got = sink.all
        // The first frame runs, the last one always waits and runs; most in between are dropped.
        #expect(got.first?.timestamp == 0)
        #expect(got.last?.timestamp == frames - 1)
        #expect(got.count + r.droppedFrameCount == frames)
        #expect(r.droppedFrameCount > frames / 2)
        let timestamps = got.map(\.timestamp)
        #expect(timestamps == timestamps.sorted())
        #expect(got.allSatisfy { $0.value == $0.timestamp * 2 })
    }

    /// Issue 10, finding 4: a listener taking 50 ms per result, frames at about 120 fps processed in
    /// 2 ms each. Finished results must not queue without bound: at most `maxWaitingResults` wait,
    /// the oldest is dropped and counted, the rest arrive in timestamp order, and the backlog drains
    /// within a few listener calls once input stops (unbounded, ~100 results would take ~5 s).
    @Test func liveStreamBoundsResultsWaitingForASlowListener() throws {
        let sink = Deliveries(listenerDelay: 0.05)
        let r = runner(.liveStream, delay: 0.002, sink: sink)
        let frames = 120
        var peakWaiting = 0
        for t in 0..<frames {
            try r.processAsync(t, timestampInMilliseconds: t * 8)
            peakWaiting = max(peakWaiting, r.waitingResultCount)
            Thread.sleep(forTimeInterval: 0.008)
        }
        let stoppedSending = Date()
        r.waitUntilIdle()
        let drain = Date().timeIntervalSince(stoppedSending)
        let got = sink.all
        #expect(peakWaiting <= TaskRunner<Int, Int>.maxWaitingResults)
        #expect(r.waitingResultCount == 0)
        // Every frame is accounted for exactly once: delivered, dropped waiting to be processed, or
        // dropped waiting for the listener.
        #expect(got.count + r.droppedFrameCount + r.droppedResultCount == frames)
        #expect(r.droppedResultCount > frames / 2)
        let timestamps = got.map(\.timestamp)
        #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
        #expect(got.last?.timestamp == (frames - 1) * 8) // the newest result is never the one dropped
        #expect(got.allSatisfy { $0.value == $0.timestamp / 8 * 2 })
        // At most maxWaitingResults + 1 listener calls of 50 ms remain once input stops (0.25 s);
        // 1.5 s leaves room for a loaded machine.
        #expect(drain < 1.5, "draining took \(drain) s after the last frame")
    }

    /// A camera that keeps sending while another thread calls `waitUntilIdle()` or `reset()` (a Restart button): the
    /// call waits for the frames sent before it, not for the stream to end (it returned only when the camera stopped,
    /// 5 s here, when it waited for the runner to be idle).
    @Test func aStreamThatGoesOnDoesNotHoldTheCallsThatWaitForIt() throws {
        let sink = Deliveries(listenerDelay: 0.03)
        let r = runner(.liveStream, delay: 0.02, sink: sink)
        let lock = NSLock()
        nonisolated(unsafe) var lastSent = -1, stop = false
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var t = 0
            let end = Date().addingTimeInterval(5)
            while Date() < end, !lock.withLock({ stop }) {
                if (try? r.processAsync(t, timestampInMilliseconds: t)) != nil { lock.withLock { lastSent = t } }
                t += 10
                Thread.sleep(forTimeInterval: 0.01)
            }
            stopped.signal()
        }
        defer {
            lock.withLock { stop = true }
            stopped.wait()
            r.waitUntilIdle()
        }
        Thread.sleep(forTimeInterval: 0.3)
        for call in ["waitUntilIdle", "reset"] {
            let sentBefore = lock.withLock { lastSent }
            let started = Date()
            if call == "reset" { try r.reset() } else { r.waitUntilIdle() }
            let waited = Date().timeIntervalSince(started)
            #expect(waited < 1.5, "\(call) waited \(waited) s while the stream went on")
            // Every frame sent before the call was delivered or dropped: a result at or after the last one came.
            #expect((sink.all.map(\.timestamp).max() ?? -1) >= sentBefore, "\(call)")
        }
    }

    /// (The declared ranges are checked in TaskCatalogTests.)
    @Test func optionChecksNameTheOption() {
        #expect(throws: VisionTasksError.self) {
            try OptionChecks.delegate(present: false, runningMode: .liveStream, "faceDetectorLiveStreamDelegate")
        }
        #expect(throws: VisionTasksError.self) {
            try OptionChecks.delegate(present: true, runningMode: .image, "faceDetectorLiveStreamDelegate")
        }
        #expect(throws: Never.self) { try OptionChecks.delegate(present: true, runningMode: .liveStream, "d") }
    }

    @Test func baseOptionsLoadTheModelOrSayWhyNot() throws {
        #expect(throws: VisionTasksError.fileNotFound(path: "/no/such/model.task")) {
            _ = try BaseOptions(modelAssetPath: "/no/such/model.task").loadModelAsset()
        }
        #expect(throws: VisionTasksError.self) { _ = try BaseOptions().loadModelAsset() }
        #expect(throws: VisionTasksError.self) { _ = try BaseOptions(modelAssetPath: "/tmp").loadModelAsset() }
        #expect(throws: VisionTasksError.self) {
            _ = try BaseOptions(modelAssetBuffer: Data([1]), numThreads: 0).loadModelAsset()
        }
        #expect(
            try BaseOptions(modelAssetPath: "/nope", modelAssetBuffer: Data([1, 2])).loadModelAsset() == Data([1, 2]))
    }
}
