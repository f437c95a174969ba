// The one list of the operators the engine runs. A new operator is a new file in this folder
// (a `GraphOperation` with its loaders, shape rules and kernel binding) and a line here.

import TFLite

/// Every operation type the engine implements, and the loader of each TFLite builtin code they cover.
enum OperatorTable {
    /// The operation types, one per file of Operators/.
    static let operations: [any GraphOperation.Type] = [
        BinaryOperator.self, UnaryOperator.self, SoftmaxOperator.self,
        Conv2DOperator.self, DepthwiseConv2DOperator.self, FullyConnectedOperator.self, MaxPool2DOperator.self,
        ReshapeOperator.self, TransposeOperator.self, PadOperator.self, ConcatenationOperator.self,
        StridedSliceOperator.self, GatherOperator.self, UnpackOperator.self,
        ReduceOperator.self, ResizeBilinearOperator.self, DequantizeOperator.self, DensifyOperator.self,
        DepthToSpaceOperator.self,
    ]

    /// Builtin code → its loader (a code claimed twice keeps its first operation's loader).
    static let loaders: [BuiltinOperator: OperatorLoader] = operations.reduce(into: [:]) { table, operation in
        table.merge(operation.loaders) { first, _ in first }
    }

    /// Every operation's graph rewrites, in the order of `operations`.
    static let rewrites: [GraphRewrite] = operations.flatMap { $0.rewrites }
}
