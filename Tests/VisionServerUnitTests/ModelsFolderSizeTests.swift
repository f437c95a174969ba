import Foundation
import Testing

@testable import VisionServer

/// What `--max-models-folder` counts: the disk the folder's files take, subfolders included. Their apparent sizes,
/// summed with `+`, crashed the server on a sparse file of Int.max bytes, and a 2-TB sparse file that takes no disk
/// would have refused every training.
@Suite struct ModelsFolderSizeTests {
    @Test func aFolderIsCountedByTheDiskItsFilesTake() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("models-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = GestureModelTraining.diskBytes(below: folder.path)
        try Data(count: 1_000_000).write(to: folder.appendingPathComponent("sub/model.task"))
        let sparse = try FileHandle(
            forWritingTo: {
                let url = folder.appendingPathComponent("sparse.bin")
                FileManager.default.createFile(atPath: url.path, contents: nil)
                return url
            }())
        try sparse.truncate(atOffset: 1 << 40) // 1 TB, no block written
        try sparse.close()
        let held = GestureModelTraining.diskBytes(below: folder.path) - empty
        #expect((1_000_000...1_200_000).contains(held), "\(held) bytes counted")
        #expect(GestureModelTraining.diskBytes(below: folder.path + "/missing") == 0)
    }
}
