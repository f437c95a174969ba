// ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE, MAXIMUM and PRELU: two inputs with numpy broadcasting and
// a fused clamp. Same-shape ADD and per-channel PRELU run on the C kernels, the rest on
// Kernels/Elementwise.swift's vector loops.

import TFLite
import VisionErrors

/// An elementwise operator of two inputs.
struct BinaryOperator: GraphOperation, Equatable {
    /// Which function of the two inputs.
    enum Kind: Equatable, Sendable { case add, sub, mul, div, squaredDifference, maximum, prelu }

    var kind: Kind
    /// The clamp fused into the output (ADD, SUB, MUL, DIV read it from the model; fusion sets the others').
    var activation: Activation

    init(_ kind: Kind, _ activation: Activation) {
        self.kind = kind
        self.activation = activation
    }

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .add: { BinaryOperator(.add, $0.activation) },
        .sub: { BinaryOperator(.sub, $0.activation) },
        .mul: { BinaryOperator(.mul, $0.activation) },
        .div: { BinaryOperator(.div, $0.activation) },
        .squaredDifference: { _ in BinaryOperator(.squaredDifference, .none) },
        .maximum: { _ in BinaryOperator(.maximum, .none) },
        .prelu: { _ in BinaryOperator(.prelu, .none) },
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let a = try node.floatShape(0), b = try node.floatShape(1)
        guard let out = BroadcastPlan.outputShape(a, b) else {
            throw VisionTasksError.invalidModel("shapes \(a) and \(b) do not broadcast")
        }
        let count = try computedCount(out, "the broadcast of \(a) and \(b)")
        guard let plan = BroadcastPlan(a, b) else {
            throw VisionTasksError.unsupportedModel(
                "shapes \(a) and \(b) broadcast over more than \(collapsedRank) dimensions")
        }
        let channels = a.last ?? 1
        let perChannelAlpha =
            kind == .prelu && a == plan.outputShape && b.reduce(1, *) == channels && b.last == channels
        let inPlace = a == plan.outputShape ? 0 : b == plan.outputShape ? 1 : nil
        return PreparedNode(outputShapes: [plan.outputShape], inPlaceInput: inPlace) { ctx in
            if perChannelAlpha && channels > 0 {
                let (input, alpha, output, threads) = (ctx.input(0), ctx.input(1), ctx.output(0), ctx.threads)
                return BoundKernel {
                    prelu(
                        input: input, alpha: alpha, output: output, pixels: count / channels, channels: channels,
                        threads: threads)
                }
            }
            if kind == .add && a == b {
                let (x, y, output, threads, clamp) = (
                    ctx.input(0), ctx.input(1), ctx.output(0), ctx.threads,
                    ClampRange(activation)
                )
                return BoundKernel { add(x, y, output: output, count: count, activation: clamp, threads: threads) }
            }
            return makeBinaryKernel(
                kind, plan: plan, a: ctx.input(0), b: ctx.input(1), out: ctx.output(0),
                activation: activation, threads: ctx.threads)
        }
    }

    func fusing(_ activation: Activation) -> (any GraphOperation)? {
        guard self.activation == .none, kind != .prelu else { return nil }
        return BinaryOperator(kind, activation)
    }
}
