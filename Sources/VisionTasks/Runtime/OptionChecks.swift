/// Validation of task options, shared by every task, throwing `invalidOption` with the option's name.
package enum OptionChecks {
    /// Requires `value` in [0, 1] (a probability or score threshold).
    package static func unitInterval(_ value: Float, _ name: String) throws {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw VisionTasksError.invalidOption(name: name, reason: "must be in [0, 1], got \(value)")
        }
    }

    /// Requires `value` ≥ 1 (a count such as `numFaces`).
    package static func positive(_ value: Int, _ name: String) throws {
        guard value >= 1 else {
            throw VisionTasksError.invalidOption(name: name, reason: "must be at least 1, got \(value)")
        }
    }

    /// Requires a live-stream delegate exactly in live-stream mode.
    package static func delegate(present: Bool, runningMode: RunningMode, _ name: String) throws {
        if runningMode == .liveStream && !present {
            throw VisionTasksError.invalidOption(name: name,
                reason: "the live stream mode requires a delegate to receive results")
        }
        if runningMode != .liveStream && present {
            throw VisionTasksError.invalidOption(name: name,
                reason: "a delegate is only allowed in the live stream mode, not in \(runningMode) mode")
        }
    }
}
