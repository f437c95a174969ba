import FixtureSupport
import Foundation
import TFLite
import Testing

@testable import VisionTasks

/// The Face Landmarker references written by tools/references/make_face_landmarker_refs.py (MediaPipe 1.2.2).
enum FaceLandmarkerFixtures {
    /// The repository root (three levels above this file).
    static let root = Fixture.repositoryRoot
    /// The reference directory.
    static var directory: URL { Fixture.references.appendingPathComponent("face_landmarker") }
    /// The face landmarker bundle (fetched by `make models`).
    static let modelPath = root.appendingPathComponent("models/face_landmarker.task").path

    /// Every case's name.
    static let caseNames = [
        "astronaut", "woman_sitting", "two_faces", "four_faces_two_kept",
        "video_one_face_moving", "video_two_faces_enter_leave",
    ]

    /// Loads one case.
    static func load(_ name: String) throws -> Case {
        try Fixture.decode(Case.self, "face_landmarker/\(name).json")
    }

    /// One reference case: an image file or a composed scene, the options, and MediaPipe's results.
    struct Case: Decodable {
        let name: String
        let mode: String
        let numFaces: Int
        let image: String?
        let scene: Scene?
        let background: [UInt8]
        let results: [FrameResult]

        /// The frame's size in pixels (the scene's canvas, or the image file's size given by the caller).
        var canvas: (width: Int, height: Int)? { scene.map { ($0.canvas[0], $0.canvas[1]) } }
    }

    /// Frames composed from sprites pasted on a flat canvas.
    struct Scene: Decodable {
        let canvas: [Int]
        let frames: [SceneFrame]
    }

    /// One composed frame.
    struct SceneFrame: Decodable {
        let timestampMs: Int
        let sprites: [Sprite]
    }

    /// A sprite PNG pasted with its top-left corner at (x, y), mirrored when `flip`.
    struct Sprite: Decodable {
        let name: String
        let x: Int
        let y: Int
        let flip: Bool
    }

    /// MediaPipe's result for one frame.
    struct FrameResult: Decodable {
        let timestampMs: Int
        let faces: [Face]
    }

    /// One face: 478 × (x, y, z), 52 blendshape scores and their names, the row-major 4×4 matrix.
    struct Face: Decodable {
        let landmarks: [Float]
        let blendshapes: [Float]
        let blendshapeNames: [String]
        let matrix: [Float]

        /// The landmarks as points.
        var points: [SIMD3<Float>] {
            stride(from: 0, to: landmarks.count - 2, by: 3).map {
                SIMD3(landmarks[$0], landmarks[$0 + 1], landmarks[$0 + 2])
            }
        }
    }

    /// The frame size of a case: the scene's canvas or the image file's known size.
    static func frameSize(_ c: Case) -> (width: Int, height: Int) {
        if let canvas = c.canvas { return canvas }
        switch c.image {
        case "images/astronaut.png": return (512, 512)
        case "images/woman_sitting.jpg": return (960, 640)
        default: return (0, 0)
        }
    }
}
