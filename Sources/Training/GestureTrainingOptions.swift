import Foundation
import VisionErrors
import VisionTasks

/// How `GestureTrainer` trains a custom gesture classifier. The first seven options are MediaPipe Model
/// Maker's, with its names and defaults (`layer-widths` … `gamma`); the others are ours, their defaults
/// chosen by measurement on held-out photos (docs/TRAINING.md). Every option is declared once in `Declared`, which the
/// initializer's defaults, the range checks, the CLI and the server read. The options record which were given
/// (`given`): with `search` auto, those stay fixed and the search chooses the others.
public final class GestureTrainingOptions {
    /// Widths of the hidden layers (none: the head is one dense layer, Model Maker's default).
    public var layerWidths: LayerWidths { didSet { given.insert(Declared.layerWidths.option.name) } }
    /// Fraction of units dropped before each dense layer while training (0.05).
    public var dropout: Float { didSet { given.insert(Declared.dropout.option.name) } }
    /// Adam's learning rate in the first epoch (0.001).
    public var learningRate: Float { didSet { given.insert(Declared.learningRate.option.name) } }
    /// Photos per training step (2).
    public var batchSize: Int { didSet { given.insert(Declared.batchSize.option.name) } }
    /// Passes over the training photos (10).
    public var epochs: Int { didSet { given.insert(Declared.epochs.option.name) } }
    /// The learning rate is multiplied by this after each epoch (0.99).
    public var lrDecay: Float { didSet { given.insert(Declared.lrDecay.option.name) } }
    /// The focal loss's focusing parameter (2; 0 is cross-entropy).
    public var gamma: Float { didSet { given.insert(Declared.gamma.option.name) } }
    /// Fraction of each label's hands held out to validate (0.2; 0 trains on every hand).
    public var validationSplit: Float { didSet { given.insert(Declared.validationSplit.option.name) } }
    /// Seeds the split, the shuffling, the initial weights and dropout: the same seed and photos give the same model bytes.
    public var seed: Int { didSet { given.insert(Declared.seed.option.name) } }
    /// The palm detector's minimum score when hands are found in the photos (0.7, as Model Maker).
    public var minDetectionConfidence: Float { didSet { given.insert(Declared.minDetectionConfidence.option.name) } }
    /// Adds each training hand mirrored (handedness swapped) and turned by small angles, in landmark space.
    public var augment: Bool { didSet { given.insert(Declared.augment.option.name) } }
    /// Weighs each label's loss by the inverse of its share of the training hands.
    public var balanceClasses: Bool { didSet { given.insert(Declared.balanceClasses.option.name) } }
    /// Stops after this many epochs without a lower validation loss and keeps the best epoch's weights (0: off).
    public var earlyStopping: Int { didSet { given.insert(Declared.earlyStopping.option.name) } }
    /// Whether the settings not given are chosen by cross-validation on the training hands (`auto`) or take
    /// their declared defaults (`off`).
    public var search: GestureSettingsSearch { didSet { given.insert(Declared.search.option.name) } }
    /// Folds of the search's cross-validation (3; fewer when a label has fewer hands, docs/TRAINING.md).
    public var folds: Int { didSet { given.insert(Declared.folds.option.name) } }

    /// The options given (set by the initializer's arguments or assigned since), by their CLI names: the search
    /// (`search` auto) keeps them fixed and chooses the others.
    public private(set) var given: Set<String> = []

