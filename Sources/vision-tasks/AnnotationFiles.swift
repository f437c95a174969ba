import ArgumentParser
import Foundation
import VisionTasks

/// The files `--annotate` writes, with errors that name the option, the file and what the system said.
enum AnnotationFiles {
    /// Extensions of pictures and videos the tool cannot write as an annotated picture: given to
    /// `--annotate` with images they are a mistake, not the name of a folder to create.
    static let unsupportedExtensions: Set<String> = [
        "gif", "bmp", "webp", "tif", "tiff", "heic", "heif", "avif", "ppm", "pgm", "pnm",
        "mp4", "mov", "mkv", "avi", "webm", "m4v",
    ]

    /// Usage check of `--annotate` for image inputs: a path ending in another picture or video
    /// format is refused (PNG and JPEG pictures, or a folder).
    static func validateForImages(_ annotate: String) throws {
        let ext = (annotate as NSString).pathExtension.lowercased()
        if unsupportedExtensions.contains(ext) {
            throw ValidationError(
                "--annotate \(annotate): annotated pictures are written as .png or .jpg (or into a folder), not .\(ext)"
            )
        }
    }

    /// Writes `image` to `path` as PNG or JPEG by its extension, whole (`OutputFile`: a reader never sees half a
    /// picture, and a run ended by a signal leaves no partial file).
    static func write(_ image: MPImage, to path: String) throws {
        let data = (path as NSString).pathExtension.lowercased() == "png" ? try image.pngData() : try image.jpegData()
        try OutputFiles.write(data, to: path, option: "--annotate")
    }
}
