import Testing

@testable import VisionCore

/// Anchor generation checked against values worked out by hand from MediaPipe's
/// `SsdAnchorsCalculator` algorithm (tolerance 1e-6: a few float ulps).
@Suite struct SSDAnchorsTests {
    /// The anchors of the two detectors, as their descriptions configure them.
    private let faceShortRange = SSDDetectorDescription.faceShortRange(
        minScoreThreshold: 0.5, minSuppressionThreshold: 0.3
    ).anchors
    private let palm = SSDDetectorDescription.palm(minScoreThreshold: 0.5).anchors

    private func expectAnchor(_ a: NormalizedRect, _ x: Float, _ y: Float, _ w: Float, _ h: Float) {
        #expect(abs(a.xCenter - x) < 1e-6 && abs(a.yCenter - y) < 1e-6, "centre \(a.xCenter),\(a.yCenter) vs \(x),\(y)")
        #expect(abs(a.width - w) < 1e-6 && abs(a.height - h) < 1e-6, "size \(a.width)×\(a.height) vs \(w)×\(h)")
    }

    @Test func faceShortRangeHas896FixedAnchorsInMediaPipeOrder() throws {
        let anchors = try generateSSDAnchors(faceShortRange)
        #expect(anchors.count == 896)
        // Stride 8: a 16×16 grid, two anchors per cell (the aspect ratio 1 and the interpolated one).
        expectAnchor(anchors[0], 0.03125, 0.03125, 1, 1)
        expectAnchor(anchors[1], 0.03125, 0.03125, 1, 1)
        expectAnchor(anchors[2], 0.09375, 0.03125, 1, 1)
        expectAnchor(anchors[32], 0.03125, 0.09375, 1, 1)
        expectAnchor(anchors[511], 0.96875, 0.96875, 1, 1)
        // Three stride-16 layers merge into one 8×8 grid with six anchors per cell.
        for i in 512..<518 { expectAnchor(anchors[i], 0.0625, 0.0625, 1, 1) }
        expectAnchor(anchors[518], 0.1875, 0.0625, 1, 1)
        expectAnchor(anchors[895], 0.9375, 0.9375, 1, 1)
    }

    @Test func faceFullRangeHas2304AnchorsOnOneStride4Grid() throws {
        // One layer, stride 4 on 192: a 48×48 grid, one fixed anchor per cell (no interpolated scale).
        let anchors = try generateSSDAnchors(
            SSDDetectorDescription.faceFullRange(
                minScoreThreshold: 0.5,
                minSuppressionThreshold: 0.3
            ).anchors)
        #expect(anchors.count == 2304)
        expectAnchor(anchors[0], 0.5 / 48, 0.5 / 48, 1, 1)
        expectAnchor(anchors[1], 1.5 / 48, 0.5 / 48, 1, 1)
        expectAnchor(anchors[48], 0.5 / 48, 1.5 / 48, 1, 1)
        expectAnchor(anchors[2303], 47.5 / 48, 47.5 / 48, 1, 1)
    }

    @Test func palmHas2016Anchors() throws {
        let anchors = try generateSSDAnchors(palm)
        #expect(anchors.count == 24 * 24 * 2 + 12 * 12 * 6)
        expectAnchor(anchors[0], 0.5 / 24, 0.5 / 24, 1, 1)
        expectAnchor(anchors[1152], 0.5 / 12, 0.5 / 12, 1, 1)
    }

    @Test func sizedAnchorsFollowScalesAndAspectRatios() throws {
        let options = SSDAnchorOptions(
            inputWidth: 64, inputHeight: 64, minScale: 0.2, maxScale: 0.6,
            strides: [16, 32], aspectRatios: [1.0, 2.0])
        let anchors = try generateSSDAnchors(options)
        #expect(anchors.count == 4 * 4 * 3 + 2 * 2 * 3)
        let r2 = Float(2).squareRoot()
        expectAnchor(anchors[0], 0.125, 0.125, 0.2, 0.2)
        expectAnchor(anchors[1], 0.125, 0.125, 0.2 * r2, 0.2 / r2)
        // Interpolated: sqrt(0.2 × 0.6), aspect 1.
        expectAnchor(anchors[2], 0.125, 0.125, Float(0.12).squareRoot(), Float(0.12).squareRoot())
        expectAnchor(anchors[48], 0.25, 0.25, 0.6, 0.6)
        // Last layer interpolates towards scale 1.
        expectAnchor(anchors[50], 0.25, 0.25, Float(0.6).squareRoot(), Float(0.6).squareRoot())
    }

    @Test func reducedLowestLayerUsesThePredefinedBoxes() throws {
        let options = SSDAnchorOptions(
            inputWidth: 32, inputHeight: 32, minScale: 0.2, maxScale: 0.6,
            strides: [16, 32], aspectRatios: [1.0], reduceBoxesInLowestLayer: true)
        let anchors = try generateSSDAnchors(options)
        #expect(anchors.count == 2 * 2 * 3 + 1 * 1 * 2)
        let r2 = Float(2).squareRoot()
        expectAnchor(anchors[0], 0.25, 0.25, 0.1, 0.1)
        expectAnchor(anchors[1], 0.25, 0.25, 0.2 * r2, 0.2 / r2)
        expectAnchor(anchors[2], 0.25, 0.25, 0.2 / r2, 0.2 * r2)
    }

    @Test func invalidOptionsThrow() {
        var options = faceShortRange
        options.strides = []
        #expect(throws: (any Error).self) { try generateSSDAnchors(options) }
        options = faceShortRange
        options.strides = [8, 0]
        #expect(throws: (any Error).self) { try generateSSDAnchors(options) }
        options = faceShortRange
        options.inputWidth = 0
        #expect(throws: (any Error).self) { try generateSSDAnchors(options) }
    }
}
