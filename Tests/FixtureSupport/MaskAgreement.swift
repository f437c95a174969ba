/// How close a mask is to a reference's: the figures of the Image Segmenter's parity tests (issue 44).
public enum MaskAgreement {
    /// Mean absolute difference and IoU at 0.5 of a confidence mask against a reference's 8-bit levels
    /// (round(255·p)); the IoU is 1 when neither holds a pixel above 0.5.
    public static func confidence(_ ours: [Float], levels: [UInt8]) -> (mad: Double, iou: Double) {
        var sum = 0.0, both = 0, either = 0
        for (p, level) in zip(ours, levels) {
            let q = Float(level) / 255
            sum += Double(abs(p - q))
            let (a, b) = (p > 0.5, q > 0.5)
            if a && b { both += 1 }
            if a || b { either += 1 }
        }
        return (sum / Double(max(1, levels.count)), either == 0 ? 1 : Double(both) / Double(either))
    }

    /// The fraction of positions where two category masks hold the same value (0 for empty masks).
    public static func equalFraction(_ ours: [UInt8], _ reference: [UInt8]) -> Double {
        Double(zip(ours, reference).filter { $0 == $1 }.count) / Double(max(1, reference.count))
    }
}
