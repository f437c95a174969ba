// Graph rewrites before kernels are bound, each removing a pass over a large tensor:
// a RELU folds into the operator producing its input (as TFLite converters do); a CONV_2D
// followed by ADD of a same-shape tensor and/or a per-channel PRELU becomes one convolution
// whose C kernel adds the residual and applies PRELU as it writes each output tile; and when
// that residual is a PAD adding zero channels at the end (the skip path of BlazeFace's and
// BlazePalm's blocks), the convolution reads the unpadded tensor and adds zero past its channels.

extension Graph {
    /// Applies every fusion; run after constant folding (PRELU's alpha must be a constant by then).
    mutating func fuseOperators() {
        fuse { graph, producer, consumer in
            guard (consumer.operation as? UnaryOperator)?.kind == .relu, let fused = producer.operation.fusing(.relu) else {
                return nil
            }
            var node = producer
            node.operation = fused
            return node
        }
        fuse { graph, producer, consumer in
            guard var o = (producer.operation as? Conv2DOperator)?.options, o.activation == .none, !o.hasResidual, !o.hasPReLU,
                  let add = consumer.operation as? BinaryOperator, add.kind == .add, consumer.inputs.count == 2 else { return nil }
            let mine = producer.outputs[0]
            let other = consumer.inputs[0] == mine ? consumer.inputs[1] : consumer.inputs[0]
            guard other != mine, other >= 0, graph.tensors[other].type == .float32,
                  graph.tensors[other].shape == graph.tensors[mine].shape,
                  graph.tensors[consumer.outputs[0]].shape == graph.tensors[mine].shape else { return nil }
            o.activation = add.activation
            o.hasResidual = true
            var node = producer
            node.operation = Conv2DOperator(options: o)
            node.inputs = Array((node.inputs + [-1, -1, -1]).prefix(3)) + [other, -1]
            return node
        }
        fuse { graph, producer, consumer in
            guard var o = (producer.operation as? Conv2DOperator)?.options, !o.hasPReLU,
                  (consumer.operation as? BinaryOperator)?.kind == .prelu, consumer.inputs.count == 2,
                  consumer.inputs[0] == producer.outputs[0] else { return nil }
            let alpha = graph.tensors[consumer.inputs[1]]
            let shape = graph.tensors[producer.outputs[0]].shape
            guard case .float32(let values)? = alpha.constant, let channels = shape.last, values.count == channels,
                  alpha.shape.last == channels, graph.tensors[consumer.outputs[0]].shape == shape else { return nil }
            o.hasPReLU = true
            var node = producer
            node.operation = Conv2DOperator(options: o)
            let base = Array((node.inputs + [-1, -1, -1, -1]).prefix(4))
            node.inputs = base + [consumer.inputs[1]]
            return node
        }
        fuse { graph, producer, consumer in
            guard producer.operation is PadOperator, producer.inputs.count == 2,
                  (consumer.operation as? Conv2DOperator)?.options.hasResidual == true,
                  consumer.inputs.count > 3, consumer.inputs[3] == producer.outputs[0], consumer.inputs[0] != producer.outputs[0],
                  case .int32(let paddings)? = graph.tensors[producer.inputs[1]].constant else { return nil }
            let rank = graph.tensors[producer.inputs[0]].shape.count
            // Only zeros appended to the last dimension: the padded tensor is the unpadded one with more channels.
            guard rank >= 1, paddings.count == 2 * rank, paddings.dropLast().allSatisfy({ $0 == 0 }),
                  graph.tensors[producer.inputs[0]].type == .float32 else { return nil }
            var node = consumer
            node.inputs[3] = producer.inputs[0]
            return node
        }
    }

    /// For each node whose single output feeds exactly one other node (and is not a graph output),
    /// asks `rule` for a replacement of the pair; the replacement runs at the consumer's place and
    /// writes the consumer's outputs.
    private mutating func fuse(_ rule: (Graph, GraphNode, GraphNode) -> GraphNode?) {
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
                      var fused = rule(self, nodes[p], consumer) else { continue }
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
