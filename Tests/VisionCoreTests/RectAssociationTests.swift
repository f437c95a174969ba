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
    let tracked = [NormalizedRect(xCenter: 0.2, yCenter: 0.2, width: 0.2, height: 0.2, rotation: 0.1),
                   NormalizedRect(xCenter: 0.7, yCenter: 0.7, width: 0.2, height: 0.2)]
    let detected = [NormalizedRect(xCenter: 0.21, yCenter: 0.2, width: 0.2, height: 0.2),
                    NormalizedRect(xCenter: 0.5, yCenter: 0.2, width: 0.1, height: 0.1)]
    let merged = associateRects([tracked, detected], minSimilarityThreshold: 0.5)
    // The first tracked rect is replaced by the overlapping detection, which goes after the survivors.
    #expect(merged == [tracked[1], detected[0], detected[1]])
    // Duplicates within the first list are removed too.
    #expect(associateRects([[tracked[0], tracked[0]], []], minSimilarityThreshold: 0.5) == [tracked[0]])
    #expect(associateRects([[], detected], minSimilarityThreshold: 0.5) == detected)
}
