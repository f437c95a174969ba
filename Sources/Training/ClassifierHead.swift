import Foundation
import TFLite

// MARK: - Head

/// Model Maker's gesture classifier head and its training: for each hidden layer, then once more before the
/// output, batch normalisation → ReLU → dropout → dense; softmax at the end. Trained with Adam on the focal
/// loss, as Model Maker trains it with Keras (Keras's batch-norm momentum 0.99 and epsilon 0.001, Adam's
/// β 0.9/0.999 and ε 1e-7, Glorot-uniform dense weights, zero biases).
///
/// Every trainable value lives in one array (`parameters`), so Adam and keeping the best epoch's weights
/// are single loops and copies; the batch norms' moving statistics live in `movingStatistics`.
struct ClassifierHead: Sendable {
    /// Keras's batch normalisation constants.
    static let batchNormMomentum: Float = 0.99
    static let batchNormEpsilon: Float = 0.001

    /// Where one block's values are in `parameters` and `movingStatistics`.
    struct Block: Sendable {
        /// Width of the block's input (its batch norm's width).
        let inputs: Int
        /// Width of its dense layer's output.
        let outputs: Int
        /// Offsets of γ, β, the dense weights (outputs × inputs, row-major) and the bias in `parameters`.
        let gamma: Int, beta: Int, weights: Int, bias: Int
        /// Offsets of the moving mean and variance in `movingStatistics`.
        let mean: Int, variance: Int
    }

    let blocks: [Block]
    /// Every trainable value.
    var parameters: [Float]
    /// The batch norms' moving means and variances.
    var movingStatistics: [Float]

    /// A head from `inputCount` values through `hiddenWidths` to `classCount` scores, initialised from `random`.
    init(inputCount: Int, hiddenWidths: [Int], classCount: Int, random: inout SeededGenerator) {
        let widths = [inputCount] + hiddenWidths + [classCount]
        var blocks: [Block] = [], parameters: [Float] = [], statistics: [Float] = []
        for (inputs, outputs) in zip(widths, widths.dropFirst()) {
            let block = Block(
                inputs: inputs, outputs: outputs, gamma: parameters.count, beta: parameters.count + inputs,
                weights: parameters.count + 2 * inputs, bias: parameters.count + 2 * inputs + inputs * outputs,
                mean: statistics.count, variance: statistics.count + inputs)
            parameters += [Float](repeating: 1, count: inputs) + [Float](repeating: 0, count: inputs)
            let limit = (6 / Float(inputs + outputs)).squareRoot()
            parameters += (0..<(inputs * outputs)).map { _ in (2 * random.unit() - 1) * limit }
            parameters += [Float](repeating: 0, count: outputs)
            statistics += [Float](repeating: 0, count: inputs) + [Float](repeating: 1, count: inputs)
            blocks.append(block)
        }
        self.blocks = blocks
        self.parameters = parameters
        self.movingStatistics = statistics
    }

    /// How many values `parameters` holds for a head of these sizes (each block: γ and β per input, the dense
    /// weights and the bias), without building it. The sizes are the validated ones (`LayerWidths`, at most
    /// `GestureSamples.maxLabels` classes), far from overflowing.
    static func parameterCount(inputCount: Int, hiddenWidths: [Int], classCount: Int) -> Int {
        let widths = [inputCount] + hiddenWidths + [classCount]
        return zip(widths, widths.dropFirst()).reduce(0) { $0 + 2 * $1.0 + $1.0 * $1.1 + $1.1 }
    }

    /// Number of classes.
    var classCount: Int { blocks.last?.outputs ?? 0 }

    /// The class probabilities of one input, as the exported model computes them (moving statistics, no dropout).
    func predict(_ input: [Float]) -> [Float] {
        var x = input
        for block in blocks {
            var h = [Float](repeating: 0, count: block.inputs)
            for j in 0..<block.inputs {
                let (scale, shift) = folded(block, j)
                h[j] = max(0, x[j] * scale + shift)
            }
            x = dense(block, h)
        }
        return softmax(x)
    }

