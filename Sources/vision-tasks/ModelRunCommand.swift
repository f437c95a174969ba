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
        help: "An input tensor and its raw little-endian float32 file, as NAME=FILE (repeat for each input).")
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
            var given: [String: String] = [:]
            for spec in inputs {
                guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex else {
                    throw VisionTasksError.invalidArgument("--input \(spec): expected NAME=FILE")
                }
                let name = String(spec[..<eq])
                guard given[name] == nil else {
                    throw VisionTasksError.invalidArgument("--input \(name) is given twice")
                }
                given[name] = String(spec[spec.index(after: eq)...])
            }
            let names = interpreter.inputs.map(\.name)
            for name in given.keys where !names.contains(name) {
                throw VisionTasksError.invalidArgument(
                    "--input \(name): the model has no such input (inputs: \(names.joined(separator: ", ")))")
            }
            for (i, info) in interpreter.inputs.enumerated() {
                guard let file = given[info.name] else {
                    throw VisionTasksError.invalidArgument("missing --input \(info.name)=FILE (\(info.shape) float32)")
                }
                let values = try RawFloats.read(file)
                guard values.count == info.elementCount else {
                    throw VisionTasksError.invalidArgument(
                        "\(file) holds \(values.count) floats, input \(info.name) \(info.shape) needs \(info.elementCount)"
                    )
                }
                // The kernels clamp a NaN to an activation's bound where LiteRT's carry it on: the outputs would
                // look sound.
                if let bad = values.firstIndex(where: { !$0.isFinite }) {
                    throw VisionTasksError.invalidArgument(
                        "\(file) holds \(values[bad]) at value \(bad): input \(info.name) takes finite numbers only")
                }
                try interpreter.setInput(i, values)
            }
            interpreter.invoke()
            if let problem = OutputFiles.makeFolder(outputDir) {
                throw VisionTasksError.fileUnwritable(path: outputDir, reason: problem)
            }
            let fileNames = RawFloats.fileNames(forTensors: interpreter.outputs.map(\.name))
            for (i, info) in interpreter.outputs.enumerated() where read?.contains(i) ?? true {
                let file = URL(fileURLWithPath: outputDir).appendingPathComponent(fileNames[i]).path
                try RawFloats.write(interpreter.output(i), to: file)
                Console.out("\(info.name) \(ModelInfo.shape(info.shape)) -> \(file)\n")
            }
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

    /// The floats of `path`; throws when it is missing or not a multiple of 4 bytes.
    static func read(_ path: String) throws -> [Float] {
        let data = try ModelFile.read(path)
        guard data.count % 4 == 0 else {
            throw VisionTasksError.invalidArgument(
                "\(path) has \(data.count) bytes, not a whole number of float32 values")
        }
        return data.withUnsafeBytes { raw in
            (0..<data.count / 4).map {
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
