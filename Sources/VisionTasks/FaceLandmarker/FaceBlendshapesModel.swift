import Foundation
import Inference
import TFLite
import VisionCore
import VisionErrors

/// MediaPipe's single-face landmarks graph around `face_landmarks_detector.tflite`: the rotated
/// face rect is warped to the model's 256×256 input (edge pixels replicated), the 478 landmarks
/// are decoded and projected back to the image (z scaled like x), and the presence flag goes
/// through a sigmoid. Not thread-safe; the task runner serializes calls.
final class FaceLandmarksModel {
    /// The entry holding the model inside `face_landmarker.task`.
    static let bundleEntry = "face_landmarks_detector.tflite"
    /// Landmarks per face: 468 mesh points and 10 iris points.
    static let landmarkCount = 478

    private let interpreter: Interpreter
    private let tensorOptions: ImageToTensorOptions
    private let landmarksOutput = 0
    private let presenceOutput = 1

    /// Loads the model; throws `unsupportedModel` unless it takes one H×W×3 image and gives 478×3
    /// landmark values then a presence score first among its outputs, as MediaPipe expects.
    init(model: TFLiteModel, name: String, numThreads: Int) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads)
        let input = interpreter.inputs.first?.shape ?? []
        guard interpreter.inputs.count == 1, input.count == 4, input[0] == 1, input[3] == 3 else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the face landmarks model needs one 1×H×W×3 image input; got \(interpreter.inputs.map(\.shape))")
        }
        let outputs = interpreter.outputs
        guard outputs.count >= 2, outputs[landmarksOutput].elementCount == Self.landmarkCount * 3,
              outputs[presenceOutput].elementCount == 1 else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the face landmarks model needs a 1434-value landmarks output then a 1-value presence output; got \(outputs.map(\.shape))")
        }
        tensorOptions = try ImageToTensorOptions(outputWidth: input[2], outputHeight: input[1], keepAspectRatio: false,
                                                 outputRange: try modelInputRange(model, name: name),
                                                 borderMode: .replicate)
    }

    /// The face's landmarks in the upright image's normalized coordinates and the presence score
    /// (after the sigmoid), for the face inside `roi`.
    func detect(_ image: MPImage, roi: NormalizedRect) throws -> (landmarks: [SIMD3<Float>], presence: Float) {
        let transform = try interpreter.withInputBuffer(0) { input in
            try ImageToTensor.convert(image, roi: roi, options: tensorOptions, into: input)
        }
        try interpreter.invoke()
        let raw = try interpreter.withOutputBuffer(presenceOutput) { $0[0] }
        let presence = 1 / (1 + expf(-raw))
        let local = try interpreter.withOutputBuffer(landmarksOutput) { values in
            decodeLandmarks(values, count: Self.landmarkCount, inputWidth: tensorOptions.outputWidth,
                            inputHeight: tensorOptions.outputHeight)
        }
        guard let local else { throw VisionTasksError.processingFailed("face landmarks: cannot decode the model output") }
        return (projectLandmarks(local, matrix: transform.matrix), presence)
    }
}

/// MediaPipe's `FaceBlendshapesGraph` around `face_blendshapes.tflite`: 146 landmarks in pixels in,
/// 52 scores out. Not thread-safe; the task runner serializes calls.
final class FaceBlendshapesModel {
    /// The entry holding the model inside `face_landmarker.task`.
    static let bundleEntry = "face_blendshapes.tflite"

    private let interpreter: Interpreter

    /// Loads the model; throws `unsupportedModel` unless it maps 146×2 values to 52 scores.
    init(model: TFLiteModel, name: String, numThreads: Int) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads)
        guard interpreter.inputs.count == 1, interpreter.inputs[0].elementCount == FaceBlendshapes.landmarkSubset.count * 2,
              interpreter.outputs.first?.elementCount == FaceBlendshapes.names.count else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the blendshapes model needs a 146×2 input and 52 outputs; got \(interpreter.inputs.map(\.shape)) → \(interpreter.outputs.map(\.shape))")
        }
    }

    /// The 52 blendshape categories of a face's 478 normalized landmarks in a frame of the given size.
    func classify(_ landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int) throws -> Classifications {
        try interpreter.withInputBuffer(0) { input in
            FaceBlendshapes.writeInput(landmarks, imageWidth: imageWidth, imageHeight: imageHeight, into: input)
        }
        try interpreter.invoke()
        let scores = try interpreter.withOutputBuffer(0) { Array($0.prefix(FaceBlendshapes.names.count)) }
        let categories = scores.enumerated().map { i, score in
            ResultCategory(index: i, score: score, categoryName: FaceBlendshapes.names[i], displayName: nil)
        }
        return Classifications(headIndex: 0, headName: nil, categories: categories)
    }
}
