import Testing

@testable import VisionCore

// Tolerance: 1e-6 on IoU.

@Test func iouOfOverlappingAndDisjointRects() {
    let a = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.2)
    let b = NormalizedRect(xCenter: 0.6, yCenter: 0.5, width: 0.2, height: 0.2)
    #expect(abs(intersectionOverUnion(a, b) - 0.02 / 0.06) < 1e-6)
    #expect(intersectionOverUnion(a, NormalizedRect(xCenter: 0.9, yCenter: 0.9, width: 0.1, height: 0.1)) == 0)
}

@Test func associationKeepsTrackedRectsUnlessADetectionOverlapsThem() {
    let tracked = [
        NormalizedRect(xCenter: 0.2, yCenter: 0.2, width: 0.2, height: 0.2, rotation: 0.1),
        NormalizedRect(xCenter: 0.7, yCenter: 0.7, width: 0.2, height: 0.2),
    ]
    let detected = [
        NormalizedRect(xCenter: 0.21, yCenter: 0.2, width: 0.2, height: 0.2),
        NormalizedRect(xCenter: 0.5, yCenter: 0.2, width: 0.1, height: 0.1),
    ]
    let merged = associateRects(tracked: tracked, detected: detected, minSimilarityThreshold: 0.5)
    // The first tracked rect is replaced by the overlapping detection, which goes after the survivors
    // and continues it; the other detection is a new object.
    #expect(
        merged == [
            AssociatedRect(tracked[1], trackedIndex: 1), AssociatedRect(detected[0], trackedIndex: 0),
            AssociatedRect(detected[1], trackedIndex: nil),
        ])
    // Duplicates among the tracked rects are removed too; the later one continues itself.
    #expect(
        associateRects(tracked: [tracked[0], tracked[0]], detected: [], minSimilarityThreshold: 0.5)
            == [AssociatedRect(tracked[0], trackedIndex: 1)])
    #expect(associateRects(tracked: [], detected: detected, minSimilarityThreshold: 0.5).map(\.rect) == detected)
    #expect(
        associateRects(tracked: [], detected: detected, minSimilarityThreshold: 0.5).allSatisfy {
            $0.trackedIndex == nil
        })
}
