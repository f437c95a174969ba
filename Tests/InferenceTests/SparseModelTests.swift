import FixtureSupport
import Foundation
import TFLite
import Testing
import VisionErrors

@testable import Inference

/// Crafted models computing x + DENSIFY(sparse constant) (tools/references/make_tflite_fixtures.py), one per sparse
/// layout, against LiteRT 2.3.0's output on x = 0 (the dense constant itself); and the broken copies,
/// which must fail to load with a message naming the problem.
@Suite struct SparseModelTests {
    struct Record: Decodable {
        let name: String
        let valid: Bool
        let shape: [Int]
        let output: [Float]?
    }

    static func records() throws -> [Record] {
        struct File: Decodable { let models: [Record] }
        return try Fixture.decode(File.self, "tflite/sparse.json").models
    }

    static func model(_ name: String) throws -> Data {
        try Data(contentsOf: Fixture.references.appendingPathComponent("tflite/crafted/\(name).tflite"))
    }

    @Test func validLayoutsMatchLiteRT() throws {
        // DENSIFY and DEQUANTIZE only move and widen values: exact (tolerance 0).
        let valid = try Self.records().filter(\.valid)
        #expect(valid.count == 7)
        for record in valid {
            let interpreter = try Interpreter(modelData: try Self.model(record.name))
            try interpreter.setInput(0, [Float](repeating: 0, count: record.shape.reduce(1, *)))
            interpreter.invoke()
            #expect(interpreter.output(0) == record.output, "\(record.name)")
        }
    }

    @Test func densifyFoldsIntoAConstant() throws {
        // Nothing sparse runs: DENSIFY and DEQUANTIZE fold at load, only the ADD is left.
        let model = try TFLiteModel(data: try Self.model("sparse_csr_uint8_fp16"))
        var graph = try GraphLoader.load(model)
        #expect(graph.nodes.map(\.opName) == ["DENSIFY", "DEQUANTIZE", "ADD"])
        try PlanPasses.fold(&graph)
        #expect(graph.nodes.map(\.opName) == ["ADD"])
    }

    @Test func brokenLayoutsGiveClearErrors() throws {
        let expected = [
            "sparse_index_out_of_range": "index 12 at",
            "sparse_segments_decrease": "segments decrease",
            "sparse_segment_past_indices": "segment 1 is 2147483647, outside 0...34",
            "sparse_huge_dense_shape": "more than \(TFLiteModel.Sparsity.maxDenseElements) elements",
            "sparse_traversal_not_permutation": "traversal order [0, 0] is not a permutation",
            "sparse_block_does_not_divide": "block size 5 does not divide dimension 1 of size 12",
            "sparse_too_few_values": "the metadata places 34 values, the buffer stores 33",
        ]
        let broken = try Self.records().filter { !$0.valid }
        #expect(broken.map(\.name).sorted() == expected.keys.sorted())
        for record in broken {
            let words = try #require(expected[record.name])
            #expect {
                _ = try Interpreter(modelData: try Self.model(record.name))
            } throws: { error in
                guard case VisionTasksError.invalidModel(let message) = error else { return false }
                return message.contains(words)
            }
        }
    }
}
