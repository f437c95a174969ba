import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// docs/ARCHITECTURE.md names every module (each folder under Sources/), every task (each entry of
/// `describedTasks` and each task folder under Sources/VisionTasks) and every folder of tools/, each
/// in backquotes (`` `VideoIO` ``, `` `PoseLandmarker` ``, `` `tools/bench/` ``): a new one fails here
/// until the map describes it.
@Suite struct ArchitectureDocTests {
    /// The map's text.
    private static func map() throws -> String {
        try String(
            contentsOf: Fixture.repositoryRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
    }

    /// The folders directly in `relative` (from the repository root), hidden ones aside, sorted.
    private static func folders(in relative: String) throws -> [String] {
        let url = Fixture.repositoryRoot.appendingPathComponent(relative)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { name in
            var isFolder: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    /// The names of `names` the map does not write in backquotes.
    private static func unnamed(_ names: [String], written: (String) -> String = { "`\($0)`" }) throws -> [String] {
        let map = try map()
        return names.filter { !map.contains(written($0)) }
    }

    @Test func theMapNamesEveryModule() throws {
        let modules = try Self.folders(in: "Sources")
        try #require(modules.count >= 10, "found only \(modules) under Sources/")
        let missing = try Self.unnamed(modules)
        #expect(missing.isEmpty, "docs/ARCHITECTURE.md does not name the module(s) \(missing) (in backquotes)")
    }

    /// A task folder is one holding `<Folder>.swift`, the task's class (Sources/VisionTasks/PoseLandmarker).
    @Test func theMapNamesEveryTask() throws {
        let root = Fixture.repositoryRoot.appendingPathComponent("Sources/VisionTasks")
        let folders = try Self.folders(in: "Sources/VisionTasks").filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/\($0).swift").path)
        }
        let described = describedTasks.map { String(describing: $0) }
        try #require(!folders.isEmpty && !described.isEmpty, "found no task (folders \(folders), \(described))")
        let missing = try Self.unnamed(Array(Set(folders + described)).sorted())
        #expect(missing.isEmpty, "docs/ARCHITECTURE.md does not name the task(s) \(missing) (in backquotes)")
    }

    /// The folders tools/ has now (its rooms); tools/ itself must hold something.
    @Test func theMapNamesEveryToolsFolder() throws {
        let tools = Fixture.repositoryRoot.appendingPathComponent("tools").path
        try #require(!(try FileManager.default.contentsOfDirectory(atPath: tools)).isEmpty, "tools/ is empty")
        let missing = try Self.unnamed(try Self.folders(in: "tools")) { "`tools/\($0)/`" }
        #expect(missing.isEmpty, "docs/ARCHITECTURE.md does not name the tools folder(s) \(missing) (as `tools/NAME/`)")
    }

    /// Each room's README.md names every file in the room (in backquotes), so no tool is run by nothing unseen; and
    /// tools/ holds no file but its README.
    @Test func eachToolsRoomsReadmeNamesEveryFileInIt() throws {
        let tools = Fixture.repositoryRoot.appendingPathComponent("tools")
        let rooms = try Self.folders(in: "tools")
        try #require(rooms.count >= 6, "found only \(rooms) under tools/")
        let loose = try FileManager.default.contentsOfDirectory(atPath: tools.path).filter {
            !$0.hasPrefix(".") && !rooms.contains($0) && $0 != "README.md"
        }
        #expect(loose.isEmpty, "tools/ holds \(loose) beside its rooms")
        for room in rooms {
            let folder = tools.appendingPathComponent(room)
            let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                !$0.hasPrefix(".") && $0 != "README.md" && $0 != "__pycache__"
            }
            try #require(!files.isEmpty, "tools/\(room)/ holds no tool")
            let unnamed = files.filter { !readme.contains("`\($0)`") }.sorted()
            #expect(unnamed.isEmpty, "tools/\(room)/README.md does not name \(unnamed) (in backquotes)")
        }
    }
}
