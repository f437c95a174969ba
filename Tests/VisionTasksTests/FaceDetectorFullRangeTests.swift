import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// The Face Detector with BlazeFace full range against legacy MediaPipe's full-range solution
/// (mediapipe 0.10.21, `FaceDetection(model_selection=1)`; references from
/// tools/references/make_face_full_range_refs.py) on the fixture photos and the far-face composites.
/// The legacy graph always decodes at a score of 0.6 (its pbtxt's threshold, whatever
/// min_detection_confidence says), so our detector runs with minDetectionConfidence 0.6.
/// Tolerances: the same faces in the same order; boxes within 1 px of the box MediaPipe's Tasks
/// would make of the legacy relative box (scaled, truncated); keypoints and scores within 1e-3.
@Suite
struct FaceDetectorFullRangeTests {
    static let modelPath = Fixture.modelPath("face_detection_full_range_sparse.tflite")
    static let referencePath = "face_detector/full_range.json"

    /// One face as the legacy solution reports it.
    struct LegacyFace: Decodable {
        /// The box a Tasks Face Detector would make of the legacy one, in pixels.
        struct PixelBox: Decodable { let originX, originY, width, height: Double }
        let score: Float
        let relativeBox: [Float]
        let boundingBox: PixelBox
        let keypoints: [[Double]]
    }

    struct Photo: Decodable {
        let image: String
        let faces: [LegacyFace]
    }
    struct Composite: Decodable {
        let background: String
        let side: Int
        let left: Int
        let top: Int
        let faces: [LegacyFace]
        let shortRangeFaces: [LegacyFace]
    }
    struct References: Decodable {
        let photos: [Photo]
        let composites: [Composite]
    }

    /// The full-range detector with the legacy graph's score threshold.
    static func detector() throws -> FaceDetector {
        try FaceDetector(
            options: FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: modelPath)) {
                $0.minDetectionConfidence = 0.6
            })
    }

    static func references() throws -> References {
        try Fixture.decode(References.self, referencePath)
    }

    /// Compares within the suite's tolerances; returns the largest box (px), keypoint and score differences.
    @discardableResult
    static func expectMatches(_ ours: FaceDetectorResult, _ legacy: [LegacyFace], _ label: String) -> (
        Double, Double, Float
    ) {
        #expect(
            ours.detections.count == legacy.count, "\(label): \(ours.detections.count) faces, MediaPipe \(legacy.count)"
        )
        var worst: (Double, Double, Float) = (0, 0, 0)
        for (a, b) in zip(ours.detections, legacy) {
            let r = b.boundingBox
            let box =
                [
                    abs(a.boundingBox.minX - r.originX), abs(a.boundingBox.minY - r.originY),
                    abs(a.boundingBox.width - r.width), abs(a.boundingBox.height - r.height),
                ].max() ?? 0
            #expect(box <= 1, "\(label): box \(a.boundingBox) vs \(b.boundingBox)")
            let score = abs((a.categories.first?.score ?? -1) - b.score)
            #expect(score <= 1e-3, "\(label): score \(a.categories.first?.score ?? -1) vs \(b.score)")
            let ka = a.keypoints ?? []
            #expect(
                ka.count == b.keypoints.count && b.keypoints.count == 6,
                "\(label): \(ka.count) keypoints vs \(b.keypoints.count)")
            var keypoint = 0.0
            for (p, q) in zip(ka, b.keypoints) {
                keypoint = max(keypoint, abs(p.location.x - q[0]), abs(p.location.y - q[1]))
            }
            #expect(keypoint <= 1e-3, "\(label): keypoints differ by up to \(keypoint)")
            worst = (max(worst.0, box), max(worst.1, keypoint), max(worst.2, score))
        }
        return worst
    }

    @Test func photosMatchLegacyMediaPipe() throws {
        let references = try Self.references()
        let photos = try Fixture.expecting(4, references.photos, in: Self.referencePath)
        let detector = try Self.detector()
        var worst: (Double, Double, Float) = (0, 0, 0)
        for photo in photos {
            let e = Self.expectMatches(
                try detector.detect(image: try MPImage(contentsOfFile: Fixture.path("images/\(photo.image)"))),
                photo.faces, photo.image)
            worst = (max(worst.0, e.0), max(worst.1, e.1), max(worst.2, e.2))
        }
        #expect(photos.map(\.faces.count).reduce(0, +) >= 2)
        print(
            "Full-range parity over \(photos.count) photos: max box error \(worst.0) px, keypoint \(worst.1), score \(worst.2)"
        )
    }

    @Test func farFaceCompositesMatchLegacyMediaPipe() throws {
        let references = try Self.references()
        let composites = try Fixture.expecting(20, references.composites, in: Self.referencePath)
        let detector = try Self.detector()
        var worst: (Double, Double, Float) = (0, 0, 0)
        var faces = 0
        for c in composites {
            let image = try FarFaceComposite.frame(side: c.side, background: c.background).image()
            let e = Self.expectMatches(try detector.detect(image: image), c.faces, "\(c.background) side \(c.side)")
            worst = (max(worst.0, e.0), max(worst.1, e.1), max(worst.2, e.2))
            faces += c.faces.count
        }
        #expect(faces >= 20)
        print(
            "Full-range parity over \(composites.count) composites (\(faces) faces): max box error \(worst.0) px, keypoint \(worst.1), score \(worst.2)"
        )
    }

    @Test func theModelIsRecognisedByItsInputAndOutputs() throws {
        // Full range finds the far face on the plain composite at a tenth of the frame's height,
        // where short range (the Tasks' model) finds nothing, as in legacy MediaPipe.
        let image = try FarFaceComposite.frame(side: 144, background: "plain").image()
        #expect(try FaceDetector(modelPath: Self.modelPath).detect(image: image).detections.count == 1)
        #expect(
            try FaceDetector(modelPath: Fixture.modelPath("blaze_face_short_range.tflite")).detect(image: image)
                .detections.isEmpty)
        // A model with another input is refused with what a face detector needs.
        do {
            _ = try FaceDetector(modelPath: Fixture.path("fuzz/tflite/ok-logistic.tflite"))
            Issue.record("a model without a face detector's input was accepted")
        } catch let error as VisionTasksError {
            guard case .unsupportedModel(let message) = error else { throw error }
            #expect(message.contains("1×128×128×3 (BlazeFace short range) or 1×192×192×3 (full range)"), "\(message)")
        }
    }
}
