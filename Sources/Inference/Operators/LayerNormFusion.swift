// A graph rewrite MEAN owns: the layer norm over the last axis that converters write as ten operators,
//   m = MEAN(x), v = MEAN(SQUARED_DIFFERENCE(x, m)), a = MUL(RSQRT(ADD(v, ε)), γ), y = ADD(MUL(x, a), MUL(NEG(m), a)),
// becomes one node (LayerNormOperator) that runs each row in one pass, its rows split over threads. Its values are
// the ten operators' bit for bit. The face blendshapes model has eight: at two threads their small unsplit passes,
// each reading a tensor the other core had just written, cost more than the passes themselves.

import TFLite
import VisionErrors

extension ReduceOperator {
    /// Ten-operator layer norms fused into one node.
    static let rewrites: [GraphRewrite] = [.whole { $0.fuseLayerNorms() }]
}

/// The fused layer norm: inputs x, γ (constant, one per channel of x's last axis) and ε (a constant scalar).
struct LayerNormOperator: GraphOperation, Equatable {
    /// Made only by the graph rewrite, never read from a model.
    static let loaders: [BuiltinOperator: OperatorLoader] = [:]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let shape = try node.floatShape(0)
        let channels = shape.last ?? 1
        let (gamma, epsilon) = (try node.floatShape(1).reduce(1, *), try node.floatShape(2).reduce(1, *))
        guard gamma == channels, epsilon == 1 else {
            throw VisionTasksError.invalidModel(
                "a layer norm over \(channels) channels has \(gamma) scales and \(epsilon) epsilons")
        }
        let rows = shape.reduce(1, *) / Swift.max(1, channels)
        return PreparedNode(outputShapes: [shape]) { ctx in
            guard let epsilon = ctx.constantValues(2)?.first else {
                throw VisionTasksError.unsupportedModel("a layer norm's epsilon must be a constant")
            }
            let (x, gamma, y, threads) = (ctx.input(0), ctx.input(1), ctx.output(0), ctx.threads)
            return BoundKernel {
                layerNorm(
                    input: x, gamma: gamma, epsilon: epsilon, output: y, rows: rows, channels: channels,
                    threads: threads)
            }
        }
    }
}

extension Graph {
    /// Replaces each ten-operator layer norm whose intermediate tensors nothing else reads by one
    /// `LayerNormOperator` node at the place of its last operator.
    mutating func fuseLayerNorms() {
        var readers: [Int: [Int]] = [:]
        for (i, node) in nodes.enumerated() {
            for t in Set(node.inputs) where t >= 0 { readers[t, default: []].append(i) }
        }
        let graphOutputs = Set(outputs)
        var fused: [Int: GraphNode] = [:]
        var removed = Set<Int>()
        for i in nodes.indices {
            guard let match = layerNorm(startingAt: i, readers: readers, graphOutputs: graphOutputs),
                removed.isDisjoint(with: match.positions), fused[match.last] == nil
            else { continue }
            fused[match.last] = match.node
            removed.formUnion(match.positions.filter { $0 != match.last })
        }
        guard !fused.isEmpty else { return }
        nodes = nodes.enumerated().compactMap { i, node in removed.contains(i) ? nil : fused[i] ?? node }
    }

