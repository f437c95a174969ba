// What a single-shot detector model is, as MediaPipe's detector graphs configure one: everything
// the generic SSD steps need besides the model file, so a task picks a detector by description.
// The descriptions themselves (face short and full range, palm) are in Faces/ and Hands/.

/// A single-shot detector model as MediaPipe's graph configures it: its input size (the anchors'),
/// anchors, how its raw outputs decode and how overlapping detections merge.
public struct SSDDetectorDescription: Sendable, Equatable {
    /// How errors name the model ("a face detector (BlazeFace short range)").
    public var what: String
    /// The anchors; their input size is the model's input (letterboxed with zero borders).
    public var anchors: SSDAnchorOptions
    /// How the box and score outputs decode, with the task's minimum score.
    public var decoding: SSDDecodingOptions
    /// IoU above which weighted non-max suppression merges two detections.
    public var minSuppressionThreshold: Float

    /// A four-layer BlazeFace-family detector (face short range, palm) on a square `inputSide` input,
    /// as MediaPipe configures them: anchors on strides 8, 16, 16, 16 with scales 0.1484375 to 0.75,
    /// one fixed-size anchor per cell and scale; decoded as `blazeDecoding` says.
    static func fourLayerBlaze(
        what: String, inputSide: Int, numBoxes: Int, numKeypoints: Int,
        minScoreThreshold: Float, minSuppressionThreshold: Float
    ) -> SSDDetectorDescription {
        let anchors = SSDAnchorOptions(
            inputWidth: inputSide, inputHeight: inputSide, minScale: 0.1484375, maxScale: 0.75,
            strides: [8, 16, 16, 16], aspectRatios: [1.0], fixedAnchorSize: true)
        return SSDDetectorDescription(
            what: what, anchors: anchors,
            decoding: blazeDecoding(
                inputSide: inputSide, numBoxes: numBoxes, numKeypoints: numKeypoints,
                minScoreThreshold: minScoreThreshold),
            minSuppressionThreshold: minSuppressionThreshold)
    }

    /// How MediaPipe decodes every BlazeFace-family detector: one class, `numBoxes` boxes of x, y, w, h
    /// then `numKeypoints` keypoints, all divided by the input side; scores through a sigmoid clipped at ±100.
    static func blazeDecoding(inputSide: Int, numBoxes: Int, numKeypoints: Int, minScoreThreshold: Float)
        -> SSDDecodingOptions
    {
        let side = Float(inputSide)
        return SSDDecodingOptions(
            numClasses: 1, numBoxes: numBoxes, numCoords: 4 + 2 * numKeypoints,
            keypointCoordOffset: 4, numKeypoints: numKeypoints,
            xScale: side, yScale: side, wScale: side, hScale: side, boxFormat: .xywh,
            sigmoidScore: true, scoreClippingThreshold: 100, minScoreThreshold: minScoreThreshold)
    }
}
