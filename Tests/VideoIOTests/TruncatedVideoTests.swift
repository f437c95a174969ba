import Foundation
import Testing
import VisionErrors

@testable import VideoIO

/// A video cut short (issue 10, finding 6): ffmpeg exits 0 and delivers fewer frames; the reader
/// must say so, naming the frame where decoding stopped, in file and live-source modes.
@Suite struct TruncatedVideoTests {
    /// 180 frames at 30 fps with the index at the front (`+faststart`), and its first half.
    static func halfVideo(in dir: URL, container: String = "mp4") throws -> (full: URL, half: URL) {
        let full = dir.appendingPathComponent("full.\(container)")
        let half = dir.appendingPathComponent("half.\(container)")
        try TestVideos.panZoom(
            photo: "astronaut.png", frames: 180, rate: "30", size: "160x120", to: full,
            extra: container == "mp4" ? ["-movflags", "+faststart"] : [])
        try TestVideos.firstHalf(of: full, to: half)
        return (full, half)
    }

    /// Reads every frame of `reader`; returns the frames read and the error that ended the reading.
    static func readAll(_ reader: VideoReader) -> (frames: [VideoFrame], error: (any Error)?) {
        var frames: [VideoFrame] = []
        do {
            while let frame = try reader.nextFrame() { frames.append(frame) }
        } catch {
            return (frames, error)
        }
        return (frames, nil)
    }

    /// The error's message if it is `invalidVideo`, else a recorded issue.
    static func invalidVideoMessage(_ error: (any Error)?) -> String? {
        guard case .invalidVideo(let message)? = error as? VisionTasksError else {
            Issue.record("expected VisionTasksError.invalidVideo, got \(String(describing: error))")
            return nil
        }
        return message
    }

    @Test(arguments: ["mp4", "mkv"])
    func truncatedFileIsAnErrorNamingTheFrameWhereDecodingStopped(container: String) throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (full, half) = try Self.halfVideo(in: dir, container: container)

        // The whole file decodes to its end without an error.
        let complete = Self.readAll(try VideoReader(contentsOfFile: full.path))
        #expect(complete.error == nil, "\(String(describing: complete.error))")
        #expect(complete.frames.count == 180)

        // The half still probes as 180 frames / 6 s, decodes part of the way, then fails.
        let cut = Self.readAll(try VideoReader(contentsOfFile: half.path))
        #expect(cut.frames.count > 10 && cut.frames.count < 180, "\(cut.frames.count) frames")
        #expect(cut.frames.map(\.index) == Array(0..<cut.frames.count))
        let message = try #require(Self.invalidVideoMessage(cut.error))
        let announced = container == "mp4" ? 180 : 179 // Matroska: 6 s × 30 fps, less one for rounding.
        #expect(
            message.contains("decoding \(half.path) stopped at frame \(cut.frames.count) of the \(announced)"),
            "\(message)")
        #expect(message.contains("truncated"), "\(message)")
    }

    @Test func truncatedFileAsALiveSourceIsAnErrorToo() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, half) = try Self.halfVideo(in: dir)
        let reader = try VideoReader(liveSource: half.path, realTime: false)
        #expect(reader.info?.frameCount == 180, "a regular file is probed")
        let cut = Self.readAll(reader)
        let message = try #require(Self.invalidVideoMessage(cut.error))
        #expect(message.contains("stopped at frame \(cut.frames.count) of the 180"), "\(message)")
    }

    /// Raw H.264 announces no length: cut in half it decoded to its end with exit 0 and no word. The reader now says
    /// that ffmpeg reported errors (the run goes on: the same can be harmless), and says nothing for the whole file.
    @Test func aStreamOfNoAnnouncedLengthThatHadErrorsSaysItMayBeDamaged() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (full, _) = try Self.halfVideo(in: dir)
        let raw = dir.appendingPathComponent("full.h264"), cut = dir.appendingPathComponent("half.h264")
        try TestVideos.ffmpeg(["-i", full.path, "-c", "copy", "-f", "h264", raw.path])
        try TestVideos.firstHalf(of: raw, to: cut)
        for (url, damaged) in [(raw, false), (cut, true)] {
            let reader = try VideoReader(contentsOfFile: url.path)
            while try reader.nextFrame() != nil {}
            #expect(
                (reader.streamWarning != nil) == damaged, "\(url.lastPathComponent): \(reader.streamWarning ?? "nil")")
        }
    }

    @Test func shortfallWithoutAnErrorIsNotAnEarlyEnd() {
        // An edit list can make ffmpeg decode fewer frames than the file holds, with no error logged.
        let info = VideoInfo(width: 8, height: 8, rotation: 0, frameRate: "30/1", durationSeconds: 6, frameCount: 180)
        let check = EarlyEndCheck()
        #expect(!check.take("[h264 @ 0x55] [info] concealing 12 DC, 12 AC, 12 MV errors in B frame"))
        #expect(check.earlyEnd(source: "a.mp4", decoded: 170, info: info) == nil)
        #expect(!check.take("[matroska,webm @ 0x55] [error] File ended prematurely"))
        #expect(check.earlyEnd(source: "a.mp4", decoded: 180, info: info) == nil, "all frames decoded")
        #expect(
            check.earlyEnd(source: "a.mp4", decoded: 170, info: info)
                == "decoding a.mp4 stopped at frame 170 of the 180 the file announces: it is truncated or damaged (ffmpeg: File ended prematurely)"
        )
        // Nothing announced (a live stream, an MPEG-TS without duration): nothing to compare with.
        #expect(check.earlyEnd(source: "udp://x", decoded: 3, info: nil) == nil)
    }
}
