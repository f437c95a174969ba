import TFLite
import VisionCore

/// Segments images as MediaPipe's Image Segmenter does (the selfie segmenter: the person against the
/// background), with the API of MediaPipe for iOS: `segment(image:)`,
/// `segment(videoFrame:timestampInMilliseconds:)` and `segmentAsync(image:timestampInMilliseconds:)`,
/// each allowed only in its running mode. Masks are the upright image's size (`MPImage.width` ×
/// `height`). Every frame is segmented afresh: video and live stream give each frame what image mode gives.
/// A frame whose confidence masks would hold more than `Mask.maxFrameValues` (labels × pixels, 1 GiB) is refused
/// with `invalidArgument`.
public final class ImageSegmenter: VisionTask, CoreBackedTask {
    /// The machinery running the task's frames.
    package let taskCore: TaskCore<ImageSegmenter, ImageSegmenterResult>
    /// The model's labels, in the order of the confidence masks and the category mask's values (empty
    /// for a model without label metadata; both selfie models carry the label `selfie`).
    public let labels: [String]

    /// Creates a segmenter. Throws `invalidOption` when neither mask is asked for, for a live-stream
    /// mode without delegate or a delegate in another mode; `unsupportedModel` for a model that is not
    /// an image segmenter (one 1×H×W×3 input, a 1×H×W×C mask output); and the model's load errors.
    public init(options: ImageSegmenterOptions) throws {
        guard options.shouldOutputConfidenceMasks || options.shouldOutputCategoryMask else {
            throw VisionTasksError.invalidOption(
                name: "shouldOutputConfidenceMasks",
                reason: "is false, as is the category mask option: at least one mask must be output")
        }
        let base = options.baseOptions
        let settings = ImageSegmenterGraph.Settings(
            outputConfidenceMasks: options.shouldOutputConfidenceMasks,
            outputCategoryMask: options.shouldOutputCategoryMask)
        var labels: [String] = []
        taskCore = try TaskCore(
            options,
            loadGraph: {
                let model = try ModelBundle.singleModel(
                    try base.loadModelAsset(), name: base.modelAssetName, task: "ImageSegmenter",
                    maxDecompressedBytes: base.maxDecompressedBundleBytes)
                let graph = try ImageSegmenterGraph(
                    model: model, name: base.modelAssetName, numThreads: base.numThreads, settings: settings)
                labels = graph.labels
                return graph
            },
            result: { masks, frame, _ in try Self.result(masks, in: frame) })
        self.labels = labels
        taskCore.attach(self)
    }

    /// What it returns for one frame (`VisionTask`).
    public typealias TaskResult = ImageSegmenterResult
    /// Its running-mode methods are `segment(image:)`, `segmentAsync(image:timestampInMilliseconds:)`, ...
    package static let verb = "segment"

    /// Segments a still image (image mode).
    /// - Parameter image: The image; its `orientation` says how to turn it upright (mirrored ones are refused).
    /// - Returns: Its masks, the upright image's size, with timestamp 0.
    /// - Throws: `VisionTasksError.runningModeMismatch` outside image mode; `.invalidImage` for a mirrored orientation;
    ///   `.invalidArgument` for masks over `Mask.maxFrameValues`.
    public func segment(image: MPImage) throws -> ImageSegmenterResult {
        try processImage(image)
    }

    /// Segments a video frame (video mode; timestamps must strictly increase).
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Returns: Its masks, with its timestamp.
    /// - Throws: As `segment(image:)` does (`runningModeMismatch` outside video mode), and `.invalidTimestamp` when the
    ///   timestamp is not above the last one or outside `FrameContext.timestampRange`.
    public func segment(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> ImageSegmenterResult {
        try processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Sends a live-stream frame and returns at once (live-stream mode; timestamps must strictly
    /// increase). The result goes to the options' delegate; when frames come faster than they are
    /// processed, older waiting frames are dropped (`droppedFrameCount`), and when the delegate is
    /// slower than the frames, older results waiting for it are dropped (`droppedResultCount`).
    /// - Parameters:
    ///   - image: The frame; its `orientation` says how to turn it upright (mirrored ones are refused).
    ///   - timestampInMilliseconds: The frame's time, greater than every earlier frame's since the start or `reset()`.
    /// - Throws: `VisionTasksError.runningModeMismatch` outside live-stream mode; `.invalidTimestamp` as in video mode;
    ///   `.invalidImage` for a mirrored orientation (its timestamp stays free). An error met while processing the
    ///   frame goes to the delegate with its timestamp.
    public func segmentAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try processAsync(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Segments a still image without blocking the caller (image mode): the async variant of
    /// `segment(image:)`. Cancelled before it starts, it throws `CancellationError`.
    public func segment(image: MPImage) async throws -> ImageSegmenterResult {
        try await processImage(image)
    }

    /// Segments a video frame without blocking the caller (video mode; timestamps must strictly
    /// increase in the order of the calls). Cancelled before it starts, it throws `CancellationError`.
    public func segment(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> ImageSegmenterResult {
        try await processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

extension ImageSegmenter {
    /// The segmenter's result for one frame: the graph's masks as `Mask`s of the frame's upright size.
    private static func result(_ frames: [SegmentedFrame], in frame: FrameContext) throws -> ImageSegmenterResult {
        let masks = frames.first
        return ImageSegmenterResult(
            confidenceMasks: try masks?.confidenceMasks?.map {
                try Mask(width: frame.width, height: frame.height, float32Data: $0)
            },
            categoryMask: try masks?.categoryMask.map {
                try Mask(width: frame.width, height: frame.height, uint8Data: $0)
            },
            qualityScores: masks?.qualityScores ?? [],
            timestampInMilliseconds: frame.timestampInMilliseconds)
    }
}

/// How the CLI and the server drive the task (`DescribedTask`): its live-stream delegate and what a
/// result counts (the masks it holds).
extension ImageSegmenter: DescribedTask {
    package static let liveStream = LiveStreamDelegation(
        \ImageSegmenterOptions.imageSegmenterLiveStreamDelegate, handler: { $0 }
    ) {
        $0.imageSegmenter($1, didFinishSegmentation: $2, timestampInMilliseconds: $3, error: $4)
    }
    package static func foundCount(in result: ImageSegmenterResult) -> Int {
        (result.confidenceMasks?.count ?? 0) + (result.categoryMask == nil ? 0 : 1)
    }
}
