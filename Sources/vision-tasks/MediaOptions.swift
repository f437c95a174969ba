import ArgumentParser
import Foundation
import VideoIO
import VisionTasks

/// The input and output options every task subcommand shares: images and folders (image mode),
/// `--video` (video mode), `--live` (live-stream mode), frame selection, parallel jobs, progress,
/// and `--annotate` to write the results drawn over the picture.
struct MediaOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Process a video file in video mode: one JSON line per frame, with the frame's presentation timestamp.",
            valueName: "file"))
    var video: String?

    @Option(
        help: ArgumentHelp(
            "Process a live source in live-stream mode: anything ffmpeg opens (/dev/video0, a stream URL, or a file, played at its real rate). Late frames are dropped; Ctrl-C ends with a summary.",
            valueName: "source"))
    var live: String?

    @Option(
        help:
            "With --video: process every Nth frame only (\(Self.everyRange.lowerBound)...\(Self.everyRange.upperBound))."
    )
    var every: Int = 1

    /// The values `--every` takes.
    static let everyRange = 1...1_000_000

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --video: first frame time, on the frames' own clock (their timestamps in the output: a cut or joined video's may start after 0, a stream whose clock wrapped before it: -4.3). A plain number is seconds (1.5); add ms for milliseconds (1500ms).",
            valueName: "time"))
    var start: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --video: last frame time, inclusive; seconds or ms as for --start.", valueName: "time")
    )
    var end: String?

    @Option(
        help: ArgumentHelp(
            "Images processed in parallel, each by its own task instance (several images, folders and image lists): a number (each instance gets --threads if given, else its share of the cores), or auto: one instance per core (at most \(JobCount.autoLimit) and the number of images), each given its share of the cores, at most --threads.",
            valueName: "n|auto"))
    var jobs: JobCount = .auto

    @Flag(inversion: .prefixedNo, help: "Show a progress bar on stderr (default: when stderr is a terminal).")
    var progress: Bool?

    @Option(
        help: ArgumentHelp(
            "Write the results drawn over the picture: for one image a .png or .jpg file; for several images or a folder, a folder mirroring the inputs' tree; for --video or --live an H.264 .mp4 (live: the processed frames, each held until the next; an odd side grows by one pixel, as H.264's 4:2:0 needs).",
            valueName: "path"))
    var annotate: String?

    @Option(
        help: ArgumentHelp(
            "Write the masks (the image segmenter's; the pose landmarker's with --output-segmentation-masks), on images or --video, as 8-bit grayscale PNGs (round(255·p), the input's size) into this folder, named in the JSON lines instead of embedded: DIR/<image stem>-<pose>.png for a pose, DIR/<image stem>-<label index>.png and DIR/<image stem>-category.png for the segmenter; inputs under a folder mirroring its tree as --annotate does; DIR/<video stem>-<frame>-... for a video.",
            valueName: "folder"))
    var masks: String?

    /// `--quality`: with --annotate and --video or --live, how the H.264 video is encoded.
    @OptionGroup var videoQuality: VideoQualityOption

    /// The encoder choice of an annotated video.
    var quality: VideoQuality { videoQuality.quality }

    @OptionGroup var imageLimit: ImageLimitOptions

    /// The decoding limits for input images.
    var imageDecoding: ImageDecodingOptions { imageLimit.imageDecoding }

    /// `--start` in milliseconds, if given.
    var startMs: Int? { get throws { try start.map { try Self.milliseconds($0, option: "--start") } } }
    /// `--end` in milliseconds, if given.
    var endMs: Int? { get throws { try end.map { try Self.milliseconds($0, option: "--end") } } }

    /// Whether to draw a progress bar: as asked, else when stderr is a terminal.
    var showProgress: Bool { progress ?? (isatty(STDERR_FILENO) == 1) }

    /// "1.5" or "1.5s" → 1500; "1500ms" → 1500; "-4.3" → -4300 (within `FrameContext.timestampRange`).
    static func milliseconds(_ text: String, option: String) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let value: Double?
        if trimmed.hasSuffix("ms") {
            value = Double(trimmed.dropLast(2))
        } else if trimmed.hasSuffix("s") {
            value = Double(trimmed.dropLast()).map { $0 * 1000 }
        } else {
            value = Double(trimmed).map { $0 * 1000 }
        }
        let range = FrameContext.timestampRange
        guard let value, value.isFinite, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw ValidationError(
                "\(option) \(text): give seconds (1.5) or milliseconds (1500ms), \(range.lowerBound) to \(range.upperBound) ms"
            )
        }
        return Int(value.rounded())
    }

    /// Checks that the inputs name exactly one kind of source (images and folders, `--input-list`,
    /// `--video`, `--video-list`, `--live`) and that the options fit it.
    func validate(images: [String], inputList: Bool = false, videoList: Bool = false) throws {
        // First: --start and --end take the next argument whatever it is (a time may be negative), so an option
        // given as their value is named here, not taken for a missing input ("--start --end 3": 3 an image).
        let (startMs, endMs) = (try startMs, try endMs) // each checked, also alone
        let kinds = [!images.isEmpty, inputList, video != nil, videoList, live != nil].filter { $0 }.count
        guard kinds == 1 else {
            throw ValidationError(
                "give image files or folders, --input-list FILE, --video FILE, --video-list FILE or --live SOURCE (exactly one of them)"
            )
        }
        if videoList, annotate != nil {
            throw ValidationError("--annotate writes one picture or video: it does not apply to --video-list")
        }
        guard Self.everyRange.contains(every) else {
            throw ValidationError(
                "--every must be \(Self.everyRange.lowerBound)...\(Self.everyRange.upperBound), got \(every)")
        }
        if case .count(let count) = jobs, !JobCount.countRange.contains(count) {
            throw ValidationError(
                "--jobs must be \(JobCount.countRange.lowerBound)...\(JobCount.countRange.upperBound) or auto, got \(count)"
            )
        }
        if video == nil, !videoList, every != 1 || start != nil || end != nil {
            throw ValidationError("--every, --start and --end select frames of --video and --video-list")
        }
        if let startMs, let endMs, endMs < startMs {
            throw ValidationError("--end (\(endMs) ms) is before --start (\(startMs) ms)")
        }
        if let annotate, video != nil || live != nil, !annotate.lowercased().hasSuffix(".mp4") {
            throw ValidationError(
                "--annotate with --video or --live writes an H.264 video: give a .mp4 path, not \(annotate)")
        }
        if let annotate, video == nil, live == nil { try AnnotationFiles.validateForImages(annotate) }
        if masks != nil, live != nil || videoList {
            throw ValidationError(
                "--masks writes the masks of images and of --video: it does not apply to --live or --video-list")
        }
    }
}
