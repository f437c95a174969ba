import FixtureSupport
import Foundation
import TFLite
import Testing

@testable import VisionTasks

/// A model file can be well formed and still hostile: its weights decide every number the graph steps after it
/// read (scores, boxes, keypoints, landmarks, masks). Every task, with all its outputs asked for, over video
/// frames (the image-mode graph, then tracking and smoothing), must answer or throw, never trap, when every float
/// weight of its detector, or of its other models (the detector left sound, so that they run on what it
/// found), is +Inf, or noise of ±8 (scores of 1 with boxes and landmarks of any size). Weights that are NaN refuse
/// the model when the task is made (`invalidModel` naming the tensor: the kernels' clamps made NaN look like numbers).
@Suite struct PoisonedWeightsTests {
    /// The weights a poisoned model carries: one value everywhere, or noise from a fixed seed.
    enum Poison: CustomTestStringConvertible, CaseIterable {
        case nan, infinity, noise
        var testDescription: String { "\(self)" }

        /// The value of the `index`-th weight.
        func value(_ index: Int) -> Float {
            switch self {
            case .nan: return .nan
            case .infinity: return .infinity
            case .noise:
                var x = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D
                x ^= x >> 29
                x = x &* 0xBF58_476D_1CE4_E5B9
                x ^= x >> 32
                return (Float(x % 1_000_001) / 1_000_000 - 0.5) * 16
            }
        }
    }

    /// `data` (a `.tflite`, or a `.task` bundle: each model in it, nested bundles too; other files as they are)
    /// with every float32 and float16 constant tensor overwritten by `poison`: in every model, or in `part`.
    static func poisoned(_ data: Data, name: String, _ poison: Poison, _ part: Part?) throws -> Data {
        if name.hasSuffix(".task") {
            let bundle = try ModelBundle(data: data, name: name)
            let entries = try bundle.fileNames.map { entry in
                ZipWriter.Entry.stored(entry, try poisoned(try bundle.data(named: entry), name: entry, poison, part))
            }
            return ZipWriter.archive(entries, alignment: 16)
        }
        guard name.hasSuffix(".tflite") else { return data }
        if let part, (name.hasSuffix("_detector.tflite") && !name.contains("landmarks")) != (part == .detector) {
            return data
        }
        let model = try TFLiteModel(data: data, name: name)
        var bytes = [UInt8](data)
        var index = 0
        bytes.withUnsafeMutableBytes { raw in
            for tensor in model.subgraphs.flatMap(\.tensors) where tensor.type == .float32 || tensor.type == .float16 {
                let range = model.buffers[tensor.buffer].range
                let width = tensor.type == .float32 ? 4 : 2
                for offset in stride(from: range.lowerBound, to: range.upperBound - width + 1, by: width) {
                    let value = poison.value(index)
                    index += 1
                    if width == 4 {
                        raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                    } else {
                        raw.storeBytes(
                            of: Float16(value).bitPattern.littleEndian, toByteOffset: offset, as: UInt16.self)
                    }
                }
            }
        }
        return Data(bytes)
    }

    /// Which models of a bundle are poisoned: its detectors (`*_detector.tflite`), or all the others.
    enum Part: CaseIterable { case detector, others }

    /// Every poison with every part.
    static let cases = Poison.allCases.flatMap { poison in Part.allCases.map { (poison, $0) } }

