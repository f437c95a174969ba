import Foundation
import Testing

@testable import FuzzTargets

/// Replays the committed fuzz inputs (Tests/Fixtures/fuzz/<target>/: crafted seeds and every input a fuzz
/// run found) through the fuzz targets: each must end in an answer or a thrown error, never a trap, and
/// inputs named "ok-..." must be accepted (so a target that refuses everything fails here).
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The committed inputs of `target`, by file name; throws when the folder cannot be read.
    static func inputs(_ target: String) throws -> [(name: String, data: Data)] {
        let folder = root.appendingPathComponent("Tests/Fixtures/fuzz/\(target)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }

    @Test func everyTargetHasCommittedInputs() throws {
        #expect(FuzzTargets.all.map(\.name) == ["tflite", "bundle", "image", "geometry", "task", "sparsity"])
        for target in FuzzTargets.all {
            #expect(try Self.inputs(target.name).count >= 2, "\(target.name)")
        }
    }

    @Test(arguments: ["tflite", "bundle", "image", "geometry", "sparsity"])
    func committedInputsRunWithoutTrapping(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        for input in try Self.inputs(name) {
            let accepted = target.run(input.data)
            if input.name.hasPrefix("ok-") { #expect(accepted, "\(name)/\(input.name)") }
        }
    }

    @Test
    func taskInputsRunWithoutTrapping() throws {
        let target = try #require(FuzzTargets.named("task"))
        for input in try Self.inputs("task") {
            _ = target.run(input.data)
        }
        // A real entry, unchanged, gives a working task: the target is not refusing everything. (One slot,
        // the hand landmarker's, as the quickest: the fuzz runs start from every slot's seed.)
        let assets = try #require(TaskAssets.shared)
        #expect(target.run(try assets.seed(4)))
    }
}
