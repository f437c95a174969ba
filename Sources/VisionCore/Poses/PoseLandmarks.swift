import Foundation

// MediaPipe's pose landmarks detector graph (pose_landmarks_detector_graph.cc) after the model: its
// 39 raw landmarks decoded with sigmoid visibility and presence (TensorsToLandmarks), moved to the
// heatmap's weighted peak (RefineLandmarksFromHeatmap), then split into the 33 body landmarks and
// the 2 auxiliary ones that give the next frame's rect.

/// The fixed settings of MediaPipe's pose landmark stage.
public enum PoseLandmarksModel {
    /// The landmark model's input side in pixels (256×256, the ROI stretched, edges replicated).
    public static let inputSize = 256
    /// Landmarks the model outputs: 33 body landmarks, 2 auxiliary ones and 4 the graph ignores.
    public static let modelLandmarkCount = 39
    /// Values per landmark in the model's landmark output: x, y, z, visibility, presence.
    public static let valuesPerLandmark = 5
    /// The body landmarks of a result (BlazePose topology: 0 nose … 32 right foot index).
    public static let landmarkCount = 33
    /// The auxiliary landmarks after the body's (hips' midpoint, then the scale point).
    public static let auxiliaryLandmarkCount = 2
    /// The side of the model's heatmap output (64×64, one channel per landmark).
    public static let heatmapSide = 64
    /// The side, in heatmap cells, of the window whose weighted mean refines a landmark.
    public static let heatmapKernelSize = 7
    /// The highest heatmap confidence in the window must reach this for the landmark to move.
    public static let minConfidenceToRefine: Float = 0.5
}

/// Landmarks with the visibility and presence scores MediaPipe attaches to each.
public struct ScoredLandmarks: Sendable, Equatable {
    /// Positions (normalized x, y and z scaled like x; or metres for world landmarks).
    public var points: [SIMD3<Float>]
    /// Per landmark, the likelihood it is visible (not occluded), in [0, 1].
    public var visibility: [Float]
    /// Per landmark, the likelihood it is inside the image, in [0, 1].
    public var presence: [Float]

    /// Landmarks with their scores; the three arrays are parallel.
    public init(points: [SIMD3<Float>], visibility: [Float], presence: [Float]) {
        self.points = points
        self.visibility = visibility
        self.presence = presence
    }

    /// The landmarks in `range`, with their scores.
    public func slice(_ range: Range<Int>) -> ScoredLandmarks {
        ScoredLandmarks(
            points: Array(points[range]), visibility: Array(visibility[range]), presence: Array(presence[range]))
    }
}

/// Decodes the pose landmark model's first output (39 landmarks × x, y, z, visibility, presence, in
/// pixels of its `inputSide`×`inputSide` input) as MediaPipe's TensorsToLandmarks does with sigmoid
/// activations: x, y and z divided by the input side, visibility and presence through the sigmoid.
/// Nil when the output has another size.
public func decodePoseLandmarks(_ values: UnsafeBufferPointer<Float>, inputSide: Int) -> ScoredLandmarks? {
    let count = PoseLandmarksModel.modelLandmarkCount, stride = PoseLandmarksModel.valuesPerLandmark
    guard values.count == count * stride, inputSide > 0 else { return nil }
    let side = Float(inputSide)
    var result = ScoredLandmarks(points: [], visibility: [], presence: [])
    result.points.reserveCapacity(count)
    for i in 0..<count {
        let o = i * stride
        result.points.append(SIMD3(values[o] / side, values[o + 1] / side, values[o + 2] / side))
        result.visibility.append(sigmoid(values[o + 3]))
        result.presence.append(sigmoid(values[o + 4]))
    }
    return result
}

/// Moves each landmark (normalized to the model's input) to the confidence-weighted mean cell of the
/// `kernelSize`×`kernelSize` heatmap window around it, when the window's highest confidence
/// (sigmoid of the heatmap) reaches `minConfidence`, as MediaPipe's RefineLandmarksFromHeatmap does.
/// The heatmap is `height`×`width`×(one channel per landmark), row-major. Landmarks outside the
/// heatmap stay. Returns false, changing nothing, when the channels are not one per landmark or the
/// buffer is not that size.
@discardableResult
public func refineLandmarksFromHeatmap(
    _ points: inout [SIMD3<Float>], heatmap: UnsafeBufferPointer<Float>,
    height: Int, width: Int, channels: Int,
    kernelSize: Int = PoseLandmarksModel.heatmapKernelSize,
    minConfidence: Float = PoseLandmarksModel.minConfidenceToRefine
) -> Bool {
    guard channels == points.count, height > 0, width > 0, heatmap.count == height * width * channels else {
        return false
    }
    let rowSize = width * channels
    let offset = (kernelSize - 1) / 2
    for index in points.indices {
        let x = points[index].x * Float(width), y = points[index].y * Float(height)
        // C++'s float-to-int conversion truncates toward zero (so -0.5 becomes 0); NaN never refines.
        guard x.isFinite, y.isFinite, x > -Float(Int32.max), y > -Float(Int32.max), x < Float(Int32.max),
            y < Float(Int32.max)
        else { continue }
        let col = Int(x), row = Int(y)
        if col < 0 || col >= width || row < 0 || row >= height { continue }
        var sum: Float = 0, weightedCol: Float = 0, weightedRow: Float = 0, maxConfidence: Float = 0
        for r in max(0, row - offset)..<min(height, row + offset + 1) {
            for c in max(0, col - offset)..<min(width, col + offset + 1) {
                let confidence = sigmoid(heatmap[rowSize * r + channels * c + index])
                sum += confidence
                maxConfidence = max(maxConfidence, confidence)
                weightedCol += Float(c) * confidence
                weightedRow += Float(r) * confidence
            }
        }
        if maxConfidence >= minConfidence && sum > 0 {
            points[index].x = weightedCol / Float(width) / sum
            points[index].y = weightedRow / Float(height) / sum
        }
    }
    return true
}
