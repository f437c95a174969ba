import Foundation
import VisionTasks

/// The check every output path of the tool passes before any work, so that a run does not fail after its
/// first frames or a whole training, and the error that names the option, the file and what the system said.
enum OutputFiles {
    /// Fails when `path` cannot be created or written: the file is opened for writing as the run will open it
    /// (created when missing, then removed again), since permission bits say nothing to root and a folder such
    /// as /proc takes no new file whatever its bits say. A folder, a missing folder or a refusal names `option`.
    static func checkWritable(_ path: String, option: String) throws {
        let existed = FileManager.default.fileExists(atPath: path)
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw cannotWrite(path, option: option, errno) }
        close(fd)
        if !existed { unlink(path) }
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

    /// The input files that exist, by identity (device and inode), so that an output can be checked against all.
    struct InputFiles {
        let byIdentity: [FileIdentity: String]

        init(_ paths: [String]) {
            var byIdentity: [FileIdentity: String] = [:]
            for path in paths { if let identity = FileIdentity(path: path) { byIdentity[identity] = path } }
            self.byIdentity = byIdentity
        }
    }

    /// The error for `path`, given to `option`, that the system refused with `code`.
    static func cannotWrite(_ path: String, option: String, _ code: Int32) -> VisionTasksError {
        .invalidOption(name: option, reason: "cannot write \(path): \(String(cString: strerror(code)))")
    }
}
