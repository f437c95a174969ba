import Foundation
import Testing
import VideoIO
import VisionTasks

/// Per-frame results in VIDEO mode on a video made in the test, against MediaPipe 1.2.2's VIDEO
/// mode on the same decoded frames (tools/make_media_refs.py). Tolerances are the task issues':
/// Face Detector: same count, boxes within 1 px, keypoints within 1e-3, scores within 1e-3.
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
            baseOptions: BaseOptions(modelAssetPath: MediaReferences.models.appendingPathComponent("blaze_face_short_range.tflite").path),
            runningMode: .video)
        let detector = try FaceDetector(options: options)
        for (frame, want) in zip(frames, expected) {
            let got = try detector.detect(videoFrame: try frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(got.timestampInMilliseconds == frame.timestampInMilliseconds)
            try #require(got.detections.count == want.count, "frame \(frame.index): \(got.detections.count) faces, MediaPipe \(want.count)")
            for (d, w) in zip(got.detections, want) {
                let box = d.boundingBox
                let ours = [box.origin.x, box.origin.y, box.size.width, box.size.height].map { Int($0) }
                #expect(zip(ours, w.box).allSatisfy { abs($0 - $1) <= 1 }, "frame \(frame.index) box \(ours) vs \(w.box)")
                #expect(abs((d.categories.first?.score ?? -1) - w.score) <= 1e-3, "frame \(frame.index) score")
                let keypoints = d.keypoints ?? []
                #expect(keypoints.count == w.keypoints.count)
                for (k, wk) in zip(keypoints, w.keypoints) {
                    #expect(abs(Float(k.location.x) - wk[0]) <= 1e-3 && abs(Float(k.location.y) - wk[1]) <= 1e-3,
                            "frame \(frame.index) keypoint")
                }
            }
        }
    }
}
