import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// Paths, references and comparisons shared by the Face Detector tests.
enum FaceDetectorSupport {
    /// The repository root (three levels above this file).
    static let root = Fixture.repositoryRoot
    /// The BlazeFace short-range model fetched by `make models`.
    static let modelPath = root.appendingPathComponent("models/blaze_face_short_range.tflite").path

    /// A fixture image: `references/...` under Tests/Fixtures, anything else under Tests/Fixtures/images.
    static func imagePath(_ name: String) -> String {
        let relative = name.hasPrefix("references/") ? "Tests/Fixtures/\(name)" : "Tests/Fixtures/images/\(name)"
        return root.appendingPathComponent(relative).path
    }

    /// One MediaPipe IMAGE-mode reference (see tools/references/make_face_detector_refs.py).
    struct ImageCase: Decodable {
        let image: String
        let quarterTurnsCCW: Int
        /// "rotatedPixels" (the turned pixels, upright) or "orientation" (the unturned pixels with
        /// the MPImage orientation whose upright image is the turn).
        let feed: String
        let pixelFormat: String
        let minDetectionConfidence: Float
        let minSuppressionThreshold: Float
        let result: FaceDetectorResult
    }

    /// One MediaPipe VIDEO-mode reference frame.
    struct VideoFrame: Decodable {
        let image: String
        let timestampInMilliseconds: Int
        let result: FaceDetectorResult
    }

    static func imageCases() throws -> [ImageCase] {
        struct File: Decodable { let cases: [ImageCase] }
        return try Fixture.decode(File.self, "face_detector/images.json").cases
    }

    static func videoFrames() throws -> [VideoFrame] {
        struct File: Decodable { let frames: [VideoFrame] }
        return try Fixture.decode(File.self, "face_detector/video.json").frames
    }

