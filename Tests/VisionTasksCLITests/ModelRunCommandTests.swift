import FixtureSupport
import Foundation
import Testing

/// `vision-tasks model run`, run as a process: raw float32 files in and out, one output file per tensor.
@Suite
struct ModelRunCommandTests {
    private static let model = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite")

    /// The files `model run` wrote in `folder`, by name.
    private static func outputs(_ folder: URL) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) })
    }

    /// `data` with the tensor name stored as the FlatBuffer string `old` set to `new` (no longer than `old`).
    private static func renaming(_ old: String, to new: String, in data: Data) throws -> Data {
        let stored = withUnsafeBytes(of: UInt32(old.utf8.count).littleEndian, Array.init) + Array(old.utf8)
        let at = try #require(data.range(of: Data(stored)), "no string \(old) in the model")
        var bytes = [UInt8](data)
        let name = withUnsafeBytes(of: UInt32(new.utf8.count).littleEndian, Array.init) + Array(new.utf8)
        bytes.replaceSubrange(at.lowerBound..<(at.lowerBound + name.count), with: name)
        return Data(bytes)
    }

    /// `--read-outputs` is honoured (every output was computed and written, and any index accepted); `--threads`,
    /// inputs that are not finite (the kernels' clamps hid a NaN), bytes that are no model and an output folder that
    /// cannot be made are errors naming the problem.
    @Test func readOutputsAndBadArgumentsAreHonoured() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        func input(_ values: [Float], _ name: String) throws -> String {
            let file = scratch.appendingPathComponent(name)
            try values.withUnsafeBytes { Data($0) }.write(to: file)
            return "input=\(file.path)"
        }
        let good = try input([Float](repeating: 0.5, count: 128 * 128 * 3), "good.f32")
        func run(_ arguments: [String], input: String? = nil, out: String = "out") throws -> CLIRun {
            try CLIRun.run(
                [
                    "model", "run", Self.model.path, "--input", input ?? good, "--output-dir",
                    scratch.appendingPathComponent(out).path,
                ] + arguments)
        }
        let one = try run(["--read-outputs", "1"], out: "one")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try Self.outputs(scratch.appendingPathComponent("one")).keys.sorted() == ["classificators.f32"])
        let all = try run([], out: "all")
        #expect(all.status == 0, "\(all.stderr)")
        #expect(
            try Self.outputs(scratch.appendingPathComponent("all"))["classificators.f32"]
                == Self.outputs(scratch.appendingPathComponent("one"))["classificators.f32"])
        let missing = try run(["--read-outputs", "7"])
        #expect(
            missing.status == 1 && missing.stderr.contains("--read-outputs") && missing.stderr.contains("2 outputs"))
        let threads = try run(["--threads", "0"])
        #expect(threads.status == 1 && threads.stderr.contains("--threads"), "\(threads.stderr)")
        var poisoned = [Float](repeating: 0.5, count: 128 * 128 * 3)
        poisoned[5] = .nan
        let nan = try run([], input: try input(poisoned, "nan.f32"))
        #expect(nan.status == 1 && nan.stderr.contains("at value 5") && nan.stderr.contains("finite"), "\(nan.stderr)")
        let junk = scratch.appendingPathComponent("junk.tflite")
        try Data("not a model at all".utf8).write(to: junk)
        let neither = try CLIRun.run(["model", "info", junk.path])
        #expect(neither.status == 1 && neither.stderr.contains("neither a TFLite model"), "\(neither.stderr)")
        try Data().write(to: scratch.appendingPathComponent("file"))
        let folder = try run([], out: "file/out")
        #expect(
            folder.status == 1 && folder.stderr.contains("Cannot write file")
                && folder.stderr.contains("Not a directory"), "\(folder.stderr)")
        // `model info` computes nothing: it takes no --read-outputs.
        #expect(try CLIRun.run(["model", "info", Self.model.path, "--read-outputs", "0"]).status == 64)
    }

    /// An input file of the wrong size is refused from its size, before it is read (2 GB were read whole, twice
    /// over in memory, 20 s, to say so); a file that is neither a model nor a bundle is found so at once (the whole
    /// file was searched for a zip entry, 13 s for 100 MB); an input with no name is given by index; no output may
    /// replace an input; sums that overflow give NaN, as LiteRT's do (the kernels' clamps gave plausible scores).
    @Test func inputsAreCheckedBeforeTheyAreReadAndNaNIsCarriedOn() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let good = scratch.appendingPathComponent("good.f32")
        try [Float](repeating: 0.5, count: 128 * 128 * 3).withUnsafeBytes { Data($0) }.write(to: good)
        let huge = scratch.appendingPathComponent("huge.f32")
        FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 31)
        try handle.close()
        func run(_ model: String, _ input: String, out: String = "out") throws -> CLIRun {
            try CLIRun.run([
                "model", "run", model, "--input", input, "--output-dir", scratch.appendingPathComponent(out).path,
            ])
        }
        var started = Date()
        let big = try run(Self.model.path, "input=\(huge.path)")
        #expect(
            big.status == 1 && big.stderr.contains("holds 536870912 floats, input input [1, 128, 128, 3] needs 49152"),
            "\(big.stderr)")
        #expect(Date().timeIntervalSince(started) < 5, "took \(Date().timeIntervalSince(started)) s")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out").path))
        try FileHandle(forWritingTo: huge).truncate(atOffset: 100 << 20)
        started = Date()
        let neither = try CLIRun.run(["model", "info", huge.path])
        #expect(neither.status == 1 && neither.stderr.contains("neither a TFLite model"), "\(neither.stderr)")
        #expect(Date().timeIntervalSince(started) < 5, "took \(Date().timeIntervalSince(started)) s")
        // An input without a name: given by index, or by its empty name; a missing one is named by index.
        let unnamed = scratch.appendingPathComponent("unnamed.tflite")
        try Self.renaming("input", to: "", in: try Data(contentsOf: Self.model)).write(to: unnamed)
        let missing = try CLIRun.run([
            "model", "run", unnamed.path, "--output-dir", scratch.appendingPathComponent("m").path,
        ])
        #expect(missing.status == 1 && missing.stderr.contains("missing --input #0=FILE"), "\(missing.stderr)")
        #expect(try run(unnamed.path, "#0=\(good.path)", out: "a").status == 0)
        #expect(try run(unnamed.path, "=\(good.path)", out: "b").status == 0)
        let noSuch = try run(unnamed.path, "#1=\(good.path)", out: "c")
        #expect(noSuch.status == 1 && noSuch.stderr.contains("no such input (inputs: #0)"), "\(noSuch.stderr)")
        // A name holding "=" cannot stand as NAME in NAME=FILE: errors name it by index, which works.
        let equals = scratch.appendingPathComponent("equals.tflite")
        try Self.renaming("input", to: "in=p", in: try Data(contentsOf: Self.model)).write(to: equals)
        let unnamedToo = try CLIRun.run([
            "model", "run", equals.path, "--output-dir", scratch.appendingPathComponent("e").path,
        ])
        #expect(unnamedToo.stderr.contains("missing --input #0=FILE"), "\(unnamedToo.stderr)")
        #expect(try run(equals.path, "#0=\(good.path)", out: "e").status == 0)
        let empty = try run(Self.model.path, "input=", out: "f")
        #expect(empty.status == 1 && empty.stderr.contains("--input input=: the file name is empty"), "\(empty.stderr)")
        // An output that is a link into a folder that does not exist: refused before any output is written.
        let linked = scratch.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: linked.appendingPathComponent("classificators.f32").path,
            withDestinationPath: scratch.appendingPathComponent("nowhere/y.f32").path)
        let dangling = try run(Self.model.path, "input=\(good.path)", out: "linked")
        #expect(dangling.status == 1 && dangling.stderr.contains("classificators.f32"), "\(dangling.stderr)")
        #expect(!FileManager.default.fileExists(atPath: linked.appendingPathComponent("regressors.f32").path))
        // An output that is an input file: refused before anything is written.
        let out = scratch.appendingPathComponent("same")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let input = out.appendingPathComponent("regressors.f32")
        try FileManager.default.copyItem(at: good, to: input)
        let over = try run(Self.model.path, "input=\(input.path)", out: "same")
        #expect(over.status == 1 && over.stderr.contains("is the input"), "\(over.stderr)")
        #expect(try Data(contentsOf: input) == Data(contentsOf: good))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("classificators.f32").path))
        // 3e38 everywhere: the convolutions' sums overflow; LiteRT gives NaN in every output.
        let vast = scratch.appendingPathComponent("vast.f32")
        try [Float](repeating: 3e38, count: 128 * 128 * 3).withUnsafeBytes { Data($0) }.write(to: vast)
        let overflow = try run(Self.model.path, "input=\(vast.path)", out: "vast")
        #expect(overflow.status == 0, "\(overflow.stderr)")
        let scores = try Data(contentsOf: scratch.appendingPathComponent("vast/classificators.f32")).withUnsafeBytes {
            Array($0.bindMemory(to: Float.self))
        }
        #expect(scores.count == 896 && scores.allSatisfy { $0.isNaN }, "\(scores.prefix(4))")
    }

    @Test func outputsWhoseNamesMakeOneFileNameGetAFileEach() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("input.f32")
        var generator = SystemRandomNumberGenerator()
        let values = (0..<(128 * 128 * 3)).map { _ in Float.random(in: -1...1, using: &generator) }
        try values.withUnsafeBytes { Data($0) }.write(to: input)
        // "regressors" and "classificators" renamed "regressor/" and "regressor:": both read "regressor_" as files.
        let original = try Data(contentsOf: Self.model)
        let patched = scratch.appendingPathComponent("patched.tflite")
        try Self.renaming(
            "classificators", to: "regressor:", in: try Self.renaming("regressors", to: "regressor/", in: original)
        ).write(to: patched)
        // An empty name, and one with a control character.
        let unnamed = scratch.appendingPathComponent("unnamed.tflite")
        try Self.renaming("classificators", to: "a\tb", in: try Self.renaming("regressors", to: "", in: original))
            .write(to: unnamed)
        var written: [[String: Data]] = []
        for (model, folder) in [(Self.model.path, "plain"), (patched.path, "patched"), (unnamed.path, "unnamed")] {
            let out = scratch.appendingPathComponent(folder)
            let run = try CLIRun.run([
                "model", "run", model, "--input", "input=\(input.path)", "--output-dir", out.path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            written.append(try Self.outputs(out))
        }
        #expect(written[0].keys.sorted() == ["classificators.f32", "regressors.f32"])
        #expect(written[1].keys.sorted() == ["regressor_-0.f32", "regressor_-1.f32"])
        #expect(written[1]["regressor_-0.f32"] == written[0]["regressors.f32"])
        #expect(written[1]["regressor_-1.f32"] == written[0]["classificators.f32"])
        #expect(written[0]["regressors.f32"]?.count == 896 * 16 * 4)
        #expect(written[2].keys.sorted() == ["a_b.f32", "output0.f32"])
        #expect(written[2]["output0.f32"] == written[0]["regressors.f32"])
        let twice = try CLIRun.run([
            "model", "run", Self.model.path, "--input", "input=\(input.path)", "--input", "input=\(input.path)",
            "--output-dir", scratch.appendingPathComponent("twice").path,
        ])
        #expect(twice.status != 0 && twice.stderr.contains("--input input is given twice"), "\(twice.stderr)")
    }
}
