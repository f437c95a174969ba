import VisionErrors

// MediaPipe's classification post-processing (ConfigureTensorsToClassificationCalculator +
// TensorsToClassificationCalculator): scores → labelled, filtered, sorted classifications.

/// Turns a classifier's scores into classifications under MediaPipe's classifier options: allowed
/// or denied classes, a score threshold, a maximum count, best first.
public struct ClassificationFilter: Sendable, Equatable {
    /// Class names by index ("" when the model has no labels).
    public var labels: [String]
    /// Display names by index ("" when there are none for the requested locale).
    public var displayNames: [String]
    /// Classes scoring strictly below this are dropped.
    public var scoreThreshold: Float
    /// At most this many results when positive; all when negative.
    public var maxResults: Int
    /// When non-empty, only these class indices are kept.
    public var allowedIndices: Set<Int>
    /// When non-empty (and no allowlist), these class indices are dropped.
    public var deniedIndices: Set<Int>

    /// Builds the filter from the classifier options, as MediaPipe configures its calculator:
    /// `maxResults` 0 and both lists set are errors; unknown or duplicate names in a list are
    /// ignored (a list of only unknown names filters nothing); a list without labels is an error;
    /// `scoreThreshold` overrides the model's own threshold (`metadataScoreThreshold`), and with
    /// neither every score passes. `option` names the options in error messages.
    public init(
        labels: [String], displayNames: [String] = [], maxResults: Int = -1, scoreThreshold: Float? = nil,
        metadataScoreThreshold: Float? = nil, categoryAllowlist: [String] = [],
        categoryDenylist: [String] = [], option: String = "classifierOptions"
    ) throws {
        guard maxResults != 0 else {
            throw VisionTasksError.invalidOption(
                name: "\(option).maxResults", reason: "must be != 0 (-1 for all results)")
        }
        guard categoryAllowlist.isEmpty || categoryDenylist.isEmpty else {
            throw VisionTasksError.invalidOption(
                name: "\(option).categoryAllowlist",
                reason: "categoryAllowlist and categoryDenylist are mutually exclusive")
        }
        if let t = scoreThreshold, t.isNaN {
            throw VisionTasksError.invalidOption(name: "\(option).scoreThreshold", reason: "must be a number")
        }
        let list = categoryAllowlist.isEmpty ? categoryDenylist : categoryAllowlist
        var indices = Set<Int>()
        if !list.isEmpty {
            guard labels.contains(where: { !$0.isEmpty }) else {
                throw VisionTasksError.invalidOption(
                    name: "\(option).\(categoryAllowlist.isEmpty ? "categoryDenylist" : "categoryAllowlist")",
                    reason: "needs class labels, and the classifier has none")
            }
            for name in list {
                if let i = labels.firstIndex(of: name) { indices.insert(i) }
            }
        }
        self.labels = labels
        self.displayNames = displayNames
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold ?? metadataScoreThreshold ?? -Float.greatestFiniteMagnitude
        self.allowedIndices = categoryAllowlist.isEmpty ? [] : indices
        self.deniedIndices = categoryAllowlist.isEmpty ? indices : []
    }

    /// The classifications of `scores`: allowed classes at or above the threshold, best first, at
    /// most `maxResults` of them.
    public func classify(_ scores: UnsafeBufferPointer<Float>) -> [Classification] {
        var out: [Classification] = []
        for i in 0..<scores.count {
            if !allowedIndices.isEmpty {
                if !allowedIndices.contains(i) { continue }
            } else if deniedIndices.contains(i) {
                continue
            }
            if scores[i] < scoreThreshold { continue }
            out.append(
                Classification(
                    index: i, score: scores[i], label: i < labels.count ? labels[i] : "",
                    displayName: i < displayNames.count ? displayNames[i] : ""))
        }
        out.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        if maxResults > 0 && out.count > maxResults { out.removeSubrange(maxResults...) }
        return out
    }

    /// `classify` on an array.
    public func classify(_ scores: [Float]) -> [Classification] {
        scores.withUnsafeBufferPointer { classify($0) }
    }
}
