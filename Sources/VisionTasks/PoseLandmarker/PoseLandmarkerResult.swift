import Foundation
import VisionCore

// The joints `jointAngles` names, part of `import VisionTasks`.
@_exported import enum VisionCore.PoseJoint

/// What a pose landmarker found in one image or frame: per person, 33 landmarks in two spaces, and
/// the segmentation masks and joint angles the options ask for.
public struct PoseLandmarkerResult: Codable, Sendable, Equatable {
    /// Per person, 33 landmarks normalized to the upright image (z: depth relative to the hips, at the
    /// scale of x), each with its visibility and presence.
    public let landmarks: [[NormalizedLandmark]]
    /// Per person, the same 33 landmarks in metres, origin between the hips, with the same visibility
    /// and presence.
    public let worldLandmarks: [[Landmark]]
    /// Per person, a mask the size of the upright image giving the probability that each pixel is
    /// that person, when `outputSegmentationMasks` is set (nil otherwise, and then absent from the JSON).
    public let segmentationMasks: [Mask]?
    /// Per person, the angle of each joint in degrees (`PoseJoint`), when `outputJointAngles` is set
    /// (nil otherwise, and then absent from the JSON).
    public let jointAngles: [[PoseJoint: Float]]?
    /// Per person, its tracking id, parallel to `landmarks` (video and live stream; nil in image mode,
    /// and then absent from the JSON). See `PoseLandmarker` for how ids are kept and people ordered.
    public let trackingIds: [Int]?
    /// The frame's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]], segmentationMasks: [Mask]? = nil,
        jointAngles: [[PoseJoint: Float]]? = nil, trackingIds: [Int]? = nil, timestampInMilliseconds: Int
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.segmentationMasks = segmentationMasks
        self.jointAngles = jointAngles
        self.trackingIds = trackingIds
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
