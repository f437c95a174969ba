import ArgumentParser
import VisionTasks

/// `--max-image-pixels`, for every subcommand that decodes a picture the user names (the task
/// subcommands' images and video frames, `background`'s frames and `--replace`, `train-gestures`' photos) or a
/// client sends (`serve`, its videos and training uploads too): the limit the decoders' errors tell the user to raise.
struct ImageLimitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The most pixels (width x height) an input image or video frame may declare; larger ones are refused before decoding.",
            valueName: "pixels"))
    var maxImagePixels: Int = ImageDecodingOptions.defaultMaxPixelCount

    /// The decoding limits for input images.
    var imageDecoding: ImageDecodingOptions { ImageDecodingOptions(maxPixelCount: maxImagePixels) }

    /// Usage error (exit 64) for a limit below one pixel.
    func validate() throws {
        guard maxImagePixels >= 1 else {
            throw ValidationError("--max-image-pixels must be at least 1, got \(maxImagePixels)")
        }
    }
}
