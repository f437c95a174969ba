import Foundation

/// MediaPipe's one-euro filter (`mediapipe/util/filtering/one_euro_filter`): a low-pass filter whose
/// cutoff rises with the signal's speed. The sampling frequency follows the timestamps; the
/// stored values are single precision, the arithmetic double, as in MediaPipe.
public struct OneEuroFilter: Sendable {
    private var frequency: Double
    private let minCutoff: Double
    private let beta: Double
    private let derivateCutoff: Double
    private var x = LowPassFilter()
    private var dx = LowPassFilter()
    private var lastTimeNanoseconds: Int64 = -1

    /// Creates a filter; `frequency` is the initial sampling rate in Hz, the cutoffs are in Hz.
    public init(frequency: Double, minCutoff: Double, beta: Double, derivateCutoff: Double) {
        self.frequency = frequency
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivateCutoff = derivateCutoff
    }

    /// Filters `value` observed at `timestampNanoseconds`; `valueScale` scales the speed estimate.
    /// A timestamp not after the previous one returns `value` unfiltered, as MediaPipe does.
    public mutating func apply(_ value: Double, timestampNanoseconds: Int64, valueScale: Double) -> Double {
        if lastTimeNanoseconds >= timestampNanoseconds { return value }
        if lastTimeNanoseconds != 0 && timestampNanoseconds != 0 {
            frequency = 1.0 / (Double(timestampNanoseconds - lastTimeNanoseconds) * 1e-9)
        }
        lastTimeNanoseconds = timestampNanoseconds
        var dvalue = 0.0
        if x.hasLastRawValue {
            dvalue = (value - Double(x.lastRawValue)) * valueScale * frequency
        }
        let edvalue = Double(dx.apply(Float(dvalue), alpha: alpha(cutoff: derivateCutoff)))
        let cutoff = minCutoff + beta * abs(edvalue)
        return Double(x.apply(Float(value), alpha: alpha(cutoff: cutoff)))
    }

    private func alpha(cutoff: Double) -> Float {
        let te = 1.0 / frequency
        let tau = 1.0 / (2 * Double.pi * cutoff)
        return Float(1.0 / (1.0 + tau / te))
    }
}

/// MediaPipe's single-precision exponential low-pass filter used by `OneEuroFilter`.
struct LowPassFilter: Sendable {
    private(set) var hasLastRawValue = false
    private(set) var lastRawValue: Float = 0
    private var storedValue: Float = 0
    private var alpha: Float = 0

    /// Filters `value` with the smoothing factor `alpha` (ignored unless in [0, 1]).
    mutating func apply(_ value: Float, alpha newAlpha: Float) -> Float {
        if newAlpha >= 0 && newAlpha <= 1 { alpha = newAlpha }
        let result: Float
        if hasLastRawValue {
            result = Float(Double(alpha * value) + (1.0 - Double(alpha)) * Double(storedValue))
        } else {
            result = value
            hasLastRawValue = true
        }
        lastRawValue = value
        storedValue = result
        return result
    }
}
