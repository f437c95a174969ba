import Foundation
import VisionErrors

/// How a box is laid out in the raw regression tensor.
public enum SSDBoxFormat: Sendable, Equatable {
    /// y-centre, x-centre, height, width (MediaPipe's default).
    case yxhw
    /// x-centre, y-centre, width, height (`reverse_output_order`, used by BlazeFace and the palm model).
    case xywh
}

/// The settings of MediaPipe's `TensorsToDetectionsCalculator` for SSD models without built-in
/// post-processing: raw box regressions decoded against anchors, scores through an optional sigmoid.
public struct SSDDecodingOptions: Sendable, Equatable {
    /// Number of classes in the score tensor.
    public var numClasses: Int
    /// Number of boxes (anchors).
    public var numBoxes: Int
    /// Values per box in the regression tensor (4 box values + keypoints × values per keypoint).
    public var numCoords: Int
    /// Offset of the box values within a box's regression values.
    public var boxCoordOffset: Int
    /// Offset of the first keypoint within a box's regression values.
    public var keypointCoordOffset: Int
    /// Number of keypoints per box.
    public var numKeypoints: Int
    /// Values per keypoint (MediaPipe supports 2).
    public var numValuesPerKeypoint: Int
    /// Divisor of the x-centre and keypoint x regressions.
    public var xScale: Float
    /// Divisor of the y-centre and keypoint y regressions.
    public var yScale: Float
    /// Divisor of the width regression.
    public var wScale: Float
    /// Divisor of the height regression.
    public var hScale: Float
    /// The box layout.
    public var boxFormat: SSDBoxFormat
    /// Whether box sizes are `exp(value / scale) * anchor size` instead of linear.
    public var applyExponentialOnBoxSize: Bool
    /// Whether raw scores go through a sigmoid.
    public var sigmoidScore: Bool
    /// Raw scores are clipped to ±this before the sigmoid, when set.
    public var scoreClippingThreshold: Float?
    /// Detections scoring below this are dropped, when set.
    public var minScoreThreshold: Float?

    /// Creates decoding options.
    public init(
        numClasses: Int, numBoxes: Int, numCoords: Int, boxCoordOffset: Int = 0,
        keypointCoordOffset: Int, numKeypoints: Int, numValuesPerKeypoint: Int = 2,
        xScale: Float, yScale: Float, wScale: Float, hScale: Float, boxFormat: SSDBoxFormat,
        applyExponentialOnBoxSize: Bool = false, sigmoidScore: Bool,
        scoreClippingThreshold: Float?, minScoreThreshold: Float?
    ) {
        self.numClasses = numClasses
        self.numBoxes = numBoxes
        self.numCoords = numCoords
        self.boxCoordOffset = boxCoordOffset
        self.keypointCoordOffset = keypointCoordOffset
        self.numKeypoints = numKeypoints
        self.numValuesPerKeypoint = numValuesPerKeypoint
        self.xScale = xScale
        self.yScale = yScale
        self.wScale = wScale
        self.hScale = hScale
        self.boxFormat = boxFormat
        self.applyExponentialOnBoxSize = applyExponentialOnBoxSize
        self.sigmoidScore = sigmoidScore
        self.scoreClippingThreshold = scoreClippingThreshold
        self.minScoreThreshold = minScoreThreshold
    }
}

