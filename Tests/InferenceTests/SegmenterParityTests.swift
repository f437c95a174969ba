import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import Inference

/// The manifest written by tools/references/make_segmenter_op_refs.py (Tests/Fixtures/references/engine/segmenter/).
struct SegmenterManifest: Decodable {
    struct Tensor: Decodable {
        let file: String
        let shape: [Int]
    }
    /// A crafted one-operator model with LiteRT's output.
    struct Op: Decodable {
        let name: String
        let model: String
        let inputs: [Tensor]
        let output: Tensor
    }
    /// A crafted Convolution2DTransposeBias model with MediaPipe's mask of a picture.
    struct Custom: Decodable {
        let name: String
        let model: String
        let picture: String
        let size: [Int]
        let mask: String
    }
    /// A selfie model (under models/) with MediaPipe's mask of rows of a picture, stored as uint16.
    struct Model: Decodable {
        let name: String
        let path: [String]
        let picture: String
        let rows: [Int]
        let size: [Int]
        let mask: String
    }
    /// A model the engine refuses, with a piece of the expected message.
    struct Refused: Decodable {
        let name: String
        let model: String
        let error: String
    }
    let ops: [Op]
    let custom: [Custom]
    let models: [Model]
    let refused: [Refused]

    static func load() throws -> SegmenterManifest {
        try Fixture.decode(SegmenterManifest.self, "engine/segmenter/manifest.json")
    }

    static func url(_ file: String) -> URL { Fixtures.engine("segmenter/\(file)") }

    /// RGB bytes of a picture as the models read them: value / 255, rows [first, end) of a `width`-wide picture.
    static func picture(_ file: String, width: Int, rows: Range<Int>) throws -> [Float] {
        let bytes = try Data(contentsOf: url(file))
        return bytes[(rows.lowerBound * width * 3)..<(rows.upperBound * width * 3)].map { Float($0) / 255 }
    }
}

/// The segmenters' operators and models against their references: crafted operator models against
/// LiteRT 2.3.0, crafted Convolution2DTransposeBias models and both selfie models against MediaPipe
/// 1.2.2's ImageSegmenter confidence masks. Tolerance: max|ours − ref| ≤ 1e-4 × max(1, max|ref|), plus
/// 0.5 / 65535 for the models' masks stored as uint16; 2 threads give 1 thread's bits.
@Suite struct SegmenterParityTests {
    static func check(_ ours: [Float], _ expected: [Float], quantum: Float = 0, _ what: String) {
        #expect(ours.count == expected.count, "\(what): \(ours.count) values, expected \(expected.count)")
        let maxRef = expected.map(abs).max() ?? 0
        let err = zip(ours, expected).map { abs($0 - $1) }.max() ?? .infinity
        let tolerance = 1e-4 * max(1, maxRef) + quantum
        print("segmenter parity \(what): max|ours − ref| = \(err) (tolerance \(tolerance))")
        #expect(err <= tolerance, "\(what): error \(err) > \(tolerance)")
    }

    /// Runs a model file at 1 and 2 threads, checks both give the same bits, returns the output.
    static func run(_ data: Data, _ inputs: [[Float]], _ what: String) throws -> [Float] {
        var outputs: [[Float]] = []
        for threads in [1, 2] {
            let interpreter = try Interpreter(modelData: data, numThreads: threads)
            for (i, input) in inputs.enumerated() { try interpreter.setInput(i, input) }
            interpreter.invoke()
            outputs.append(interpreter.output(0))
        }
        #expect(outputs[0] == outputs[1], "\(what): 2 threads differ from 1")
        return outputs[0]
    }

    @Test func operatorsMatchLiteRT() throws {
        let manifest = try SegmenterManifest.load()
        #expect(manifest.ops.count == 8)
        for op in manifest.ops {
            let inputs = try op.inputs.map { try Fixtures.floats(SegmenterManifest.url($0.file)) }
            let ours = try Self.run(try Data(contentsOf: SegmenterManifest.url(op.model)), inputs, op.name)
            Self.check(ours, try Fixtures.floats(SegmenterManifest.url(op.output.file)), op.name)
        }
    }

    @Test func transposeConvolutionMatchesMediaPipe() throws {
        let manifest = try SegmenterManifest.load()
        #expect(manifest.custom.count == 4)
        for c in manifest.custom {
            let input = try SegmenterManifest.picture(c.picture, width: c.size[1], rows: 0..<c.size[0])
            let ours = try Self.run(try Data(contentsOf: SegmenterManifest.url(c.model)), [input], c.name)
            Self.check(ours, try Fixtures.floats(SegmenterManifest.url(c.mask)), c.name)
        }
    }

    @Test(arguments: ["selfie_segmenter", "selfie_segmentation_landscape"])
    func modelMatchesMediaPipe(name: String) throws {
        let manifest = try SegmenterManifest.load()
        let model = try #require(manifest.models.first { $0.name == name })
        let input = try SegmenterManifest.picture(
            model.picture, width: model.size[1], rows: model.rows[0]..<model.rows[1])
        let data = try Fixtures.model(model.path)
        #expect(try Interpreter(modelData: data).inputs[0].shape == [1, model.size[0], model.size[1], 3])
        let ours = try Self.run(data, [input], name)
        let stored = try Data(contentsOf: SegmenterManifest.url(model.mask))
        let expected = stride(from: 0, to: stored.count, by: 2).map {
            Float(UInt16(stored[$0]) | UInt16(stored[$0 + 1]) << 8) / 65535
        }
        Self.check(ours, expected, quantum: 0.5 / 65535, name)
    }

    @Test func refusedModelsFailClearly() throws {
        let manifest = try SegmenterManifest.load()
        #expect(manifest.refused.count == 3)
        for r in manifest.refused {
            do {
                _ = try Interpreter(modelData: try Data(contentsOf: SegmenterManifest.url(r.model)))
                Issue.record("\(r.name) was accepted")
            } catch let error as VisionTasksError {
                #expect("\(error)".contains(r.error), "\(r.name): \(error)")
                #expect("\(error)".contains("operator CUSTOM (index 0) in subgraph 0"), "\(r.name): \(error)")
            }
        }
    }
}
