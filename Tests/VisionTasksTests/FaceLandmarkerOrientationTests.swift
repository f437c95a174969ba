import FixtureSupport
import Foundation
import TFLite
import Testing

@testable import VisionTasks

// Image orientation against MediaPipe 1.2.2's rotation_degrees (references in
// Tests/Fixtures/references/face_landmarker/rotation.json, tools/references/make_face_landmarker_refs.py; IMAGE
// mode and one VIDEO-mode sequence with faces entering and leaving): a picture's pixels stored turned k quarter turns counterclockwise, given with the orientation that
// turns them upright (MediaPipe: rotation_degrees 90·k). MediaPipe answers in the stored frame; the
// references hold its landmarks moved to the upright image, where our results are.
// Tolerances (issue #4, as FaceLandmarkerParityTests): landmark x and y mean |Δ| ≤ 5e-4, max |Δ| ≤ 5e-3;
// blendshape scores within 1e-2; matrix rotation/scale entries within 1e-2, translation within 0.5 cm.
// Blendshapes: MediaPipe computes them from the stored-frame (sideways) landmarks; ours are the
// upright face's, checked against Google's LiteRT blendshapes model on MediaPipe's upright landmarks.
// Matrix: MediaPipe's camera sees the stored frame; the upright matrix is checked where a frame change
// gives it (a half turn), and for every case our geometry step on MediaPipe's stored-frame landmarks
// must give MediaPipe's stored-frame matrix.

struct FaceRotationReferences: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        let mode: String
        let numFaces: Int
        let quarterTurnsCCW: Int
        let rotationDegrees: Int
        let image: String?
        let scene: FaceLandmarkerFixtures.Scene?
        let background: [UInt8]?
        let results: [Frame]
        var testDescription: String { name }
    }
    struct Frame: Decodable {
        let timestampMs: Int
        let faces: [Face]
    }
    struct Face: Decodable {
        let landmarks: [Float]
        let blendshapes: [Float]
        let blendshapeNames: [String]
        let matrix: [Float]?
        let bufferMatrix: [Float]
    }
    let cases: [Case]

    /// The 7 cases.
    static func cases() throws -> [Case] {
        let path = "face_landmarker/rotation.json"
        return try Fixture.expecting(7, Fixture.decode(FaceRotationReferences.self, path).cases, in: path)
    }
}