    /// The head as TFLite layers: each batch norm folded into a multiply and an add, then ReLU, the dense
    /// layer, and softmax at the end.
    func layers() -> [ClassifierLayer] {
        var layers: [ClassifierLayer] = []
        for block in blocks {
            let pairs = (0..<block.inputs).map { folded(block, $0) }
            let weights = Array(parameters[block.weights..<(block.weights + block.inputs * block.outputs)])
            let bias = Array(parameters[block.bias..<(block.bias + block.outputs)])
            layers.append(.scaleShift(scale: pairs.map(\.0), shift: pairs.map(\.1)))
            layers.append(.relu)
            layers.append(.dense(weights: weights, bias: bias, outputCount: block.outputs))
        }
        return layers + [.softmax]
    }

    /// A batch norm's inference-time multiplier and addend for input `j`.
    private func folded(_ block: Block, _ j: Int) -> (Float, Float) {
        let scale =
            parameters[block.gamma + j] / (movingStatistics[block.variance + j] + Self.batchNormEpsilon).squareRoot()
        return (scale, parameters[block.beta + j] - movingStatistics[block.mean + j] * scale)
    }

    private func dense(_ block: Block, _ h: [Float]) -> [Float] {
        (0..<block.outputs).map { o in
            var sum = parameters[block.bias + o]
            let row = block.weights + o * block.inputs
            for i in 0..<block.inputs { sum += parameters[row + i] * h[i] }
            return sum
        }
    }

