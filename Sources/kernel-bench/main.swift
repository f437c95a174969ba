// kernel-bench: GFLOP/s of the inference kernels on the layer shapes of the MediaPipe models.
// Usage: kernel-bench [--portable | --avx2] [--threads N] [--filter TEXT]
import Foundation
import Inference

/// One benchmarked layer.
struct Case {
    let name: String
    let kind: Kind
    let geometry: Conv2DGeometry

    enum Kind { case conv, depthwise, maxPool }

    /// Multiply-adds × 2 per run.
    var flops: Double {
        let g = geometry
        let pixels = Double(g.batch * g.outputHeight * g.outputWidth)
        switch kind {
        case .conv: return 2 * pixels * Double(g.outputChannels * g.kernelHeight * g.kernelWidth * g.inputChannels)
        case .depthwise: return 2 * pixels * Double(g.outputChannels * g.kernelHeight * g.kernelWidth)
        case .maxPool: return pixels * Double(g.outputChannels * g.kernelHeight * g.kernelWidth)
        }
    }
}

func conv(_ name: String, _ hw: Int, _ c: Int, _ o: Int, k: Int = 1, stride: Int = 1) -> Case {
    Case(
        name: name, kind: .conv,
        geometry: Conv2DGeometry(
            inputHeight: hw, inputWidth: hw, inputChannels: c, outputChannels: o, kernelHeight: k, kernelWidth: k,
            strideHeight: stride, strideWidth: stride, padding: k == stride ? .valid : .same))
}

func depthwise(_ name: String, _ hw: Int, _ c: Int, k: Int, stride: Int = 1) -> Case {
    Case(
        name: name, kind: .depthwise,
        geometry: Conv2DGeometry(
            inputHeight: hw, inputWidth: hw, inputChannels: c, outputChannels: c, kernelHeight: k, kernelWidth: k,
            strideHeight: stride, strideWidth: stride, padding: .same))
}

let cases: [Case] = [
    conv("face 1x1 64x64 16->32", 64, 16, 32),
    conv("face 1x1 32x32 32->64", 32, 32, 64),
    conv("face 1x1 16x16 64->128", 16, 64, 128),
    conv("face 1x1 128x128 16->8", 128, 16, 8),
    conv("face 1x1 128x128 8->16", 128, 8, 16),
    conv("face 3x3/2 stem 256x256 3->16", 256, 3, 16, k: 3, stride: 2),
    conv("face 2x2/2 128x128 16->16", 128, 16, 16, k: 2, stride: 2),
    depthwise("face dw3x3 128x128x8", 128, 8, k: 3),
    depthwise("face dw3x3 64x64x16", 64, 16, k: 3),
    conv("hand-det 1x1 96x96 32->32", 96, 32, 32),
    conv("hand-det 1x1 24x24 128->128", 24, 128, 128),
    conv("hand-det 1x1 12x12 256->256", 12, 256, 256),
    conv("hand-det 5x5/2 stem 192x192 3->32", 192, 3, 32, k: 5, stride: 2),
    depthwise("hand-det dw5x5 96x96x32", 96, 32, k: 5),
    depthwise("hand-det dw5x5 48x48x64", 48, 64, k: 5),
    depthwise("hand-det dw5x5 24x24x128", 24, 128, k: 5),
    depthwise("hand-det dw5x5 12x12x256", 12, 256, k: 5),
    conv("hand-lm 3x3/2 stem 224x224 3->24", 224, 3, 24, k: 3, stride: 2),
    conv("hand-lm 1x1 112x112 16->64", 112, 16, 64),
    conv("hand-lm 1x1 56x56 24->144", 56, 24, 144),
    depthwise("hand-lm dw5x5 14x14x672", 14, 672, k: 5),
    depthwise("hand-lm dw5x5 7x7x1152", 7, 1152, k: 5),
    conv("hand-lm 1x1 14x14 112->672", 14, 112, 672),
    conv("hand-lm 1x1 7x7 192->1152", 7, 192, 1152),
    conv("conv 3x3 64x64 32->32", 64, 32, 32, k: 3),
    conv("GEMM 4096x64 * 64x64", 64, 64, 64),
    Case(
        name: "maxpool 2x2/2 64x64x32", kind: .maxPool,
        geometry: Conv2DGeometry(
            inputHeight: 64, inputWidth: 64, inputChannels: 32, outputChannels: 32, kernelHeight: 2, kernelWidth: 2,
            strideHeight: 2, strideWidth: 2, padding: .valid)),
]

