/// What the options of every task hold, as MediaPipe for iOS's `MPPTaskOptions` (with the running
/// mode, which each iOS options class declares itself): the model and how it runs, and how the
/// task is fed. Each task's options class (`FaceDetectorOptions`, ...) adds its own options, each
/// declared once with its default; set them as properties, or in `init(baseOptions:runningMode:configure:)`.
public class VisionTaskOptions: ConfigurableOptions {
    /// The model and how it runs (each task's overview names the model file it takes).
    public var baseOptions: BaseOptions
    /// How the task is fed: images, video frames or a live stream.
    public var runningMode: RunningMode

    /// Options with this model and running mode and every other option at its default (MediaPipe's:
    /// `Declared`). Every task's options class inherits it.
    public required init(baseOptions: BaseOptions = BaseOptions(), runningMode: RunningMode = .image) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
    }
}

/// Options that can be made and set in one expression: every task's options class.
public protocol ConfigurableOptions: AnyObject {
    /// Options with this model and running mode and every other option at its default.
    init(baseOptions: BaseOptions, runningMode: RunningMode)
}

extension ConfigurableOptions {
    /// Options with this model and running mode, then the task's own options as `configure` sets them:
    /// `FaceLandmarkerOptions(baseOptions: base) { $0.numFaces = 2 }`.
    public init(
        baseOptions: BaseOptions = BaseOptions(), runningMode: RunningMode = .image, configure: (Self) -> Void
    ) {
        self.init(baseOptions: baseOptions, runningMode: runningMode)
        configure(self)
    }
}
