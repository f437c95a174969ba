/// A command line's free arguments split into its declared options and its inputs (a task's options by
/// its description, or `train-gestures`' training options): `--name value`, `--name=value`, and for a
/// bool option `--name` alone; any other argument is an input (an image, a folder). Everything after `--`
/// is an input. The CLI and the bench tool parse task options with it.
package struct TaskArguments {
    /// The task options given, in order, as text.
    package var values: [(name: String, text: String)] = []
    /// The inputs.
    package var inputs: [String] = []

    /// Splits `arguments` by a task's options; an unknown `--option`, a missing value or a malformed one throws `TaskArgumentError`.
    package init(_ arguments: [String], description: TaskDescription) throws {
        try self.init(arguments, command: description.name, options: description.options)
    }

    /// Splits `arguments` by `options`, the declared options of `command`.
    package init(_ arguments: [String], command: String, options: [TaskOption]) throws {
        var index = arguments.startIndex
        var onlyInputs = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard !onlyInputs, argument.hasPrefix("-"), argument.count > 1 else {
                inputs.append(argument)
                continue
            }
            if argument == "--" {
                onlyInputs = true
                continue
            }
            let flag = argument.split(separator: "=", maxSplits: 1)
            let name = flag[0].drop { $0 == "-" }
            guard flag[0].hasPrefix("--"), let option = options.first(where: { $0.name == name }) else {
                throw TaskArgumentError(
                    "Unknown option '\(flag[0])' for \(command) (its options: \(options.map { "--" + $0.name }.joined(separator: ", ")))"
                )
            }
            var text: String
            if flag.count == 2 {
                text = String(flag[1])
            } else if option.type == .bool {
                text = "true"
            } else if index < arguments.endIndex {
                text = arguments[index]
                index += 1
            } else {
                throw TaskArgumentError("Missing value for '--\(option.name) <\(option.type.rawValue)>'")
            }
            guard option.accepts(text) else {
                throw TaskArgumentError(
                    "The value '\(text)' is invalid for '--\(option.name) <\(option.type.rawValue)>'")
            }
            values.append((option.name, text))
        }
    }

    /// The task options' part of a subcommand's help: each flag, its help, range and default.
    package static func help(_ description: TaskDescription) -> String {
        help(description.options)
    }

    /// A help section's heading for `options`: `title`, and how a bool option is turned off when there is one
    /// ("--augment false" would read `false` as an input).
    package static func heading(_ title: String, _ options: [TaskOption]) -> String {
        guard let flag = options.first(where: { $0.type == .bool })?.name else { return "\(title):" }
        return "\(title) (a bool option alone means true; --\(flag)=false turns one off):"
    }

    /// Each declared option's flag, help, range and default, for a subcommand's help.
    package static func help(_ options: [TaskOption]) -> String {
        options.map { option in
            let value = option.type == .bool ? "" : " <\(option.type.rawValue)>"
            let range = option.rangeText.isEmpty ? "" : "\(option.rangeText); "
            return "--\(option.name)\(value)  \(option.help) (\(range)default: \(option.defaultText))"
        }.joined(separator: "\n\n")
    }
}

/// A command line's task option that is unknown, lacks its value or has a malformed one (the CLI reports
/// it as a usage error).
package struct TaskArgumentError: Error, CustomStringConvertible {
    /// What is wrong, naming the option.
    package let description: String

    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}