    /// Creates options: each argument given is set and counts as given; each left nil takes its declared default.
    public init(
        layerWidths: LayerWidths? = nil,
        dropout: Float? = nil,
        learningRate: Float? = nil,
        batchSize: Int? = nil,
        epochs: Int? = nil,
        lrDecay: Float? = nil,
        gamma: Float? = nil,
        validationSplit: Float? = nil,
        seed: Int? = nil,
        minDetectionConfidence: Float? = nil,
        augment: Bool? = nil,
        balanceClasses: Bool? = nil,
        earlyStopping: Int? = nil,
        search: GestureSettingsSearch? = nil,
        folds: Int? = nil
    ) {
        self.layerWidths = layerWidths ?? Declared.layerWidths.defaultValue
        self.dropout = dropout ?? Declared.dropout.defaultValue
        self.learningRate = learningRate ?? Declared.learningRate.defaultValue
        self.batchSize = batchSize ?? Declared.batchSize.defaultValue
        self.epochs = epochs ?? Declared.epochs.defaultValue
        self.lrDecay = lrDecay ?? Declared.lrDecay.defaultValue
        self.gamma = gamma ?? Declared.gamma.defaultValue
        self.validationSplit = validationSplit ?? Declared.validationSplit.defaultValue
        self.seed = seed ?? Declared.seed.defaultValue
        self.minDetectionConfidence = minDetectionConfidence ?? Declared.minDetectionConfidence.defaultValue
        self.augment = augment ?? Declared.augment.defaultValue
        self.balanceClasses = balanceClasses ?? Declared.balanceClasses.defaultValue
        self.earlyStopping = earlyStopping ?? Declared.earlyStopping.defaultValue
        self.search = search ?? Declared.search.defaultValue
        self.folds = folds ?? Declared.folds.defaultValue
        let arguments: [(String, Bool)] = [
            (Declared.layerWidths.option.name, layerWidths != nil),
            (Declared.dropout.option.name, dropout != nil),
            (Declared.learningRate.option.name, learningRate != nil),
            (Declared.batchSize.option.name, batchSize != nil),
            (Declared.epochs.option.name, epochs != nil),
            (Declared.lrDecay.option.name, lrDecay != nil),
            (Declared.gamma.option.name, gamma != nil),
            (Declared.validationSplit.option.name, validationSplit != nil),
            (Declared.seed.option.name, seed != nil),
            (Declared.minDetectionConfidence.option.name, minDetectionConfidence != nil),
            (Declared.augment.option.name, augment != nil),
            (Declared.balanceClasses.option.name, balanceClasses != nil),
            (Declared.earlyStopping.option.name, earlyStopping != nil),
            (Declared.search.option.name, search != nil),
            (Declared.folds.option.name, folds != nil),
        ]
        given = Set(arguments.filter(\.1).map(\.0))
    }

    /// Whether `option` was given (set by the caller) rather than left at its default.
    public func isGiven(_ option: TaskOption) -> Bool { given.contains(option.name) }

    /// The share of each label's hands held out for validation: with `search` auto, 0 unless `validationSplit`
    /// was given (cross-validation measures instead, and the final training uses every hand).
    public var heldOutSplit: Float {
        search == .auto && !given.contains(Declared.validationSplit.option.name) ? 0 : validationSplit
    }

    /// Checks every option against its declared range: `invalidOption` naming the first one out of range.
    /// - Throws: `VisionTasksError.invalidOption` naming the first option out of range (more than
    ///   `LayerWidths.maxLayers` hidden layers or a width outside `LayerWidths.widthRange` among them), or
    ///   `earlyStopping` with no hands held out for it to watch.
    public func validate() throws {
        for option in Self.declaredOptions { try option.validate(self) }
        guard earlyStopping == 0 || heldOutSplit > 0 else {
            throw VisionTasksError.invalidOption(
                name: "earlyStopping",
                reason:
                    "watches the validation loss, and no hands are held out: give a validation split above 0 too (with the search on, none is held out unless given)"
            )
        }
        guard layerWidths.widths.count <= LayerWidths.maxLayers else {
            throw VisionTasksError.invalidOption(
                name: "layerWidths",
                reason: "at most \(LayerWidths.maxLayers) hidden layers, got \(layerWidths.widths.count)")
        }
        for width in layerWidths.widths where !LayerWidths.widthRange.contains(width) {
            throw VisionTasksError.invalidOption(
                name: "layerWidths",
                reason:
                    "each width must be in [\(LayerWidths.widthRange.lowerBound), \(LayerWidths.widthRange.upperBound)], got \(width)"
            )
        }
    }

