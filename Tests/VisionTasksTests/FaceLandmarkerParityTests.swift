import FixtureSupport
import Foundation
import Testing
import VisionCore

@testable import VisionTasks

// End-to-end parity with MediaPipe 1.2.2's FaceLandmarker (references from
// tools/references/make_face_landmarker_refs.py), IMAGE and VIDEO mode. Tolerances (issue #4): equal face
// counts; landmark x and y mean |Δ| ≤ 5e-4 and max |Δ| ≤ 5e-3 (fractions of the image size);
// blendshape scores within 1e-2; matrix rotation/scale entries within 1e-2, translation within 0.5 cm.

/// Rebuilds the scenes the reference tool composed: sprites pasted at integer offsets on a flat canvas.
enum SceneComposer {
    /// A decoded sprite: RGB rows.
    struct Sprite {
        let width: Int
        let height: Int
        let rgb: [UInt8]
    }

    /// Loads a sprite PNG from the reference directory as RGB.
    static func sprite(_ name: String) throws -> Sprite {
        let image = try MPImage(
            contentsOfFile: FaceLandmarkerFixtures.directory.appendingPathComponent("\(name).png").path)
        let w = image.bufferWidth, h = image.bufferHeight, format = image.bufferFormat
        let rgb: [UInt8] = image.withUnsafeBufferBytes { bytes in
            let bpp = format.bytesPerPixel
            var out = [UInt8](repeating: 0, count: w * h * 3)
            for i in 0..<(w * h) {
                switch format {
                case .rgb8, .rgba8: for c in 0..<3 { out[i * 3 + c] = bytes[i * bpp + c] }
                case .bgra8: for c in 0..<3 { out[i * 3 + c] = bytes[i * bpp + 2 - c] }
                case .gray8: for c in 0..<3 { out[i * 3 + c] = bytes[i] }
                }
            }
            return out
        }
        return Sprite(width: w, height: h, rgb: rgb)
    }

    /// The frame as an RGB image.
    static func compose(
        _ frame: FaceLandmarkerFixtures.SceneFrame, canvas: [Int], background: [UInt8],
        sprites: inout [String: Sprite]
    ) throws -> MPImage {
        let w = canvas[0], h = canvas[1]
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) { for c in 0..<3 { pixels[i * 3 + c] = background[c] } }
        for s in frame.sprites {
            if sprites[s.name] == nil { sprites[s.name] = try sprite(s.name) }
            guard let sprite = sprites[s.name] else { continue }
            for y in max(s.y, 0)..<min(s.y + sprite.height, h) {
                for x in max(s.x, 0)..<max(max(s.x, 0), min(s.x + sprite.width, w)) {
                    var sx = x - s.x
                    if s.flip { sx = sprite.width - 1 - sx }
                    let src = ((y - s.y) * sprite.width + sx) * 3, dst = (y * w + x) * 3
                    for c in 0..<3 { pixels[dst + c] = sprite.rgb[src + c] }
                }
            }
        }
        return try pixels.withUnsafeBytes {
            try MPImage(pixels: $0, width: w, height: h, bytesPerRow: w * 3, format: .rgb8)
        }
    }
}

/// The worst differences seen over a case, for the test log.
private struct Errors {
    var meanLandmark: Float = 0, maxLandmark: Float = 0, blendshape: Float = 0, rotation: Float = 0,
        translation: Float = 0
}

/// For each of MediaPipe's faces (its landmarks), the index of our face nearest to it (mean landmark
/// distance), each of ours used once; the counts are equal. Video results list faces by tracking id,
/// MediaPipe's as its association left them.
func nearestFaces(_ ours: [[NormalizedLandmark]], _ reference: [[SIMD3<Float>]]) -> [Int] {
    var free = Array(ours.indices)
    return reference.map { points in
        func distance(_ i: Int) -> Float {
            zip(ours[i], points).map { abs($0.x - $1.x) + abs($0.y - $1.y) }.reduce(0, +)
        }
        let best = free.min { distance($0) < distance($1) } ?? 0
        free.removeAll { $0 == best }
        return best
    }
}

