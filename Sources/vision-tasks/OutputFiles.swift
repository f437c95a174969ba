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

    /// The error for `path`, given to `option`, that the system refused with `code`.
    static func cannotWrite(_ path: String, option: String, _ code: Int32) -> VisionTasksError {
        .invalidOption(name: option, reason: "cannot write \(path): \(String(cString: strerror(code)))")
    }
}