    /// The options, in the order the CLI and the page show them.
    public static let declaredOptions: [TaskOption] = [
        Declared.layerWidths.option, Declared.dropout.option, Declared.learningRate.option, Declared.batchSize.option,
        Declared.epochs.option, Declared.lrDecay.option, Declared.gamma.option, Declared.validationSplit.option,
        Declared.seed.option, Declared.minDetectionConfidence.option, Declared.augment.option,
        Declared.balanceClasses.option, Declared.earlyStopping.option, Declared.search.option, Declared.folds.option,
    ]

    /// Each option declared once: name, property, default, range and help.
    public enum Declared {
        /// `layer-widths`: Model Maker's `layer_widths` (default none).
        public static let layerWidths = DeclaredOption<GestureTrainingOptions, LayerWidths>(
            "layer-widths", \.layerWidths, label: "Hidden layers",
            help:
                "Widths of hidden layers, comma-separated (none: one dense layer; at most \(LayerWidths.maxLayers) layers of \(LayerWidths.widthRange.lowerBound)...\(LayerWidths.widthRange.upperBound)).",
            default: LayerWidths([]))
        /// `dropout`: Model Maker's `dropout_rate` (0.05).
        public static let dropout = DeclaredOption<GestureTrainingOptions, Float>(
            "dropout", \.dropout, label: "Dropout",
            help: "Fraction of units dropped before each dense layer while training.",
            default: 0.05, minimum: 0, maximum: 0.9)
        /// `learning-rate`: Model Maker's `learning_rate` (0.001).
        public static let learningRate = DeclaredOption<GestureTrainingOptions, Float>(
            "learning-rate", \.learningRate, label: "Learning rate", help: "Adam's learning rate in the first epoch.",
            default: 0.001, minimum: 1e-6, maximum: 1)
        /// `batch-size`: Model Maker's `batch_size` (2).
        public static let batchSize = DeclaredOption<GestureTrainingOptions, Int>(
            "batch-size", \.batchSize, label: "Batch size", help: "Hands per training step.", default: 2, minimum: 1,
            maximum: 1024)
        /// `epochs`: Model Maker's `epochs` (10).
        public static let epochs = DeclaredOption<GestureTrainingOptions, Int>(
            "epochs", \.epochs, label: "Epochs", help: "Passes over the training hands.", default: 10, minimum: 1,
            maximum: 1000)
        /// `lr-decay`: Model Maker's `lr_decay` (0.99 per epoch).
        public static let lrDecay = DeclaredOption<GestureTrainingOptions, Float>(
            "lr-decay", \.lrDecay, label: "Learning-rate decay",
            help: "The learning rate is multiplied by this after each epoch.",
            default: 0.99, minimum: 0.01, maximum: 1)
        /// `gamma`: Model Maker's focal-loss `gamma` (2).
        public static let gamma = DeclaredOption<GestureTrainingOptions, Float>(
            "gamma", \.gamma, label: "Focal-loss gamma",
            help: "The focal loss's focusing parameter (0: cross-entropy).",
            default: 2, minimum: 0, maximum: 10)
        /// `validation-split`: the fraction of each label's hands held out to validate (0.2).
        public static let validationSplit = DeclaredOption<GestureTrainingOptions, Float>(
            "validation-split", \.validationSplit, label: "Validation split",
            help: "Fraction of each label's hands held out to validate (0: train on all).", default: 0.2, minimum: 0,
            maximum: 0.9)
        /// `seed`: seeds every random choice (0).
        public static let seed = DeclaredOption<GestureTrainingOptions, Int>(
            "seed", \.seed, label: "Seed",
            help: "Seeds the split, shuffling, initial weights and dropout: same seed, same model.",
            default: 0, minimum: 0, maximum: Double(Int32.max))
        /// `min-detection-confidence`: the palm detector's threshold on the training photos (0.7, Model Maker's).
        public static let minDetectionConfidence = DeclaredOption<GestureTrainingOptions, Float>.threshold(
            "min-detection-confidence", \.minDetectionConfidence, label: "Min hand detection confidence",
            help: "Palms scoring below this in a photo are not hands.", default: 0.7)
        /// `augment`: mirrored and slightly turned copies of each training hand (true).
        public static let augment = DeclaredOption<GestureTrainingOptions, Bool>(
            "augment", \.augment, label: "Augment",
            help: "Adds each training hand mirrored (handedness swapped) and turned by small angles.", default: true)
        /// `balance-classes`: weighs labels by the inverse of their share (false: it lowered held-out accuracy
        /// on unbalanced labels, docs/TRAINING.md).
        public static let balanceClasses = DeclaredOption<GestureTrainingOptions, Bool>(
            "balance-classes", \.balanceClasses, label: "Balance labels",
            help: "Weighs each label's loss by the inverse of its share of the training hands.", default: false)
        /// `early-stopping`: patience in epochs, keeping the best epoch (0, off: no measured gain, docs/TRAINING.md).
        public static let earlyStopping = DeclaredOption<GestureTrainingOptions, Int>(
            "early-stopping", \.earlyStopping, label: "Early stopping",
            help: "Stops after this many epochs without a lower validation loss, keeping the best epoch (0: off).",
            default: 0, minimum: 0, maximum: 1000)
        /// `search`: settings not given are chosen by cross-validation (auto) or take their defaults (off).
        public static let search = DeclaredOption<GestureTrainingOptions, GestureSettingsSearch>(
            "search", \.search, label: "Search settings",
            help:
                "auto: settings not given are chosen by cross-validation on the training hands, and the final training uses every hand unless validation-split is given; off: the defaults.",
            default: .auto)
        /// `folds`: the search's cross-validation folds (3: cheap enough for seconds, docs/TRAINING.md).
        public static let folds = DeclaredOption<GestureTrainingOptions, Int>(
            "folds", \.folds, label: "Folds",
            help:
                "Cross-validation folds of the search (fewer when a label has fewer hands; at least 2 hands per label).",
            default: 3, minimum: 2, maximum: 10)
    }
}

