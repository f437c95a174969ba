import VisionErrors

/// Turns an image region into a float NHWC RGB tensor as MediaPipe's ImageToTensorCalculator
/// does on the CPU: the (rotated) region of interest, optionally padded to the tensor's aspect
/// ratio, is warped to the tensor with OpenCV's fixed-point bilinear sampling (`warpPerspective`,
/// `INTER_LINEAR`, 1/32-pixel positions, 8-bit levels), then mapped linearly to the output range.
public enum ImageToTensor {
    /// Runs a body over disjoint ranges covering `0 ..< total`, possibly on several threads at once,
    /// and returns when all are done (an inference engine's worker pool, say).
    public typealias WorkSplitter = (_ total: Int, _ body: (Range<Int>) -> Void) -> Void

    /// Fills `output` (at least `options.elementCount` floats, row-major height x width x RGB)
    /// with the region `roi` of `image`, given in the upright image's normalised coordinates
    /// (`nil` is the whole image). Returns the letterbox padding and matrix to project results back.
    /// Allocates nothing per pixel. `splitRows`, if given, spreads the tensor's rows over threads.
    /// Throws for a mirrored orientation, a NaN or empty region, or a short buffer.
    @discardableResult
    public static func convert(
        _ image: MPImage, roi: NormalizedRect? = nil, options: ImageToTensorOptions,
        into output: UnsafeMutableBufferPointer<Float>,
        splitRows: WorkSplitter? = nil
    ) throws -> ImageToTensorTransform {
        try image.checkOrientationSupported()
        guard let outputBase = output.baseAddress, output.count >= options.elementCount else {
            throw VisionTasksError.invalidArgument(
                "image to tensor: output buffer holds \(output.count) floats, \(options.outputWidth)x\(options.outputHeight)x3 needs \(options.elementCount)"
            )
        }
        let uprightRect = roi ?? .fullImage
        for value in [
            uprightRect.xCenter, uprightRect.yCenter, uprightRect.width, uprightRect.height, uprightRect.rotation,
        ]
        where !value.isFinite {
            throw VisionTasksError.invalidArgument("image to tensor: region of interest \(uprightRect) is not finite")
        }
        guard uprightRect.width > 0, uprightRect.height > 0 else {
            throw VisionTasksError.invalidArgument("image to tensor: region of interest \(uprightRect) has no area")
        }

        // The result's geometry, in the upright image.
        var uprightRoi = uprightRect.denormalized(imageWidth: image.width, imageHeight: image.height)
        var padding = LetterboxPadding.zero
        if options.keepAspectRatio {
            padding = uprightRoi.padToAspectRatio(tensorWidth: options.outputWidth, tensorHeight: options.outputHeight)
        }
        let matrix = uprightRoi.subRectToImageMatrix(imageWidth: image.width, imageHeight: image.height)

        // The pixels, sampled as MediaPipe samples the stored frame with the rotated rectangle.
        var bufferRoi = try image.bufferRect(fromUpright: uprightRect)
            .denormalized(imageWidth: image.bufferWidth, imageHeight: image.bufferHeight)
        if options.keepAspectRatio {
            _ = bufferRoi.padToAspectRatio(tensorWidth: options.outputWidth, tensorHeight: options.outputHeight)
        }
        guard bufferRoi.width > 0, bufferRoi.height > 0 else {
            throw VisionTasksError.invalidArgument("image to tensor: region of interest \(uprightRect) has no area")
        }
        let corners = bufferRoi.openCVCorners()
        let w = Float(options.outputWidth), h = Float(options.outputHeight)
        let tensorCorners: [(x: Float, y: Float)] = [(0, h), (0, 0), (w, 0), (w, h)]
        guard let forward = perspectiveTransform(from: corners, to: tensorCorners),
            let inverse = invert3x3(forward)
        else {
            throw VisionTasksError.invalidArgument("image to tensor: region of interest \(uprightRect) is degenerate")
        }

        let low = options.outputRange.lowerBound, high = options.outputRange.upperBound
        let scale = (high - low) / 255
        try image.withUnsafeBufferBytes { pixels in
            guard let source = pixels.baseAddress else {
                throw VisionTasksError.invalidImage("image to tensor: the image has no pixels")
            }
            let warp = BilinearWarp(
                source: source.assumingMemoryBound(to: UInt8.self),
                width: image.bufferWidth, height: image.bufferHeight, format: image.bufferFormat,
                inverseMatrix: inverse, zeroBorder: options.borderMode == .zero)
            let (width, height) = (options.outputWidth, options.outputHeight)
            if let splitRows {
                splitRows(height) { // a splitter's band outside the rows is cut to them: C writes each row given
                    warp.run(
                        into: outputBase, width: width, height: height, rows: $0.clamped(to: 0..<height), low: low,
                        scale: scale)
                }
            } else {
                warp.run(into: outputBase, width: width, height: height, rows: 0..<height, low: low, scale: scale)
            }
        }
        return ImageToTensorTransform(
            letterboxPadding: padding,
            roi: uprightRoi.normalized(imageWidth: image.width, imageHeight: image.height),
            matrix: matrix)
    }
}
