import CKernels
import VisionErrors

/// How one kind of window kernel (CONV_2D, DEPTHWISE_CONV_2D) checks and packs its weights.
package protocol WindowKernelKind: Sendable {
    /// The TFLite operator name, for error messages.
    static var operation: String { get }
    /// Number of filter values the geometry needs.
    static func filterCount(_ g: Conv2DGeometry) -> Int
    /// Throws when the geometry does not suit this kernel (beyond `Conv2DGeometry.validate`).
    static func check(_ g: Conv2DGeometry) throws
    /// Floats of packed storage.
    static func packedCount(_ g: inout vt_conv_geometry) -> Int
    /// Packs filter and bias (NULL = zero) into storage.
    static func pack(
        _ g: inout vt_conv_geometry, _ filter: UnsafePointer<Float>, _ bias: UnsafePointer<Float>?,
        _ packed: UnsafeMutablePointer<Float>)
}

/// Weights of a window kernel packed once at load for one geometry; `Kind` says which kernel
/// (see `PackedConv2DWeights`, `PackedDepthwiseWeights`).
package final class PackedWindowWeights<Kind: WindowKernelKind>: @unchecked Sendable {
    /// The geometry these weights were packed for (every run call uses it).
    package let geometry: Conv2DGeometry
    let storage: AlignedFloats

    /// Packs `filter` (layout per kernel kind) and `bias` [outputChannels] (nil = zero).
    /// Throws `unsupportedModel` when sizes disagree with `geometry`.
    package init(
        geometry: Conv2DGeometry, filter: UnsafeBufferPointer<Float>,
        bias: UnsafeBufferPointer<Float>?
    ) throws {
        try geometry.validate(Kind.operation)
        try Kind.check(geometry)
        var cg = geometry.c
        storage = try AlignedFloats.packing(
            Kind.operation, weights: filter, weightCount: Kind.filterCount(geometry), bias: bias,
            biasCount: geometry.outputChannels, packedCount: Kind.packedCount(&cg)
        ) { Kind.pack(&cg, $0, $1, $2) }
        self.geometry = geometry
    }

    /// Packs arrays; see `init(geometry:filter:bias:)` with buffers.
    package convenience init(geometry: Conv2DGeometry, filter: [Float], bias: [Float]?) throws {
        let packed = try withWeightBuffers(filter, bias) { try Self(geometry: geometry, filter: $0, bias: $1) }
        self.init(sharing: packed)
    }

    private init(sharing other: PackedWindowWeights) {
        geometry = other.geometry
        storage = other.storage
    }
}

/// CONV_2D: filter OHWI [outputChannels, kernelHeight, kernelWidth, inputChannels], packed into GEMM panels.
package enum Conv2DKind: WindowKernelKind {
    package static let operation = "CONV_2D"
    package static func filterCount(_ g: Conv2DGeometry) -> Int {
        g.outputChannels * g.kernelHeight * g.kernelWidth * g.inputChannels
    }
    package static func check(_ g: Conv2DGeometry) throws {}
    package static func packedCount(_ g: inout vt_conv_geometry) -> Int { vt_conv2d_packed_count(&g) }
    package static func pack(
        _ g: inout vt_conv_geometry, _ filter: UnsafePointer<Float>,
        _ bias: UnsafePointer<Float>?, _ packed: UnsafeMutablePointer<Float>
    ) {
        vt_conv2d_pack(&g, filter, bias, packed)
    }
}

/// DEPTHWISE_CONV_2D: filter [1, kernelHeight, kernelWidth, outputChannels], outputChannels = C × multiplier.
package enum DepthwiseKind: WindowKernelKind {
    package static let operation = "DEPTHWISE_CONV_2D"
    package static func filterCount(_ g: Conv2DGeometry) -> Int { g.kernelHeight * g.kernelWidth * g.outputChannels }
    package static func check(_ g: Conv2DGeometry) throws {
        guard g.outputChannels % g.inputChannels == 0 else {
            throw VisionTasksError.unsupportedModel(
                "DEPTHWISE_CONV_2D: \(g.outputChannels) output channels is not a multiple of \(g.inputChannels) inputs")
        }
    }
    package static func packedCount(_ g: inout vt_conv_geometry) -> Int { vt_dwconv_packed_count(&g) }
    package static func pack(
        _ g: inout vt_conv_geometry, _ filter: UnsafePointer<Float>,
        _ bias: UnsafePointer<Float>?, _ packed: UnsafeMutablePointer<Float>
    ) {
        vt_dwconv_pack(&g, filter, bias, packed)
    }
}

/// CONV_2D weights (OHWI filter + bias) packed at load into the panels `conv2D` reads.
package typealias PackedConv2DWeights = PackedWindowWeights<Conv2DKind>
/// DEPTHWISE_CONV_2D weights ([1, KH, KW, O] filter + bias) packed at load for `depthwiseConv2D`.
package typealias PackedDepthwiseWeights = PackedWindowWeights<DepthwiseKind>

extension PackedWindowWeights where Kind == Conv2DKind {
    /// Floats of scratch `conv2D` needs with `threads` (0 for 1×1 convolutions without padding).
    package func scratchCount(threads: KernelThreads) -> Int {
        var cg = geometry.c
        return vt_conv2d_scratch_count(&cg) * threads.count
    }
}
