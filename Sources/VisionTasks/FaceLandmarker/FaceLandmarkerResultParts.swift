/// The most landmarks a face has (MediaPipe's face mesh with irises).
private let facePoints = 478

extension FaceLandmarkerResult: DescribedResult {
    /// The face meshes, with tracking ids (video and live stream) and head-pose axes (when head poses
    /// are output).
    public var overlayParts: [OverlayPart] {
        [.faceMeshes(faceLandmarks, trackingIds: trackingIds, headPoses: headPoses)]
    }

    /// yaw, pitch, roll (with --output-head-poses), the 52 blendshapes by name (with
    /// --output-face-blendshapes), then the 478 landmarks x0, y0, z0, ….
    package static var csvColumns: [String] {
        ["yaw", "pitch", "roll"] + FaceBlendshapes.names + CSVCells.pointColumns("", count: facePoints)
    }

    /// One row per face.
    package var csvObjects: [(id: Int?, cells: [String])] {
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
