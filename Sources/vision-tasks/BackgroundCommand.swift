import ArgumentParser
import Foundation
import VideoIO
import VisionTasks

/// `vision-tasks background`: the person kept and the background blurred, replaced by a picture or
/// painted one colour, from a video file or a live source into an MP4 or a V4L2 virtual camera.
struct BackgroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "background",
        abstract: "Blur or replace the background behind the person in a video or a camera's frames.",
        discussion: """
            The Image Segmenter's mask of each frame (selfie_segmenter.tflite), smoothed over time, its \
            edges fitted to the frame (guided filter), blends the frame over the new background. Frames \
            that barely changed may reuse the last mask. Writes an H.264 .mp4 (--output) or a V4L2 \
            virtual camera (--v4l2 /dev/videoN, made once per boot with `\(VirtualCamera.setupLine)`), \
            which video call programs and browsers list as a camera. Ends with one JSON line of counts \
            on standard output (with --stats, the mask's flicker and agreement with the model's own masks).
            """)

    @Option(help: ArgumentHelp(BaseOptions.Declared.model.option.help + " (selfie_segmenter.tflite)"))
    var model: String

    @Option(help: ArgumentHelp(BaseOptions.Declared.threads.option.help))
    var threads: Int = BaseOptions.Declared.threads.defaultValue

    @Option(help: ArgumentHelp("Read a video file.", valueName: "file"))
    var video: String?

    @Option(
        help: ArgumentHelp(
            "Read a live source: anything ffmpeg opens (/dev/video0, a stream URL, or a file played at its real rate). Frames the effect cannot keep up with are dropped; Ctrl-C ends.",
            valueName: "source"))
    var live: String?

    @Option(
        help: ArgumentHelp(
            "Blur the background: the Gaussian's standard deviation in frame pixels (as CSS blur()), \(BackgroundSettings.blurRange.lowerBound)...\(BackgroundSettings.blurRange.upperBound).",
            valueName: "radius"))
    var blur: Float?

    @Option(
        help: ArgumentHelp(
            "Replace the background by a JPEG or PNG picture, scaled to cover the frame, centred (the frame shows through "
                + "a PNG's transparent pixels).", valueName: "image"))
    var replace: String?

    @OptionGroup var imageLimit: ImageLimitOptions

    @Option(help: ArgumentHelp("Paint the background one colour, hexadecimal RRGGBB (00FF00).", valueName: "RRGGBB"))
    var color: String?

    @Option(
        help: ArgumentHelp(
            "Write an H.264 .mp4 file (a frame side of an odd number of pixels grows by one, the last row or column repeated: H.264's 4:2:0 takes even sides).",
            valueName: "file.mp4"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Write a V4L2 virtual camera (a v4l2loopback device) in YUYV, or YUV420P when the device takes only that.",
            valueName: "/dev/videoN"))
    var v4l2: String?

    @OptionGroup var videoQuality: VideoQualityOption

    @Option(
        help: ArgumentHelp(
            "Temporal smoothing of the mask, 0...1: how much of the previous mask an uncertain pixel keeps (MediaPipe's SegmentationSmoothingCalculator; 0: off).",
            valueName: "ratio"))
    var smoothing: Float = BackgroundSettings.defaultSmoothing

    @Option(
        help: ArgumentHelp(
            "Beyond MediaPipe: a pixel whose luminance changed by this many levels since the previous frame is not smoothed (less change, proportionally more), so moving edges follow at once; a pixel also keeps less of the previous mask the further the model's new value lies from it, \(BackgroundSettings.smoothingMotionRange.lowerBound)...\(BackgroundSettings.smoothingMotionRange.upperBound) (0: MediaPipe's rule alone).",
            valueName: "levels"))
    var smoothingMotion: Float = BackgroundSettings.defaultSmoothingMotion

    @Flag(
        inversion: .prefixedNo,
        help: "Fit the mask's edges to the frame with a guided filter (off: the mask brought up bilinearly).")
    var guidedEdges: Bool = BackgroundSettings.defaultGuidedEdges

    @Option(
        help: ArgumentHelp(
            "Reuse the last mask when the small frame's mean luminance change since the last segmented frame is at most this many levels, \(BackgroundSettings.reuseThresholdRange.lowerBound)...\(BackgroundSettings.reuseThresholdRange.upperBound) (0: segment every frame).",
            valueName: "levels"))
    var reuseThreshold: Float = BackgroundSettings.defaultReuseThreshold

    @Option(
        help: ArgumentHelp(
            "The most frames in a row that may reuse one mask, \(BackgroundSettings.maxReuseRange.lowerBound)...\(BackgroundSettings.maxReuseRange.upperBound).",
            valueName: "frames"))
    var maxReuse: Int = BackgroundSettings.defaultMaxReuse

    @Flag(
        help:
            "Measure the mask: segment every frame as well, and add to the summary line the frame-to-frame change of the model's masks and of the masks used, and their IoU at 0.5."
    )
    var stats = false

    /// Usage errors (exit 64): one source, one effect, one destination, values in range.
    func validate() throws {
        guard (video == nil) != (live == nil) else {
            throw ValidationError("give --video FILE or --live SOURCE (exactly one)")
        }
        guard [blur != nil, replace != nil, color != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --blur RADIUS, --replace IMAGE and --color RRGGBB")
        }
        guard (output == nil) != (v4l2 == nil) else {
            throw ValidationError("give --output FILE.mp4 or --v4l2 /dev/videoN (exactly one)")
        }
        if let output, !output.lowercased().hasSuffix(".mp4") {
            throw ValidationError("--output writes an H.264 video: give a .mp4 path, not \(output)")
        }
        if let blur, !BackgroundSettings.blurRange.contains(blur) {
            throw ValidationError("--blur must be in \(BackgroundSettings.blurRange), got \(blur)")
        }
        if let color, Self.rgb(color) == nil {
            throw ValidationError("--color takes RRGGBB in hexadecimal, got \(color)")
        }
        guard (0...1).contains(smoothing) else {
            throw ValidationError("--smoothing must be in 0...1, got \(smoothing)")
        }
        guard BackgroundSettings.smoothingMotionRange.contains(smoothingMotion) else {
            throw ValidationError(
                "--smoothing-motion must be in \(BackgroundSettings.smoothingMotionRange), got \(smoothingMotion)")
        }
        guard BackgroundSettings.reuseThresholdRange.contains(reuseThreshold) else {
            throw ValidationError(
                "--reuse-threshold must be in \(BackgroundSettings.reuseThresholdRange), got \(reuseThreshold)")
        }
        guard BackgroundSettings.maxReuseRange.contains(maxReuse) else {
            throw ValidationError("--max-reuse must be in \(BackgroundSettings.maxReuseRange), got \(maxReuse)")
        }
        // Checked here with the other options (one message, one exit status), not by the segmenter after the source opened.
        guard (1...BaseOptions.maxNumThreads).contains(threads) else {
            throw ValidationError("--threads must be 1...\(BaseOptions.maxNumThreads), got \(threads)")
        }
    }

    /// "00FF00" or "#00ff00" → (0, 255, 0); nil for anything but six hex digits (`UInt32(_:radix:)` alone took "+0FF00").
    static func rgb(_ text: String) -> (UInt8, UInt8, UInt8)? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    func run() throws {
        try reportingErrors {
            // Everything that can be checked is checked before the source opens (a camera's light goes on).
            let effect: BackgroundEffect
            if let blur {
                effect = .blur(sigma: blur)
            } else if let replace {
                effect = .replace(try MPImage(contentsOfFile: replace, decodingOptions: imageLimit.imageDecoding))
            } else if let color, let (r, g, b) = Self.rgb(color) {
                effect = .color(red: r, green: g, blue: b)
            } else {
                throw ValidationError("give exactly one of --blur, --replace and --color")
            }
            let destination: BackgroundRun.Destination
            if let v4l2 {
                destination = .camera(v4l2, try VirtualCamera.check(device: v4l2))
            } else if let output {
                try OutputFiles.checkNotAnInput(output, option: "--output", inputs: [video, live].compactMap { $0 })
                try OutputFiles.checkVideoFile(output, option: "--output")
                destination = .file(output, videoQuality.quality.preset)
            } else {
                throw ValidationError("give --output or --v4l2")
            }
            var settings = BackgroundSettings(effect: effect)
            settings.smoothing = smoothing
            settings.smoothingMotion = smoothingMotion
            settings.guidedEdges = guidedEdges
            settings.reuseThreshold = reuseThreshold
            settings.maxReuse = maxReuse
            settings.measure = stats
            let segmenter = try BackgroundRenderer.makeSegmenter(modelPath: model, numThreads: threads)
            let run = BackgroundRun(
                source: video ?? live ?? "", live: live != nil, destination: destination, settings: settings,
                segmenter: segmenter, threads: threads, maxFramePixels: imageLimit.maxImagePixels)
            try run.run()
        }
    }
}
