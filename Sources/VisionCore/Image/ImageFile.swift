import Foundation
import TFLite

/// Reads image files with plain POSIX calls: the descriptor is closed and the buffer released on every
/// path, errors name the path (Foundation's `Data(contentsOf:)` leaked 4 KB per truncated file).
enum ImageFile {
    /// The largest file read (2 GiB - 1): the decoders take no more.
    static let maxFileSize = Int(Int32.max)

    /// The bytes of the file at `path`.
    /// - Throws: `fileNotFound`, or `fileUnreadable` for a directory, a file too large or an I/O error.
    static func read(_ path: String) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
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
        let size = Int(status.st_size)
        guard size <= maxFileSize else {
            throw VisionTasksError.fileUnreadable(path: path, reason: "\(size) bytes is too large for an image file (at most \(maxFileSize))")
        }
        var data = Data(count: size)
        let count = try data.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < size {
                let n = Foundation.read(descriptor, base + done, size - done)
                if n == 0 { break }   // the file shrank while being read: decode what is there
                if n < 0 {
                    if errno == EINTR { continue }
                    throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(errno)))
                }
                done += n
            }
            return done
        }
        return count == size ? data : data.prefix(count)
    }
}
