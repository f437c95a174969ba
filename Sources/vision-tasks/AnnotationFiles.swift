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

    /// Writes `image` to `path` as PNG or JPEG by its extension, through a temporary file renamed
    /// into place (a reader never sees half a picture).
    static func write(_ image: MPImage, to path: String) throws {
        let data = (path as NSString).pathExtension.lowercased() == "png" ? try image.pngData() : try image.jpegData()
        let temporary = path + ".partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw cannotWrite(path, errno) }
        let failure = Console.writeAll(fd, data)
        close(fd)
        if let failure {
            unlink(temporary)
            throw cannotWrite(path, failure)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw cannotWrite(path, code)
        }
    }

    private static func cannotWrite(_ path: String, _ code: Int32) -> VisionTasksError {
        OutputFiles.cannotWrite(path, option: "--annotate", code)
    }
}