private func uprightPicture(_ c: FaceRotationReferences.Case, frame: Int, sprites: inout [String: SceneComposer.Sprite])
    throws -> MPImage
{
    if let file = c.image {
        return try MPImage(
            contentsOfFile: FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/\(file)").path)
    }
    let scene = try #require(c.scene), background = try #require(c.background)
    return try SceneComposer.compose(
        scene.frames[frame], canvas: scene.canvas, background: background, sprites: &sprites)
}

/// Row-major 4×4 matrices: the largest difference of the rotation/scale entries and of the translation.
private func matrixErrors(_ a: [Float], _ b: [Float]) -> (rotation: Float, translation: Float) {
    var rotation: Float = 0, translation: Float = 0
    for r in 0..<4 {
        for col in 0..<4 {
            let d = abs(a[r * 4 + col] - b[r * 4 + col])
            if col == 3 && r < 3 { translation = max(translation, d) } else { rotation = max(rotation, d) }
        }
    }
    return (rotation, translation)
}

@Test(arguments: try FaceRotationReferences.cases())
func faceLandmarkerOrientationMatchesMediaPipeRotation(_ c: FaceRotationReferences.Case) throws {
    let video = c.mode == "video"
    let landmarker = try FaceLandmarker(
        options: FaceLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: FaceLandmarkerFixtures.modelPath),
            runningMode: video ? .video : .image
        ) {
            $0.numFaces = c.numFaces
            $0.outputFaceBlendshapes = true
            $0.outputFacialTransformationMatrixes = true
        })
    let geometry = FaceGeometryPipeline(
        metadata: try FaceGeometryMetadata(
            data: try ModelBundle(contentsOfFile: FaceLandmarkerFixtures.modelPath).data(
                named: FaceLandmarkerGraph.geometryEntry),
            name: FaceLandmarkerGraph.geometryEntry))
    var sprites: [String: SceneComposer.Sprite] = [:]
    var worstMean: Float = 0, worstMax: Float = 0, worstBlendshape: Float = 0
    var worstRotation: Float = 0, worstTranslation: Float = 0, worstStoredRotation: Float = 0,
        worstStoredTranslation: Float = 0
    for (index, expected) in c.results.enumerated() {
        let label = "\(c.name) frame \(index)"
        let image = try TurnedImages.image(
            try uprightPicture(c, frame: index, sprites: &sprites), quarterTurnsCCW: c.quarterTurnsCCW)
        #expect(try image.orientation.rotationDegrees() == c.rotationDegrees)
        let result =
            video
            ? try landmarker.detect(videoFrame: image, timestampInMilliseconds: expected.timestampMs)
            : try landmarker.detect(image: image)
        try #require(
            result.faceLandmarks.count == expected.faces.count,
            "\(label): \(result.faceLandmarks.count) faces, MediaPipe \(expected.faces.count)")
        try #require(
            result.faceBlendshapes.count == expected.faces.count
                && result.facialTransformationMatrixes.count == expected.faces.count)
        let points = expected.faces.map { face in
            stride(from: 0, to: face.landmarks.count - 2, by: 3).map {
                SIMD3(face.landmarks[$0], face.landmarks[$0 + 1], face.landmarks[$0 + 2])
            }
        }
        // Video: ours by tracking id, MediaPipe's as its association left them; paired by position.
        let pairing = video ? nearestFaces(result.faceLandmarks, points) : Array(expected.faces.indices)
        for (f, face) in expected.faces.enumerated() {
            let ours = result.faceLandmarks[pairing[f]]
            let theirs = points[f]
            try #require(ours.count == 478 && theirs.count == 478)
            var sum: Float = 0, maxError: Float = 0
            for (p, q) in zip(ours, theirs) {
                let dx = abs(p.x - q.x), dy = abs(p.y - q.y)
                sum += dx + dy
                maxError = max(maxError, dx, dy)
            }
            let mean = sum / Float(2 * 478)
            #expect(mean <= 5e-4 && maxError <= 5e-3, "\(label) face \(f): landmark mean \(mean), max \(maxError)")
            worstMean = max(worstMean, mean)
            worstMax = max(worstMax, maxError)

            let scores = result.faceBlendshapes[pairing[f]].categories
            #expect(scores.map(\.categoryName) == face.blendshapeNames.map { Optional($0) })
            let blendshapeError = zip(scores, face.blendshapes).map { abs($0.score - $1) }.max() ?? 1
            #expect(blendshapeError <= 1e-2, "\(label) face \(f): blendshape error \(blendshapeError)")
            worstBlendshape = max(worstBlendshape, blendshapeError)

            if let reference = face.matrix {
                let m = result.facialTransformationMatrixes[pairing[f]]
                let e = matrixErrors((0..<16).map { m[$0 / 4, $0 % 4] }, reference)
                #expect(
                    e.rotation <= 1e-2 && e.translation <= 0.5,
                    "\(label) face \(f): matrix rotation \(e.rotation), translation \(e.translation)")
                worstRotation = max(worstRotation, e.rotation)
                worstTranslation = max(worstTranslation, e.translation)
            }
            // MediaPipe's matrix is the stored frame's: our geometry step on its stored-frame landmarks.
            let stored = theirs.map { p in
                let q = image.bufferPoint(fromUprightX: p.x, y: p.y)
                return SIMD3(q.x, q.y, p.z)
            }
            let m = try #require(
                try geometry.poseTransform(
                    landmarks: stored, imageWidth: image.bufferWidth, imageHeight: image.bufferHeight))
            let e = matrixErrors(m, face.bufferMatrix)
            #expect(
                e.rotation <= 1e-2 && e.translation <= 0.5,
                "\(label) face \(f): stored-frame matrix rotation \(e.rotation), translation \(e.translation)")
            worstStoredRotation = max(worstStoredRotation, e.rotation)
            worstStoredTranslation = max(worstStoredTranslation, e.translation)
        }
    }
    print(
        "face-landmarker orientation \(c.name): landmark mean \(worstMean) max \(worstMax), blendshapes \(worstBlendshape), matrix rotation \(worstRotation) translation \(worstTranslation), stored-frame matrix rotation \(worstStoredRotation) translation \(worstStoredTranslation)"
    )
}
