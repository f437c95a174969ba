import Foundation
import VisionErrors

#if canImport(Glibc)
import Glibc
#endif

/// How a training writes the files a user names (the model, the report).
package enum OutputFile {
    /// Writes `data` to `path`, a link followed: through a temporary file and a rename when it is a regular file or
    /// missing, so it is never left half-written; straight into it otherwise (`/dev/null`, a device, a pipe), which a
    /// rename would replace with a regular file (as root, `--report /dev/null` replaced the device).
    /// - Throws: `VisionTasksError.fileUnwritable` naming `path`, what the system said and `what` was written
    ///   ("the model").
    package static func write(_ data: Data, to path: String, what: String) throws {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        func failure(_ reason: String) -> VisionTasksError {
            .fileUnwritable(path: path, reason: "\(reason) (writing \(what))")
        }
        var info = stat()
        guard stat(target.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else {
            do {
                return try data.write(to: target, options: .atomic)
            } catch {
                throw failure(error.localizedDescription)
            }
        }
        let fd = open(target.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(fd) }
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw failure(String(cString: strerror(errno))) }
                offset += written
            }
        }
    }
}
