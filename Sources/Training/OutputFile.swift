import Foundation
import Synchronization
import VisionErrors

#if canImport(Glibc)
import Glibc
#endif

/// How a training writes the files a user names (the model, the report).
package enum OutputFile {
    /// Writes `data` to `path`, a link followed: into `<path>.partial-<pid>`, then renamed over it, when it is a
    /// regular file or missing, so it is never left half-written (a file replaced keeps its read, write and execute
    /// bits, not set-user-ID and the like); straight
    /// into it otherwise (`/dev/null`, a device, a pipe), which a rename would replace with a regular file (as root,
    /// `--report /dev/null` replaced the device).
    /// - Throws: `VisionTasksError.fileUnwritable` naming `path`, what the system said and `what` was written
    ///   ("the model").
    package static func write(_ data: Data, to path: String, what: String) throws {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        func failure(_ reason: String) -> VisionTasksError {
            .fileUnwritable(path: path, reason: "\(reason) (writing \(what))")
        }
        var info = stat()
        let exists = stat(target, &info) == 0
        guard !exists || info.st_mode & S_IFMT == S_IFREG else {
            let fd = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
            defer { close(fd) }
            if let error = writeAll(data, to: fd) { throw failure(error) }
            return
        }
        let partial = target + ".partial-\(getpid())"
        unfinished.withLock { _ = $0.insert(partial) }
        defer { unfinished.withLock { _ = $0.remove(partial) } }
        let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        var error = writeAll(data, to: fd)
        if error == nil, exists, fchmod(fd, info.st_mode & 0o777) != 0 { error = String(cString: strerror(errno)) }
        if close(fd) != 0, error == nil { error = String(cString: strerror(errno)) }
        if error == nil, rename(partial, target) != 0 { error = String(cString: strerror(errno)) }
        if let error {
            unlink(partial)
            throw failure(error)
        }
    }

    /// Removes the partial files of writes under way in this process: for a process about to end by a signal
    /// (Ctrl-C, `kill`), which left them beside their targets.
    package static func removePartialFiles() {
        unfinished.withLock { files in
            for file in files { unlink(file) }
            files.removeAll()
        }
    }

    /// The partial files of writes under way.
    private static let unfinished = Mutex<Set<String>>([])

    /// Writes all of `data` to `fd`; the system's reason when it cannot.
    private static func writeAll(_ data: Data, to fd: Int32) -> String? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return String(cString: strerror(errno)) }
                offset += written
            }
            return nil
        }
    }
}