@Test(arguments: FaceLandmarkerFixtures.caseNames)
func faceLandmarkerMatchesMediaPipe(caseName: String) throws {
    let c = try FaceLandmarkerFixtures.load(caseName)
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
    var sprites: [String: SceneComposer.Sprite] = [:]
    var worst = Errors()
    for (index, expected) in c.results.enumerated() {
        let image: MPImage
        if let file = c.image {
            image = try MPImage(
                contentsOfFile: FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/\(file)").path)
        } else {
            let scene = try #require(c.scene)
            image = try SceneComposer.compose(
                scene.frames[index], canvas: scene.canvas, background: c.background, sprites: &sprites)
        }
        let result =
            video
            ? try landmarker.detect(videoFrame: image, timestampInMilliseconds: expected.timestampMs)
            : try landmarker.detect(image: image)
        let label = "\(caseName) frame \(index)"
        #expect(result.timestampInMilliseconds == (video ? expected.timestampMs : 0), "\(label)")
        try #require(
            result.faceLandmarks.count == expected.faces.count,
            "\(label): \(result.faceLandmarks.count) faces, MediaPipe \(expected.faces.count)")
        #expect(
            result.faceBlendshapes.count == expected.faces.count
                && result.facialTransformationMatrixes.count == expected.faces.count,
            "\(label)")
        // Video: our faces are ordered by tracking id, MediaPipe's as its association left them;
        // paired by position. Image: the same order.
        let pairing =
            video ? nearestFaces(result.faceLandmarks, expected.faces.map(\.points)) : Array(expected.faces.indices)
        for (f, face) in expected.faces.enumerated() {
            let ours = result.faceLandmarks[pairing[f]]
            try #require(ours.count == 478)
            var sum: Float = 0, maxError: Float = 0
            for (i, p) in face.points.enumerated() {
                let dx = abs(ours[i].x - p.x), dy = abs(ours[i].y - p.y)
                sum += dx + dy
                maxError = max(maxError, dx, dy)
            }
            let mean = sum / Float(2 * 478)
            #expect(mean <= 5e-4 && maxError <= 5e-3, "\(label) face \(f): landmark mean \(mean), max \(maxError)")
            let scores = result.faceBlendshapes[pairing[f]].categories
            #expect(scores.map(\.categoryName) == face.blendshapeNames.map { Optional($0) })
            let blendshapeError = zip(scores, face.blendshapes).map { abs($0.score - $1) }.max() ?? 0
            #expect(blendshapeError <= 1e-2, "\(label) face \(f): blendshape error \(blendshapeError)")
            let m = result.facialTransformationMatrixes[pairing[f]]
            var rotation: Float = 0, translation: Float = 0
            for r in 0..<4 {
                for col in 0..<4 {
                    let d = abs(m[r, col] - face.matrix[r * 4 + col])
                    if col == 3 && r < 3 { translation = max(translation, d) } else { rotation = max(rotation, d) }
                }
            }
            #expect(
                rotation <= 1e-2 && translation <= 0.5,
                "\(label) face \(f): matrix rotation \(rotation), translation \(translation)")
            worst.meanLandmark = max(worst.meanLandmark, mean)
            worst.maxLandmark = max(worst.maxLandmark, maxError)
            worst.blendshape = max(worst.blendshape, blendshapeError)
            worst.rotation = max(worst.rotation, rotation)
            worst.translation = max(worst.translation, translation)
        }
    }
    print(
        "face-landmarker parity \(caseName): landmark mean \(worst.meanLandmark) max \(worst.maxLandmark), blendshapes \(worst.blendshape), matrix rotation \(worst.rotation) translation \(worst.translation)"
    )
}
