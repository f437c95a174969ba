import Inference
import TFLite
import VisionCore
import VisionErrors

/// The masks of one frame, at the upright image's size, before they become a result.
package struct SegmentedFrame {
    /// One confidence mask per label (row-major, the frame's upright size), when asked for.
    package var confidenceMasks: [[Float]]?
    /// The category mask (a label index per pixel; 255 for background with a one-label model), when asked for.
    package var categoryMask: [UInt8]?
    /// The model's quality score per label (1 each for a model without a quality output, as MediaPipe).
    package var qualityScores: [Float]
}

/// MediaPipe's image segmenter graph on the CPU, step by step: the whole upright image stretched to
/// the model's input (ImageToTensor as the Tasks' ImagePreprocessingGraph sets it: no letterbox, the
/// edge replicated, the range from the model's normalisation metadata: [0, 1] for both selfie models)
/// → model → TensorsToSegmentation: the activation the model's `SEGMENTER_METADATA` declares (NONE
/// without one), the confidence masks resized to the frame with OpenCV's bilinear resize, the category
/// mask sampled there and thresholded at 0.5 (one label) or its argmax.
///
/// Not thread-safe: it owns the interpreter; callers serialize use (the task runner does).
package final class ImageSegmenterGraph: TaskGraph {
    /// Which masks `process` makes.
    package struct Settings: Sendable {
        /// One float mask per label.
        package var outputConfidenceMasks: Bool
        /// The UInt8 category mask.
        package var outputCategoryMask: Bool
    }

    /// The most labels a model may have when the category mask is asked for (an index per pixel in a byte).
    package static let maxLabels = 256
    /// The model's labels (class names; empty without label metadata).
    package let labels: [String]
    private let interpreter: Interpreter
    private let tensorOptions: ImageToTensorOptions
    private let activation: SegmentationTensor.Activation
    private let settings: Settings
    private let maskOutput: Int
    private let qualityOutput: Int?
    private let outputShape: (height: Int, width: Int, channels: Int)

    /// Loads a segmentation model (`name` names it in errors): one 1×H×W×3 float image input and, last,
    /// a 1×H×W×C float mask output (a first output before it holds quality scores, as MediaPipe reads
    /// them). Throws `unsupportedModel` for any other shape, an input without usable normalisation
    /// metadata (as MediaPipe), or a softmax declared for a one-label output; `invalidModel` for bad metadata.
    package init(model: TFLiteModel, name: String, numThreads: Int, settings: Settings) throws {
        interpreter = try Interpreter(model: model, numThreads: numThreads)
        let inputs = interpreter.inputs, outputs = interpreter.outputs
        guard inputs.count == 1, inputs[0].shape.count == 4, inputs[0].shape[0] == 1, inputs[0].shape[3] == 3 else {
            throw VisionTasksError.unsupportedModel(
                "\(name): an image segmenter needs one 1×H×W×3 image input; got \(inputs.map(\.shape))")
        }
        guard let last = outputs.last, last.shape.count == 4, last.shape[0] == 1, outputs.count <= 2 else {
            throw VisionTasksError.unsupportedModel(
                "\(name): an image segmenter needs a 1×H×W×C mask as its last output (and at most a quality output before it); got \(outputs.map(\.shape))"
            )
        }
        maskOutput = outputs.count - 1
        qualityOutput = outputs.count == 2 ? 0 : nil
        outputShape = (last.shape[1], last.shape[2], last.shape[3])
        // The category mask holds a label's index in a byte: label 299 of 300 would read as label 43.
        guard outputShape.channels >= 1, outputShape.channels <= Self.maxLabels || !settings.outputCategoryMask else {
            throw VisionTasksError.unsupportedModel(
                "\(name): its mask output has \(outputShape.channels) labels; the category mask holds a label's index in a byte (1 to \(Self.maxLabels) labels)"
            )
        }
        tensorOptions = try ImageToTensorOptions(
            outputWidth: inputs[0].shape[2], outputHeight: inputs[0].shape[1], keepAspectRatio: false,
            outputRange: try modelInputRange(model, name: name), borderMode: .replicate)
        switch try model.segmenterActivation() ?? .none {
        case .none: activation = .none
        case .sigmoid: activation = .sigmoid
        case .softmax:
            guard outputShape.channels > 1 || !settings.outputConfidenceMasks else {
                throw VisionTasksError.unsupportedModel(
                    "\(name): its metadata declares SOFTMAX for a one-label output (MediaPipe requires more than one)")
            }
            activation = .softmax
        }
        let outputIndex = (model.modelMetadata?.subgraphs.first?.outputTensors.count ?? 1) - 1
        labels = try model.labels(forOutput: max(0, outputIndex)) ?? []
        self.settings = settings
    }

    /// The frame's masks at its upright size (one `SegmentedFrame`).
    package func process(_ frame: FrameContext) throws -> [SegmentedFrame] {
        if settings.outputConfidenceMasks { try checkConfidenceMaskSize(frame) }
        _ = try interpreter.withInputBuffer(0) { input in
            try ImageToTensor.convert(
                frame.image, options: tensorOptions, into: input, splitRows: interpreter.tensorRows)
        }
        interpreter.invoke()
        let (h, w, c) = outputShape
        guard let tensor = SegmentationTensor(width: w, height: h, channels: c, values: interpreter.output(maskOutput))
        else {
            throw VisionTasksError.processingFailed("the segmentation model's output is not \(h)×\(w)×\(c)")
        }
        let qualityScores = qualityOutput.map { interpreter.output($0) } ?? [Float](repeating: 1, count: c)
        return [
            SegmentedFrame(
                confidenceMasks: settings.outputConfidenceMasks
                    ? tensor.confidenceMasks(
                        activation: activation, outputWidth: frame.width, outputHeight: frame.height,
                        splitRows: maskRows)
                    : nil,
                categoryMask: settings.outputCategoryMask
                    ? tensor.categoryMask(
                        activation: activation, outputWidth: frame.width, outputHeight: frame.height,
                        splitRows: maskRows)
                    : nil,
                qualityScores: qualityScores)
        ]
    }

    /// Throws `invalidArgument` when the frame's confidence masks would hold more than `Mask.maxFrameValues`
    /// (a model of many labels on a large image would otherwise take labels × pixels × 4 bytes).
    private func checkConfidenceMaskSize(_ frame: FrameContext) throws {
        try Mask.checkFrameValues(
            outputShape.channels, width: frame.width, height: frame.height,
            what: "confidence masks of \(outputShape.channels) labels",
            advice: "ask for the category mask alone, or give a smaller image")
    }

    /// How the masks' output rows are spread over the interpreter's threads: bands of at least 64 rows.
    private var maskRows: ImageToTensor.WorkSplitter {
        { [interpreter] rows, body in interpreter.splitWork(rows, minimumPerPart: 64, body) }
    }

    /// Nothing is tracked from frame to frame.
    package func resetTracking() {}
}
