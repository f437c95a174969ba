/// The option rule every task shares besides the declared ranges (`TaskDescription.validate`):
/// a live-stream delegate exactly in live-stream mode, `invalidOption` naming the delegate.
package enum OptionChecks {
    /// Requires a live-stream delegate exactly in live-stream mode.
    package static func delegate(present: Bool, runningMode: RunningMode, _ name: String) throws {
        if runningMode == .liveStream && !present {
            throw VisionTasksError.invalidOption(
                name: name,
                reason: "the live stream mode requires a delegate to receive results")
        }
        if runningMode != .liveStream && present {
            throw VisionTasksError.invalidOption(
                name: name,
                reason: "a delegate is only allowed in the live stream mode, not in \(runningMode) mode")
        }
    }
}
