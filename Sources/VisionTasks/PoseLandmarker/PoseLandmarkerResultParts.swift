import VisionCore

/// The landmarks of a body (MediaPipe's BlazePose topology).
private let posePoints = 33

extension PoseLandmarkerResult: DescribedResult {
    /// Tinted segmentation masks (when output), then body skeletons labelled with their tracking id
    /// (video and live stream).
    public var overlayParts: [OverlayPart] {
        [.masks(segmentationMasks ?? []), .poses(landmarks, trackingIds: trackingIds)]
    }

    /// The joint angles by name (degrees, with --output-joint-angles), then the 33 landmarks x0, y0,
    /// z0, … (normalized), their visibility0 … and presence0 …, and world_x0, … (metres).
    package static var csvColumns: [String] {
        PoseJoint.allCases.map(\.rawValue) + CSVCells.pointColumns("", count: posePoints)
            + (0..<posePoints).map { "visibility\($0)" } + (0..<posePoints).map { "presence\($0)" }
            + CSVCells.pointColumns("world_", count: posePoints)
    }

    /// One row per person.
    package var csvObjects: [(id: Int?, cells: [String])] {
        let count = landmarks.count
        return landmarks.enumerated().map { i, pose in
            let angles = CSVCells.entry(jointAngles, i, objects: count)
            let scores = { (value: (NormalizedLandmark) -> Float?) in
                (0..<posePoints).map { $0 < pose.count ? CSVCells.number(value(pose[$0])) : "" }
            }
            return (
                CSVCells.ids(trackingIds, i, count: count),
                PoseJoint.allCases.map { CSVCells.number(angles?[$0]) }
                    + CSVCells.points(pose.map { ($0.x, $0.y, $0.z) }, count: posePoints)
                    + scores(\.visibility) + scores(\.presence)
                    + CSVCells.points(
                        (CSVCells.entry(worldLandmarks, i, objects: count) ?? []).map { ($0.x, $0.y, $0.z) },
                        count: posePoints)
            )
        }
    }
}
