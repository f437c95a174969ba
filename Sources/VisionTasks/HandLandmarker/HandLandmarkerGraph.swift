import Foundation
import TFLite
import VisionCore
import VisionErrors

/// One hand as the landmark model saw it, in MediaPipe's terms, before it becomes a result.
package struct HandObservation: Sendable {
    /// 21 landmarks in normalized coordinates of the upright image (z scaled like x).
    package var landmarks: [SIMD3<Float>]
    /// 21 world landmarks in metres, origin at the hand's centre, rotated like the image.
    package var worldLandmarks: [SIMD3<Float>]
    /// The handedness entry ("Left" or "Right" and its score).
    package var handedness: Classification
    /// The ROI this hand gives the next frame.
    package var nextRect: NormalizedRect
    /// The hand's tracking id (video and live stream; nil in image mode).
    package var trackingId: Int?
}

/// MediaPipe's hand landmarker graph over a `hand_landmarker.task` bundle: palm detection → hand
/// ROIs → landmarks per ROI (crop → hand landmark model → presence, handedness, world landmarks,
/// the next frame's ROI) → duplicates removed; in video and live-stream mode the next frame's ROIs
/// come from this frame's landmarks, and palm detection runs only while fewer than `numHands` hands
/// are tracked, its new hands associated with the tracked ones by IoU (`minTrackingConfidence`).
///
/// Not thread-safe: it holds the tracking state; callers serialize use (the task runner does).
package final class HandLandmarkerGraph: TaskGraph {
    /// The landmark model's entry in `hand_landmarker.task`.
    package static let landmarksEntry = "hand_landmarks_detector.tflite"

    private let palms: PalmDetectionGraph
    private let landmarks: ROILanes<ROILandmarksModel>
    private let minHandPresenceConfidence: Float
    private var hands: TrackedRects

    /// Loads the two models from a hand landmarker bundle (`name` names it in errors). Throws
    /// `invalidBundle` when an entry is missing and the models' load errors; `unsupportedModel`
    /// unless the landmark model has one 1×224×224×3 input and the four outputs MediaPipe reads in
    /// order: landmarks [1, 63], presence [1, 1], handedness [1, 1], world landmarks [1, 63].
    package init(bundle: ModelBundle, name: String, settings: LandmarkerSettings) throws {
        try bundle.requireEntries(
            [PalmDetectionGraph.bundleEntry, Self.landmarksEntry], kind: "hand landmarker", name: name)
        palms = try PalmDetectionGraph(
            model: try bundle.model(named: PalmDetectionGraph.bundleEntry),
            name: "\(name): \(PalmDetectionGraph.bundleEntry)", numThreads: settings.numThreads,
            description: .palm(minScoreThreshold: settings.minDetectionConfidence))
        let points = handLandmarkCount * 3
        let model = try bundle.model(named: Self.landmarksEntry)
        // Two instances when two hands can run on two cores at once.
        landmarks = try ROILanes(concurrent: settings.maxCount >= 2 && settings.numThreads >= 2) {
            try ROILandmarksModel(
                model: model, name: "\(name): \(Self.landmarksEntry)",
                what: "the hand landmark model", numThreads: settings.numThreads,
                inputSide: HandLandmarksModel.inputSize,
                landmarkCount: handLandmarkCount, normalizeZ: HandLandmarksModel.normalizeZ,
                outputCounts: [points, 1, 1, points],
                outputNames: "landmarks, presence, handedness, world landmarks", projection: .normalizedRect)
        }
        minHandPresenceConfidence = settings.minPresenceConfidence
        hands = TrackedRects(settings, associate: associateHandRects)
    }

    /// Forgets the tracked hands, so the next frame starts a new stream with palm detection.
    package func resetTracking() {
        hands.reset()
    }

    /// The hands in one upright image or frame: in image mode in the palm detector's order, in video
    /// and live stream by tracking id.
    package func process(_ frame: FrameContext) throws -> [HandObservation] {
        try hands.process(
            detect: { try palms.handRects(frame) },
            observe: { [minHandPresenceConfidence] rects in
                try landmarks.map(rects) { model, rect in
                    try Self.observe(frame, in: rect, with: model, minHandPresenceConfidence: minHandPresenceConfidence)
                }
            },
            duplicates: {
                duplicateHandIndices($0.map(\.landmarks), imageWidth: frame.width, imageHeight: frame.height)
            },
            nextRect: \.nextRect
        ).map { hand, id in
            var hand = hand
            hand.trackingId = id
            return hand
        }
    }

    /// The hand landmark model on `rect`; nil when the hand is not present (presence score not above
    /// `minHandPresenceConfidence`) or the rect is MediaPipe's empty sentinel.
    /// Touches nothing but `landmarksModel`: two hands may be observed at once, each with a model of its own.
    private static func observe(
        _ frame: FrameContext, in rect: NormalizedRect, with landmarksModel: ROILandmarksModel,
        minHandPresenceConfidence: Float
    ) throws -> HandObservation? {
        if rect.width == 0 && rect.height == 0 { return nil }
        let landmarks = try landmarksModel.landmarks(in: frame, roi: rect)
        guard handIsPresent(score: try landmarksModel.output(1)[0], minPresenceConfidence: minHandPresenceConfidence),
            // 21 landmarks always give a rect.
            let next = handRect(fromLandmarks: landmarks, imageWidth: frame.width, imageHeight: frame.height)
        else { return nil }
        let handednessScore = try landmarksModel.output(2)[0]
        let world = try landmarksModel.output(3)
        let worldPoints = (0..<handLandmarkCount).map { SIMD3(world[3 * $0], world[3 * $0 + 1], world[3 * $0 + 2]) }
        return HandObservation(
            landmarks: landmarks, worldLandmarks: rotateWorldLandmarks(worldPoints, by: rect.rotation),
            handedness: handedness(fromScore: handednessScore), nextRect: next)
    }
}
