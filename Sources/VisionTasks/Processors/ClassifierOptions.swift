import VisionCore

/// How a classifier's scores become categories, with the names of MediaPipe for iOS
/// (`ClassifierOptions` of the components/processors module). The task copies the values when it
/// is created.
public final class ClassifierOptions {
    /// The locale of display names from the model's metadata ("en" when nil).
    public var displayNamesLocale: String?
    /// The most categories to keep, best first; -1 (the default) keeps all. 0 is an error.
    public var maxResults: Int
    /// Categories scoring below this are dropped. nil (the default) uses the model's own threshold
    /// from its metadata, as MediaPipe does when the option is unset; any value overrides it.
    public var scoreThreshold: Float?
    /// When non-empty, only these category names are kept (unknown names are ignored).
    /// Mutually exclusive with `categoryDenylist`.
    public var categoryAllowlist: [String]
    /// When non-empty, these category names are dropped (unknown names are ignored).
    /// Mutually exclusive with `categoryAllowlist`.
    public var categoryDenylist: [String]

    /// Creates options; the defaults keep every category the model's threshold lets through.
    public init(displayNamesLocale: String? = nil, maxResults: Int = -1, scoreThreshold: Float? = nil,
                categoryAllowlist: [String] = [], categoryDenylist: [String] = []) {
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
    }

    /// The post-processing these options ask for, over a classifier's labels and its metadata
    /// threshold. Throws `invalidOption` (named after `option`) as MediaPipe rejects options.
    func filter(labels: [String], displayNames: [String], metadataScoreThreshold: Float?,
                option: String) throws -> ClassificationFilter {
        try ClassificationFilter(labels: labels, displayNames: displayNames, maxResults: maxResults,
                                 scoreThreshold: scoreThreshold, metadataScoreThreshold: metadataScoreThreshold,
                                 categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist,
                                 option: option)
    }
}