    /// A detector with the given options.
    static func detector(
        _ mode: RunningMode = .image, confidence: Float = 0.5, suppression: Float = 0.3,
        delegate: (any FaceDetectorLiveStreamDelegate)? = nil
    ) throws -> FaceDetector {
        let options = FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: modelPath), runningMode: mode) {
            $0.minDetectionConfidence = confidence
            $0.minSuppressionThreshold = suppression
        }
        options.faceDetectorLiveStreamDelegate = delegate
        return try FaceDetector(options: options)
    }

    /// Compares with MediaPipe's result within the tolerances: same number of faces, in
    /// the same order; box origin and size within `boxTolerance` px (1, or 2 where the reference
    /// box was turned from MediaPipe's integer box in the unturned frame); keypoints within 1e-3;
    /// scores within 1e-3.
    static func expectMatches(
        _ ours: FaceDetectorResult, _ reference: FaceDetectorResult, _ label: String,
        boxTolerance: Double = 1
    ) {
        #expect(
            ours.detections.count == reference.detections.count,
            "\(label): \(ours.detections.count) faces, MediaPipe \(reference.detections.count)")
        for (a, b) in zip(ours.detections, reference.detections) {
            let boxes = [
                (a.boundingBox.origin.x, b.boundingBox.origin.x), (a.boundingBox.origin.y, b.boundingBox.origin.y),
                (a.boundingBox.width, b.boundingBox.width), (a.boundingBox.height, b.boundingBox.height),
            ]
            #expect(
                boxes.allSatisfy { abs($0.0 - $0.1) <= boxTolerance },
                "\(label): box \(a.boundingBox) vs \(b.boundingBox)")
            let scoreA = a.categories.first?.score ?? -1, scoreB = b.categories.first?.score ?? -2
            #expect(abs(scoreA - scoreB) <= 1e-3, "\(label): score \(scoreA) vs \(scoreB)")
            #expect(a.categories.map(\.index) == b.categories.map(\.index))
            let ka = a.keypoints ?? [], kb = b.keypoints ?? []
            #expect(ka.count == kb.count, "\(label): \(ka.count) keypoints vs \(kb.count)")
            for (p, q) in zip(ka, kb) {
                #expect(
                    abs(p.location.x - q.location.x) <= 1e-3 && abs(p.location.y - q.location.y) <= 1e-3,
                    "\(label): keypoint \(p.location) vs \(q.location)")
            }
        }
    }

    /// The largest differences from MediaPipe over matched faces: box px, keypoint, score.
    static func maxErrors(_ ours: FaceDetectorResult, _ reference: FaceDetectorResult) -> (
        box: Double, keypoint: Double, score: Float
    ) {
        var box = 0.0, keypoint = 0.0, score: Float = 0
        for (a, b) in zip(ours.detections, reference.detections) {
            box = max(
                box, abs(a.boundingBox.origin.x - b.boundingBox.origin.x),
                abs(a.boundingBox.origin.y - b.boundingBox.origin.y),
                abs(a.boundingBox.width - b.boundingBox.width), abs(a.boundingBox.height - b.boundingBox.height))
            score = max(score, abs((a.categories.first?.score ?? 0) - (b.categories.first?.score ?? 0)))
            for (p, q) in zip(a.keypoints ?? [], b.keypoints ?? []) {
                keypoint = max(keypoint, abs(p.location.x - q.location.x), abs(p.location.y - q.location.y))
            }
        }
        return (box, keypoint, score)
    }

    /// The image of a reference case: the file with an orientation, the file's pixels turned, or a
    /// raw frame built from its pixels.
    static func image(for c: ImageCase) throws -> MPImage {
        let orientations: [ImageOrientation] = [.up, .left, .down, .right]
        let path = imagePath(c.image)
        if c.feed == "orientation" {
            return try MPImage(contentsOfFile: path, orientation: orientations[c.quarterTurnsCCW])
        }
        if c.pixelFormat == "rgb8" {
            return try turned(MPImage(contentsOfFile: path), quarterTurnsCCW: c.quarterTurnsCCW)
        }
        return try rawFrame(MPImage(contentsOfFile: path), format: c.pixelFormat)
    }

    /// The decoded pixels turned `k` × 90° counterclockwise (numpy.rot90), as a new upright frame.
    static func turned(_ decoded: MPImage, quarterTurnsCCW k: Int) throws -> MPImage {
        guard k % 4 != 0 else { return decoded }
        var pixels: [UInt8] = decoded.withUnsafeBufferBytes { Array($0) }
        var width = decoded.bufferWidth, height = decoded.bufferHeight
        let bpp = decoded.bufferFormat.bytesPerPixel
        for _ in 0..<(k % 4) {
            // One counterclockwise turn: new (row r, column c) = old (row c, column width − 1 − r).
            var out = [UInt8](repeating: 0, count: pixels.count)
            for r in 0..<width {
                for c in 0..<height {
                    let from = (c * width + (width - 1 - r)) * bpp, to = (r * height + c) * bpp
                    for b in 0..<bpp { out[to + b] = pixels[from + b] }
                }
            }
            pixels = out
            swap(&width, &height)
        }
        return try pixels.withUnsafeBytes {
            try MPImage(
                pixels: $0, width: width, height: height, bytesPerRow: width * bpp, format: decoded.bufferFormat)
        }
    }

    /// A raw frame in `format` ("rgba8" with alpha 128, "bgra8", or "gray8" with the reference's
    /// integer luma) with 12 padding bytes per row, from a decoded RGB image.
    static func rawFrame(_ decoded: MPImage, format: String) throws -> MPImage {
        let width = decoded.bufferWidth, height = decoded.bufferHeight
        let channels = decoded.bufferFormat.bytesPerPixel
        let rgb: [UInt8] = decoded.withUnsafeBufferBytes { Array($0) }
        let outChannels = format == "gray8" ? 1 : 4
        let stride = width * outChannels + 12
        var out = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * channels
                let (r, g, b) = (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
                let o = y * stride + x * outChannels
                switch format {
                case "rgba8": (out[o], out[o + 1], out[o + 2], out[o + 3]) = (UInt8(r), UInt8(g), UInt8(b), 128)
                case "bgra8": (out[o], out[o + 1], out[o + 2], out[o + 3]) = (UInt8(b), UInt8(g), UInt8(r), 128)
                default: out[o] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
                }
            }
        }
        let pixelFormat: PixelFormat = format == "rgba8" ? .rgba8 : format == "bgra8" ? .bgra8 : .gray8
        return try out.withUnsafeBytes {
            try MPImage(pixels: $0, width: width, height: height, bytesPerRow: stride, format: pixelFormat)
        }
    }
}
