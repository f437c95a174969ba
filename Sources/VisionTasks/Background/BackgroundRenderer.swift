import VisionCore

/// How `BackgroundRenderer` treats the mask, declared once: the CLI's defaults and ranges come from here.
public struct BackgroundSettings: Sendable {
    /// The temporal smoothing ratio (MediaPipe's `combine_with_previous_ratio`; its selfie graphs use 0.7). With
    /// the motion gating, 1: on a still person the mask's flicker falls to 0.49 of the model's and on a moving
    /// one each mask keeps an IoU of at least 0.977 with the model's (MediaPipe's 0.7 alone: 0.52 and 0.77).
    public static let defaultSmoothing: Float = 1
    /// The luminance change (0...255 levels) at which a pixel counts as moving and is not smoothed; with it the
    /// smoothing also lets go as far as the model departs from the held mask (0: MediaPipe's rule alone).
    public static let defaultSmoothingMotion: Float = 2.5
    /// The valid range of `smoothingMotion`.
    public static let smoothingMotionRange: ClosedRange<Float> = 0...255
    /// Guided edges are on unless turned off.
    public static let defaultGuidedEdges = true
    /// The guided filter's window radius, in working pixels.
    public static let guidedRadius = 2
    /// The guided filter's ridge (luminance in 0...1).
    public static let guidedEpsilon: Float = 1e-3
    /// The mean luminance change (0...255 levels) at or below which a frame reuses the last mask.
    public static let defaultReuseThreshold: Float = 1.0
    /// The most frames in a row that may reuse one mask.
    public static let defaultMaxReuse = 2
    /// The valid range of `reuseThreshold`.
    public static let reuseThresholdRange: ClosedRange<Float> = 0...255
    /// The valid range of `maxReuse`.
    public static let maxReuseRange: ClosedRange<Int> = 0...30
    /// The valid range of the blur's standard deviation, in frame pixels.
    public static let blurRange: ClosedRange<Float> = 0.5...200
    /// The working frame's longer side, in pixels: masks, guided filter and blur are computed at this size.
    public static let workingSize = 320

    /// What replaces the background.
    public var effect: BackgroundEffect
    /// Temporal smoothing ratio, 0...1 (0: off).
    public var smoothing: Float = defaultSmoothing
    /// Motion gating of the smoothing in luminance levels, `smoothingMotionRange` (0: off).
    public var smoothingMotion: Float = defaultSmoothingMotion
    /// Bring the mask to the frame's size with the guided filter (else bilinearly).
    public var guidedEdges: Bool = defaultGuidedEdges
    /// Reuse threshold in luminance levels, `reuseThresholdRange` (0: every frame is segmented).
    public var reuseThreshold: Float = defaultReuseThreshold
    /// Most frames in a row reusing one mask, `maxReuseRange` (0: every frame is segmented).
    public var maxReuse: Int = defaultMaxReuse
    /// Measure each frame against a fresh mask (`BackgroundFrameReport.fresh`): segments reused frames too.
    public var measure = false

    /// Settings for `effect` with the declared defaults.
    public init(effect: BackgroundEffect) { self.effect = effect }
}

/// What `BackgroundRenderer.render` did with one frame.
public struct BackgroundFrameReport: Sendable {
    /// Whether the frame reused the previous frame's mask instead of being segmented.
    public let reused: Bool
    /// The mask used, at the working size, after smoothing.
    public let mask: FloatPlane
    /// The model's own mask for this frame at the working size (with `measure`, or when segmented; nil otherwise).
    public let fresh: FloatPlane?
    /// The mask used before smoothing (the fresh mask, or the reused one).
    public let raw: FloatPlane
}

/// The person kept and the background changed, frame after frame of one stream: each frame shrunk to the
/// working size and segmented by the Image Segmenter (video mode; or its mask reused when the frame barely
/// changed), the mask smoothed over time, its edges fitted to the frame by the guided filter, and the
/// background blended in at the frame's size (`BackgroundCompositor`). Not thread-safe: one stream, one caller.
public final class BackgroundRenderer {
    /// Frame width of the stream.
    public let width: Int
    /// Frame height of the stream.
    public let height: Int
    private let segmenter: ImageSegmenter
    private let compositor: BackgroundCompositor
    private let settings: BackgroundSettings
    private let filter: GuidedMaskFilter?
    private var smoothing: MaskTemporalSmoothing
    private var reuse: MaskReusePolicy
    private var lastMask: FloatPlane?

