import Foundation

/// One entry of a classification: the class index, its score and its label.
public struct Classification: Sendable, Equatable {
    /// The class index in the model's output.
    public var index: Int
    /// The class score.
    public var score: Float
    /// The class name ("" when the model has no labels).
    public var label: String
    /// The display name ("" when there is none).
    public var displayName: String

    /// Creates a classification entry.
    public init(index: Int, score: Float, label: String, displayName: String = "") {
        self.index = index
        self.score = score
        self.label = label
        self.displayName = displayName
    }
}
