/// What a face landmarker found in one image or frame.
public struct FaceLandmarkerResult: Codable, Sendable, Equatable {
    /// Each face's 478 landmarks (468 mesh points and 10 iris points), normalized to the upright image.
    public let faceLandmarks: [[NormalizedLandmark]]
    /// Each face's 52 blendshape scores, when `outputFaceBlendshapes` is set (empty otherwise),
    /// computed for the upright face (MediaPipe, given a turned frame's rotation, scores the stored
    /// frame's sideways face instead).
    public let faceBlendshapes: [Classifications]
    /// Each face's 4×4 transformation from the canonical face model to the detected face, in
    /// centimetres, when `outputFacialTransformationMatrixes` is set (empty otherwise), for a
    /// camera seeing the upright image (MediaPipe's, given a turned frame's rotation, sees the stored frame).
    public let facialTransformationMatrixes: [TransformMatrix]
    /// Each face's yaw, pitch and roll in degrees (see `HeadPose` for the convention), when
    /// `outputHeadPoses` is set (nil otherwise, and then absent from the JSON); like the matrices, a
    /// face whose geometry gives no matrix has none.
    public let headPoses: [HeadPose]?
    /// Each face's tracking id, parallel to `faceLandmarks` (video and live stream; nil in image mode,
    /// and then absent from the JSON). See `FaceLandmarker` for how ids are kept and the faces ordered.
    public let trackingIds: [Int]?
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        faceLandmarks: [[NormalizedLandmark]], faceBlendshapes: [Classifications],
        facialTransformationMatrixes: [TransformMatrix], headPoses: [HeadPose]? = nil,
        trackingIds: [Int]? = nil, timestampInMilliseconds: Int
    ) {
        self.headPoses = headPoses
        self.faceLandmarks = faceLandmarks
        self.faceBlendshapes = faceBlendshapes
        self.facialTransformationMatrixes = facialTransformationMatrixes
        self.trackingIds = trackingIds
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
