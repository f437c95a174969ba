// A graph rewrite FULLY_CONNECTED owns: FULLY_CONNECTED nodes that read the same constant weights and do not
// depend on each other become one node that runs all their rows (StackedFullyConnectedOperator). The
// gesture embedder passes its image and world landmarks through the same 8 layers of 128×128 or
// 64×128 weights, one row each: such layers wait on the weights streaming in from L2, and stacked,
// each weight is loaded once for both rows.
//
// The search is bounded whatever the model: at most `maxMembers` nodes per stack, `maxStacks`
// stacks, and `searchBudget` node visits in all while checking independence.

extension FullyConnectedOperator {
    /// FULLY_CONNECTED nodes sharing their weights and not their data stacked into one.
    static let rewrites: [GraphRewrite] = [.whole { $0.stackSharedFullyConnected() }]
}

extension Graph {
    /// Nodes stacked into one at most (their rows are copied side by side for the call).
    static let maxMembers = 8
    /// Stacks made in one graph at most.
    static let maxStacks = 64
    /// Node visits the independence checks may make in one graph, in all.
    static let searchBudget = 1 << 18

    /// Stacks sets of FULLY_CONNECTED nodes with the same options, weights and bias that are
    /// independent of each other, then orders the nodes so each still runs after its inputs'
    /// producers. Should two stacks together make a cycle (each holding a node the other's depends
    /// on), the graph stays as it was.
    mutating func stackSharedFullyConnected() {
        let stacks = sharedWeightStacks()
        guard !stacks.isEmpty else { return }
        var merged = nodes
        var removed = Set<Int>()
        for members in stacks {
            let first = nodes[members[0]], last = members[members.count - 1]
            guard let layer = first.operation as? FullyConnectedOperator else { return }
            merged[last] = GraphNode(
                operation: StackedFullyConnectedOperator(layer: layer), opName: first.opName,
                index: nodes[last].index,
                inputs: [first.inputs[0], first.inputs[1], first.input(2)]
                    + members.dropFirst().map { nodes[$0].inputs[0] },
                outputs: members.map { nodes[$0].outputs[0] })
            removed.formUnion(members.dropLast())
        }
        merged = merged.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        guard let sorted = Self.topologicalOrder(merged) else { return }
        nodes = sorted
    }

    /// Sets (node indices, ascending) of two or more single-output FULLY_CONNECTED nodes with equal
    /// options and the same constant weights and bias, none reading another's output; no node in two sets.
    private func sharedWeightStacks() -> [[Int]] {
        struct Key: Hashable {
            let weights, bias: Int
        }
        var groups: [Key: [Int]] = [:]
        var order: [Key] = []
        for (i, node) in nodes.enumerated() where node.operation is FullyConnectedOperator {
            guard node.outputs.count == 1, (2...3).contains(node.inputs.count), node.inputs[0] >= 0,
                node.inputs[1] >= 0, tensors[node.inputs[1]].constant != nil
            else { continue }
            let key = Key(weights: node.inputs[1], bias: node.input(2))
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        let producer = nodes.producerPositions()
        var budget = Self.searchBudget
        var stacks: [[Int]] = []
        var taken = Set<Int>()
        for key in order {
            guard let group = groups[key], group.count > 1 else { continue }
            for (n, start) in group.enumerated() where !taken.contains(start) {
                let layer = nodes[start].operation as? FullyConnectedOperator
                var members = [start]
                for j in group[(n + 1)...]
                where !taken.contains(j) && members.count < Self.maxMembers
                    && nodes[j].operation as? FullyConnectedOperator == layer
                {
                    // Indices follow the graph's order, so only j can read an earlier member's output.
                    guard let dependent = reads(j, fromAnyOf: Set(members), producer, budget: &budget) else {
                        return stacks
                    }
                    if !dependent { members.append(j) }
                }
                guard members.count > 1 else { continue }
                stacks.append(members)
                taken.formUnion(members)
                if stacks.count == Self.maxStacks { return stacks }
            }
        }
        return stacks
    }

    /// Whether node `a` reads, directly or through other nodes, an output of a node in `others`
    /// (all listed before `a`); nil once `budget` node visits are spent.
    private func reads(_ a: Int, fromAnyOf others: Set<Int>, _ producer: [Int: Int], budget: inout Int) -> Bool? {
        let earliest = others.min() ?? a
        var stack = [a], seen: Set<Int> = [a]
        while let n = stack.popLast() {
            budget -= 1
            if budget < 0 { return nil }
            for t in nodes[n].inputs where t >= 0 {
                // A producer listed before the earliest member cannot lead to one.
                guard let p = producer[t], p >= earliest else { continue }
                if others.contains(p) { return true }
                if seen.insert(p).inserted { stack.append(p) }
            }
        }
        return false
    }

    /// `nodes` ordered so each follows the producers of its inputs, each otherwise as early as its
    /// place in `nodes` allows (of the nodes ready, the first listed runs first); nil for a cycle.
    private static func topologicalOrder(_ nodes: [GraphNode]) -> [GraphNode]? {
        let producer = nodes.producerPositions()
        var waiting = [Int](repeating: 0, count: nodes.count)
        var consumers = [[Int]](repeating: [], count: nodes.count)
        for (i, node) in nodes.enumerated() {
            for p in Set(node.inputs.compactMap({ $0 >= 0 ? producer[$0] : nil })) where p != i {
                waiting[i] += 1
                consumers[p].append(i)
            }
        }
        var ready = MinHeap(nodes.indices.filter { waiting[$0] == 0 })
        var sorted: [GraphNode] = []
        sorted.reserveCapacity(nodes.count)
        while let next = ready.pop() {
            sorted.append(nodes[next])
            for c in consumers[next] {
                waiting[c] -= 1
                if waiting[c] == 0 { ready.push(c) }
            }
        }
        return sorted.count == nodes.count ? sorted : nil
    }
}

/// A binary min-heap of node indices (the ready nodes of a topological sort).
private struct MinHeap {
    private var items: [Int] = []

    init(_ values: [Int]) {
        for v in values { push(v) }
    }

    mutating func push(_ v: Int) {
        items.append(v)
        var i = items.count - 1
        while i > 0, items[(i - 1) / 2] > items[i] {
            items.swapAt(i, (i - 1) / 2)
            i = (i - 1) / 2
        }
    }

    mutating func pop() -> Int? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count, items[l] < items[m] { m = l }
                if r < items.count, items[r] < items[m] { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