    /// A renderer for frames of `width`×`height` with `segmenter`, made by `makeSegmenter(_:)`.
    /// - Throws: `VisionTasksError.invalidOption` for settings out of range; the compositor's errors (a
    ///   size out of range, a replacement picture that cannot be turned upright).
    public init(segmenter: ImageSegmenter, width: Int, height: Int, settings: BackgroundSettings) throws {
        guard BackgroundSettings.smoothingMotionRange.contains(settings.smoothingMotion),
            let smoothing = MaskTemporalSmoothing(
                ratio: settings.smoothing,
                motionScale: settings.smoothingMotion > 0 ? settings.smoothingMotion / 255 : nil)
        else {
            throw VisionTasksError.invalidOption(
                name: "smoothing",
                reason:
                    "the ratio must be in 0...1 and the motion in \(BackgroundSettings.smoothingMotionRange), got \(settings.smoothing) and \(settings.smoothingMotion)"
            )
        }
        guard BackgroundSettings.reuseThresholdRange.contains(settings.reuseThreshold),
            BackgroundSettings.maxReuseRange.contains(settings.maxReuse),
            let reuse = MaskReusePolicy(threshold: settings.reuseThreshold / 255, maxConsecutive: settings.maxReuse)
        else {
            throw VisionTasksError.invalidOption(
                name: "reuse",
                reason:
                    "threshold must be in \(BackgroundSettings.reuseThresholdRange) and the run in \(BackgroundSettings.maxReuseRange), got \(settings.reuseThreshold) and \(settings.maxReuse)"
            )
        }
        if case .blur(let sigma) = settings.effect, !BackgroundSettings.blurRange.contains(sigma) {
            throw VisionTasksError.invalidOption(
                name: "blur", reason: "the standard deviation must be in \(BackgroundSettings.blurRange), got \(sigma)")
        }
        (self.segmenter, self.width, self.height, self.settings) = (segmenter, width, height, settings)
        (self.smoothing, self.reuse) = (smoothing, reuse)
        compositor = try BackgroundCompositor(
            width: width, height: height, effect: settings.effect, workingSize: BackgroundSettings.workingSize)
        filter =
            settings.guidedEdges
            ? GuidedMaskFilter(radius: BackgroundSettings.guidedRadius, epsilon: BackgroundSettings.guidedEpsilon)
            : nil
    }

    /// An Image Segmenter in video mode giving the confidence mask of the person, from `modelPath`.
    /// - Throws: `VisionTasksError.unsupportedModel` when the model is not a segmenter or its output is
    ///   not one mask (the person's); the model's load errors.
    public static func makeSegmenter(modelPath: String, numThreads: Int) throws -> ImageSegmenter {
        let segmenter = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: BaseOptions(modelAssetPath: modelPath, numThreads: numThreads), runningMode: .video))
        // One blank picture tells how many masks the model gives: the background needs exactly one. `reset()`
        // then forgets its timestamp, so the stream may start at 0.
        let blank = [UInt8](repeating: 0, count: 16 * 16 * 3)
        let masks =
            try blank.withUnsafeBytes {
                try segmenter.segment(
                    videoFrame: MPImage(pixels: $0, width: 16, height: 16, bytesPerRow: 48, format: .rgb8),
                    timestampInMilliseconds: 0)
            }.confidenceMasks?.count ?? 0
        guard masks == 1 else {
            throw VisionTasksError.unsupportedModel(
                "\(modelPath): the background needs a model whose output is one mask, the person's (selfie_segmenter.tflite); it gives \(masks)"
            )
        }
        try segmenter.reset()
        return segmenter
    }

    /// Renders one frame (upright RGB of the stream's size, timestamps increasing) into `out`, packed RGB.
    /// - Throws: `VisionTasksError.invalidVideo` for a frame of another size than the stream's; the
    ///   segmenter's errors.
    public func render(_ frame: MPImage, timestampInMilliseconds: Int, into out: inout [UInt8]) throws
        -> BackgroundFrameReport
    {
        let small = try compositor.shrink(frame)
        // The policy reuses only after a frame was segmented (it keeps that frame's luminance).
        let reused = reuse.reuse(luma: small.luma) && lastMask != nil
        var fresh: FloatPlane?
        if !reused || settings.measure {
            let picture = try small.rgb.withUnsafeBytes {
                try MPImage(
                    pixels: $0, width: compositor.smallWidth, height: compositor.smallHeight,
                    bytesPerRow: compositor.smallWidth * 3, format: .rgb8)
            }
            let result = try segmenter.segment(videoFrame: picture, timestampInMilliseconds: timestampInMilliseconds)
            guard let mask = result.confidenceMasks?.first,
                let plane = FloatPlane(width: mask.width, height: mask.height, values: mask.float32Data)
            else {
                throw VisionTasksError.processingFailed("the segmenter gave no confidence mask")
            }
            fresh = plane
        }
        guard let raw = reused ? lastMask : fresh else {
            throw VisionTasksError.processingFailed("no mask for the frame at \(timestampInMilliseconds) ms")
        }
        lastMask = raw
        let mask = smoothing.smooth(raw, luma: small.luma)
        let (a, b): (FloatPlane, FloatPlane)
        if let filter {
            (a, b) = filter.coefficients(guide: small.luma, mask: mask)
        } else {
            (a, b) = (FloatPlane(sizeOf: mask, repeating: 0), mask)
        }
        try compositor.compose(frame, small: small, a: a, b: b, into: &out)
        return BackgroundFrameReport(reused: reused, mask: mask, fresh: fresh, raw: raw)
    }
}
