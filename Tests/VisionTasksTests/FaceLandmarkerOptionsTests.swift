import FixtureSupport
import Foundation
import TFLite
import Testing

@testable import VisionTasks

// Bad input and running-mode rules of the FaceLandmarker: each a clear VisionTasksError, no crash.

private func options(_ edit: (FaceLandmarkerOptions) -> Void) -> FaceLandmarkerOptions {
    let o = FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: FaceLandmarkerFixtures.modelPath))
    edit(o)
    return o
}

private func expectInvalidOption(_ name: String, _ o: FaceLandmarkerOptions) {
    #expect {
        _ = try FaceLandmarker(options: o)
    } throws: { error in
        guard case VisionTasksError.invalidOption(let option, _) = error else { return false }
        return option == name
    }
}

@Test
func faceLandmarkerRejectsOptionsOutOfRange() {
    expectInvalidOption("numFaces", options { $0.numFaces = 0 })
    expectInvalidOption("minFaceDetectionConfidence", options { $0.minFaceDetectionConfidence = 1.5 })
    expectInvalidOption("minFacePresenceConfidence", options { $0.minFacePresenceConfidence = -0.1 })
    expectInvalidOption("minTrackingConfidence", options { $0.minTrackingConfidence = .nan })
    expectInvalidOption("faceLandmarkerLiveStreamDelegate", options { $0.runningMode = .liveStream })
}

@Test
func faceLandmarkerNeedsABundleNotABareModel() throws {
    let detector = FaceLandmarkerFixtures.root.appendingPathComponent("models/blaze_face_short_range.tflite").path
    #expect {
        _ = try FaceLandmarker(modelPath: detector)
    } throws: { error in
        guard case VisionTasksError.invalidBundle(let message) = error else { return false }
        return message.contains("blaze_face_short_range.tflite") && message.contains("not a .task bundle")
    }
}

@Test
func faceLandmarkerNamesTheMissingModelOfABundle() throws {
    let full = try ModelBundle(contentsOfFile: FaceLandmarkerFixtures.modelPath)
    for missing in ["face_detector.tflite", "face_landmarks_detector.tflite"] {
        let bundle = try TestBundles.zip(full.fileNames.filter { $0 != missing }.map { ($0, try full.data(named: $0)) })
        let o = FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetBuffer: bundle))
        #expect {
            _ = try FaceLandmarker(options: o)
        } throws: { error in
            guard case VisionTasksError.invalidBundle(let message) = error else { return false }
            return message.contains("has no \(missing)")
        }
    }
}

@Test
func faceLandmarkerEnforcesRunningModesAndTimestamps() throws {
    let image = try MPImage(
        contentsOfFile: FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/images/astronaut.png").path)
    let still = try FaceLandmarker(modelPath: FaceLandmarkerFixtures.modelPath)
    #expect(throws: VisionTasksError.self) { try still.detect(videoFrame: image, timestampInMilliseconds: 0) }
    let video = try FaceLandmarker(options: options { $0.runningMode = .video })
    #expect(throws: VisionTasksError.self) { try video.detect(image: image) }
    _ = try video.detect(videoFrame: image, timestampInMilliseconds: 10)
    #expect(throws: VisionTasksError.self) { try video.detect(videoFrame: image, timestampInMilliseconds: 10) }
    // Default options: no blendshapes, no matrices.
    let result = try still.detect(image: image)
    #expect(
        result.faceLandmarks.count == 1 && result.faceBlendshapes.isEmpty && result.facialTransformationMatrixes.isEmpty
    )
}

/// Collects live-stream results.
private final class Collector: FaceLandmarkerLiveStreamDelegate, @unchecked Sendable {
    let lock = NSLock()
    var timestamps: [Int] = []
    var faces: [Int] = []
    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        lock.withLock {
            timestamps.append(timestampInMilliseconds)
            faces.append(result?.faceLandmarks.count ?? -1)
        }
    }
}

@Test
func faceLandmarkerLiveStreamDeliversInOrder() throws {
    let image = try MPImage(
        contentsOfFile: FaceLandmarkerFixtures.root.appendingPathComponent("Tests/Fixtures/images/astronaut.png").path)
    let collector = Collector()
    let o = options { $0.runningMode = .liveStream }
    o.faceLandmarkerLiveStreamDelegate = collector
    let landmarker = try FaceLandmarker(options: o)
    for t in 0..<5 { try landmarker.detectAsync(image: image, timestampInMilliseconds: t * 33) }
    landmarker.waitUntilIdle()
    let (timestamps, faces) = collector.lock.withLock { (collector.timestamps, collector.faces) }
    #expect(!timestamps.isEmpty && timestamps == timestamps.sorted() && timestamps.last == 132)
    #expect(faces.allSatisfy { $0 == 1 })
}

@Test
func faceLandmarkerAppliesTheBundleLimit() throws {
    // The real bundle is 3.8 MB, all stored: any positive limit reads it; zero or less is an invalid option.
    let o = FaceLandmarkerOptions(
        baseOptions: BaseOptions(modelAssetPath: FaceLandmarkerFixtures.modelPath, maxDecompressedBundleBytes: 1))
    _ = try FaceLandmarker(options: o)
    o.baseOptions.maxDecompressedBundleBytes = 0
    expectInvalidOption("maxDecompressedBundleBytes", o)
    // A deflated copy needs its 3.8 MB inflated: refused under 1 MB, naming the option.
    let full = try ModelBundle(contentsOfFile: FaceLandmarkerFixtures.modelPath)
    let deflated = ZipWriter.archive(try full.fileNames.map { try .deflated($0, try full.data(named: $0)) })
    let small = FaceLandmarkerOptions(
        baseOptions: BaseOptions(modelAssetBuffer: deflated, maxDecompressedBundleBytes: 1 << 20))
    #expect {
        _ = try FaceLandmarker(options: small)
    } throws: { error in
        guard case VisionTasksError.invalidBundle(let message) = error else { return false }
        return message.contains("limit of 1048576 decompressed bytes")
            && message.contains("BaseOptions.maxDecompressedBundleBytes")
    }
    #expect(throws: Never.self) {
        _ = try FaceLandmarker(options: FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetBuffer: deflated)))
    }
}
