import Foundation

/// Which file a path names, links followed: its device and inode. Two paths name the same file when theirs are equal
/// (the folder walk takes each folder once by it; an output is checked against the inputs by it).
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file `path` names; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// The identity of the folder `path` names; nil when it names none.
    init?(folder path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}
