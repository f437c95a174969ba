import FixtureSupport
import Foundation
import Testing
import VisionCore

@testable import VisionTasks

// Tracking ids (issue 27): kept while a face or hand is in view, new after it is lost, numbered from 0
// again after reset(), absent in image mode. Exact (ids are integers).

/// The tracking loop's ids, on rects standing for objects (no model).
@Suite struct TrackedRectIdTests {
    static let a = NormalizedRect(xCenter: 0.25, yCenter: 0.5, width: 0.2, height: 0.2)
    static let b = NormalizedRect(xCenter: 0.75, yCenter: 0.5, width: 0.2, height: 0.2)

    /// A loop over at most `maxCount` rects, associated as the face landmarker does.
    static func loop(maxCount: Int, tracks: Bool = true) -> TrackedRects {
        TrackedRects(maxCount: maxCount, tracks: tracks) {
            associateRects(tracked: $0, detected: $1, minSimilarityThreshold: 0.5)
        }
    }

    /// One frame where the detector finds `detected` and the objects `present` holds are there.
    static func frame(
        _ loop: inout TrackedRects, detected: [NormalizedRect],
        present: Set<Float> = [0.25, 0.75]
    ) -> [(object: NormalizedRect, id: Int?)] {
        loop.process(
            detect: { detected },
            observe: { rects in rects.map { present.contains($0.xCenter) ? $0 : nil } },
            nextRect: { $0 })
    }

    @Test func idsAreKeptWhileTrackedAndNewAfterALoss() {
        var loop = Self.loop(maxCount: 2)
        let first = Self.frame(&loop, detected: [Self.a, Self.b])
        #expect(first.map(\.id) == [0, 1] && first.map(\.object) == [Self.a, Self.b])
        // Both tracked: the detector does not run, the ids stay.
        #expect(Self.frame(&loop, detected: []).map(\.id) == [0, 1])
        // b is lost, then found again by the detector: a new id.
        #expect(Self.frame(&loop, detected: [], present: [0.25]).map(\.id) == [0])
        let back = Self.frame(&loop, detected: [Self.b, Self.a])
        #expect(back.map(\.id) == [0, 2] && back.map(\.object) == [Self.a, Self.b])
        loop.reset()
        #expect(Self.frame(&loop, detected: [Self.b, Self.a]).map(\.id) == [0, 1])
    }

    @Test func aDetectionReplacingATrackedRectKeepsItsIdAndTheOrderDoesNotFlip() {
        var loop = Self.loop(maxCount: 3)
        #expect(Self.frame(&loop, detected: [Self.a, Self.b]).map(\.id) == [0, 1])
        // Fewer than 3 tracked: the detector runs and re-finds both, best score first (b). The
        // association puts them after the survivors in that order; the result stays in id order.
        let moved = NormalizedRect(xCenter: 0.75, yCenter: 0.5, width: 0.2, height: 0.21)
        let again = Self.frame(&loop, detected: [moved, Self.a])
        #expect(again.map(\.id) == [0, 1] && again.map(\.object) == [Self.a, moved])
    }

    @Test func imageModeHasNoIdsAndKeepsTheDetectorsOrder() {
        var loop = Self.loop(maxCount: 2, tracks: false)
        let found = Self.frame(&loop, detected: [Self.b, Self.a])
        #expect(found.map(\.object) == [Self.b, Self.a] && found.allSatisfy { $0.id == nil })
    }

    @Test func duplicatesAreDroppedWithTheirIds() {
        var loop = Self.loop(maxCount: 2)
        let found = loop.process(
            detect: { [Self.a, Self.b] }, observe: { $0.map { $0 } },
            duplicates: { _ in [0] }, nextRect: { $0 })
        #expect(found.map(\.object) == [Self.b] && found.map(\.id) == [0])
    }

