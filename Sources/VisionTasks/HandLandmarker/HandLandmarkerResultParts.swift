/// The most landmarks a hand has (MediaPipe's hand model).
private let handPoints = 21

/// The CSV cells of hands, which the Hand Landmarker and the Gesture Recognizer share.
package enum HandCSV {
    /// The hand columns: handedness, its score, x0, y0, z0, … (normalized), world_x0, … (metres).
    package static let columns =
        ["handedness", "handedness_score"] + CSVCells.pointColumns("", count: handPoints)
        + CSVCells.pointColumns("world_", count: handPoints)

    /// The i-th of `count` hands' cells: handedness and its score, 21 landmarks, 21 world landmarks.
    package static func cells(
        _ i: Int, count: Int, handedness: [[ResultCategory]], landmarks: [NormalizedLandmark],
        worldLandmarks: [[Landmark]]
    ) -> [String] {
        let side = CSVCells.entry(handedness, i, objects: count)?.first
        let world = CSVCells.entry(worldLandmarks, i, objects: count) ?? []
        return [side?.categoryName ?? "", CSVCells.number(side?.score)]
            + CSVCells.points(landmarks.map { ($0.x, $0.y, $0.z) }, count: handPoints)
            + CSVCells.points(world.map { ($0.x, $0.y, $0.z) }, count: handPoints)
    }
}

extension HandLandmarkerResult: DescribedResult {
    /// Hand skeletons labelled with their tracking id (video and live stream) and handedness.
    public var overlayParts: [OverlayPart] { [.hands(landmarks, categories: [handedness], trackingIds: trackingIds)] }

    /// The hand columns.
    package static var csvColumns: [String] { HandCSV.columns }

    /// One row per hand.
    package var csvObjects: [(id: Int?, cells: [String])] {
        landmarks.enumerated().map { i, hand in
            (
                CSVCells.ids(trackingIds, i, count: landmarks.count),
                HandCSV.cells(
                    i, count: landmarks.count, handedness: handedness, landmarks: hand, worldLandmarks: worldLandmarks)
            )
        }
    }
}
