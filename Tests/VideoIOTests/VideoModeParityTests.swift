import Foundation
import Testing
import VideoIO
import VisionTasks

/// Per-frame results in VIDEO mode on a video made in the test, against MediaPipe 1.2.2's VIDEO
/// mode on the same decoded frames (tools/references/make_media_refs.py). Tolerances are the task issues':
/// Face Detector: same count, boxes within 1 px, keypoints within 1e-3, scores within 1e-3.
/// Face Landmarker: same face count; landmarks mean |Δx|,|Δy| ≤ 5e-4 and max ≤ 5e-3 (of image size).
@Suite struct VideoModeParityTests {
    @Test func framesAndTimestampsAreTheReferences() throws {
        let (frames, reference) = try MediaReferences.decodedVideo("face_pan")
        #expect(frames.count == reference.frames.count)
        #expect(frames.map(\.timestampInMilliseconds) == reference.frames.map(\.timestampMs))
        #expect(frames.map(\.index) == reference.frames.map(\.index))
        // Same ffmpeg, same recipe: the decoded pixels are the reference's (exact byte sums).
        #expect(frames.map(MediaReferences.byteSum) == reference.frames.map(\.byteSum))
    }

    @Test func faceDetectorVideoModeMatchesMediaPipe() throws {
        let (frames, reference) = try MediaReferences.decodedVideo("face_pan")
        let expected = try #require(reference.faceDetector)
        let options = FaceDetectorOptions(
            baseOptions: BaseOptions(
                modelAssetPath: MediaReferences.models.appendingPathComponent("blaze_face_short_range.tflite").path),
            runningMode: .video)
        let detector = try FaceDetector(options: options)
        for (frame, want) in zip(frames, expected) {
            let got = try detector.detect(
                videoFrame: frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(got.timestampInMilliseconds == frame.timestampInMilliseconds)
            try #require(
                got.detections.count == want.count,
                "frame \(frame.index): \(got.detections.count) faces, MediaPipe \(want.count)")
            for (d, w) in zip(got.detections, want) {
                let box = d.boundingBox
                let ours = [box.origin.x, box.origin.y, box.size.width, box.size.height].map { Int($0) }
                #expect(
                    zip(ours, w.box).allSatisfy { abs($0 - $1) <= 1 }, "frame \(frame.index) box \(ours) vs \(w.box)")
                #expect(abs((d.categories.first?.score ?? -1) - w.score) <= 1e-3, "frame \(frame.index) score")
                let keypoints = d.keypoints ?? []
                #expect(keypoints.count == w.keypoints.count)
                for (k, wk) in zip(keypoints, w.keypoints) {
                    #expect(
                        abs(Float(k.location.x) - wk[0]) <= 1e-3 && abs(Float(k.location.y) - wk[1]) <= 1e-3,
                        "frame \(frame.index) keypoint")
                }
            }
        }
    }

    @Test func faceLandmarkerVideoModeMatchesMediaPipe() throws {
        let (frames, reference) = try MediaReferences.decodedVideo("face_pan")
        let expected = try #require(reference.faceLandmarker)
        let options = FaceLandmarkerOptions(
            baseOptions: BaseOptions(
                modelAssetPath: MediaReferences.models.appendingPathComponent("face_landmarker.task").path),
            runningMode: .video)
        let landmarker = try FaceLandmarker(options: options)
        var sum: Double = 0, count = 0, worst: Float = 0
        for (frame, want) in zip(frames, expected) {
            let got = try landmarker.detect(
                videoFrame: frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
            try #require(
                got.faceLandmarks.count == want.count,
                "frame \(frame.index): \(got.faceLandmarks.count) faces, MediaPipe \(want.count)")
            for (face, wantFace) in zip(got.faceLandmarks, want) {
                try #require(face.count == wantFace.count)
                for (p, w) in zip(face, wantFace) {
                    let d = max(abs(p.x - w[0]), abs(p.y - w[1]))
                    worst = max(worst, d)
                    sum += Double(abs(p.x - w[0]) + abs(p.y - w[1])) / 2
                    count += 1
                }
            }
        }
        #expect(count > 0)
        let mean = sum / Double(max(count, 1))
        #expect(mean <= 5e-4, "mean |Δ| \(mean)")
        #expect(worst <= 5e-3, "max |Δ| \(worst)")
    }
}
