import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

// The Pose Landmarker's options, modes, timestamps, bad bundles, masks, joint angles and smoothing:
// each failure a clear VisionTasksError naming the problem, never a crash.

private func options(_ mode: RunningMode = .image) -> PoseLandmarkerOptions {
    PoseLandmarkerOptions(
        baseOptions: BaseOptions(modelAssetPath: Fixture.modelPath("pose_landmarker_full.task")), runningMode: mode)
}

/// The woman_sitting photo's RGB bytes, turned by `transform` (x, y → source pixel) into a new picture.
private func remapped(_ image: MPImage, _ source: (Int, Int) -> (Int, Int), noise: (Int, Int) -> Int = { _, _ in 0 })
    throws -> MPImage
{
    let (w, h, step) = (image.bufferWidth, image.bufferHeight, image.bufferFormat.bytesPerPixel)
    var out = [UInt8](repeating: 0, count: w * h * 3)
    image.withUnsafeBufferBytes { raw in
        for y in 0..<h {
            for x in 0..<w {
                let (sx, sy) = source(x, y)
                for c in 0..<3 {
                    let v = Int(raw[(sy * w + sx) * step + min(c, step - 1)]) + noise(x, y)
                    out[(y * w + x) * 3 + c] = UInt8(max(0, min(255, v)))
                }
            }
        }
    }
    return try out.withUnsafeBytes { try MPImage(pixels: $0, width: w, height: h, bytesPerRow: w * 3, format: .rgb8) }
}

/// Collects live-stream results in arrival order.
private final class Collector: PoseLandmarkerLiveStreamDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _timestamps: [Int] = []
    private var _poses: [Int] = []
    var timestamps: [Int] { lock.withLock { _timestamps } }
    var poses: [Int] { lock.withLock { _poses } }

    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        lock.withLock {
            _timestamps.append(timestampInMilliseconds)
            _poses.append(result?.landmarks.count ?? -1)
        }
    }
}

@Suite
struct PoseTaskTests {
    @Test func rejectsBadOptions() {
        let cases: [(String, (PoseLandmarkerOptions) -> Void)] = [
            ("numPoses", { $0.numPoses = 0 }), ("minPoseDetectionConfidence", { $0.minPoseDetectionConfidence = 1.5 }),
            ("minPosePresenceConfidence", { $0.minPosePresenceConfidence = -0.1 }),
            ("minTrackingConfidence", { $0.minTrackingConfidence = .nan }),
        ]
        #expect(cases.count == 4)
        for (name, change) in cases {
            let o = options()
            change(o)
            do {
                _ = try PoseLandmarker(options: o)
                Issue.record("expected invalidOption for \(name)")
            } catch let VisionTasksError.invalidOption(option, _) {
                #expect(option == name)
            } catch {
                Issue.record("expected invalidOption for \(name), got \(error)")
            }
        }
        // Live stream needs a delegate; other modes refuse one.
        #expect(throws: VisionTasksError.self) { _ = try PoseLandmarker(options: options(.liveStream)) }
        let collector = Collector()
        let withDelegate = options(.video)
        withDelegate.poseLandmarkerLiveStreamDelegate = collector
        #expect(throws: VisionTasksError.self) { _ = try PoseLandmarker(options: withDelegate) }
    }

