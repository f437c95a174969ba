import Foundation

/// A segmentation model's output, row-major `height`×`width`×`channels` floats (one channel per label),
/// and MediaPipe's CPU steps from it to the masks (TensorsToSegmentationCalculator of the Tasks' image
/// segmenter): the activation per pixel, confidence masks resized as OpenCV's `cv::resize` with
/// `INTER_LINEAR` does, and the category mask sampled with its own corner-aligned bilinear interpolation.
public struct SegmentationTensor: Sendable {
    /// The activation applied to a pixel's channels (the model's `SEGMENTER_METADATA`; NONE without it).
    public enum Activation: Sendable {
        /// The values as they are.
        case none
        /// 1 / (1 + e^−v) per value.
        case sigmoid
        /// A softmax over the pixel's channels (MediaPipe's stable softmax: the maximum subtracted first).
        case softmax
    }

    /// Tensor width.
    public let width: Int
    /// Tensor height.
    public let height: Int
    /// Labels (channels) per pixel.
    public let channels: Int
    /// The values, `height`×`width`×`channels`.
    public let values: [Float]

    /// The tensor of `values`; nil unless it holds `width`×`height`×`channels` values, all sizes positive.
    public init?(width: Int, height: Int, channels: Int, values: [Float]) {
        guard width > 0, height > 0, channels > 0, values.count == width * height * channels else { return nil }
        (self.width, self.height, self.channels, self.values) = (width, height, channels, values)
    }

    /// One confidence mask per channel at `outputWidth`×`outputHeight`: the activation applied to each
    /// pixel at the tensor's size, then each channel resized bilinearly with half-pixel centres, edges
    /// clamped (OpenCV's `INTER_LINEAR` on floats, no antialiasing), as MediaPipe's
    /// `ProcessForConfidenceMaskCpu` does.
    public func confidenceMasks(activation: Activation, outputWidth: Int, outputHeight: Int) -> [[Float]] {
        var planes = [[Float]](repeating: [Float](repeating: 0, count: width * height), count: channels)
        var pixel = [Float](repeating: 0, count: channels)
        for i in 0..<(width * height) {
            for c in 0..<channels { pixel[c] = values[i * channels + c] }
            Self.activate(&pixel, activation)
            for c in 0..<channels { planes[c][i] = pixel[c] }
        }
        guard outputWidth != width || outputHeight != height else { return planes }
        let xs = Self.linearTaps(source: width, destination: outputWidth)
        let ys = Self.linearTaps(source: height, destination: outputHeight)
        return planes.map { plane in
            var out = [Float](repeating: 0, count: outputWidth * outputHeight)
            var upper = [Float](repeating: 0, count: outputWidth), lower = upper
            for (y, tap) in ys.enumerated() {
                Self.horizontal(plane, row: tap.index, width: width, xs, into: &upper)
                Self.horizontal(plane, row: min(tap.index + 1, height - 1), width: width, xs, into: &lower)
                let (b0, b1) = (1 - tap.weight, tap.weight)
                for x in 0..<outputWidth { out[y * outputWidth + x] = upper[x] * b0 + lower[x] * b1 }
            }
            return out
        }
    }

    /// The category mask at `outputWidth`×`outputHeight`, as MediaPipe's `ProcessForCategoryMaskCpu`:
    /// each output pixel samples the tensor bilinearly with corners aligned (scale (in − 1) / (out − 1)),
    /// then, for one channel, 0 where the (activated, for SIGMOID) value exceeds 0.5 and 255 elsewhere;
    /// for several, the index of the largest channel (softmax keeps the order, so it is not applied).
    public func categoryMask(activation: Activation, outputWidth: Int, outputHeight: Int) -> [UInt8] {
        let xScale = outputWidth > 1 ? Float(width - 1) / Float(outputWidth - 1) : 0
        let yScale = outputHeight > 1 ? Float(height - 1) / Float(outputHeight - 1) : 0
        var out = [UInt8](repeating: 0, count: outputWidth * outputHeight)
        var scores = [Float](repeating: 0, count: channels)
        for y in 0..<outputHeight {
            let sy = Float(y) * yScale
            let y0 = Int(max(sy.rounded(.down), 0)), y1 = Int(min(sy.rounded(.up), Float(height - 1)))
            let ty = max(min(sy - Float(y0), 1), 0)
            for x in 0..<outputWidth {
                let sx = Float(x) * xScale
                let x0 = Int(max(sx.rounded(.down), 0)), x1 = Int(min(sx.rounded(.up), Float(width - 1)))
                let tx = max(min(sx - Float(x0), 1), 0)
                for c in 0..<channels {
                    let v00 = values[(y0 * width + x0) * channels + c], v01 = values[(y1 * width + x0) * channels + c]
                    let v10 = values[(y0 * width + x1) * channels + c], v11 = values[(y1 * width + x1) * channels + c]
                    let left = v00 + (v01 - v00) * ty, right = v10 + (v11 - v10) * ty
                    scores[c] = left + (right - left) * tx
                }
                if activation == .sigmoid { Self.activate(&scores, .sigmoid) }
                if channels == 1 {
                    out[y * outputWidth + x] = scores[0] > 0.5 ? 0 : 255
                } else {
                    var best = 0
                    for c in 1..<channels where scores[c] > scores[best] { best = c }
                    out[y * outputWidth + x] = UInt8(truncatingIfNeeded: best)
                }
            }
        }
        return out
    }

    /// Applies `activation` to one pixel's channels in place.
    private static func activate(_ pixel: inout [Float], _ activation: Activation) {
        switch activation {
        case .none:
            return
        case .sigmoid:
            for c in pixel.indices { pixel[c] = Float(1 / (1 + exp(-Double(pixel[c])))) }
        case .softmax:
            let top = pixel.max() ?? 0
            var sum: Float = 0
            for c in pixel.indices {
                pixel[c] = exp(pixel[c] - top)
                sum += pixel[c]
            }
            for c in pixel.indices { pixel[c] /= sum }
        }
    }

    /// OpenCV's linear taps from `source` to `destination` samples: for each output index, the first
    /// source index and the weight of the next, with half-pixel centres and the edges clamped.
    private static func linearTaps(source: Int, destination: Int) -> [(index: Int, weight: Float)] {
        let scale = Double(source) / Double(destination)
        return (0..<destination).map { d in
            let f = Float((Double(d) + 0.5) * scale - 0.5)
            var index = Int(f.rounded(.down)), weight = f - Float(index)
            if index < 0 { (index, weight) = (0, 0) }
            if index >= source - 1 { (index, weight) = (source - 1, 0) }
            return (index, weight)
        }
    }

    /// One row of `plane` resized horizontally along `xs` into `row`.
    private static func horizontal(
        _ plane: [Float], row: Int, width: Int, _ xs: [(index: Int, weight: Float)], into out: inout [Float]
    ) {
        let base = row * width
        for (x, tap) in xs.enumerated() {
            let next = min(tap.index + 1, width - 1)
            out[x] = plane[base + tap.index] * (1 - tap.weight) + plane[base + next] * tap.weight
        }
    }
}
