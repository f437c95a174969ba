import Foundation

extension ClassifierOptions {
    /// A classifier's options, declared once: `ClassifierOptions`' defaults, and the gesture
    /// recognizer's canned and custom options, which hold them under their own names.
    public enum Declared {
        /// `maxResults`.
        public static let maxResults = DeclaredOption<ClassifierOptions, Int>(
            "max-results", \.maxResults, label: "max results",
            help: "The most categories to keep, best first (-1: all; 0 is an error).", default: -1)
        /// `scoreThreshold` (unset: the model's own threshold).
        public static let scoreThreshold = DeclaredOption<ClassifierOptions, Float?>(
            "score-threshold", \.scoreThreshold, label: "score threshold",
            help: "Categories scoring below this are dropped (unset: the model's threshold).", default: nil,
            minimum: 0, maximum: 1)
        /// `categoryAllowlist`.
        public static let categoryAllowlist = DeclaredOption<ClassifierOptions, [String]>(
            "allowlist", \.categoryAllowlist, property: "categoryAllowlist", label: "allowlist",
            help: "Only these categories (comma-separated names).", default: [])
        /// `categoryDenylist`.
        public static let categoryDenylist = DeclaredOption<ClassifierOptions, [String]>(
            "denylist", \.categoryDenylist, property: "categoryDenylist", label: "denylist",
            help: "Never these categories (comma-separated names).", default: [])
        /// `displayNamesLocale` (unset: "en").
        public static let displayNamesLocale = DeclaredOption<ClassifierOptions, String?>(
            "display-names-locale", \.displayNamesLocale, label: "Display names locale",
            help:
                "The locale of the display names read from the label files (unset: en; a model without a file in that locale gives none).",
            default: nil)
    }
}

extension GestureRecognizerOptions {
    /// The options of one of the recognizer's classifiers (`kind` "canned" or "custom"), held at
    /// `property` (`cannedGesturesClassifierOptions`), under names such as `canned-gestures-max-results`.
    private static func classifierOptions(
        _ kind: String, property: String, held: @escaping @Sendable (GestureRecognizerOptions) -> ClassifierOptions?,
        make: @escaping @Sendable (GestureRecognizerOptions) -> ClassifierOptions
    ) -> [TaskOption] {
        func option<Value>(_ declared: DeclaredOption<ClassifierOptions, Value>) -> TaskOption {
            declared.held(
                as: "\(kind)-gestures-\(declared.option.name)", property: "\(property).\(declared.option.property)",
                label: "\(kind.prefix(1).uppercased() + kind.dropFirst()) gestures: \(declared.option.label)",
                help: declared.option.help.replacingCategories(with: "\(kind) gestures"),
                inner: held, make: make)
        }
        let d = ClassifierOptions.Declared.self
        return [
            option(d.maxResults), option(d.scoreThreshold), option(d.categoryAllowlist), option(d.categoryDenylist),
        ]
    }

    /// The locale of both classifiers' display names: one option, as the CLI has always taken it.
    private static let displayNamesLocale = TaskOption(
        ClassifierOptions.Declared.displayNamesLocale.option.name,
        property: "cannedGesturesClassifierOptions.displayNamesLocale", label: "Display names locale",
        help: ClassifierOptions.Declared.displayNamesLocale.option.help,
        default: ClassifierOptions.Declared.displayNamesLocale.defaultValue,
        alsoSets: ["customGesturesClassifierOptions.displayNamesLocale"],
        get: { (options: GestureRecognizerOptions) in options.cannedGesturesClassifierOptions?.displayNamesLocale },
        set: { (options: GestureRecognizerOptions, locale: String?) in
            options.cannedClassifier.displayNamesLocale = locale
            options.customClassifier.displayNamesLocale = locale
        })

    /// The canned classifier's options, created with the defaults when missing.
    private var cannedClassifier: ClassifierOptions {
        if let options = cannedGesturesClassifierOptions { return options }
        let options = ClassifierOptions()
        cannedGesturesClassifierOptions = options
        return options
    }

    /// The custom classifier's options, created with the defaults when missing.
    private var customClassifier: ClassifierOptions {
        if let options = customGesturesClassifierOptions { return options }
        let options = ClassifierOptions()
        customGesturesClassifierOptions = options
        return options
    }

    /// The Gesture Recognizer as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "gesture-recognizer", title: "Gesture Recognizer",
        summary: "Recognize hand gestures, with each hand's landmarks and handedness.",
        modelHelp: "the gesture recognizer bundle, gesture_recognizer.task (or one with a custom classifier).",
        preferredModels: ["gesture_recognizer.task"],
        options: HandTrackingOptions.Declared.hands.options
            + classifierOptions(
                "canned", property: "cannedGesturesClassifierOptions",
                held: { $0.cannedGesturesClassifierOptions }, make: { $0.cannedClassifier })
            + classifierOptions(
                "custom", property: "customGesturesClassifierOptions",
                held: { $0.customGesturesClassifierOptions }, make: { $0.customClassifier })
            + [displayNamesLocale],
        outputs: ["gestures", "landmarks", "worldLandmarks", "handedness", "trackingIds"], foundNoun: "hands",
        connections: HandLandmarksConnections.sets)
}

extension LiveStreamHandler: GestureRecognizerLiveStreamDelegate where Output == GestureRecognizerResult {
    /// Hands the recognizer's result to the handler.
    public func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer,
        didFinishGestureRecognition result: GestureRecognizerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        deliver(result, timestampInMilliseconds, error)
    }
}

private extension String {
    /// The help of a classifier option with "categories" named for what is classified.
    func replacingCategories(with noun: String) -> String {
        replacingOccurrences(of: "categories", with: noun)
    }
}
