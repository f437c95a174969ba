import Foundation
import VisionTasks

/// Chooses the head's settings by stratified k-fold cross-validation on the training hands, embedded once:
/// each label's hands are dealt to the folds in a seeded order (a hand's augmented variants go with it), and
/// candidates are trained on all folds but one and scored on the held-out hands (their plain embeddings).
/// Successive halving keeps the cost low: every recipe trains a few epochs, a third of them go on to the next
/// epoch count, and so on; a recipe's score at each epoch count it reaches past the first is a candidate. The best pooled
/// held-out accuracy wins, a tie going to the simpler candidate (`isSimpler`). Each recipe and fold trains
/// alone, from a stream seeded by the seed and the fold, so the result does not depend on the thread count.
struct SettingsSearch {
    /// The values tried for each searched option that was not given, simplest first.
    static let hiddenWidths: [[Int]] = [[], [64]]
    static let batchSizes = [16, 2]
    static let dropouts: [Float] = [0.05, 0.3]
    static let gammas: [Float] = [2, 0]
    static let balanceClasses = [false, true]
    /// The epoch counts at which surviving recipes are scored: the first screens, the others are candidates
    /// when epochs is not given.
    static let epochRungs = [1, 3, 10]
    /// One recipe in `keepOneIn` goes on to the next epoch count.
    static let keepOneIn = 3
    /// The most training hands the folds are dealt from: above it, a stratified sample (`sample`), so the search's
    /// time stops growing with the photos (the final training still uses every hand).
    static let maxHands = 500

    /// The most values the search's heads may hold at once (512 MiB of floats): every recipe and fold keeps a head,
    /// its weights and Adam's two moments, and a rung's results stand beside the states they continue. The default
    /// search holds about a fifth of it at most; wide `--layer-widths` would take tens of GB.
    static let maxHeldValues = 1 << 27

    /// The values `recipes` over `folds` folds hold at once, by `maxHeldValues`' count.
    static func heldValues(recipes: [HeadRecipe], folds: Int, inputCount: Int, classCount: Int) -> Int {
        let largest =
            recipes.map {
                ClassifierHead.parameterCount(
                    inputCount: inputCount, hiddenWidths: $0.hiddenWidths, classCount: classCount)
            }.max() ?? 0
        return 6 * largest * recipes.count * folds
    }

    /// One candidate's cross-validated scores.
    struct Scored: Sendable {
        let recipe: HeadRecipe
        /// Held-out hands classified right, and held out, per fold.
        let right: [Int]
        let held: [Int]
        var pooledRight: Int { right.reduce(0, +) }
    }

    /// Every training sample, hand by hand: each hand's plain embedding first, then its variants.
    let samples: [Sample]
    /// Each training hand's samples in `samples`.
    let hands: [Range<Int>]
    let inputCount: Int
    let classCount: Int
    /// The hands (indices into `hands`) each fold holds out.
    let folds: [[Int]]

    /// The fewest samples a fold trains on (the other folds' hands, their variants included): the largest batch a
    /// candidate may take, as an epoch takes whole batches only and a larger one would leave the head untrained.
    var fewestTrainingSamples: Int {
        let all = hands.reduce(0) { $0 + $1.count }
        return folds.map { held in all - held.reduce(0) { $0 + hands[$1].count } }.min() ?? 0
    }

    /// Deals each label's hands to `count` folds in an order drawn from `seed`: label by label, round-robin, each
    /// label starting where the last ended, so the folds' sizes differ by one at most.
    static func folds(labels: [Int], classCount: Int, count: Int, seed: UInt64) -> [[Int]] {
        var random = SeededGenerator(seed: seed ^ 0xF01D_5EED_0000_0000)
        var folds = [[Int]](repeating: [], count: count)
        var next = 0
        for label in 0..<classCount {
            for hand in random.shuffled(labels.indices.filter { labels[$0] == label }) {
                folds[next].append(hand)
                next = (next + 1) % count
            }
        }
        return folds.map { $0.sorted() }
    }

