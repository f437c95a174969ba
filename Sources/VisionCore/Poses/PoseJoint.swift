import Foundation

/// A joint whose angle the Pose Landmarker gives (`outputJointAngles`): the 3-D angle, in degrees,
/// at the middle one of three world landmarks (BlazePose topology), 180 for a straight limb.
/// Left and right are the person's own, as in MediaPipe's landmark names.
public enum PoseJoint: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable {
    /// Shoulder (11) → elbow (13) → wrist (15).
    case leftElbow
    /// Shoulder (12) → elbow (14) → wrist (16).
    case rightElbow
    /// Hip (23) → shoulder (11) → elbow (13): the arm's angle from the trunk.
    case leftShoulder
    /// Hip (24) → shoulder (12) → elbow (14).
    case rightShoulder
    /// Shoulder (11) → hip (23) → knee (25): the thigh's angle from the trunk.
    case leftHip
    /// Shoulder (12) → hip (24) → knee (26).
    case rightHip
    /// Hip (23) → knee (25) → ankle (27).
    case leftKnee
    /// Hip (24) → knee (26) → ankle (28).
    case rightKnee
    /// Knee (25) → ankle (27) → foot index (31).
    case leftAnkle
    /// Knee (26) → ankle (28) → foot index (32).
    case rightAnkle
    /// Elbow (13) → wrist (15) → index knuckle (19).
    case leftWrist
    /// Elbow (14) → wrist (16) → index knuckle (20).
    case rightWrist

    /// The three landmarks: the angle is at the middle one.
    public var landmarks: (Int, Int, Int) {
        switch self {
        case .leftElbow: return (11, 13, 15)
        case .rightElbow: return (12, 14, 16)
        case .leftShoulder: return (23, 11, 13)
        case .rightShoulder: return (24, 12, 14)
        case .leftHip: return (11, 23, 25)
        case .rightHip: return (12, 24, 26)
        case .leftKnee: return (23, 25, 27)
        case .rightKnee: return (24, 26, 28)
        case .leftAnkle: return (25, 27, 31)
        case .rightAnkle: return (26, 28, 32)
        case .leftWrist: return (13, 15, 19)
        case .rightWrist: return (14, 16, 20)
        }
    }

    /// The angle at `b` between the segments to `a` and to `c`, in degrees in [0, 180] (computed in
    /// double precision as atan2 of the cross product's length and the dot product); nil when a
    /// segment has no length or a coordinate is not finite.
    public static func angle(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) -> Float? {
        let u = SIMD3<Double>(a - b), v = SIMD3<Double>(c - b)
        let cross = SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        let sine = (cross * cross).sum().squareRoot(), cosine = (u * v).sum()
        guard (u * u).sum() > 0, (v * v).sum() > 0, sine.isFinite, cosine.isFinite else { return nil }
        return Float(atan2(sine, cosine) * 180 / Double.pi)
    }

    /// Every joint's angle from a person's 33 world landmarks (any joint whose angle is undefined is
    /// left out); empty when there are fewer landmarks.
    public static func angles(_ worldLandmarks: [SIMD3<Float>]) -> [PoseJoint: Float] {
        var result: [PoseJoint: Float] = [:]
        guard worldLandmarks.count >= PoseLandmarksModel.landmarkCount else { return result }
        for joint in allCases {
            let (a, b, c) = joint.landmarks
            guard max(a, b, c) < worldLandmarks.count,
                let degrees = angle(worldLandmarks[a], worldLandmarks[b], worldLandmarks[c])
            else { continue }
            result[joint] = degrees
        }
        return result
    }
}
