import Foundation

/// What a training did, as `vision-tasks train-gestures --report` writes it and the server answers: per label
/// the photos, hands found and skipped, the accuracies, the validation confusion matrix and each step's time.
public struct GestureTrainingReport: Codable, Sendable, Equatable {
    /// One label's photos and hands.
    public struct Label: Codable, Sendable, Equatable {
        /// The label as the data named it (its folder).
        public var name: String
        /// The label as the model outputs it (`none` in any case becomes MediaPipe's background label `None`).
        public var exportedName: String
        /// Photos given.
        public var photos: Int
        /// Photos in which a hand was found.
        public var hands: Int
        /// Photos decoded but showing no hand.
        public var noHand: Int
        /// Photos that could not be read or decoded.
        public var unreadable: Int
        /// Hands trained on (before augmentation) and held out to validate.
        public var trainHands: Int
        /// See `trainHands`.
        public var validationHands: Int
        /// Photos in which two hands were found.
        public var twoHands: Int
        /// Of those, photos trained on the hand the palm detector ranked second (the other more likely shows no
        /// gesture, see `GestureTrainer.chooseHands`).
        public var otherHand: Int
    }

    /// One photo that gave no training hand, and why.
    public struct Skipped: Codable, Sendable, Equatable {
        /// The photo (path or upload name).
        public var photo: String
        /// Its label.
        public var label: String
        /// "no hand found", or the decoder's message.
        public var reason: String
    }

    /// One epoch's figures.
    public struct Epoch: Codable, Sendable, Equatable {
        /// 1-based.
        public var epoch: Int
        /// The learning rate of the epoch.
        public var learningRate: Float
        /// Mean focal loss of the epoch's training steps.
        public var loss: Float
        /// Focal loss and accuracy on the validation hands (nil without validation).
        public var validationLoss: Float?
        /// See `validationLoss`.
        public var validationAccuracy: Float?
    }

    /// One candidate of the settings search and its cross-validated accuracy.
    public struct Candidate: Codable, Sendable, Equatable {
        /// The searched options' values, by CLI name (`layer-widths`, `batch-size`, `epochs`, `dropout`, `gamma`,
        /// `balance-classes`).
        public var settings: [String: String]
        /// The accuracy on each fold's held-out hands.
        public var foldAccuracies: [Float]
        /// The mean of `foldAccuracies`.
        public var meanAccuracy: Float
        /// Their standard deviation.
        public var spread: Float
    }

    /// What the settings search did (`search` auto).
    public struct Search: Codable, Sendable, Equatable {
        /// Folds used: the `folds` option, or fewer when a label had fewer training hands (0: nothing searched).
        public var folds: Int
        /// The training hands the folds were dealt from: every hand, or a stratified sample of
        /// `SettingsSearch.maxHands` when there are more (0: nothing searched).
        public var hands: Int
        /// The options given, by CLI name: kept fixed.
        public var fixed: [String]
        /// Every candidate scored, in the order scored (successive halving: the first epoch count first).
        public var candidates: [Candidate]
        /// The index in `candidates` of the one trained on every hand (nil when nothing was searched).
        public var chosen: Int?
        /// Why nothing was searched, when nothing was.
        public var skipped: String?
        /// The search's wall time in seconds.
        public var seconds: Double
    }

    /// One step's wall time.
    public struct Step: Codable, Sendable, Equatable {
        /// "find hands", "embed", "search", "train", "export".
        public var name: String
        /// Seconds.
        public var seconds: Double
    }

    /// The labels in output order.
    public var labels: [Label]
    /// Photos that gave no training hand.
    public var skipped: [Skipped]
    /// Entries of the data that were not photos (hidden files, nested folders).
    public var ignored: [String]
    /// What in the data looks like a mistake, one sentence each (`GestureSamples.warnings`): the training went on.
    public var warnings: [String]
    /// Training samples per epoch, augmentation included.
    public var trainingSamples: Int
    /// Each epoch run.
    public var epochs: [Epoch]
    /// The epoch whose weights were exported (the last, or the best with early stopping).
    public var exportedEpoch: Int
    /// Accuracy of the exported model on the training hands (not augmented) and on the validation hands.
    public var trainAccuracy: Float
    /// See `trainAccuracy`; nil without validation.
    public var validationAccuracy: Float?
    /// Validation confusion matrix: row = true label, column = predicted label, in `labels` order.
    public var confusion: [[Int]]
    /// The steps' times.
    public var steps: [Step]
    /// The options used, by their CLI names (the searched ones as chosen).
    public var options: [String: String]
    /// What the settings search tried and chose; nil with `search` off.
    public var search: Search?

