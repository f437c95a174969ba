import CImageCodecs

/// A plane of floats, one per pixel, row-major (a mask, a luminance, a filter's coefficients).
public struct FloatPlane: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The values, `height` rows of `width` (set only here, so that their count stays the size's: C reads them).
    public internal(set) var values: [Float]

    /// A plane of `values`; nil unless it holds `width`×`height` values, both sizes positive.
    public init?(width: Int, height: Int, values: [Float]) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, values.count == count else { return nil }
        (self.width, self.height, self.values) = (width, height, values)
    }

    /// A plane of `width`×`height` filled with `value`; nil unless both sizes are positive and their product an `Int`.
    public init?(width: Int, height: Int, repeating value: Float) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow else { return nil }
        (self.width, self.height, values) = (width, height, [Float](repeating: value, count: count))
    }

    /// A plane of `plane`'s size filled with `value`.
    public init(sizeOf plane: FloatPlane, repeating value: Float) {
        (width, height, values) = (plane.width, plane.height, [Float](repeating: value, count: plane.values.count))
    }

    /// A plane of a size this module made and knows positive (a working frame's, an upsampling's target).
    init(knownWidth width: Int, height: Int, repeating value: Float) {
        precondition(width > 0 && height > 0, "a plane needs a positive size")
        (self.width, self.height, values) = (width, height, [Float](repeating: value, count: width * height))
    }

    /// The value at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }
}

/// The mean over each pixel's (2r+1)×(2r+1) window, the window clipped to the plane and each sum divided
/// by the pixels inside it: two passes of running sums, O(pixels) whatever the radius (`ic_box_mean`).
public enum BoxMean {
    /// The windowed means of `plane` with `radius` ≥ 0 (0 returns the plane).
    public static func of(_ plane: FloatPlane, radius: Int) -> FloatPlane {
        guard radius > 0 else { return plane }
        var out = FloatPlane(sizeOf: plane, repeating: 0)
        var scratch = [Float](repeating: 0, count: 10 * plane.width)
        ic_box_mean(plane.values, Int32(plane.width), Int32(plane.height), Int32(radius), &out.values, &scratch)
        return out
    }
}

/// A guided filter (He, Sun and Tang, "Guided Image Filtering", 2013) for bringing a low-resolution
/// mask to a frame's size with edges that follow the frame: at the mask's size, in each window the
/// mask is fitted as `a·I + b` of the guide's luminance `I` (ridge `epsilon`), the coefficients are
/// averaged over the windows covering each pixel, then brought up bilinearly and applied to the
/// full-size luminance (the "fast guided filter" of He and Sun, 2015). O(pixels) with box means.
public struct GuidedMaskFilter: Sendable, Equatable {
    /// The window radius, in pixels of the low-resolution mask.
    public let radius: Int
    /// The ridge added to the guide's variance (luminance in 0...1): larger keeps the mask smoother,
    /// smaller follows weaker edges of the frame.
    public let epsilon: Float

    /// A filter of `radius` ≥ 1 and `epsilon` > 0.
    public init?(radius: Int, epsilon: Float) {
        guard radius >= 1, epsilon > 0, epsilon.isFinite else { return nil }
        (self.radius, self.epsilon) = (radius, epsilon)
    }

    /// The averaged coefficients `a`, `b` at the mask's size: the filtered mask is `a·I + b` for the guide
    /// `I` (luminance in 0...1) of the same size, or `up(a)·I + up(b)` for the full-size one.
    public func coefficients(guide: FloatPlane, mask: FloatPlane) -> (a: FloatPlane, b: FloatPlane) {
        precondition(guide.width == mask.width && guide.height == mask.height, "guide and mask sizes differ")
        let n = guide.values.count
        var guideSquared = guide, product = guide
        for i in 0..<n {
            guideSquared.values[i] = guide.values[i] * guide.values[i]
            product.values[i] = guide.values[i] * mask.values[i]
        }
        let meanI = BoxMean.of(guide, radius: radius), meanP = BoxMean.of(mask, radius: radius)
        let meanII = BoxMean.of(guideSquared, radius: radius), meanIP = BoxMean.of(product, radius: radius)
        var a = meanI, b = meanP
        for i in 0..<n {
            let variance = meanII.values[i] - meanI.values[i] * meanI.values[i]
            let covariance = meanIP.values[i] - meanI.values[i] * meanP.values[i]
            a.values[i] = covariance / (variance + epsilon)
            b.values[i] = meanP.values[i] - a.values[i] * meanI.values[i]
        }
        return (BoxMean.of(a, radius: radius), BoxMean.of(b, radius: radius))
    }

    /// The mask brought to the size of `fullGuide` (each pixel `up(a)·I + up(b)`, clamped to 0...1), the
    /// coefficients computed against `guide`, the guide at the mask's size.
    public func upsample(mask: FloatPlane, guide: FloatPlane, fullGuide: FloatPlane) -> FloatPlane {
        let (a, b) = coefficients(guide: guide, mask: mask)
        let upA = BilinearTaps.upsample(a, width: fullGuide.width, height: fullGuide.height)
        let upB = BilinearTaps.upsample(b, width: fullGuide.width, height: fullGuide.height)
        var out = fullGuide
        for i in out.values.indices {
            out.values[i] = min(max(upA.values[i] * fullGuide.values[i] + upB.values[i], 0), 1)
        }
        return out
    }
}

/// Bilinear sampling from a small plane to a larger one, pixel centres aligned (source coordinate
/// `(x + 0.5)·s/d − 0.5`, clamped to the edges), as a list of taps per output column or row.
public struct BilinearTaps: Sendable {
    /// The first source index of each output index.
    public let index: [Int32]
    /// The weight of the next source index (clamped at the last).
    public let weight: [Float]
    /// The source length the taps read.
    public let source: Int

    /// The taps from `source` samples to `destination` samples.
    public init(source: Int, destination: Int) {
        self.source = source
        var index = [Int32](repeating: 0, count: destination), weight = [Float](repeating: 0, count: destination)
        let scale = Double(source) / Double(destination)
        for d in 0..<destination {
            let u = min(max((Double(d) + 0.5) * scale - 0.5, 0), Double(source - 1))
            let i = min(Int(u), max(source - 2, 0))
            index[d] = Int32(i)
            weight[d] = source > 1 ? Float(u - Double(i)) : 0
        }
        (self.index, self.weight) = (index, weight)
    }

    /// `plane` brought to `width`×`height` (both positive) bilinearly.
    public static func upsample(_ plane: FloatPlane, width: Int, height: Int) -> FloatPlane {
        let xs = BilinearTaps(source: plane.width, destination: width)
        let ys = BilinearTaps(source: plane.height, destination: height)
        var out = FloatPlane(knownWidth: width, height: height, repeating: 0)
        let next = { (i: Int32, n: Int) in min(Int(i) + 1, n - 1) }
        for y in 0..<height {
            let (y0, y1, wy) = (Int(ys.index[y]), next(ys.index[y], plane.height), ys.weight[y])
            for x in 0..<width {
                let (x0, x1, wx) = (Int(xs.index[x]), next(xs.index[x], plane.width), xs.weight[x])
                let top = plane[x0, y0] + (plane[x1, y0] - plane[x0, y0]) * wx
                let bottom = plane[x0, y1] + (plane[x1, y1] - plane[x0, y1]) * wx
                out.values[y * width + x] = top + (bottom - top) * wy
            }
        }
        return out
    }
}
