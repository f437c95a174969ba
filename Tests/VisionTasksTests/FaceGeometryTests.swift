import Foundation
import Testing
import TFLite
@testable import VisionTasks

// Parity of the face geometry step alone: MediaPipe's own landmarks (from the references) through
// our metric conversion and Procrustes solver must give MediaPipe's facial transformation matrix.
// Tolerances (issue #4): rotation/scale entries within 1e-2, translation within 0.5 cm.

private func geometryPipeline() throws -> FaceGeometryPipeline {
    let bundle = try ModelBundle(contentsOfFile: FaceLandmarkerFixtures.modelPath)
    let name = "geometry_pipeline_metadata_landmarks.binarypb"
    return FaceGeometryPipeline(metadata: try FaceGeometryMetadata(data: try bundle.data(named: name), name: name))
}

@Test(.enabled(if: FaceLandmarkerFixtures.haveModels))
func geometryMetadataHoldsTheCanonicalMeshAndWeights() throws {
    let pipeline = try geometryPipeline()
    #expect(pipeline.metadata.canonicalLandmarks.count == 468)
    #expect(pipeline.metadata.weights.count == 468)
    #expect(pipeline.metadata.weights.filter { $0 > 0 }.count > 10)
}

@Test(.enabled(if: FaceLandmarkerFixtures.haveModels), arguments: FaceLandmarkerFixtures.caseNames)
func geometryFromMediaPipeLandmarksMatchesMediaPipeMatrix(caseName: String) throws {
    let pipeline = try geometryPipeline()
    let c = try FaceLandmarkerFixtures.load(caseName)
    let size = FaceLandmarkerFixtures.frameSize(c)
    var faces = 0
    for frame in c.results {
        for face in frame.faces {
            let m = try #require(try pipeline.poseTransform(landmarks: face.points, imageWidth: size.width, imageHeight: size.height))
            for r in 0..<3 {
                for col in 0..<3 { #expect(abs(m[r * 4 + col] - face.matrix[r * 4 + col]) <= 1e-2, "\(caseName) [\(r)][\(col)]") }
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
