import FixtureSupport
import TFLite
import Testing

@testable import VisionTasks

@Test func blendshapeTablesMatchMediaPipesShapes() {
    #expect(FaceBlendshapes.landmarkSubset.count == 146)
    #expect(FaceBlendshapes.landmarkSubset.allSatisfy { (0..<478).contains($0) })
    #expect(FaceBlendshapes.landmarkSubset == FaceBlendshapes.landmarkSubset.sorted())
    #expect(Set(FaceBlendshapes.landmarkSubset).count == 146)
    #expect(FaceBlendshapes.names.count == 52 && Set(FaceBlendshapes.names).count == 52)
}

@Test
func blendshapeNamesAreMediaPipesInOrder() throws {
    // MediaPipe's own category names, in output order, from the references.
    let face = try #require(try FaceLandmarkerFixtures.load("astronaut").results.first?.faces.first)
    #expect(face.blendshapeNames == FaceBlendshapes.names)
}

@Test func blendshapeInputIsTheSubsetInPixels() {
    let landmarks = (0..<478).map { SIMD3<Float>(Float($0) / 1000, Float($0) / 2000, 0.5) }
    var input = [Float](repeating: -1, count: 292)
    input.withUnsafeMutableBufferPointer {
        FaceBlendshapes.writeInput(landmarks, imageWidth: 640, imageHeight: 480, into: $0)
    }
    #expect(input[0] == 0 && input[1] == 0)
    #expect(abs(input[2 * 145] - 0.477 * 640) < 1e-3 && abs(input[2 * 145 + 1] - 0.2385 * 480) < 1e-3)
    #expect(abs(input[2 * 12] - 0.033 * 640) < 1e-3)
}

// The blendshapes step alone: MediaPipe's own landmarks (references) through our input preparation
// and our engine must give MediaPipe's blendshape scores, within 1e-2 (issue #4's tolerance).
@Test(arguments: FaceLandmarkerFixtures.caseNames)
func blendshapesFromMediaPipeLandmarksMatchMediaPipe(caseName: String) throws {
    let bundle = try ModelBundle(contentsOfFile: FaceLandmarkerFixtures.modelPath)
    let model = try FaceBlendshapesModel(
        model: try bundle.model(named: FaceBlendshapesModel.bundleEntry),
        name: FaceBlendshapesModel.bundleEntry, numThreads: 1)
    let c = try FaceLandmarkerFixtures.load(caseName)
    let size = FaceLandmarkerFixtures.frameSize(c)
    var worst: Float = 0
    for frame in c.results {
        for face in frame.faces {
            let scores = try model.classify(face.points, imageWidth: size.width, imageHeight: size.height).categories
                .map(\.score)
            let error = zip(scores, face.blendshapes).map { abs($0 - $1) }.max() ?? 0
            worst = max(worst, error)
            #expect(error <= 1e-2, "\(caseName) frame \(frame.timestampMs): blendshape error \(error)")
        }
    }
    print("blendshapes from MediaPipe landmarks, \(caseName): max error \(worst)")
}
