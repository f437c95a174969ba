import FixtureSupport
import Foundation
import Testing
import VisionTasks

@testable import Training

/// The settings search: stratified folds that keep a hand's variants together, the choice on constructed data
/// where the answer is known, options given staying fixed, the same bytes whatever the thread count, the folds
/// rule for few hands, and the report.
@Suite(.serialized) struct SettingsSearchTests {
    typealias Declared = GestureTrainingOptions.Declared

    /// `perClass` hands of each of two classes in 6 dimensions (x0, x1, −x0, −x1 and two of small noise), each
    /// hand with `variants` samples (the hand itself and slightly moved copies): class 1 when x0·x1 > 0 (`xor`,
    /// which no head without a hidden layer can separate: its batch norm and ReLU act on each input alone, so
    /// its score is a sum of functions of one input each) or when x0 > 0 (separable); |x0| and |x1| at least 0.3.
    static func data(perClass: Int, xor: Bool, variants: Int = 1) -> (samples: [Sample], hands: [Range<Int>]) {
        var random = SeededGenerator(seed: 11)
        func value() -> Float { (0.3 + 0.7 * random.unit()) * (random.unit() < 0.5 ? -1 : 1) }
        var samples: [Sample] = [], hands: [Range<Int>] = []
        var counts = [0, 0]
        while counts.min()! < perClass {
            let x0 = value(), x1 = value()
            let label = (xor ? x0 * x1 > 0 : x0 > 0) ? 1 : 0
            guard counts[label] < perClass else { continue }
            counts[label] += 1
            let start = samples.count
            for variant in 0..<variants {
                let shift = Float(variant) * 0.01
                samples.append(
                    Sample(
                        embedding: [x0 + shift, x1 - shift, -x0 - shift, -x1 + shift]
                            + (0..<2).map { _ in 0.1 * (random.unit() - 0.5) },
                        label: label))
            }
            hands.append(start..<samples.count)
        }
        return (samples, hands)
    }

    /// A recipe with a quick schedule for the constructed data.
    static let base = HeadRecipe(
        hiddenWidths: [], dropout: 0, batchSize: 4, epochs: 20, gamma: 0, balanceClasses: false, learningRate: 0.01,
        lrDecay: 1)

    /// Searches only the hidden layers (every other searched option given) on `data`, 3 folds, scoring at the
    /// epoch counts `rungs`.
    static func chosen(_ data: (samples: [Sample], hands: [Range<Int>]), threads: Int, rungs: [Int] = [2, 5, 10])
        throws -> (
            SettingsSearch.Scored, [SettingsSearch.Scored]
        )
    {
        let given: Set<String> = [
            Declared.batchSize.option.name, Declared.dropout.option.name, Declared.gamma.option.name,
            Declared.balanceClasses.option.name,
        ]
        let recipes = SettingsSearch.recipes(
            base: base, given: given, maxBatch: data.samples.count, balanced: true)
        #expect(recipes.map(\.hiddenWidths) == [[], [64]])
        let search = SettingsSearch(
            samples: data.samples, hands: data.hands, inputCount: 6, classCount: 2,
            folds: SettingsSearch.folds(
                labels: data.hands.map { data.samples[$0.lowerBound].label }, classCount: 2, count: 3, seed: 0))
        let scored = try search.run(
            recipes: recipes, rungs: rungs, candidateEpochs: Set(rungs), seed: 0, threads: threads,
            cancelled: CancellationFlag()
        ) { _, _ in }
        let best = try #require(SettingsSearch.best(scored))
        return (scored[best], scored)
    }

