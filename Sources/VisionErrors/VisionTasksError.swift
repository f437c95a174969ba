import Foundation

/// The one error type of VisionTasks: every case says what was wrong and where
/// (file, tensor, option, timestamp), so a user can act on the message alone.
public enum VisionTasksError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A file the caller named does not exist or cannot be read.
    case fileNotFound(path: String)
    /// A file exists but could not be read (permissions, I/O error).
    case fileUnreadable(path: String, reason: String)
    /// A model file (`.tflite`) is malformed: truncated, corrupted, or an offset/index out of range.
    case invalidModel(String)
    /// A well-formed model uses something the engine does not implement (operator, tensor type, shape).
    case unsupportedModel(String)
    /// A `.task` bundle is not a valid zip, or lacks a file the task needs.
    case invalidBundle(String)
    /// An image could not be decoded or is not usable (corrupt, truncated, zero-sized, unsupported format).
    case invalidImage(String)
    /// An option value is out of range or options contradict each other.
    case invalidOption(name: String, reason: String)
    /// An argument to a call is not valid (wrong tensor index, wrong input size, ...).
    case invalidArgument(String)
    /// A method was called that does not belong to the task's running mode.
    case runningModeMismatch(String)
    /// A timestamp did not strictly increase in video or live-stream mode.
    case invalidTimestamp(String)
    /// Inference or a processing step failed at run time.
    case processingFailed(String)
    /// A video file or live source could not be opened, decoded or written (not a video, ffmpeg missing or failing).
    case invalidVideo(String)

    /// A human-readable message naming the problem.
    public var description: String {
        switch self {
        case .fileNotFound(let path): return "File not found: \(path)"
        case .fileUnreadable(let path, let reason): return "Cannot read file \(path): \(reason)"
        case .invalidModel(let message): return "Invalid model: \(message)"
        case .unsupportedModel(let message): return "Unsupported model: \(message)"
        case .invalidBundle(let message): return "Invalid model bundle: \(message)"
        case .invalidImage(let message): return "Invalid image: \(message)"
        case .invalidOption(let name, let reason): return "Invalid option \(name): \(reason)"
        case .invalidArgument(let message): return "Invalid argument: \(message)"
        case .runningModeMismatch(let message): return "Wrong running mode: \(message)"
        case .invalidTimestamp(let message): return "Invalid timestamp: \(message)"
        case .processingFailed(let message): return "Processing failed: \(message)"
        case .invalidVideo(let message): return "Invalid video: \(message)"
        }
    }

    /// Same as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
