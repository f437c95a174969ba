// A graph rewrite after fusion: FULLY_CONNECTED nodes that read the same constant weights and do not
// depend on each other become one node that runs all their rows (StackedFullyConnectedOperator). The
// gesture embedder passes its image and world landmarks through the same 8 layers of 128×128 or
// 64×128 weights, one row each: such layers wait on the weights streaming in from L2, and stacked,
// each weight is loaded once for both rows.

extension Graph {
    /// Stacks every set of FULLY_CONNECTED nodes with the same options, weights and bias that are
    /// independent of each other, then orders the nodes so each still runs after its inputs' producers.
    mutating func stackSharedFullyConnected() {
        while let members = nextStack() {
            let first = nodes[members[0]]
            guard let layer = first.operation as? FullyConnectedOperator else { return }
            let last = members[members.count - 1]
            let data = members.dropFirst().map { nodes[$0].inputs[0] }
            var merged = nodes
            merged[last] = GraphNode(operation: StackedFullyConnectedOperator(layer: layer), opName: first.opName,
                                     index: nodes[last].index,
                                     inputs: [first.inputs[0], first.inputs[1], weightSlot(first, 2)] + data,
                                     outputs: members.map { nodes[$0].outputs[0] })
            let removed = Set(members.dropLast())
            merged = merged.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
            // Members never depend on each other, so the merged graph has no cycle; were it to have
            // one, the graph stays as it was.
            guard let sorted = Self.topologicalOrder(merged) else { return }
            nodes = sorted
        }
    }

    /// The tensor at `slot` of `node`, -1 when absent.
    private func weightSlot(_ node: GraphNode, _ slot: Int) -> Int { slot < node.inputs.count ? node.inputs[slot] : -1 }

    /// The first set (node indices, ascending) of two or more single-output FULLY_CONNECTED nodes with
    /// equal options and the same constant weights and bias, none reading another's output.
    private func nextStack() -> [Int]? {
        struct Key: Hashable {
            let weights, bias: Int
        }
        var groups: [Key: [Int]] = [:]
        var order: [Key] = []
        for (i, node) in nodes.enumerated() where node.operation is FullyConnectedOperator {
            guard node.outputs.count == 1, node.inputs.count >= 2, node.inputs.count <= 3, node.inputs[0] >= 0,
                  node.inputs[1] >= 0, tensors[node.inputs[1]].constant != nil else { continue }
            let key = Key(weights: node.inputs[1], bias: weightSlot(node, 2))
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        var producer: [Int: Int] = [:]
        for (i, node) in nodes.enumerated() { for t in node.outputs { producer[t] = i } }
        for key in order {
            guard let group = groups[key], group.count > 1 else { continue }
            for (n, start) in group.enumerated() {
                var members = [start]
                for j in group[(n + 1)...] where (nodes[j].operation as? FullyConnectedOperator)
                    == (nodes[start].operation as? FullyConnectedOperator) {
                    if members.allSatisfy({ !reads(j, from: $0, producer) && !reads($0, from: j, producer) }) {
                        members.append(j)
                    }
                }
                if members.count > 1 { return members }
            }
        }
        return nil
    }

    /// Whether node `a` reads, directly or through other nodes, an output of node `b`.
    private func reads(_ a: Int, from b: Int, _ producer: [Int: Int]) -> Bool {
        var stack = [a], seen: Set<Int> = [a]
        while let n = stack.popLast() {
            for t in nodes[n].inputs where t >= 0 {
                guard let p = producer[t] else { continue }
                if p == b { return true }
                if seen.insert(p).inserted { stack.append(p) }
            }
        }
        return false
    }

    /// `nodes` ordered so each follows the producers of its inputs, each otherwise as early as its
    /// place in `nodes` allows (of the nodes ready, the first listed runs first); nil for a cycle.
    private static func topologicalOrder(_ nodes: [GraphNode]) -> [GraphNode]? {
        var producer: [Int: Int] = [:]
        for (i, node) in nodes.enumerated() { for t in node.outputs { producer[t] = i } }
        var waiting = nodes.map { node in Set(node.inputs.compactMap { $0 >= 0 ? producer[$0] : nil }) }
        var sorted: [GraphNode] = []
        var done = [Bool](repeating: false, count: nodes.count)
        while sorted.count < nodes.count {
            guard let next = nodes.indices.first(where: { !done[$0] && waiting[$0].isEmpty }) else { return nil }
            done[next] = true
            sorted.append(nodes[next])
            for i in nodes.indices where !done[i] { waiting[i].remove(next) }
        }
        return sorted
    }
}