var isa = KernelISA.best
var threads = KernelThreads.single
var filter = ""
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--portable": isa = .portable
    case "--avx2": isa = .avx2
    case "--neon": isa = .neon
    case "--threads": threads = KernelThreads(Int(args.popFirst() ?? "") ?? 1)
    case "--filter": filter = args.popFirst() ?? ""
    default:
        print("usage: kernel-bench [--portable | --avx2 | --neon] [--threads N] [--filter TEXT]")
        exit(2)
    }
}

/// Fastest seconds per call of `body` over 15 timed batches (the minimum resists other load on the machine).
func measure(_ body: () -> Void) -> Double {
    for _ in 0..<3 { body() }
    var start = DispatchTime.now().uptimeNanoseconds
    var reps = 0
    while DispatchTime.now().uptimeNanoseconds - start < 20_000_000 {
        body()
        reps += 1
    }
    let batch = max(1, reps / 4)
    var samples: [Double] = []
    for _ in 0..<15 {
        start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<batch { body() }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(batch))
    }
    return samples.min() ?? 0
}

print("isa \(isa), threads \(threads.count)")
print("layer".padding(toLength: 36, withPad: " ", startingAt: 0) + "      ms   GFLOP/s")
/// Pseudo-random values in [-0.5, 0.5) (a linear congruential generator).
func random(_ n: Int, seed: UInt32 = 1) -> [Float] {
    var state = seed &+ UInt32(truncatingIfNeeded: n)
    return (0..<n).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(state >> 8) / Float(1 << 24) - 0.5
    }
}
for c in cases where filter.isEmpty || c.name.contains(filter) {
    let g = c.geometry
    let input = random(g.inputCount)
    var output = [Float](repeating: 0, count: g.outputCount)
    let seconds: Double
    do {
        switch c.kind {
        case .conv:
            let w = try PackedConv2DWeights(
                geometry: g, filter: random(g.outputChannels * g.kernelHeight * g.kernelWidth * g.inputChannels),
                bias: random(g.outputChannels))
            var scratch = [Float](repeating: 0, count: max(1, w.scratchCount(threads: threads)))
            seconds = input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    scratch.withUnsafeMutableBufferPointer { s in
                        measure {
                            conv2D(
                                input: i.baseAddress!, output: o.baseAddress!, weights: w, activation: .relu,
                                scratch: s.baseAddress, threads: threads, isa: isa)
                        }
                    }
                }
            }
        case .depthwise:
            let w = try PackedDepthwiseWeights(
                geometry: g, filter: random(g.kernelHeight * g.kernelWidth * g.outputChannels),
                bias: random(g.outputChannels))
            seconds = input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    measure {
                        depthwiseConv2D(
                            input: i.baseAddress!, output: o.baseAddress!, weights: w, activation: .relu6,
                            threads: threads, isa: isa)
                    }
                }
            }
        case .maxPool:
            seconds = input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    measure {
                        maxPool2D(
                            input: i.baseAddress!, output: o.baseAddress!, geometry: g, threads: threads, isa: isa)
                    }
                }
            }
        }
    } catch {
        print("\(c.name): \(error)")
        continue
    }
    let name = c.name.padding(toLength: 36, withPad: " ", startingAt: 0)
    let ms = String(format: "%8.4f", seconds * 1e3)
    print("\(name)\(ms) \(String(format: "%9.1f", c.flops / seconds / 1e9))")
}
