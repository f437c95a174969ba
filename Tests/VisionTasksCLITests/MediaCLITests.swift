import Foundation
import Testing

/// The shared media options of the task subcommands, end to end through the built tool.
@Suite(.serialized) struct MediaCLITests {
    static let faceModel = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
    static let poseModel = CLIRun.models.appendingPathComponent("pose_landmarker_full.task").path

    @Test func folderWithACorruptFileReportsItAndProcessesTheRest() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["astronaut.png", "woman_sitting.jpg", "hand_thumb_up.jpg"] {
            try FileManager.default.copyItem(
                at: CLIRun.fixtures.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        try Data("this is not a JPEG".utf8).write(to: photos.appendingPathComponent("broken.jpg"))
        try Data("notes".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        let annotated = dir.appendingPathComponent("annotated")

        let run = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, photos.path, "--jobs", "2",
            "--annotate", annotated.path, "--no-progress",
        ])
        #expect(run.status != 0, "a failed input makes the exit status non-zero")
        let lines = run.lines
        // Every image, sorted by name, the text file ignored; the corrupt one reported with its path.
        #expect(
            lines.map { ($0["input"] as? String).map { ($0 as NSString).lastPathComponent } ?? "" }
                == ["astronaut.png", "broken.jpg", "hand_thumb_up.jpg", "woman_sitting.jpg"])
        #expect((lines[1]["error"] as? String)?.contains("broken.jpg") == true)
        #expect(lines[0]["result"] != nil && lines[2]["result"] != nil && lines[3]["result"] != nil)
        #expect(run.stderr.contains("summary: 4 processed, 0 skipped, 1 failed, 2 faces found"), "\(run.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: annotated.path).sorted()
        #expect(written == ["astronaut.png", "hand_thumb_up.jpg", "woman_sitting.jpg"])
    }

    /// Each folder once over all the inputs: a folder given is walked as its own input, not also inside another
    /// (through a link or by descent), and a folder given twice once (each gave its images twice).
    @Test func eachFolderIsWalkedOnceOverAllTheInputs() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (folder, name) in [("tree/a", "x.png"), ("tree/b", "y.png")] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: CLIRun.fixtures.appendingPathComponent("astronaut.png"),
                to: dir.appendingPathComponent("\(folder)/\(name)"))
        }
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("tree/a/loop").path, withDestinationPath: "..")
        for inputs in [["tree/a", "tree/b", "tree/b"], ["tree", "tree/a"]] {
            let run = try CLIRun.run(["face-detector", "--model", Self.faceModel] + inputs, in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let names = run.lines.compactMap { ($0["input"] as? String).map { ($0 as NSString).lastPathComponent } }
            #expect(names.sorted() == ["x.png", "y.png"], "\(inputs): \(run.lines.compactMap { $0["input"] })")
        }
    }

    /// A folder walk follows links but walks each folder once: two links back to the folder itself made the walk
    /// branch at every level (2^40 paths, its memory growing), one made it read each image 41 times. A file whose
    /// name is not UTF-8 gets an error line saying so, as does an image name whose link leads nowhere (missing, or a
    /// loop): they were skipped unseen.
    @Test func aFolderWalkTakesEachFolderOnceAndReportsNamesItCannotRead() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLIRun.fixtures.appendingPathComponent("astronaut.png"), to: photos.appendingPathComponent("x.png"))
        for link in ["a", "b"] {
            try FileManager.default.createSymbolicLink(
                atPath: photos.appendingPathComponent(link).path, withDestinationPath: ".")
        }
        // "bad", the byte 0xFF (never UTF-8), ".png".
        let badName = (Array(photos.path.utf8) + Array("/bad".utf8) + [0xFF] + Array(".png".utf8) + [0]).map {
            CChar(bitPattern: $0)
        }
        let fd = badName.withUnsafeBufferPointer { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        try #require(fd >= 0)
        close(fd)
        for (link, target) in [("dangling.jpg", "gone.jpg"), ("loop1.png", "loop2.png"), ("loop2.png", "loop1.png")] {
            try FileManager.default.createSymbolicLink(
                atPath: photos.appendingPathComponent(link).path, withDestinationPath: target)
        }
        let run = try CLIRun.run(["face-detector", "--model", Self.faceModel, photos.path, "--no-progress"])
        let inputs = run.lines.map { ($0["input"] as? String).map { ($0 as NSString).lastPathComponent } ?? "" }
        #expect(inputs == ["bad\\xFF.png", "dangling.jpg", "loop1.png", "loop2.png", "x.png"], "\(run.stderr)")
        let errors = run.lines.map { $0["error"] as? String ?? "" }
        #expect(errors[0].contains("has a name that is not UTF-8"), "\(run.lines)")
        #expect(errors[1].contains("is a link that leads nowhere (No such file or directory)"), "\(errors[1])")
        #expect(errors[2].contains("is a link that leads nowhere (Too many levels of symbolic links)"), "\(errors[2])")
        #expect(run.status != 0)
    }

    /// An output that is one of the inputs is refused before any work: `--annotate` naming the input folder replaced
    /// each photo with its annotation, `--output` naming a photo appended the results to it, and a video's
    /// `--annotate` (or background's `--output`) naming the video replaced it.
    @Test func outputsThatAreInputsAreRefusedBeforeAnyWork() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let photo = photos.appendingPathComponent("a.png"), clip = dir.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: CLIRun.fixtures.appendingPathComponent("astronaut.png"), to: photo)
        // Named as a.png's first mask would be.
        let maskNamed = photos.appendingPathComponent("a-0.png")
        try FileManager.default.copyItem(at: CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg"), to: maskNamed)
        try CLIRun.stillVideo(of: "astronaut.png", frames: 2, fps: 10, size: "64x64", to: clip)
        let before = try [photo, clip, maskNamed].map { try Data(contentsOf: $0) }
        let selfie = CLIRun.models.appendingPathComponent("selfie_segmenter.tflite").path
        let runs: [([String], String)] = [
            (["face-detector", "--model", Self.faceModel, photos.path, "--annotate", photos.path], "--annotate"),
            (["face-detector", "--model", Self.faceModel, photos.path, "--output", photo.path], "--output"),
            (
                ["face-detector", "--model", Self.faceModel, "--video", clip.path, "--annotate", clip.path],
                "--annotate"
            ),
            (
                ["background", "--model", selfie, "--video", clip.path, "--blur", "4", "--output", clip.path],
                "--output"
            ),
        ]
        for (arguments, option) in runs {
            let run = try CLIRun.run(arguments + ["--no-progress"].filter { _ in arguments[0] != "background" })
            #expect(run.status != 0, "\(arguments)")
            #expect(
                run.stderr.contains("Invalid option \(option)")
                    && run.stderr.contains("would write over what it reads"),
                "\(arguments): \(run.stderr)")
        }
        // A mask that would land on an input is that input's error line (masks are named as results come).
        let masks = try CLIRun.run([
            "image-segmenter", "--model", selfie, photos.path, "--masks", photos.path, "--no-progress",
        ])
        let refusal = masks.lines.first { ($0["input"] as? String) == photo.path }?["error"] as? String
        #expect(refusal?.contains("Invalid option --masks: \(maskNamed.path) is the input") == true, "\(masks.lines)")
        #expect(try [photo, clip, maskNamed].map { try Data(contentsOf: $0) } == before, "an input was changed")
    }

    /// Outputs that could not work, or would lose what is written, are refused before any work: an MP4 into a named
    /// pipe (the check's open waited for a reader, then ffmpeg waited for good), `--output` and `--annotate` naming
    /// one file (the video was renamed over the JSON lines, exit 0), `--output` naming the `--video-list` (the
    /// results were appended to the list), JSON lines appended to a CSV table, `--masks` naming a file (one error
    /// line a frame), and standard input as a live source (ffmpeg read /dev/null and blamed the data).
    @Test func outputsThatCannotWorkOrCollideAreRefusedBeforeAnyWork() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.mp4"), fifo = dir.appendingPathComponent("fifo.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 2, fps: 10, size: "64x64", to: clip)
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let list = dir.appendingPathComponent("list.txt"), table = dir.appendingPathComponent("faces.csv")
        try Data((clip.path + "\n").utf8).write(to: list)
        try Data("a,b\n1,2\n".utf8).write(to: table)
        let same = dir.appendingPathComponent("same.mp4").path
        // An --output kept as it was by every refusal (it was made, or cut, before some of them).
        let kept = dir.appendingPathComponent("kept.jsonl"), keptText = "{\"input\":\"x\"}\n"
        try Data(keptText.utf8).write(to: kept)
        // A link to a file yet to be made is that file.
        let link = dir.appendingPathComponent("link.mp4"), results = dir.appendingPathComponent("results.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "results.jsonl")
        let selfie = CLIRun.models.appendingPathComponent("selfie_segmenter.tflite").path
        let pose = CLIRun.models.appendingPathComponent("pose_landmarker_full.task").path
        let face = ["face-detector", "--model", Self.faceModel, "--no-progress"]
        let runs: [([String], String)] = [
            (
                face + ["--video", clip.path, "--annotate", fifo.path],
                "Invalid option --annotate: \(fifo.path) is not a regular file"
            ),
            (
                ["background", "--model", selfie, "--video", clip.path, "--blur", "4", "--output", fifo.path],
                "Invalid option --output: \(fifo.path) is not a regular file"
            ),
            (face + ["--video", clip.path, "--output", same, "--annotate", same], "is the --output file too"),
            (
                face + ["--video", clip.path, "--output", results.path, "--annotate", link.path],
                "is the --output file too"
            ),
            (
                face + ["--video", clip.path, "--output", kept.path, "--annotate", fifo.path],
                "Invalid option --annotate: \(fifo.path) is not a regular file"
            ),
            (face + ["--video-list", list.path, "--output", list.path], "\(list.path) is the input \(list.path)"),
            (face + ["--video", clip.path, "--output", table.path], "does not hold JSON lines"),
            (
                [
                    "pose-landmarker", "--model", pose, "--video", clip.path, "--output-segmentation-masks", "--masks",
                    clip.path, "--output", kept.path, "--no-progress",
                ],
                "Invalid option --masks: \(clip.path) is a file, not a folder"
            ),
            (face + ["--live", "-"], "- is standard input, which ffmpeg is not given"),
        ]
        for (arguments, expected) in runs {
            let run = try CLIRun.run(arguments)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(expected), "\(arguments): \(run.stderr)")
            #expect(run.lines.isEmpty, "\(arguments): \(run.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: same) && !FileManager.default.fileExists(atPath: results.path))
        #expect(try String(contentsOf: kept, encoding: .utf8) == keptText)
        #expect(try String(contentsOf: list, encoding: .utf8) == clip.path + "\n")
        #expect(try String(contentsOf: table, encoding: .utf8) == "a,b\n1,2\n")
    }

    /// Paths are the kernel's: an annotation through a link to a file yet to be made is written where the link points,
    /// the link kept (the up-front check removed the link and left an empty file); `d/../o.mp4`, `d` a link, is
    /// beside the link's target, so an `--annotate` naming that file is refused (the MP4 replaced the results).
    @Test func outputPathsAreTheFilesTheKernelFinds() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let work = dir.appendingPathComponent("work"), other = dir.appendingPathComponent("other/sub")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let clip = work.appendingPathComponent("clip.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 2, fps: 10, size: "64x64", to: clip)
        try FileManager.default.createSymbolicLink(
            atPath: work.appendingPathComponent("link.mp4").path, withDestinationPath: "target.mp4")
        try FileManager.default.createSymbolicLink(
            atPath: work.appendingPathComponent("d").path, withDestinationPath: "../other/sub")
        let face = ["face-detector", "--model", Self.faceModel, "--video", "clip.mp4", "--no-progress"]
        let linked = try CLIRun.run(face + ["--annotate", "link.mp4"], in: work)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: work.appendingPathComponent("link.mp4").path)
                == "target.mp4")
        #expect(try CLIRun.frameCount(work.appendingPathComponent("target.mp4").path) == 2)
        let beside = try CLIRun.run(face + ["--output", "d/../o.mp4", "--annotate", "../other/o.mp4"], in: work)
        #expect(beside.status == 1 && beside.stderr.contains("is the --output file too"), "\(beside.stderr)")
    }

    /// A video's name is its file's, whatever ffmpeg protocol it looks like: `clip:1.mp4` failed ("Protocol not
    /// found"), and a small file named `concat:a.mp4|a.mp4` was read as a.mp4 twice, exit 0. Its frames are held to
    /// `--max-image-pixels`, as images are (a video ignored it).
    @Test func videoNamesAreFilesAndTheirFramesKeepThePixelLimit() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip:1.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 2, fps: 10, size: "64x64", to: clip)
        let named = try CLIRun.run(
            [
                "face-detector", "--model", Self.faceModel, "--video", "clip:1.mp4", "--no-progress",
            ], in: dir)
        #expect(named.status == 0 && named.lines.count == 2, "\(named.stderr)")
        // As a live source too, through a link of such a name (the link was not taken for a file).
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("lnk:1.mp4").path, withDestinationPath: "clip:1.mp4")
        let live = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--live", "lnk:1.mp4"], in: dir)
        #expect(live.status == 0 && !live.lines.isEmpty, "\(live.stderr)")
        let concat = dir.appendingPathComponent("concat:clip:1.mp4|clip:1.mp4")
        try Data("xxxx".utf8).write(to: concat)
        let posing = try CLIRun.run(
            [
                "face-detector", "--model", Self.faceModel, "--video", concat.lastPathComponent, "--no-progress",
            ], in: dir)
        #expect(posing.status == 1 && posing.lines.count == 1, "\(posing.stdout)")
        #expect((posing.lines.first?["error"] as? String)?.contains("is not a video ffprobe can read") == true)
        let limited = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", clip.path, "--max-image-pixels", "4000",
            "--no-progress",
        ])
        #expect(limited.status == 1, "\(limited.stderr)")
        #expect(
            (limited.lines.first?["error"] as? String)?.contains(
                "has frames of 64x64 (4096 pixels), more than the limit of 4000")
                == true, "\(limited.stdout)")
    }

    /// Several images run on one task instance per core by default (`--jobs auto`), the lines in input
    /// order and byte-equal to one instance's; `--jobs 2` shares the cores between its two instances
    /// unless `--threads` is given; a bad `--jobs` is a usage error.
    @Test func severalImagesUseEveryCoreByDefaultInInputOrder() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["astronaut.png", "woman_sitting.jpg", "hand_thumb_up.jpg", "two_thumbs_up.jpg"]
        for copy in 0..<2 {
            for name in names {
                try FileManager.default.copyItem(
                    at: CLIRun.fixtures.appendingPathComponent(name),
                    to: dir.appendingPathComponent("\(copy)-\(name)"))
            }
        }
        let byDefault = try CLIRun.run(["face-detector", "--model", Self.faceModel, dir.path, "--no-progress"])
        let oneJob = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, dir.path, "--jobs", "1", "--no-progress",
        ])
        #expect(byDefault.status == 0 && oneJob.status == 0, "\(byDefault.stderr)\(oneJob.stderr)")
        #expect(byDefault.lines.count == 8 && byDefault.stdout == oneJob.stdout)
        // --threads defaults to the cores, at most 4 (BaseOptions.defaultNumThreads).
        let cores = ProcessInfo.processInfo.activeProcessorCount, jobs = min(8, cores, 16), threads = min(cores, 4)
        #expect(
            byDefault.stderr.contains("images/s on \(jobs) job(s) of \(min(threads, max(1, cores / jobs))) thread(s)"),
            "\(byDefault.stderr)")
        #expect(oneJob.stderr.contains("images/s on 1 job(s) of \(threads) thread(s)"), "\(oneJob.stderr)")
        let twoJobs = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, dir.path, "--jobs", "2", "--no-progress",
        ])
        let twoByTwo = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, dir.path, "--jobs", "2", "--threads", "2",
            "--no-progress",
        ])
        #expect(twoJobs.stdout == oneJob.stdout && twoByTwo.stdout == oneJob.stdout)
        #expect(
            twoJobs.stderr.contains("images/s on 2 job(s) of \(min(threads, max(1, cores / 2))) thread(s)"),
            "\(twoJobs.stderr)")
        #expect(twoByTwo.stderr.contains("images/s on 2 job(s) of 2 thread(s)"), "\(twoByTwo.stderr)")
        for bad in ["0", "many"] {
            let refused = try CLIRun.run(["face-detector", "--model", Self.faceModel, dir.path, "--jobs", bad])
            #expect(refused.status == 64, "--jobs \(bad): \(refused.stderr)")
        }
    }

    @Test func videoModePrintsOneLinePerSelectedFrameAndWritesAnMP4() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4")
        try CLIRun.ffmpeg([
            "-framerate", "10", "-loop", "1", "-i", CLIRun.fixtures.appendingPathComponent("astronaut.png").path,
            "-vf", "zoompan=z='1+0.01*on':d=1:s=256x256:fps=10", "-frames:v", "20",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", video.path,
        ])
        let annotated = dir.appendingPathComponent("out.mp4")
        let run = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--every", "3",
            "--start", "0.2", "--end", "1500ms", "--annotate", annotated.path, "--no-progress",
        ])
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

    /// --start and --end are on the frames' own clock, which in a cut stream starts late: a range before it is refused
    /// saying where the video starts (it said "2.00 s long" only), and a range on that clock selects frames.
    @Test func startAndEndAreOnTheFramesOwnClock() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.mp4"), late = dir.appendingPathComponent("late.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 20, fps: 10, size: "128x128", to: plain)
        try CLIRun.ffmpeg(["-i", plain.path, "-c", "copy", "-output_ts_offset", "10", late.path])
        let early = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", late.path, "--start", "0.5", "--end", "1",
        ])
        #expect(
            (early.lines.first?["error"] as? String)?.hasSuffix(
                "no frame of \(late.path) (2.00 s long, from 10.000 s) lies between --start 0.5 and --end 1") == true,
            "\(early.stdout)")
        let onClock = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", late.path, "--start", "10.5", "--end", "11",
            "--no-progress",
        ])
        #expect(onClock.status == 0, "\(onClock.stderr)")
        let stamps = onClock.lines.compactMap { ($0["result"] as? [String: Any])?["timestampInMilliseconds"] as? Int }
        #expect(stamps == [10_500, 10_600, 10_700, 10_800, 10_900, 11_000])
    }

    /// An annotated video keeps the file's sound, for the frames it holds (--start and --end); a silent file gives a
    /// silent video. (It had no sound at all.)
    @Test func anAnnotatedVideoKeepsTheSound() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("sound.mp4"), annotated = dir.appendingPathComponent("out.mp4")
        try CLIRun.videoWithSound(seconds: 3, to: video)
        let run = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--annotate", annotated.path,
            "--start", "1", "--end", "2", "--no-progress",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let streams = try CLIRun.streams(annotated.path)
        #expect(streams.count == 2 && abs((CLIRun.length(of: "audio", in: streams) ?? 0) - 1) < 0.1, "\(streams)")
        let silent = dir.appendingPathComponent("silent.mp4"), quiet = dir.appendingPathComponent("quiet.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 5, fps: 10, size: "128x128", to: silent)
        let none = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", silent.path, "--annotate", quiet.path,
            "--no-progress",
        ])
        let quietStreams = try CLIRun.streams(quiet.path).map { String($0.prefix(5)) }
        #expect(none.status == 0 && quietStreams == ["video"], "\(none.stderr) \(quietStreams)")
        // One instant (--start and --end on one frame) has no sound to take: the video is written (ffmpeg refused
        // "-to" before "-ss" and the MP4 was lost).
        let instant = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--annotate", annotated.path,
            "--start", "2", "--end", "2", "--no-progress",
        ])
        #expect(instant.status == 0, "\(instant.stderr)")
        #expect(try CLIRun.frameCount(annotated.path) == 1)
        // A sound ffmpeg cannot decode (a codec id it does not know) leaves the video silent, with a warning: the
        // whole MP4 was lost at its first audio packet.
        let pcm = dir.appendingPathComponent("pcm.mkv"), odd = dir.appendingPathComponent("odd.mkv")
        try CLIRun.ffmpeg(["-i", video.path, "-c:v", "copy", "-c:a", "pcm_s16le", pcm.path])
        var bytes = try Data(contentsOf: pcm)
        let known = Data("A_PCM/INT/LIT".utf8)
        let at = try #require(bytes.range(of: known))
        bytes.replaceSubrange(at, with: Data("A_ZZZ/INT/LIT".utf8))
        try bytes.write(to: odd)
        let unknown = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", odd.path, "--annotate", annotated.path,
            "--no-progress",
        ])
        #expect(
            unknown.status == 0
                && unknown.stderr.contains("warning: \(annotated.path) is silent: the source's sound: "),
            "\(unknown.stderr)")
        #expect(try CLIRun.streams(annotated.path).map { String($0.prefix(5)) } == ["video"])
    }

    /// An annotated video plays in the source's time: a variable-rate source's long frames are held (each frame was
    /// written once at the average rate: the 2.52 s source came out 2.52 s long only by chance of its average, and
    /// its holds vanished), and `--every` keeps the length (at 1,000,000 the one frame lasted 18 hours).
    @Test func annotatedVideosKeepTheSourcesTime() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("vfr.mp4")
        try CLIRun.variableRateVideo(of: "astronaut.png", to: video)
        let source = try CLIRun.duration(video.path)
        #expect(abs(source - 2.52) < 0.05, "the source lasts \(source) s")
        let annotated = dir.appendingPathComponent("out.mp4")
        let run = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--annotate", annotated.path,
            "--no-progress",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(abs(try CLIRun.duration(annotated.path) - source) < 0.05)
        // 14 source frames on the 25 fps grid: 10 at 40 ms, two held for a second each (25 slots), 3 more.
        #expect(try CLIRun.frameCount(annotated.path) == 10 + 25 + 25 + 2 + 1)
        let sparse = dir.appendingPathComponent("every.mp4")
        let every = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--every", "1000000", "--annotate",
            sparse.path, "--no-progress",
        ])
        #expect(every.status == 0, "\(every.stderr)")
        #expect(try CLIRun.duration(sparse.path) <= 1.01)
    }

    /// Two faces on two threads (two landmark models at once): every run ends with exit 0 and every line whole. Each
    /// image worker's thread let go of its task in the thread's teardown, where (the lanes on Dispatch) glibc's heap
    /// was found corrupt in about half the runs: exit 134 or 139, the output cut at 64 KiB.
    @Test func twoFacesOnTwoThreadsEndCleanlyEveryTime() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let two = dir.appendingPathComponent("two.png")
        try CLIRun.ffmpeg([
            "-i", CLIRun.fixtures.appendingPathComponent("astronaut.png").path, "-filter_complex",
            "[0]crop=200:200:125:30,split[a][b];[a][b]hstack", two.path,
        ])
        for _ in 0..<6 {
            let run = try CLIRun.run([
                "face-landmarker", "--model", CLIRun.models.appendingPathComponent("face_landmarker.task").path,
                "--num-faces", "2", "--threads", "2", two.path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let faces = (run.lines.first?["result"] as? [String: Any])?["faceLandmarks"] as? [Any]
            #expect(run.lines.count == 1 && faces?.count == 2)
        }
    }

    /// A video of 2000 frames/s gives two frames a millisecond: the second of each pair fails with the reason and
    /// the remedy (not the bare "timestamps must strictly increase" of a caller's mistake), and `--every 2` takes all.
    @Test func framesSharingAMillisecondSayWhyAndWhatTakesThem() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("fast.mp4")
        try CLIRun.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=96x64:r=2000", "-frames:v", "6", "-c:v", "libx264", "-pix_fmt",
            "yuv420p", video.path,
        ])
        let all = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", video.path, "--no-progress"])
        #expect(all.status == 1 && all.lines.count == 6, "\(all.stderr)")
        let errors = all.lines.compactMap { $0["error"] as? String }
        #expect(all.lines.compactMap { $0["error"] == nil ? $0["frame"] as? Int : nil } == [0, 1, 3, 5])
        #expect(
            errors.first
                == "Invalid timestamp: frame 2 of \(video.path) is at 1 ms, not after frame 1 (1 ms): video "
                + "mode takes at most one frame a millisecond, so a video faster than 1000 frames/s cannot give every "
                + "frame; --every 2 keeps one frame in 2", "\(errors)")
        #expect(errors.count == 2)
        // An error line keeps its frame's timestamp, as the server's does.
        #expect(all.lines.compactMap { $0["error"] == nil ? nil : $0["timestampInMilliseconds"] as? Int } == [1, 2])
        let halved = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path, "--every", "2", "--no-progress",
        ])
        #expect(halved.status == 0 && halved.lines.compactMap { $0["frame"] as? Int } == [0, 2, 4], "\(halved.stderr)")
        // At an ordinary rate, a repeated timestamp is a frame of no length, and is named so (not ">1000 frames/s").
        let still = dir.appendingPathComponent("still.png")
        try CLIRun.ffmpeg([
            "-i", CLIRun.fixtures.appendingPathComponent("astronaut.png").path, "-s", "64x64", still.path,
        ])
        let list = dir.appendingPathComponent("frames.txt")
        try Data(
            "file '\(still.path)'\nduration 0.04\nfile '\(still.path)'\nduration 0\nfile '\(still.path)'\nduration 0.04\nfile '\(still.path)'\n"
                .utf8
        ).write(to: list)
        let repeated = dir.appendingPathComponent("repeated.mkv")
        try CLIRun.ffmpeg([
            "-f", "concat", "-safe", "0", "-i", list.path, "-fps_mode", "passthrough", "-c:v", "ffv1", repeated.path,
        ])
        let twice = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", repeated.path, "--no-progress",
        ])
        let message = twice.lines.compactMap { $0["error"] as? String }.first ?? ""
        #expect(
            message.contains("repeats the timestamp of frame 1 (40 ms)") && !message.contains("1000 frames/s"),
            "\(twice.stdout)\(twice.stderr)")
        // At 10,000 frames/s the advice is the --every that brings it under 1000 (it said --every 2, then 4, then 8).
        let y4m = dir.appendingPathComponent("fast.y4m")
        var bytes = Data("YUV4MPEG2 W16 H16 F10000:1 Ip A1:1 C420jpeg\n".utf8)
        for _ in 0..<30 { bytes += Data("FRAME\n".utf8) + Data(repeating: 128, count: 16 * 16 * 3 / 2) }
        try bytes.write(to: y4m)
        let faster = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", y4m.path, "--no-progress"])
        let advice = faster.lines.compactMap { $0["error"] as? String }.first ?? ""
        #expect(faster.status == 1 && advice.hasSuffix("; --every 10 keeps one frame in 10"), "\(advice)")
        let tenth = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", y4m.path, "--every", "10", "--no-progress",
        ])
        #expect(tenth.status == 0 && tenth.lines.compactMap { $0["frame"] as? Int } == [0, 10, 20], "\(tenth.stderr)")
    }

    /// libswscale turns the frames into RGB in this process and warns about a full-range (yuvj420p)
    /// video's "deprecated pixel format" on stderr unless quieted; with it and an odd-sized video,
    /// stderr holds the summary only.
    @Test func videoConversionWarningsStayOffStderr() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, encoding) in [
            ("full.avi", ["-c:v", "mjpeg"]), ("odd.mkv", ["-vf", "scale=67:49", "-c:v", "ffv1"]),
        ] {
            let video = dir.appendingPathComponent(name)
            try CLIRun.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=96x64:r=10:d=0.3"] + encoding + [video.path])
            let run = try CLIRun.run([
                "face-detector", "--model", Self.faceModel, "--video", video.path, "--no-progress",
            ])
            #expect(run.status == 0 && run.lines.count == 3, "\(name): \(run.stderr)")
            let stderr = run.stderr.split(separator: "\n")
            #expect(stderr.count == 1 && stderr[0].hasPrefix("summary: 3 frames decoded"), "\(name): \(run.stderr)")
        }
    }

    @Test func videoAnnotationQualityPicksTheEncoderPreset() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4")
        try CLIRun.ffmpeg([
            "-framerate", "10", "-loop", "1", "-i", CLIRun.fixtures.appendingPathComponent("astronaut.png").path,
            "-vf", "zoompan=z='1+0.01*on':d=1:s=320x240:fps=10", "-frames:v", "20",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", video.path,
        ])
        var sizes: [String: Int] = [:], outputs: [String: [String]] = [:]
        for quality in ["default", "fastest", "small"] {
            let annotated = dir.appendingPathComponent("\(quality).mp4")
            let choice = quality == "default" ? [] : ["--quality", quality]
            let run = try CLIRun.run(
                [
                    "face-detector", "--model", Self.faceModel, "--video", video.path,
                    "--annotate", annotated.path, "--no-progress",
                ] + choice)
            #expect(run.status == 0, "\(run.stderr)")
            // Every frame reaches the encoder, in order, through the reader/task/writer threads.
            #expect(run.lines.compactMap { $0["frame"] as? Int } == Array(0..<20))
            #expect(try CLIRun.frameCount(annotated.path) == 20)
            sizes[quality] = (try FileManager.default.attributesOfItem(atPath: annotated.path)[.size] as? Int) ?? 0
            outputs[quality] = run.stdout.split(separator: "\n").map(String.init)
        }
        // x264 ultrafast writes a larger file than veryfast, and is the default (x264 is deterministic:
        // the same preset gives the same bytes); the JSON lines do not depend on the preset.
        #expect((sizes["fastest"] ?? 0) > (sizes["small"] ?? 0), "\(sizes)")
        #expect(sizes["default"] == sizes["fastest"], "\(sizes)")
        #expect(outputs["fastest"] == outputs["small"] && outputs["default"] == outputs["fastest"])
        let bad = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", video.path,
            "--annotate", dir.appendingPathComponent("x.mp4").path, "--quality", "best",
        ])
        #expect(bad.status == 64, "\(bad.stderr)")
    }

    @Test func liveSourceFasterThanProcessingDropsFramesInOrderWithBoundedMemory() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2 seconds at 240 fps of a 960x640 photo: 480 frames, 885 MB of RGB if all were kept. The Pose
        // Landmarker on one thread takes about 10 ms a frame in an optimised build, more than twice the 4.2 ms
        // between frames (the face detector, at 2 ms, kept up with 120 fps and dropped nothing).
        let video = dir.appendingPathComponent("fast.mp4")
        try CLIRun.stillVideo(of: "woman_sitting.jpg", frames: 480, fps: 240, to: video)
        // Run under GNU time: its peak RSS is the tool's own (getrusage's RUSAGE_CHILDREN would also
        // count every other child of this test process, and the high-water mark they inherit from it).
        let measured = try HostileFileCLITests.measure(
            ["pose-landmarker", "--model", Self.poseModel, "--threads", "1", "--live", video.path], in: dir)
        let run = CLIRun(stdout: measured.stdout, stderr: measured.stderr, status: measured.status)
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
        #expect(measured.maxRSSBytes < 400 << 20, "peak RSS \(measured.maxRSSBytes) bytes")
    }

    @Test func liveSourceStopsCleanlyOnSIGINT() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("long.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 500, fps: 25, size: "256x256", to: video)
        // The interrupt comes 1 s after the first result line, however long the tool took to start.
        let run = try CLIRun.run(
            ["face-detector", "--model", Self.faceModel, "--live", video.path], interruptAfterFirstLine: 1)
        // 500 frames at 25 fps take 20 s to read: the run ended soon after the interrupt, with a summary.
        let after = try #require(run.secondsAfterInterrupt, "SIGINT was sent")
        #expect(after < 5, "ran \(after) s after SIGINT")
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(run.stderr.split(separator: "\n").last { $0.hasPrefix("summary:") })
        let read = try #require(Int(summary.dropFirst("summary: ".count).prefix { $0.isNumber }))
        #expect(read < 500, "\(summary)")
        let frames = run.lines.compactMap { $0["frame"] as? Int }
        #expect(frames == frames.sorted())
    }

    @Test func aLiveFileIsPlayedAtItsRateWhateverItsPathSays() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("two-seconds.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 50, fps: 25, size: "256x256", to: video)
        // A file whose path starts with /dev/ (a RAM disk's, /dev/shm) is a file: its 2 s take 2 s, not the
        // fraction of a second its frames take to process, of which a real-time source would have dropped most.
        let path = "/dev/.." + video.path
        let segmenter = CLIRun.models.appendingPathComponent("selfie_segmenter.tflite").path
        for arguments in [
            ["face-detector", "--model", Self.faceModel, "--live", path],
            ["background", "--model", segmenter, "--live", path, "--blur", "5", "--output", dir.path + "/b.mp4"],
        ] {
            let started = Date()
            let run = try CLIRun.run(arguments)
            let seconds = Date().timeIntervalSince(started)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(seconds > 1.8, "\(arguments[0]) read the 2 s file in \(seconds) s")
        }
    }

    /// A live source whose clock goes back (two MPEG-TS clips one after the other, as a stream restarted or a FIFO fed
    /// clip after clip): the frames after go on from the frame before. The run stopped at the step back with "timestamps
    /// must strictly increase", the second clip unread and the annotated MP4 of the first thrown away.
    @Test func aLiveSourceWhoseClockGoesBackGoesOn() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.mp4"), stream = dir.appendingPathComponent("clip.ts")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 25, fps: 25, size: "128x128", to: clip)
        try CLIRun.ffmpeg(["-i", clip.path, "-c", "copy", "-f", "mpegts", stream.path])
        let joined = dir.appendingPathComponent("joined.ts"), annotated = dir.appendingPathComponent("annotated.mp4")
        let once = try Data(contentsOf: stream)
        try (once + once).write(to: joined)
        let run = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--live", joined.path, "--annotate", annotated.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the clock of \(joined.path) went back 1 time(s)"), "\(run.stderr)")
        let frames = run.lines.compactMap { $0["frame"] as? Int }
        let timestamps = run.lines.compactMap { ($0["result"] as? [String: Any])?["timestampInMilliseconds"] as? Int }
        #expect(frames.contains { $0 >= 25 } && run.lines.allSatisfy { $0["error"] == nil }, "\(frames)")
        #expect(timestamps.count == run.lines.count && zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
        #expect(FileManager.default.fileExists(atPath: annotated.path))
    }

    @Test func liveAnnotationHoldsEachProcessedFrameUntilTheNext() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("live.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 50, fps: 25, size: "256x256", to: video)
        let annotated = dir.appendingPathComponent("annotated.mp4")
        let run = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--live", video.path, "--annotate", annotated.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let frames = run.lines.compactMap { $0["frame"] as? Int }
        let first = try #require(frames.first), last = try #require(frames.last)
        // At the source's 25 fps each processed frame fills the slots up to the next one: the video
        // spans exactly the first to the last processed frame, dropped frames included.
        #expect(try CLIRun.frameCount(annotated.path) == last - first + 1)
        let notVideo = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--live", video.path, "--annotate", "out.png",
        ])
        #expect(notVideo.status == 64 && notVideo.stderr.contains("give a .mp4 path"), "\(notVideo.stderr)")
        // A file whose rate is over what video mode keeps (1,000 a second) is written at the rate `--video --annotate`
        // writes it at (VideoInfo.writingFrameRate: 60), not at a rate of the live run's own; its frames in the
        // millisecond of the frame before are dropped and counted (they ended the run with an invalid timestamp).
        let dense = dir.appendingPathComponent("dense.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 30, fps: 1500, size: "128x128", to: dense)
        let denseAnnotated = dir.appendingPathComponent("dense-annotated.mp4")
        let denseRun = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--live", dense.path, "--annotate", denseAnnotated.path,
        ])
        #expect(denseRun.status == 0, "\(denseRun.stderr)")
        #expect(denseRun.stderr.contains("in the millisecond of the frame before"), "\(denseRun.stderr)")
        #expect(try CLIRun.frameRate(denseAnnotated.path) == "60/1")
    }

    @Test func folderAnnotationsMirrorTheInputTree() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        // Two different pictures with one name in two sub-folders, one at the top, one hidden.
        let sources = [
            "a/same.jpg": "woman_sitting.jpg", "b/same.jpg": "hand_thumb_up.jpg", "top.png": "astronaut.png",
            ".cache/hidden.jpg": "astronaut.png",
        ]
        for (name, source) in sources {
            let target = photos.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLIRun.fixtures.appendingPathComponent(source), to: target)
        }
        let annotated = dir.appendingPathComponent("annotated")
        let run = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, photos.path, "--annotate", annotated.path,
            "--jobs", "2", "--no-progress",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.lines.compactMap { $0["input"] as? String }
                == ["a/same.jpg", "b/same.jpg", "top.png"].map { photos.appendingPathComponent($0).path })
        let tree = try #require(FileManager.default.subpaths(atPath: annotated.path)).sorted()
        #expect(tree == ["a", "a/same.jpg", "b", "b/same.jpg", "top.png"])
        // Each output is its own input drawn over: same size as that input (the two same.jpg differ).
        for name in ["a/same.jpg", "b/same.jpg"] {
            #expect(
                try Self.jpegSize(annotated.appendingPathComponent(name))
                    == Self.jpegSize(photos.appendingPathComponent(name)), "\(name)")
        }

        // Two input folders: the outputs go below the folder holding both.
        let twoFolders = dir.appendingPathComponent("two")
        let both = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, photos.appendingPathComponent("a").path,
            photos.appendingPathComponent("b").path, "--annotate", twoFolders.path, "--no-progress",
        ])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(
            try #require(FileManager.default.subpaths(atPath: twoFolders.path)).sorted() == [
                "a", "a/same.jpg", "b", "b/same.jpg",
            ])
    }

    /// Width and height from a JPEG's first start-of-frame marker.
    static func jpegSize(_ url: URL) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var i = 2
        while i + 9 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1], length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return [Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])]
            }
            i += 2 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    @Test func usageMistakesExit64WithTheUsage() throws {
        let both = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", "a.mp4", "--live", "b.mp4"])
        #expect(both.status == 64 && both.stderr.contains("exactly one") && both.stderr.contains("Usage:"))
        let badTime = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", "a.mp4", "--start", "soon",
        ])
        #expect(badTime.status == 64 && badTime.stderr.contains("--start soon"))
        // Past the timestamps a frame may carry, and past --every's range: refused (the first used to trap).
        let farTime = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", "a.mp4", "--end", "1e20"])
        #expect(
            farTime.status == 64 && farTime.stderr.contains("-4000000000000 to 4000000000000 ms"), "\(farTime.stderr)")
        // A stream whose clock wrapped starts before 0: its frames are selected with negative times (they were
        // refused, "--start -4" as a missing value).
        // --start takes the next argument whatever it is: an option there is named as its value ("--start --end 3"
        // said to give exactly one kind of input, 3 taken for an image).
        let swallowed = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", "a.mp4", "--start", "--end", "3",
        ])
        #expect(
            swallowed.status == 64 && swallowed.stderr.contains("--start --end: give seconds"), "\(swallowed.stderr)")
        for before in [["--start", "-4", "--end", "-1"], ["--start=-4s", "--end=-1000ms"]] {
            let early = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", "a.mp4"] + before)
            let error = early.lines.first?["error"] as? String
            #expect(early.status == 1 && error == "File not found: a.mp4", "\(early.stdout)\(early.stderr)")
        }
        let sparse = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--video", "a.mp4", "--every", "9223372036854775807",
        ])
        #expect(sparse.status == 64 && sparse.stderr.contains("--every must be 1...1000000"), "\(sparse.stderr)")
        // A task instance and a thread per job: 100,000 of them on a large folder exhausted memory or threads.
        let crowd = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--jobs", "100000", "a.jpg"])
        #expect(crowd.status == 64 && crowd.stderr.contains("--jobs must be 1...256 or auto"), "\(crowd.stderr)")
        let trainers = try CLIRun.run([
            "train-gestures", "--model", "m.task", "--output", "o.task", "--threads", "20000", "photos",
        ])
        #expect(trainers.status == 64 && trainers.stderr.contains("--threads must be 1...64"), "\(trainers.stderr)")
        let oneFile = try CLIRun.run([
            "train-gestures", "--model", "m.task", "--output", "o.task", "--report", "./o.task", "photos",
        ])
        #expect(oneFile.status == 64 && oneFile.stderr.contains("name one file"), "\(oneFile.stderr)")
        let unknown = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--bogus", "a.jpg"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--bogus") && unknown.stderr.contains("Usage:"))
        let malformed = try CLIRun.run(["hand-landmarker", "--model", "m.task", "--num-hands", "two", "a.jpg"])
        #expect(malformed.status == 64 && malformed.stderr.contains("two"))
        #expect(both.stdout.isEmpty && badTime.stdout.isEmpty && unknown.stdout.isEmpty && malformed.stdout.isEmpty)
    }

    @Test func runTimeFailuresExit1WithOneLineNamingTheProblem() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let missingModel = try CLIRun.run(["face-detector", "--model", "/nonexistent/face.tflite", image])
        #expect(missingModel.status == 1 && missingModel.stdout.isEmpty)
        #expect(
            missingModel.stderr
                == "error: File not found: /nonexistent/face.tflite (MediaPipe's models are not shipped: `make models` in the VisionTasks checkout fetches them into models/)\n"
        )
        let corrupt = dir.appendingPathComponent("corrupt.tflite")
        try Data(repeating: 7, count: 4096).write(to: corrupt)
        let corruptModel = try CLIRun.run(["face-detector", "--model", corrupt.path, image])
        #expect(corruptModel.status == 1 && corruptModel.stdout.isEmpty)
        #expect(
            corruptModel.stderr.hasPrefix("error: Invalid model: \(corrupt.path)")
                && corruptModel.stderr.filter { $0 == "\n" }.count == 1)
        let outOfRange = try CLIRun.run([
            "face-detector", "--model", Self.faceModel, "--min-suppression-threshold", "2", image,
        ])
        #expect(outOfRange.status == 1 && outOfRange.stdout.isEmpty)
        #expect(
            outOfRange.stderr.hasPrefix("error: Invalid option --min-suppression-threshold"), "\(outOfRange.stderr)")
        let missingVideo = try CLIRun.run(["face-detector", "--model", Self.faceModel, "--video", "/nonexistent/v.mp4"])
        #expect(missingVideo.status == 1 && missingVideo.stdout.contains("File not found: /nonexistent/v.mp4"))
        let missingImage = try CLIRun.run(["face-detector", "--model", Self.faceModel, image, "/nonexistent/p.jpg"])
        #expect(missingImage.status == 1 && missingImage.lines.count == 2)
        #expect((missingImage.lines[1]["error"] as? String) == "File not found: /nonexistent/p.jpg")
    }
}
