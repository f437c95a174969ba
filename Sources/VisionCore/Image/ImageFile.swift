import CImageCodecs
import Foundation
import VisionErrors

/// A file's bytes, read to be decoded: in pixel memory (`ic_pixels_alloc`: a large file on huge pages,
/// reusing a freed photo's), writable, so a decoder may rearrange them; freed with the value.
final class FileBytes {
    private let base: UnsafeMutableRawPointer
    /// How many bytes were read.
    fileprivate(set) var count: Int

    /// The bytes read.
    var bytes: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: base, count: count) }

    /// Takes `base`, from `ic_pixels_alloc`, holding `count` bytes.
    fileprivate init(adopting base: UnsafeMutableRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { ic_pixels_free(base) }
}

/// Reads image files with plain POSIX calls: the descriptor is closed and the buffer released on every
/// path, errors name the path (Foundation's `Data(contentsOf:)` leaked 4 KB per truncated file).
enum ImageFile {
    /// The largest file read (2 GiB - 1): the decoders take no more.
    static let maxFileSize = Int(Int32.max)

    /// The bytes of the file at `path`, at most `largest` (at most `maxFileSize`).
    /// - Throws: `fileNotFound`; `fileUnreadable` for a directory, anything else that is not a regular file
    ///   (a pipe, a device, a socket), a file too large or an I/O error; `invalidImage` for a file that does not
    ///   start like a JPEG or PNG, before it is read.
    static func read(_ path: String, largest: Int = maxFileSize, tooLarge: String = "") throws -> FileBytes {
        // Non-blocking: opening a named pipe (a FIFO given as a photo) otherwise waits for a writer for ever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw VisionTasksError.fileNotFound(path: path) }
            throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw VisionTasksError.fileUnreadable(path: path, reason: "it is a directory")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw VisionTasksError.fileUnreadable(
                path: path, reason: "it is not a regular file (a pipe, a device or a socket)")
        }
        let size = Int(status.st_size)
        // The signature first: a large file that is no image costs no memory (an empty one is the decoder's to name).
        var head = [UInt8](repeating: 0, count: ImageFileFormat.signatureLength)
        let headCount = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        if size > 0, headCount >= 0,
            head.withUnsafeBytes({ ImageFileFormat(signature: UnsafeRawBufferPointer(rebasing: $0.prefix(headCount))) })
                == nil
        {
            throw VisionTasksError.invalidImage("\(path): \(ImageFileFormat.unrecognised)")
        }
        let most = min(largest, maxFileSize)
        guard size <= most else {
            throw VisionTasksError.fileUnreadable(
                path: path, reason: "\(size) bytes is too large for an image file (at most \(most)\(tooLarge))")
        }
        // Not cleared: only the bytes read are ever exposed (`count`).
        guard let base = ic_pixels_alloc_overwritten(max(size, 1)) else {
            throw VisionTasksError.fileUnreadable(path: path, reason: "cannot allocate \(size) bytes to read it")
        }
        let file = FileBytes(adopting: base, count: size) // freed on every path from here
        var done = 0
        while done < size {
            let n = Foundation.read(descriptor, base + done, size - done)
            if n == 0 { break } // the file shrank while being read: decode what is there
            if n < 0 {
                if errno == EINTR { continue }
                throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(errno)))
            }
            done += n
        }
        file.count = done
        return file
    }
}
