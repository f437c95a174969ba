extension GestureRecognizerResult: DescribedResult {
    /// Hand skeletons labelled with their tracking id (video and live stream), handedness and gesture.
    public var overlayParts: [OverlayPart] {
        [.hands(landmarks, categories: [handedness, gestures], trackingIds: trackingIds)]
    }

    /// gesture and its score (empty when some hand got none: the gestures cannot then be told
    /// apart), then the hand columns.
    package static var csvColumns: [String] { ["gesture", "gesture_score"] + HandCSV.columns }

    /// One row per hand.
    package var csvObjects: [(id: Int?, cells: [String])] {
        landmarks.enumerated().map { i, hand in
            let gesture = CSVCells.entry(gestures, i, objects: landmarks.count)?.first
            return (
                CSVCells.ids(trackingIds, i, count: landmarks.count),
                [gesture?.categoryName ?? "", CSVCells.number(gesture?.score)]
                    + HandCSV.cells(
                        i, count: landmarks.count, handedness: handedness, landmarks: hand,
                        worldLandmarks: worldLandmarks)
            )
        }
    }
}
