// Graph rewrites before planning: a RELU (or RELU6-style clamp) whose input comes straight from an
// operator with a fused-activation slot is folded into that operator, as TFLite converters do.

extension GraphOperation {
    /// This operation with `activation` fused into it, when it has a free activation slot.
    func fusing(_ activation: Activation) -> GraphOperation? {
        switch self {
        case .binary(let op, .none) where op != .prelu: return .binary(op, activation)
        case .conv2d(var o) where o.activation == .none:
            o.activation = activation
            return .conv2d(o)
        case .depthwiseConv2d(var o) where o.activation == .none:
            o.activation = activation
            return .depthwiseConv2d(o)
        case .fullyConnected(.none, let keep): return .fullyConnected(activation, keepNumDims: keep)
        case .maxPool2d(var o) where o.activation == .none:
            o.activation = activation
            return .maxPool2d(o)
        case .concatenation(let axis, .none): return .concatenation(axis: axis, activation)
        default: return nil
        }
    }
}

extension Graph {
    /// Folds each RELU into the node producing its input when that node's output feeds nothing else
    /// and is not a graph output. The fused node then writes the RELU's output tensor.
    mutating func fuseActivations() {
        var consumers = [Int: Int]()
        for node in nodes { for t in node.inputs where t >= 0 { consumers[t, default: 0] += 1 } }
        let graphOutputs = Set(outputs)
        var producer = [Int: Int]()
        var removed = Set<Int>()
        for (i, node) in nodes.enumerated() {
            defer { for t in nodes[i].outputs { producer[t] = i } }
            guard case .unary(.relu) = node.operation, node.inputs.count == 1, node.outputs.count == 1,
                  let source = node.inputs.first, let p = producer[source], !removed.contains(p),
                  consumers[source] == 1, !graphOutputs.contains(source), nodes[p].outputs == [source],
                  let fused = nodes[p].operation.fusing(.relu) else { continue }
            nodes[p].operation = fused
            nodes[p].outputs = node.outputs
            removed.insert(i)
        }
        nodes = nodes.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }
}
