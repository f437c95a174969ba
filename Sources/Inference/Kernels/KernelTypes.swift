import CKernels
import VisionErrors

// MARK: - Instruction sets

/// The instruction set a kernel call runs with; `.best` is what this CPU supports.
package enum KernelISA: Int, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Plain C, correct on any CPU (SSE2 vectorisation on x86-64, NEON where the compiler finds it on AArch64).
    case portable = 0
    /// AVX2 + FMA intrinsics (x86-64).
    case avx2 = 1
    /// AVX-512F GEMM micro-kernels (convolution, fully connected), AVX2 for the other kernels (x86-64).
    case avx512 = 2
    /// Advanced SIMD (NEON) intrinsics (AArch64): GEMM, depthwise convolution, pooling, PRELU, ADD.
    case neon = 3

    /// Every path this CPU runs, portable first, the most capable last.
    package static let available: [KernelISA] =
        [.portable]
        + (vt_cpu_has_avx2_fma() != 0 ? [.avx2] : []) + (vt_cpu_has_avx512() != 0 ? [.avx512] : [])
        + (vt_cpu_has_neon() != 0 ? [.neon] : [])

    /// The most capable path this CPU runs.
    package static let best: KernelISA = available.last ?? .portable

    /// The C selector of each path by raw value, worked out once: the path where the CPU runs it,
    /// else AVX2 for AVX-512 on an AVX2 CPU, else portable.
    private static let codes: [Int32] = allCases.map { isa in
        let runs = available.contains(isa) ? isa : isa == .avx512 && available.contains(.avx2) ? .avx2 : .portable
        return Int32(runs.rawValue)
    }

    /// The C selector (a table look-up: kernel calls allocate nothing).
    var code: Int32 { Self.codes[rawValue] }

    /// "portable", "avx2", "avx512" or "neon".
    package var description: String {
        switch self {
        case .portable: return "portable"
        case .avx2: return "avx2"
        case .avx512: return "avx512"
        case .neon: return "neon"
        }
    }
}

// MARK: - Activations and padding

/// A fused activation as a clamp of every output to [min, max].
package struct ClampRange: Sendable, Equatable {
    /// Lower bound (`-infinity` for none).
    package var min: Float
    /// Upper bound (`+infinity` for none).
    package var max: Float

    /// A clamp to [min, max].
    package init(min: Float, max: Float) {
        self.min = min
        self.max = max
    }

    /// No activation.
    package static let none = ClampRange(min: -.infinity, max: .infinity)
    /// RELU: [0, inf].
    package static let relu = ClampRange(min: 0, max: .infinity)
    /// RELU6: [0, 6].
    package static let relu6 = ClampRange(min: 0, max: 6)
    /// RELU_N1_TO_1: [-1, 1].
    package static let reluN1To1 = ClampRange(min: -1, max: 1)
}

/// TFLite's padding schemes for window operations.
package enum WindowPadding: Sendable, Equatable {
    /// Output = ceil(input / stride), zero padding split with the extra row/column at the bottom/right.
    case same
    /// No padding: output = ceil((input - effectiveKernel + 1) / stride).
    case valid
    /// These zero rows and columns around the input, then VALID (a PAD folded into the window
    /// operation that reads it).
    case explicit(top: Int, bottom: Int, left: Int, right: Int)
}

// MARK: - Window geometry

