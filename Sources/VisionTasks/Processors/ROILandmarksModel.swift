import Inference
import TFLite
import VisionCore
import VisionErrors

/// MediaPipe's landmark step on one region of interest, shared by the face and hand landmarkers:
/// the rotated rect warped to the model's input (edge pixels replicated, stretched) → model →
/// landmarks decoded (TensorsToLandmarks) → projected back to the upright image
/// (LandmarkProjection). The model's other outputs (presence, handedness, world landmarks) are read
/// after `landmarks(in:roi:)` with `output(_:)`.
///
/// Not thread-safe: it owns the interpreter; callers serialize use (the task runner does).
package final class ROILandmarksModel {
    /// How the landmarks go back to the image, as the MediaPipe graph feeds its projection.
    package enum Projection: Sendable {
        /// Through the crop's 4×4 matrix (the face graph); z scaled like x.
        case cropMatrix
        /// Through the rect alone (the hand graph); z scaled by the rect's width.
        case normalizedRect
    }

    private let interpreter: Interpreter
    private let tensorOptions: ImageToTensorOptions
    private let landmarkCount: Int
    private let normalizeZ: Float
    private let projection: Projection

    /// Loads the model (`what` names it in errors, "the hand landmark model", with `name` the file).
    /// Throws `unsupportedModel` unless it has one 1×H×W×3 image input (`inputSide`×`inputSide`
    /// when given) and outputs whose element counts begin with `outputCounts`, the first being the
    /// `landmarkCount` landmarks. `readOutputs`: the outputs the caller reads (nil: all); the model's
    /// work for the others is skipped and they stay zero.
    package init(
        model: TFLiteModel, name: String, what: String, numThreads: Int, inputSide: Int?,
        landmarkCount: Int, normalizeZ: Float = 1, outputCounts: [Int], outputNames: String,
        projection: Projection, readOutputs: Set<Int>? = nil
    ) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads, readOutputs: readOutputs)
        let input = interpreter.inputs.first?.shape ?? []
        let side = inputSide.map { "\($0)×\($0)" } ?? "H×W"
        guard interpreter.inputs.count == 1, input.count == 4, input[0] == 1, input[3] == 3,
            inputSide.map({ input[1] == $0 && input[2] == $0 }) ?? true
        else {
            throw VisionTasksError.unsupportedModel(
                "\(name): \(what) needs one 1×\(side)×3 image input; got \(interpreter.inputs.map(\.shape))")
        }
        let counts = interpreter.outputs.map(\.elementCount)
        guard counts.starts(with: outputCounts) else {
            throw VisionTasksError.unsupportedModel(
                "\(name): \(what) needs outputs of \(outputCounts.map(String.init).joined(separator: ", ")) values (\(outputNames)); got \(interpreter.outputs.map(\.shape))"
            )
        }
        tensorOptions = try ImageToTensorOptions(
            outputWidth: input[2], outputHeight: input[1], keepAspectRatio: false,
            outputRange: try modelInputRange(model, name: name), borderMode: .replicate)
        self.landmarkCount = landmarkCount
        self.normalizeZ = normalizeZ
        self.projection = projection
    }

    /// Runs the model on `roi` of the frame's upright image and returns its landmarks in normalized
    /// coordinates of that image.
    package func landmarks(in frame: FrameContext, roi: NormalizedRect) throws -> [SIMD3<Float>] {
        let matrix = try run(in: frame, roi: roi)
        // The output's size was checked at load, so decoding cannot fail.
        let local = try interpreter.withOutputBuffer(0) { values in
            decodeLandmarks(
                values, count: landmarkCount, inputWidth: tensorOptions.outputWidth,
                inputHeight: tensorOptions.outputHeight, normalizeZ: normalizeZ) ?? []
        }
        switch projection {
        case .cropMatrix: return projectLandmarks(local, matrix: matrix)
        case .normalizedRect: return projectLandmarks(local, fromNormalizedRect: roi)
        }
    }

    /// Runs the model on `roi` of the frame's upright image and returns the row-major 4×4 matrix from
    /// the model's input (normalized) to the image (normalized); the outputs are then read with
    /// `output(_:)` or `withOutput(_:_:)`.
    package func run(in frame: FrameContext, roi: NormalizedRect) throws -> [Float] {
        let transform = try interpreter.withInputBuffer(0) { input in
            try ImageToTensor.convert(
                frame.image, roi: roi, options: tensorOptions, into: input,
                splitRows: interpreter.tensorRows)
        }
        interpreter.invoke()
        return transform.matrix
    }

    /// The shape of output `index`.
    package func outputShape(_ index: Int) -> [Int] {
        interpreter.outputs[index].shape
    }

    /// `body` over the values of output `index` from the last run, without copying them.
    package func withOutput<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        try interpreter.withOutputBuffer(index, body)
    }

    /// The values of output `index` (after the first) from the last run.
    package func output(_ index: Int) throws -> [Float] {
        try interpreter.withOutputBuffer(index) { Array($0) }
    }
}

extension Interpreter {
    /// How the processors' image-to-tensor warps (the detectors' and the landmark models') spread a
    /// tensor's rows over this interpreter's threads, in parts of at least 16 rows.
    var tensorRows: ImageToTensor.WorkSplitter {
        { [self] rows, body in splitWork(rows, minimumPerPart: 16, body) }
    }
}
