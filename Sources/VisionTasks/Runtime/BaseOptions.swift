import Foundation
import Inference
import TFLite
import VisionErrors

/// The compute device a task runs on, with MediaPipe for iOS's names. VisionTasks runs on the CPU
/// only: a task created with `.GPU` throws `invalidOption` naming `delegate`.
public enum Delegate: Sendable, Equatable {
    /// Run on the CPU with VisionTasks' own inference engine (the default).
    case CPU
    /// A GPU, as on iOS; rejected when the task is created (VisionTasks has no GPU engine).
    case GPU
}

/// Options every task shares: where the model comes from and how it runs.
public struct BaseOptions: Sendable {
    /// Path to the model file (`.task` bundle or `.tflite`). Ignored when `modelAssetBuffer` is set.
    public var modelAssetPath: String
    /// The model file's bytes; takes precedence over `modelAssetPath` when set.
    public var modelAssetBuffer: Data?
    /// The compute device: `.CPU` (`.GPU` is rejected when the task is created).
    public var delegate: Delegate
    /// Threads the inference engine may use (1...64). VisionTasks' extension to the iOS options;
    /// the default is the number of cores, at most 4.
    public var numThreads: Int
    /// The most bytes inflated from a `.task` bundle and the bundles nested in it (default 64 MiB): a
    /// hostile bundle (a zip bomb) fails with `invalidBundle` instead of exhausting memory. VisionTasks' extension.
    public var maxDecompressedBundleBytes: Int

    /// Creates options with no model set and the default delegate, thread count and bundle limit.
    /// - Parameters:
    ///   - modelAssetPath: Path to the model file (`.task` bundle or `.tflite`).
    ///   - modelAssetBuffer: The model file's bytes, used instead of the path when set.
    ///   - delegate: The compute device (`.CPU`; `.GPU` is rejected when the task is created).
    ///   - numThreads: Threads the inference engine may use (1...64).
    ///   - maxDecompressedBundleBytes: The most bytes inflated from a `.task` bundle and the bundles in it.
    public init(
        modelAssetPath: String = "", modelAssetBuffer: Data? = nil, delegate: Delegate = .CPU,
        numThreads: Int = BaseOptions.defaultNumThreads,
        maxDecompressedBundleBytes: Int = BaseOptions.defaultMaxDecompressedBundleBytes
    ) {
        self.modelAssetPath = modelAssetPath
        self.modelAssetBuffer = modelAssetBuffer
        self.delegate = delegate
        self.numThreads = numThreads
        self.maxDecompressedBundleBytes = maxDecompressedBundleBytes
    }

    /// The default thread count: the machine's active cores, at most 4.
    public static var defaultNumThreads: Int { max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)) }

    /// The default `maxDecompressedBundleBytes`: 64 MiB, several times the largest real bundle (8.5 MB).
    public static let defaultMaxDecompressedBundleBytes = ModelBundle.defaultMaxDecompressedBytes

    /// The largest accepted `numThreads`.
    public static let maxNumThreads = Interpreter.maxThreads

    /// The name errors give the model: its path, or `modelAssetBuffer` when the bytes were given.
    package var modelAssetName: String { modelAssetBuffer != nil ? "modelAssetBuffer" : modelAssetPath }

    /// Reads the model asset as a `.task` bundle, named as `modelAssetName`. Throws `invalidBundle`
    /// when it is not a zip (a bare `.tflite`, say), naming the `task` that needs one.
    package func loadTaskBundle(task: String) throws -> ModelBundle {
        try ModelBundle.taskBundle(
            try loadModelAsset(), name: modelAssetName, task: task,
            maxDecompressedBytes: maxDecompressedBundleBytes)
    }

    /// Checks the options and returns the model file's bytes, from the buffer or the path.
    package func loadModelAsset() throws -> Data {
        guard delegate == .CPU else {
            throw VisionTasksError.invalidOption(
                name: "delegate",
                reason: "GPU is not available: VisionTasks runs on the CPU only (use .CPU)")
        }
        guard (1...BaseOptions.maxNumThreads).contains(numThreads) else {
            throw VisionTasksError.invalidOption(
                name: "numThreads",
                reason: "must be in 1...\(BaseOptions.maxNumThreads), got \(numThreads)")
        }
        guard maxDecompressedBundleBytes > 0 else {
            throw VisionTasksError.invalidOption(
                name: "maxDecompressedBundleBytes",
                reason: "must be positive, got \(maxDecompressedBundleBytes)")
        }
        if let buffer = modelAssetBuffer {
            guard !buffer.isEmpty else {
                throw VisionTasksError.invalidOption(name: "modelAssetBuffer", reason: "is empty")
            }
            return buffer
        }
        guard !modelAssetPath.isEmpty else {
            throw VisionTasksError.invalidOption(
                name: "modelAssetPath",
                reason: "no model given: set modelAssetPath or modelAssetBuffer")
        }
        return try ModelFile.read(modelAssetPath)
    }
}
