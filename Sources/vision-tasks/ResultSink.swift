import Foundation
import VisionTasks

/// Where the result lines go: standard output, or with `--output FILE` a file opened for appending,
/// each line written whole by one `write(2)` (a kill leaves at most the last line cut short). With
/// `--resume` the file is read first: the inputs whose final line it holds are `finished`, and what
/// follows the last final line (the frame lines of a video cut short, a partial line) is cut off to be
/// redone. An input's final line is its one line without `"frame"`: an image's result or error line, a
/// video's closing `"video"` summary or its error line. The file is locked while a run writes it.
/// With `--format csv` the file is one table: its header first (written into an empty file, checked
/// in one that holds rows), then rows, an input's final rows being those without a frame (`CSVTable`).
final class ResultSink: @unchecked Sendable {
    /// The output file, nil for standard output.
    let path: String?
    /// The inputs whose final line the file held when the run started (`--resume`; else empty).
    let finished: Set<ExactName>
    /// How many lines after the last final line were cut off by `--resume`.
    let discardedLines: Int
    /// The inputs of `finished` whose last final line says they failed (an error line, a video with failed frames): a
    /// resumed run that skips one is no success (their error lines stay).
    private let failedBefore: Set<ExactName>
    /// The inputs of `finished` with any final line that says they failed (for inputs that cannot be read by their
    /// name, whose shown name a real file may share: see `isFinished`).
    private let erroredBefore: Set<ExactName>
    private let descriptor: Int32
    private let lock = NSLock()

    /// Lines to standard output.
    static let standardOutput = ResultSink()

    // MARK: - Opening

    private init() {
        path = nil
        finished = []
        discardedLines = 0
        (failedBefore, erroredBefore) = ([], [])
        descriptor = STDOUT_FILENO
    }

