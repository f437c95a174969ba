import Foundation
import TFLite
import VisionCore
import VisionErrors

/// How a classifier's scores become categories, with the names of MediaPipe for iOS
/// (`ClassifierOptions` of the components/processors module). The task copies the values when it
/// is created.
public final class ClassifierOptions {
    /// The locale of the display names read from the model's metadata ("en" when nil): the label
    /// file of that locale names each category's `displayName`; a model without one gives empty names.
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

    /// Creates options; the defaults (`Declared`) keep every category the model's threshold lets through.
    /// - Parameters:
    ///   - displayNamesLocale: The locale of the display names ("en" when nil).
    ///   - maxResults: The most categories to keep, best first (-1: all; 0 is an error).
    ///   - scoreThreshold: Categories scoring below this are dropped (nil: the model's own threshold).
    ///   - categoryAllowlist: When non-empty, only these category names are kept.
    ///   - categoryDenylist: When non-empty, these category names are dropped.
    public init(
        displayNamesLocale: String? = Declared.displayNamesLocale.defaultValue,
        maxResults: Int = Declared.maxResults.defaultValue,
        scoreThreshold: Float? = Declared.scoreThreshold.defaultValue,
        categoryAllowlist: [String] = Declared.categoryAllowlist.defaultValue,
        categoryDenylist: [String] = Declared.categoryDenylist.defaultValue
    ) {
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
    }

    /// MediaPipe's `display_names_locale` when the option is unset.
    static let defaultDisplayNamesLocale = "en"

    /// The post-processing these options ask for over output `output` of `model` (`entry` names it in
    /// errors), as MediaPipe's ConfigureTensorsToClassificationCalculator configures it: category names
    /// from the output's first label file (`defaultLabels` when it has none and they fit `classCount`),
    /// display names from its first label file in `displayNamesLocale` (none without one), and the
    /// model's score threshold unless `scoreThreshold` overrides it. Throws `invalidOption` (named
    /// after `option`) as MediaPipe rejects options, and for a display-names file whose line count
    /// differs from the labels' (`invalidModel` when the locale is the default).
    func filter(
        model: TFLiteModel, output: Int = 0, entry: String, classCount: Int, defaultLabels: [String]?,
        option: String
    ) throws -> ClassificationFilter {
        var labels = try model.labels(forOutput: output) ?? []
        var displayNames: [String] = []
        if !labels.isEmpty {
            let locale = displayNamesLocale ?? Self.defaultDisplayNamesLocale
            displayNames = try model.labels(forOutput: output, locale: locale) ?? []
            if !displayNames.isEmpty, displayNames.count != labels.count {
                let reason =
                    "\(entry) has \(labels.count) labels but \(displayNames.count) display names for locale \"\(locale)\""
                if displayNamesLocale == nil { throw VisionTasksError.invalidModel(reason) }
                throw VisionTasksError.invalidOption(name: "\(option).displayNamesLocale", reason: reason)
            }
        } else if let defaults = defaultLabels, defaults.count == classCount {
            labels = defaults
        }
        let threshold = model.modelMetadata?.subgraphs.first?.outputTensors.first?.scoreThreshold
        return try ClassificationFilter(
            labels: labels, displayNames: displayNames, maxResults: maxResults,
            scoreThreshold: scoreThreshold, metadataScoreThreshold: threshold,
            categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist,
            option: option)
    }
}
