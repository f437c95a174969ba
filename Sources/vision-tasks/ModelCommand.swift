import ArgumentParser
import Foundation
import Inference
import TFLite
import VisionErrors
import VisionTasks

// MARK: - Command

/// `vision-tasks model`: tools for one model file (`info`, `run`, `benchmark`, `profile`).
struct ModelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Inspect and run a .tflite model or a model inside a .task bundle.",
        subcommands: [
            ModelInfoCommand.self, ModelRunCommand.self, ModelBenchmarkCommand.self, ModelProfileCommand.self,
        ]
    )
}

// MARK: - Model source

/// The model a `model` subcommand works on: a `.tflite` file, or a `.task` bundle with `--entry`.
struct ModelSourceOptions: ParsableArguments {
    @Argument(help: "A .tflite model or a .task bundle.")
    var path: String

    @Option(
        help:
            "For a .task bundle: the model to use, as an entry name, a path through nested bundles (a.task/b.tflite) or a file name found anywhere inside."
    )
    var entry: String?

    @Option(help: ArgumentHelp(BaseOptions.Declared.maxBundleBytes.option.help, valueName: "bytes"))
    var maxBundleBytes: Int = BaseOptions.Declared.maxBundleBytes.defaultValue

    /// Whether bytes are a bundle rather than a `.tflite` FlatBuffer (which carries "TFL3" at bytes 4..<8;
    /// bundles are zips, found from the end-of-central-directory record in their last 64 KiB). `invalidModel`
    /// naming `path` for bytes that are neither (a search of the whole file for a zip entry took 2 minutes on a
    /// video of 1 GB given by mistake).
    static func isZip(_ data: Data, path: String) throws -> Bool {
        if data.count >= 8, data.dropFirst(4).prefix(4).elementsEqual("TFL3".utf8) { return false }
        guard ZipArchive.hasEndOfCentralDirectory(data) else {
            throw VisionTasksError.invalidModel(
                "\(path) is neither a TFLite model (bytes 4 to 7 are not \"TFL3\") nor a .task bundle (a zip archive)")
        }
        return true
    }

    /// The bytes of the file `path`, once `--max-bundle-bytes` is checked against its declared minimum
    /// (`invalidOption` below it).
    func readFile() throws -> Data {
        let minimum = Int(BaseOptions.Declared.maxBundleBytes.option.minimum ?? 1)
        try requireOption("--max-bundle-bytes", maxBundleBytes, in: minimum...Int.max)
        return try ModelFile.read(path)
    }

    /// The bytes of the chosen model and a name for it; a bundle needs `--entry`.
    func loadModelData() throws -> (name: String, data: Data) {
        let bytes = try readFile()
        if try Self.isZip(bytes, path: path) {
            guard let entry else {
                throw VisionTasksError.invalidArgument(
                    "\(path) is a .task bundle: choose a model in it with --entry NAME")
            }
            return (
                "\(path)/\(entry)",
                try ModelBundle(data: bytes, name: path, maxDecompressedBytes: maxBundleBytes).find(entry)
            )
        }
        if let entry {
            throw VisionTasksError.invalidArgument(
                "--entry \(entry) applies only to .task bundles, and \(path) is not one")
        }
        return (path, bytes)
    }

    /// The chosen model, parsed.
    func loadModel() throws -> (name: String, model: TFLiteModel) {
        let (name, data) = try loadModelData()
        return (name, try TFLiteModel(data: data, name: name, maxDecompressedBytes: maxBundleBytes))
    }
}

/// `--read-outputs`, which `model run`, `benchmark` and `profile` take: the outputs computed.
struct OutputSelection: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only these outputs (indices, comma-separated) are read: the operators that feed only the others are not run (as the Pose Landmarker runs its model without masks).",
            valueName: "indices"))
    var readOutputs: String?

    /// `--read-outputs` as indices (nil: every output); `invalidOption` for a malformed list.
    var indices: Set<Int>? {
        get throws {
            guard let readOutputs else { return nil }
            let parts = readOutputs.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else {
                throw VisionTasksError.invalidOption(
                    name: "--read-outputs", reason: "must be output indices separated by commas, got \"\(readOutputs)\""
                )
            }
            return Set(parts.compactMap { $0 })
        }
    }

    /// An interpreter of `model` with `threads` threads (`--threads`), reading the selected outputs; `invalidOption`
    /// naming the option for a thread count outside 1...`Interpreter.maxThreads` or an output the model lacks.
    func interpreter(_ model: TFLiteModel, threads: Int) throws -> Interpreter {
        try requireOption("--threads", threads, in: 1...Interpreter.maxThreads)
        let selected = try indices
        let count = model.subgraphs.first?.outputs.count ?? 0
        if let bad = selected?.sorted().first(where: { !(0..<count).contains($0) }) {
            throw VisionTasksError.invalidOption(
                name: "--read-outputs", reason: "the model has \(count) outputs (indices 0...\(count - 1)), got \(bad)")
        }
        return try Interpreter(model: model, numThreads: threads, readOutputs: selected)
    }

    /// `interpreter(_:threads:)` with its inputs filled with random values in [0, 1) (for timing).
    func randomlyFedInterpreter(_ model: TFLiteModel, threads: Int) throws -> Interpreter {
        let interpreter = try interpreter(model, threads: threads)
        var generator = SystemRandomNumberGenerator()
        for (i, info) in interpreter.inputs.enumerated() {
            try interpreter.setInput(i, (0..<info.elementCount).map { _ in Float.random(in: 0..<1, using: &generator) })
        }
        return interpreter
    }
}

// MARK: - model info

