import Foundation
import VisionErrors

/// The settings of MediaPipe's grid SSD anchor generator (`SsdAnchorsCalculatorOptions`, without the
/// multi-scale and fixed-list variants, which none of our models use).
public struct SSDAnchorOptions: Sendable, Equatable {
    /// Input tensor width in pixels.
    public var inputWidth: Int
    /// Input tensor height in pixels.
    public var inputHeight: Int
    /// Scale of the first layer's anchors.
    public var minScale: Float
    /// Scale of the last layer's anchors.
    public var maxScale: Float
    /// Horizontal anchor centre offset within a cell, in cells.
    public var anchorOffsetX: Float
    /// Vertical anchor centre offset within a cell, in cells.
    public var anchorOffsetY: Float
    /// The stride of each output feature map (one per layer); consecutive equal strides share a grid.
    public var strides: [Int]
    /// Aspect ratios of the anchors at every location.
    public var aspectRatios: [Float]
    /// Whether the lowest layer uses MediaPipe's predefined three boxes.
    public var reduceBoxesInLowestLayer: Bool
    /// Aspect ratio of the extra interpolated-scale anchor; 0 or less adds none.
    public var interpolatedScaleAspectRatio: Float
    /// Whether every anchor has width and height 1.
    public var fixedAnchorSize: Bool

    /// Creates anchor options; the defaults are the proto's defaults.
    public init(
        inputWidth: Int, inputHeight: Int, minScale: Float, maxScale: Float,
        anchorOffsetX: Float = 0.5, anchorOffsetY: Float = 0.5, strides: [Int],
        aspectRatios: [Float], reduceBoxesInLowestLayer: Bool = false,
        interpolatedScaleAspectRatio: Float = 1.0, fixedAnchorSize: Bool = false
    ) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.minScale = minScale
        self.maxScale = maxScale
        self.anchorOffsetX = anchorOffsetX
        self.anchorOffsetY = anchorOffsetY
        self.strides = strides
        self.aspectRatios = aspectRatios
        self.reduceBoxesInLowestLayer = reduceBoxesInLowestLayer
        self.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio
        self.fixedAnchorSize = fixedAnchorSize
    }
}

/// Generates SSD anchors as MediaPipe's `SsdAnchorsCalculator` does: layers with equal consecutive
/// strides are merged into one grid, and each grid cell emits its anchors in row-major order.
/// Each anchor is an unrotated rect in normalized input-tensor coordinates; with a fixed anchor
/// size its width and height are 1 and the model predicts sizes directly. Throws `invalidArgument` for options that cannot describe a grid.
public func generateSSDAnchors(_ options: SSDAnchorOptions) throws -> [NormalizedRect] {
    guard !options.strides.isEmpty, options.strides.allSatisfy({ $0 > 0 }) else {
        throw VisionTasksError.invalidArgument(
            "SSD anchors need at least one stride, all positive; got \(options.strides)")
    }
    guard options.inputWidth > 0, options.inputHeight > 0 else {
        throw VisionTasksError.invalidArgument(
            "SSD anchors need a positive input size; got \(options.inputWidth)×\(options.inputHeight)")
    }
    let strides = options.strides
    var anchors: [NormalizedRect] = []
    var layer = 0
    while layer < strides.count {
        var heights: [Float] = []
        var widths: [Float] = []
        var last = layer
        while last < strides.count && strides[last] == strides[layer] {
            let scale = anchorScale(options, layer: last)
            var ratios: [Float] = []
            var scales: [Float] = []
            if last == 0 && options.reduceBoxesInLowestLayer {
                ratios = [1.0, 2.0, 0.5]
                scales = [0.1, scale, scale]
            } else {
                for ratio in options.aspectRatios {
                    ratios.append(ratio)
                    scales.append(scale)
                }
                if options.interpolatedScaleAspectRatio > 0 {
                    let next: Float = last == strides.count - 1 ? 1.0 : anchorScale(options, layer: last + 1)
                    scales.append((scale * next).squareRoot())
                    ratios.append(options.interpolatedScaleAspectRatio)
                }
            }
            for (ratio, scale) in zip(ratios, scales) {
                let root = ratio.squareRoot()
                heights.append(scale / root)
                widths.append(scale * root)
            }
            last += 1
        }
        let stride = Float(strides[layer])
        let rows = Int((Float(options.inputHeight) / stride).rounded(.up))
        let columns = Int((Float(options.inputWidth) / stride).rounded(.up))
        anchors.reserveCapacity(anchors.count + rows * columns * heights.count)
        for y in 0..<rows {
            for x in 0..<columns {
                let xCenter = (Float(x) + options.anchorOffsetX) / Float(columns)
                let yCenter = (Float(y) + options.anchorOffsetY) / Float(rows)
                for k in heights.indices {
                    anchors.append(
                        options.fixedAnchorSize
                            ? NormalizedRect(xCenter: xCenter, yCenter: yCenter, width: 1, height: 1)
                            : NormalizedRect(xCenter: xCenter, yCenter: yCenter, width: widths[k], height: heights[k]))
                }
            }
        }
        layer = last
    }
    return anchors
}

/// MediaPipe's per-layer scale: linear from min to max over the layers (their mean for one layer).
private func anchorScale(_ options: SSDAnchorOptions, layer: Int) -> Float {
    let count = options.strides.count
    if count == 1 { return (options.minScale + options.maxScale) * 0.5 }
    // MediaPipe takes the difference in float, then finishes in double (a `* 1.0` promotes it).
    let range = Double(options.maxScale - options.minScale)
    return Float(Double(options.minScale) + range * Double(layer) / Double(Float(count) - 1))
}
