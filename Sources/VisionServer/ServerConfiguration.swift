import Foundation
import TFLite
import Training
import VisionCore

/// What `vision-tasks serve` is started with: where it listens, which models it offers and the
/// limits that keep one client from starving the others or growing the server's memory.
public struct ServerConfiguration: Sendable {
    /// The address to listen on (loopback unless asked otherwise).
    public var host: String = "127.0.0.1"
    /// `host` as a URL or an address with a port writes it: an IPv6 address in brackets.
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }
    /// The TCP port (0: any free port).
    public var port: Int = 8080
    /// The folder whose `.task`/`.tflite` files are offered, by file name only.
    public var modelsDirectory: String = "models"
    /// Task instances per task for HTTP image requests (also the most videos processed at once).
    public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait per task when every worker is busy; one more is answered 503.
    public var queueDepth: Int = 16
    /// The largest request body (an image or a video) in bytes; larger is answered 413.
    public var maxBodyBytes: Int = 20_000_000
    /// The most bytes the image, video and training bodies being read or waiting for their work may hold together,
    /// all clients; a body that would pass it is answered 503. At least `maxBodyBytes` and `maxTrainingBodyBytes`;
    /// nil: `heldBodyBytes`'s default.
    public var maxHeldBodyBytes: Int? = nil
    /// The least rate of a request body the server reads, in bytes per second, over every `idleTimeout`; a slower body
    /// loses its connection (a body dripped a byte at a time would hold its memory, or the training). At most 1 GB/s.
    public var minBodyBytesPerSecond: Int = 16_384
    /// The most pixels (width × height) a posted image, live frame or video frame may declare; larger ones are
    /// refused (400) before they are decoded. A 64-megapixel progressive JPEG of a few hundred KB takes about
    /// 770 MB to decode; at most `workers` posted images and live frames decode at once, all tasks together.
    public var maxImagePixels: Int = ImageDecodingOptions.defaultMaxPixelCount
    /// The most frames of a posted video processed (10 minutes at 30 fps), and as many 1080p frames' pixels
    /// (`videoFramePixels`) in all; a longer video's lines end with an error line saying so (a small file of tiny, or
    /// of still huge, frames could otherwise hold a worker for hours).
    public var maxVideoFrames: Int = 18_000
    /// The pixels of a 1920×1080 frame: what `maxVideoFrames` frames may hold on average.
    static let videoFramePixels = 1920 * 1080
    /// The most pixels the decoded frames of all live sockets may hold together, from their decoding until their
    /// result (a frame in work also holds its result's masks); at least `maxImagePixels`. nil: `heldLivePixels`'s
    /// default.
    public var maxLivePixels: Int? = nil
    /// The largest WebSocket message (8-byte timestamp + encoded frame) in bytes.
    public var maxFrameBytes: Int = 4_000_000
    /// Frames per second a live socket may send; frames above the rate are dropped and counted.
    public var maxFramesPerSecond: Int = 60
    /// Live sockets open at once; one more is refused with 503.
    public var maxLiveSockets: Int = 16
    /// A live socket that sends nothing for this long, with none of its frames in work, is closed; a live socket
    /// or video response whose client leaves a write waiting this long loses its connection (and its worker).
    public var idleTimeout: Duration = .seconds(30)
    /// A connection whose first request head has not arrived whole this long after it opened is closed (Hummingbird's
    /// idle timeout starts only after a head). Longer than `idleTimeout`: clients open connections ahead of need.
    public var requestHeadTimeout: Duration = .seconds(60)
    /// Replies a live socket may have waiting for a slow client; a newer one drops the oldest, counted.
    public var maxQueuedReplies: Int = 8
    /// The largest training upload (`POST /api/v1/gesture-models`, a zip of label folders) in bytes; larger is answered 413.
    public var maxTrainingBodyBytes: Int = 100_000_000
    /// The most bytes a training upload's photos may unpack to, all entries' sizes together (zip bombs); more is answered 413.
    public var maxTrainingUnpackedBytes: Int = 200_000_000
    /// The most photos in one training upload; more is answered 413.
    public var maxTrainingPhotos: Int = 5_000
    /// The longest a training may run, in seconds (photos searched, settings searched, trained, written); one that
    /// runs longer is stopped and answered 422, so no request holds the one training for hours.
    public var maxTrainingSeconds: Int = 600
    /// The most bytes of disk the models folder's files (subfolders included) may take with a new trained model among
    /// them; a model that would pass it is not placed (507), so trainings cannot fill the disk (a 4×4096 hidden-layer
    /// head is 212 MB).
    public var maxModelsFolderBytes: Int = 1_000_000_000
    /// Threads a training searches its photos for hands with; one training runs at a time, so the other cores stay
    /// with the detection requests.
    public var trainingThreads: Int = 1

    /// The defaults above.
    public init() {}

    /// `maxHeldBodyBytes` when given, else 200 MB, or `maxBodyBytes` or `maxTrainingBodyBytes` when larger.
    public var heldBodyBytes: Int { maxHeldBodyBytes ?? max(200_000_000, maxBodyBytes, maxTrainingBodyBytes) }

    /// `maxLivePixels` when given, else twice `maxImagePixels`: two frames of the largest size.
    public var heldLivePixels: Int { maxLivePixels ?? 2 * maxImagePixels }

    /// Inference threads of a task instance when a request names none: the cores shared among the
    /// workers, at least 1 (1 with the default workers, which already use every core).
    public var threadsPerTask: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, workers)) }

    /// The highest `maxTrainingPhotos`: what one training takes (`GestureSamples.maxPhotos`) and a zip's
    /// directory may list (the zip reader's entry limit).
    static var mostTrainingPhotos: Int { min(GestureSamples.maxPhotos, ZipArchive.maxEntries) }

    /// Checks that every limit is usable; throws `ServerError.invalidConfiguration` naming the first that is not.
    public func validate() throws {
        func require(_ ok: Bool, _ message: String) throws {
            if !ok { throw ServerError.invalidConfiguration(message) }
        }
        try require((0...65535).contains(port), "--port must be 0...65535, got \(port)")
        try require(workers >= 1, "--workers must be at least 1, got \(workers)")
        try require(queueDepth >= 0, "the queue depth must be at least 0, got \(queueDepth)")
        try require(maxBodyBytes >= 1024, "--max-body must be at least 1 KB, got \(maxBodyBytes) bytes")
        try require(
            heldBodyBytes >= maxBodyBytes,
            "--max-held-bodies must be at least --max-body (\(maxBodyBytes) bytes), got \(heldBodyBytes) bytes")
        try require(
            heldBodyBytes >= maxTrainingBodyBytes,
            "--max-held-bodies must be at least --max-training-body (\(maxTrainingBodyBytes) bytes), got \(heldBodyBytes) bytes"
        )
        try require(
            (1...1_000_000_000).contains(minBodyBytesPerSecond),
            "the least body rate must be 1...1000000000 bytes per second, got \(minBodyBytesPerSecond)")
        try require(
            (1...Int.max / 2).contains(maxImagePixels),
            "--max-image-pixels must be 1...\(Int.max / 2), got \(maxImagePixels)")
        try require(
            heldLivePixels >= maxImagePixels,
            "--max-live-pixels must be at least --max-image-pixels (\(maxImagePixels)), got \(heldLivePixels)")
        try require(
            (1...Int.max / Self.videoFramePixels).contains(maxVideoFrames),
            "--max-video-frames must be 1...\(Int.max / Self.videoFramePixels), got \(maxVideoFrames)")
        try require(maxFrameBytes >= 16, "the WebSocket frame limit must be at least 16 bytes")
        try require(maxFramesPerSecond >= 1, "the frame rate limit must be at least 1")
        try require(maxLiveSockets >= 1, "the live socket limit must be at least 1")
        try require(maxQueuedReplies >= 1, "the reply queue must hold at least 1 reply")
        try require(idleTimeout > .zero && idleTimeout <= .seconds(86_400), "the idle timeout must be 0...1 day")
        try require(requestHeadTimeout > .zero, "the request head timeout must be positive")
        try require(
            maxTrainingBodyBytes >= 1024, "--max-training-body must be at least 1 KB, got \(maxTrainingBodyBytes) bytes"
        )
        try require(
            maxTrainingUnpackedBytes >= 1024,
            "--max-training-unpacked must be at least 1 KB, got \(maxTrainingUnpackedBytes) bytes")
        try require(
            (2...Self.mostTrainingPhotos).contains(maxTrainingPhotos),
            "--max-training-photos must be 2...\(Self.mostTrainingPhotos), got \(maxTrainingPhotos)")
        try require(
            (1...86_400).contains(maxTrainingSeconds),
            "--max-training-time must be 1...86400 s, got \(maxTrainingSeconds)")
        try require(
            maxModelsFolderBytes >= 1_000_000,
            "--max-models-folder must be at least 1 MB, got \(maxModelsFolderBytes) bytes")
        try require(
            GestureTrainer.threadRange.contains(trainingThreads),
            "--training-threads must be \(GestureTrainer.threadRange.lowerBound)...\(GestureTrainer.threadRange.upperBound), got \(trainingThreads)"
        )
    }
}

/// Why the server cannot start (a bad configuration or an unusable models folder).
public enum ServerError: Error, CustomStringConvertible, Sendable {
    /// A limit or address that cannot be used.
    case invalidConfiguration(String)
    /// The models folder is missing or offers no model for any task.
    case noModels(String)
    /// The server could not listen on `address` (host:port), for `reason`.
    case cannotListen(address: String, reason: String)

    /// The message printed by `vision-tasks serve`.
    public var description: String {
        switch self {
        case .invalidConfiguration(let message): return "invalid configuration: \(message)"
        case .noModels(let message): return "no models: \(message)"
        case .cannotListen(let address, let reason): return "cannot listen on \(address): \(reason)"
        }
    }
}
