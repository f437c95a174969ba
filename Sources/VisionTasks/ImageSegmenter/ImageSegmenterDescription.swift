extension ImageSegmenterOptions {
    /// The Image Segmenter's options, declared once: the initializer's defaults and every front end read them.
    public enum Declared {
        /// `shouldOutputConfidenceMasks`.
        public static let shouldOutputConfidenceMasks = DeclaredOption<ImageSegmenterOptions, Bool>(
            "output-confidence-masks", \.shouldOutputConfidenceMasks, property: "shouldOutputConfidenceMasks",
            label: "Confidence masks", help: "Output one mask of probabilities per label, the image's size.",
            default: true)
        /// `shouldOutputCategoryMask`.
        public static let shouldOutputCategoryMask = DeclaredOption<ImageSegmenterOptions, Bool>(
            "output-category-mask", \.shouldOutputCategoryMask, property: "shouldOutputCategoryMask",
            label: "Category mask",
            help:
                "Output the category mask: each pixel's label index (one-label models: 0 the person, 255 background).",
            default: false)
        /// `displayNamesLocale` (unset: "en").
        public static let displayNamesLocale = DeclaredOption<ImageSegmenterOptions, String?>(
            "display-names-locale", \.displayNamesLocale, label: "Display names locale",
            help: "The locale of the label display names (unset: en); the masks do not depend on it.", default: nil)
    }

    /// The Image Segmenter as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "image-segmenter", title: "Image Segmenter",
        summary: "Segment the person: a confidence mask per label and a category mask, the image's size.",
        modelHelp: "selfie_segmenter.tflite, or selfie_segmentation_landscape.tflite (the legacy solution's).",
        preferredModels: ["selfie_segmenter.tflite", "selfie_segmentation_landscape.tflite"],
        options: [
            Declared.shouldOutputConfidenceMasks.option, Declared.shouldOutputCategoryMask.option,
            Declared.displayNamesLocale.option,
        ],
        outputs: ["confidenceMasks", "categoryMask", "qualityScores"], foundNoun: "masks")
}

extension LiveStreamHandler: ImageSegmenterLiveStreamDelegate where Output == ImageSegmenterResult {
    /// Hands the segmenter's result to the handler.
    public func imageSegmenter(
        _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        deliver(result, timestampInMilliseconds, error)
    }
}
