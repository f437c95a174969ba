import Foundation
import VideoIO
import VisionCore
import VisionTasks

/// The check every output path of the tool passes before any work, so that a run does not fail after its
/// first frames or a whole training, and the error that names the option, the file and what the system said.
enum OutputFiles {
    /// Fails when `path` cannot be created or written: the file is opened for writing as the run will open it
    /// (created when missing, then removed again), since permission bits say nothing to root and a folder such
    /// as /proc takes no new file whatever its bits say. A folder, a missing folder or a refusal names `option`.
    /// A pipe, device or socket that exists is only asked for write permission: opening a pipe waits for a reader,
    /// and closing it again would end that reader's input.
    static func checkWritable(_ path: String, option: String) throws {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            guard access(path, W_OK) == 0 else { throw cannotWrite(path, option: option, errno) }
            return
        }
        // The file the open makes, which a link to a file yet to be made points to: it is removed again, not the link.
        let made = OutputFile.target(of: path)
        let existed = FileManager.default.fileExists(atPath: made)
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw cannotWrite(path, option: option, errno) }
        close(fd)
        if !existed { unlink(made) }
    }

    /// Makes the folder `path` and those above it where missing; nil when it is there, else why not, in the system's
    /// words and naming the part that failed (Foundation's read "The operation could not be completed").
    static func makeFolder(_ path: String) -> String? {
        guard !path.isEmpty else { return "the folder's name is empty" }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                return "cannot create the folder \(prefix): \(String(cString: strerror(errno)))"
            }
            prefix += "/"
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            return "\(path) exists and is not a folder"
        }
        return nil
    }

    /// Fails when `path`, a folder `option` writes files into, is a file, or cannot take new files (it, or the
    /// nearest folder above it that exists, when it is yet to be made): checked before the run, not at every frame.
    static func checkFolder(_ path: String, option: String) throws {
        var folder = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            folder = folder.deletingLastPathComponent()
        }
        guard isFolder.boolValue else {
            let reason =
                folder.path == URL(fileURLWithPath: path).path
                ? "\(path) is a file, not a folder" : "\(path) cannot be made: \(folder.path) is a file, not a folder"
            throw VisionTasksError.invalidOption(name: option, reason: reason)
        }
        guard access(folder.path, W_OK) == 0 else { throw cannotWrite(path, option: option, errno) }
    }

    /// `checkWritable` for an MP4 `option` writes, which must be a regular file or none yet
    /// (`VideoWriter.destinationProblem`).
    static func checkVideoFile(_ path: String, option: String) throws {
        if let problem = VideoWriter.destinationProblem(path) {
            throw VisionTasksError.invalidOption(name: option, reason: problem)
        }
        try checkWritable(path, option: option)
    }

    /// Fails when `path`, given to `option`, is the same file as one of `inputs` (a link or another spelling
    /// included): the run would write over what it reads. A file yet to be made is none of them.
    static func checkNotAnInput(_ path: String, option: String, inputs: [String]) throws {
        try checkNotAnInput(path, option: option, inputs: InputFiles(inputs))
    }

    /// `checkNotAnInput(_:option:inputs:)` against inputs whose identities are taken once (many outputs).
    static func checkNotAnInput(_ path: String, option: String, inputs: InputFiles) throws {
        guard let identity = FileIdentity(path: path), let input = inputs.byIdentity[identity] else { return }
        throw VisionTasksError.invalidOption(
            name: option, reason: "\(path) is the input \(input): the run would write over what it reads")
    }

    /// Whether `a` and `b` name one file: the same file when both exist (a link or another spelling included), else
    /// the same absolute path once links in it are resolved (a link to a file yet to be made too).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        if let first = FileIdentity(path: a), let second = FileIdentity(path: b) { return first == second }
        return OutputFile.target(of: a) == OutputFile.target(of: b)
    }

    /// The input files that exist, by identity (device and inode), so that an output can be checked against all.
    struct InputFiles {
        let byIdentity: [FileIdentity: String]

        init(_ paths: [String]) {
            var byIdentity: [FileIdentity: String] = [:]
            for path in paths { if let identity = FileIdentity(path: path) { byIdentity[identity] = path } }
            self.byIdentity = byIdentity
        }
    }

    /// Writes `data` to `path` whole (`OutputFile.write`), given to `option`.
    /// - Throws: `VisionTasksError.invalidOption` naming `option`, `path` and what the system said when it cannot.
    static func write(_ data: Data, to path: String, option: String) throws {
        do {
            try OutputFile.write(data, to: path)
        } catch VisionTasksError.fileUnwritable(_, let reason) {
            throw VisionTasksError.invalidOption(name: option, reason: "cannot write \(path): \(reason)")
        }
    }

    /// The error for `path`, given to `option`, that the system refused with `code`.
    static func cannotWrite(_ path: String, option: String, _ code: Int32) -> VisionTasksError {
        .invalidOption(name: option, reason: "cannot write \(path): \(String(cString: strerror(code)))")
    }
}
