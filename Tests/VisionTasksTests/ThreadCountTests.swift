import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// Work split over threads (kernels over channels or rows, the image-to-tensor warp over tensor
/// rows) computes each value as one thread would: two threads give exactly one thread's results.
/// Tolerance: exact.
@Suite(.enabled(if: Fixture.haveModels, "models/ not fetched: run make models"))
struct ThreadCountTests {
    private static func photo(_ name: String) throws -> MPImage {
        try MPImage(contentsOfFile: Fixture.repositoryRoot.appendingPathComponent("Tests/Fixtures/images/\(name)").path)
    }

    @Test func faceLandmarkerGivesTheSameNumbersOnTwoThreads() throws {
        let image = try Self.photo("astronaut.png")
        let results = try [1, 2].map { threads in
            let options = FaceLandmarkerOptions()
            options.baseOptions.modelAssetPath = Fixture.modelPath("face_landmarker.task")
            options.baseOptions.numThreads = threads
            options.outputFaceBlendshapes = true
            return try FaceLandmarker(options: options).detect(image: image)
        }
        #expect(results[0].faceLandmarks.count == 1)
        #expect(results[0] == results[1])
    }

    @Test func handLandmarkerGivesTheSameNumbersOnTwoThreads() throws {
        let image = try Self.photo("two_thumbs_up.jpg")
        let results = try [1, 2].map { threads in
            var base = BaseOptions(modelAssetPath: Fixture.modelPath("hand_landmarker.task"))
            base.numThreads = threads
            return try HandLandmarker(options: HandLandmarkerOptions(baseOptions: base, numHands: 2)).detect(image: image)
        }
        #expect(!results[0].landmarks.isEmpty)
        #expect(results[0] == results[1])
    }
}
