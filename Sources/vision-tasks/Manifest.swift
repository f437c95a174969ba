import ArgumentParser
import Foundation
import VisionTasks

/// The options that make the tool a worker of a batch system: inputs from a manifest, one shard of
/// them, results appended to a file and resumed after a kill.
struct BatchOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read the images to process from a file, one path per line ('-': standard input); blank lines are skipped.",
            valueName: "file"))
    var inputList: String?

    @Option(
        help: ArgumentHelp(
            "Read videos to process in video mode from a file, one path per line ('-': standard input); each video's frame lines end with a line holding its \"video\" summary.",
            valueName: "file"))
    var videoList: String?

    @Option(
        help: ArgumentHelp(
            "Process only shard K of N (K from 0 to N-1): the inputs whose stable hash of the path as given (64-bit FNV-1a), modulo N, is K. N workers given 0/N ... N-1/N split the inputs without overlap.",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Append the result lines to this file instead of standard output (- is standard output), each line written whole.",
            valueName: "file.jsonl"))
    var output: String?

    /// The file `--output` names: nil for standard output (none given, or `-`, as filters take it).
    var outputFile: String? { output == "-" ? nil : output }

    @Option(
        help: ArgumentHelp(
            "How results are written: jsonl (one JSON object per image or frame) or csv (one table: a header, then a row per face, hand, person or segmentation label per image or frame, and a row with success 0 for one with none).",
            valueName: "jsonl|csv"))
    var format: OutputFormat = .jsonl

    @Flag(
        help:
            "With --output: skip the inputs whose final line the file already holds; lines after the last one (a video cut short, a line cut by a kill) are removed and redone."
    )
    var resume = false

    /// How many manifest options were given (each is a kind of input).
    var manifestCount: Int { [inputList, videoList].compactMap { $0 }.count }

    /// Usage errors (exit 64): a malformed shard, `--resume` without `--output`, both lists reading stdin.
    func validate(hasImages: Bool) throws {
        if let shard { _ = try Shard(parsing: shard) }
        if resume, outputFile == nil {
            throw ValidationError("--resume needs --output FILE (a file, not -): it continues the results in that file")
        }
        if (shard != nil || resume), !hasImages, manifestCount == 0 {
            throw ValidationError("--shard and --resume apply to images, folders, --input-list and --video-list")
        }
    }

    /// The shard to keep, if `--shard` was given.
    var selectedShard: Shard? { get throws { try shard.map { try Shard(parsing: $0) } } }

    /// Where the result lines go: `--output` (read first with `--resume`; opening with the CSV table's
    /// `header` when given), else standard output.
    func makeSink(header: Data? = nil) throws -> ResultSink {
        guard let output = outputFile else { return .standardOutput }
        return try ResultSink(appendingTo: output, resume: resume, header: header)
    }
}

/// Shard `index` of `count`: the paths whose 64-bit FNV-1a hash of their UTF-8 bytes, modulo `count`,
/// is `index`. The hash depends on nothing but the path's bytes, so every worker on every machine
/// agrees on where each path belongs.
struct Shard: Equatable {
    let index: Int
    let count: Int

    /// "K/N" with 0 ≤ K < N.
    init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (0..<count).contains(index)
        else {
            throw ValidationError("--shard \(text): give K/N with N at least 1 and K from 0 to N-1 (such as 0/4)")
        }
        self.index = index
        self.count = count
    }

    /// Whether `path` (as given) belongs to this shard.
    func contains(_ path: String) -> Bool {
        Self.hash(path) % UInt64(count) == UInt64(index)
    }

    /// 64-bit FNV-1a of the UTF-8 bytes of `path`.
    static func hash(_ path: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// A manifest: one input per line, as given (trailing "\r" removed, blank lines skipped).
enum Manifest {
    /// The most bytes a list may hold (256 MiB, about two and a half million paths): `/dev/zero` or a runaway
    /// pipe is refused rather than read until memory runs out. A longer list is split into several runs.
    static let maxBytes = 256 << 20
    /// The longest line: Linux's longest path (PATH_MAX). A longer one names no file, and `--resume` reads back at
    /// most 1 MiB of each output line.
    static let maxLineBytes = Int(PATH_MAX)

    /// What a list holds: its paths in order, and why some cannot be read (a line that is not UTF-8 names no path a
    /// String can hold: it is kept, its other bytes shown as `\xHH`, with its problem, as the folder walk keeps a
    /// file whose name is not UTF-8, so one such line does not end the run).
    struct Listing {
        /// The listed paths, in order.
        var paths: [String]
        /// Index in `paths` → why that line cannot be read (by index: its shown name may be a real file's too).
        var problems: [Int: String]
    }

    /// The paths listed in `source` (a file, or "-" for standard input); `option` names the flag in errors.
    static func read(_ source: String, option: String) throws -> Listing {
        let bytes: Data
        if source == "-" {
            bytes = try readAll(STDIN_FILENO, what: "standard input", option: option)
        } else {
            let fd = open(source, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                if errno == ENOENT { throw VisionTasksError.fileNotFound(path: source) }
                throw VisionTasksError.fileUnreadable(path: source, reason: String(cString: strerror(errno)))
            }
            defer { close(fd) }
            bytes = try readAll(fd, what: source, option: option)
        }
        var paths: [String] = [], problems: [Int: String] = [:]
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        {
            var trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
            // A byte order mark at a line's start is no part of its path (a BOM-only line is blank).
            if trimmed.starts(with: [0xEF, 0xBB, 0xBF]) { trimmed = trimmed.dropFirst(3) }
            guard !trimmed.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { continue }
            guard trimmed.count <= maxLineBytes else {
                throw VisionTasksError.invalidOption(
                    name: option,
                    reason:
                        "line \(number + 1) of \(source == "-" ? "standard input" : source) is longer than a path can be "
                        + "(\(maxLineBytes) bytes)")
            }
            guard let path = String(bytes: trimmed, encoding: .utf8) else {
                let shown = escaped(trimmed)
                problems[paths.count] =
                    "(line \(number + 1) of \(source == "-" ? "standard input" : source)) is not UTF-8 (its other bytes "
                    + "shown as \\xHH); rename the file to read it"
                paths.append(shown)
                continue
            }
            paths.append(path)
        }
        return Listing(paths: paths, problems: problems)
    }

    /// `bytes` as text: UTF-8 where they are, each other byte as `\xHH` (two names that differ only in such bytes
    /// stay apart, where U+FFFD made them one).
    static func escaped(_ bytes: some Collection<UInt8>) -> String {
        var text = "", iterator = bytes.makeIterator(), parser = Unicode.UTF8.ForwardParser()
        var rest = Array(bytes)[...]
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                rest = rest.dropFirst(encoded.count)
            case .error(let length):
                for byte in rest.prefix(length) { text += String(format: "\\x%02X", byte) }
                rest = rest.dropFirst(length)
            case .emptyInput:
                return text
            }
        }
    }

    /// Everything `fd` holds until its end, at most `maxBytes`.
    private static func readAll(_ fd: Int32, what: String, option: String) throws -> Data {
        var data = Data()
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = block.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                guard data.count + n <= maxBytes else {
                    throw VisionTasksError.invalidOption(
                        name: option, reason: "\(what) holds more than \(maxBytes >> 20) MiB: split the list")
                }
                data.append(contentsOf: block[0..<n])
                continue
            }
            if n == 0 { return data }
            if errno == EINTR { continue }
            throw VisionTasksError.invalidOption(
                name: option, reason: "cannot read \(what): \(String(cString: strerror(errno)))")
        }
    }
}
