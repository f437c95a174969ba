import Foundation

/// The one error type of VisionTasks: every case says what was wrong and where
/// (file, tensor, option, timestamp), so a user can act on the message alone.
public enum VisionTasksError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A file the caller named does not exist (one that exists but cannot be read is `fileUnreadable`).
    case fileNotFound(path: String)
    /// A file exists but could not be read (permissions, I/O error).
    case fileUnreadable(path: String, reason: String)
    /// A file the caller named to be written could not be (a missing folder, permissions, a full disk).
    case fileUnwritable(path: String, reason: String)
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
        case .fileUnwritable(let path, let reason): return "Cannot write file \(path): \(reason)"
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

/// MediaPipe's task error codes (`MPPTasksErrorCode`, `TasksErrorCode` in Swift on iOS): the `code`
/// of every `VisionTasksError` bridged to `NSError`.
public enum TasksErrorCode: Int, Sendable, CaseIterable {
    /// The operation was cancelled, typically by the caller.
    case cancelledError = 1
    /// An unknown error occurred.
    case unknownError = 2
    /// The caller gave an invalid argument: an option, an image, a model or bundle, a timestamp.
    case invalidArgumentError = 3
    /// A deadline expired before the operation could complete.
    case deadlineExceededError = 4
    /// A requested entity (a file) was not found.
    case notFoundError = 5
    /// An entity the caller tried to create already exists.
    case alreadyExistsError = 6
    /// The caller may not run the operation.
    case permissionDeniedError = 7
    /// A resource (memory, a limit, disk space) was exhausted.
    case resourceExhaustedError = 8
    /// The task is not in the state the call needs (a method of another running mode).
    case failedPreconditionError = 9
    /// The operation was aborted.
    case abortedError = 10
    /// The operation went past a valid range.
    case outOfRangeError = 11
    /// The operation (an operator, a tensor type, a delegate) is not implemented.
    case unimplementedError = 12
    /// An internal invariant failed while processing.
    case internalError = 13
    /// The service is unavailable for now.
    case unavailableError = 14
    /// Data was lost or corrupted.
    case dataLossError = 15
    /// The request lacks valid credentials.
    case unauthenticatedError = 16
}

/// Bridges to `NSError` as MediaPipe for iOS does: domain `com.google.mediapipe.tasks`, the
/// `TasksErrorCode` of the case as code, and the message as `localizedDescription`.
extension VisionTasksError: CustomNSError {
    /// MediaPipe's task error domain (`MPPTasksErrorDomain`).
    public static var errorDomain: String { "com.google.mediapipe.tasks" }

    /// The MediaPipe error code this error maps to.
    public var tasksErrorCode: TasksErrorCode {
        switch self {
        case .fileNotFound, .fileUnreadable: return .notFoundError // MediaPipe's file loader: NotFound
        case .fileUnwritable: return .invalidArgumentError // MediaPipe's file writer, for a file it cannot open
        case .invalidModel, .invalidBundle, .invalidImage, .invalidOption, .invalidArgument,
            .invalidTimestamp, .invalidVideo:
            return .invalidArgumentError
        case .unsupportedModel: return .unimplementedError
        case .runningModeMismatch: return .failedPreconditionError
        case .processingFailed: return .internalError
        }
    }

    /// `tasksErrorCode`'s raw value.
    public var errorCode: Int { tasksErrorCode.rawValue }

    /// `NSLocalizedDescriptionKey`: the message.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
