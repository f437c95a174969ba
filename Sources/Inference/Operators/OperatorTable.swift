// The one list of the operators the engine runs. A new operator is a new file in this folder
// (a `GraphOperation` with its loaders, shape rules and kernel binding) and a line here.

import TFLite
import VisionErrors

/// Every operation type the engine implements, and the loader of each TFLite builtin code they cover.
enum OperatorTable {
    /// The operation types, one per file of Operators/.
    static let operations: [any GraphOperation.Type] = [
        BinaryOperator.self, UnaryOperator.self, SoftmaxOperator.self,
        Conv2DOperator.self, DepthwiseConv2DOperator.self, FullyConnectedOperator.self, Pool2DOperator.self,
        ReshapeOperator.self, TransposeOperator.self, PadOperator.self, ConcatenationOperator.self,
        StridedSliceOperator.self, GatherOperator.self, UnpackOperator.self,
        ReduceOperator.self, ResizeBilinearOperator.self, DequantizeOperator.self, DensifyOperator.self,
        DepthToSpaceOperator.self, TransposeConvBiasOperator.self,
    ]

    /// Builtin code → its loader (a code claimed twice keeps its first operation's loader); CUSTOM,
    /// when some operation implements a custom operator, dispatches on the custom code.
    static let loaders: [BuiltinOperator: OperatorLoader] = {
        var table: [BuiltinOperator: OperatorLoader] = operations.reduce(into: [:]) { table, operation in
            table.merge(operation.loaders) { first, _ in first }
        }
        if !customLoaders.isEmpty { table[.custom] = loadCustom }
        return table
    }()

    /// Custom code → its loader (a code claimed twice keeps its first operation's loader).
    static let customLoaders: [String: OperatorLoader] = operations.reduce(into: [:]) { table, operation in
        table.merge(operation.customLoaders) { first, _ in first }
    }

    /// The operation of a CUSTOM operator, by its custom code; `unsupportedModel` for codes the engine lacks.
    private static func loadCustom(_ source: OperatorSource) throws -> any GraphOperation {
        let code = source.op.customCode ?? ""
        guard let loader = customLoaders[code] else {
            throw VisionTasksError.unsupportedModel("\(source.place) is not supported: custom operator '\(code)'")
        }
        return try loader(source)
    }

    /// How an operator the engine lacks is named ("TANH", "CUSTOM 'TransformLandmarks'"); nil for one it runs.
    static func missing(_ op: TFLiteModel.Operator) -> String? {
        guard loaders[op.opcode] != nil else { return op.opcode.name }
        guard op.opcode == .custom, customLoaders[op.customCode ?? ""] == nil else { return nil }
        return "CUSTOM '\(op.customCode ?? "")'"
    }

    /// Every operation's graph rewrites, in the order of `operations`.
    static let rewrites: [GraphRewrite] = operations.flatMap { $0.rewrites }
}
