import Foundation

// The hand landmark model's settings and how MediaPipe's hand landmarks detector graph reads its
// presence and handedness outputs (the landmarks go through ROILandmarksModel and LandmarkProjection).

/// The settings of the hand landmark model's outputs.
public enum HandLandmarksModel {
    /// The model's input side in pixels (224×224, the ROI stretched to fill it).
    public static let inputSize = 224
    /// Depth is divided by the input width and then by this (MediaPipe's `normalize_z`).
    public static let normalizeZ: Float = 0.4
}

/// Whether a hand is present: MediaPipe's `ThresholdingCalculator` accepts a score strictly above
/// the threshold (compared in double precision).
public func handIsPresent(score: Float, minPresenceConfidence: Float) -> Bool {
    Double(score) > Double(minPresenceConfidence)
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
