import Foundation
import Testing
import VisionTasks

/// Every `VisionTasksError` bridges to `NSError` as MediaPipe for iOS's errors do: domain
/// `com.google.mediapipe.tasks`, an `MPPTasksErrorCode` code, the message as description.
@Suite struct ErrorBridgingTests {
    /// One example of every case, with the MediaPipe code it must bridge to.
    static let cases: [(VisionTasksError, TasksErrorCode, Int)] = [
        (.fileNotFound(path: "/no/model.task"), .notFoundError, 5),
        (.fileUnreadable(path: "/root/model.task", reason: "permission denied"), .notFoundError, 5),
        (.fileUnwritable(path: "/no/folder/out.task", reason: "No such file or directory"), .invalidArgumentError, 3),
        (.invalidModel("model.tflite: truncated"), .invalidArgumentError, 3),
        (.unsupportedModel("operator FOO"), .unimplementedError, 12),
        (.invalidBundle("no hand_detector.tflite"), .invalidArgumentError, 3),
        (.invalidImage("x.png: truncated"), .invalidArgumentError, 3),
        (.invalidOption(name: "numFaces", reason: "must be at least 1, got 0"), .invalidArgumentError, 3),
        (.invalidArgument("wrong input size"), .invalidArgumentError, 3),
        (.runningModeMismatch("FaceDetector was created in IMAGE mode"), .failedPreconditionError, 9),
        (.invalidTimestamp("5 ms after 10 ms"), .invalidArgumentError, 3),
        (.processingFailed("invoke failed"), .internalError, 13),
        (.invalidVideo("clip.mp4: not a video"), .invalidArgumentError, 3),
    ]

    @Test(arguments: 0..<13) func bridgesWithMediaPipesDomainAndCode(index: Int) {
        #expect(Self.cases.count == 13)
        let (error, code, number) = Self.cases[index]
        let ns = error as NSError
        #expect(ns.domain == "com.google.mediapipe.tasks")
        #expect(ns.code == number && code.rawValue == number && error.tasksErrorCode == code)
        #expect(ns.localizedDescription == error.description)
        #expect(ns.userInfo[NSLocalizedDescriptionKey] as? String == error.description)
    }

    /// Thrown errors bridge the same way (what iOS code catching `NSError` sees).
    @Test func thrownErrorsBridge() throws {
        let thrown: (any Error)?
        do {
            _ = try FaceDetector(modelPath: "/no/such/model.tflite")
            thrown = nil
        } catch {
            thrown = error
        }
        let error = try #require(thrown, "creating a detector from a missing file did not throw")
        let ns = error as NSError
        #expect(ns.domain == VisionTasksError.errorDomain)
        #expect(ns.code == TasksErrorCode.notFoundError.rawValue)
        #expect(ns.localizedDescription == "File not found: /no/such/model.tflite")
    }

    /// `Delegate.GPU` is spelled as on iOS and rejected at creation, naming the option.
    @Test func gpuDelegateIsRejectedAtCreation() {
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = "/no/such/model.tflite"
        options.baseOptions.delegate = .GPU
        #expect(
            throws: VisionTasksError.invalidOption(
                name: "delegate", reason: "GPU is not available: VisionTasks runs on the CPU only (use .CPU)")
        ) {
            _ = try FaceDetector(options: options)
        }
        #expect(BaseOptions().delegate == .CPU)
    }
}
