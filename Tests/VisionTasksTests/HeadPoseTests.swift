import FixtureSupport
import Foundation
import Testing
import VisionCore

@testable import VisionTasks

/// Head pose angles (issue 27). The decomposition is exact to 1e-3°; on photos the landmarks move
/// with the picture, so the angles follow within the tolerances each test states.
@Suite struct HeadPoseAngleTests {
    /// The row-major 4×4 transform Rz(roll) · Ry(yaw) · Rx(−pitch), scaled by `scale`, moved by `t`
    /// (`headPoseRotation`, checked against the axes it must give in `rotationColumnsAreTheFaceAxes`).
    static func transform(
        yaw: Double, pitch: Double, roll: Double, scale: Double = 1,
        t: SIMD3<Double> = .zero
    ) -> [Float] {
        let m = headPoseRotation(yaw: yaw, pitch: pitch, roll: roll)
        return (0..<4).flatMap { i -> [Float] in
            i == 3 ? [0, 0, 0, 1] : (0..<3).map { Float(m[i][$0] * scale) } + [Float(t[i])]
        }
    }

    static func close(_ a: (yaw: Float, pitch: Float, roll: Float)?, _ b: (Float, Float, Float)) -> Bool {
        guard let a else { return false }
        return abs(a.yaw - b.0) < 1e-3 && abs(a.pitch - b.1) < 1e-3 && abs(a.roll - b.2) < 1e-3
    }

    @Test(arguments: [(20.0, -10.0, 35.0), (-60.0, 25.0, -170.0), (0.0, 0.0, 0.0), (5.0, 80.0, 90.0)])
    func anglesComeBackOutOfTheirMatrix(_ angles: (Double, Double, Double)) {
        let m = Self.transform(yaw: angles.0, pitch: angles.1, roll: angles.2, scale: 1.7, t: SIMD3(1, -2, -50))
        #expect(Self.close(headPoseAngles(fromTransform: m), (Float(angles.0), Float(angles.1), Float(angles.2))))
    }

    @Test func rotationColumnsAreTheFaceAxes() {
        // Yaw 90°: the face's forwards axis (z) points to the picture's right (+x); pitch 90°: up (+y);
        // roll 90°: the face's x axis turns counter-clockwise to +y.
        func close(_ a: [Double], _ b: [Double]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }
        let yawed = headPoseRotation(yaw: 90, pitch: 0, roll: 0), pitched = headPoseRotation(yaw: 0, pitch: 90, roll: 0)
        let rolled = headPoseRotation(yaw: 0, pitch: 0, roll: 90)
        #expect(close(yawed.map { $0[2] }, [1, 0, 0]) && close(pitched.map { $0[2] }, [0, 1, 0]))
        #expect(close(rolled.map { $0[0] }, [0, 1, 0]))
    }

    @Test func mirroringNegatesYawAndRollAndTurningAddsToRoll() {
        let m = Self.transform(yaw: 20, pitch: -10, roll: 15)
        // Mirror left–right in the camera frame: M · R · M with M = diag(−1, 1, 1).
        let signs: [Float] = [-1, 1, 1, 1]
        let mirrored = (0..<16).map { m[$0] * signs[$0 / 4] * signs[$0 % 4] }
        #expect(Self.close(headPoseAngles(fromTransform: mirrored), (-20, -10, -15)))
        let turned = Self.transform(yaw: 20, pitch: -10, roll: 15 + 40)
        #expect(Self.close(headPoseAngles(fromTransform: turned), (20, -10, 55)))
        #expect(headPoseAngles(fromTransform: [Float](repeating: 0, count: 16)) == nil)
        #expect(headPoseAngles(fromTransform: [1, 0, 0]) == nil)
        #expect(HeadPose(TransformMatrix(rows: 2, columns: 2, data: [1, 0, 0, 1])!) == nil)
    }
}

