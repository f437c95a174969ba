import ArgumentParser
import Foundation
import Inference
import TFLite
import VisionCore
import VisionErrors

/// `vision-tasks model run PATH [--entry NAME] --input NAME=FILE ... --output-dir DIR`: runs a model on
/// raw little-endian float32 inputs and writes each output read (`--read-outputs`; all by default) as
/// DIR/<its name made a file name>.f32 (`RawFloats.fileNames`).
struct ModelRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a model on raw float32 input files and write its outputs as raw float32 files."
    )

    @OptionGroup var source: ModelSourceOptions

    @OptionGroup var outputs: OutputSelection

    @Option(
        name: .customLong("input"),
        help: ArgumentHelp(
            "An input tensor and its raw little-endian float32 file, as NAME=FILE, or #INDEX=FILE (from 0), as errors "
                + "name an input whose name is empty, shared, holds = or opens with # (repeat for each input)."))
    var inputs: [String] = []

    @Option(help: "Directory the outputs are written to (created if missing).")
    var outputDir: String

    @Option(help: "Worker threads (1 to 64).")
    var threads = 1

    func run() async throws {
        try reportingErrors {
            guard !outputDir.isEmpty else {
                throw VisionTasksError.invalidOption(name: "--output-dir", reason: "is empty: name a folder")
            }
            let (_, model) = try source.loadModel()
            let interpreter = try outputs.interpreter(model, threads: threads)
            let read = try outputs.indices
            let names = interpreter.inputs.map(\.name)
            let files = try Self.inputFiles(inputs, names: names)
            for (i, info) in interpreter.inputs.enumerated() {
                let label = Self.label(i, names: names)
                let values = try RawFloats.read(files[i], count: info.elementCount, input: "\(label) \(info.shape)")
                // Not every kernel carries a NaN on as LiteRT's do (a maximum passes over it): refused, so that no
                // output looks sound that LiteRT gives as NaN.
                if let bad = values.firstIndex(where: { !$0.isFinite }) {
                    throw VisionTasksError.invalidArgument(
                        "\(files[i]) holds \(values[bad]) at value \(bad): input \(label) takes finite numbers only")
                }
                try interpreter.setInput(i, values)
            }
            // The inputs read (and their sizes checked) first; then the outputs, before any is written (an output that
            // was a folder failed after the outputs before it were written): none may be the model or an input file,
            // each must be writable. The folder is made once the inputs are read: a bad input leaves none behind.
            let fileNames = RawFloats.fileNames(forTensors: interpreter.outputs.map(\.name))
            let written = interpreter.outputs.indices.filter { read?.contains($0) ?? true }.map {
                ($0, URL(fileURLWithPath: outputDir).appendingPathComponent(fileNames[$0]).path)
            }
            let readFiles = OutputFiles.InputFiles([source.path] + files)
            if let problem = OutputFiles.makeFolder(outputDir) {
                throw VisionTasksError.fileUnwritable(path: outputDir, reason: problem)
            }
            for (_, file) in written {
                try OutputFiles.checkNotAnInput(file, option: "--output-dir", inputs: readFiles)
                try OutputFiles.checkWritable(file, option: "--output-dir")
            }
            interpreter.invoke()
            for (i, file) in written {
                try RawFloats.write(interpreter.output(i), to: file)
                Console.out(
                    "\(interpreter.outputs[i].name) \(ModelInfo.shape(interpreter.outputs[i].shape)) -> \(file)\n")
            }
        }
    }

    /// How errors name input `index` of inputs named `names`: its name, or `#index` where the name cannot stand as
    /// NAME in NAME=FILE (empty, shared, holding "=", or opening with "#", which an index does).
    static func label(_ index: Int, names: [String]) -> String {
        let name = names[index]
        let usable =
            !name.isEmpty && !name.contains("=") && !name.hasPrefix("#") && names.filter { $0 == name }.count == 1
        return usable ? name : "#\(index)"
    }

    /// The file of each input of a model whose inputs are named `names`, from `--input` values `specs` (NAME=FILE,
    /// or #INDEX=FILE).
    /// - Throws: `VisionTasksError.invalidArgument` for a value that is not KEY=FILE, a name no input has or two share,
    ///   an index out of range, an input given twice or not at all.
    static func inputFiles(_ specs: [String], names: [String]) throws -> [String] {
        var files = [String?](repeating: nil, count: names.count)
        for spec in specs {
            guard let eq = spec.firstIndex(of: "=") else {
                throw VisionTasksError.invalidArgument("--input \(spec): expected NAME=FILE or #INDEX=FILE")
            }
            let key = String(spec[..<eq]), file = String(spec[spec.index(after: eq)...])
            guard !file.isEmpty else {
                throw VisionTasksError.invalidArgument("--input \(spec): the file name is empty")
            }
            let matching = names.indices.filter { names[$0] == key }
            let index: Int
            // "#N" is an index first: a name that opens with "#" is given by its index, as errors name it.
            if key.hasPrefix("#"), let given = Int(key.dropFirst()), names.indices.contains(given) {
                index = given
            } else if matching.count == 1 {
                index = matching[0]
            } else if matching.count > 1 {
                throw VisionTasksError.invalidArgument(
                    "--input \(key): inputs \(matching.map { "#\($0)" }.joined(separator: ", ")) share that name: give "
                        + "them by index (#\(matching[0])=FILE)")
            } else {
                let listed = names.indices.map { label($0, names: names) }.joined(separator: ", ")
                throw VisionTasksError.invalidArgument(
                    "--input \(key): the model has no such input (inputs: \(listed))")
            }
            guard files[index] == nil else {
                throw VisionTasksError.invalidArgument("--input \(label(index, names: names)) is given twice")
            }
            files[index] = file
        }
        return try files.enumerated().map { i, file in
            guard let file else {
                throw VisionTasksError.invalidArgument(
                    "missing --input \(label(i, names: names))=FILE (\(names.count) inputs, each given once)")
            }
            return file
        }
    }
}