    @Test func rejectsFilesThatAreNotPoseBundles() {
        do {
            _ = try PoseLandmarker(modelPath: Fixture.modelPath("hand_landmarker.task"))
            Issue.record("a hand landmarker bundle was taken for a pose landmarker")
        } catch let VisionTasksError.invalidBundle(message) {
            #expect(message.contains("pose_detector.tflite"), "\(message)")
        } catch {
            Issue.record("expected invalidBundle, got \(error)")
        }
        #expect(throws: VisionTasksError.self) {
            _ = try PoseLandmarker(modelPath: Fixture.modelPath("blaze_face_short_range.tflite"))
        }
        #expect(throws: VisionTasksError.fileNotFound(path: "/no/such/pose_landmarker_full.task")) {
            _ = try PoseLandmarker(modelPath: "/no/such/pose_landmarker_full.task")
        }
    }

    @Test func enforcesModesAndTimestamps() throws {
        let picture = try PoseSupport.image("images/woman_sitting.jpg")
        let image = try PoseLandmarker(options: options())
        #expect(throws: VisionTasksError.self) { _ = try image.detect(videoFrame: picture, timestampInMilliseconds: 0) }
        let video = try PoseLandmarker(options: options(.video))
        #expect(throws: VisionTasksError.self) { _ = try video.detect(image: picture) }
        _ = try video.detect(videoFrame: picture, timestampInMilliseconds: 100)
        #expect(throws: VisionTasksError.self) {
            _ = try video.detect(videoFrame: picture, timestampInMilliseconds: 100)
        }
        #expect(throws: VisionTasksError.self) {
            _ = try video.detect(videoFrame: picture, timestampInMilliseconds: 50)
        }
        let r = try video.detect(videoFrame: picture, timestampInMilliseconds: 133)
        #expect(r.trackingIds == [0] && r.segmentationMasks == nil && r.jointAngles == nil)
        // reset() starts a new stream: earlier timestamps and ids from 0 again.
        try video.reset()
        #expect(try video.detect(videoFrame: picture, timestampInMilliseconds: 0).trackingIds == [0])
    }

    /// At the two ends of `FrameContext.timestampRange` the trackers' arithmetic holds: a person found at
    /// -4e12 ms and again at +4e12 ms is tracked and smoothed (nanoseconds and their difference fit in 64 bits);
    /// a timestamp past either end is refused. A live frame stamped Int64.max used to trap in the smoothing.
    @Test func theTimestampRangesEndsAreTrackedAndPastThemRefused() throws {
        let picture = try PoseSupport.image("images/woman_sitting.jpg")
        let video = try PoseLandmarker(options: options(.video))
        let range = FrameContext.timestampRange
        #expect(try video.detect(videoFrame: picture, timestampInMilliseconds: range.lowerBound).trackingIds == [0])
        #expect(try video.detect(videoFrame: picture, timestampInMilliseconds: range.upperBound).trackingIds == [0])
        try video.reset()
        for timestamp in [Int.max, range.upperBound + 1, Int.min] {
            #expect {
                _ = try video.detect(videoFrame: picture, timestampInMilliseconds: timestamp)
            } throws: { error in
                guard case VisionTasksError.invalidTimestamp(let message) = error else { return false }
                return message.contains("\(timestamp) ms") && message.contains("±4000000000000 ms")
            }
        }
    }

    @Test func findsNobodyInAnEmptyPicture() throws {
        let gray = [UInt8](repeating: 128, count: 64 * 48 * 3)
        let picture = try gray.withUnsafeBytes {
            try MPImage(pixels: $0, width: 64, height: 48, bytesPerRow: 64 * 3, format: .rgb8)
        }
        let o = options()
        o.outputSegmentationMasks = true
        o.outputJointAngles = true
        let r = try PoseLandmarker(options: o).detect(image: picture)
        #expect(
            r.landmarks.isEmpty && r.worldLandmarks.isEmpty && r.segmentationMasks == []
                && r.jointAngles?.isEmpty == true)
    }

    /// A mirrored photo swaps the person's left and right: each joint's angle on the mirror is the
    /// other side's on the photo, within 10° (the model is not mirror-symmetric: up to 6.6° seen).
    @Test func aMirroredPhotoSwapsLeftAndRight() throws {
        let photo = try PoseSupport.image("images/woman_sitting.jpg")
        let mirror = try remapped(photo) { x, y in (photo.bufferWidth - 1 - x, y) }
        let o = options()
        o.outputJointAngles = true
        let landmarker = try PoseLandmarker(options: o)
        let a = try #require(try landmarker.detect(image: photo).jointAngles?.first)
        let b = try #require(try landmarker.detect(image: mirror).jointAngles?.first)
        let pairs: [(PoseJoint, PoseJoint)] = [
            (.leftElbow, .rightElbow), (.leftShoulder, .rightShoulder), (.leftHip, .rightHip),
            (.leftKnee, .rightKnee), (.leftAnkle, .rightAnkle), (.leftWrist, .rightWrist),
        ]
        for (left, right) in pairs {
            let (al, ar, bl, br) = (a[left] ?? .nan, a[right] ?? .nan, b[left] ?? .nan, b[right] ?? .nan)
            #expect(abs(al - br) <= 10 && abs(ar - bl) <= 10, "\(left): photo \(al)/\(ar), mirror \(bl)/\(br)")
        }
        // The knees differ by far more than that on the photo (52°), so the check tells the sides apart.
        #expect(abs((a[.leftKnee] ?? 0) - (a[.rightKnee] ?? 0)) > 30)
    }

    /// With two people, MediaPipe smooths nobody; `smoothAllPoses` smooths each by id. On a still
    /// picture with fresh pixel noise in every frame, it cuts the landmarks' frame-to-frame motion.
    @Test func smoothAllPosesStillsBothPeople() throws {
        let base = try PoseSupport.image("references/pose/images/two_people.png")
        var state: UInt32 = 12345
        let frames = try (0..<8).map { _ in
            try remapped(base, { ($0, $1) }) { _, _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return Int(state >> 29) - 4
            }
        }
        func motion(smoothAll: Bool) throws -> Float {
            let o = options(.video)
            o.numPoses = 2
            o.smoothAllPoses = smoothAll
            let landmarker = try PoseLandmarker(options: o)
            var previous: [[NormalizedLandmark]]?, total: Float = 0, count = 0
            for (i, frame) in frames.enumerated() {
                let r = try landmarker.detect(videoFrame: frame, timestampInMilliseconds: i * 33)
                try #require(r.landmarks.count == 2 && r.trackingIds == [0, 1])
                if let previous {
                    for (p, q) in zip(previous, r.landmarks) {
                        for (a, b) in zip(p, q) {
                            total += abs(a.x - b.x) + abs(a.y - b.y)
                            count += 2
                        }
                    }
                }
                previous = r.landmarks
            }
            return total / Float(count)
        }
        let raw = try motion(smoothAll: false), smoothed = try motion(smoothAll: true)
        #expect(smoothed < raw * 0.5, "frame-to-frame motion: \(raw) unsmoothed, \(smoothed) smoothed")
    }

    @Test func masksRoundTripThroughTheirPNGAndJSON() throws {
        let mask = try Mask(width: 3, height: 2, float32Data: [0, 0.25, 0.5, 0.75, 1, 2])
        #expect(mask.uint8Data == [0, 64, 128, 191, 255, 255])
        let json = try ResultJSON.encode(mask)
        let back = try JSONDecoder().decode(Mask.self, from: json)
        #expect(
            back.width == 3 && back.height == 2
                && back.float32Data.map { ($0 * 255).rounded() } == [0, 64, 128, 191, 255, 255])
        // A mask written to a file is named in the JSON and read back from it.
        var written = mask
        written.file =
            FileManager.default.temporaryDirectory.appendingPathComponent("mask-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: written.file ?? "") }
        try mask.pngData().write(to: URL(fileURLWithPath: written.file ?? ""))
        let named = try JSONDecoder().decode(Mask.self, from: try ResultJSON.encode(written))
        #expect(named.file == written.file && named.uint8Data == mask.uint8Data)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(
                Mask.self, from: Data(#"{"width":3,"height":2,"file":"/no/such/mask.png"}"#.utf8))
        }
        #expect(throws: VisionTasksError.self) { _ = try Mask(width: 2, height: 2, float32Data: [1]) }
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(Mask.self, from: Data(#"{"width":3,"height":2,"png":"bm90IGEgcG5n"}"#.utf8))
        }
    }

    @Test func liveStreamDeliversInTimestampOrder() throws {
        let collector = Collector()
        let o = options(.liveStream)
        o.poseLandmarkerLiveStreamDelegate = collector
        let landmarker = try PoseLandmarker(options: o)
        let picture = try PoseSupport.image("images/woman_sitting.jpg")
        for t in stride(from: 0, to: 200, by: 40) {
            try landmarker.detectAsync(image: picture, timestampInMilliseconds: t)
        }
        #expect(throws: VisionTasksError.self) {
            try landmarker.detectAsync(image: picture, timestampInMilliseconds: 160)
        }
        landmarker.waitUntilIdle()
        let timestamps = collector.timestamps
        #expect(!timestamps.isEmpty && timestamps == timestamps.sorted() && timestamps.last == 160)
        #expect(collector.poses.allSatisfy { $0 == 1 })
    }
}
