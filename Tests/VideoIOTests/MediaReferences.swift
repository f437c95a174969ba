import FixtureSupport
import Foundation

@testable import VideoIO

/// The test videos of tools/references/make_media_refs.py: made here with ffmpeg by the committed recipe,
/// decoded with VideoReader, and MediaPipe's VIDEO-mode results on the same frames.
enum MediaReferences {
    static let models = Fixture.repositoryRoot.appendingPathComponent("models")

    struct Recipe: Decodable {
        let photo: String
        let frames: Int
        let ffmpeg: [String]
    }

    struct FrameRef: Decodable {
        let index: Int
        let timestampMs: Int
        let byteSum: Int
    }

    struct FaceDetection: Decodable {
        let box: [Int]
        let score: Float
        let keypoints: [[Float]]
    }

    /// One hand: 21 landmarks [x, y, z], handedness [label, score], and for the gesture recognizer
    /// the top gesture [name or null, score, index].
    struct Hand: Decodable {
        let landmarks: [[Float]]
        let handedness: Label
        let gesture: Label?
    }

    /// A [name, score(, index)] array as make_media_refs.py writes it.
    struct Label: Decodable {
        let name: String?
        let score: Float
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            name = try c.decodeIfPresent(String.self)
            score = try c.decode(Float.self)
        }
    }

    /// One frame's Image Segmenter masks: 8-bit PNGs under media/ (confidence as round(255·p)).
    struct SegmenterFrame: Decodable {
        let confidenceMask: String
        let categoryMask: String
    }

    struct Reference: Decodable {
        let frames: [FrameRef]
        let faceDetector: [[FaceDetection]]?
        let faceLandmarker: [[[[Float]]]]?
        let handLandmarker: [[Hand]]?
        let gestureRecognizer: [[Hand]]?
        let imageSegmenter: [SegmenterFrame]?
    }

    /// Makes video `name` from its recipe in a scratch folder and decodes every frame.
    static func decodedVideo(_ name: String) throws -> (frames: [VideoFrame], reference: Reference) {
        let recipes = try Fixture.decode([String: Recipe].self, "media/recipes.json")
        guard let recipe = recipes[name] else {
            throw FixtureError.undecodable("media/recipes.json", "no recipe \(name)")
        }
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent(name + ".mp4")
        let photo = TestVideos.fixtures.appendingPathComponent(recipe.photo).path
        let arguments = recipe.ffmpeg.map { $0 == "{photo}" ? photo : $0 == "{out}" ? out.path : $0 }
        try TestVideos.run("ffmpeg", arguments)
        let reader = try VideoReader(contentsOfFile: out.path)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        let path = "media/\(name).json", reference = try Fixture.decode(Reference.self, path)
        // Every result list covers every decoded frame, so a comparison loop cannot run short.
        _ = try Fixture.expecting(recipe.frames, frames, in: "\(name) decoded frames")
        for results in [
            reference.frames.count, reference.faceDetector?.count, reference.faceLandmarker?.count,
            reference.handLandmarker?.count, reference.gestureRecognizer?.count, reference.imageSegmenter?.count,
        ].compactMap({ $0 }) {
            guard results == frames.count else {
                throw FixtureError.wrongCount(path, expected: frames.count, found: results)
            }
        }
        return (frames, reference)
    }

    static func byteSum(_ frame: VideoFrame) -> Int {
        frame.pixels.reduce(0) { $0 + Int($1) }
    }
}
