import Foundation
import Testing
import VisionErrors

@testable import TFLite

/// Small hand-built models (tools/references/make_tflite_fixtures.py): the reader accepts the one LiteRT runs and
/// rejects, with a message naming the problem, each copy LiteRT refuses.
@Suite struct CraftedModelTests {
    struct Record: Decodable {
        let name: String
        let litertLoads: Bool
        let litertError: String?
    }

    static func crafted(_ name: String) throws -> Data {
        try TestSupport.reference("tflite/crafted/\(name).tflite")
    }

    /// The message of the `VisionTasksError.invalidModel` that parsing `data` throws, or nil if it parses.
    static func parseError(_ data: Data) throws -> String? {
        do {
            _ = try TFLiteModel(data: data, name: "crafted")
            return nil
        } catch VisionTasksError.invalidModel(let message) {
            return message
        }
    }

    @Test func validModelReads() throws {
        let model = try TFLiteModel(data: try Self.crafted("valid"))
        #expect(model.description == "VisionTasks crafted test model")
        let graph = model.subgraphs[0]
        #expect(graph.name == "main")
        #expect(graph.operators.map(\.opcode) == [.conv2D, .add, .reshape, .gelu])
        #expect(model.operatorCodes.map(\.builtinCode.name) == ["CONV_2D", "ADD", "RESHAPE", "GELU"])
        #expect(
            graph.operators[0].options
                == .conv2D(
                    Conv2DOptions(
                        padding: .same, strideWidth: 1, strideHeight: 1, dilationWidth: 1, dilationHeight: 1,
                        activation: .relu)))
        #expect(graph.operators[1].options == .add(activation: .relu6))
        #expect(graph.operators[1].options.fusedActivation == .relu6)
        #expect(graph.operators[2].options == .reshape(newShape: [1, 32]))
        #expect(graph.operators[3].options == .none)
        let filter = graph.tensors[1]
        #expect(filter.shape == [2, 3, 3, 1] && filter.type == .float32)
        #expect(model.constantData(of: filter)?.count == 72)
        let shape = graph.tensors[7]
        let shapeBytes = try #require(model.constantData(of: shape))
        let values = shapeBytes.withUnsafeBytes { raw in
            (0..<2).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self) }
        }
        #expect(values == [1, 32])
        #expect(model.constantData(of: graph.tensors[0]) == nil)
        #expect(model.modelMetadata == nil && model.associatedFiles.isEmpty)
    }

    @Test func brokenModelsAreRejectedAsLiteRTRejectsThem() throws {
        struct File: Decodable { let models: [Record] }
        let records = try JSONDecoder().decode(File.self, from: try TestSupport.reference("tflite/crafted.json")).models
        #expect(records.count == 8)
        let expectedWords = [
            "operator_input_out_of_range": "input 1 is tensor 99",
            "opcode_index_out_of_range": "operator code 9",
            "buffer_index_out_of_range": "buffer 40",
            "graph_output_out_of_range": "output 0 is tensor 12",
            "constant_size_mismatch": "needs 8 bytes, but its buffer 3 has 4",
            "external_buffer_past_end": "buffers[2] refers to bytes",
        ]
        for record in records {
            let message = try Self.parseError(try Self.crafted(record.name))
            #expect(
                (message == nil) == record.litertLoads,
                "\(record.name): ours \(message ?? "loads"), LiteRT \(record.litertError ?? "loads")")
            if let words = expectedWords[record.name] {
                #expect(message?.contains(words) == true, "\(record.name): \(message ?? "no error")")
            }
        }
    }

    @Test func buffersStoredAfterTheFlatBufferRead() throws {
        // The filter's 72 bytes live after the FlatBuffer, located by Buffer.offset/size.
        let external = try TFLiteModel(data: try Self.crafted("valid_external_buffer"))
        let inline = try TFLiteModel(data: try Self.crafted("valid"))
        let filter = external.subgraphs[0].tensors[1]
        let bytes = try #require(external.constantData(of: filter))
        #expect(bytes.count == 72)
        #expect(external.buffers[2].range.upperBound == external.data.count)
        #expect(Array(bytes) == inline.constantData(of: inline.subgraphs[0].tensors[1]).map(Array.init))
    }

    @Test func sparseConstantsAreRead() throws {
        // An fp16 [8, 1, 1, 32] constant with a CSR last level of uint8 index vectors: its buffer holds
        // only the stored values (2 bytes each), which the metadata places in the dense tensor.
        let model = try TFLiteModel(data: try Self.crafted("sparse_csr_uint8_fp16"))
        let tensor = model.subgraphs[0].tensors[1]
        let sparsity = try #require(tensor.sparsity)
        #expect(sparsity.traversalOrder == [0, 1, 2, 3] && sparsity.blockMap.isEmpty)
        #expect(sparsity.dimensions.prefix(3) == [.dense(size: 8), .dense(size: 1), .dense(size: 1)])
        guard case .sparseCSR(let segments, let indices) = sparsity.dimensions[3] else {
            Issue.record("level 3 is not CSR: \(sparsity.dimensions[3])")
            return
        }
        #expect(segments.count == 9 && segments.first == 0 && segments.last == indices.count)
        let positions = try sparsity.densePositions(shape: tensor.shape, storedValues: 72)
        #expect(model.constantData(of: tensor)?.count == 2 * positions.count)
        #expect(positions == positions.sorted() && positions.allSatisfy { (0..<256).contains($0) })
        #expect(!model.subgraphs[0].tensors[0].isSparse)
    }
}