    /// The report as pretty-printed JSON with sorted keys.
    /// - Throws: `EncodingError.invalidValue` for a number that is not finite, as `JSONEncoder` does.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// The reason of a photo skipped because no hand was found in it.
    public static let noHand = "no hand found"
    /// The most unreadable photos, and ignored entries, that the text names one by one.
    static let namedAtMost = 10

    /// The report as text for a terminal: labels, accuracies, confusion matrix, times.
    public var text: String {
        var lines: [String] = []
        let width = max(5, labels.map(\.exportedName.count).max() ?? 5)
        func pad(_ text: String, _ n: Int) -> String {
            text.count >= n ? text : text + String(repeating: " ", count: n - text.count)
        }
        func right(_ text: String, _ n: Int) -> String {
            text.count >= n ? text : String(repeating: " ", count: n - text.count) + text
        }
        lines.append(pad("label", width) + "  photos  hands  no hand  unreadable  train  validation")
        for label in labels {
            lines.append(
                pad(label.exportedName, width) + right(String(label.photos), 8) + right(String(label.hands), 7)
                    + right(String(label.noHand), 9) + right(String(label.unreadable), 12)
                    + right(String(label.trainHands), 7)
                    + right(String(label.validationHands), 12))
        }
        let twoHands = labels.map(\.twoHands).reduce(0, +)
        if twoHands > 0 {
            lines.append(
                "photos with two hands: \(twoHands); trained on the second hand (more likely the gesture): "
                    + "\(labels.map(\.otherHand).reduce(0, +))")
        }
        // What was left out, named: a photo that is missing from the counts above is explained here.
        let unreadable = skipped.filter { $0.reason != Self.noHand }
        for (title, entries) in [
            ("unreadable photos", unreadable.map { "\($0.photo): \($0.reason)" }),
            ("ignored entries (not in a label folder, hidden, or a folder inside one)", ignored),
        ] where !entries.isEmpty {
            lines.append("\(title): \(entries.count)")
            lines += entries.prefix(Self.namedAtMost).map { "  " + $0 }
            if entries.count > Self.namedAtMost {
                lines.append("  … and \(entries.count - Self.namedAtMost) more (the JSON report lists all)")
            }
        }
        lines.append("training samples per epoch (augmentation included): \(trainingSamples)")
        lines.append("epochs run: \(epochs.count); exported: epoch \(exportedEpoch)")
        lines.append(String(format: "train accuracy: %.3f", trainAccuracy))
        if let validationAccuracy {
            lines.append(String(format: "validation accuracy: %.3f", validationAccuracy))
            lines.append("validation confusion (rows: true label, columns: predicted):")
            let cell = max(4, width)
            lines.append(pad("", width) + labels.map { right($0.exportedName, cell + 1) }.joined())
            for (label, row) in zip(labels, confusion) {
                lines.append(pad(label.exportedName, width) + row.map { right(String($0), cell + 1) }.joined())
            }
        } else {
            let split = options[GestureTrainingOptions.Declared.validationSplit.option.name] ?? "0"
            lines.append(
                Double(split) ?? 0 > 0
                    ? "no validation hands: validation-split \(split) of each label's hands rounds to none (and each "
                        + "label keeps at least one hand to train on)"
                    : "no validation hands (validation-split 0)")
        }
        if let search { lines += Self.lines(search) }
        lines.append(steps.map { $0.name + String(format: " %.2f s", $0.seconds) }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    /// The search's candidates as a table: mean and spread of the folds' accuracies, the chosen one marked.
    private static func lines(_ search: Search) -> [String] {
        if let skipped = search.skipped { return ["settings search: nothing searched (\(skipped))"] }
        let fixed = search.fixed.isEmpty ? "" : "; fixed: " + search.fixed.joined(separator: ", ")
        var lines = [
            "settings search: \(search.candidates.count) candidates, \(search.folds)-fold cross-validation, "
                + "\(search.hands) hands, " + String(format: "%.2f s", search.seconds) + fixed,
            "  layer-widths  batch-size  epochs  dropout  gamma  balance-classes   mean accuracy  spread",
        ]
        func right(_ text: String, _ n: Int) -> String {
            text.count >= n ? text : String(repeating: " ", count: n - text.count) + text
        }
        for (index, candidate) in search.candidates.enumerated() {
            let values = [
                ("layer-widths", 14), ("batch-size", 12), ("epochs", 8), ("dropout", 9), ("gamma", 7),
                ("balance-classes", 17),
            ].map { right(candidate.settings[$0.0] ?? "", $0.1) }
            lines.append(
                (index == search.chosen ? "*" : " ") + values.joined()
                    + String(format: "%16.3f  %6.3f", candidate.meanAccuracy, candidate.spread))
        }
        lines.append("* chosen, then trained on every training hand")
        return lines
    }
}
