import Foundation
import VisionTasks

/// A task result as rows of a CSV table (`--format csv`): one per face or hand, under columns the
/// task names after the table's common ones. Numbers are written as the JSON lines write them.
protocol CSVResult {
    /// The task's own columns.
    static var csvColumns: [String] { get }
    /// The result's timestamp (0 in image mode).
    var timestampInMilliseconds: Int { get }
    /// Per face or hand, in the result's order: its tracking id (nil in image mode) and its cells under
    /// `csvColumns` ("" where the result holds no value).
    var csvObjects: [(id: Int?, cells: [String])] { get }
}

/// Column names and cells shared by the results.
enum CSVCells {
    /// A number as the JSON lines write it ("" for NaN or infinity, which JSON cannot hold either).
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F?) -> String {
        value.flatMap { ResultJSON.numberText($0) } ?? ""
    }

    /// `prefix`x0, `prefix`y0, `prefix`z0, … for `count` points.
    static func pointColumns(_ prefix: String, count: Int) -> [String] {
        (0..<count).flatMap { ["\(prefix)x\($0)", "\(prefix)y\($0)", "\(prefix)z\($0)"] }
    }

    /// The points' x, y, z cells, padded with "" to `count` points.
    static func points(_ points: [(x: Float, y: Float, z: Float)], count: Int) -> [String] {
        (0..<count).flatMap { i -> [String] in
            i < points.count ? [number(points[i].x), number(points[i].y), number(points[i].z)] : ["", "", ""]
        }
    }

    /// The i-th entry of a per-object list, when the list has one per object (else nil: the
    /// entries cannot be told apart, as for matrices of a face whose geometry gave none).
    static func entry<T>(_ list: [T]?, _ i: Int, objects: Int) -> T? {
        guard let list, list.count == objects else { return nil }
        return list[i]
    }

    /// Tracking ids for `count` objects (nil in image mode).
    static func ids(_ ids: [Int]?, _ i: Int, count: Int) -> Int? { entry(ids, i, objects: count) }
}

/// The most landmarks a hand has (MediaPipe's hand model).
private let handPoints = 21
/// The most landmarks a face has (MediaPipe's face mesh with irises).
private let facePoints = 478
/// The Face Detector's keypoints per face.
private let faceKeypoints = 6

extension FaceDetectorResult: CSVResult {
    /// score, box (pixels: origin_x, origin_y, width, height), six keypoints kp0_x, kp0_y, … (normalized).
    static var csvColumns: [String] {
        ["score", "box_origin_x", "box_origin_y", "box_width", "box_height"]
            + (0..<faceKeypoints).flatMap { ["kp\($0)_x", "kp\($0)_y"] }
    }

    var csvObjects: [(id: Int?, cells: [String])] {
        detections.enumerated().map { i, d in
            let box = d.boundingBox
            let keypoints = (0..<faceKeypoints).flatMap { k -> [String] in
                guard let p = d.keypoints, k < p.count else { return ["", ""] }
                return [CSVCells.number(Double(p[k].location.x)), CSVCells.number(Double(p[k].location.y))]
            }
            return (
                CSVCells.ids(trackingIds, i, count: detections.count),
                [
                    CSVCells.number(d.categories.first?.score), CSVCells.number(Double(box.origin.x)),
                    CSVCells.number(Double(box.origin.y)), CSVCells.number(Double(box.size.width)),
                    CSVCells.number(Double(box.size.height)),
                ] + keypoints
            )
        }
    }
}

extension FaceLandmarkerResult: CSVResult {
    /// yaw, pitch, roll (with --output-head-poses), the 52 blendshapes by name (with
    /// --output-face-blendshapes), then the 478 landmarks x0, y0, z0, ….
    static var csvColumns: [String] {
        ["yaw", "pitch", "roll"] + FaceBlendshapes.names + CSVCells.pointColumns("", count: facePoints)
    }

    var csvObjects: [(id: Int?, cells: [String])] {
        let count = faceLandmarks.count
        return faceLandmarks.enumerated().map { i, face in
            let pose = CSVCells.entry(headPoses, i, objects: count)
            let scores = CSVCells.entry(faceBlendshapes, i, objects: count)?.categories
            let blendshapes = FaceBlendshapes.names.enumerated().map { k, name in
                scores.flatMap {
                    $0.indices.contains(k) && $0[k].categoryName == name ? CSVCells.number($0[k].score) : nil
                } ?? ""
            }
            return (
                CSVCells.ids(trackingIds, i, count: count),
                [CSVCells.number(pose?.yaw), CSVCells.number(pose?.pitch), CSVCells.number(pose?.roll)]
                    + blendshapes + CSVCells.points(face.map { ($0.x, $0.y, $0.z) }, count: facePoints)
            )
        }
    }
}

/// A hand's cells: handedness and its score, 21 landmarks, 21 world landmarks.
private func handCells(_ handedness: [ResultCategory]?, _ landmarks: [NormalizedLandmark], _ world: [Landmark]?)
    -> [String]
{
    [handedness?.first?.categoryName ?? "", CSVCells.number(handedness?.first?.score)]
        + CSVCells.points(landmarks.map { ($0.x, $0.y, $0.z) }, count: handPoints)
        + CSVCells.points((world ?? []).map { ($0.x, $0.y, $0.z) }, count: handPoints)
}

/// The hand columns: handedness, its score, x0, y0, z0, … (normalized), world_x0, … (metres).
private let handColumns =
    ["handedness", "handedness_score"] + CSVCells.pointColumns("", count: handPoints)
    + CSVCells.pointColumns("world_", count: handPoints)

extension HandLandmarkerResult: CSVResult {
    static var csvColumns: [String] { handColumns }

    var csvObjects: [(id: Int?, cells: [String])] {
        landmarks.enumerated().map { i, hand in
            (
                CSVCells.ids(trackingIds, i, count: landmarks.count),
                handCells(
                    CSVCells.entry(handedness, i, objects: landmarks.count), hand,
                    CSVCells.entry(worldLandmarks, i, objects: landmarks.count))
            )
        }
    }
}

extension GestureRecognizerResult: CSVResult {
    /// gesture and its score (empty when some hand got none: the gestures cannot then be told
    /// apart), then the hand columns.
    static var csvColumns: [String] { ["gesture", "gesture_score"] + handColumns }

    var csvObjects: [(id: Int?, cells: [String])] {
        landmarks.enumerated().map { i, hand in
            let gesture = CSVCells.entry(gestures, i, objects: landmarks.count)?.first
            return (
                CSVCells.ids(trackingIds, i, count: landmarks.count),
                [gesture?.categoryName ?? "", CSVCells.number(gesture?.score)]
                    + handCells(
                        CSVCells.entry(handedness, i, objects: landmarks.count), hand,
                        CSVCells.entry(worldLandmarks, i, objects: landmarks.count))
            )
        }
    }
}

/// The landmarks of a body (MediaPipe's BlazePose topology).
private let posePoints = 33

extension PoseLandmarkerResult: CSVResult {
    /// The joint angles by name (degrees, with --output-joint-angles), then the 33 landmarks x0, y0,
    /// z0, … (normalized), their visibility0 … and presence0 …, and world_x0, … (metres).
    static var csvColumns: [String] {
        PoseJoint.allCases.map(\.rawValue) + CSVCells.pointColumns("", count: posePoints)
            + (0..<posePoints).map { "visibility\($0)" } + (0..<posePoints).map { "presence\($0)" }
            + CSVCells.pointColumns("world_", count: posePoints)
    }

    var csvObjects: [(id: Int?, cells: [String])] {
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
