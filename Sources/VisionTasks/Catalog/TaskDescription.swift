/// One task as every front end describes it: its name, what model it takes, its options and the
/// result fields it can output, declared once beside its options class. The CLI's subcommands and
/// flags, the server's routes and query parameters, `GET /api/v1/tasks`, the page's settings and
/// the README's option tables are all built from these.
public struct TaskDescription: Sendable {
    /// The name of the CLI subcommand and of the server's route: `face-detector`.
    public let name: String
    /// The name people read: `Face Detector`.
    public let title: String
    /// What the task does, in one line.
    public let summary: String
    /// The model file it takes.
    public let modelHelp: String
    /// The model files offered first when a folder has them (the sample apps' defaults).
    public let preferredModels: [String]
    /// The task's own options, in the order a settings panel shows them.
    public let options: [TaskOption]
    /// The fields of the task's result JSON that can hold findings (besides `timestampInMilliseconds`).
    public let outputs: [String]
    /// What a result finds, plural: "faces", "hands".
    public let foundNoun: String
    /// The landmark connection sets its overlays draw (nil: none), which `GET /api/v1/connections` serves.
    public let connections: ConnectionSets?

    /// Declares a task.
    package init(
        name: String, title: String, summary: String, modelHelp: String, preferredModels: [String],
        options: [TaskOption], outputs: [String], foundNoun: String, connections: ConnectionSets? = nil
    ) {
        self.name = name
        self.title = title
        self.summary = summary
        self.modelHelp = modelHelp
        self.preferredModels = preferredModels
        self.options = options
        self.outputs = outputs
        self.foundNoun = foundNoun
        self.connections = connections
    }

    /// The option called `name` (kebab case), if the task has one.
    public func option(named name: String) -> TaskOption? {
        options.first { $0.name == name }
    }

    /// The option an error names by its Swift property (`minDetectionConfidence`), among the task's
    /// and the base options.
    public func option(forProperty property: String) -> TaskOption? {
        (options + Self.baseOptions).first { $0.names(property) }
    }

    /// Checks every task option's range in `options` (`invalidOption` naming the first one out of
    /// range); `BaseOptions` checks its own when the model is loaded.
    package func validate(_ options: VisionTaskOptions) throws {
        for option in self.options {
            try option.validate(options)
        }
    }

    /// The tasks of `describedTasks`, in the order the tools list them.
    public static let all: [TaskDescription] = describedTasks.map { $0.taskDescription }

    /// The task called `name`, if there is one.
    public static func named(_ name: String) -> TaskDescription? {
        all.first { $0.name == name }
    }

    /// The options of `BaseOptions` a front end sets: the model, the inference threads and the bundle limit.
    public static let baseOptions: [TaskOption] = [
        BaseOptions.Declared.model.option, BaseOptions.Declared.threads.option,
        BaseOptions.Declared.maxBundleBytes.option,
    ]
}

/// A task's landmark connection sets by name, under the group the page reads them by: the Hand
/// Landmarker's are `{"hand": {"palm": [...], ...}}` in `GET /api/v1/connections`.
public struct ConnectionSets: Sendable {
    /// The group's name: `face`, `hand`, `pose`.
    public let group: String
    /// Each set by its name: `palm`, `thumb`, ...
    public let sets: [String: [Connection]]

    /// The sets `sets` under `group`.
    package init(group: String, sets: [String: [Connection]]) {
        self.group = group
        self.sets = sets
    }
}
