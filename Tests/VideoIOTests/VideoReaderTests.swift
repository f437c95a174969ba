import Foundation
import Testing
import VisionCore
import VisionErrors

@testable import VideoIO

@Suite struct VideoReaderTests {
    @Test func decodesEveryFrameWithItsTimestamp() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("pan.mp4")
        try TestVideos.panZoom(photo: "astronaut.png", frames: 50, rate: "25", size: "320x240", to: url)

        let reader = try VideoReader(contentsOfFile: url.path)
        #expect(
            reader.info
                == VideoInfo(
                    width: 320, height: 240, rotation: 0, frameRate: "25/1",
                    durationSeconds: 2, frameCount: 50, baseFrameRate: "25/1", startSeconds: 0,
                    fileStartSeconds: 0))
        #expect(reader.info?.writingFrameRate == "25/1")
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(frames.count == 50)
        // 25 fps: a frame every 40 ms from 0, exactly.
        #expect(frames.map(\.timestampInMilliseconds) == (0..<50).map { $0 * 40 })
        #expect(frames.map(\.index) == Array(0..<50))
        #expect(frames.allSatisfy { $0.width == 320 && $0.height == 240 && $0.pixels.count == 320 * 240 * 3 })
        // The picture moves: consecutive frames differ, and they are not blank.
        #expect(frames[0].pixels != frames[49].pixels)
        #expect(Set(frames[10].pixels).count > 50)
    }

    /// A cap on ffmpeg's decoding threads changes no pixel; a cap below one is refused, naming it.
    @Test func decoderThreadsChangeNoPixel() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("pan.mp4")
        try TestVideos.panZoom(photo: "astronaut.png", frames: 12, rate: "25", size: "320x240", to: url)
        func frames(_ threads: Int?) throws -> [[UInt8]] {
            let reader = try VideoReader(contentsOfFile: url.path, decoderThreads: threads)
            var all: [[UInt8]] = []
            while let frame = try reader.nextFrame() { all.append(frame.pixels) }
            return all
        }
        let own = try frames(nil)
        #expect(own.count == 12)
        #expect(try frames(1) == own)
        #expect(throws: VisionTasksError.invalidOption(name: "decoderThreads", reason: "must be at least 1, got 0")) {
            _ = try VideoReader(contentsOfFile: url.path, decoderThreads: 0)
        }
    }

    @Test func ntscRateGivesRealPresentationTimestamps() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("ntsc.mp4")
        try TestVideos.panZoom(photo: "hand_thumb_up.jpg", frames: 12, rate: "30000/1001", size: "160x120", to: url)
        let reader = try VideoReader(contentsOfFile: url.path)
        #expect(abs(reader.info!.framesPerSecond - 29.97) < 0.01)
        var stamps: [Int] = []
        while let frame = try reader.nextFrame() { stamps.append(frame.timestampInMilliseconds) }
        // Frame i is at i × 1001/30 ms, rounded to the nearest ms.
        #expect(stamps == (0..<12).map { Int((Double($0) * 1001 / 30).rounded()) })
    }

    @Test func startAndEndSelectFramesByTimestamp() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("pan.mp4")
        try TestVideos.panZoom(photo: "astronaut.png", frames: 25, rate: "25", size: "64x48", to: url)
        let reader = try VideoReader(contentsOfFile: url.path, startMs: 200, endMs: 400)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(frames.map(\.timestampInMilliseconds) == [200, 240, 280, 320, 360, 400])
        #expect(frames.map(\.index) == [5, 6, 7, 8, 9, 10])
    }

    @Test func rotationMetadataIsHonoured() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.mp4")
        let rotated = dir.appendingPathComponent("rotated.mp4")
        try TestVideos.panZoom(photo: "two_thumbs_up.jpg", frames: 5, rate: "10", size: "96x64", to: plain)
        try TestVideos.ffmpeg(["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated.path])

        let info = try VideoInfo.probe(path: rotated.path)
        #expect(info.rotation == 90 && info.width == 64 && info.height == 96)
        let reader = try VideoReader(contentsOfFile: rotated.path)
        let upright = try #require(try reader.nextFrame())
        #expect(upright.width == 64 && upright.height == 96)
        let unrotated = try #require(try VideoReader(contentsOfFile: plain.path).nextFrame())
        // A quarter turn: the upright frame's top row is the stored frame's first or last column.
        // Compare the mean brightness of the two to allow for compression noise (tolerance 8 of 255).
        func mean(_ values: [UInt8]) -> Double { Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count) }
        func pixelsAt(_ frame: VideoFrame, _ offsets: [Int]) -> [UInt8] {
            let pixels = frame.pixels
            return offsets.flatMap { o in [pixels[o], pixels[o + 1], pixels[o + 2]] }
        }
        let top = pixelsAt(upright, (0..<64).map { x in x * 3 })
        let lastColumn = pixelsAt(unrotated, (0..<64).map { y in (y * 96 + 95) * 3 })
        let firstColumn = pixelsAt(unrotated, (0..<64).map { y in y * 96 * 3 })
        #expect(min(abs(mean(top) - mean(lastColumn)), abs(mean(top) - mean(firstColumn))) < 8)
    }

    /// A live source on a named pipe nothing writes to: ffmpeg waits in open() and ignores SIGTERM, so close()
    /// waited for good, and so did `nextFrame()` after the interrupter (Ctrl-C on `--live fifo`). ffmpeg is killed
    /// after `stopGrace`; `nextFrame()` then returns nil, the end that was asked for.
    @Test func aLiveReaderOfAPipeNothingWritesEndsWhenClosedOrInterrupted() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipe = dir.appendingPathComponent("camera").path
        try #require(mkfifo(pipe, 0o600) == 0)
        let closed = try VideoReader(liveSource: pipe, realTime: false)
        Thread.sleep(forTimeInterval: 1) // ffmpeg in open(), past the start where SIGTERM would still end it
        var started = Date()
        closed.close()
        #expect(Date().timeIntervalSince(started) < 15, "close() took \(Date().timeIntervalSince(started)) s")
        let interrupted = try VideoReader(liveSource: pipe, realTime: false)
        let interrupt = interrupted.makeInterrupter()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { interrupt() }
        started = Date()
        #expect(try interrupted.nextFrame() == nil)
        #expect(Date().timeIntervalSince(started) < 15, "nextFrame() took \(Date().timeIntervalSince(started)) s")
    }

    /// A frame at the millisecond of the one before is a video over 1000 frames/s (the advice follows), or, at a known
    /// rate under 1000, a frame of no length; one before it, a stream whose timestamps go back, said the same, with
    /// advice that could not help. The message names the frame the task took last, which after a joined stream's step
    /// back is not the frame before (it said "the frame before it" of frame 59 for frames 60 to 119).
    @Test func aRepeatedOrBackwardTimestampIsNamedForWhatItIs() throws {
        let picture = try [UInt8](repeating: 0, count: 12).withUnsafeBytes {
            try MPImage(pixels: $0, width: 2, height: 2, bytesPerRow: 6, format: .rgb8)
        }
        let frame = VideoFrame(index: 7, timestampInMilliseconds: 40, picture: picture)
        #expect(frame.repeatedTimestamp(after: nil, in: "a.ts") == nil)
        #expect(frame.repeatedTimestamp(after: (6, 39), in: "a.ts") == nil)
        func message(_ previous: (Int, Int), fps: Double? = nil) -> String {
            "\(frame.repeatedTimestamp(after: previous, in: "a.ts", framesPerSecond: fps, advice: "; try X").map { "\($0)" } ?? "")"
        }
        let same = message((6, 40))
        #expect(same.contains("not after frame 6 (40 ms)") && same.contains("faster than 1000 frames/s"), "\(same)")
        #expect(same.hasSuffix("; try X"), "\(same)")
        // A Matroska file of 1500 frames/s declares its 1 ms clock, 1000/1, as its rate: not a frame of no length.
        #expect(message((6, 40), fps: 1000).contains("faster than 1000 frames/s"))
        let still = message((6, 40), fps: 30)
        #expect(
            still.contains("repeats the timestamp of frame 6 (40 ms): the file holds a frame of no length"), "\(still)")
        #expect(!still.contains("try X"))
        let back = message((2, 900))
        #expect(
            back.contains("frame 7 of a.ts is at 40 ms, before frame 2 (900 ms), the last the task took"), "\(back)")
        #expect(!back.contains("try X") && !back.contains("1000 frames/s"), "\(back)")
    }

    @Test func missingFileAndNonVideoAreClearErrors() throws {
        #expect(throws: VisionTasksError.fileNotFound(path: "/nonexistent/clip.mp4")) {
            _ = try VideoReader(contentsOfFile: "/nonexistent/clip.mp4")
        }
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A named pipe is refused at once: ffprobe waited on it for a writer, for good.
        let pipe = dir.appendingPathComponent("pipe.mp4").path
        try #require(mkfifo(pipe, 0o600) == 0)
        #expect {
            _ = try VideoReader(contentsOfFile: pipe)
        } throws: {
            "\($0)".contains("pipe.mp4 is not a regular file (a pipe, a device or a socket)")
        }
        // An empty file says so, as a file and as a live source (ffmpeg's words were "moov atom not found").
        let empty = dir.appendingPathComponent("empty.mp4").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: VisionTasksError.invalidVideo("\(empty) is empty (0 bytes)")) {
            _ = try VideoReader(contentsOfFile: empty)
        }
        #expect(throws: VisionTasksError.invalidVideo("\(empty) is empty (0 bytes)")) {
            _ = try VideoReader(liveSource: empty, realTime: false)
        }
        // Sound alone says so as a live source too (ffmpeg's words named a stream map that matches nothing).
        let sound = dir.appendingPathComponent("sound.m4a").path
        try TestVideos.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", sound])
        #expect(throws: VisionTasksError.invalidVideo("\(sound) has no video stream")) {
            _ = try VideoReader(liveSource: sound, realTime: false)
        }
        let text = dir.appendingPathComponent("notes.mp4")
        try Data("not a video at all\n".utf8).write(to: text)
        do {
            _ = try VideoReader(contentsOfFile: text.path)
            Issue.record("a text file was accepted as a video")
        } catch let error as VisionTasksError {
            guard case .invalidVideo(let message) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(message.contains(text.path))
        }
    }

    @Test func writerMakesAnH264VideoTheReaderReadsBack() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("out.mp4")
        let writer = try VideoWriter(path: url.path, width: 65, height: 48, frameRate: "15")
        for i in 0..<15 {
            // A grey level that rises frame by frame.
            try writer.write(rgb: [UInt8](repeating: UInt8(i * 16), count: 65 * 48 * 3))
        }
        try writer.finish()
        let reader = try VideoReader(contentsOfFile: url.path)
        // Odd widths are padded to even for H.264.
        #expect(reader.info?.width == 66 && reader.info?.height == 48 && reader.info?.frameRate == "15/1")
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(frames.count == 15)
        #expect(frames.map(\.timestampInMilliseconds) == (0..<15).map { Int((Double($0) * 1000 / 15).rounded()) })
        // Lossy, so within 6 grey levels of what was written (centre pixel).
        for (i, frame) in frames.enumerated() {
            let centre = Int(frame.pixels[(24 * 66 + 32) * 3])
            #expect(abs(centre - i * 16) <= 6, "frame \(i): \(centre)")
        }
        #expect(throws: VisionTasksError.self) { try VideoWriter(path: url.path, width: 4, height: 4, frameRate: "0") }
    }
}
