import FixtureSupport
import Testing
import VisionTasks

@testable import VisionRender

/// Drawing checks on a plain grey picture: sizes kept, pixels under what was drawn changed, pixels
/// far from it unchanged. Tolerance: exact for unchanged pixels; "changed" means any channel moved by > 30.
@Suite struct AnnotationTests {
    static let w = 200, h = 160
    static func grey() throws -> Annotation {
        try Annotation(pixels: [UInt8](repeating: 90, count: w * h * 3), width: w, height: h, channels: 3)
    }

    static func rgb(_ pixels: [UInt8], _ x: Int, _ y: Int) -> [Int] {
        let o = (y * w + x) * 3
        return [Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2])]
    }

    static func changed(_ pixels: [UInt8], _ x: Int, _ y: Int) -> Bool {
        rgb(pixels, x, y).contains { abs($0 - 90) > 30 }
    }

    @Test func handSkeletonIsDrawnOnTheLandmarks() throws {
        let a = try Self.grey()
        // 21 landmarks on a diagonal, from (0.3, 0.4) to (0.7, 0.8).
        let hand: [(x: Float, y: Float)] = (0..<21).map { i in
            let t = 0.02 * Double(i)
            return (x: Float(0.3 + t), y: Float(0.4 + t))
        }
        a.canvas.drawHand(hand, labels: ["Right 0.98", "Thumb_Up 0.77"])
        let out = a.rgbPixels()
        #expect(out.count == Self.w * Self.h * 3)
        for i in [0, 4, 8, 20] {
            let x = Int(hand[i].x * Float(Self.w)), y = Int(hand[i].y * Float(Self.h))
            #expect(Self.changed(out, x, y), "landmark \(i) at \(x),\(y)")
        }
        // A joint is red-dominant (MediaPipe's joints are red).
        let joint = Self.rgb(out, Int(hand[12].x * Float(Self.w)), Int(hand[12].y * Float(Self.h)))
        #expect(joint[0] > joint[1] + 60 && joint[0] > joint[2] + 60, "joint colour \(joint)")
        // Far from the hand and its labels nothing changes.
        #expect(Self.rgb(out, 190, 10) == [90, 90, 90])
        #expect(Self.rgb(out, 10, 150) == [90, 90, 90])
        // The labels sit above the hand: some text pixels there.
        let labelRows = (20..<60).flatMap { y in (60..<140).map { x in (x, y) } }
        #expect(labelRows.contains { Self.changed(out, $0.0, $0.1) })
    }

    /// Landmarks far outside the picture (a model gone wrong, or a client's numbers) or not finite draw quickly:
    /// line widths and dots follow an object's size only up to the picture's larger side. They followed it
    /// without bound, and Cairo's round caps and dots take time and memory that grow with the width.
    @Test func landmarksFarOutsideThePictureDrawQuickly() throws {
        let a = try Self.grey()
        let start = CPUTime.threadSeconds()
        for scale: Float in [1e8, 1e30, .infinity, .nan] {
            let face: [(x: Float, y: Float)] = (0..<478).map { i in (x: Float(i % 2) * scale, y: Float(i % 3) * scale) }
            a.canvas.drawFaceMesh(face, id: 1, poseAxes: [(dx: 1, dy: 0, towardsViewer: 0)])
            a.canvas.drawHand(Array(face.prefix(21)), labels: ["Left 0.9"])
            a.canvas.drawPose(face.prefix(33).map { (x: $0.x, y: $0.y, visibility: 1) }, id: 2)
        }
        #expect(a.rgbPixels().count == Self.w * Self.h * 3)
        #expect(CPUTime.threadSeconds() - start < 5)
    }

    @Test func faceBoxKeypointsAndScore() throws {
        let a = try Self.grey()
        a.canvas.drawFaceDetection(
            box: (x: 50, y: 60, width: 80, height: 70),
            keypoints: [(x: 0.45, y: 0.55), (x: 0.55, y: 0.55)], score: 0.93)
        let out = a.rgbaPixels()
        #expect(out.count == Self.w * Self.h * 4)
        #expect(out[3] == 255)
        func changed4(_ x: Int, _ y: Int) -> Bool {
            let o = (y * Self.w + x) * 4
            return (0..<3).contains { abs(Int(out[o + $0]) - 90) > 30 }
        }
        #expect(changed4(50, 90) && changed4(130, 90) && changed4(90, 60) && changed4(90, 130), "box edges")
        #expect(changed4(90, 88) && changed4(110, 88), "keypoints")
        #expect(!changed4(90, 110), "inside the box, away from keypoints")
        #expect((0..<40).contains { x in (30..<58).contains { y in changed4(50 + x, y) } }, "score label above the box")
    }

    @Test func faceMeshCoversTheFace() throws {
        let a = try Self.grey()
        // A synthetic 478-point "face": points on a grid inside (0.3...0.7, 0.2...0.8).
        let mesh: [(x: Float, y: Float)] = (0..<478).map { i in
            let col = Double(i % 22) / 21, row = Double(i / 22) / 21
            return (x: Float(0.3 + 0.4 * col), y: Float(0.2 + 0.6 * row))
        }
        a.canvas.drawFaceMesh(mesh)
        let out = a.rgbPixels()
        let inside = (40..<120).flatMap { y in (70..<130).map { x in (x, y) } }
        let changedInside = inside.filter { Self.changed(out, $0.0, $0.1) }.count
        #expect(changedInside > inside.count / 20, "mesh lines over the face: \(changedInside)")
        #expect(Self.rgb(out, 5, 5) == [90, 90, 90])
    }

    @Test func picturesComeBackExactlyWithNothingDrawn() throws {
        // Every pixel distinct in each channel (a swapped or shifted byte shows), widths around the
        // 4-pixel steps of the conversion, rows with padding, RGB and RGBX, and a second picture
        // replacing the first.
        for (width, height) in [(1, 1), (3, 2), (4, 3), (5, 2), (6, 4), (7, 3), (33, 5)] {
            for channels in [3, 4] {
                let rowBytes = width * channels + 5
                func picture(_ seed: Int) -> [UInt8] {
                    (0..<rowBytes * height).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251 &+ seed) }
                }
                func expected(_ bytes: [UInt8]) -> [UInt8] {
                    (0..<height).flatMap { y in
                        (0..<width).flatMap { x in bytes[(y * rowBytes + x * channels)...].prefix(3) }
                    }
                }
                let first = picture(1), second = picture(2)
                let a = try Annotation(
                    pixels: first, width: width, height: height, channels: channels, rowBytes: rowBytes)
                #expect(a.rgbPixels() == expected(first), "\(width)x\(height)x\(channels)")
                try a.replacePixels(second, channels: channels, rowBytes: rowBytes)
                #expect(a.rgbPixels() == expected(second), "\(width)x\(height)x\(channels), replaced")
            }
        }
    }

    @Test func rejectsBuffersThatDoNotFit() throws {
        #expect(throws: (any Error).self) { try Annotation(pixels: [1, 2, 3], width: 2, height: 2, channels: 3) }
        #expect(throws: (any Error).self) { try Annotation(pixels: [], width: 0, height: 0, channels: 3) }
        #expect(throws: (any Error).self) {
            try Annotation(pixels: [UInt8](repeating: 0, count: 8), width: 2, height: 2, channels: 2)
        }
        // A row stride past the buffer: its product with the rows used to overflow and trap.
        #expect(throws: VisionTasksError.self) {
            try Annotation(pixels: [UInt8](repeating: 0, count: 12), width: 2, height: 2, channels: 3, rowBytes: .max)
        }
        let one = try? Annotation(
            pixels: [UInt8](repeating: 0, count: 6), width: 2, height: 1, channels: 3, rowBytes: 99)
        #expect(one != nil, "one row needs no stride")
        // A packed row's bytes (width × channels) that overflow: they trapped before the size was checked.
        #expect(throws: VisionTasksError.self) { try Annotation(pixels: [], width: .max, height: 1, channels: 3) }
        #expect(throws: VisionTasksError.self) { try Annotation(pixels: [], width: 2, height: 1, channels: .max) }
        let two = try Annotation(pixels: [UInt8](repeating: 0, count: 6), width: 2, height: 1, channels: 3)
        #expect(throws: VisionTasksError.self) { try two.replacePixels([], channels: .max) }
    }
}