/// Raw little-endian float32 files, as `model run` reads and writes them.
enum RawFloats {
    /// A file name for each tensor of `names`, distinct: "<name>.f32" with "/", ":" and control characters
    /// replaced by "_" ("output<i>" for an empty name); where two would be the same, each becomes "<name>-<i>.f32"
    /// (i: the tensor's place in `names`; "-<i>" again while another has that name).
    static func fileNames(forTensors names: [String]) -> [String] {
        let stems = names.enumerated().map { i, name in
            name.isEmpty
                ? "output\(i)"
                : String(
                    String.UnicodeScalarView(
                        name.unicodeScalars.map {
                            $0 == "/" || $0 == ":" || $0.properties.generalCategory == .control ? "_" : $0
                        }))
        }
        let counts = Dictionary(stems.map { ($0, 1) }, uniquingKeysWith: +)
        // The names no other shares first; then each shared one with "-i", and "-i" again while that is taken.
        var taken = Set(stems.filter { counts[$0] == 1 })
        return stems.enumerated().map { i, stem in
            guard counts[stem, default: 0] > 1 else { return stem + ".f32" }
            var name = "\(stem)-\(i)"
            while taken.contains(name) { name += "-\(i)" }
            taken.insert(name)
            return name + ".f32"
        }
    }

    /// The `count` floats of `path`, which `input` (named in errors) takes; its size is checked before it is read (a
    /// file of 2 GB was read whole, twice over in memory, to say it was the wrong size).
    /// - Throws: `VisionTasksError.fileNotFound`, `.fileUnreadable` (a folder, a pipe, a device), or `.invalidArgument`
    ///   for a file that is not `count` float32 values.
    static func read(_ path: String, count: Int, input: String) throws -> [Float] {
        func check(bytes: Int) throws {
            guard bytes % 4 == 0 else {
                throw VisionTasksError.invalidArgument(
                    "\(path) has \(bytes) bytes, not a whole number of float32 values")
            }
            guard bytes / 4 == count else {
                throw VisionTasksError.invalidArgument(
                    "\(path) holds \(bytes / 4) floats, input \(input) needs \(count)")
            }
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { try check(bytes: Int(status.st_size)) }
        let data = try ModelFile.read(path)
        try check(bytes: data.count)
        return data.withUnsafeBytes { raw in
            (0..<count).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)))
            }
        }
    }

    /// Writes `values` little-endian to `path`.
    static func write(_ values: [Float], to path: String) throws {
        var data = Data(capacity: values.count * 4)
        for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        try OutputFile.write(data, to: path)
    }
}