/// `vision-tasks model info PATH [--entry NAME]`: inputs, outputs, operator counts and metadata.
struct ModelInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a model's inputs, outputs, operator counts and metadata, or list a .task bundle's files."
    )

    @OptionGroup var source: ModelSourceOptions

    func run() async throws {
        try reportingErrors {
            let bytes = try source.readFile()
            if try ModelSourceOptions.isZip(bytes, path: source.path), source.entry == nil {
                Console.out(
                    try ModelInfo.bundleListing(
                        ModelBundle(data: bytes, name: source.path, maxDecompressedBytes: source.maxBundleBytes)))
            } else {
                let (name, model) = try source.loadModel()
                Console.out(try ModelInfo.describe(model, name: name))
            }
        }
    }
}

/// Text descriptions of models and bundles for `model info`.
enum ModelInfo {
    /// "[1, 256, 256, 3]".
    static func shape(_ shape: [Int]) -> String { "[" + shape.map(String.init).joined(separator: ", ") + "]" }

    /// One line per tensor of `indices`: index, name, shape, type.
    static func tensorLines(_ indices: [Int], in subgraph: TFLiteModel.Subgraph) -> String {
        indices.enumerated().map { position, index in
            let tensor = subgraph.tensors[index]
            var line = "  \(position): \(tensor.name) \(shape(tensor.shape)) \(tensor.type)"
            if let signature = tensor.shapeSignature, signature != tensor.shape {
                line += " (signature \(shape(signature)))"
            }
            return line + "\n"
        }.joined()
    }

    /// The full description of a model.
    static func describe(_ model: TFLiteModel, name: String) throws -> String {
        var text = "model: \(name) (\(model.data.count) bytes, schema version \(model.version))\n"
        if !model.description.isEmpty { text += "description: \(model.description)\n" }
        for (index, subgraph) in model.subgraphs.enumerated() {
            let label = model.subgraphs.count > 1 ? "subgraph \(index) " : ""
            text += "\(label)inputs:\n" + tensorLines(subgraph.inputs, in: subgraph)
            text += "\(label)outputs:\n" + tensorLines(subgraph.outputs, in: subgraph)
            var counts: [String: Int] = [:]
            for op in subgraph.operators {
                counts[op.opcode == .custom ? "CUSTOM(\(op.customCode ?? ""))" : op.opcode.name, default: 0] += 1
            }
            text += "\(label)operators: \(subgraph.operators.count) (\(subgraph.tensors.count) tensors)\n"
            for (opName, count) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                text += "  \(opName): \(count)\n"
            }
        }
        text += try metadataSummary(model)
        return text
    }

    /// Metadata name, per-input normalization and per-output label counts.
    static func metadataSummary(_ model: TFLiteModel) throws -> String {
        var text = ""
        let entries = model.metadata.keys.sorted()
        if !entries.isEmpty { text += "metadata entries: \(entries.joined(separator: ", "))\n" }
        if let metadata = model.modelMetadata {
            text += "metadata:\n"
            if let name = metadata.name { text += "  name: \(name)\n" }
            if let description = metadata.description, !description.isEmpty {
                text += "  description: \(description)\n"
            }
            if let version = metadata.version { text += "  version: \(version)\n" }
            for (subgraphIndex, subgraph) in metadata.subgraphs.enumerated() {
                for (index, tensor) in subgraph.inputTensors.enumerated() {
                    if let n = tensor.normalization {
                        text += "  input \(index) \(tensor.name ?? ""): normalization mean \(n.mean) std \(n.std)\n"
                    }
                }
                for index in subgraph.outputTensors.indices {
                    if let labels = try model.labels(forOutput: index, subgraph: subgraphIndex) {
                        let preview = labels.prefix(8).joined(separator: ", ") + (labels.count > 8 ? ", ..." : "")
                        text +=
                            "  output \(index) \(subgraph.outputTensors[index].name ?? ""): \(labels.count) labels (\(preview))"
                            + misfit(labels.count, output: index, subgraph: subgraphIndex, in: model) + "\n"
                    }
                }
            }
        }
        if !model.associatedFiles.isEmpty {
            text += "associated files: \(model.associatedFiles.keys.sorted().joined(separator: ", "))\n"
        }
        return text
    }

    /// "; they do not fit output i's N values …" when `count` labels cannot name the classes of the graph's output
    /// `output` (its last dimension): the metadata lists its outputs in another order than the graph (Google's hand
    /// landmark models put handedness first), else "".
    static func misfit(_ count: Int, output: Int, subgraph: Int, in model: TFLiteModel) -> String {
        guard model.subgraphs.indices.contains(subgraph), model.subgraphs[subgraph].outputs.indices.contains(output)
        else { return "" }
        let graph = model.subgraphs[subgraph]
        let tensor = graph.outputs[output]
        // One value with two labels is a binary classifier's (MediaPipe's handedness: the second label's score).
        guard graph.tensors.indices.contains(tensor), let classes = graph.tensors[tensor].shape.last, classes != count,
            !(classes == 1 && count == 2)
        else { return "" }
        return
            "; they do not fit the graph's output \(output) (\(shape(graph.tensors[tensor].shape))): the metadata may "
            + "list its outputs in another order than the graph"
    }

    /// The bundle's files, nested bundles indented under theirs.
    static func bundleListing(_ bundle: ModelBundle, indent: String = "") throws -> String {
        var text = indent.isEmpty ? "bundle: \(bundle.name) (\(bundle.fileNames.count) files)\n" : ""
        for fileName in bundle.fileNames {
            let size = bundle.declaredSize(of: fileName) ?? 0
            text += "\(indent)  \(fileName) (\(size) bytes)\n"
            if fileName.hasSuffix(".task") {
                text += try bundleListing(bundle.bundle(named: fileName), indent: indent + "  ")
            }
        }
        return text
    }
}
