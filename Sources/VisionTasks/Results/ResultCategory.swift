/// One classification outcome: the class index, its score, and its names when the model has them
/// (MediaPipe's `Category`, named `ResultCategory` in the iOS API).
public struct ResultCategory: Codable, Sendable, Equatable {
    /// The index of the class in the model's output (-1 for gesture categories, as MediaPipe gives them).
    public let index: Int
    /// The probability score of this class.
    public let score: Float
    /// The class label from the model's metadata, if any.
    public let categoryName: String?
    /// The localized display name, if the model has one for the requested locale.
    public let displayName: String?

    /// Creates a category.
    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }

    private enum CodingKeys: String, CodingKey { case index, score, categoryName, displayName }

    /// Encodes every field, writing `null` for absent names as MediaPipe's JSON does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .index)
        try c.encode(score, forKey: .score)
        try c.encode(categoryName, forKey: .categoryName)
        try c.encode(displayName, forKey: .displayName)
    }
}

/// The categories one classification head produced: best first for classifiers, in the model's
/// output order for face blendshapes (as MediaPipe gives them).
public struct Classifications: Codable, Sendable, Equatable {
    /// The index of the classifier head these categories come from.
    public let headIndex: Int
    /// The name of the head, if the model has one.
    public let headName: String?
    /// The categories: sorted by descending score for a classifier; for face blendshapes all 52 in
    /// index order (`categories[i].index == i`), as MediaPipe gives them.
    public let categories: [ResultCategory]

    /// Creates the classifications of one head.
    public init(headIndex: Int, headName: String?, categories: [ResultCategory]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }

    private enum CodingKeys: String, CodingKey { case headIndex, headName, categories }

    /// Encodes every field, writing `null` for an absent head name.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(headIndex, forKey: .headIndex)
        try c.encode(headName, forKey: .headName)
        try c.encode(categories, forKey: .categories)
    }
}
