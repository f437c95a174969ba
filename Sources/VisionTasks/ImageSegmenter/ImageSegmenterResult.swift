/// What an image segmenter found in one image or frame, as MediaPipe for iOS's `ImageSegmenterResult`.
public struct ImageSegmenterResult: Codable, Sendable, Equatable {
    /// One float mask per label of the model, the upright image's size, each pixel the probability of
    /// that label (nil unless `shouldOutputConfidenceMasks`).
    public let confidenceMasks: [Mask]?
    /// A UInt8 mask of the upright image's size, each pixel the index of its most likely label; with a
    /// one-label model (the selfie segmenters), 0 where the person's probability exceeds 0.5 and 255
    /// elsewhere (nil unless `shouldOutputCategoryMask`).
    public let categoryMask: Mask?
    /// The model's quality score per label (1 for each when the model has no quality output, as MediaPipe).
    public let qualityScores: [Float]
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result.
    public init(confidenceMasks: [Mask]?, categoryMask: Mask?, qualityScores: [Float], timestampInMilliseconds: Int) {
        self.confidenceMasks = confidenceMasks
        self.categoryMask = categoryMask
        self.qualityScores = qualityScores
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
