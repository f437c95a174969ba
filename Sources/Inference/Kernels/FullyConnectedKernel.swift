import CKernels
import VisionErrors

/// FULLY_CONNECTED weights packed once at load: TFLite weights [outputs, inputs] and an optional bias.
package final class PackedFullyConnectedWeights: @unchecked Sendable {
    /// Input features per row.
    package let inputCount: Int
    /// Output features per row.
    package let outputCount: Int
    let storage: AlignedFloats

    /// Packs `weights` [outputCount, inputCount] and `bias` [outputCount] (nil = zero).
    /// Throws `unsupportedModel` when the sizes disagree.
    package convenience init(
        inputCount: Int, outputCount: Int, weights: UnsafeBufferPointer<Float>,
        bias: UnsafeBufferPointer<Float>?
    ) throws {
        self.init(
            inputCount: inputCount, outputCount: outputCount,
            storage: try Self.pack(inputCount, outputCount, weights, bias))
    }

    /// Packs arrays; see `init(inputCount:outputCount:weights:bias:)` with buffers.
    package convenience init(inputCount: Int, outputCount: Int, weights: [Float], bias: [Float]?) throws {
        self.init(
            inputCount: inputCount, outputCount: outputCount,
            storage: try withWeightBuffers(weights, bias) {
                try Self.pack(inputCount, outputCount, $0, $1)
            })
    }

    private init(inputCount: Int, outputCount: Int, storage: AlignedFloats) {
        self.inputCount = inputCount
        self.outputCount = outputCount
        self.storage = storage
    }

    private static func pack(
        _ inputs: Int, _ outputs: Int, _ weights: UnsafeBufferPointer<Float>,
        _ bias: UnsafeBufferPointer<Float>?
    ) throws -> AlignedFloats {
        guard inputs > 0, outputs > 0, inputs < 1 << 28, outputs < 1 << 28,
            inputs * (outputs + 16) < Int(Int32.max)
        else {
            throw VisionTasksError.unsupportedModel("FULLY_CONNECTED: unsupported size \(outputs)×\(inputs)")
        }
        let (i, o) = (Int32(inputs), Int32(outputs))
        return try AlignedFloats.packing(
            "FULLY_CONNECTED", weights: weights, weightCount: inputs * outputs, bias: bias, biasCount: outputs,
            packedCount: vt_fc_packed_count(i, o)
        ) { vt_fc_pack(i, o, $0, $1, $2) }
    }
}

/// FULLY_CONNECTED: `output` [rows, outputCount] = `input` [rows, inputCount] × Wᵀ + bias, clamped.
/// No allocation; rows are split across `threads`.
package func fullyConnected(
    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Int,
    weights: PackedFullyConnectedWeights, activation: ClampRange = .none,
    threads: KernelThreads = .single, isa: KernelISA = .best
) {
    threads.split(
        rows, granule: 6, minimumPerPart: 12,
        FullyConnectedJob(
            inputs: Int32(weights.inputCount), outputs: Int32(weights.outputCount),
            packed: UnsafePointer(weights.storage.pointer),
            io: JobIO(input: input, output: output, activation: activation, isa: isa.code)))
}

/// One FULLY_CONNECTED call's pointers; a part computes a range of rows.
private struct FullyConnectedJob: RangeJob {
    let inputs, outputs: Int32
    let packed: UnsafePointer<Float>
    let io: JobIO

    func run(thread: Int, begin: Int, end: Int) {
        vt_fc(inputs, outputs, io.input, packed, io.output, io.activation.min, io.activation.max, begin, end, io.isa)
    }
}