    /// The hands (indices into `labels`, sorted) the search is dealt: all of them up to `limit`, else each label's
    /// share of `limit` (rounded; at least `atLeast`, or all its hands) drawn in an order from `seed`.
    static func sample(labels: [Int], classCount: Int, limit: Int, atLeast: Int, seed: UInt64) -> [Int] {
        guard labels.count > limit else { return Array(labels.indices) }
        var random = SeededGenerator(seed: seed ^ 0x5A3F_1E00_0000_0000)
        var kept: [Int] = []
        for label in 0..<classCount {
            let hands = labels.indices.filter { labels[$0] == label }
            let share = Int((Double(hands.count * limit) / Double(labels.count)).rounded())
            kept += random.shuffled(hands).prefix(max(share, min(atLeast, hands.count)))
        }
        return kept.sorted()
    }

    /// The recipes to try: the given settings fixed (`base`), the others from the lists above; `maxBatch` bounds
    /// the batch sizes tried (the final training's sample count); with `balanced` labels (the largest under 1.5
    /// times the smallest) balancing changes little and is not tried.
    static func recipes(base: HeadRecipe, given: Set<String>, maxBatch: Int, balanced: Bool) -> [HeadRecipe] {
        typealias Declared = GestureTrainingOptions.Declared
        func values<T>(_ option: DeclaredOption<GestureTrainingOptions, T>, _ tried: [T], _ fixed: T) -> [T] {
            given.contains(option.option.name) ? [fixed] : tried
        }
        let batches = values(Declared.batchSize, batchSizes.filter { $0 <= maxBatch }, base.batchSize)
        var recipes: [HeadRecipe] = []
        for widths in values(Declared.layerWidths, hiddenWidths.map(LayerWidths.init), LayerWidths(base.hiddenWidths)) {
            for batch in batches.isEmpty ? [base.batchSize] : batches {
                for dropout in values(Declared.dropout, dropouts, base.dropout) {
                    for gamma in values(Declared.gamma, gammas, base.gamma) {
                        for balance in values(
                            Declared.balanceClasses, balanced ? [false] : balanceClasses, base.balanceClasses)
                        {
                            var recipe = base
                            recipe.hiddenWidths = widths.widths
                            recipe.batchSize = batch
                            recipe.dropout = dropout
                            recipe.gamma = gamma
                            recipe.balanceClasses = balance
                            recipes.append(recipe)
                        }
                    }
                }
            }
        }
        return recipes
    }

    /// The epoch counts the recipes are scored at: the rungs below `epochs` and `epochs` itself when it was
    /// given (only that one a candidate), else every rung.
    static func rungs(epochs: Int, given: Bool) -> [Int] {
        given ? epochRungs.filter { $0 < epochs } + [epochs] : epochRungs
    }

    /// Whether `a` is simpler than `b`: fewer hidden units, then fewer settings away from the declared
    /// defaults (batch size, epochs, dropout, gamma, balancing). (Fewer epochs is not simpler: on a few dozen
    /// photos a fold's accuracy ties easily, and short trainings generalised worse, docs/TRAINING.md.)
    static func isSimpler(_ a: HeadRecipe, than b: HeadRecipe) -> Bool {
        typealias Declared = GestureTrainingOptions.Declared
        func key(_ r: HeadRecipe) -> [Int] {
            let changed = [
                r.batchSize != Declared.batchSize.defaultValue, r.epochs != Declared.epochs.defaultValue,
                r.dropout != Declared.dropout.defaultValue, r.gamma != Declared.gamma.defaultValue,
                r.balanceClasses != Declared.balanceClasses.defaultValue,
            ]
            return [r.hiddenWidths.reduce(0, +), changed.filter { $0 }.count]
        }
        return key(a).lexicographicallyPrecedes(key(b))
    }

    /// Whether `a` ranks above `b`: more held-out hands right, or as many and simpler.
    static func ranks(_ a: Scored, above b: Scored) -> Bool {
        a.pooledRight != b.pooledRight ? a.pooledRight > b.pooledRight : isSimpler(a.recipe, than: b.recipe)
    }