    /// A next rect that is not finite or has no area (a landmark model gone wrong) is not tracked: the detector
    /// looks again on the next frame. And when looking at the tracked rects throws, nothing stays tracked: the
    /// face and hand landmarkers used to fail every later frame on such a rect, until `reset()`.
    @Test func aBadNextRectOrAFailedFrameEndsTracking() throws {
        let broken: [NormalizedRect] = [
            NormalizedRect(xCenter: .nan, yCenter: 0.5, width: 0.2, height: 0.2),
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 0.2),
        ]
        for next in broken {
            var loop = Self.loop(maxCount: 1)
            var detections = 0
            for _ in 0..<3 {
                let found = loop.process(
                    detect: {
                        detections += 1
                        return [Self.a]
                    }, observe: { $0.map { $0 } }, nextRect: { _ in next })
                #expect(found.map(\.object) == [Self.a])
            }
            #expect(detections == 3, "\(next)")
        }
        var loop = Self.loop(maxCount: 1)
        _ = Self.frame(&loop, detected: [Self.a])
        struct Unreadable: Error {}
        #expect(throws: Unreadable.self) {
            try loop.process(
                detect: { [] }, observe: { _ -> [NormalizedRect?] in throw Unreadable() }, nextRect: { $0 })
        }
        var detected = false
        _ = loop.process(
            detect: {
                detected = true
                return [Self.b]
            }, observe: { $0.map { $0 } }, nextRect: { $0 })
        #expect(detected)
    }

    @Test func detectionIdsFollowTheLargestOverlap() {
        var ids = DetectionIds(minOverlap: 0.3)
        #expect(ids.ids(for: [Self.a, Self.b]) == [0, 1])
        let nearB = NormalizedRect(xCenter: 0.76, yCenter: 0.5, width: 0.2, height: 0.2)
        // Order of the detections changes (scores), the ids follow the boxes.
        #expect(ids.ids(for: [nearB, Self.a]) == [1, 0])
        #expect(ids.ids(for: [Self.a]) == [0])
        #expect(ids.ids(for: [Self.a, nearB]) == [0, 2])
        ids.reset()
        #expect(ids.ids(for: [nearB]) == [0])
    }
}

/// The tasks' ids end to end, on scenes made from the fixtures: two faces where one leaves and comes
/// back, and a hand that leaves and comes back.
@Suite struct TrackingIdTaskTests {
    /// 10 frames, 40 ms apart, of a 560×340 canvas: the astronaut's face drifting right on the left,
    /// the woman's face on the right in frames 0–3 and 6–9 and gone in 4–5.
    static func twoFacesOneLeaving() throws -> [MPImage] {
        var sprites: [String: SceneComposer.Sprite] = [:]
        return try (0..<10).map { i in
            var frame = [FaceLandmarkerFixtures.Sprite(name: "astronaut_face_280", x: 10 + 2 * i, y: 30, flip: false)]
            if !(4...5).contains(i) {
                frame.append(FaceLandmarkerFixtures.Sprite(name: "woman_face_240", x: 300 - 2 * i, y: 50, flip: true))
            }
            return try SceneComposer.compose(
                FaceLandmarkerFixtures.SceneFrame(timestampMs: 40 * i, sprites: frame),
                canvas: [560, 340], background: [90, 110, 130], sprites: &sprites)
        }
    }

    /// Per frame, the ids of the left face and of the right face (nil: not found), from each face's
    /// horizontal centre.
    static func sides(_ centres: [Float], _ ids: [Int]) -> (left: Int?, right: Int?) {
        (zip(centres, ids).first { $0.0 < 0.5 }?.1, zip(centres, ids).first { $0.0 >= 0.5 }?.1)
    }

