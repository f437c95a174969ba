import Foundation
import VisionErrors
import VisionTasks

/// How `GestureTrainer` trains a custom gesture classifier. The first seven options are MediaPipe Model
/// Maker's, with its names and defaults (`layer-widths` … `gamma`); the others are ours, their defaults
/// chosen by measurement on held-out photos (docs/TRAINING.md). Every option is declared once in `Declared`, which the
/// initializer's defaults, the range checks, the CLI and the server read.
public final class GestureTrainingOptions {
    /// Widths of the hidden layers (none: the head is one dense layer, Model Maker's default).
    public var layerWidths: LayerWidths
    /// Fraction of units dropped before each dense layer while training (0.05).
    public var dropout: Float
    /// Adam's learning rate in the first epoch (0.001).
    public var learningRate: Float
    /// Photos per training step (2).
    public var batchSize: Int
    /// Passes over the training photos (10).
    public var epochs: Int
    /// The learning rate is multiplied by this after each epoch (0.99).
    public var lrDecay: Float
    /// The focal loss's focusing parameter (2; 0 is cross-entropy).
    public var gamma: Float
    /// Fraction of each label's hands held out to validate (0.2; 0 trains on every hand).
    public var validationSplit: Float
    /// Seeds the split, the shuffling, the initial weights and dropout: the same seed and photos give the same model bytes.
    public var seed: Int
    /// The palm detector's minimum score when hands are found in the photos (0.7, as Model Maker).
    public var minDetectionConfidence: Float
    /// Adds each training hand mirrored (handedness swapped) and turned by small angles, in landmark space.
    public var augment: Bool
    /// Weighs each label's loss by the inverse of its share of the training hands.
    public var balanceClasses: Bool
    /// Stops after this many epochs without a lower validation loss and keeps the best epoch's weights (0: off).
    public var earlyStopping: Int

    /// Creates options with the declared defaults.
    public init(
        layerWidths: LayerWidths = Declared.layerWidths.defaultValue,
        dropout: Float = Declared.dropout.defaultValue,
        learningRate: Float = Declared.learningRate.defaultValue,
        batchSize: Int = Declared.batchSize.defaultValue,
        epochs: Int = Declared.epochs.defaultValue,
        lrDecay: Float = Declared.lrDecay.defaultValue,
        gamma: Float = Declared.gamma.defaultValue,
        validationSplit: Float = Declared.validationSplit.defaultValue,
        seed: Int = Declared.seed.defaultValue,
        minDetectionConfidence: Float = Declared.minDetectionConfidence.defaultValue,
        augment: Bool = Declared.augment.defaultValue,
        balanceClasses: Bool = Declared.balanceClasses.defaultValue,
        earlyStopping: Int = Declared.earlyStopping.defaultValue
    ) {
        self.layerWidths = layerWidths
        self.dropout = dropout
        self.learningRate = learningRate
        self.batchSize = batchSize
        self.epochs = epochs
        self.lrDecay = lrDecay
        self.gamma = gamma
        self.validationSplit = validationSplit
        self.seed = seed
        self.minDetectionConfidence = minDetectionConfidence
        self.augment = augment
        self.balanceClasses = balanceClasses
        self.earlyStopping = earlyStopping
    }

    /// A copy, so a trainer keeps the values it was given.
    func copy() -> GestureTrainingOptions {
        GestureTrainingOptions(
            layerWidths: layerWidths, dropout: dropout, learningRate: learningRate, batchSize: batchSize,
            epochs: epochs, lrDecay: lrDecay, gamma: gamma, validationSplit: validationSplit, seed: seed,
            minDetectionConfidence: minDetectionConfidence, augment: augment,
            balanceClasses: balanceClasses, earlyStopping: earlyStopping)
    }

    /// Checks every option against its declared range: `invalidOption` naming the first one out of range.
    /// - Throws: `VisionTasksError.invalidOption` naming the first option out of range (a layer width outside
    ///   1...4096 among them).
    public func validate() throws {
        for option in Self.declaredOptions { try option.validate(self) }
        for width in layerWidths.widths where !(1...4096).contains(width) {
            throw VisionTasksError.invalidOption(
                name: "layerWidths", reason: "each width must be in [1, 4096], got \(width)")
        }
    }

    /// The options, in the order the CLI and the page show them.
    public static let declaredOptions: [TaskOption] = [
        Declared.layerWidths.option, Declared.dropout.option, Declared.learningRate.option, Declared.batchSize.option,
        Declared.epochs.option, Declared.lrDecay.option, Declared.gamma.option, Declared.validationSplit.option,
        Declared.seed.option, Declared.minDetectionConfidence.option, Declared.augment.option,
        Declared.balanceClasses.option, Declared.earlyStopping.option,
    ]

    /// Each option declared once: name, property, default, range and help.
    public enum Declared {
        /// `layer-widths`: Model Maker's `layer_widths` (default none).
        public static let layerWidths = DeclaredOption<GestureTrainingOptions, LayerWidths>(
            "layer-widths", \.layerWidths, label: "Hidden layers",
            help: "Widths of hidden layers, comma-separated (none: one dense layer).", default: LayerWidths([]))
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
    }
}

/// Widths of a head's hidden layers, written "64,32" on the command line and in queries.
public struct LayerWidths: Sendable, Equatable, TaskOptionValueType {
    /// The widths, input side first.
    public var widths: [Int]
    /// Wraps `widths`.
    public init(_ widths: [Int]) { self.widths = widths }
    public static var optionType: TaskOptionType { .list }
    /// Reads "64,32" ("" or "none": no hidden layer); nil for anything but whole numbers.
    public init?(optionText: String) {
        let parts = optionText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
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
