/// One thing an overlay draws, as a result declares it (`OverlaidResult.overlayParts`): VisionRender
/// draws each kind of part one way, whatever the task, so a task whose result is made of these kinds
/// needs no drawing code of its own.
public enum OverlayPart: Sendable {
    /// Face detections: box, keypoints and "face 0.97", preceded by the tracking id when there is one
    /// per detection.
    case detections([Detection], trackingIds: [Int]?)
    /// Face meshes (`FaceLandmarksConnections`), with a tracking id above each face and head-pose axes
    /// at its nose when there is one per face.
    case faceMeshes([[NormalizedLandmark]], trackingIds: [Int]?, headPoses: [HeadPose]?)
    /// Hand skeletons (`HandLandmarksConnections.hand`) labelled with the tracking id and the top
    /// category of each list given per hand (handedness, then gesture).
    case hands([[NormalizedLandmark]], categories: [[[ResultCategory]]], trackingIds: [Int]?)
    /// Body skeletons (`PoseLandmarksConnections.pose`), the joints seen drawn, with a tracking id
    /// above each body.
    case poses([[NormalizedLandmark]], trackingIds: [Int]?)
    /// Masks the size of the picture, each tinted in its own colour in turn.
    case masks([Mask])
}

/// A task result that declares what its overlay draws, in drawing order (masks under skeletons).
public protocol OverlaidResult {
    /// The parts the sample apps draw over the picture for this result.
    var overlayParts: [OverlayPart] { get }
}

/// A task's result as front ends take it apart, declared beside the result: its JSON, its overlay
/// (`OverlaidResult`) and its rows of a CSV table (`vision-tasks --format csv`), one per face, hand
/// or person, under columns the task names after the table's common ones.
package protocol DescribedResult: OverlaidResult, Encodable, Sendable {
    /// The task's own CSV columns.
    static var csvColumns: [String] { get }
    /// The result's timestamp (0 in image mode).
    var timestampInMilliseconds: Int { get }
    /// Per face, hand or person, in the result's order: its tracking id (nil in image mode) and its
    /// cells under `csvColumns` ("" where the result holds no value).
    var csvObjects: [(id: Int?, cells: [String])] { get }
}

/// CSV column names and cells the results share; numbers are written as the JSON lines write them.
package enum CSVCells {
    /// A number as the JSON lines write it ("" for NaN or infinity, which JSON cannot hold either).
    package static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F?) -> String {
        value.flatMap { ResultJSON.numberText($0) } ?? ""
    }

    /// `prefix`x0, `prefix`y0, `prefix`z0, … for `count` points.
    package static func pointColumns(_ prefix: String, count: Int) -> [String] {
        (0..<count).flatMap { ["\(prefix)x\($0)", "\(prefix)y\($0)", "\(prefix)z\($0)"] }
    }

    /// The points' x, y, z cells, padded with "" to `count` points.
    package static func points(_ points: [(x: Float, y: Float, z: Float)], count: Int) -> [String] {
        (0..<count).flatMap { i -> [String] in
            i < points.count ? [number(points[i].x), number(points[i].y), number(points[i].z)] : ["", "", ""]
        }
    }

    /// The i-th entry of a per-object list, when the list has one per object (else nil: the
    /// entries cannot be told apart, as for matrices of a face whose geometry gave none).
    package static func entry<T>(_ list: [T]?, _ i: Int, objects: Int) -> T? {
        guard let list, list.count == objects else { return nil }
        return list[i]
    }

    /// Tracking ids for `count` objects (nil in image mode).
    package static func ids(_ ids: [Int]?, _ i: Int, count: Int) -> Int? { entry(ids, i, objects: count) }
}
