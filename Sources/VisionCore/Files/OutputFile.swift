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
    /// execute bits, not set-user-ID and the like). Written into instead: a file that is no regular one (`/dev/null`, a
    /// device, a pipe), which a rename would replace with a regular file (as root, `--report /dev/null` replaced the
    /// device), and one reached through a process's descriptor (`/dev/stdout`, `/proc/self/fd/N`), at its end: a
    /// rename would take the name from a redirected output, with the lines before it.
    /// - Throws: `VisionTasksError.fileUnwritable` naming `path`, what the system said and `what` was written
    ///   ("the model"), when given; a path the kernel cannot follow (a loop of links) is one.
    package static func write(_ data: Data, to path: String, what: String? = nil) throws {
        func failure(_ reason: String) -> VisionTasksError {
            .fileUnwritable(path: path, reason: what.map { "\(reason) (writing \($0))" } ?? reason)
        }
        // The kernel's answer about `path` (a descriptor's link is not a path to follow as text).
        var info = stat()
        let exists = stat(path, &info) == 0
        guard exists || errno == ENOENT else { throw failure(String(cString: strerror(errno))) }
        let regular = info.st_mode & S_IFMT == S_IFREG
        let target = target(of: path)
        if exists, !regular || isInProc(target) {
            let fd = open(path, O_WRONLY | (regular ? O_APPEND : O_TRUNC) | O_CLOEXEC)
            guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
            defer { close(fd) }
            if let error = writeAll(data, to: fd) { throw failure(error) }
            return
        }
        let partial = reservePartial(of: target)
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

    /// The file `path` names, as the kernel finds it: its folder by `realpath` (links followed before any `..`, which
    /// Foundation's `resolvingSymlinksInPath` removes as text first), then its last part followed while it is a link,
    /// one whose target does not exist yet included; at most 40 links, as the kernel. A link in /proc (a process's
    /// descriptor, where `/dev/stdout` leads) is not followed: its text names no file ("pipe:[N]"), or one the process
    /// holds open.
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
            if isInProc(folder) { return current }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current = target.hasPrefix("/") ? target : (folder as NSString).appendingPathComponent(target)
        }
        return current
    }

    /// Reserves the partial file of a write to `path` and records it as under way until `endPartial`: its name,
    /// `<target>.partial-<pid>` (`-2`, `-3`, ... after it while another write in this process has that one), and
    /// `target`, the file `path` is or links to (`target(of:)`).
    package static func beginPartial(for path: String) -> (file: String, target: String) {
        let target = target(of: path)
        return (reservePartial(of: target), target)
    }

    /// Whether `path` (absolute, links resolved: a `target(of:)` answer) lies in /proc: a process's descriptor or
    /// file, which a write goes into and no partial file can stand beside.
    package static func isInProc(_ path: String) -> Bool {
        path == "/proc" || path.hasPrefix("/proc/")
    }

    /// `beginPartial(for:)` of a path whose target is known.
    private static func reservePartial(of target: String) -> String {
        unfinished.withLock { files in
            var file = target + ".partial-\(getpid())"
            var copy = 1
            while files[file] != nil {
                copy += 1
                file = target + ".partial-\(getpid())-\(copy)"
            }
            files.updateValue(nil, forKey: file)
            return file
        }
    }

    /// Records `writer`, a child process (an ffmpeg), as the writer of the partial file `file`: it is killed before
    /// the file is removed (`removePartialFiles`).
    package static func setWriter(_ writer: Int32, of file: String) {
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