/// Whether `GestureTrainer` chooses the settings not given by cross-validation.
public enum GestureSettingsSearch: String, Sendable, CaseIterable, TaskOptionValueType {
    /// Candidates scored by cross-validation on the training hands; the best is trained on every hand.
    case auto
    /// The declared defaults and the given settings, as before the search existed.
    case off

    public static var optionType: TaskOptionType { .string }
    /// Reads `auto` or `off`; nil for anything else.
    public init?(optionText: String) { self.init(rawValue: optionText) }
    public var optionValue: TaskOptionValue { .string(rawValue) }
    public var optionNumber: Double? { nil }
}

/// Widths of a head's hidden layers, written "64,32" on the command line and in queries.
public struct LayerWidths: Sendable, Equatable, TaskOptionValueType {
    /// The widths, input side first.
    public var widths: [Int]
    /// The most hidden layers a training takes: each of the widest holds 16.8 million weights, and with the
    /// optimiser's state a training with four of them peaked at 961 MB (each further one adds about 270 MB).
    public static let maxLayers = 4
    /// The width a hidden layer may have.
    public static let widthRange = 1...4096
    /// Wraps `widths`.
    public init(_ widths: [Int]) { self.widths = widths }
    public static var optionType: TaskOptionType { .list }
    /// Reads "64,32" ("" or "none": no hidden layer); nil for anything but whole numbers, an empty one ("64,,32",
    /// ",") included.
    public init?(optionText: String) {
        if optionText.trimmingCharacters(in: .whitespaces).isEmpty {
            self.init([])
            return
        }
        let parts = optionText.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if parts == ["none"] {
            self.init([])
            return
        }
        var widths: [Int] = []
        for part in parts {
            guard let width = Int(part) else { return nil }
            widths.append(width)
        }
        self.init(widths)
    }
    public var optionValue: TaskOptionValue { .list(widths.map(String.init)) }
    public var optionNumber: Double? { nil }
}
