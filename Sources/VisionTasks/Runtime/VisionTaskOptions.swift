/// What the options of every task hold, as MediaPipe for iOS's `MPPTaskOptions` (with the running
/// mode, which each iOS options class declares itself): the model and how it runs, and how the
/// task is fed. Each task's options class (`FaceDetectorOptions`, ...) adds its own options.
public class VisionTaskOptions {
    /// The model and how it runs (each task's overview names the model file it takes).
    public var baseOptions: BaseOptions
    /// How the task is fed: images, video frames or a live stream.
    public var runningMode: RunningMode

    /// Options with this model and running mode and every other option at its default (the subclasses
    /// inherit it: their own options are declared with their defaults).
    package required init(baseOptions: BaseOptions, runningMode: RunningMode) {
        self.baseOptions = baseOptions
        self.runningMode = runningMode
    }
}
