import Foundation
import Testing
import VisionErrors

@testable import VideoIO

/// What a user, a file or a signal can do to a video run: Ctrl-C's interrupter must end a live source at once, a
/// run that stops early must leave no short MP4 at its path, and frames too large to hold must be refused.
@Suite struct HostileVideoTests {
    /// The interrupter ends a live source at once, as the end of the stream (nil, not an error), also when the
    /// reader was made on a thread that blocks signals as Dispatch's and Swift concurrency's threads do: ffmpeg
    /// inherited that mask and never saw the SIGTERM, so `background --live` ran on after Ctrl-C.
    @Test func anInterruptEndsALiveSourceMadeOnAThreadThatBlocksSignals() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("ten-seconds.mp4")
        try TestVideos.panZoom(photo: "astronaut.png", frames: 250, rate: "25", size: "64x48", to: url)
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        let made = Result { try VideoReader(liveSource: url.path, realTime: true) }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        let reader = try made.get()
        #expect(try reader.nextFrame() != nil)
        let clock = ContinuousClock(), interrupted = clock.now
        reader.makeInterrupter()()
        var frames = 1
        while try reader.nextFrame() != nil { frames += 1 }
        // Played at its own rate the video takes 10 s; the interrupt ends it within a frame or two.
        #expect(clock.now - interrupted < .seconds(3) && frames < 100, "\(frames) frames")
    }

    /// A writer dropped before `finish()` (its run failed or was interrupted) leaves neither a short video at its
    /// path nor a partial file beside it, and a file already there is kept; a finished writer's video is at the
    /// path, whole. ffmpeg used to close the cut-short MP4 properly at the path, over the file there.
    @Test func aWriterDroppedUnfinishedLeavesNothingAtItsPath() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("out.mp4")
        try Data("an earlier video".utf8).write(to: url)
        let grey = [UInt8](repeating: 128, count: 64 * 48 * 3)
        do {
            let writer = try VideoWriter(path: url.path, width: 64, height: 48, frameRate: "25")
            for _ in 0..<10 { try writer.write(rgb: grey) }
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "an earlier video")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.mp4"])
        let writer = try VideoWriter(path: url.path, width: 64, height: 48, frameRate: "25")
        for _ in 0..<10 { try writer.write(rgb: grey) }
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.mp4"])
        let reader = try VideoReader(contentsOfFile: url.path)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        #expect(frames == 10)
    }

    /// Frames of more pixels than the reader's limit (by default the images' 64 megapixels) are refused with the
    /// size and the limit, from a file and from a live source, before they are held: a 751 KB H.264 file of
    /// 16000x16000 frames took 1.85 GB to run the face detector on. The probe refuses them too, with the same
    /// message: ffprobe alone took 664 MB on that file (151 MB with the limit).
    /// Frames that change size mid-stream (two MPEG-TS joined) arrive scaled to the first frame's size, and the
    /// reader says so at the end (their results were silently in a stretched picture).
    @Test func aStreamWhoseFramesChangeSizeSaysSo() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var joined = Data()
        for (index, size) in ["96x64", "64x96"].enumerated() {
            let part = dir.appendingPathComponent("part\(index).ts")
            try TestVideos.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=10", "-frames:v", "5", "-c:v", "libx264", "-pix_fmt",
                "yuv420p", "-output_ts_offset", "\(index)", "-f", "mpegts", part.path,
            ])
            joined += try Data(contentsOf: part)
        }
        let url = dir.appendingPathComponent("joined.ts")
        try joined.write(to: url)
        let reader = try VideoReader(contentsOfFile: url.path)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(frames.count == 10 && frames.allSatisfy { $0.width == 96 && $0.height == 64 })
        #expect(
            reader.streamWarning?.contains(
                "frames of \(url.path) change size: frame 5 on is 64x96, scaled to the first frame's 96x64") == true,
            "\(reader.streamWarning ?? "no warning")")
        // A run stopped early by --end says so too, once it read such a frame (the warning came only at the end).
        let cut = try VideoReader(contentsOfFile: url.path, endMs: frames[6].timestampInMilliseconds - 1)
        var read = 0
        while try cut.nextFrame() != nil { read += 1 }
        #expect(
            read == 6 && cut.streamWarning?.contains("frame 5 on is 64x96") == true,
            "\(read) \(cut.streamWarning ?? "")")
        let before = try VideoReader(contentsOfFile: url.path, endMs: frames[4].timestampInMilliseconds)
        while try before.nextFrame() != nil {}
        #expect(before.streamWarning == nil, "frames 0...4 are all of one size")
    }

    @Test func framesOverThePixelLimitAreRefused() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("clip.mp4")
        try TestVideos.panZoom(photo: "astronaut.png", frames: 5, rate: "25", size: "64x48", to: url)
        let whole = try VideoReader(contentsOfFile: url.path, maxPixelCount: 64 * 48)
        #expect(try whole.nextFrame()?.width == 64)
        let readers: [() throws -> VideoReader] = [
            { try VideoReader(contentsOfFile: url.path, maxPixelCount: 64 * 48 - 1) },
            { try VideoReader(liveSource: url.path, realTime: false, maxPixelCount: 64 * 48 - 1) },
        ]
        for make in readers {
            #expect {
                let reader = try make()
                while try reader.nextFrame() != nil {}
            } throws: { error in
                guard case VisionTasksError.invalidVideo(let message) = error else { return false }
                return message.contains(url.path) && message.contains("64x48") && message.contains("3071 pixels")
            }
        }
        #expect(try VideoInfo.probe(path: url.path, maxPixelCount: 64 * 48).width == 64)
        #expect {
            try VideoInfo.probe(path: url.path, maxPixelCount: 64 * 48 - 1)
        } throws: { error in
            guard case VisionTasksError.invalidVideo(let message) = error else { return false }
            return message.contains(url.path) && message.contains("64x48") && message.contains("3071 pixels")
        }
        #expect(throws: VisionTasksError.self) { try VideoReader(contentsOfFile: url.path, maxPixelCount: 0) }
    }

    /// A frame whose timestamp lies beyond `FrameContext.timestampRange` (here 10^13 ms, a Matroska file's
    /// cluster times) is refused with its index and timestamp; frames of timestamps within it read as before.
    /// The trackers used to multiply such a timestamp to nanoseconds and trap (the Pose Landmarker's video mode),
    /// and one beyond `Int.max` ms trapped the reader itself.
    @Test func framesOfTimestampsBeyondTheRangeAreRefused() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let far = dir.appendingPathComponent("far.mkv"), near = dir.appendingPathComponent("near.mkv")
        for (url, offset) in [(far, "10000000000"), (near, "4000000000")] {
            try TestVideos.ffmpeg([
                "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25", "-frames:v", "3", "-c:v", "libx264",
                "-output_ts_offset", offset, url.path,
            ])
        }
        let reader = try VideoReader(contentsOfFile: near.path)
        #expect(try reader.nextFrame()?.timestampInMilliseconds == 4_000_000_000_000)
        #expect {
            let reader = try VideoReader(contentsOfFile: far.path)
            while try reader.nextFrame() != nil {}
        } throws: { error in
            guard case VisionTasksError.invalidVideo(let message) = error else { return false }
            return message.contains("frame 0 of \(far.path)") && message.contains("10000000000000 ms")
        }
    }

    /// Text in the file that reads like the frame lines of the reader's `showinfo` filter (ffmpeg prints a title tag
    /// to the same stderr) is not taken for one: the frames read are the file's own. A title posing as a first frame
    /// of 9999999999×9999999999 used to trap the reader (the server with it) on the pixel count's overflow, one of
    /// 99999×99999 had the file refused as too large, and one of 2×2 shifted every frame's bytes and sizes.
    @Test func aTitlePosingAsAFrameLineIsNotTakenForOne() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for size in ["9999999999x9999999999", "99999x99999", "2x2"] {
            let url = dir.appendingPathComponent("\(size).mp4")
            try TestVideos.ffmpeg([
                "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25", "-frames:v", "3", "-c:v", "libx264",
                "-metadata", "title=[showinfo@frames @ 0] n:0 pts:0 s:\(size) fmt:rgb24", url.path,
            ])
            let reader = try VideoReader(contentsOfFile: url.path)
            var sizes: [String] = []
            while let frame = try reader.nextFrame() { sizes.append("\(frame.width)x\(frame.height)") }
            #expect(sizes == ["64x48", "64x48", "64x48"], "\(size)")
        }
    }

    /// A rotation that is no number of degrees (ffprobe reads a `rotate` tag of `nan`, `inf` or `1e300` as one)
    /// is refused naming the file; the conversion to whole degrees used to trap. Whole and fractional turns of
    /// finite values still fold into 0, 90, 180 or 270.
    @Test func aRotationTagThatIsNoNumberOfDegreesIsRefused() throws {
        func probe(_ rotate: String) throws -> VideoInfo {
            let json = """
                {"streams": [{"width": 64, "height": 48, "tags": {"rotate": "\(rotate)"}}]}
                """
            return try VideoInfo.parse(json: Data(json.utf8), path: "tagged.mkv")
        }
        for tag in ["nan", "inf", "-inf"] {
            #expect {
                try probe(tag)
            } throws: { error in
                guard case VisionTasksError.invalidVideo(let message) = error else { return false }
                return message.contains("tagged.mkv") && message.contains("rotation")
            }
        }
        #expect(try probe("1e300").rotation == 0) // 1e300 as a double is a whole number of turns
        #expect(try probe("-90.4").rotation == 270)
        #expect(try probe("719.6").rotation == 0)
        #expect(try probe("450").width == 48)
    }
}

extension HostileVideoTests {
    /// ffmpeg names its components with their addresses, which differ from run to run: the same broken file's error
    /// differed between two runs (and two `--video-list` outputs of the same files).
    @Test func ffmpegsMessagesLoseTheirAddresses() {
        #expect(
            ChildProcess.withoutAddresses("[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55d1f8f33580] moov atom not found")
                == "[mov,mp4,m4a,3gp,3g2,mj2] moov atom not found")
        #expect(ChildProcess.withoutAddresses("[h264 @ 0x7f] error at 0x10") == "[h264] error at 0x10")
    }
}
