import Foundation
import Testing

/// The shared media options of the task subcommands, end to end through the built tool.
@Suite(.serialized) struct MediaCLITests {
    static let faceModel = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path

    @Test func folderWithACorruptFileReportsItAndProcessesTheRest() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["astronaut.png", "woman_sitting.jpg", "hand_thumb_up.jpg"] {
            try FileManager.default.copyItem(at: CLIRun.fixtures.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        try Data("this is not a JPEG".utf8).write(to: photos.appendingPathComponent("broken.jpg"))
        try Data("notes".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        let annotated = dir.appendingPathComponent("annotated")

        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, photos.path, "--jobs", "2",
                                  "--annotate", annotated.path, "--no-progress"])
        #expect(run.status != 0, "a failed input makes the exit status non-zero")
        let lines = run.lines
        // Every image, sorted by name, the text file ignored; the corrupt one reported with its path.
        #expect(lines.map { ($0["input"] as? String).map { ($0 as NSString).lastPathComponent } ?? "" }
                == ["astronaut.png", "broken.jpg", "hand_thumb_up.jpg", "woman_sitting.jpg"])
        #expect((lines[1]["error"] as? String)?.contains("broken.jpg") == true)
        #expect(lines[0]["result"] != nil && lines[2]["result"] != nil && lines[3]["result"] != nil)
        #expect(run.stderr.contains("summary: 4 files, 2 faces found, 1 failed"), "\(run.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: annotated.path).sorted()
        #expect(written == ["astronaut.png", "hand_thumb_up.jpg", "woman_sitting.jpg"])
    }

    @Test func videoModePrintsOneLinePerSelectedFrameAndWritesAnMP4() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4")
        try CLIRun.ffmpeg(["-framerate", "10", "-loop", "1", "-i", CLIRun.fixtures.appendingPathComponent("astronaut.png").path,
                           "-vf", "zoompan=z='1+0.01*on':d=1:s=256x256:fps=10", "-frames:v", "20",
                           "-c:v", "libx264", "-pix_fmt", "yuv420p", video.path])
        let annotated = dir.appendingPathComponent("out.mp4")
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", video.path, "--every", "3",
                                  "--start", "0.2", "--end", "1500ms", "--annotate", annotated.path, "--no-progress"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.lines
        // Frames 2...15 (200...1500 ms), every third: 2, 5, 8, 11, 14.
        #expect(lines.compactMap { $0["frame"] as? Int } == [2, 5, 8, 11, 14])
        let stamps = lines.compactMap { ($0["result"] as? [String: Any])?["timestampInMilliseconds"] as? Int }
        #expect(stamps == [200, 500, 800, 1100, 1400])
        #expect(lines.allSatisfy { ($0["input"] as? String) == video.path })
        let size = (try FileManager.default.attributesOfItem(atPath: annotated.path)[.size] as? Int) ?? 0
        #expect(size > 1000, "annotated mp4 of \(size) bytes")
    }

    @Test func liveSourceFasterThanProcessingDropsFramesInOrderWithBoundedMemory() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 4 seconds at 120 fps of a 960x640 photo: 480 frames, 885 MB of RGB if all were kept.
        let video = dir.appendingPathComponent("fast.mp4")
        try CLIRun.ffmpeg(["-framerate", "120", "-loop", "1", "-i", CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg").path,
                           "-frames:v", "480", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", video.path])
        var before = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &before)
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--live", video.path])
        var after = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &after)
        #expect(run.status == 0, "\(run.stderr)")
        let frames = run.lines.compactMap { $0["frame"] as? Int }
        #expect(!frames.isEmpty)
        #expect(frames == frames.sorted() && Set(frames).count == frames.count, "results in frame order")
        // The summary counts what was read, processed and dropped; frames were dropped.
        let summary = try #require(run.stderr.split(separator: "\n").last { $0.hasPrefix("summary:") })
        #expect(summary.contains("480 frames read"), "\(summary)")
        #expect(summary.contains("\(frames.count) processed"), "\(summary)")
        #expect(summary.contains("\(480 - frames.count) dropped") && frames.count < 480, "\(summary)")
        #expect(summary.contains("0 out of order"))
        // Peak memory of the tool (kB) stays far below the 885 MB all frames would take.
        #expect(after.ru_maxrss < 400_000, "peak RSS \(after.ru_maxrss) kB")
    }

    @Test func liveSourceStopsCleanlyOnSIGINT() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("long.mp4")
        try CLIRun.ffmpeg(["-framerate", "25", "-loop", "1", "-i", CLIRun.fixtures.appendingPathComponent("astronaut.png").path,
                           "-frames:v", "500", "-s", "256x256", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", video.path])
        let started = Date()
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--live", video.path], interruptAfter: 2)
        // 500 frames at 25 fps would take 20 s: the run ended at the interrupt, with a summary.
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("summary:"), "\(run.stderr)")
        let frames = run.lines.compactMap { $0["frame"] as? Int }
        #expect(frames == frames.sorted())
    }

    @Test func optionsThatDoNotFitAreRejected() throws {
        let both = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", "a.mp4", "--live", "b.mp4"])
        #expect(both.status != 0 && both.stderr.contains("exactly one"))
        let badTime = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", "a.mp4", "--start", "soon"])
        #expect(badTime.status != 0 && badTime.stderr.contains("--start soon"))
        let missing = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", "/nonexistent/v.mp4"])
        #expect(missing.status != 0 && missing.stdout.contains("File not found: /nonexistent/v.mp4"))
    }
}
