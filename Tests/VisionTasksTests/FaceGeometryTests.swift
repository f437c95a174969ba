import FixtureSupport
import Foundation
import TFLite
import Testing

@testable import VisionTasks

// Parity of the face geometry step alone: MediaPipe's own landmarks (from the references) through
// our metric conversion and Procrustes solver must give MediaPipe's facial transformation matrix.
// Tolerances (issue #4): rotation/scale entries within 1e-2, translation within 0.5 cm.

private func geometryPipeline() throws -> FaceGeometryPipeline {
    let bundle = try ModelBundle(contentsOfFile: FaceLandmarkerFixtures.modelPath)
    let name = "geometry_pipeline_metadata_landmarks.binarypb"
    return FaceGeometryPipeline(metadata: try FaceGeometryMetadata(data: try bundle.data(named: name), name: name))
}

@Test
func geometryMetadataHoldsTheCanonicalMeshAndWeights() throws {
    let pipeline = try geometryPipeline()
    #expect(pipeline.metadata.canonicalLandmarks.count == 468)
    #expect(pipeline.metadata.weights.count == 468)
    #expect(pipeline.metadata.weights.filter { $0 > 0 }.count > 10)
}

@Test(arguments: FaceLandmarkerFixtures.caseNames)
func geometryFromMediaPipeLandmarksMatchesMediaPipeMatrix(caseName: String) throws {
    let pipeline = try geometryPipeline()
    let c = try FaceLandmarkerFixtures.load(caseName)
    let size = FaceLandmarkerFixtures.frameSize(c)
    var faces = 0
    for frame in c.results {
        for face in frame.faces {
            let m = try #require(
                try pipeline.poseTransform(landmarks: face.points, imageWidth: size.width, imageHeight: size.height))
            for r in 0..<3 {
                for col in 0..<3 {
                    #expect(abs(m[r * 4 + col] - face.matrix[r * 4 + col]) <= 1e-2, "\(caseName) [\(r)][\(col)]")
                }
                #expect(abs(m[r * 4 + 3] - face.matrix[r * 4 + 3]) <= 0.5, "\(caseName) translation \(r)")
            }
            faces += 1
        }
    }
    #expect(faces == c.results.reduce(0) { $0 + $1.faces.count })
}

@Test func geometryMetadataRejectsMalformedFiles() {
    for bad: [UInt8] in [[], [0x0a, 0x05, 0x1d], [0x0a, 0x02, 0x08, 0x01], [0x18, 0x02]] {
        #expect(throws: VisionTasksError.self) { try FaceGeometryMetadata(data: Data(bad), name: "bad.binarypb") }
    }
}

/// The hostile `procrustes_landmark_basis` entry of issue 10: landmark_id = 2^64 - 1 (a 10-byte varint),
/// which trapped in a conversion to Int.
private let hostileBasisEntry: [UInt8] = [0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]

@Test func geometryMetadataRefusesLandmarkIdsOutsideTheMesh() {
    // A one-vertex mesh (x y z u v packed), then a basis entry for vertex 0 with weight 1.
    var mesh: [UInt8] = [0x1a, 20]
    for value: Float in [1, 2, 3, 0, 0] { withUnsafeBytes(of: value.bitPattern.littleEndian) { mesh += $0 } }
    let valid: [UInt8] = [0x0a, UInt8(mesh.count)] + mesh + [0x12, 0x07, 0x08, 0x00, 0x15, 0x00, 0x00, 0x80, 0x3f]
    #expect(throws: Never.self) { try FaceGeometryMetadata(data: Data(valid), name: "ok.binarypb") }
    for (id, bytes) in [("18446744073709551615", hostileBasisEntry), ("1", [0x12, 0x02, 0x08, 0x01])] {
        #expect(
            throws: VisionTasksError.invalidModel(
                "bad.binarypb: procrustes_landmark_basis.landmark_id \(id) is outside the 1-vertex mesh")
        ) {
            try FaceGeometryMetadata(data: Data(valid + bytes), name: "bad.binarypb")
        }
    }
}

@Test
func faceLandmarkerRefusesAHostileGeometryEntry() throws {
    // The real bundle with the hostile entry appended to its geometry metadata: creating the task with
    // facial transformation matrixes on must throw an error naming the entry and the field, not trap.
    let entry = "geometry_pipeline_metadata_landmarks.binarypb"
    let full = try ModelBundle(contentsOfFile: FaceLandmarkerFixtures.modelPath)
    let bundle = try TestBundles.zip(
        full.fileNames.map { name in
            (name, name == entry ? try full.data(named: name) + Data(hostileBasisEntry) : try full.data(named: name))
        })
    let options = FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetBuffer: bundle))
    options.outputFacialTransformationMatrixes = true
    #expect {
        _ = try FaceLandmarker(options: options)
    } throws: { error in
        guard case VisionTasksError.invalidModel(let message) = error else { return false }
        return message.hasPrefix(
            "modelAssetBuffer: \(entry): procrustes_landmark_basis.landmark_id 18446744073709551615")
    }
}
