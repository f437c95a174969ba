import CImageCodecs
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
    /// `ProcessForConfidenceMaskCpu` does (in C: `ic_resize_plane_linear`). `splitRows`, if given,
    /// spreads the output rows over threads.
    public func confidenceMasks(
        activation: Activation, outputWidth: Int, outputHeight: Int, splitRows: ImageToTensor.WorkSplitter? = nil
    ) -> [[Float]] {
        let planes = activatedPlanes(activation)
        guard outputWidth != width || outputHeight != height else { return planes }
        let (sw, sh, dw, dh) = (Int32(width), Int32(height), Int32(outputWidth), Int32(outputHeight))
        return planes.map { plane in
            [Float](unsafeUninitializedCapacity: outputWidth * outputHeight) { out, count in
                guard let base = out.baseAddress else { return }
                Self.inRowBands(outputHeight, splitRows) { rows in
                    withScratch(2 * outputWidth + outputHeight, outputWidth + outputHeight, 2 * outputWidth) {
                        ic_resize_plane_linear(
                            plane, sw, sh, base, dw, dh, Int32(rows.lowerBound), Int32(rows.upperBound), $0, $1, $2)
                    }
                }
                count = outputWidth * outputHeight
            }
        }
    }

    /// The category mask at `outputWidth`×`outputHeight`, as MediaPipe's `ProcessForCategoryMaskCpu`:
    /// each output pixel samples the tensor bilinearly with corners aligned (scale (in − 1) / (out − 1)),
    /// then, for one channel, 0 where the (activated, for SIGMOID) value exceeds 0.5 and 255 elsewhere;
    /// for several, the index of the largest channel (softmax keeps the order, so it is not applied).
    /// In C: `ic_segmentation_category`. `splitRows`, if given, spreads the output rows over threads.
    public func categoryMask(
        activation: Activation, outputWidth: Int, outputHeight: Int, splitRows: ImageToTensor.WorkSplitter? = nil
    ) -> [UInt8] {
        let (w, h, c, ow, oh) = (Int32(width), Int32(height), Int32(channels), Int32(outputWidth), Int32(outputHeight))
        let sigmoid: Int32 = activation == .sigmoid ? 1 : 0
        return values.withUnsafeBufferPointer { values in
            [UInt8](unsafeUninitializedCapacity: outputWidth * outputHeight) { out, count in
                guard let base = out.baseAddress else { return }
                Self.inRowBands(outputHeight, splitRows) { rows in
                    withScratch(2 * outputWidth, outputWidth, (width + 1) * channels) {
                        ic_segmentation_category(
                            values.baseAddress, w, h, c, sigmoid, base, ow, oh, Int32(rows.lowerBound),
                            Int32(rows.upperBound), $0, $1, $2)
                    }
                }
                count = outputWidth * outputHeight
            }
        }
    }

    /// Runs `body` over `0 ..< rows`: in bands on `splitRows`'s threads, or whole on this one.
    private static func inRowBands(
        _ rows: Int, _ splitRows: ImageToTensor.WorkSplitter?, _ body: (Range<Int>) -> Void
    ) {
        // A splitter's band outside the rows is cut to them: C writes each row given.
        if let splitRows { splitRows(rows) { body($0.clamped(to: 0..<rows)) } } else { body(0..<rows) }
    }

    /// One plane per channel at the tensor's size, the activation applied to each pixel's channels (the
    /// values themselves for one channel without activation).
    private func activatedPlanes(_ activation: Activation) -> [[Float]] {
        if channels == 1 && activation == .none { return [values] }
        var planes = [[Float]](repeating: [Float](repeating: 0, count: width * height), count: channels)
        var pixel = [Float](repeating: 0, count: channels)
        for i in 0..<(width * height) {
            for c in 0..<channels { pixel[c] = values[i * channels + c] }
            Self.activate(&pixel, activation)
            for c in 0..<channels { planes[c][i] = pixel[c] }
        }
        return planes
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
}

/// Lends `body` uninitialised scratch of `indices` Int32 and of `weights` and `floats` Floats (a set of
/// its own for each concurrent caller).
private func withScratch(
    _ indices: Int, _ weights: Int, _ floats: Int,
    _ body: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void
) {
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: indices) { index in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: weights + floats) { scratch in
            guard let index = index.baseAddress, let scratch = scratch.baseAddress else { return }
            body(index, scratch, scratch + weights)
        }
    }
}
