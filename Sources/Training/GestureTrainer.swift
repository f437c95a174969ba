import Foundation
import TFLite
import VisionCore
import VisionErrors
import VisionTasks

// MARK: - Progress and outcome

/// Where a training is, for a progress bar.
public struct GestureTrainingProgress: Sendable, Equatable {
    /// The steps of a training, in order.
    public enum Stage: String, Sendable {
        /// Finding the hand in each photo.
        case findingHands = "find hands"
        /// Embedding the hands (and their augmented variants).
        case embedding = "embed"
        /// Scoring candidate settings by cross-validation (units: recipe-folds trained).
        case searching = "search"
        /// Training epochs.
        case training = "train"
        /// Writing the model and the bundle.
        case exporting = "export"
    }
    /// The current step.
    public var stage: Stage
    /// Units done in this step (photos, hands, epochs).
    public var completed: Int
    /// Units this step has.
    public var total: Int
}

/// A trained gesture recognizer: the `.task` bytes and what the training did.
public struct GestureTrainingOutcome: Sendable {
    /// The new `gesture_recognizer.task`: the base bundle's hand landmarker, embedder and canned classifier, and
    /// the trained `custom_gesture_classifier.tflite`.
    public let task: Data
    /// The labels the custom classifier outputs, in order (`None` first).
    public let labels: [String]
    /// What the training did.
    public let report: GestureTrainingReport

    /// Writes the bundle to `path` through a temporary file beside it, so `path` is never left half-written (a path
    /// that is no regular file, such as `/dev/null`, is written into: `OutputFile`).
    /// - Parameter path: Where the `.task` goes (replaced if it exists).
    /// - Throws: `VisionTasksError.fileUnwritable` naming the path when it cannot be written.
    public func write(to path: String) throws {
        try OutputFile.write(task, to: path, what: "the model")
    }
}

// MARK: - Trainer

/// Trains the Gesture Recognizer's custom classifier from labelled photos, in Swift, and packs it into a
/// `gesture_recognizer.task` that MediaPipe and VisionTasks load (`customGesturesClassifierOptions` apply to it).
///
/// Each photo's hand is found and embedded by the recognizer's own steps; the head is Model Maker's, trained
/// with its options (`GestureTrainingOptions`). A label folder named `none` (any case) becomes MediaPipe's
/// background label `None`: when the custom classifier says `None`, the recognizer falls back to the canned
/// gestures, in MediaPipe and here alike.
public final class GestureTrainer: Sendable {
    /// The base bundle's path, as given.
    public let baseModelPath: String
    private let base: Data
    private let settings: Settings
    private let numThreads: Int
    private let decoding: ImageDecodingOptions

    /// The options as the training reads them, copied when the trainer is made.
    private struct Settings: Sendable {
        /// The head's settings as given or declared (the search starts from them).
        let recipe: HeadRecipe
        /// The share of each label's hands held out for validation (`GestureTrainingOptions.heldOutSplit`).
        let heldOut: Float
        let seed: Int, minDetectionConfidence: Float, augment: Bool, earlyStopping: Int
        let search: GestureSettingsSearch, folds: Int
        /// The options given, by CLI name.
        let given: Set<String>
        /// Every option's value as text, by CLI name.
        let described: [String: String]

    }

    /// The angles (degrees) a training hand is turned by when augmenting, each way.
    static let augmentationAngles: [Float] = [-20, -10, 10, 20]

    /// The photos a training may search for hands at once, each with its own hand landmarker and embedder (tens of
    /// MB): the inference engine's thread range.
    public static let threadRange = 1...BaseOptions.maxNumThreads

