/// Receives the results of an image segmenter in live-stream mode, as in MediaPipe for iOS.
/// Calls arrive on one serial queue, in timestamp order; frames dropped under load get no call,
/// nor do results dropped while four newer ones wait for a slow delegate (`droppedResultCount`).
public protocol ImageSegmenterLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame sent at `timestampInMilliseconds`, or with the error it
    /// raised (then `result` is nil).
    func imageSegmenter(
        _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Options of an `ImageSegmenter`, with the names of MediaPipe for iOS. The segmenter copies them when
/// it is created; changing them afterwards changes nothing. The model (`baseOptions`) is
/// `selfie_segmenter.tflite` (or `selfie_segmentation_landscape.tflite`, the legacy solution's).
public final class ImageSegmenterOptions: VisionTaskOptions, DescribedOptions {
    /// Output one confidence mask per label (default true: `Declared.shouldOutputConfidenceMasks`).
    public var shouldOutputConfidenceMasks: Bool = Declared.shouldOutputConfidenceMasks.defaultValue
    /// Output the category mask (default false: `Declared.shouldOutputCategoryMask`).
    public var shouldOutputCategoryMask: Bool = Declared.shouldOutputCategoryMask.defaultValue
    /// The locale of the label display names (unset: "en"). As in MediaPipe, the result carries no
    /// names and `ImageSegmenter.labels` are the class names, so it changes nothing visible.
    public var displayNamesLocale: String? = Declared.displayNamesLocale.defaultValue
    /// Receives the results in live-stream mode (required there, forbidden otherwise). Held weakly.
    public weak var imageSegmenterLiveStreamDelegate: (any ImageSegmenterLiveStreamDelegate)?
}
