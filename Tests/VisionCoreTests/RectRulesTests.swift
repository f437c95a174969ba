import Foundation
import Testing

@testable import VisionCore

// Tolerances: 1e-6 on normalized coordinates and angles (single-precision arithmetic).

@Test func normalizeRadiansWrapsIntoMinusPiToPi() {
    #expect(abs(normalizeRadians(3 * .pi / 2) - (-.pi / 2)) < 1e-6)
    #expect(abs(normalizeRadians(-3 * .pi / 2) - (.pi / 2)) < 1e-6)
    #expect(abs(normalizeRadians(0.25) - 0.25) < 1e-6)
    #expect(abs(normalizeRadians(3.2) - (3.2 - 2 * .pi)) < 1e-6)
}

@Test func rotationFromEyeKeypointsIsMeasuredInPixels() {
    // Eyes level: no rotation.
    #expect(
        abs(rotation(from: SIMD2(0.4, 0.5), to: SIMD2(0.6, 0.5), targetAngle: 0, imageWidth: 640, imageHeight: 480))
            < 1e-6)
    // The second eye lower than the first by as many pixels as it is to the right: the head leans
    // clockwise by 45°, so the rect turns by +π/4.
    let r = rotation(from: SIMD2(0.25, 0.25), to: SIMD2(0.5, 0.5), targetAngle: 0, imageWidth: 400, imageHeight: 400)
    #expect(abs(r - .pi / 4) < 1e-6)
    // The same normalized points on a 2:1 image: atan(1/2) in pixels.
    let r2 = rotation(from: SIMD2(0.25, 0.25), to: SIMD2(0.5, 0.5), targetAngle: 0, imageWidth: 800, imageHeight: 400)
    #expect(abs(r2 - atanf(0.5)) < 1e-6)
}

@Test func rectFromLandmarksUsesBoundingBoxAndRotationIndices() throws {
    let points: [SIMD3<Float>] = [SIMD3(0.2, 0.3, 0), SIMD3(0.6, 0.3, 0), SIMD3(0.4, 0.7, 0.1)]
    let rect = try #require(
        rectFromLandmarks(
            points, rotationStart: 0, rotationEnd: 1, targetAngle: 0,
            imageWidth: 100, imageHeight: 100))
    #expect(abs(rect.xCenter - 0.4) < 1e-6 && abs(rect.yCenter - 0.5) < 1e-6)
    #expect(abs(rect.width - 0.4) < 1e-6 && abs(rect.height - 0.4) < 1e-6)
    #expect(abs(rect.rotation) < 1e-6)
    #expect(
        rectFromLandmarks(points, rotationStart: 0, rotationEnd: 3, targetAngle: 0, imageWidth: 100, imageHeight: 100)
            == nil)
}

@Test func boundingBoxMaximaStartAtSmallestPositiveFloat() {
    // MediaPipe's quirk: with every x negative, the box's right edge stays at ~0.
    let box = boundingBox(of: [SIMD3(-0.5, 0.2, 0), SIMD3(-0.1, 0.4, 0)])
    #expect(abs(box.xMin + 0.5) < 1e-6 && abs(box.width - 0.5) < 1e-6)
}

@Test func rectTransformationScalesAndSquaresInPixels() {
    // Face detector rule: scale 1.5, no squaring.
    let face = RectTransformation(scaleX: 1.5, scaleY: 1.5)
    let r = face.apply(
        to: NormalizedRect(xCenter: 0.5, yCenter: 0.4, width: 0.2, height: 0.3, rotation: 0.3),
        imageWidth: 640, imageHeight: 480)
    #expect(abs(r.width - 0.3) < 1e-6 && abs(r.height - 0.45) < 1e-6)
    #expect(r.xCenter == 0.5 && r.yCenter == 0.4 && r.rotation == 0.3)
    // Landmarks rule: square on the long side in pixels, then scale 1.5.
    let lm = RectTransformation(scaleX: 1.5, scaleY: 1.5, squareLong: true)
    let s = lm.apply(
        to: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.25, height: 0.25),
        imageWidth: 640, imageHeight: 480)
    // Long side 0.25 * 640 = 160 px → width 160/640, height 160/480.
    #expect(abs(s.width - 1.5 * 0.25) < 1e-6 && abs(s.height - 1.5 * 160 / 480) < 1e-6)
}

@Test func rectTransformationShiftsAlongRotatedAxes() {
    let t = RectTransformation(shiftY: -0.5)
    // Rotated by 90°: the rect's y axis points along -x of the image.
    let r = t.apply(
        to: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.2, rotation: .pi / 2),
        imageWidth: 100, imageHeight: 100)
    #expect(abs(r.xCenter - 0.6) < 1e-6 && abs(r.yCenter - 0.5) < 1e-6)
    let u = t.apply(
        to: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.2), imageWidth: 100, imageHeight: 100)
    #expect(abs(u.yCenter - 0.4) < 1e-6)
}

@Test func rectFromDetectionRotatesByTheEyeKeypoints() throws {
    let d = RelativeDetection(
        score: 0.9, classIndex: 0, xMin: 0.3, yMin: 0.2, width: 0.4, height: 0.3,
        keypoints: [SIMD2(0.4, 0.3), SIMD2(0.6, 0.5)])
    let rect = try #require(
        rectFromDetection(d, rotationStart: 0, rotationEnd: 1, targetAngle: 0, imageWidth: 100, imageHeight: 100))
    #expect(abs(rect.xCenter - 0.5) < 1e-6 && abs(rect.yCenter - 0.35) < 1e-6)
    #expect(abs(rect.width - 0.4) < 1e-6 && abs(rect.height - 0.3) < 1e-6)
    #expect(abs(rect.rotation - .pi / 4) < 1e-6)
    #expect(
        rectFromDetection(d, rotationStart: 0, rotationEnd: 2, targetAngle: 0, imageWidth: 100, imageHeight: 100) == nil
    )
}

@Test func rectFromDetectionMeasuresTheBoxAlongTheStoredAxes() throws {
    // A 200×100 upright image stored a quarter turn away: MediaPipe's rect takes the box's extent
    // along the stored x axis (the upright box's 0.3 × 100 = 30 px height) as its width, and the
    // upright width (0.4 × 200 = 80 px) as its height; centre and rotation are unchanged.
    let d = RelativeDetection(
        score: 0.9, classIndex: 0, xMin: 0.3, yMin: 0.2, width: 0.4, height: 0.3,
        keypoints: [SIMD2(0.4, 0.3), SIMD2(0.6, 0.5)])
    let upright = try #require(
        rectFromDetection(d, rotationStart: 0, rotationEnd: 1, targetAngle: 0, imageWidth: 200, imageHeight: 100))
    let turned = try #require(
        rectFromDetection(
            d, rotationStart: 0, rotationEnd: 1, targetAngle: 0, imageWidth: 200, imageHeight: 100,
            storedAxesSwapped: true))
    #expect(
        turned.xCenter == upright.xCenter && turned.yCenter == upright.yCenter && turned.rotation == upright.rotation)
    #expect(abs(turned.width * 200 - 30) < 1e-4 && abs(turned.height * 100 - 80) < 1e-4)
}
