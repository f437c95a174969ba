// MediaPipe's CombinedPredictionCalculator: the gesture of a hand from the custom and the canned
// classifiers' (already filtered) results.

/// The label MediaPipe's gesture graph treats as "no gesture".
public let gestureBackgroundLabel = "None"

/// Combines classifier results in priority order (custom first, then canned) as MediaPipe does:
/// each non-empty list yields its best entry (or its background entry when the best scores below
/// the class threshold, which is 0 here as in MediaPipe's gesture graph); the first winner that is
/// not the background label is the gesture, otherwise the first winner. Only the label and score
/// are carried over; the index is -1 and the display name empty, as in MediaPipe's results.
/// Nil when every list is empty.
public func combineGesturePredictions(
    _ lists: [[Classification]],
    backgroundLabel: String = gestureBackgroundLabel
) -> Classification? {
    var firstWinner: Classification?
    for list in lists where !list.isEmpty {
        var best = Classification(index: -1, score: 0, label: "")
        for entry in list where best.score < entry.score { best = entry }
        let threshold: Float = 0
        var winner = Classification(index: -1, score: 0, label: "")
        if best.score >= threshold {
            winner = Classification(index: -1, score: best.score, label: best.label)
        } else if let background = list.first(where: { $0.label == backgroundLabel }) {
            winner = Classification(index: -1, score: background.score, label: background.label)
        }
        if winner.label != backgroundLabel { return winner }
        if firstWinner == nil { firstWinner = winner }
    }
    return firstWinner
}
