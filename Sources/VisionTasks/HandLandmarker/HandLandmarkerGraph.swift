import Foundation
import TFLite
import VisionCore

/// MediaPipe's hand landmarker graph over a `hand_landmarker.task` bundle: palm detection → hand
/// ROIs → landmarks per ROI → duplicates removed; in video and live-stream mode the next frame's
/// ROIs come from this frame's landmarks, and palm detection runs only while fewer than `numHands`
/// hands are tracked, its new hands associated with the tracked ones by IoU (`minTrackingConfidence`).
///
/// Not thread-safe: it holds the tracking state; callers serialize use (the task runner does).
package final class HandLandmarkerGraph {
    private let palms: PalmDetectionGraph
    private let landmarks: HandLandmarksGraph
    private let numHands: Int
    private let minTrackingConfidence: Float
    private let tracks: Bool
    private var trackedRects: [NormalizedRect] = []

    /// The options the graph needs, as MediaPipe's hand landmarker graph options hold them.
    package struct Settings: Sendable {
        package var numHands: Int
        package var minHandDetectionConfidence: Float
        package var minHandPresenceConfidence: Float
        package var minTrackingConfidence: Float
        /// Whether frames form a stream (video, live stream): tracking on.
        package var tracks: Bool
        package var numThreads: Int
    }

    /// Loads the two models from a hand landmarker bundle (`name` names it in errors). Throws
    /// `invalidBundle` when an entry is missing and the models' load errors.
    package init(bundle: ModelBundle, name: String, settings: Settings) throws {
        try bundle.requireEntries([PalmDetectionGraph.bundleEntry, HandLandmarksGraph.bundleEntry],
                                  kind: "hand landmarker", name: name)
        let detector = try bundle.model(named: PalmDetectionGraph.bundleEntry)
        let landmarker = try bundle.model(named: HandLandmarksGraph.bundleEntry)
        palms = try PalmDetectionGraph(model: detector, name: "\(name): \(PalmDetectionGraph.bundleEntry)",
                                       numThreads: settings.numThreads,
                                       minDetectionConfidence: settings.minHandDetectionConfidence,
                                       numHands: settings.numHands)
        landmarks = try HandLandmarksGraph(model: landmarker, name: "\(name): \(HandLandmarksGraph.bundleEntry)",
                                           numThreads: settings.numThreads,
                                           minPresenceConfidence: settings.minHandPresenceConfidence)
        numHands = settings.numHands
        minTrackingConfidence = settings.minTrackingConfidence
        tracks = settings.tracks
    }

    /// Forgets the tracked hands, so the next frame starts a new stream with palm detection.
    package func resetTracking() {
        trackedRects = []
    }

    /// The hands in one upright image or frame, in MediaPipe's order (tracked hands first).
    package func process(_ image: MPImage) throws -> [HandObservation] {
        var rects: [NormalizedRect]
        if tracks {
            // Palm detection only while fewer than numHands hands are tracked.
            let detected = trackedRects.count >= numHands ? [] : try palms.handRects(image)
            rects = associateHandRects(tracked: trackedRects, detected: detected,
                                       minSimilarityThreshold: minTrackingConfidence)
        } else {
            rects = try palms.handRects(image)
        }
        if rects.count > numHands { rects.removeSubrange(numHands...) }
        var hands = try rects.compactMap { try landmarks.observe(image, in: $0) }
        let duplicates = duplicateHandIndices(hands.map(\.landmarks), imageWidth: image.width, imageHeight: image.height)
        if !duplicates.isEmpty {
            hands = hands.enumerated().filter { !duplicates.contains($0.offset) }.map(\.element)
        }
        if tracks { trackedRects = hands.map(\.nextRect) }
        return hands
    }
}
