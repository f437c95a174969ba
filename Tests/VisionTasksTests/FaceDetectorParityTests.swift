import Foundation
import Testing
import VisionTasks

/// The Face Detector against MediaPipe 1.2.2 (references from tools/references/make_face_detector_refs.py).
/// Tolerances: same number of faces in the same order; boxes within 1 px (2 px where the reference
/// box is MediaPipe's integer box turned from the unturned frame); keypoints within 1e-3; scores
/// within 1e-3.
@Suite struct FaceDetectorParityTests {
    @Test func imagesInEveryOrientationAndPixelFormatMatchMediaPipe() throws {
        let cases = try FaceDetectorSupport.imageCases()
        #expect(cases.count >= 45)
        var detectors: [String: FaceDetector] = [:]
        var worst: (box: Double, keypoint: Double, score: Float) = (0, 0, 0)
        for c in cases {
            let key = "\(c.minDetectionConfidence)/\(c.minSuppressionThreshold)"
            let detector =
                try detectors[key]
                ?? FaceDetectorSupport.detector(
                    confidence: c.minDetectionConfidence, suppression: c.minSuppressionThreshold)
            detectors[key] = detector
            let label = "\(c.image) turned \(c.quarterTurnsCCW)×90° by \(c.feed) \(c.pixelFormat) \(key)"
            let ours = try detector.detect(image: try FaceDetectorSupport.image(for: c))
            FaceDetectorSupport.expectMatches(ours, c.result, label, boxTolerance: c.feed == "orientation" ? 2 : 1)
            let e = FaceDetectorSupport.maxErrors(ours, c.result)
            worst = (max(worst.box, e.box), max(worst.keypoint, e.keypoint), max(worst.score, e.score))
        }
        print(
            "FaceDetector parity over \(cases.count) images: max box error \(worst.box) px, keypoint \(worst.keypoint), score \(worst.score)"
        )
    }

    @Test func videoModeMatchesMediaPipeFrameByFrame() throws {
        let frames = try FaceDetectorSupport.videoFrames()
        #expect(frames.count >= 8)
        let detector = try FaceDetectorSupport.detector(.video)
        for frame in frames {
            let image = try MPImage(contentsOfFile: FaceDetectorSupport.imagePath(frame.image))
            let ours = try detector.detect(videoFrame: image, timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(ours.timestampInMilliseconds == frame.timestampInMilliseconds)
            FaceDetectorSupport.expectMatches(ours, frame.result, frame.image)
        }
    }

    @Test func aTaskBundleHoldingTheDetectorGivesTheSameFaces() throws {
        let bundle = FaceDetectorSupport.root.appendingPathComponent("models/face_landmarker.task").path
        let fromBundle = try FaceDetector(modelPath: bundle)
        let fromFile = try FaceDetector(modelPath: FaceDetectorSupport.modelPath)
        let image = try MPImage(contentsOfFile: FaceDetectorSupport.imagePath("astronaut.png"))
        let a = try fromBundle.detect(image: image), b = try fromFile.detect(image: image)
        #expect(a == b)
        #expect(a.detections.count == 1)
    }

    @Test func resultJSONUsesTheIOSNames() throws {
        let detector = try FaceDetector(modelPath: FaceDetectorSupport.modelPath)
        let result = try detector.detect(
            image: try MPImage(contentsOfFile: FaceDetectorSupport.imagePath("astronaut.png")))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(result), as: UTF8.self)
        #expect(
            json.hasPrefix(
                #"{"detections":[{"boundingBox":{"height":95,"originX":177,"originY":82,"width":95},"#
                    + #""categories":[{"categoryName":null,"displayName":null,"index":0,"score":0.92173"#))
        #expect(json.contains(#"}],"keypoints":[{"label":null,"score":null,"x":0.3935"#))
        #expect(json.hasSuffix(#"}]}],"timestampInMilliseconds":0}"#))
        #expect(try JSONDecoder().decode(FaceDetectorResult.self, from: Data(json.utf8)) == result)
    }
}