/// Shapes and parameters of a 2-D window operation on NHWC tensors (convolution, depthwise
/// convolution, pooling). Output pixel (oy, ox) reads input rows `oy*strideHeight - padTop +
/// ky*dilationHeight` (columns likewise); taps outside the input count as zero (or are skipped by pooling).
package struct Conv2DGeometry: Sendable, Equatable {
    /// Batch size N of input and output.
    package var batch: Int
    /// Input height.
    package var inputHeight: Int
    /// Input width.
    package var inputWidth: Int
    /// Input channels.
    package var inputChannels: Int
    /// Output height.
    package var outputHeight: Int
    /// Output width.
    package var outputWidth: Int
    /// Output channels (depthwise: input channels × depth multiplier; pooling: = input channels).
    package var outputChannels: Int
    /// Kernel (filter or pooling window) height.
    package var kernelHeight: Int
    /// Kernel width.
    package var kernelWidth: Int
    /// Vertical stride.
    package var strideHeight: Int
    /// Horizontal stride.
    package var strideWidth: Int
    /// Vertical dilation (1 = dense).
    package var dilationHeight: Int
    /// Horizontal dilation (1 = dense).
    package var dilationWidth: Int
    /// Zero rows above the input.
    package var padTop: Int
    /// Zero columns left of the input.
    package var padLeft: Int

    /// A geometry with explicit output size and padding.
    package init(
        batch: Int = 1, inputHeight: Int, inputWidth: Int, inputChannels: Int,
        outputHeight: Int, outputWidth: Int, outputChannels: Int,
        kernelHeight: Int, kernelWidth: Int, strideHeight: Int = 1, strideWidth: Int = 1,
        dilationHeight: Int = 1, dilationWidth: Int = 1, padTop: Int = 0, padLeft: Int = 0
    ) {
        self.batch = batch
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.inputChannels = inputChannels
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.outputChannels = outputChannels
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.dilationHeight = dilationHeight
        self.dilationWidth = dilationWidth
        self.padTop = padTop
        self.padLeft = padLeft
    }

    /// A geometry whose output size and padding follow TFLite's SAME/VALID rules (or explicit paddings).
    package init(
        batch: Int = 1, inputHeight: Int, inputWidth: Int, inputChannels: Int, outputChannels: Int,
        kernelHeight: Int, kernelWidth: Int, strideHeight: Int = 1, strideWidth: Int = 1,
        dilationHeight: Int = 1, dilationWidth: Int = 1, padding: WindowPadding
    ) {
        func axis(_ size: Int, _ k: Int, _ stride: Int, _ dilation: Int, _ explicit: (Int, Int)) -> (out: Int, pad: Int)
        {
            let effective = (k - 1) * dilation + 1
            guard stride > 0 else { return (0, 0) }
            switch padding {
            case .same:
                let out = (size + stride - 1) / stride
                return (out, Swift.max((out - 1) * stride + effective - size, 0) / 2)
            case .valid:
                return (Swift.max((size - effective + stride) / stride, 0), 0)
            case .explicit:
                let padded = size + explicit.0 + explicit.1
                return (Swift.max((padded - effective + stride) / stride, 0), explicit.0)
            }
        }
        var (rows, columns) = ((0, 0), (0, 0))
        if case .explicit(let top, let bottom, let left, let right) = padding {
            (rows, columns) = ((top, bottom), (left, right))
        }
        let y = axis(inputHeight, kernelHeight, strideHeight, dilationHeight, rows)
        let x = axis(inputWidth, kernelWidth, strideWidth, dilationWidth, columns)
        self.init(
            batch: batch, inputHeight: inputHeight, inputWidth: inputWidth, inputChannels: inputChannels,
            outputHeight: y.out, outputWidth: x.out, outputChannels: outputChannels,
            kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: strideHeight,
            strideWidth: strideWidth, dilationHeight: dilationHeight, dilationWidth: dilationWidth,
            padTop: y.pad, padLeft: x.pad)
    }

    /// Elements of the input tensor.
    package var inputCount: Int { batch * inputHeight * inputWidth * inputChannels }
    /// Elements of the output tensor.
    package var outputCount: Int { batch * outputHeight * outputWidth * outputChannels }

    /// The C view; call only after `validate(_:)` succeeded.
    var c: vt_conv_geometry {
        vt_conv_geometry(
            batch: Int32(batch), in_h: Int32(inputHeight), in_w: Int32(inputWidth),
            in_c: Int32(inputChannels), out_h: Int32(outputHeight), out_w: Int32(outputWidth),
            out_c: Int32(outputChannels), k_h: Int32(kernelHeight), k_w: Int32(kernelWidth),
            stride_h: Int32(strideHeight), stride_w: Int32(strideWidth),
            dil_h: Int32(dilationHeight), dil_w: Int32(dilationWidth),
            pad_top: Int32(padTop), pad_left: Int32(padLeft))
    }

    /// Throws `unsupportedModel` naming `operation` unless every size is positive and within 2^31 elements.
    package func validate(_ operation: String) throws {
        let fields = [
            batch, inputHeight, inputWidth, inputChannels, outputHeight, outputWidth, outputChannels,
            kernelHeight, kernelWidth, strideHeight, strideWidth, dilationHeight, dilationWidth,
            padTop, padLeft,
        ]
        guard fields.allSatisfy({ $0 >= 0 && $0 < Int(Int32.max) }) else {
            throw VisionTasksError.unsupportedModel("\(operation): geometry out of range: \(self)")
        }
        var g = c
        guard vt_conv_geometry_valid(&g) != 0 else {
            throw VisionTasksError.unsupportedModel("\(operation): invalid geometry \(self)")
        }
    }
}
