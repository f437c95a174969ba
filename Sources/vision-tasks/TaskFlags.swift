import ArgumentParser
import VisionTasks

/// What a landmarker subcommand finds, for the names of its options (`--num-faces`,
/// `--min-hand-presence-confidence`: the iOS option names in kebab case).
protocol LandmarkedSubject {
    /// The singular noun, lower case: "face", "hand".
    static var noun: String { get }
}

/// The subject of `face-landmarker`.
enum Faces: LandmarkedSubject { static let noun = "face" }

/// The subject of `hand-landmarker` and `gesture-recognizer`.
enum Hands: LandmarkedSubject { static let noun = "hand" }

/// The detection and tracking options every landmarker subcommand takes, named for its subject.
struct LandmarkerFlags<Subject: LandmarkedSubject>: ParsableArguments {
    @Option(name: .customLong("num-\(Subject.noun)s"), help: "The most \(Subject.noun)s to find (at least 1).")
    var count: Int = 1

    @Option(name: .customLong("min-\(Subject.noun)-detection-confidence"),
            help: "Detections scoring below this are not \(Subject.noun)s (0...1).")
    var minDetectionConfidence: Float = 0.5

    @Option(name: .customLong("min-\(Subject.noun)-presence-confidence"),
            help: "\(Subject.noun.capitalized)s whose presence score is not above this are dropped (0...1).")
    var minPresenceConfidence: Float = 0.5

    @Option(help: "Overlap (IoU) above which a new detection is a tracked \(Subject.noun) (video and live stream; 0...1).")
    var minTrackingConfidence: Float = 0.5
}

/// Which classifier of the gesture recognizer a `ClassifierFlags` group sets: the prefix of its
/// option names, which are the iOS `ClassifierOptions` names in kebab case.
protocol ClassifierHead {
    /// "canned" or "custom".
    static var kind: String { get }
}

/// The gesture recognizer's built-in classifier (`cannedGesturesClassifierOptions`).
enum CannedGestures: ClassifierHead { static let kind = "canned" }

/// A bundle's own classifier (`customGesturesClassifierOptions`).
enum CustomGestures: ClassifierHead { static let kind = "custom" }

/// The options of one gesture classifier: `--canned-gestures-max-results` and its kin.
struct ClassifierFlags<Head: ClassifierHead>: ParsableArguments {
    @Option(name: .customLong("\(Head.kind)-gestures-max-results"),
            help: "The most \(Head.kind) gestures to consider per hand, best first (default -1: all).")
    var maxResults: Int?

    @Option(name: .customLong("\(Head.kind)-gestures-score-threshold"),
            help: "\(Head.kind.capitalized) gestures scoring below this are dropped (default: the model's threshold).")
    var scoreThreshold: Float?

    @Option(name: .customLong("\(Head.kind)-gestures-allowlist"),
            help: "Only these \(Head.kind) gestures (comma-separated names).")
    var allowlist: String?

    @Option(name: .customLong("\(Head.kind)-gestures-denylist"),
            help: "Never these \(Head.kind) gestures (comma-separated names).")
    var denylist: String?

    /// Whether any of the group's options was given.
    var given: Bool { maxResults != nil || scoreThreshold != nil || allowlist != nil || denylist != nil }

    /// The library's options for this classifier, with display names in `locale`.
    func classifierOptions(displayNamesLocale locale: String?) -> ClassifierOptions {
        ClassifierOptions(displayNamesLocale: locale, maxResults: maxResults ?? -1, scoreThreshold: scoreThreshold,
                          categoryAllowlist: ClassifierOptions.categoryNames(commaSeparated: allowlist),
                          categoryDenylist: ClassifierOptions.categoryNames(commaSeparated: denylist))
    }
}
