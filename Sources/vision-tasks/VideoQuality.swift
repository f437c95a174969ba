import ArgumentParser
import VideoIO

/// `--quality`, for every subcommand that writes an H.264 video (the task subcommands' `--annotate` of a
/// video or a live source, `background --output`): the choice, its default and its help, declared once.
struct VideoQualityOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How a written H.264 video (--annotate of --video or --live; background's --output) is encoded: fastest (x264 ultrafast, the default: the least CPU, files about the size of an OpenCV mp4v video), fast (superfast: more encoding CPU, files about half the size; an annotated --video run takes ~15-20% longer), small (veryfast: more CPU again, smaller again), smallest (medium: smaller still, several times slower).",
            valueName: "fastest|fast|small|smallest"))
    var quality: VideoQuality = .fastest
}

/// The encoder preset of a written video, named for what a user trades.
enum VideoQuality: String, ExpressibleByArgument, CaseIterable {
    case fastest, fast, small, smallest

    /// The libx264 preset this choice runs.
    var preset: VideoWriter.Preset {
        switch self {
        case .fastest: return .ultrafast
        case .fast: return .superfast
        case .small: return .veryfast
        case .smallest: return .medium
        }
    }
}
