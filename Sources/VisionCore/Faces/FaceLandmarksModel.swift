import Foundation

// How MediaPipe's face landmarks detector graph reads the face landmark model's outputs (the
// landmarks go through ROILandmarksModel and LandmarkProjection), named as HandLandmarksModel.swift
// names the hand's.

/// The number of landmarks of a face: 468 mesh points and 10 iris points.
public let faceLandmarkCount = 478

/// Whether a face is present: MediaPipe's `TensorsToFloatsCalculator` turns the model's raw presence
/// score into a probability with a sigmoid (in float), and its `ThresholdingCalculator` accepts one
/// strictly above the threshold.
public func faceIsPresent(score: Float, minPresenceConfidence: Float) -> Bool {
    let presence = sigmoid(score)
    return Double(presence) > Double(minPresenceConfidence)
}
