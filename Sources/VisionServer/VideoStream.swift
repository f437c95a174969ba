import Foundation
import VideoIO
import VisionTasks

/// A posted video processed in video mode, frame by frame: each `nextLine` reads and processes one
/// frame (on a Dispatch thread) and returns its JSON line,
/// `{"frame":n,"timestampInMilliseconds":t,"inferenceMs":ms,"result":…}` or `{…,"error":"…"}`, then
/// `{"warning":"…"}` when ffmpeg reported errors in a video of no announced length (it may be cut or damaged).
/// The body is kept in a temporary file ffmpeg reads, removed by `close`. Used by one request at a
/// time, in order.
final class VideoStream: @unchecked Sendable {
    private let file: URL
    private let reader: VideoReader
    private let task: ServedTask
    private let maxFrames: Int
    private var finished = false
    /// The pixels of the frames read so far.
    private var pixels = 0
    /// The index and timestamp of the last frame the task took.
    private var last: (index: Int, timestampInMilliseconds: Int)?

    private init(file: URL, reader: VideoReader, task: ServedTask, maxFrames: Int) {
        self.file = file
        self.reader = reader
        self.task = task
        self.maxFrames = maxFrames
    }

    /// What errors call the temporary file, which the client never named.
    private static let bodyName = "the posted video"

    /// Writes `data` to a temporary file, opens it with ffmpeg and makes a video-mode task. An
    /// unreadable video is a 400 (`VisionTasksError.invalidVideo`) naming the posted video, not the file, as is one
    /// of frames over `maxPixelCount` pixels. Frames past the first `maxFrames` are not read: an error line says so.
    static func open(
        _ data: Data, settings: TaskSettings, modelPath: String, maxPixelCount: Int, maxFrames: Int
    ) async throws -> VideoStream {
        try await WorkerPool.offloaded {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "vision-tasks-\(UUID().uuidString).video")
            do {
                try data.write(to: file)
                let reader = try VideoReader(contentsOfFile: file.path, maxPixelCount: maxPixelCount)
                let task = try ServedTask.make(settings, modelPath: modelPath, mode: .video, live: nil)
                return VideoStream(file: file, reader: reader, task: task, maxFrames: maxFrames)
            } catch {
                try? FileManager.default.removeItem(at: file)
                throw APIError.from(error).naming(file.path, as: Self.bodyName)
            }
        }.get()
    }

    /// The next frame's line, then the `{"warning"}` line when ffmpeg reported errors, then nil (nil too after a
    /// line reporting that the video could not be read further).
    func nextLine() async -> Data? {
        guard !finished else { return nil }
        return (try? await WorkerPool.offloaded { [self] in line() }.get()) ?? nil
    }

    private func line() -> Data? {
        let frame: VideoFrame
        do {
            guard let next = try reader.nextFrame() else {
                finished = true
                return reader.streamWarning.map {
                    JSONEnvelope.line(["warning": .string($0.replacingOccurrences(of: file.path, with: Self.bodyName))])
                }
            }
            pixels += next.width * next.height
            let maxPixels = maxFrames * ServerConfiguration.videoFramePixels
            guard next.index < maxFrames, pixels <= maxPixels else {
                finished = true
                return JSONEnvelope.line([
                    "frame": .int(next.index),
                    "error": .string(
                        "the video has more than \(maxFrames) frames, or frames of more than \(maxPixels) pixels in all (\(maxFrames) of 1920×1080), the most one request processes (--max-video-frames)"
                    ),
                ])
            }
            frame = next
        } catch {
            finished = true
            return JSONEnvelope.line([
                "error": .string(APIError.from(error).naming(file.path, as: Self.bodyName).message)
            ])
        }
        var fields: [String: JSONEnvelope.Value] = [
            "frame": .int(frame.index), "timestampInMilliseconds": .int(frame.timestampInMilliseconds),
        ]
        let started = DispatchTime.now()
        do {
            if let repeated = frame.repeatedTimestamp(
                after: last, in: Self.bodyName, framesPerSecond: reader.info?.framesPerSecond)
            {
                throw repeated
            }
            last = (frame.index, frame.timestampInMilliseconds)
            let result = try task.detectVideoFrame(frame.image(), frame.timestampInMilliseconds)
            fields["inferenceMs"] = .double(
                Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6)
            fields["result"] = .json(result)
        } catch {
            fields["error"] = .string(APIError.from(error).message)
        }
        return JSONEnvelope.line(fields)
    }

    /// Stops ffmpeg and removes the temporary file.
    func close() {
        reader.close()
        try? FileManager.default.removeItem(at: file)
    }
}