    /// The id figures of one run: the left face keeps one id throughout; the right face keeps one
    /// before it leaves and takes a new one when it comes back.
    static func expectOneLeavingAndComingBack(_ perFrame: [(left: Int?, right: Int?)], _ task: String) {
        #expect(perFrame.count == 10)
        // The figures: ids per frame (left/right; "-": not found), new ids, and switches (a face seen in two
        // frames in a row with two ids).
        let switches = zip(perFrame, perFrame.dropFirst()).filter { a, b in
            (a.left != nil && b.left != nil && a.left != b.left)
                || (a.right != nil && b.right != nil && a.right != b.right)
        }.count
        let text = perFrame.map { "\($0.left.map(String.init) ?? "-")/\($0.right.map(String.init) ?? "-")" }.joined(
            separator: " ")
        print(
            "tracking ids, \(task), two faces, the right one gone in frames 4-5: \(text); "
                + "\(Set(perFrame.flatMap { [$0.left, $0.right] }.compactMap { $0 }).count) ids, \(switches) switches")
        #expect(switches == 0, "\(task): \(text)")
        let left = Set(perFrame.map(\.left)), before = Set(perFrame[0...3].map(\.right)),
            after = Set(perFrame[6...9].map(\.right))
        #expect(left.count == 1 && !left.contains(nil), "\(task): left face ids \(perFrame.map(\.left))")
        #expect(perFrame[4...5].allSatisfy { $0.right == nil }, "\(task): right face found while gone")
        #expect(
            before.count == 1 && after.count == 1 && before != after && !before.contains(nil) && !after.contains(nil),
            "\(task): right face ids \(perFrame.map(\.right))")
        #expect(
            Set(perFrame.flatMap { [$0.left, $0.right] }.compactMap { $0 }) == [0, 1, 2], "\(task): ids \(perFrame)")
    }

    @Test func faceLandmarkerIds() throws {
        let frames = try Self.twoFacesOneLeaving()
        let landmarker = try FaceLandmarker(
            options: FaceLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: FaceLandmarkerFixtures.modelPath), runningMode: .video
            ) {
                $0.numFaces = 2
            })
        var perFrame: [(left: Int?, right: Int?)] = []
        for (i, frame) in frames.enumerated() {
            let r = try landmarker.detect(videoFrame: frame, timestampInMilliseconds: 40 * i)
            let ids = try #require(r.trackingIds)
            #expect(ids.count == r.faceLandmarks.count && ids == ids.sorted())
            perFrame.append(Self.sides(r.faceLandmarks.map { $0.map(\.x).reduce(0, +) / Float($0.count) }, ids))
        }
        Self.expectOneLeavingAndComingBack(perFrame, "face landmarker")
        try landmarker.reset()
        #expect(
            try landmarker.detect(videoFrame: frames[0], timestampInMilliseconds: 0).trackingIds?.sorted() == [0, 1])
        let still = try FaceLandmarker(
            options: FaceLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: FaceLandmarkerFixtures.modelPath), runningMode: .image
            ) {
                $0.numFaces = 2
            })
        let image = try still.detect(image: frames[0])
        #expect(image.faceLandmarks.count == 2 && image.trackingIds == nil)
        #expect(!String(decoding: try ResultJSON.encode(image), as: UTF8.self).contains("trackingIds"))
    }

    @Test func faceDetectorIds() throws {
        let frames = try Self.twoFacesOneLeaving()
        let detector = try FaceDetectorSupport.detector(.video)
        var perFrame: [(left: Int?, right: Int?)] = []
        for (i, frame) in frames.enumerated() {
            let r = try detector.detect(videoFrame: frame, timestampInMilliseconds: 40 * i)
            let ids = try #require(r.trackingIds)
            #expect(ids.count == r.detections.count && ids == ids.sorted())
            perFrame.append(Self.sides(r.detections.map { Float($0.boundingBox.midX) / 560 }, ids))
        }
        Self.expectOneLeavingAndComingBack(perFrame, "face detector")
        try detector.reset()
        #expect(try detector.detect(videoFrame: frames[0], timestampInMilliseconds: 0).trackingIds?.sorted() == [0, 1])
        #expect(try FaceDetectorSupport.detector(.image).detect(image: frames[0]).trackingIds == nil)
    }

    @Test func handLandmarkerIds() throws {
        let hand = try MPImage(contentsOfFile: HandSupport.fixture("images/hand_thumb_up.jpg")).uprightRGB()
        let empty = try [UInt8](repeating: 128, count: hand.width * hand.height * 3).withUnsafeBytes {
            try MPImage(pixels: $0, width: hand.width, height: hand.height, bytesPerRow: hand.width * 3, format: .rgb8)
        }
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: HandSupport.model("hand_landmarker.task")), runningMode: .video
            ))
        let frames = [hand, hand, empty, hand, hand]
        let ids = try frames.enumerated().map { i, frame in
            try #require(try landmarker.detect(videoFrame: frame, timestampInMilliseconds: 40 * i).trackingIds)
        }
        print("tracking ids, hand landmarker, hand in frames 0-1 and 3-4: \(ids)")
        #expect(ids == [[0], [0], [], [1], [1]])
        try landmarker.reset()
        #expect(try landmarker.detect(videoFrame: hand, timestampInMilliseconds: 0).trackingIds == [0])
    }
}
