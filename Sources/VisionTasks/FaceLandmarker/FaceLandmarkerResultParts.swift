/// The most landmarks a face has (MediaPipe's face mesh with irises).
private let facePoints = 478

extension FaceLandmarkerResult: DescribedResult {
    /// The face meshes, with tracking ids (video and live stream) and head-pose axes (when head poses
    /// are output).
    public var overlayParts: [OverlayPart] {
        [.faceMeshes(faceLandmarks, trackingIds: trackingIds, headPoses: headPoses)]
    }

    /// yaw, pitch, roll (with --output-head-poses), matrix0 … matrix15 (the facial transformation matrix, row-major as
    /// the JSON's `data`; with --output-facial-transformation-matrixes), the 52 blendshapes by name (with
    /// --output-face-blendshapes), then the 478 landmarks x0, y0, z0, ….
    package static var csvColumns: [String] {
        ["yaw", "pitch", "roll"] + (0..<matrixEntries).map { "matrix\($0)" } + FaceBlendshapes.names
            + CSVCells.pointColumns("", count: facePoints)
    }

    /// The entries of a facial transformation matrix (4×4).
    private static var matrixEntries: Int { 16 }

    /// One row per face.
    package var csvObjects: [(id: Int?, cells: [String])] {
        let count = faceLandmarks.count
        return faceLandmarks.enumerated().map { i, face in
            let pose = CSVCells.entry(headPoses, i, objects: count)
            let matrix = CSVCells.entry(facialTransformationMatrixes, i, objects: count)?.data
            let matrixCells = (0..<Self.matrixEntries).map { k in
                matrix.flatMap { $0.indices.contains(k) ? CSVCells.number($0[k]) : nil } ?? ""
            }
            let scores = CSVCells.entry(faceBlendshapes, i, objects: count)?.categories
            let blendshapes = FaceBlendshapes.names.enumerated().map { k, name in
                scores.flatMap {
                    $0.indices.contains(k) && $0[k].categoryName == name ? CSVCells.number($0[k].score) : nil
                } ?? ""
            }
            return (
                CSVCells.ids(trackingIds, i, count: count),
                [CSVCells.number(pose?.yaw), CSVCells.number(pose?.pitch), CSVCells.number(pose?.roll)]
                    + matrixCells + blendshapes + CSVCells.points(face.map { ($0.x, $0.y, $0.z) }, count: facePoints)
            )
        }
    }
}
