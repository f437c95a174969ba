/// Temporal smoothing of a confidence mask, as MediaPipe's `SegmentationSmoothingCalculator` (CPU path)
/// mixes each new mask with the previous output: per pixel, the new value `p` moves towards the previous
/// one by `ratio × uncertainty(p)`, where the uncertainty is 1 at p = 0.5 and 0 at p = 0 or 1 (MediaPipe's
/// polynomial in (p − 0.5)², which approximates one minus the squared certainty 1 − entropy(p)). Confident
/// pixels follow the model at once; uncertain ones (edges, flicker) are held steadier.
public struct MaskTemporalSmoothing: Sendable {
    /// How much of the previous mask an uncertain pixel keeps, 0...1 (MediaPipe's
    /// `combine_with_previous_ratio`; its selfie segmentation graphs use 0.7).
    public let ratio: Float
    /// Beyond MediaPipe: the luminance change since the previous frame (in the luminance's units, averaged
    /// over the pixel's window of `motionRadius`) at which a pixel counts as moving; the mixing fades linearly
    /// from full at no change to none at this change, so moving edges follow the model at once while still
    /// ones stay steady. With it the mixing also fades as the model leaves the previous output behind, by
    /// 1 − |p − previous|, so edges drifting too slowly to count as moving still follow (nil: MediaPipe's
    /// rule alone).
    public let motionScale: Float?
    private var previous: FloatPlane?
    private var previousLuma: FloatPlane?
    /// The radius of the window the luminance change is averaged over before it gates the mixing.
    public static let motionRadius = 4

    /// Smoothing with `ratio` in 0...1 (0 passes each mask through unchanged) and `motionScale` > 0 or nil.
    public init?(ratio: Float, motionScale: Float? = nil) {
        guard ratio >= 0, ratio <= 1, (motionScale.map { $0 > 0 && $0.isFinite } ?? true) else { return nil }
        (self.ratio, self.motionScale) = (ratio, motionScale)
    }

    /// The uncertainty of a confidence `p`: MediaPipe's fifth-degree polynomial in x = (p − 0.5)², 1 − that, floored at 0.
    public static func uncertainty(_ p: Float) -> Float {
        let t = p - 0.5, x = t * t
        let polynomial = x * (5.68842 + x * (-0.748699 + x * (-57.8051 + x * (291.309 + x * -624.717))))
        return 1 - min(1, polynomial)
    }

    /// The new mask mixed with the previous output (the first mask, or one of another size, as it is);
    /// the result becomes the previous output. With `motionScale`, `luma` (the frame's luminance at the
    /// mask's size) gates the mixing pixel by pixel against the previous frame's.
    public mutating func smooth(_ mask: FloatPlane, luma: FloatPlane? = nil) -> FloatPlane {
        let lastLuma = previousLuma
        previousLuma = luma
        guard let previous, previous.width == mask.width, previous.height == mask.height, ratio > 0 else {
            previous = mask
            return mask
        }
        var out = mask
        let ratio = ratio
        // The change is averaged over each pixel's 5×5 window first, so that camera noise does not count as motion.
        var change: [Float]?
        if let motionScale, let luma, let lastLuma, luma.values.count == mask.values.count,
            lastLuma.values.count == mask.values.count
        {
            var difference = luma
            for i in difference.values.indices { difference.values[i] = abs(luma.values[i] - lastLuma.values[i]) }
            change = BoxMean.of(difference, radius: Self.motionRadius).values.map { $0 / motionScale }
        }
        let following = motionScale != nil
        out.values.withUnsafeMutableBufferPointer { out in
            previous.values.withUnsafeBufferPointer { old in
                for i in 0..<out.count {
                    let p = out[i]
                    var weight = Self.uncertainty(p) * ratio
                    if let change { weight *= max(0, 1 - change[i]) }
                    if following { weight *= 1 - min(abs(p - old[i]), 1) }
                    out[i] = p + (old[i] - p) * weight
                }
            }
        }
        self.previous = out
        return out
    }

    /// Forgets the previous output (a new stream).
    public mutating func reset() { previous = nil }
}

/// Whether a frame may reuse the mask of the last segmented frame: when its small luminance differs
/// from that frame's by at most `threshold` on average (in the luminance's units) and fewer than `maxConsecutive`
/// frames in a row have reused it already. The comparison is always with the last segmented frame, so
/// slow drift adds up and forces a fresh mask.
public struct MaskReusePolicy: Sendable {
    /// The largest mean absolute luminance difference that still reuses the mask; 0 never reuses.
    public let threshold: Float
    /// The most frames in a row that may reuse one mask.
    public let maxConsecutive: Int
    private var reference: FloatPlane?
    private var reusedInARow = 0

    /// A policy of `threshold` ≥ 0 and `maxConsecutive` ≥ 0 (either 0: every frame is segmented).
    public init?(threshold: Float, maxConsecutive: Int) {
        guard threshold >= 0, threshold.isFinite, maxConsecutive >= 0 else { return nil }
        (self.threshold, self.maxConsecutive) = (threshold, maxConsecutive)
    }

    /// The mean absolute difference of two planes of the same size, in their units.
    public static func meanAbsoluteDifference(_ a: FloatPlane, _ b: FloatPlane) -> Float {
        precondition(a.values.count == b.values.count, "planes of different sizes")
        var sum: Float = 0
        a.values.withUnsafeBufferPointer { first in
            b.values.withUnsafeBufferPointer { second in
                for i in 0..<first.count { sum += abs(first[i] - second[i]) }
            }
        }
        return sum / Float(max(a.values.count, 1))
    }

    /// Decides for a frame of luminance `luma` (in the threshold's units): true to reuse the last mask; false to segment
    /// it, and then `luma` becomes the reference.
    public mutating func reuse(luma: FloatPlane) -> Bool {
        if let reference, reference.width == luma.width, reference.height == luma.height,
            reusedInARow < maxConsecutive, threshold > 0,
            Self.meanAbsoluteDifference(reference, luma) <= threshold
        {
            reusedInARow += 1
            return true
        }
        reference = luma
        reusedInARow = 0
        return false
    }
}