    /// XOR needs the hidden layer: the search chooses it, the head without one classifying at most 190 of the 240
    /// held-out hands. A tie goes to the simpler candidate: no hidden layer, then the fewest settings away from
    /// the declared defaults; more hands right wins over simpler.
    @Test func theSearchChoosesAHiddenLayerWhereItIsNeededAndTiesGoToTheSimpler() throws {
        let (xor, xorScored) = try Self.chosen(Self.data(perClass: 120, xor: true), threads: 2)
        #expect(xor.recipe.hiddenWidths == [64], "\(xorScored.map { ($0.recipe.hiddenWidths, $0.pooledRight) })")
        let linear = try #require(xorScored.first { $0.recipe.hiddenWidths.isEmpty })
        #expect(
            xor.pooledRight >= 216 && linear.pooledRight <= 190, "XOR: \(xor.pooledRight) vs \(linear.pooledRight)")
        let defaults = HeadRecipe(
            hiddenWidths: [], dropout: 0.05, batchSize: 2, epochs: 10, gamma: 2, balanceClasses: false,
            learningRate: 0.001, lrDecay: 0.99)
        var hidden = defaults, short = defaults, shortAndBig = defaults
        hidden.hiddenWidths = [64]
        short.epochs = 3
        shortAndBig.epochs = 3
        shortAndBig.batchSize = 16
        let tied = [hidden, shortAndBig, short, defaults].map {
            SettingsSearch.Scored(recipe: $0, right: [5, 5], held: [6, 6])
        }
        #expect(SettingsSearch.best(tied) == 3)
        #expect(SettingsSearch.best(Array(tied.prefix(3))) == 2)
        #expect(SettingsSearch.best(tied + [SettingsSearch.Scored(recipe: hidden, right: [6, 5], held: [6, 6])]) == 4)
    }

    /// Successive halving: every recipe scored at the first epoch count, one in three going on.
    @Test func poorRecipesStopEarly() throws {
        let (_, scored) = try Self.chosen(Self.data(perClass: 120, xor: true), threads: 1)
        #expect(scored.map(\.recipe.epochs) == [2, 2, 5, 10])
        #expect(SettingsSearch.survivors(32, after: 1) == 11 && SettingsSearch.survivors(32, after: 3) == 2)
    }

    /// The folds are stratified by label and every hand is in exactly one; each hand's variants follow it (the
    /// search trains on the samples of the other folds' hands only).
    @Test func foldsAreStratifiedAndHoldEachHandOnce() {
        let labels = (0..<23).map { $0 < 8 ? 0 : $0 < 17 ? 1 : 2 }
        let folds = SettingsSearch.folds(labels: labels, classCount: 3, count: 4, seed: 5)
        #expect(folds.joined().sorted() == Array(0..<23))
        for label in 0..<3 {
            let perFold = folds.map { $0.filter { labels[$0] == label }.count }
            #expect(perFold.max()! - perFold.min()! <= 1, "label \(label): \(perFold)")
        }
        #expect(folds.map(\.count).max()! - folds.map(\.count).min()! <= 1)
        #expect(folds != SettingsSearch.folds(labels: labels, classCount: 3, count: 4, seed: 6))
    }

    /// Above the limit the search is dealt a stratified sample: each label's share of the limit (at least the
    /// folds' count), drawn by the seed; up to it, every hand.
    @Test func manyHandsAreSampledByLabel() {
        let labels = (0..<1_000).map { $0 < 600 ? 0 : $0 < 998 ? 1 : 2 }
        let kept = SettingsSearch.sample(labels: labels, classCount: 3, limit: 100, atLeast: 3, seed: 5)
        #expect(kept == kept.sorted() && Set(kept).count == kept.count)
        #expect([0, 1, 2].map { label in kept.filter { labels[$0] == label }.count } == [60, 40, 2])
        #expect(kept != SettingsSearch.sample(labels: labels, classCount: 3, limit: 100, atLeast: 3, seed: 6))
        #expect(
            SettingsSearch.sample(labels: labels, classCount: 3, limit: 1_000, atLeast: 3, seed: 5) == Array(0..<1_000))
    }

    /// The search's scores are the same whatever the number of threads (each recipe and fold trains alone).
    @Test func threadsDoNotChangeTheScores() throws {
        let data = Self.data(perClass: 60, xor: true, variants: 3)
        let (_, one) = try Self.chosen(data, threads: 1)
        let (_, three) = try Self.chosen(data, threads: 3)
        #expect(one.map(\.right) == three.map(\.right) && one.map(\.recipe) == three.map(\.recipe))
    }

    /// Options record whether they were given: by the initializer, by assignment, or from text (the CLI and the
    /// server).
    @Test func optionsKnowWhetherTheyWereGiven() throws {
        #expect(GestureTrainingOptions().given.isEmpty)
        let options = GestureTrainingOptions(epochs: 10, search: .auto)
        #expect(options.given == ["epochs", "search"])
        options.dropout = 0.2
        try Declared.layerWidths.option.apply(text: "32", to: options)
        #expect(options.given == ["epochs", "search", "dropout", "layer-widths"])
        #expect(options.isGiven(Declared.layerWidths.option) && !options.isGiven(Declared.gamma.option))
        #expect(GestureSettingsSearch(optionText: "maybe") == nil && GestureSettingsSearch(optionText: "off") == .off)
        // An empty width is a typing slip, not "no hidden layer" (",", "64,,32" were read as none and 64,32).
        #expect(LayerWidths(optionText: "64, 32")?.widths == [64, 32] && LayerWidths(optionText: " ")?.widths == [])
        #expect(LayerWidths(optionText: "none")?.widths == [] && LayerWidths(optionText: ",") == nil)
        #expect(LayerWidths(optionText: "64,,32") == nil && LayerWidths(optionText: "64,") == nil)
        #expect { try Declared.search.option.apply(text: "maybe", to: options) } throws: {
            "\($0)".contains("search")
        }
    }
}

