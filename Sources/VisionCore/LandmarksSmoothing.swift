// MediaPipe's LandmarksSmoothingCalculator with a one-euro filter, on normalized landmarks: the
// landmarks are filtered in pixels, with the speed scaled by the inverse of the object's size.

/// Smooths one object's landmarks over the frames of a video, as MediaPipe's
/// `LandmarksSmoothingCalculator` configured with a one-euro filter does.
public struct OneEuroLandmarksSmoother: Sendable {
    private let frequency: Double
    private let minCutoff: Double
    private let beta: Double
    private let derivateCutoff: Double
    private let minAllowedObjectScale: Float
    private var filters: [(x: OneEuroFilter, y: OneEuroFilter, z: OneEuroFilter)] = []

    /// Creates a smoother with MediaPipe's one-euro options (defaults: 30 Hz, min cutoff 1, beta 0,
    /// derivative cutoff 1, minimum object scale 1e-6).
    public init(
        frequency: Double = 30, minCutoff: Double = 1, beta: Double = 0, derivateCutoff: Double = 1,
        minAllowedObjectScale: Float = 1e-6
    ) {
        self.frequency = frequency
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivateCutoff = derivateCutoff
        self.minAllowedObjectScale = minAllowedObjectScale
    }

    /// Forgets the past (MediaPipe resets when a frame has no landmarks).
    public mutating func reset() { filters = [] }

    /// Filters normalized `landmarks` of a frame `imageWidth`×`imageHeight` at `timestampMicroseconds`.
    /// The speed is scaled by the inverse of `objectScale` (pixels) when given, as MediaPipe's
    /// `OBJECT_SCALE_ROI` input sets it, else of the landmarks' own extent. Returns nil when the
    /// number of landmarks differs from the previous frame's.
    public mutating func smooth(
        _ landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int,
        timestampMicroseconds: Int64, objectScale: Float? = nil
    ) -> [SIMD3<Float>]? {
        if landmarks.isEmpty {
            reset()
            return []
        }
        let w = Float(imageWidth), h = Float(imageHeight)
        let pixels = landmarks.map { SIMD3($0.x * w, $0.y * h, $0.z * w) }
        let scale = objectScale ?? Self.objectScale(pixels)
        if scale < minAllowedObjectScale {
            guard prepareFilters(pixels.count) else { return nil }
            return landmarks
        }
        return filter(pixels, timestampMicroseconds: timestampMicroseconds, valueScale: Double(1 / scale))?
            .map { SIMD3($0.x / w, $0.y / h, $0.z / w) }
    }

    /// Filters world landmarks (metres) at `timestampMicroseconds` without scaling the speed (MediaPipe's
    /// `disable_value_scaling`). Returns nil when the number of landmarks differs from the previous frame's.
    public mutating func smoothWorld(_ landmarks: [SIMD3<Float>], timestampMicroseconds: Int64) -> [SIMD3<Float>]? {
        if landmarks.isEmpty {
            reset()
            return []
        }
        return filter(landmarks, timestampMicroseconds: timestampMicroseconds, valueScale: 1)
    }

    /// Makes one filter per coordinate on first use; false when the count changed.
    private mutating func prepareFilters(_ count: Int) -> Bool {
        if filters.isEmpty {
            let f = OneEuroFilter(
                frequency: frequency, minCutoff: minCutoff, beta: beta, derivateCutoff: derivateCutoff)
            filters = Array(repeating: (f, f, f), count: count)
        }
        return filters.count == count
    }

    /// Each coordinate through its own one-euro filter.
    private mutating func filter(_ values: [SIMD3<Float>], timestampMicroseconds: Int64, valueScale: Double) -> [SIMD3<
        Float
    >]? {
        guard prepareFilters(values.count) else { return nil }
        let t = timestampMicroseconds * 1000
        var out = [SIMD3<Float>]()
        out.reserveCapacity(values.count)
        for i in values.indices {
            let p = values[i]
            let x = Float(filters[i].x.apply(Double(p.x), timestampNanoseconds: t, valueScale: valueScale))
            let y = Float(filters[i].y.apply(Double(p.y), timestampNanoseconds: t, valueScale: valueScale))
            let z = Float(filters[i].z.apply(Double(p.z), timestampNanoseconds: t, valueScale: valueScale))
            out.append(SIMD3(x, y, z))
        }
        return out
    }

    /// The object's size in pixels: the mean of its landmarks' x and y extents.
    static func objectScale(_ pixels: [SIMD3<Float>]) -> Float {
        var lo = pixels[0], hi = pixels[0]
        for p in pixels {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return ((hi.x - lo.x) + (hi.y - lo.y)) / 2
    }
}

/// Smooths each landmark's visibility over the frames of a video with a fixed-factor low-pass filter,
/// as MediaPipe's `VisibilitySmoothingCalculator` does (the first frame passes unchanged).
public struct VisibilitySmoother: Sendable {
    private let alpha: Float
    private var filters: [LowPassFilter] = []

    /// A smoother giving each new visibility the weight `alpha`.
    public init(alpha: Float) {
        self.alpha = alpha
    }

    /// Forgets the past.
    public mutating func reset() { filters = [] }

    /// The smoothed visibilities; a change in their number starts over.
    public mutating func smooth(_ visibility: [Float]) -> [Float] {
        if filters.count != visibility.count { filters = Array(repeating: LowPassFilter(), count: visibility.count) }
        return visibility.indices.map { filters[$0].apply(visibility[$0], alpha: alpha) }
    }
}