/// Decodes raw SSD outputs into detections as MediaPipe's `TensorsToDetectionsCalculator` does on the
/// CPU: per box the best class score (sigmoid of the clipped raw score), boxes and keypoints decoded
/// against the anchors, detections below the score threshold or with a negative/NaN size dropped,
/// the rest in anchor order. Only boxes that pass the threshold are decoded (the results are the same).
/// Throws `invalidArgument` when the buffers or anchors do not match the options.
public func decodeSSDDetections(
    rawBoxes: UnsafeBufferPointer<Float>, rawScores: UnsafeBufferPointer<Float>,
    anchors: [NormalizedRect], options: SSDDecodingOptions
) throws -> [RelativeDetection] {
    let o = options
    guard o.numValuesPerKeypoint == 2, o.numKeypoints * 2 + 4 == o.numCoords else {
        throw VisionTasksError.invalidArgument(
            "SSD decoding needs numCoords = 4 + 2 × numKeypoints; got \(o.numCoords) coords, \(o.numKeypoints) keypoints"
        )
    }
    guard rawBoxes.count == o.numBoxes * o.numCoords else {
        throw VisionTasksError.invalidArgument(
            "box tensor has \(rawBoxes.count) values, expected \(o.numBoxes) boxes × \(o.numCoords)")
    }
    guard rawScores.count == o.numBoxes * o.numClasses, o.numClasses > 0 else {
        throw VisionTasksError.invalidArgument(
            "score tensor has \(rawScores.count) values, expected \(o.numBoxes) boxes × \(o.numClasses) classes")
    }
    guard anchors.count == o.numBoxes else {
        throw VisionTasksError.invalidArgument("got \(anchors.count) anchors for \(o.numBoxes) boxes")
    }
    var detections: [RelativeDetection] = []
    for i in 0..<o.numBoxes {
        var bestScore = -Float.greatestFiniteMagnitude
        var bestClass = -1
        for c in 0..<o.numClasses {
            var score = rawScores[i * o.numClasses + c]
            if o.sigmoidScore {
                if let clip = o.scoreClippingThreshold {
                    score = score < -clip ? -clip : score
                    score = score > clip ? clip : score
                }
                score = sigmoid(score)
            }
            if bestScore < score {
                bestScore = score
                bestClass = c
            }
        }
        if let threshold = o.minScoreThreshold, bestScore < threshold { continue }
        if bestClass < 0 { continue }
        if let detection = decodeBox(i, rawBoxes, anchors[i], o, score: bestScore, classIndex: bestClass) {
            detections.append(detection)
        }
    }
    return detections
}

/// Decodes box `i` and its keypoints; nil when the decoded size is negative or NaN.
private func decodeBox(
    _ i: Int, _ raw: UnsafeBufferPointer<Float>, _ anchor: NormalizedRect, _ o: SSDDecodingOptions,
    score: Float, classIndex: Int
) -> RelativeDetection? {
    let base = i * o.numCoords + o.boxCoordOffset
    var xCenter: Float, yCenter: Float, w: Float, h: Float
    switch o.boxFormat {
    case .yxhw: (yCenter, xCenter, h, w) = (raw[base], raw[base + 1], raw[base + 2], raw[base + 3])
    case .xywh: (xCenter, yCenter, w, h) = (raw[base], raw[base + 1], raw[base + 2], raw[base + 3])
    }
    xCenter = xCenter / o.xScale * anchor.width + anchor.xCenter
    yCenter = yCenter / o.yScale * anchor.height + anchor.yCenter
    if o.applyExponentialOnBoxSize {
        h = expf(h / o.hScale) * anchor.height
        w = expf(w / o.wScale) * anchor.width
    } else {
        h = h / o.hScale * anchor.height
        w = w / o.wScale * anchor.width
    }
    let yMin = yCenter - h / 2, xMin = xCenter - w / 2
    let yMax = yCenter + h / 2, xMax = xCenter + w / 2
    let width = xMax - xMin, height = yMax - yMin
    if width < 0 || height < 0 || width.isNaN || height.isNaN { return nil }
    var keypoints: [SIMD2<Float>] = []
    keypoints.reserveCapacity(o.numKeypoints)
    for k in 0..<o.numKeypoints {
        let offset = i * o.numCoords + o.keypointCoordOffset + k * 2
        let (kx, ky): (Float, Float)
        switch o.boxFormat {
        case .yxhw: (ky, kx) = (raw[offset], raw[offset + 1])
        case .xywh: (kx, ky) = (raw[offset], raw[offset + 1])
        }
        keypoints.append(
            SIMD2(
                kx / o.xScale * anchor.width + anchor.xCenter,
                ky / o.yScale * anchor.height + anchor.yCenter))
    }
    return RelativeDetection(
        score: score, classIndex: classIndex, xMin: xMin, yMin: yMin,
        width: width, height: height, keypoints: keypoints)
}
