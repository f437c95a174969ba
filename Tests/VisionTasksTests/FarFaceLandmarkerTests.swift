import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// The Face Landmarker with BlazeFace full range as its face detector (`faceDetectorModelAssetPath`)
/// on far-face composites, against MediaPipe 1.2.2's own Face Landmarker run on an enlarged crop of
/// each face (references from tools/references/make_far_face_mesh_refs.py). Tolerance: a mesh for every face
/// the full-range detector finds, each within 2% of the face's width on average over the 478 landmarks (x, y).
@Suite
struct FarFaceLandmarkerTests {
    static let referencePath = "face_landmarker/far_faces.json"

    struct Face: Decodable { let landmarks: [[Double]] }
    struct Case: Decodable {
        let background: String
        let side: Int
        let faces: [Face]
    }
    struct References: Decodable { let cases: [Case] }

    static func landmarker(faceDetector: String?, numFaces: Int) throws -> FaceLandmarker {
        try FaceLandmarker(
            options: FaceLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixture.modelPath("face_landmarker.task"))
            ) {
                $0.numFaces = numFaces
                $0.faceDetectorModelAssetPath = faceDetector
            })
    }

    @Test func farFacesGetMediaPipesMeshThroughTheFullRangeDetector() throws {
        let cases = try Fixture.expecting(
            2, try Fixture.decode(References.self, Self.referencePath).cases, in: Self.referencePath)
        let (width, height) = (Double(FarFaceComposite.frameWidth), Double(FarFaceComposite.frameHeight))
        var errors: [Double] = []
        for c in cases {
            let image = try FarFaceComposite.frame(side: c.side, background: c.background).image()
            let full = try Self.landmarker(
                faceDetector: Fixture.modelPath("face_detection_full_range_sparse.tflite"),
                numFaces: c.faces.count + 1)
            let ours = try full.detect(image: image).faceLandmarks
            #expect(
                ours.count == c.faces.count,
                "\(c.background) side \(c.side): \(ours.count) meshes, \(c.faces.count) faces")
            for (index, reference) in c.faces.enumerated() {
                let xs = reference.landmarks.map { $0[0] * width }
                let faceWidth = (xs.max() ?? 0) - (xs.min() ?? 0)
                let centre = (
                    x: xs.reduce(0, +) / Double(xs.count),
                    y: reference.landmarks.map { $0[1] * height }.reduce(0, +) / Double(xs.count)
                )
                // Our mesh for this face: the one whose centre is nearest.
                guard
                    let mesh = ours.min(by: {
                        distance($0, to: centre, width, height) < distance($1, to: centre, width, height)
                    }),
                    mesh.count == reference.landmarks.count
                else {
                    Issue.record("\(c.background) side \(c.side): no mesh for face \(index)")
                    continue
                }
                let mean =
                    zip(mesh, reference.landmarks).map { p, q in
                        hypot(Double(p.x) * width - q[0] * width, Double(p.y) * height - q[1] * height)
                    }.reduce(0, +) / Double(mesh.count)
                let relative = mean / faceWidth
                errors.append(relative)
                #expect(
                    relative <= 0.02,
                    "\(c.background) side \(c.side) face \(index): mean error \(mean) px of a \(faceWidth) px wide face"
                )
            }
        }
        #expect(errors.count == 3)
        print(
            "Far-face meshes vs MediaPipe 1.2.2 on enlarged crops: mean error per face (of face width) \(errors.map { String(format: "%.4f", $0) })"
        )
    }

    @Test func theBundlesShortRangeDetectorMissesTheFarFace() throws {
        // Without the option, the landmarker is MediaPipe's: the far face at a tenth of the frame's height is not found.
        let image = try FarFaceComposite.frame(side: 144, background: "plain").image()
        #expect(try Self.landmarker(faceDetector: nil, numFaces: 1).detect(image: image).faceLandmarks.isEmpty)
    }

    @Test func aMissingOrEmptyDetectorPathIsAClearError() throws {
        #expect(throws: VisionTasksError.invalidOption(name: "faceDetectorModelAssetPath", reason: "is empty")) {
            try Self.landmarker(faceDetector: "", numFaces: 1)
        }
        #expect(throws: VisionTasksError.self) {
            try Self.landmarker(faceDetector: "/no/such/detector.tflite", numFaces: 1)
        }
    }
}

/// How far a mesh's centre is from `point`, in pixels.
private func distance(_ mesh: [NormalizedLandmark], to point: (x: Double, y: Double), _ width: Double, _ height: Double)
    -> Double
{
    let n = Double(max(mesh.count, 1))
    let x = mesh.map { Double($0.x) * width }.reduce(0, +) / n, y = mesh.map { Double($0.y) * height }.reduce(0, +) / n
    return hypot(x - point.x, y - point.y)
}