    /// The softmax of `z`, shifted by its maximum as TFLite's kernel is.
    func softmax(_ z: [Float]) -> [Float] {
        guard let top = z.max() else { return [] }
        let e = z.map { exp($0 - top) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}

// MARK: - Loss and optimiser

/// The focal loss of Model Maker (`loss_functions.FocalLoss`): −Σ w·(1−p)^γ·log p over the true classes, p
/// clipped to [1e-7, 1−1e-7], summed over the batch and divided by its size.
struct FocalLoss: Sendable {
    static let epsilon: Float = 1e-7
    /// The focusing parameter.
    let gamma: Float

    /// The loss of one sample whose true class has probability `p`, weighted by `weight`.
    func loss(_ p: Float, weight: Float) -> Float {
        let q = min(max(p, Self.epsilon), 1 - Self.epsilon)
        return -weight * pow(1 - q, gamma) * log(q)
    }

    /// d loss / d p for that sample (0 where the clip holds p).
    func derivative(_ p: Float, weight: Float) -> Float {
        guard p > Self.epsilon, p < 1 - Self.epsilon else { return 0 }
        let focus = gamma == 0 ? 0 : gamma * pow(1 - p, gamma - 1) * log(p)
        return weight * (focus - pow(1 - p, gamma) / p)
    }
}

/// Keras's Adam (β₁ 0.9, β₂ 0.999, ε 1e-7) over one array of parameters.
struct Adam: Sendable {
    private var m: [Float], v: [Float]
    private var step = 0

    /// Moments for `count` parameters.
    init(count: Int) {
        m = [Float](repeating: 0, count: count)
        v = [Float](repeating: 0, count: count)
    }

    /// One update of `parameters` by `gradient` at `learningRate`.
    mutating func update(_ parameters: inout [Float], gradient: [Float], learningRate: Float) {
        step += 1
        let t = Float(step)
        let alpha = learningRate * (1 - pow(0.999, t)).squareRoot() / (1 - pow(0.9, t))
        for i in parameters.indices {
            m[i] += (gradient[i] - m[i]) * 0.1
            v[i] += (gradient[i] * gradient[i] - v[i]) * 0.001
            parameters[i] -= alpha * m[i] / (v[i].squareRoot() + 1e-7)
        }
    }
}

// MARK: - Training step

extension ClassifierHead {
    /// `block`'s dense layer on `h[start..<start + inputs]` into `out[at..<at + outputs]`: each output's sum
    /// starts from its bias and adds the inputs' terms in order; four outputs are summed side by side, which
    /// keeps each sum's order (and bytes) and lets the processor overlap them.
    static func dense(
        _ p: UnsafeBufferPointer<Float>, _ block: Block, _ h: UnsafeBufferPointer<Float>, from start: Int,
        into out: UnsafeMutableBufferPointer<Float>, at: Int
    ) {
        let w = block.inputs
        var o = 0
        while o + 4 <= block.outputs {
            let r0 = block.weights + o * w, r1 = r0 + w, r2 = r1 + w, r3 = r2 + w
            var s0 = p[block.bias + o], s1 = p[block.bias + o + 1], s2 = p[block.bias + o + 2]
            var s3 = p[block.bias + o + 3]
            for i in 0..<w {
                let x = h[start + i]
                s0 += p[r0 + i] * x
                s1 += p[r1 + i] * x
                s2 += p[r2 + i] * x
                s3 += p[r3 + i] * x
            }
            out[at + o] = s0
            out[at + o + 1] = s1
            out[at + o + 2] = s2
            out[at + o + 3] = s3
            o += 4
        }
        while o < block.outputs {
            var sum = p[block.bias + o]
            let row = block.weights + o * w
            for i in 0..<w { sum += p[row + i] * h[start + i] }
            out[at + o] = sum
            o += 1
        }
    }
}

extension ClassifierHead {
    /// One training step on a batch: forward in training mode (batch statistics, inverted dropout at
    /// `dropout` drawn from `random`), the focal loss's gradient back through every layer, the moving
    /// statistics updated. Returns the gradient of every parameter and the batch's mean loss.
    ///
    /// The batch's values live in flat arrays (row `b` of a `w`-wide layer at `b * w`), read through unsafe
    /// buffers: the search trains thousands of heads. Every sum adds its terms in the same order as a
    /// row-by-row reading would, so the bytes do not depend on this layout.
    mutating func gradient(
        inputs: [[Float]], classes: [Int], weights: [Float], loss: FocalLoss, dropout: Float,
        random: inout SeededGenerator
    ) -> (gradient: [Float], loss: Float) {
        let batch = inputs.count
        let n = Float(batch)
        /// A block's forward values: normalised inputs, after ReLU, after dropout (all `batch × inputs`).
        struct Trace {
            var xhat: [Float]
            var invStd: [Float]
            var relu: [Float]
            var h: [Float]
        }
        var traces: [Trace] = []
        traces.reserveCapacity(blocks.count)
        var x = inputs.flatMap { $0 }
        let keep = 1 - dropout
        for block in blocks {
            let w = block.inputs
            var mean = [Float](repeating: 0, count: w), variance = [Float](repeating: 0, count: w)
            var trace = Trace(
                xhat: [Float](repeating: 0, count: batch * w), invStd: [],
                relu: [Float](repeating: 0, count: batch * w),
                h: [Float](repeating: 0, count: batch * w))
            var next = [Float](repeating: 0, count: batch * block.outputs)
            parameters.withUnsafeBufferPointer { p in
                movingStatistics.withUnsafeMutableBufferPointer { moving in
                    x.withUnsafeBufferPointer { x in
                        for b in 0..<batch { for j in 0..<w { mean[j] += x[b * w + j] } }
                        for j in 0..<w { mean[j] /= n }
                        for b in 0..<batch {
                            for j in 0..<w { variance[j] += (x[b * w + j] - mean[j]) * (x[b * w + j] - mean[j]) }
                        }
                        for j in 0..<w { variance[j] /= n }
                        trace.invStd = (0..<w).map { 1 / (variance[$0] + Self.batchNormEpsilon).squareRoot() }
                        for j in 0..<w {
                            moving[block.mean + j] =
                                moving[block.mean + j] * Self.batchNormMomentum + mean[j] * (1 - Self.batchNormMomentum)
                            moving[block.variance + j] =
                                moving[block.variance + j] * Self.batchNormMomentum + variance[j]
                                * (1 - Self.batchNormMomentum)
                        }
                        for b in 0..<batch {
                            for j in 0..<w {
                                let xhat = (x[b * w + j] - mean[j]) * trace.invStd[j]
                                trace.xhat[b * w + j] = xhat
                                trace.relu[b * w + j] = max(0, xhat * p[block.gamma + j] + p[block.beta + j])
                            }
                            for j in 0..<w {
                                let value = trace.relu[b * w + j]
                                trace.h[b * w + j] = dropout > 0 ? (random.unit() < keep ? value / keep : 0) : value
                            }
                            trace.h.withUnsafeBufferPointer { h in
                                next.withUnsafeMutableBufferPointer { next in
                                    Self.dense(p, block, h, from: b * w, into: next, at: b * block.outputs)
                                }
                            }
                        }
                    }
                }
            }
            traces.append(trace)
            x = next
        }
        // Loss and its gradient with respect to the logits.
        let classCount = self.classCount
        var total: Float = 0
        var dz = [Float](repeating: 0, count: batch * classCount)
        for b in 0..<batch {
            let truth = classes[b]
            let p = softmax(Array(x[(b * classCount)..<((b + 1) * classCount)]))
            total += loss.loss(p[truth], weight: weights[b])
            let dp = loss.derivative(p[truth], weight: weights[b]) / n
            for k in 0..<classCount { dz[b * classCount + k] = dp * p[truth] * ((k == truth ? 1 : 0) - p[k]) }
        }
        var gradient = [Float](repeating: 0, count: parameters.count)
        for (index, block) in blocks.enumerated().reversed() {
            let trace = traces[index]
            let w = block.inputs, outputs = block.outputs
            var dh = [Float](repeating: 0, count: batch * w)
            var sumD = [Float](repeating: 0, count: w), sumDX = [Float](repeating: 0, count: w)
            var below = [Float](repeating: 0, count: index > 0 ? batch * w : 0)
            parameters.withUnsafeBufferPointer { p in
                gradient.withUnsafeMutableBufferPointer { g in
                    dh.withUnsafeMutableBufferPointer { dh in
                        for b in 0..<batch {
                            for o in 0..<outputs {
                                let d = dz[b * outputs + o]
                                g[block.bias + o] += d
                                let row = block.weights + o * w
                                for i in 0..<w {
                                    g[row + i] += d * trace.h[b * w + i]
                                    dh[b * w + i] += d * p[row + i]
                                }
                            }
                        }
                        // Back through dropout and ReLU to the batch norm's output.
                        for k in 0..<(batch * w) {
                            let kept = trace.relu[k] > 0 && (dropout == 0 || trace.h[k] != 0)
                            dh[k] = kept ? dh[k] * (dropout > 0 ? trace.h[k] / trace.relu[k] : 1) : 0
                        }
                        for b in 0..<batch {
                            for j in 0..<w {
                                g[block.gamma + j] += dh[b * w + j] * trace.xhat[b * w + j]
                                g[block.beta + j] += dh[b * w + j]
                                let dxhat = dh[b * w + j] * p[block.gamma + j]
                                sumD[j] += dxhat
                                sumDX[j] += dxhat * trace.xhat[b * w + j]
                            }
                        }
                        guard index > 0 else { return }
                        for b in 0..<batch {
                            for j in 0..<w {
                                let dxhat = dh[b * w + j] * p[block.gamma + j]
                                below[b * w + j] =
                                    trace.invStd[j] / n * (n * dxhat - sumD[j] - trace.xhat[b * w + j] * sumDX[j])
                            }
                        }
                    }
                }
            }
            guard index > 0 else { break }
            dz = below
        }
        return (gradient, total / n)
    }
}