    /// Scores `recipes` by successive halving over `rungs` (epoch counts; those in `candidateEpochs` are
    /// candidates), `threads` recipe-folds at a time; returns every candidate scored, in the order scored.
    /// `progress(done, total)` counts recipe-folds trained.
    func run(
        recipes: [HeadRecipe], rungs: [Int], candidateEpochs: Set<Int>, seed: UInt64, threads: Int,
        cancelled: CancellationFlag, progress: (Int, Int) -> Void
    ) throws -> [Scored] {
        let memberLists = folds.map { held -> [Int] in
            let out = Set(held)
            return hands.indices.filter { !out.contains($0) }.flatMap { Array(hands[$0]) }
        }
        var states: [[HeadTraining]] = recipes.map { recipe in
            folds.indices.map { fold in
                HeadTraining(
                    recipe: recipe, inputCount: inputCount, classCount: classCount, samples: samples,
                    members: memberLists[fold], random: SeededGenerator(seed: seed &+ 0xC0FF_EE00 &* UInt64(fold + 1)))
            }
        }
        var alive = Array(recipes.indices)
        var scored: [Scored] = []
        var done = 0
        let total = rungs.indices.reduce(0) { sum, rung in
            sum + Self.survivors(recipes.count, after: rung) * folds.count
        }
        for (rungIndex, budget) in rungs.enumerated() {
            let items = alive.flatMap { recipe in folds.indices.map { (recipe, $0) } }
            let current = states
            let results = try Parallel.map(count: items.count, threads: threads, cancelled: cancelled) {
                _, item -> (HeadTraining, Int) in
                let (recipe, fold) = items[item]
                var state = current[recipe][fold]
                while state.epochsRun < budget {
                    guard try state.runEpoch(samples, members: memberLists[fold], cancelled: cancelled).isFinite
                    else { return (state, 0) }
                }
                let right = folds[fold].filter {
                    state.head.predictedClass(samples[hands[$0].lowerBound].embedding)
                        == samples[hands[$0].lowerBound].label
                }.count
                return (state, right)
            }
            done += items.count
            progress(done, max(done, total))
            var rung: [Scored] = []
            for (index, (recipe, fold)) in items.enumerated() where fold == 0 {
                var right: [Int] = []
                for f in folds.indices {
                    states[recipe][f] = results[index + f].0
                    right.append(results[index + f].1)
                }
                var candidate = recipes[recipe]
                candidate.epochs = budget
                rung.append(Scored(recipe: candidate, right: right, held: folds.map(\.count)))
            }
            if candidateEpochs.contains(budget) { scored += rung }
            let order = alive.indices.sorted { Self.ranks(rung[$0], above: rung[$1]) }
            let keep = Self.survivors(recipes.count, after: rungIndex + 1)
            alive = order.prefix(keep).map { alive[$0] }.sorted()
            for recipe in recipes.indices where !alive.contains(recipe) { states[recipe] = [] }
        }
        return scored
    }

    /// Recipes left after `rung` rounds of keeping one in `keepOneIn` (at least one).
    static func survivors(_ count: Int, after rung: Int) -> Int {
        var left = count
        for _ in 0..<rung { left = max(1, (left + keepOneIn - 1) / keepOneIn) }
        return left
    }

    /// The best of `scored`: most held-out hands right, then the simplest.
    static func best(_ scored: [Scored]) -> Int? {
        scored.indices.min { ranks(scored[$0], above: scored[$1]) }
    }
}

/// Runs `body` for each index in 0..<count on up to `threads` threads at once and returns the results in index
/// order; `body` gets its worker's number (0..<threads) too. The first error thrown stops the others.
enum Parallel {
    static func map<T>(
        count: Int, threads: Int, cancelled: CancellationFlag, _ body: @escaping (Int, Int) throws -> T
    ) throws -> [T] {
        let workers = max(1, min(threads, count))
        let results = ResultSlots<T>(count: count)
        let next = Counter()
        let work = UncheckedBody(body)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while !cancelled.isCancelled, !results.failed, let index = next.take(below: count) {
                do {
                    results.set(index, try work.body(worker, index))
                } catch {
                    results.fail(error)
                }
            }
        }
        try cancelled.check()
        return try results.values()
    }
}

/// A closure handed to `concurrentPerform`'s workers, which only read what it captures.
private final class UncheckedBody<T>: @unchecked Sendable {
    let body: (Int, Int) throws -> T
    init(_ body: @escaping (Int, Int) throws -> T) { self.body = body }
}