/// The search in the trainer, on the 80 fixture photos (their hands found once).
@Suite(.serialized) struct SearchingTrainerTests {
    typealias Declared = GestureTrainingOptions.Declared
    static let base = GestureTrainerTests.base

    /// Options that keep the debug-build search short: no hidden layer, batches of 16, gamma 2 and 3 folds, given.
    static func options(threads: Int = 2, _ change: (GestureTrainingOptions) -> Void = { _ in }) throws
        -> GestureTrainer
    {
        let options = GestureTrainingOptions(
            layerWidths: LayerWidths([]), batchSize: 16, gamma: 2, seed: 4, folds: 3)
        // (3 folds is the default; given here, it is among the fixed options.)
        change(options)
        return try GestureTrainer(baseModelPath: base, options: options, numThreads: threads)
    }

    static let searched: Result<GestureTrainingOutcome, any Error> = Result {
        try options().fit(try GestureTrainerTests.hands.get())
    }

    /// The options given stay fixed in every candidate; the others vary; the chosen candidate is the one trained
    /// (the report's options), on every hand (no validation split unless given).
    @Test func givenOptionsStayFixedAndTheChosenIsTrained() throws {
        let report = try Self.searched.get().report
        let search = try #require(report.search)
        #expect(search.fixed == ["layer-widths", "batch-size", "gamma", "seed", "folds"])
        #expect(search.folds == 3 && search.skipped == nil)
        #expect(
            search.candidates.allSatisfy { $0.settings["layer-widths"] == "none" && $0.settings["batch-size"] == "16" })
        #expect(search.candidates.allSatisfy { $0.settings["gamma"] == "2.0" })
        // The labels hold nearly as many hands each: balancing is not tried.
        #expect(search.candidates.allSatisfy { $0.settings["balance-classes"] == "false" })
        let chosen = try #require(search.chosen.map { search.candidates[$0] })
        for (name, value) in chosen.settings { #expect(report.options[name] == value, "\(name)") }
        #expect(report.epochs.count == Int(chosen.settings["epochs"] ?? ""))
        #expect(report.options["validation-split"] == "0.0" && report.validationAccuracy == nil)
        #expect(report.labels.allSatisfy { $0.validationHands == 0 && $0.trainHands == $0.hands })
        // 2 recipes (dropout 0.05 and 0.3) screened at 1 epoch, 1 scored at 3 and at 10.
        #expect(search.candidates.map { $0.settings["epochs"] } == ["3", "10"])
        let best = search.candidates.map(\.meanAccuracy).max() ?? 0
        #expect(chosen.meanAccuracy >= best - 0.05 && chosen.meanAccuracy >= 0.8, "\(chosen)")
        for candidate in search.candidates {
            #expect(candidate.foldAccuracies.count == 3)
            let mean = candidate.foldAccuracies.reduce(0, +) / 3
            #expect(abs(candidate.meanAccuracy - mean) < 1e-6 && candidate.spread >= 0)
        }
        #expect(report.steps.map(\.name) == ["find hands", "embed", "search", "train", "export"])
        #expect(search.seconds > 0)
        let text = report.text
        let hands = report.labels.map(\.trainHands).reduce(0, +)
        #expect(search.hands == hands && hands <= SettingsSearch.maxHands)
        #expect(text.contains("settings search: 2 candidates, 3-fold cross-validation, \(hands) hands"))
        #expect(text.contains("fixed: layer-widths, batch-size, gamma, seed, folds") && text.contains("* chosen"))
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("*") && $0.contains("16") }.count == 1)
        let decoded = try JSONDecoder().decode(GestureTrainingReport.self, from: try report.jsonData())
        #expect(decoded == report)
    }

    /// One thread or two: the same bundle, byte for byte, and the same report but the times.
    @Test func sameBytesWhateverTheThreads() throws {
        let two = try Self.searched.get()
        let one = try Self.options(threads: 1).fit(try GestureTrainerTests.hands.get())
        #expect(one.task == two.task)
        func timeless(_ report: GestureTrainingReport) -> GestureTrainingReport {
            var report = report
            report.steps = []
            report.search?.seconds = 0
            return report
        }
        #expect(timeless(one.report) == timeless(two.report))
    }

    /// The chosen settings, given explicitly with the search off, train the same bundle: the search only
    /// chooses, and the final training is the one `off` runs.
    @Test func theChosenSettingsGivenWithTheSearchOffGiveTheSameBytes() throws {
        let outcome = try Self.searched.get()
        let chosen = try #require(outcome.report.search?.chosen.map { outcome.report.search!.candidates[$0] })
        let again = try Self.options {
            $0.search = .off
            $0.validationSplit = 0
            for (name, value) in chosen.settings {
                try? GestureTrainingOptions.declaredOptions.first { $0.name == name }?.apply(text: value, to: $0)
            }
        }.fit(try GestureTrainerTests.hands.get())
        #expect(again.task == outcome.task)
    }

    /// Fewer hands in a label than folds: as many folds as that label's hands; one hand: nothing searched, and
    /// the report says why. Every searched option given: nothing searched either. Folds out of range are named.
    /// A search whose heads would hold more than `maxHeldValues` at once is skipped, saying why, and the settings
    /// given or declared are trained: every recipe and fold keeps its head, so `--layer-widths 4096,4096,4096,4096`
    /// (which a server client may send too) asked the search for tens of GB. The default search stays far below.
    @Test func aSearchTooLargeToHoldIsSkippedSayingWhy() throws {
        func recipes(_ widths: [Int], _ count: Int) -> [HeadRecipe] {
            [HeadRecipe](
                repeating: HeadRecipe(
                    hiddenWidths: widths, dropout: 0, batchSize: 16, epochs: 1, gamma: 0, balanceClasses: false,
                    learningRate: 0.001, lrDecay: 0.99), count: count)
        }
        let widest = SettingsSearch.heldValues(
            recipes: recipes([64], 32), folds: 10, inputCount: 128, classCount: GestureSamples.maxLabels)
        #expect(widest < SettingsSearch.maxHeldValues / 4, "the default search's widest: \(widest)")
        let wide = try Self.options {
            $0.layerWidths = LayerWidths([4096, 1024])
            $0.epochs = 1
        }.fit(try GestureTrainerTests.hands.get()).report
        let search = try #require(wide.search)
        #expect(search.folds == 0 && search.candidates.isEmpty, "\(search)")
        #expect(search.skipped?.contains("MiB of weights at once") == true, "\(search)")
        #expect(wide.epochs.count == 1)
    }

    @Test func fewHandsMeanFewerFoldsOrNoSearch() throws {
        let hands = try GestureTrainerTests.hands.get()
        func keeping(_ count: Int) -> GestureTrainer.FoundHands {
            GestureTrainer.FoundHands(
                names: hands.names, poses: hands.poses.enumerated().map { $0 == 1 ? Array($1.prefix(count)) : $1 },
                labels: hands.labels, skipped: hands.skipped, ignored: hands.ignored, warnings: hands.warnings,
                seconds: hands.seconds)
        }
        let two = try Self.options().fit(keeping(2)).report.search
        #expect(two?.folds == 2 && two?.candidates.first?.foldAccuracies.count == 2)
        let one = try Self.options().fit(keeping(1)).report.search
        #expect(one?.folds == 0 && one?.candidates == [] && one?.skipped?.contains("has 1 training hand") == true)
        let allGiven = try Self.options {
            $0.dropout = 0.1
            $0.gamma = 2
            $0.epochs = 3
            $0.balanceClasses = false
        }.fit(hands).report
        #expect(allGiven.search?.skipped == "every searched option was given" && allGiven.epochs.count == 3)
        // 5 hands a label, no variants: 20 for the final training, 13 or 14 for each fold's, fewer than a batch of 16:
        // a fold's epoch took no step, and every candidate was scored untrained (at chance) as if it were a result.
        let small = try Self.options { $0.augment = false }.fit(
            GestureTrainer.FoundHands(
                names: hands.names, poses: hands.poses.map { Array($0.prefix(5)) }, labels: hands.labels,
                skipped: hands.skipped, ignored: hands.ignored, warnings: hands.warnings, seconds: hands.seconds)
        ).report
        #expect(small.search?.folds == 0 && small.search?.candidates == [], "\(String(describing: small.search))")
        #expect(small.search?.skipped?.contains("fewer than the batch size 16") == true)
        for folds in [1, 11] {
            #expect { try Self.options { $0.folds = folds } } throws: { "\($0)".contains("folds") }
        }
    }
}