    /// Reads the base `gesture_recognizer.task` (its hand landmarker, embedder and canned classifier are reused)
    /// and checks the options. `numThreads` photos are searched for hands at once.
    /// - Parameters:
    ///   - baseModelPath: The `gesture_recognizer.task` whose models the new bundle reuses.
    ///   - options: The training's options (Model Maker's defaults unless set).
    ///   - numThreads: Photos searched for hands at once, within `threadRange` (default: the cores, at most its top).
    ///   - decoding: The limits the photos are decoded within (a photo over them is skipped as unreadable).
    /// - Throws: `VisionTasksError.invalidOption` for an option out of range or `numThreads` outside `threadRange`;
    ///   `.fileNotFound` or `.fileUnreadable` for the base file; `.invalidBundle` for a base that is not a
    ///   gesture recognizer bundle or lacks one of its files; `.invalidModel` or `.unsupportedModel` for a
    ///   model in it that is malformed or that the engine cannot run.
    public init(
        baseModelPath: String, options: GestureTrainingOptions = GestureTrainingOptions(),
        numThreads: Int = min(ProcessInfo.processInfo.activeProcessorCount, GestureTrainer.threadRange.upperBound),
        decoding: ImageDecodingOptions = ImageDecodingOptions()
    ) throws {
        try options.validate()
        guard Self.threadRange.contains(numThreads) else {
            throw VisionTasksError.invalidOption(
                name: "numThreads",
                reason: "must be \(Self.threadRange.lowerBound)...\(Self.threadRange.upperBound), got \(numThreads)")
        }
        self.baseModelPath = baseModelPath
        base = try ModelFile.read(baseModelPath)
        var described: [String: String] = [:]
        for option in GestureTrainingOptions.declaredOptions {
            if let value = option.value(in: options) { described[option.name] = value.text }
        }
        settings = Settings(
            recipe: HeadRecipe(
                hiddenWidths: options.layerWidths.widths, dropout: options.dropout, batchSize: options.batchSize,
                epochs: options.epochs, gamma: options.gamma, balanceClasses: options.balanceClasses,
                learningRate: options.learningRate, lrDecay: options.lrDecay),
            heldOut: options.heldOutSplit, seed: options.seed,
            minDetectionConfidence: options.minDetectionConfidence, augment: options.augment,
            earlyStopping: options.earlyStopping, search: options.search, folds: options.folds, given: options.given,
            described: described)
        self.numThreads = numThreads
        self.decoding = decoding
        _ = try sampler()
    }

    /// Trains on `samples` without blocking the caller; `progress` is called from the training thread.
    /// Cancelling the task stops the training at the next photo or step and throws `CancellationError`.
    /// - Parameters:
    ///   - samples: The labelled photos.
    ///   - progress: Called with each step's progress, from the training thread.
    /// - Returns: The `.task` bytes, its labels and the training's report.
    /// - Throws: `VisionTasksError.invalidArgument` when a label has no photo with a hand or there are fewer
    ///   training hands than `batchSize`; `.invalidOption` naming `learningRate` when the loss stops being
    ///   finite; `.invalidModel` when the trained head cannot be written (a weight that is not finite);
    ///   `CancellationError` when the task was cancelled.
    public func train(
        _ samples: GestureSamples,
        progress: (@Sendable (GestureTrainingProgress) -> Void)? = nil
    ) async throws -> GestureTrainingOutcome {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    continuation.resume(with: Result { try self.run(samples, progress: progress, cancelled: flag) })
                }
                thread.stackSize = 1 << 22
                thread.start()
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Trains on `samples`, blocking the calling thread (`train(_:progress:)` without async).
    /// - Parameters:
    ///   - samples: The labelled photos.
    ///   - progress: Called with each step's progress, from the training thread.
    /// - Returns: The `.task` bytes, its labels and the training's report.
    /// - Throws: `VisionTasksError.invalidArgument` when a label has no photo with a hand or there are fewer
    ///   training hands than `batchSize`; `.invalidOption` naming `learningRate` when the loss stops being
    ///   finite; `.invalidModel` when the trained head cannot be written (a weight that is not finite).
    public func trainBlocking(
        _ samples: GestureSamples,
        progress: (@Sendable (GestureTrainingProgress) -> Void)? = nil
    ) throws -> GestureTrainingOutcome {
        try run(samples, progress: progress, cancelled: CancellationFlag())
    }

    // MARK: - Training steps

    private func sampler() throws -> HandSampler {
        let bundle = try ModelBundle(data: base, name: baseModelPath)
        return try HandSampler(
            bundle: bundle, name: baseModelPath, minDetectionConfidence: settings.minDetectionConfidence,
            decoding: decoding)
    }