/// Head poses of the astronaut photo, turned and mirrored in memory, through the Face Landmarker.
@Suite struct HeadPosePhotoTests {
    /// The astronaut photo's upright RGB pixels.
    static func astronaut() throws -> (pixels: [UInt8], width: Int, height: Int) {
        let rgb = try MPImage(
            contentsOfFile: FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/images/astronaut.png")
                .path
        )
        .uprightRGB()
        return (rgb.withUnsafeBufferBytes { Array($0) }, rgb.width, rgb.height)
    }

    /// The picture turned `degrees` counter-clockwise about its centre on a canvas of the same size
    /// (nearest pixel; corners filled grey), then mirrored left–right when `mirrored`.
    static func picture(degrees: Double, mirrored: Bool) throws -> MPImage {
        let (src, w, h) = try astronaut()
        var out = [UInt8](repeating: 128, count: w * h * 3)
        let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        let (cx, cy) = (Double(w - 1) / 2, Double(h - 1) / 2)
        for y in 0..<h {
            for x in 0..<w {
                // Counter-clockwise as shown (y down): the source of (x, y) is it turned back clockwise.
                let dx = Double(mirrored ? w - 1 - x : x) - cx, dy = Double(y) - cy
                let sx = Int((c * dx - s * dy + cx).rounded()), sy = Int((s * dx + c * dy + cy).rounded())
                guard (0..<w).contains(sx), (0..<h).contains(sy) else { continue }
                for k in 0..<3 { out[(y * w + x) * 3 + k] = src[(sy * w + sx) * 3 + k] }
            }
        }
        return try out.withUnsafeBytes {
            try MPImage(pixels: $0, width: w, height: h, bytesPerRow: w * 3, format: .rgb8)
        }
    }

    /// The head pose of the one face in `image` (head poses asked for, matrices not).
    static func pose(_ image: MPImage, _ landmarker: FaceLandmarker) throws -> HeadPose {
        let result = try landmarker.detect(image: image)
        #expect(result.facialTransformationMatrixes.isEmpty, "matrices not asked for")
        return try #require(result.headPoses?.first)
    }

    @Test func turningThePhotoAddsToRollAndMirroringFlipsYawAndRoll() throws {
        let landmarker = try FaceLandmarker(
            options: FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: FaceLandmarkerFixtures.modelPath)) {
                $0.outputHeadPoses = true
            })
        let upright = try Self.pose(Self.picture(degrees: 0, mirrored: false), landmarker)
        var lines = ["upright: yaw \(upright.yaw) pitch \(upright.pitch) roll \(upright.roll)"]
        // Tolerance: 3° on the angle the turn or mirror should give, 3° on those it should keep.
        for degrees in [-30.0, 25.0, 90.0] {
            let turned = try Self.pose(Self.picture(degrees: degrees, mirrored: false), landmarker)
            lines.append("turned \(degrees)°: yaw \(turned.yaw) pitch \(turned.pitch) roll \(turned.roll)")
            #expect(abs(turned.roll - upright.roll - Float(degrees)) < 3, "\(lines)")
            #expect(abs(turned.yaw - upright.yaw) < 3 && abs(turned.pitch - upright.pitch) < 3, "\(lines)")
        }
        // Mirrored: yaw and roll change sign, pitch stays; on the upright photo and on it turned by 25°
        // (a roll far from 0, so the sign change is seen).
        for degrees in [0.0, 25.0] {
            let plain = try Self.pose(Self.picture(degrees: degrees, mirrored: false), landmarker)
            let mirrored = try Self.pose(Self.picture(degrees: degrees, mirrored: true), landmarker)
            lines.append(
                "turned \(degrees)° and mirrored: yaw \(mirrored.yaw) pitch \(mirrored.pitch) roll \(mirrored.roll)")
            #expect(abs(mirrored.yaw + plain.yaw) < 3 && abs(mirrored.roll + plain.roll) < 3, "\(lines)")
            #expect(abs(mirrored.pitch - plain.pitch) < 3, "\(lines)")
        }
        print(lines.joined(separator: "\n"))
    }
}
