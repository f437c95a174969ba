import Foundation

/// Tells a video that ended early (truncated, or cut off by a damaged stretch) from one that was
/// decoded to its end. ffmpeg exits 0 on a truncated MP4 or Matroska file and simply delivers fewer
/// frames, so the reader compares the frames decoded with what the container announced (ffprobe's
/// frame count, else its duration × frame rate) and counts the end as early only when ffmpeg also
/// logged an error while reading (a file trimmed by an edit list decodes fewer frames than it holds,
/// without errors). Fed ffmpeg's stderr lines as printed with `-loglevel level+...`.
final class EarlyEndCheck: @unchecked Sendable {
    private let lock = NSLock()
    private var lastError: String?

    /// Takes one stderr line; records it if ffmpeg logged it at error level or worse, about the input (not its own
    /// raw output's muxer: "non monotonically increasing dts to muxer" says nothing of the file). Returns false
    /// (the line is not consumed: it stays in the child's tail for other messages).
    func take(_ line: String) -> Bool {
        if line.contains("to muxer") || line.hasPrefix("[vost#") || line.hasPrefix("[out#") { return false }
        for level in ["[error] ", "[fatal] ", "[panic] "] {
            if let range = line.range(of: level) {
                let text = String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
                lock.withLock { lastError = text }
                break
            }
        }
        return false
    }

    /// The last error-level message ffmpeg logged, without its context and level tags.
    var lastErrorMessage: String? { lock.withLock { lastError } }

    /// How many frames the container announces: ffprobe's frame count, else the duration times the
    /// average frame rate, less one frame for rounding; nil when it says neither.
    static func announcedFrames(_ info: VideoInfo?) -> Int? {
        guard let info else { return nil }
        if let count = info.frameCount, count > 0 { return count }
        guard let seconds = info.durationSeconds, seconds > 0, info.framesPerSecond > 0 else { return nil }
        let estimate = (seconds * info.framesPerSecond).rounded(.down) - 1
        return estimate >= 1 && estimate < Double(Int32.max) ? Int(estimate) : nil
    }

    /// The message for a stream that ended after `decoded` frames, or nil when it ended where it should.
    func earlyEnd(source: String, decoded: Int, info: VideoInfo?) -> String? {
        guard let announced = Self.announcedFrames(info), decoded < announced, let error = lastErrorMessage else {
            return nil
        }
        return "decoding \(source) stopped at frame \(decoded) of the \(announced) the file announces: "
            + "it is truncated or damaged (ffmpeg: \(error))"
    }
}
