/// The four options both landmarkers declare alike for what they find (faces, hands): how many, and
/// the detection, presence and tracking thresholds, named after it (`num-faces`,
/// `min-face-detection-confidence`, `min-face-presence-confidence`, `min-tracking-confidence`).
public struct LandmarkerDeclarations<Options: AnyObject>: Sendable {
    /// `numFaces`, `numHands`: the most to find (at least 1, default 1).
    public let count: DeclaredOption<Options, Int>
    /// `minFaceDetectionConfidence`, `minHandDetectionConfidence` (0...1, default 0.5).
    public let minDetectionConfidence: DeclaredOption<Options, Float>
    /// `minFacePresenceConfidence`, `minHandPresenceConfidence` (0...1, default 0.5).
    public let minPresenceConfidence: DeclaredOption<Options, Float>
    /// `minTrackingConfidence` (0...1, default 0.5).
    public let minTrackingConfidence: DeclaredOption<Options, Float>

    /// Declares the four for `one` found thing (`face`), `many` of them (`faces`), held at the key
    /// paths given, with the detection threshold's own help.
    package init(
        _ one: String, _ many: String, detectionHelp: String,
        _ count: ReferenceWritableKeyPath<Options, Int> & Sendable,
        _ detection: ReferenceWritableKeyPath<Options, Float> & Sendable,
        _ presence: ReferenceWritableKeyPath<Options, Float> & Sendable,
        _ tracking: ReferenceWritableKeyPath<Options, Float> & Sendable
    ) {
        let (One, Many) = (one.prefix(1).uppercased() + one.dropFirst(), many.prefix(1).uppercased() + many.dropFirst())
        self.count = DeclaredOption(
            "num-\(many)", count, label: Many, help: "The most \(many) to find.", default: 1, minimum: 1)
        minDetectionConfidence = .threshold(
            "min-\(one)-detection-confidence", detection,
            label: "\(One) detection confidence", help: detectionHelp)
        minPresenceConfidence = .threshold(
            "min-\(one)-presence-confidence", presence, label: "\(One) presence confidence",
            help: "\(Many) whose presence score is not above this are dropped.")
        minTrackingConfidence = .threshold(
            "min-tracking-confidence", tracking, label: "Tracking confidence",
            help: "Overlap (IoU) above which a new detection is a tracked \(one) (video and live stream).")
    }

    /// The four, in a settings panel's order.
    public var options: [TaskOption] {
        [count.option, minDetectionConfidence.option, minPresenceConfidence.option, minTrackingConfidence.option]
    }
}
