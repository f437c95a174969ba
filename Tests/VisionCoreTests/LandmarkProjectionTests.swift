import Foundation
import Testing

@testable import VisionCore

// Tolerance: 1e-6 on normalized coordinates.

/// The crop-to-image matrix of `rect` in a `width`×`height` image, as ImageToTensor returns it.
private func cropMatrix(_ rect: NormalizedRect, _ width: Int, _ height: Int) -> [Float] {
    rect.denormalized(imageWidth: width, imageHeight: height).subRectToImageMatrix(
        imageWidth: width, imageHeight: height)
}

@Test func decodeLandmarksDividesByInputSize() throws {
    let raw: [Float] = [128, 64, 25.6, 0, 256, -12.8]
    let points = try #require(
        raw.withUnsafeBufferPointer { decodeLandmarks($0, count: 2, inputWidth: 256, inputHeight: 256) })
    #expect(points.count == 2)
    #expect(abs(points[0].x - 0.5) < 1e-6 && abs(points[0].y - 0.25) < 1e-6 && abs(points[0].z - 0.1) < 1e-6)
    #expect(abs(points[1].y - 1) < 1e-6 && abs(points[1].z + 0.05) < 1e-6)
    #expect(raw.withUnsafeBufferPointer { decodeLandmarks($0, count: 4, inputWidth: 256, inputHeight: 256) } == nil)
}

@Test func projectionMapsRectCornersAndScalesZ() {
    let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 0.25)
    let p = projectLandmarks(
        [SIMD3(0.5, 0.5, 0.2), SIMD3(0, 0, 0), SIMD3(1, 1, 0)], matrix: cropMatrix(rect, 200, 400))
    #expect(abs(p[0].x - 0.5) < 1e-6 && abs(p[0].y - 0.5) < 1e-6)
    #expect(abs(p[0].z - 0.2 * 0.5) < 1e-6) // z scales with the rect's relative width
    #expect(abs(p[1].x - 0.25) < 1e-6 && abs(p[1].y - 0.375) < 1e-6)
    #expect(abs(p[2].x - 0.75) < 1e-6 && abs(p[2].y - 0.625) < 1e-6)
}

@Test func projectionRotatesInPixels() {
    // A square 100 px ROI rotated 90° clockwise in a 400×200 image: the crop's right edge midpoint
    // lands below the centre.
    let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.25, height: 0.5, rotation: .pi / 2)
    let p = projectLandmarks([SIMD3(1, 0.5, 0.1)], matrix: cropMatrix(rect, 400, 200))
    #expect(abs(p[0].x - 0.5) < 1e-6 && abs(p[0].y - 0.75) < 1e-6)
    // z scale: the projected unit x vector is (0, 100 px) = 0.5 of the height, measured in
    // normalized units: sqrt((a·c/W)² + (a·d/H)²) = 100/200.
    #expect(abs(p[0].z - 0.05) < 1e-6)
}
