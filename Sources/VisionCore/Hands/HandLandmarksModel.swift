import Foundation

// The hand landmark model's four outputs, read as MediaPipe's hand landmarks detector graph reads
// them: 21 normalized landmarks, the hand presence score, the handedness score and 21 world landmarks.

/// The settings of the hand landmark model's outputs.
public enum HandLandmarksModel {
    /// The model's input side in pixels (224×224, the ROI stretched to fill it).
    public static let inputSize = 224
    /// Depth is divided by the input width and then by this (MediaPipe's `normalize_z`).
    public static let normalizeZ: Float = 0.4
}

/// Projects landmarks from the normalized space of `rect` back to the image as MediaPipe's
/// `LandmarkProjectionCalculator` does when given only the rect (the hand graph's case): each point
/// is rotated about the rect's centre by its rotation and scaled by its normalized width and height;
/// z is scaled by the rect's width.
public func projectLandmarks(_ landmarks: [SIMD3<Float>], fromNormalizedRect rect: NormalizedRect) -> [SIMD3<Float>] {
    let c = cosf(rect.rotation), s = sinf(rect.rotation)
    return landmarks.map { p in
        let x = p.x - 0.5, y = p.y - 0.5
        let nx = c * x - s * y, ny = s * x + c * y
        return SIMD3(nx * rect.width + rect.xCenter, ny * rect.height + rect.yCenter, p.z * rect.width)
    }
}

/// Rotates world landmarks (metres, origin at the hand's centre) by the ROI's rotation about the z
/// axis, as MediaPipe's `WorldLandmarkProjectionCalculator` does; z is unchanged.
public func rotateWorldLandmarks(_ landmarks: [SIMD3<Float>], by rotation: Float) -> [SIMD3<Float>] {
    let c = cosf(rotation), s = sinf(rotation)
    return landmarks.map { p in SIMD3(c * p.x - s * p.y, s * p.x + c * p.y, p.z) }
}

/// Whether a hand is present: MediaPipe's `ThresholdingCalculator` accepts a score strictly above
/// the threshold (compared in double precision).
public func handIsPresent(score: Float, minPresenceConfidence: Float) -> Bool {
    Double(score) > Double(minPresenceConfidence)
}

/// One entry of a classification: the class index, its score and its label.
public struct Classification: Sendable, Equatable {
    /// The class index in the model's output.
    public var index: Int
    /// The class score.
    public var score: Float
    /// The class name ("" when the model has no labels).
    public var label: String
    /// The display name ("" when there is none).
    public var displayName: String

    /// Creates a classification entry.
    public init(index: Int, score: Float, label: String, displayName: String = "") {
        self.index = index
        self.score = score
        self.label = label
        self.displayName = displayName
    }
}

/// The handedness of a hand from the model's single score, as MediaPipe's binary
/// `TensorsToClassificationCalculator` reads it: class 0 "Right" scores `score`, class 1 "Left"
/// scores `1 - score`, and the better one is kept (ties go to "Right"). The labels are MediaPipe's,
/// unchanged; MediaPipe's hand documentation says they assume a mirrored (front-camera) picture, so
/// a horizontally flipped picture swaps them.
public func handedness(fromScore score: Float) -> Classification {
    let left = Float(1.0 - Double(score))
    if left > score {
        return Classification(index: 1, score: left, label: "Left", displayName: "Left")
    }
    return Classification(index: 0, score: score, label: "Right", displayName: "Right")
}
