import FixtureSupport
import Foundation
import Inference
import TFLite
import Testing
import VisionErrors

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

    /// The hostile models a review found (2026-11-29), each refused at load with an error naming its problem: before,
    /// the first trapped or wrote past its output, the next ones read out of bounds, trapped or asked for 51 GB, and
    /// the last two took seconds and hundreds of MB (or, at their full size, GBs) to parse.
    @Test func reviewedHostileModelsAreRefusedNamingTheProblem() throws {
        let folder = Self.root.appendingPathComponent("Tests/Fixtures/fuzz")
        let cases = [
            ("tflite/fully-connected-keep-dims-wider-input.tflite", "must end in the weights' depth 3 (keep_num_dims)"),
            ("tflite/resize-empty-input.tflite", "input must be a non-empty NHWC tensor, got [1, 0, 1048576, 1024]"),
            ("tflite/resize-zero-batch-huge-size.tflite", "input must be a non-empty NHWC tensor, got [0, 2, 2, 1]"),
            ("tflite/concatenation-of-scalars.tflite", "axis 0 out of range for rank 0"),
            ("tflite/unpack-scalar.tflite", "axis 0 out of range for rank 0"),
            ("tflite/gather-scalar.tflite", "axis 0 out of range for rank 0"),
            ("tflite/mean-scalar.tflite", "axis 0 out of range for rank 0"),
            ("tflite/dequantize-zero-point-int64-min.tflite", "zero points [-9223372036854775808] are not Int8 values"),
            ("tflite/aliased-tables-12000x12000.tflite", "too many aliased elements or tables"),
            ("bundle/nested-entries-sharing-data.task", "entries \"n00.task\" and \"n01.task\" share their data"),
        ]
        for (file, reason) in cases {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            // CPU time: the bound holds the parse's work, which a loaded machine (ASan beside a build: 3.5 s of wall
            // time) does not change.
            let started = CPUTime.threadSeconds()
            #expect(
                "\(file)",
                performing: {
                    if file.hasSuffix(".task") {
                        _ = try ModelBundle(data: data, name: file).allFilePaths()
                    } else {
                        _ = try Interpreter(model: try TFLiteModel(data: data, name: file), numThreads: 1)
                    }
                }, throws: { "\($0)".contains(reason) })
            let spent = CPUTime.threadSeconds() - started
            #expect(spent < 2, "\(file) took \(spent) s of CPU")
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
