import Foundation
import Testing

@testable import Training

/// Augmentation in landmark space: mirroring and turning a hand.
@Suite struct HandPoseTests {
    static let pose = HandPose(
        landmarks: (0..<21).map { SIMD3(0.3 + 0.01 * Float($0), 0.6 - 0.015 * Float($0), 0.001 * Float($0)) },
        imageWidth: 640, imageHeight: 480,
        worldLandmarks: (0..<21).map { SIMD3(0.002 * Float($0), -0.003 * Float($0), 0.001) },
        rightHandScore: 0.9)

    @Test func mirroringTwiceGivesTheHandBack() {
        let mirrored = Self.pose.mirrored()
        #expect(abs(mirrored.rightHandScore - 0.1) < 1e-6)
        #expect(abs(mirrored.landmarks[3].x - (1 - Self.pose.landmarks[3].x)) < 1e-6)
        #expect(mirrored.worldLandmarks[3].x == -Self.pose.worldLandmarks[3].x)
        let back = mirrored.mirrored()
        #expect(zip(back.landmarks, Self.pose.landmarks).allSatisfy { simd_distance($0, $1) < 1e-6 })
    }

    /// Turning keeps the wrist and every distance to it in pixels, and turns by the angle asked.
    @Test func turningKeepsDistancesInPixels() {
        let turned = Self.pose.turned(by: 20)
        #expect(turned.landmarks[0] == Self.pose.landmarks[0])
        func pixels(_ p: SIMD3<Float>, _ q: SIMD3<Float>) -> (Float, Float) { ((p.x - q.x) * 640, (p.y - q.y) * 480) }
        for i in 1..<21 {
            let (ax, ay) = pixels(Self.pose.landmarks[i], Self.pose.landmarks[0])
            let (bx, by) = pixels(turned.landmarks[i], turned.landmarks[0])
            #expect(abs((ax * ax + ay * ay).squareRoot() - (bx * bx + by * by).squareRoot()) < 1e-3)
            let angle = (atan2(by, bx) - atan2(ay, ax)) * 180 / .pi
            #expect(abs(remainder(angle - 20, 360)) < 1e-2)
        }
        #expect(Self.pose.augmentations(angles: [-10, 10]).count == 5)
    }

    private func simd_distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = a - b
        return (d * d).sum().squareRoot()
    }
}
