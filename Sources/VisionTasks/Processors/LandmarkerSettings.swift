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
