// STRIDED_SLICE with constant begin, end and strides and all of TFLite's masks, as one strided copy.

import TFLite
import VisionErrors

/// Masks of STRIDED_SLICE, as TFLite defines them (bit i refers to slice dimension i).
struct SliceMasks: Equatable, Sendable {
    var beginMask = 0, endMask = 0, ellipsisMask = 0, newAxisMask = 0, shrinkAxisMask = 0
    /// When true, `end` is an offset from `begin` rather than an index.
    var offset = false
}

/// STRIDED_SLICE: inputs 1, 2 and 3 are the constant begin, end and strides.
struct StridedSliceOperator: GraphOperation, Equatable {
    var masks: SliceMasks

    init(_ masks: SliceMasks) { self.masks = masks }

    static let loaders: [BuiltinOperator: OperatorLoader] = [
        .stridedSlice: { source in
            guard case .stridedSlice(let o) = source.options else { return StridedSliceOperator(SliceMasks()) }
            return StridedSliceOperator(
                SliceMasks(
                    beginMask: o.beginMask, endMask: o.endMask, ellipsisMask: o.ellipsisMask,
                    newAxisMask: o.newAxisMask, shrinkAxisMask: o.shrinkAxisMask,
                    offset: o.offset))
        }
    ]

    func prepare(_ node: NodeInputs) throws(VisionTasksError) -> PreparedNode {
        try node.requireOutputs(1)
        let (out, copy) = try LayoutPlanner.stridedSlice(
            try node.floatShape(0), begin: try node.ints(1),
            end: try node.ints(2), strides: try node.ints(3), options: masks)
        return PreparedNode(outputShapes: [out]) { ctx in
            CopyKernel(input: ctx.input(0), out: ctx.output(0), copies: [copy])
        }
    }
}