    private func run(
        _ samples: GestureSamples, progress: (@Sendable (GestureTrainingProgress) -> Void)?,
        cancelled: CancellationFlag
    ) throws -> GestureTrainingOutcome {
        let outcome = try fit(
            try hands(in: samples, progress: progress, cancelled: cancelled), progress: progress, cancelled: cancelled)
        try cancelled.check() // cancelled during the export: its caller no longer wants the model
        return outcome
    }

    /// The hands found in a training's photos, per label, with the report's counts: the slow step, which tests
    /// run once and then train from several times.
    struct FoundHands: Sendable {
        /// The data labels in output order.
        let names: [String]
        /// Each label's photos' hands, in photo order: each photo's hands as the palm detector ranks them (one or
        /// two; `chooseHands` picks the one trained on).
        let poses: [[[HandPose]]]
        /// Each label's counts so far (split not yet made).
        let labels: [GestureTrainingReport.Label]
        let skipped: [GestureTrainingReport.Skipped]
        let ignored: [String]
        /// What in the data looks like a mistake (`GestureSamples.warnings`).
        let warnings: [String]
        /// The time the search took.
        let seconds: Double
    }

    /// Finds the hand in every photo of `samples`. Throws `invalidArgument` naming a label none of whose photos
    /// shows a hand.
    func hands(
        in samples: GestureSamples, progress: (@Sendable (GestureTrainingProgress) -> Void)? = nil,
        cancelled: CancellationFlag = CancellationFlag()
    ) throws -> FoundHands {
        let start = DispatchTime.now().uptimeNanoseconds
        let outcomes = try findHands(samples, progress: progress, cancelled: cancelled)
        let labelIndex = Dictionary(uniqueKeysWithValues: samples.labels.enumerated().map { ($1, $0) })
        var poses = [[[HandPose]]](repeating: [], count: samples.labels.count)
        var labels = samples.labels.map {
            GestureTrainingReport.Label(
                name: $0, exportedName: Self.exportedName($0), photos: 0, hands: 0, noHand: 0,
                unreadable: 0, trainHands: 0, validationHands: 0, twoHands: 0, otherHand: 0)
        }
        var skipped: [GestureTrainingReport.Skipped] = []
        for (photo, outcome) in zip(samples.photos, outcomes) {
            let index = labelIndex[photo.label] ?? 0
            labels[index].photos += 1
            switch outcome {
            case .hands(let found):
                labels[index].hands += 1
                if found.count > 1 { labels[index].twoHands += 1 }
                poses[index].append(found)
            case .noHand:
                labels[index].noHand += 1
                skipped.append(.init(photo: photo.name, label: photo.label, reason: GestureTrainingReport.noHand))
            case .unreadable(let reason):
                labels[index].unreadable += 1
                skipped.append(.init(photo: photo.name, label: photo.label, reason: reason))
            }
        }
        for label in labels where label.hands == 0 {
            // The first unreadable photo's reason: a label of BMP or HEIC photos heard only about hands.
            let reason =
                skipped.first { $0.label == label.name && $0.reason != GestureTrainingReport.noHand }
                .map { "; the first unreadable: \($0.photo): \($0.reason)" } ?? ""
            throw VisionTasksError.invalidArgument(
                "label \"\(label.name)\": none of its \(label.photos) photos shows a hand the detector finds (\(label.noHand) without a hand, \(label.unreadable) unreadable\(reason))"
            )
        }
        return FoundHands(
            names: samples.labels, poses: poses, labels: labels, skipped: skipped, ignored: samples.ignored,
            warnings: samples.warnings, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// The embedding of every photo's first hand (the one recognition with one hand takes), label by label (no
    /// augmentation).
    func embeddings(of found: FoundHands) throws -> [[Float]] {
        let embedder = try sampler()
        return try found.poses.joined().compactMap(\.first).map { try embedder.embed($0) }
    }

    /// The hand each photo is trained on, label by label (with its plain embedding when the choice computed it,
    /// so the embedding step does not compute it again), and each label's count of photos whose hand is not the
    /// palm detector's first. A photo with one hand gives it. A photo with two shows, as a rule, the gesture with
    /// one hand and rests the other, and the palm detector often ranks the resting hand first (the HaGRIDv2
    /// subset of docs/TRAINING.md: 31 of its 53 two-hand gesture photos): training on it would teach a resting
    /// hand as the gesture. So a plain head (the declared defaults, on plain embeddings) is trained on the photos
    /// with one hand and every hand of the `none` photos (a label without one-hand photos gives its first hands),
    /// and each two-hand photo of a gesture keeps the hand that head finds the more likely to show its label.
    /// `none` photos keep their first hand (both show no gesture).
    func chooseHands(_ found: FoundHands, embedder: HandSampler, cancelled: CancellationFlag) throws -> (
        hands: [[ChosenHand]], otherHand: [Int]
    ) {
        let noneIndex = 0 // `names` puts none first (GestureSamples.labels)
        let ambiguous = found.poses.indices.contains { label in
            label != noneIndex && found.poses[label].contains { $0.count > 1 }
        }
        guard ambiguous else {
            return (found.poses.map { $0.compactMap(\.first).map { ChosenHand(pose: $0) } }, found.poses.map { _ in 0 })
        }
        // Every hand embedded once: the chooser trains on some, scores the others, and the choice keeps its own.
        let embedded = try found.poses.map { photos in
            try photos.map { hands in
                try cancelled.check()
                return try hands.map { (pose: $0, embedding: try embedder.embed($0)) }
            }
        }
        let first = embedded.map { $0.compactMap(\.first) }
        let kept = { (hand: (pose: HandPose, embedding: [Float])) in
            ChosenHand(pose: hand.pose, embedding: hand.embedding)
        }
        var samples: [Sample] = []
        for (label, photos) in embedded.enumerated() {
            let clear = photos.filter { $0.count == 1 }
            let taken = label == noneIndex ? photos.flatMap { $0 } : clear.isEmpty ? first[label] : clear.map { $0[0] }
            for hand in taken { samples.append(Sample(embedding: hand.embedding, label: label)) }
        }
        typealias Declared = GestureTrainingOptions.Declared
        let recipe = HeadRecipe(
            hiddenWidths: [], dropout: Declared.dropout.defaultValue, batchSize: Declared.batchSize.defaultValue,
            epochs: Declared.epochs.defaultValue, gamma: Declared.gamma.defaultValue, balanceClasses: false,
            learningRate: Declared.learningRate.defaultValue, lrDecay: Declared.lrDecay.defaultValue)
        var chooser = HeadTraining(
            recipe: recipe, inputCount: embedder.embeddingSize, classCount: found.names.count, samples: samples,
            members: Array(samples.indices),
            random: SeededGenerator(seed: UInt64(settings.seed) ^ 0x4A4D_D5C0_0000_0000))
        for _ in 0..<recipe.epochs {
            guard try chooser.runEpoch(samples, members: Array(samples.indices), cancelled: cancelled).isFinite else {
                return (first.map { $0.map(kept) }, found.poses.map { _ in 0 })
            }
        }
        var chosen = first.map { $0.map(kept) }
        var otherHand = found.poses.map { _ in 0 }
        for (label, photos) in embedded.enumerated() where label != noneIndex {
            chosen[label] = photos.compactMap { hands -> ChosenHand? in
                guard hands.count > 1 else { return hands.first.map(kept) }
                let scores = hands.map { chooser.head.predict($0.embedding)[label] }
                let best = scores.indices.max { scores[$0] < scores[$1] } ?? 0
                if best != 0 { otherHand[label] += 1 }
                return kept(hands[best])
            }
        }
        return (chosen, otherHand)
    }

    /// A photo's hand chosen for training, with its plain embedding when already computed.
    struct ChosenHand {
        let pose: HandPose
        var embedding: [Float]? = nil
    }

    /// Splits, embeds, trains and exports from hands already found.
    func fit(
        _ found: FoundHands, progress: (@Sendable (GestureTrainingProgress) -> Void)? = nil,
        cancelled: CancellationFlag = CancellationFlag()
    ) throws -> GestureTrainingOutcome {
        var steps = [
            GestureTrainingReport.Step(
                name: GestureTrainingProgress.Stage.findingHands.rawValue, seconds: found.seconds)
        ]
        func timed<T>(_ stage: GestureTrainingProgress.Stage, _ body: () throws -> T) rethrows -> T {
            let start = DispatchTime.now().uptimeNanoseconds
            defer {
                steps.append(
                    .init(name: stage.rawValue, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
            }
            return try body()
        }
        let labelCount = found.names.count
        let embedder = try sampler()
        let (poses, otherHand) = try chooseHands(found, embedder: embedder, cancelled: cancelled)
        var labels = found.labels
        for label in labels.indices { labels[label].otherHand = otherHand[label] }
        var random = SeededGenerator(seed: UInt64(settings.seed))
        var train: [(hand: ChosenHand, label: Int)] = [], validation: [(hand: ChosenHand, label: Int)] = []
        for (label, hands) in poses.enumerated() {
            let order = random.shuffled(Array(hands.indices))
            let held =
                settings.heldOut > 0
                ? min(hands.count - 1, Int((Float(hands.count) * settings.heldOut).rounded())) : 0
            for (rank, i) in order.enumerated() {
                if rank < held { validation.append((hands[i], label)) } else { train.append((hands[i], label)) }
            }
            labels[label].validationHands = held
            labels[label].trainHands = hands.count - held
        }
        guard train.count >= settings.recipe.batchSize else {
            throw VisionTasksError.invalidArgument(
                "\(train.count) training hands, fewer than the batch size \(settings.recipe.batchSize): add photos or lower batch-size"
            )
        }

        // Embeddings, the augmented variants included.
        let (trainSet, plainTrain, validationSet, handRanges) = try timed(.embedding) {
            () throws -> ([Sample], [Sample], [Sample], [Range<Int>]) in
            var trainSet: [Sample] = [], plain: [Sample] = [], validationSet: [Sample] = []
            var ranges: [Range<Int>] = []
            let total = train.count + validation.count
            for (done, hand) in train.enumerated() {
                try cancelled.check()
                let embedding = try hand.hand.embedding ?? embedder.embed(hand.hand.pose)
                plain.append(Sample(embedding: embedding, label: hand.label))
                let first = trainSet.count
                trainSet.append(plain[plain.count - 1])
                if settings.augment {
                    for variant in hand.hand.pose.augmentations(angles: Self.augmentationAngles) {
                        trainSet.append(Sample(embedding: try embedder.embed(variant), label: hand.label))
                    }
                }
                ranges.append(first..<trainSet.count)
                progress?(.init(stage: .embedding, completed: done + 1, total: total))
            }
            for hand in validation {
                validationSet.append(
                    Sample(embedding: try hand.hand.embedding ?? embedder.embed(hand.hand.pose), label: hand.label))
            }
            progress?(.init(stage: .embedding, completed: total, total: total))
            return (trainSet, plain, validationSet, ranges)
        }

        let (recipe, search) = try timed(.searching) {
            try self.search(
                trainSet, hands: handRanges, names: found.names, inputCount: embedder.embeddingSize,
                classCount: labelCount,
                progress: progress, cancelled: cancelled)
        }
        if search == nil { steps.removeLast() }
        let fit = try timed(.training) {
            try fitHead(
                trainSet, validation: validationSet, recipe: recipe, inputCount: embedder.embeddingSize,
                classCount: labelCount, random: random, progress: progress, cancelled: cancelled)
        }
        let exportedLabels = found.names.map(Self.exportedName)
        let task = try timed(.exporting) { () throws -> Data in
            progress?(.init(stage: .exporting, completed: 0, total: 1))
            let bundle = try GestureBundleExport.task(
                base: base, baseName: baseModelPath, head: fit.head, labels: exportedLabels)
            progress?(.init(stage: .exporting, completed: 1, total: 1))
            return bundle
        }
        var confusion = [[Int]](repeating: [Int](repeating: 0, count: labelCount), count: labelCount)
        for sample in validationSet { confusion[sample.label][fit.head.predictedClass(sample.embedding)] += 1 }
        let report = GestureTrainingReport(
            labels: labels, skipped: found.skipped, ignored: found.ignored, warnings: found.warnings,
            trainingSamples: trainSet.count,
            epochs: fit.epochs,
            exportedEpoch: fit.exportedEpoch, trainAccuracy: fit.head.accuracy(plainTrain),
            validationAccuracy: validationSet.isEmpty ? nil : fit.head.accuracy(validationSet), confusion: confusion,
            steps: steps, options: described(recipe), search: search)
        return GestureTrainingOutcome(task: task, labels: exportedLabels, report: report)
    }

    /// The recipe the final training uses and the search's record: with `search` off, or every searched
    /// option given, the recipe as given or declared (and no record, or one saying why nothing was searched);
    /// else the best candidate of the cross-validation on `train` (each hand's samples at `ranges`, the plain
    /// embedding first; `names` the labels').
    private func search(
        _ train: [Sample], hands ranges: [Range<Int>], names: [String], inputCount: Int, classCount: Int,
        progress: (@Sendable (GestureTrainingProgress) -> Void)?, cancelled: CancellationFlag
    ) throws -> (HeadRecipe, GestureTrainingReport.Search?) {
        guard settings.search == .auto else { return (settings.recipe, nil) }
        let start = DispatchTime.now().uptimeNanoseconds
        let given = settings.given
        let epochsGiven = given.contains(GestureTrainingOptions.Declared.epochs.option.name)
        var sampleCounts = [Int](repeating: 0, count: classCount)
        for sample in train { sampleCounts[sample.label] += 1 }
        let recipes = SettingsSearch.recipes(
            base: settings.recipe, given: given, maxBatch: train.count,
            balanced: 2 * (sampleCounts.max() ?? 0) < 3 * (sampleCounts.min() ?? 0))
        let rungs = SettingsSearch.rungs(epochs: settings.recipe.epochs, given: epochsGiven)
        let fixed = GestureTrainingOptions.declaredOptions.map(\.name).filter(given.contains)
        func record(
            folds: Int, hands: Int = 0, _ candidates: [GestureTrainingReport.Candidate], chosen: Int?, skipped: String?
        ) -> GestureTrainingReport.Search {
            GestureTrainingReport.Search(
                folds: folds, hands: hands, fixed: fixed, candidates: candidates, chosen: chosen, skipped: skipped,
                seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        /// The settings given or declared, with the reason nothing was searched.
        func skipped(_ reason: String) -> (HeadRecipe, GestureTrainingReport.Search?) {
            (settings.recipe, record(folds: 0, [], chosen: nil, skipped: reason))
        }
        guard recipes.count > 1 || !epochsGiven else { return skipped("every searched option was given") }
        let labels = ranges.map { train[$0.lowerBound].label }
        var counts = [Int](repeating: 0, count: classCount)
        for label in labels { counts[label] += 1 }
        let fewest = counts.min() ?? 0
        let folds = min(settings.folds, fewest)
        guard folds >= 2 else {
            let label = counts.firstIndex(of: fewest) ?? 0
            return skipped(
                "label \(names[label]) has \(fewest) training hand; cross-validation needs 2 per label: the settings given or declared were used"
            )
        }
        let held = SettingsSearch.heldValues(
            recipes: recipes, folds: folds, inputCount: inputCount, classCount: classCount)
        guard held <= SettingsSearch.maxHeldValues else {
            return skipped(
                "\(recipes.count) settings over \(folds) folds would hold \((held * 4) >> 20) MiB of weights at once, over the search's \((SettingsSearch.maxHeldValues * 4) >> 20) MiB: the settings given or declared were used (narrower --layer-widths can be searched)"
            )
        }
        let dealt = SettingsSearch.sample(
            labels: labels, classCount: classCount, limit: SettingsSearch.maxHands, atLeast: folds,
            seed: UInt64(settings.seed))
        let search = SettingsSearch(
            samples: train, hands: dealt.map { ranges[$0] }, inputCount: inputCount, classCount: classCount,
            folds: SettingsSearch.folds(
                labels: dealt.map { labels[$0] }, classCount: classCount, count: folds, seed: UInt64(settings.seed)))
        let fitting = recipes.filter { $0.batchSize <= search.fewestTrainingSamples }
        guard !fitting.isEmpty else {
            return skipped(
                "a fold trains on \(search.fewestTrainingSamples) samples, fewer than the batch size \(settings.recipe.batchSize): the settings given or declared were used (add photos or lower batch-size to search)"
            )
        }
        let scored = try search.run(
            recipes: fitting, rungs: rungs,
            candidateEpochs: Set(epochsGiven ? [settings.recipe.epochs] : Array(rungs.dropFirst())),
            seed: UInt64(settings.seed), threads: numThreads, cancelled: cancelled
        ) { done, total in
            progress?(.init(stage: .searching, completed: done, total: total))
        }
        let chosen = SettingsSearch.best(scored)
        let candidates = scored.map { candidate in
            let accuracies = zip(candidate.right, candidate.held).map { Float($0) / Float(max($1, 1)) }
            let mean = accuracies.reduce(0, +) / Float(accuracies.count)
            let variance = accuracies.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(accuracies.count)
            return GestureTrainingReport.Candidate(
                settings: searchedText(candidate.recipe), foldAccuracies: accuracies, meanAccuracy: mean,
                spread: variance.squareRoot())
        }
        return (
            chosen.map { scored[$0].recipe } ?? settings.recipe,
            record(folds: folds, hands: dealt.count, candidates, chosen: chosen, skipped: nil)
        )
    }

    /// The searched options of `recipe` as text, by CLI name.
    private func searchedText(_ recipe: HeadRecipe) -> [String: String] {
        typealias Declared = GestureTrainingOptions.Declared
        return [
            Declared.layerWidths.option.name: LayerWidths(recipe.hiddenWidths).optionValue.text,
            Declared.batchSize.option.name: recipe.batchSize.optionValue.text,
            Declared.epochs.option.name: recipe.epochs.optionValue.text,
            Declared.dropout.option.name: recipe.dropout.optionValue.text,
            Declared.gamma.option.name: recipe.gamma.optionValue.text,
            Declared.balanceClasses.option.name: recipe.balanceClasses.optionValue.text,
        ]
    }

    /// Every option's value as the final training used it, by CLI name: the recipe's and the split held out.
    private func described(_ recipe: HeadRecipe) -> [String: String] {
        var described = settings.described.merging(searchedText(recipe)) { $1 }
        described[GestureTrainingOptions.Declared.validationSplit.option.name] = settings.heldOut.optionValue.text
        return described
    }

    /// The label the model outputs for a data label: `none` in any case is MediaPipe's background label `None`.
    static func exportedName(_ label: String) -> String {
        label.lowercased() == "none" ? gestureBackgroundLabel : label
    }

    /// The hand in every photo, `numThreads` photos at a time, in photo order.
    private func findHands(
        _ samples: GestureSamples, progress: (@Sendable (GestureTrainingProgress) -> Void)?,
        cancelled: CancellationFlag
    ) throws -> [HandSampler.Outcome] {
        let photos = samples.photos
        let workers = max(1, min(numThreads, photos.count))
        let samplers = Workers(try (0..<workers).map { _ in try sampler() })
        let done = Counter()
        progress?(.init(stage: .findingHands, completed: 0, total: photos.count))
        return try Parallel.map(count: photos.count, threads: workers, cancelled: cancelled) { worker, index in
            let outcome = try samplers.items[worker].hand(in: photos[index])
            progress?(.init(stage: .findingHands, completed: done.increment(), total: photos.count))
            return outcome
        }
    }

    /// Trains a head as Model Maker does, with the options' additions (class weights, early stopping).
    private func fitHead(
        _ train: [Sample], validation: [Sample], recipe: HeadRecipe, inputCount: Int, classCount: Int,
        random: SeededGenerator, progress: (@Sendable (GestureTrainingProgress) -> Void)?,
        cancelled: CancellationFlag
    ) throws -> (head: ClassifierHead, epochs: [GestureTrainingReport.Epoch], exportedEpoch: Int) {
        let members = Array(train.indices)
        var training = HeadTraining(
            recipe: recipe, inputCount: inputCount, classCount: classCount, samples: train, members: members,
            random: random)
        var epochs: [GestureTrainingReport.Epoch] = []
        var best: (head: ClassifierHead, loss: Float, epoch: Int)?
        var sinceBest = 0
        for epoch in 0..<recipe.epochs {
            let loss = try training.runEpoch(train, members: members, cancelled: cancelled)
            guard loss.isFinite else {
                throw VisionTasksError.invalidOption(
                    name: "learningRate",
                    reason:
                        "training diverged in epoch \(epoch + 1) (the loss is not finite) at \(recipe.learningRate): lower it"
                )
            }
            var record = GestureTrainingReport.Epoch(
                epoch: epoch + 1, learningRate: recipe.rate(epoch), loss: loss, validationLoss: nil,
                validationAccuracy: nil)
            if !validation.isEmpty {
                let validationLoss = training.head.meanLoss(validation, loss: training.focalLoss)
                record.validationLoss = validationLoss
                record.validationAccuracy = training.head.accuracy(validation)
                if settings.earlyStopping > 0 {
                    if best == nil || validationLoss < best!.loss {
                        best = (training.head, validationLoss, epoch + 1)
                        sinceBest = 0
                    } else {
                        sinceBest += 1
                    }
                }
            }
            epochs.append(record)
            progress?(.init(stage: .training, completed: epoch + 1, total: recipe.epochs))
            if settings.earlyStopping > 0, sinceBest >= settings.earlyStopping { break }
        }
        if let best { return (best.head, epochs, best.epoch) }
        return (training.head, epochs, epochs.count)
    }
}

// MARK: - Samples and scores

/// One embedded hand and its label index.
struct Sample: Sendable {
    var embedding: [Float]
    var label: Int
}

extension ClassifierHead {
    /// The most probable class of `input`.
    func predictedClass(_ input: [Float]) -> Int {
        let p = predict(input)
        return p.indices.max { p[$0] < p[$1] } ?? 0
    }

    /// The share of `samples` classified right.
    func accuracy(_ samples: [Sample]) -> Float {
        guard !samples.isEmpty else { return 0 }
        return Float(samples.filter { predictedClass($0.embedding) == $0.label }.count) / Float(samples.count)
    }

    /// The mean unweighted focal loss over `samples`.
    func meanLoss(_ samples: [Sample], loss: FocalLoss) -> Float {
        guard !samples.isEmpty else { return 0 }
        return samples.map { loss.loss(predict($0.embedding)[$0.label], weight: 1) }.reduce(0, +) / Float(samples.count)
    }
}

// MARK: - Cancellation and parallel workers

/// Set once when the training's task is cancelled; read by the training thread.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    func cancel() { lock.withLock { cancelled = true } }
    var isCancelled: Bool { lock.withLock { cancelled } }
    /// Throws `CancellationError` once cancelled.
    func check() throws { if isCancelled { throw CancellationError() } }
}

/// Per-worker objects handed to `concurrentPerform`: worker `i` alone uses `items[i]`.
private final class Workers<T>: @unchecked Sendable {
    let items: [T]
    init(_ items: [T]) { self.items = items }
}

/// Hands out indices 0, 1, 2, … to the workers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
    /// Adds one and returns the new count.
    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// The workers' results by index, and the first error.
final class ResultSlots<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [T?]
    private var error: (any Error)?

    init(count: Int) { slots = [T?](repeating: nil, count: count) }
    func set(_ index: Int, _ value: T) {
        lock.withLock {
            slots[index] = value
        }
    }
    func fail(_ error: any Error) { lock.withLock { if self.error == nil { self.error = error } } }
    var failed: Bool { lock.withLock { error != nil } }
    func values() throws -> [T] {
        try lock.withLock {
            if let error { throw error }
            return slots.compactMap { $0 }
        }
    }
}