    /// Options for the model file `name` under models/, its `part` poisoned (a lone `.tflite` always).
    static func base(_ name: String, _ poison: Poison, _ part: Part? = nil) throws -> BaseOptions {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixture.modelPath(name)))
        return BaseOptions(modelAssetBuffer: try poisoned(data, name: name, poison, part), numThreads: 2)
    }

    /// Runs three video frames (`frame` at each timestamp; the first runs the detector, the next track): a thrown
    /// `VisionTasksError` is an answer, and so is a result, encoded as the CLI and the server do (a NaN in it
    /// makes the encoder throw: an answer too).
    static func survive<Result: Encodable>(frame: (Int) throws -> Result) {
        func answer(_ body: () throws -> Result) {
            let result: Result
            do {
                result = try body()
            } catch {
                #expect(error is VisionTasksError, "\(error)")
                return
            }
            do {
                _ = try ResultJSONWriter.encode(result)
            } catch {
                // A NaN in the result: the encoder refuses it with an EncodingError, as Foundation's does.
                #expect(error is EncodingError, "\(error)")
            }
        }
        for t in 0..<3 { answer { try frame(t * 33) } }
    }

    /// `survive` for a task whose methods are named `detect`, created in video mode.
    static func survive<T: DetectingVisionTask>(_ task: T, on image: String) throws where T.TaskResult: Encodable {
        let picture = try MPImage(contentsOfFile: Fixture.path(image))
        survive { try task.detect(videoFrame: picture, timestampInMilliseconds: $0) }
    }

    static let people = "images/woman_sitting.jpg", hand = "images/hand_thumb_up.jpg"

    /// The task `make` creates, or nil for NaN weights, which must refuse it as an invalid model naming the NaN.
    static func made<T>(_ poison: Poison, _ make: () throws -> T) throws -> T? {
        guard poison == .nan else { return try make() }
        #expect {
            _ = try make()
        } throws: { error in
            guard case VisionTasksError.invalidModel(let message) = error else { return false }
            return message.contains("holds NaN")
        }
        return nil
    }

    @Test(arguments: Poison.allCases) func faceDetector(_ poison: Poison) throws {
        let base = try Self.base("blaze_face_short_range.tflite", poison)
        guard
            let task = try Self.made(
                poison,
                {
                    try FaceDetector(options: FaceDetectorOptions(baseOptions: base, runningMode: .video))
                })
        else { return }
        try Self.survive(task, on: Self.people)
    }

    @Test(arguments: Self.cases) func faceLandmarker(_ poison: Poison, _ part: Part) throws {
        let base = try Self.base("face_landmarker.task", poison, part)
        let options = FaceLandmarkerOptions(baseOptions: base, runningMode: .video) {
            ($0.numFaces, $0.outputFaceBlendshapes, $0.outputFacialTransformationMatrixes) = (2, true, true)
            $0.outputHeadPoses = true
        }
        guard let task = try Self.made(poison, { try FaceLandmarker(options: options) }) else { return }
        try Self.survive(task, on: Self.people)
    }

    @Test(arguments: Self.cases) func handLandmarker(_ poison: Poison, _ part: Part) throws {
        let base = try Self.base("hand_landmarker.task", poison, part)
        let options = HandLandmarkerOptions(baseOptions: base, runningMode: .video) { $0.numHands = 2 }
        guard let task = try Self.made(poison, { try HandLandmarker(options: options) }) else { return }
        try Self.survive(task, on: Self.hand)
    }

    @Test(arguments: Self.cases) func poseLandmarker(_ poison: Poison, _ part: Part) throws {
        let base = try Self.base("pose_landmarker_full.task", poison, part)
        let options = PoseLandmarkerOptions(baseOptions: base, runningMode: .video) {
            ($0.numPoses, $0.outputSegmentationMasks, $0.outputJointAngles) = (2, true, true)
        }
        guard let task = try Self.made(poison, { try PoseLandmarker(options: options) }) else { return }
        try Self.survive(task, on: Self.people)
    }

    @Test(arguments: Self.cases) func gestureRecognizer(_ poison: Poison, _ part: Part) throws {
        let base = try Self.base("gesture_recognizer.task", poison, part)
        guard
            let video = try Self.made(
                poison,
                {
                    try GestureRecognizer(options: GestureRecognizerOptions(baseOptions: base, runningMode: .video))
                })
        else { return }
        let picture = try MPImage(contentsOfFile: Fixture.path(Self.hand))
        Self.survive { try video.recognize(videoFrame: picture, timestampInMilliseconds: $0) }
    }

    @Test(arguments: Poison.allCases) func imageSegmenter(_ poison: Poison) throws {
        let base = try Self.base("selfie_segmenter.tflite", poison)
        let options = ImageSegmenterOptions(baseOptions: base, runningMode: .image)
        options.shouldOutputCategoryMask = true
        guard let segmenter = try Self.made(poison, { try ImageSegmenter(options: options) }) else { return }
        let result = try segmenter.segment(image: try MPImage(contentsOfFile: Fixture.path(Self.people)))
        #expect(result.confidenceMasks?.count == 1 && result.categoryMask != nil)
    }
}