    /// The layer norm whose first MEAN is node `first`: its ten node positions, the last one's, and the fused node.
    private func layerNorm(startingAt first: Int, readers: [Int: [Int]], graphOutputs: Set<Int>) -> (
        positions: [Int], last: Int, node: GraphNode
    )? {
        /// The single output of node `p` when it has one that only node readers read (not a graph output).
        func output(_ p: Int, readBy count: Int) -> Int? {
            let node = nodes[p]
            guard node.outputs.count == 1, let t = node.outputs.first, !graphOutputs.contains(t),
                readers[t]?.count == count
            else { return nil }
            return t
        }
        func binary(_ p: Int, _ kind: BinaryOperator.Kind, reading operands: Set<Int>) -> Bool {
            let node = nodes[p]
            return node.operation as? BinaryOperator == BinaryOperator(kind, .none) && node.inputs.count == 2
                && Set(node.inputs) == operands
        }
        func unary(_ p: Int, _ kind: UnaryOperator.Kind) -> Bool {
            nodes[p].operation as? UnaryOperator == UnaryOperator(kind) && nodes[p].inputs.count == 1
        }
        /// The other operand of binary node `p`, besides `t`.
        func other(_ p: Int, than t: Int) -> Int? {
            nodes[p].inputs.count == 2 ? nodes[p].inputs.first { $0 != t } : nil
        }

        guard let x = nodes[first].inputs.first, x >= 0, isLastAxisMean(first, of: x) else { return nil }
        let shape = tensors[x].shape
        guard let channels = shape.last, channels >= 2, let m = output(first, readBy: 2) else { return nil }
        let meanReaders = readers[m] ?? []
        guard let negate = meanReaders.first(where: { unary($0, .neg) }),
            let difference = meanReaders.first(where: { binary($0, .squaredDifference, reading: [x, m]) }),
            let negated = output(negate, readBy: 1), let squares = output(difference, readBy: 1),
            let secondMean = readers[squares]?.first, isLastAxisMean(secondMean, of: squares),
            let variance = output(secondMean, readBy: 1), let addEpsilon = readers[variance]?.first,
            let epsilon = other(addEpsilon, than: variance), binary(addEpsilon, .add, reading: [variance, epsilon]),
            tensors[epsilon].constant != nil, tensors[epsilon].type == .float32, tensors[epsilon].elementCount == 1,
            tensors[epsilon].shape.count <= shape.count,
            let shifted = output(addEpsilon, readBy: 1), let root = readers[shifted]?.first, unary(root, .rsqrt),
            let inverse = output(root, readBy: 1), let scaleByGamma = readers[inverse]?.first,
            let gamma = other(scaleByGamma, than: inverse), binary(scaleByGamma, .mul, reading: [inverse, gamma]),
            tensors[gamma].constant != nil, tensors[gamma].type == .float32, tensors[gamma].elementCount == channels,
            tensors[gamma].shape.last == channels,
            tensors[gamma].shape.count <= shape.count, let a = output(scaleByGamma, readBy: 2),
            let scale = readers[a]?.first(where: { binary($0, .mul, reading: [x, a]) }),
            let shift = readers[a]?.first(where: { binary($0, .mul, reading: [negated, a]) }),
            readers[negated] == [shift], let scaled = output(scale, readBy: 1),
            let shiftedValues = output(shift, readBy: 1),
            let sum = readers[scaled]?.first, readers[shiftedValues] == [sum],
            binary(sum, .add, reading: [scaled, shiftedValues]), nodes[sum].outputs.count == 1,
            tensors[nodes[sum].outputs[0]].shape == shape
        else { return nil }
        let positions = [first, negate, difference, secondMean, addEpsilon, root, scaleByGamma, scale, shift, sum]
        guard positions.max() == sum else { return nil }
        let node = GraphNode(
            operation: LayerNormOperator(), opName: "LAYER_NORM",
            index: nodes[sum].index, inputs: [x, gamma, epsilon], outputs: nodes[sum].outputs)
        return (positions, sum, node)
    }

    /// Whether node `p` is a MEAN of `input` over its last axis alone, keeping the axis.
    private func isLastAxisMean(_ p: Int, of input: Int) -> Bool {
        let node = nodes[p]
        guard node.operation as? ReduceOperator == ReduceOperator(kind: .mean, keepDims: true),
            node.inputs.count == 2, node.inputs[0] == input, node.inputs[1] >= 0,
            case .int32(let axes)? = tensors[node.inputs[1]].constant, axes.count == 1
        else { return false }
        let rank = tensors[input].shape.count
        return Int(axes[0]) == rank - 1 || Int(axes[0]) == -1
    }
}
