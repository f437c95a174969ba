/// The Face Detector's keypoints per face.
private let faceKeypoints = 6

extension FaceDetectorResult: DescribedResult {
    /// Boxes, keypoints and scores, with tracking ids (video and live stream).
    public var overlayParts: [OverlayPart] { [.detections(detections, trackingIds: trackingIds)] }

    /// score, box (pixels: origin_x, origin_y, width, height), six keypoints kp0_x, kp0_y, … (normalized).
    package static var csvColumns: [String] {
        ["score", "box_origin_x", "box_origin_y", "box_width", "box_height"]
            + (0..<faceKeypoints).flatMap { ["kp\($0)_x", "kp\($0)_y"] }
    }

    /// One row per detection.
    package var csvObjects: [(id: Int?, cells: [String])] {
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
