import Foundation

/// The settings one head is trained with: the ones the search chooses among and the learning-rate schedule.
struct HeadRecipe: Sendable, Equatable {
    var hiddenWidths: [Int]
    var dropout: Float
    var batchSize: Int
    var epochs: Int
    var gamma: Float
    var balanceClasses: Bool
    var learningRate: Float
    var lrDecay: Float

    /// The learning rate of epoch `epoch` (0-based).
    func rate(_ epoch: Int) -> Float { learningRate * pow(lrDecay, Float(epoch)) }
}

/// One head in training, resumable an epoch at a time: its weights, Adam's moments and its random stream. The
/// final training runs it to the end; the search runs each candidate on each fold a few epochs at a time.
struct HeadTraining: Sendable {
    let recipe: HeadRecipe
    private(set) var head: ClassifierHead
    private var adam: Adam
    private var random: SeededGenerator
    private let loss: FocalLoss
    private let classWeights: [Float]
    /// Epochs run so far.
    private(set) var epochsRun = 0

    /// A head initialised from `random`, to be trained on `samples[members]` with `recipe` (the class weights,
    /// with balancing, from those samples' labels).
    init(
        recipe: HeadRecipe, inputCount: Int, classCount: Int, samples: [Sample], members: [Int],
        random: SeededGenerator
    ) {
        var random = random
        self.recipe = recipe
        head = ClassifierHead(
            inputCount: inputCount, hiddenWidths: recipe.hiddenWidths, classCount: classCount, random: &random)
        loss = FocalLoss(gamma: recipe.gamma)
        var counts = [Int](repeating: 0, count: classCount)
        for member in members { counts[samples[member].label] += 1 }
        classWeights = (0..<classCount).map { c -> Float in
            recipe.balanceClasses && counts[c] > 0 ? Float(members.count) / Float(classCount * counts[c]) : 1
        }
        adam = Adam(count: head.parameters.count)
        self.random = random
    }

    /// The unweighted focal loss of the recipe.
    var focalLoss: FocalLoss { loss }

    /// One epoch over `samples[members]` in an order drawn from the head's stream, `batchSize` at a time (a last
    /// partial batch is left out, as before); returns the mean loss of its steps (not finite when it diverged).
    mutating func runEpoch(_ samples: [Sample], members: [Int], cancelled: CancellationFlag) throws -> Float {
        let rate = recipe.rate(epochsRun)
        let order = random.shuffled(members)
        var lossSum: Float = 0, steps = 0
        for start in stride(from: 0, through: order.count - recipe.batchSize, by: recipe.batchSize) {
            try cancelled.check()
            let batch = order[start..<(start + recipe.batchSize)].map { samples[$0] }
            let (gradient, batchLoss) = head.gradient(
                inputs: batch.map(\.embedding), classes: batch.map(\.label),
                weights: batch.map { classWeights[$0.label] }, loss: loss, dropout: recipe.dropout, random: &random)
            adam.update(&head.parameters, gradient: gradient, learningRate: rate)
            lossSum += batchLoss
            steps += 1
        }
        epochsRun += 1
        return lossSum / Float(max(steps, 1))
    }
}
