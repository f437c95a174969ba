import Dispatch
import Foundation
import VisionCore
import VisionTasks

/// Part (a): a live stream sent at `speedup` × the rate the pipeline can deliver (the slower of the
/// detector and a listener that takes `listenerMs` per result), for `seconds`. Checks: RSS flat
/// within 10% after the first 20% of the run; results in timestamp order, each for a frame that was
/// sent, none twice, the newest frame delivered; the results still waiting when the input stops
/// bounded (at most one second of the listener's time); every sent frame delivered or counted by the
/// detector as dropped (`droppedFrameCount` + `droppedResultCount`), exactly.
struct LiveSoak {
    let model: String
    let photo: String
    let seconds: Double
    let listenerMs: Double
    let speedup: Double
    /// Results allowed to wait for the listener when the input stops: one second of its time.
    var maxBacklog: Int { Int(1000 / listenerMs) }

    func run() throws -> [String] {
        let image = try MPImage(contentsOfFile: photo)
        let taskMs = try Self.medianDetectMs(model: model, image: image)
        let intervalMs = max(taskMs, listenerMs) / speedup
        say(
            String(
                format:
                    "live: detector %.2f ms/frame, listener %.0f ms/result: sending every %.2f ms (%.1f fps) for %.0f s",
                taskMs, listenerMs, intervalMs, 1000 / intervalMs, seconds))

        let listener = SlowListener(delayMs: listenerMs)
        let options = FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: model), runningMode: .liveStream)
        options.faceDetectorLiveStreamDelegate = listener
        let detector = try FaceDetector(options: options)

        var rss: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var sent = 0
        var nextSample = 1.0
        while elapsed() < seconds {
            // Timestamps on the sending schedule; the sender sleeps until each frame is due.
            let due = Double(sent) * intervalMs / 1000
            let wait = due - elapsed()
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
            try detector.detectAsync(image: image, timestampInMilliseconds: Self.timestamp(sent, intervalMs))
            sent += 1
            if elapsed() >= nextSample {
                rss.append(Memory.residentMiB())
                nextSample += 1
            }
        }
        let deliveredAtStop = listener.count
        listener.hurry()
        let drainStart = elapsed()
        detector.waitUntilIdle()
        let drainSeconds = elapsed() - drainStart
        let backlog = listener.count - deliveredAtStop
        let summary = listener.summary()

        var failures: [String] = []
        let warmup = max(3, rss.count / 5)
        let memory = Memory.flat(rss, warmup: warmup, tolerance: 0.10, what: "live")
        say(memory.figures)
        if let failure = memory.failure { failures.append(failure) }
        let droppedFrames = detector.droppedFrameCount, droppedResults = detector.droppedResultCount
        say(
            "live: \(sent) frames sent, \(summary.delivered) results delivered (\(summary.errors) errors), "
                + "\(droppedFrames) frames and \(droppedResults) results dropped; "
                + "\(backlog) results were still waiting when the input stopped, drained in \(String(format: "%.1f", drainSeconds)) s"
        )
        if summary.outOfOrder > 0 { failures.append("live: \(summary.outOfOrder) results out of timestamp order") }
        if summary.errors > 0 {
            failures.append("live: \(summary.errors) frames gave an error: \(summary.firstError ?? "")")
        }
        let sentStamps = Set((0..<sent).map { Self.timestamp($0, intervalMs) })
        let strays = summary.timestamps.filter { !sentStamps.contains($0) }
        if !strays.isEmpty {
            failures.append("live: \(strays.count) results for timestamps never sent, e.g. \(strays[0])")
        }
        if Set(summary.timestamps).count != summary.timestamps.count {
            failures.append("live: a frame was delivered twice")
        }
        if summary.timestamps.last != Self.timestamp(sent - 1, intervalMs) {
            failures.append(
                "live: the newest frame (\(Self.timestamp(sent - 1, intervalMs)) ms) was not delivered last")
        }
        if summary.delivered + droppedFrames + droppedResults != sent {
            failures.append(
                "live: \(sent) sent ≠ \(summary.delivered) delivered + \(droppedFrames) frames + \(droppedResults) results dropped"
            )
        }
        if backlog > maxBacklog {
            failures.append(
                "live: \(backlog) results waited for the slow listener when the input stopped (bound \(maxBacklog))")
        }
        return failures
    }

    /// The timestamp of the `index`-th frame sent every `intervalMs`.
    static func timestamp(_ index: Int, _ intervalMs: Double) -> Int {
        Int((Double(index) * intervalMs).rounded())
    }

    /// The detector's median time per image over 30 runs after 5 warm-up runs, in ms.
    static func medianDetectMs(model: String, image: MPImage) throws -> Double {
        let detector = try FaceDetector(modelPath: model)
        return try Timing.measure(runs: 30, warmup: 5) { _ = try detector.detect(image: image) }.medianMs
    }
}

/// A live-stream listener that takes `delayMs` per result until told to hurry, recording what it got.
final class SlowListener: FaceDetectorLiveStreamDelegate, @unchecked Sendable {
    struct Summary {
        let delivered: Int
        let errors: Int
        let outOfOrder: Int
        let firstError: String?
        let timestamps: [Int]
    }

    private let lock = NSLock()
    private let delayMs: Double
    private var slow = true
    private var timestamps: [Int] = []
    private var errors = 0
    private var outOfOrder = 0
    private var firstError: String?

    init(delayMs: Double) { self.delayMs = delayMs }

    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        let sleep = lock.withLock {
            if let last = timestamps.last, timestampInMilliseconds <= last { outOfOrder += 1 }
            timestamps.append(timestampInMilliseconds)
            if let error {
                errors += 1
                if firstError == nil { firstError = "\(error)" }
            }
            return slow
        }
        if sleep { usleep(UInt32(delayMs * 1000)) }
    }

    /// Results delivered so far.
    var count: Int { lock.withLock { timestamps.count } }
    /// From now on, take results at once (to drain what waits after the input stops).
    func hurry() { lock.withLock { slow = false } }

    func summary() -> Summary {
        lock.withLock {
            Summary(
                delivered: timestamps.count, errors: errors, outOfOrder: outOfOrder, firstError: firstError,
                timestamps: timestamps)
        }
    }
}