    /// Appends to `path` (created if missing); with `resume`, reads what it holds first. `header`: the
    /// CSV table's header line, which must open the file (nil: JSON lines). Throws naming the file when
    /// it cannot be opened, is written by another run, or holds lines that are not ours.
    init(appendingTo path: String, resume: Bool, header: Data? = nil) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw VisionTasksError.invalidOption(
                name: "--output", reason: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw VisionTasksError.invalidOption(
                name: "--output", reason: "\(path) is being written by another run (it is locked)")
        }
        if resume {
            do {
                // A device or a pipe holds no earlier run: /dev/zero was read for ever, a pipe said "Illegal seek".
                var status = stat()
                guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                    throw VisionTasksError.invalidOption(
                        name: "--resume",
                        reason: "\(path) is not a regular file (a device or a pipe): it holds no earlier run to resume")
                }
                let scan = try Self.scan(fd, path: path, header: header)
                finished = scan.finished
                discardedLines = scan.discardedLines
                failedBefore = scan.failed.intersection(scan.finished)
                erroredBefore = scan.errored.intersection(scan.finished)
                guard ftruncate(fd, off_t(scan.end)) == 0 else {
                    throw VisionTasksError.invalidOption(
                        name: "--output",
                        reason: "cannot cut \(path) to its last whole input: \(String(cString: strerror(errno)))")
                }
            } catch {
                close(fd)
                throw error
            }
        } else {
            finished = []
            discardedLines = 0
            (failedBefore, erroredBefore) = ([], [])
        }
        do {
            if !resume { try Self.checkWholeLastLine(fd, path: path) }
            if let header {
                try Self.openTable(fd, path: path, header: header)
            } else {
                try Self.checkLines(fd, path: path)
            }
        } catch {
            close(fd)
            throw error
        }
    }

    /// Checks that a file results are appended to ends with a whole line: a run stopped while writing left one cut,
    /// and the next line was glued to it (one line that is no JSON, which `--resume` then took as finished). A pipe or
    /// device is not read.
    private static func checkWholeLastLine(_ fd: Int32, path: String) throws {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return }
        var last: UInt8 = 0
        guard pread(fd, &last, 1, off_t(status.st_size - 1)) == 1, last != UInt8(ascii: "\n") else { return }
        throw VisionTasksError.invalidOption(
            name: "--output",
            reason: "\(path) ends in a cut line (a run stopped while writing it): --resume removes it and goes on")
    }

    /// Checks that a file JSON lines are appended to holds none but JSON lines: empty, or starting with `{`, as
    /// `--resume` reads it (a CSV table's header or any other text, even a blank line, would be mixed with them). A
    /// pipe or device is not read.
    private static func checkLines(_ fd: Int32, path: String) throws {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return }
        var first: UInt8 = 0
        guard pread(fd, &first, 1, 0) == 1, first != UInt8(ascii: "{") else { return }
        throw VisionTasksError.invalidOption(
            name: "--output",
            reason: "\(path) does not hold JSON lines (a CSV table, or other text); not appending JSON lines to it")
    }

    /// Writes `header` into an empty file; in one that holds rows, checks that they are under it.
    private static func openTable(_ fd: Int32, path: String, header: Data) throws {
        let size = lseek(fd, 0, SEEK_END)
        guard size >= 0 else {
            throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if size == 0 {
            if let failure = Console.writeAll(fd, header) {
                throw VisionTasksError.invalidOption(
                    name: "--output", reason: "cannot write \(path): \(String(cString: strerror(failure)))")
            }
            return
        }
        var first = [UInt8](repeating: 0, count: header.count)
        let n = first.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n == header.count, Data(first) == header else {
            throw VisionTasksError.invalidOption(
                name: "--output",
                reason: "\(path) does not start with this task's CSV header; not appending a different table to it")
        }
    }

    /// Whether `--resume` leaves `input` out: the file holds its final line; for one that cannot be read by its name
    /// (`unreadable`: a list line that is not UTF-8, shown as `\xHH`, whose shown name a real file may share), an error
    /// line of that name.
    func isFinished(_ input: String, unreadable: Bool) -> Bool {
        (unreadable ? erroredBefore : finished).contains(ExactName(input))
    }

    /// Whether `input`, left out as finished, had failed in an earlier run (by `isFinished`'s rule).
    func failedBefore(_ input: String, unreadable: Bool) -> Bool {
        (unreadable ? erroredBefore : failedBefore).contains(ExactName(input))
    }

    /// For a run's summary: " (k had failed in an earlier run; …)" for `count` above 0, else "".
    static func failedEarlier(_ count: Int) -> String {
        count == 0 ? "" : " (\(count) had failed in an earlier run; their error lines stay)"
    }

    // MARK: - Writing

    /// Writes a CSV table's header to standard output.
    func writeHeader(_ header: Data) {
        if path == nil { write(header) }
    }

    deinit {
        if path != nil { close(descriptor) }
    }

    /// Writes one line (ending in a newline) whole; a failure to write ends the tool (see `Console`).
    /// A write that fails part way (a full disk, a file size limit) is taken back, so the file ends after a whole
    /// input for `--resume` (a CSV image's rows are one write: some of them whole before a cut one were kept).
    func write(_ line: Data) {
        guard let path else { return Console.out(line) }
        let failure: Int32? = lock.withLock {
            let before = lseek(descriptor, 0, SEEK_END)
            let failure = Console.writeAll(descriptor, line)
            if failure != nil, before >= 0 { _ = ftruncate(descriptor, before) }
            return failure
        }
        if let failure {
            Console.error("error: cannot write \(path): \(String(cString: strerror(failure)))\n")
            exit(1)
        }
    }

    // MARK: - Resuming

    /// What an output file holds: the inputs with a final line, the byte offset just past the last
    /// final line, and how many lines follow it. Reads in blocks, keeping only each line's start.
    /// With a CSV `header`, the first line must be it (or the file empty) and the rest are rows; an input's final
    /// rows are one write, so when a cut row follows them and is the same input's (or its input cell is cut), the
    /// write was cut and they are redone with it (a kill part way through a large write keeps its first pages).
    static func scan(_ fd: Int32, path: String, header: Data? = nil) throws -> (
        finished: Set<ExactName>, end: Int, discardedLines: Int, failed: Set<ExactName>, errored: Set<ExactName>
    ) {
        var finished: Set<ExactName> = [], failed: Set<ExactName> = [], errored: Set<ExactName> = []
        var end = 0, offset = 0, lineNumber = 0, linesAfterEnd = 0
        // CSV: the last run of one input's final rows, where it starts, its lines (frame rows before included), and
        // whether the input was finished before it.
        var group: (input: ExactName, start: Int, lines: Int, finishedBefore: Bool)?
        var head = Data() // the first bytes of the current line
        // Enough for any input's escaped path (an argument is at most 128 KiB, a list's line `Manifest.maxLineBytes`).
        let headLimit = 1 << 20
        // In a CSV file a quoted cell may hold line breaks (a file name with one): a row ends at a newline outside
        // quotes only (a doubled quote inside a cell toggles twice).
        var quoted = false
        func lineEnd(in bytes: ArraySlice<UInt8>) -> Int? {
            guard header != nil else { return bytes.firstIndex(of: UInt8(ascii: "\n")) }
            for i in bytes.indices {
                if bytes[i] == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if bytes[i] == UInt8(ascii: "\n"), !quoted {
                    return i
                }
            }
            return nil
        }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        guard lseek(fd, 0, SEEK_SET) == 0 else {
            throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        while true {
            let n = block.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            var start = 0
            while start < n {
                let newline = lineEnd(in: block[start..<n])
                let stop = newline ?? n
                if head.count < headLimit {
                    head.append(contentsOf: block[start..<min(stop, start + headLimit - head.count)])
                }
                guard let newline else {
                    start = n
                    break
                }
                lineNumber += 1
                if let header, lineNumber == 1 {
                    guard head + Data("\n".utf8) == header else {
                        // A table saved by a spreadsheet or an editor on Windows: its lines end in CR LF.
                        let crlf = head.last == UInt8(ascii: "\r") && head.dropLast() + Data("\n".utf8) == header
                        throw VisionTasksError.invalidOption(
                            name: "--resume",
                            reason: crlf
                                ? "\(path) has this task's CSV header, but its lines end in CR LF (\\r\\n), as a program "
                                    + "on Windows saves them; the tool writes LF (\\n) only: not resuming into it"
                                : "\(path) does not start with this task's CSV header; not resuming into it")
                    }
                    end = offset + newline + 1
                    head.removeAll(keepingCapacity: true)
                    start = newline + 1
                    continue
                }
                guard let line = header == nil ? OutputLine(head) : CSVTable.parseRow(head) else {
                    throw VisionTasksError.invalidOption(
                        name: "--resume",
                        reason:
                            "line \(lineNumber) of \(path) is not a vision-tasks result \(header == nil ? "line" : "row"); not resuming into it"
                    )
                }
                linesAfterEnd += 1
                if line.isFinal {
                    let name = ExactName(line.input)
                    if header != nil {
                        if let last = group, last.input == name, linesAfterEnd == 1 {
                            group?.lines += 1
                        } else {
                            group = (name, end, linesAfterEnd, finished.contains(name))
                        }
                    }
                    finished.insert(name)
                    if line.failed {
                        failed.insert(name)
                        errored.insert(name)
                    } else {
                        failed.remove(name)
                    }
                    end = offset + newline + 1
                    linesAfterEnd = 0
                }
                head.removeAll(keepingCapacity: true)
                start = newline + 1
            }
            offset += n
        }
        // A partial last line (no newline: the run was killed while writing it) counts as a line cut off.
        var discarded = linesAfterEnd + (head.isEmpty ? 0 : 1)
        if !head.isEmpty, linesAfterEnd == 0, let last = group,
            CSVTable.parseRow(head).map({ ExactName($0.input) == last.input }) ?? true
        {
            end = last.start
            discarded += last.lines
            if !last.finishedBefore { finished.remove(last.input) }
        }
        return (finished, end, discarded, failed, errored)
    }
}

/// An input's name as its bytes: two names of one text in two Unicode forms (a composed and a decomposed "é") are two
/// files, which `String`'s `==` takes for one (a resume skipped the second as finished).
struct ExactName: Hashable {
    let bytes: [UInt8]
    init(_ name: String) { bytes = Array(name.utf8) }
}

// MARK: - Output lines

/// The start of one line the tool wrote: `{"input":"<path>"` then `,"frame":` for a frame's line.
struct OutputLine {
    /// The input as given.
    let input: String
    /// Whether this is the input's final line (no `"frame"`).
    let isFinal: Bool
    /// Whether the line says the input failed: an error line, a video's closing line counting failed frames.
    let failed: Bool

    /// A line of `input`, final or not, failed or not.
    init(input: String, isFinal: Bool, failed: Bool = false) {
        self.input = input
        self.isFinal = isFinal
        self.failed = failed
    }

    /// Parses the first bytes of a line; nil when they do not start as the tool's lines do.
    init?(_ head: Data) {
        let bytes = [UInt8](head)
        let opening = Array(#"{"input":""#.utf8)
        guard bytes.starts(with: opening) else { return nil }
        var i = opening.count
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard i < bytes.count,
            let input = try? JSONSerialization.jsonObject(
                with: Data(bytes[(opening.count - 1)...i]), options: .fragmentsAllowed) as? String
        else { return nil }
        self.input = input
        let rest = bytes[(i + 1)...]
        isFinal = !rest.starts(with: Array(#","frame":"#.utf8))
        // `{"input":…,"error":…}`, or a video's `{"input":…,"video":{"failed":k,"frames":n}}` with k above 0.
        let failedFrames = Array(#","video":{"failed":"#.utf8)
        failed =
            rest.starts(with: Array(#","error":"#.utf8))
            || rest.starts(with: failedFrames)
                && rest.dropFirst(failedFrames.count).prefix { (48...57).contains($0) }.contains { $0 != 48 }
    }
}
