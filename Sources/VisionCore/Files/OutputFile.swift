import Foundation
import Synchronization
import VisionErrors

#if canImport(Glibc)
import Glibc
#endif

/// How VisionTasks writes the files a user names (a trained model, a report, an annotated picture, a mask, an MP4):
/// into `<target>.partial-<pid>`, renamed over the target once whole, so that no reader sees half a file at the path
/// and a run ended by a signal leaves none (`removePartialFiles`). One registry holds every partial file under way.
package enum OutputFile {
    /// Writes `data` to `path`, a link followed (`target(of:)`): into its partial file, then renamed over it, when it
    /// is a regular file or missing, so it is never left half-written (a file replaced keeps its read, write and
    /// execute bits, not set-user-ID and the like); straight into it otherwise (`/dev/null`, a device, a pipe), which
    /// a rename would replace with a regular file (as root, `--report /dev/null` replaced the device).
    /// - Throws: `VisionTasksError.fileUnwritable` naming `path`, what the system said and `what` was written
    ///   ("the model"), when given.
    package static func write(_ data: Data, to path: String, what: String? = nil) throws {
        let target = target(of: path)
        func failure(_ reason: String) -> VisionTasksError {
            .fileUnwritable(path: path, reason: what.map { "\(reason) (writing \($0))" } ?? reason)
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
        let partial = partialPath(for: path).file
        beginPartial(partial)
        defer { endPartial(partial) }
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

    /// Where `path`'s file is written until it is whole, `<target>.partial-<pid>`, and `target`, the file `path` is or
    /// links to (`target(of:)`).
    package static func partialPath(for path: String) -> (file: String, target: String) {
        let target = target(of: path)
        return (target + ".partial-\(getpid())", target)
    }

    /// The file `path` names, as the kernel finds it: its folder by `realpath` (links followed before any `..`, which
    /// Foundation's `resolvingSymlinksInPath` removes as text first), then its last part followed while it is a link,
    /// one whose target does not exist yet included; at most 40 links, as the kernel.
    package static func target(of path: String) -> String {
        // Made absolute as text: `URL(fileURLWithPath:)` would drop a `..` before the link it follows is looked at.
        var current = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        for _ in 0..<40 {
            let name = (current as NSString).lastPathComponent
            if name == "." || name == ".." || name == "/" {
                return URL(fileURLWithPath: current).standardizedFileURL.path
            }
            var folder = (current as NSString).deletingLastPathComponent
            if let real = realpath(folder, nil) {
                folder = String(cString: real)
                free(real)
            }
            current = (folder as NSString).appendingPathComponent(name)
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current = target.hasPrefix("/") ? target : (folder as NSString).appendingPathComponent(target)
        }
        return current
    }

    /// Records `file` as a partial file under way, written by the child process `writer` when one writes it (an
    /// ffmpeg), until `endPartial`.
    package static func beginPartial(_ file: String, writtenBy writer: Int32? = nil) {
        unfinished.withLock { _ = $0.updateValue(writer, forKey: file) }
    }

    /// Forgets `file`: renamed into place or removed by its writer.
    package static func endPartial(_ file: String) {
        unfinished.withLock { _ = $0.removeValue(forKey: file) }
    }

    /// Kills the writer of every partial file under way in this process and removes the file: for a process about to
    /// end by a signal (Ctrl-C, `kill`, a closed pipe), which left them beside their targets (an ffmpeg left running
    /// would finish its file, and `+faststart` writes it again by its name).
    package static func removePartialFiles() {
        unfinished.withLock { files in
            for (file, writer) in files {
                if let writer { kill(writer, SIGKILL) }
                unlink(file)
            }
            files.removeAll()
        }
    }

    /// The partial files under way, with the child process writing each, if any.
    private static let unfinished = Mutex<[String: Int32?]>([:])

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
