import Foundation
import Inference
import TFLite
import VisionCore
import VisionErrors

/// MediaPipe's `FaceBlendshapesGraph` around `face_blendshapes.tflite`: 146 landmarks in pixels in,
/// 52 scores out. Not thread-safe; the task runner serializes calls.
final class FaceBlendshapesModel {
    /// The entry holding the model inside `face_landmarker.task`.
    static let bundleEntry = "face_blendshapes.tflite"

    private let interpreter: Interpreter

    /// Loads the model; throws `unsupportedModel` unless it maps 146×2 values to 52 scores.
    init(model: TFLiteModel, name: String, numThreads: Int) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads)
        guard interpreter.inputs.count == 1,
            interpreter.inputs[0].elementCount == FaceBlendshapes.landmarkSubset.count * 2,
            interpreter.outputs.first?.elementCount == FaceBlendshapes.names.count
        else {
            throw VisionTasksError.unsupportedModel(
                "\(name): the blendshapes model needs a 146×2 input and 52 outputs; got \(interpreter.inputs.map(\.shape)) → \(interpreter.outputs.map(\.shape))"
            )
        }
    }

    /// The 52 blendshape categories of a face's 478 normalized landmarks in a frame of the given size.
    func classify(_ landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int) throws -> Classifications {
        try interpreter.withInputBuffer(0) { input in
            FaceBlendshapes.writeInput(landmarks, imageWidth: imageWidth, imageHeight: imageHeight, into: input)
        }
        interpreter.invoke()
        let scores = try interpreter.withOutputBuffer(0) { Array($0.prefix(FaceBlendshapes.names.count)) }
        let categories = scores.enumerated().map { i, score in
            ResultCategory(index: i, score: score, categoryName: FaceBlendshapes.names[i], displayName: nil)
        }
        return Classifications(headIndex: 0, headName: nil, categories: categories)
    }
}
