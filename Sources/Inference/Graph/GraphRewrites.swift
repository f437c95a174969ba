// The driver of the operators' graph rewrites (each rule lives with the operator it rewrites and is
// listed through OperatorTable): pair rules are offered every producer → single consumer pair of
// the graph, in order; whole-graph rules get the graph.

extension Graph {
    /// Applies `rewrites` one after another, each over the whole graph.
    mutating func apply(_ rewrites: [GraphRewrite]) {
        for rewrite in rewrites {
            switch rewrite {
            case .pair(let rule): fusePairs(rule)
            case .whole(let rule): rule(&self)
            }
        }
    }

    /// For each node whose single output feeds exactly one other node (and is not a graph output),
    /// asks `rule` for a replacement of the pair; the replacement runs at the consumer's place and
    /// writes the consumer's outputs.
    private mutating func fusePairs(_ rule: (Graph, GraphNode, GraphNode) -> GraphNode?) {
        var consumerCount = [Int: Int]()
        for node in nodes { for t in node.inputs where t >= 0 { consumerCount[t, default: 0] += 1 } }
        let graphOutputs = Set(outputs)
        var producerOf = nodes.producerPositions()
        var removed = Set<Int>()
        for i in nodes.indices where !removed.contains(i) {
            let consumer = nodes[i]
            for t in consumer.inputs where t >= 0 {
                guard let p = producerOf[t], p < i, !removed.contains(p), nodes[p].outputs == [t],
                    consumerCount[t] == 1, !graphOutputs.contains(t), consumer.outputs.count == 1,
                    var fused = rule(self, nodes[p], consumer)
                else { continue }
                fused.outputs = consumer.outputs
                nodes[i] = fused
                for o in fused.outputs { producerOf[o] = i }
                removed.insert(p)
                break
            }
        }
        nodes = nodes.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }
}
