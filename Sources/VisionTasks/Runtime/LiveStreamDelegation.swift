/// Where a task's options hold its live-stream delegate and how one frame's result reaches it,
/// declared once per task (`FaceDetector.liveStream`): `TaskCore` checks and calls the delegate
/// through it, and front ends set a `LiveStreamHandler` as the delegate through it.
package struct LiveStreamDelegation<Task: AnyObject, Options: AnyObject, Result: Sendable, Listener>: Sendable {
    /// The delegate's property of the options (`\FaceDetectorOptions.faceDetectorLiveStreamDelegate`).
    let keyPath: ReferenceWritableKeyPath<Options, Listener?> & Sendable
    /// A closure-made delegate as the delegate's type.
    let handler: @Sendable (LiveStreamHandler<Result>) -> Listener
    /// Calls the delegate with the task and one frame's result, or the error it raised.
    let deliver: TaskCore<Task, Result>.Delivery<Listener>

    /// The delegation through `keyPath`: `handler` converts a `LiveStreamHandler` (`{ $0 }`), `deliver`
    /// calls the delegate's one method.
    package init(
        _ keyPath: ReferenceWritableKeyPath<Options, Listener?> & Sendable,
        handler: @escaping @Sendable (LiveStreamHandler<Result>) -> Listener,
        deliver: @escaping TaskCore<Task, Result>.Delivery<Listener>
    ) {
        self.keyPath = keyPath
        self.handler = handler
        self.deliver = deliver
    }

    /// The delegate's property as errors name it: `faceDetectorLiveStreamDelegate` for a `FaceDetector`,
    /// as MediaPipe for iOS names it.
    static var property: String {
        let task = String(describing: Task.self)
        return task.prefix(1).lowercased() + task.dropFirst() + "LiveStreamDelegate"
    }
}
