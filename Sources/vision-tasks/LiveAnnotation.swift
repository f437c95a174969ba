import Foundation
import VideoIO
import VisionRender
import VisionTasks

/// `--live` with `--annotate out.mp4`: every frame that got a result is drawn with its own result
/// and written to an H.264 video at a constant rate, placed by its timestamp and held until the next
/// processed frame's (`FramePlacement`, bounded by the wall time in a live run), so the video plays in
/// real time and shows exactly what each result saw (frames the task dropped are not in it). Frames
/// are kept from sending until their result arrives; frames the flow limiter replaced are forgotten
/// at the next result, and at most `maxPending` are kept.
final class LiveAnnotation<Task: DescribedTask>: @unchecked Sendable {
    /// The most frames kept waiting for a result (the oldest goes first; its result, if one still
    /// comes, is then not drawn).
    static var maxPending: Int { 64 }

    private let path: String
    private let frameRate: String
    private let preset: VideoWriter.Preset
    private let lock = NSLock()
    private var pending: [VideoFrame] = []
    // Touched on the delivery queue only, then by `finish()` after the task is idle.
    private var writer: VideoWriter?
    private var failure: (any Error)?

    /// Writes to `path` at `frameRate` ("30", "30000/1001": a file's `VideoInfo.writingFrameRate`, bounded there) with
    /// the encoder's `preset`.
    init(path: String, frameRate: String, preset: VideoWriter.Preset) {
        self.path = path
        self.preset = preset
        self.frameRate = frameRate
    }

    /// A frame is being sent to the task (the reading thread).
    func sent(_ frame: VideoFrame) {
        lock.withLock {
            pending.append(frame)
            if pending.count > Self.maxPending { pending.removeFirst() }
        }
    }

    /// The result (or error, `result` nil) of the frame at `timestamp` arrived (the delivery queue):
    /// the frames before it were dropped; it is drawn and written at its time, the frame before held until then.
    func delivered(_ result: Task.TaskResult?, timestamp: Int) {
        let frame: VideoFrame? = lock.withLock {
            while let first = pending.first, first.timestampInMilliseconds < timestamp { pending.removeFirst() }
            guard pending.first?.timestampInMilliseconds == timestamp else { return nil }
            return pending.removeFirst()
        }
        guard let frame, failure == nil else { return }
        do {
            let annotation = try Annotation(image: frame.image())
            if let result { result.draw(on: annotation) }
            if writer == nil {
                writer = try VideoWriter(
                    path: path, width: annotation.width, height: annotation.height, frameRate: frameRate,
                    preset: preset, live: true)
            }
            try writer?.write(rgb: annotation.rgbPixels(), timestampInMilliseconds: timestamp)
        } catch {
            failure = error
        }
    }

    /// Closes the video (its last frame shown once), says what it does not keep of the source; throws what went
    /// wrong on the way.
    func finish() throws {
        if let failure { throw failure }
        guard let writer else {
            throw VisionTasksError.processingFailed("no frame got a result, so \(path) was not written")
        }
        try writer.finish()
        VideoRun.warnAbout(writer, path)
    }
}
