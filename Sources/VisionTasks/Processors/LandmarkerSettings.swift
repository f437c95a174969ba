import VisionCore

/// What every landmarker graph (faces, hands, poses) takes alike from its task's options: how many
/// to find, the detection, presence and tracking thresholds, whether frames form a stream and the
/// threads of each model.
package struct LandmarkerSettings: Sendable {
    /// The most to find (`numFaces`, `numHands`, `numPoses`).
    package var maxCount: Int
    /// The detector's minimum score.
    package var minDetectionConfidence: Float
    /// The presence score landmarks need (strictly above).
    package var minPresenceConfidence: Float
    /// The IoU above which a detection is a tracked one (video, live stream).
    package var minTrackingConfidence: Float
    /// Whether frames form a stream (video, live stream): tracking, and smoothing where the graph
    /// smooths, on.
    package var tracks: Bool
    /// The threads of each model.
    package var numThreads: Int
}

extension TrackedRects {
    /// The tracking loop of a landmarker graph with `settings`: at most `maxCount` objects, tracked when
    /// frames form a stream, a detected rect continuing a tracked one when `associate` (by default
    /// MediaPipe's IoU association) finds them similar above `minTrackingConfidence`.
    package init(
        _ settings: LandmarkerSettings, clipsDetections: Bool = true,
        associate: @escaping (_ tracked: [NormalizedRect], _ detected: [NormalizedRect], Float) -> [AssociatedRect] =
            associateRects
    ) {
        let threshold = settings.minTrackingConfidence
        self.init(maxCount: settings.maxCount, tracks: settings.tracks, clipsDetections: clipsDetections) {
            associate($0, $1, threshold)
        }
    }
}

extension LandmarkerDeclarations where Options: VisionTaskOptions {
    /// The graph's settings from `options` (checked by the task's init): the four values declared here,
    /// whether its running mode streams, and its threads.
    package func settings(of options: Options) -> LandmarkerSettings {
        LandmarkerSettings(
            maxCount: options[keyPath: count.keyPath],
            minDetectionConfidence: options[keyPath: minDetectionConfidence.keyPath],
            minPresenceConfidence: options[keyPath: minPresenceConfidence.keyPath],
            minTrackingConfidence: options[keyPath: minTrackingConfidence.keyPath],
            tracks: options.runningMode != .image, numThreads: options.baseOptions.numThreads)
    }
}
