import Foundation
import VisionTasks

/// The output contract every task subcommand follows: one JSON object per input on its own line,
/// `{"input": "<path>", "result": <result>}` or `{"input": "<path>", "error": "<message>"}` (keys
/// inside results sorted, so the output is the same from run to run), written to standard output or
/// the `--output` file, and a failure count: the command exits non-zero after the last input when any failed.
/// With `--format csv` (`table`) the same results go out as rows of one table instead (`CSVTable`).
final class JSONLines {
    /// Inputs that failed so far.
    private(set) var failures = 0
    /// Whether any input failed.
    var anyFailed: Bool { failures > 0 }

    /// Where the lines go.
    let sink: ResultSink
    /// The CSV table the results are written as (nil: JSON lines).
    let table: CSVTable?
    /// Lines written for `input` since `begin(input:)` (frames, for a video).
    private(set) var linesOfInput = 0
    /// Failed lines for `input` since `begin(input:)`.
    private(set) var failuresOfInput = 0
    /// Whether the last line written was an input's final line (one without a frame).
    private(set) var lastLineWasFinal = false

    /// Creates a writer to `sink` (standard output by default), of CSV rows when `table` is given (the
    /// sink holds its header).
    init(sink: ResultSink = .standardOutput, table: CSVTable? = nil) {
        self.sink = sink
        self.table = table
    }

    /// Starts counting the lines of one input (a video of a `--video-list`).
    func begin(input: String) {
        linesOfInput = 0
        failuresOfInput = 0
        lastLineWasFinal = false
    }

    /// Writes a video's final line, `{"input": …, "video": {"frames": n, "failed": k}}`, unless an
    /// error line without a frame (the video could not be read to its end) already closed it.
    func finishVideo(input: String) {
        guard !lastLineWasFinal else { return }
        if let table {
            return emit(frame: nil, table.videoEndRow(input: input, frames: linesOfInput, failed: failuresOfInput))
        }
        emit(
            input: input, frame: nil, key: "video",
            json: JSONEnvelope.encode(["failed": .int(failuresOfInput), "frames": .int(linesOfInput)]))
    }

    /// Runs `body` for `input` and prints its result line, or its error line if it throws.
    /// With `frame` (video and live-stream modes) the line also holds `"frame": n` after the input.
    func process<Result: DescribedResult>(
        input: String, frame: Int? = nil, timestamp: Int? = nil, _ body: () throws -> Result
    ) {
        emit(renderer.render(input: input, frame: frame, timestamp: timestamp, body))
    }

    /// How lines are made, apart from where they go: a value any thread may use, so that parallel
    /// workers encode their own results (`FolderRun`) and the printing thread only writes.
    var renderer: LineRenderer { LineRenderer(table: table) }

    /// Writes a line (or rows) `renderer` made, counting it as a failure when it is an error line.
    func emit(_ line: LineRenderer.Line) {
        if line.failed {
            failures += 1
            failuresOfInput += 1
        }
        emit(frame: line.frame, line.text)
    }

    /// The user-facing text of an error: VisionTasksError's message, else its description.
    static func message(_ error: any Error) -> String {
        if let error = error as? VisionTasksError { return error.description }
        return String(describing: error)
    }

    private func emit(input: String, frame: Int?, key: String, json: Data) {
        emit(frame: frame, LineRenderer.envelope(input: input, frame: frame, key: key, json: json))
    }

    /// Writes the line (or an image's or frame's rows, in one write) of one image or frame.
    private func emit(frame: Int?, _ text: Data) {
        linesOfInput += 1
        lastLineWasFinal = frame == nil
        sink.write(text)
    }
}

/// Makes the JSON line (or CSV rows) of one image or frame without writing it: pure, so workers can
/// encode in parallel and hand the bytes to the one thread that writes (`JSONLines.emit`).
struct LineRenderer: Sendable {
    /// What one image or frame gives: its text, whether it is an error line, and its frame.
    struct Line: Sendable {
        let text: Data
        let failed: Bool
        let frame: Int?
    }

    /// The CSV table the results are written as (nil: JSON lines).
    let table: CSVTable?

    /// Runs `body` for `input` and makes its result line, or its error line if it throws (or if
    /// the result cannot be encoded); an error line of a frame holds its `timestamp` (a result holds its own).
    func render<Result: DescribedResult>(
        input: String, frame: Int? = nil, timestamp: Int? = nil, _ body: () throws -> Result
    ) -> Line {
        do {
            let result = try body()
            if let table {
                return Line(text: table.rows(input: input, frame: frame, result: result), failed: false, frame: frame)
            }
            return Line(
                text: Self.envelope(input: input, frame: frame, key: "result", json: try ResultJSON.encode(result)),
                failed: false, frame: frame)
        } catch {
            if let table {
                return Line(
                    text: table.errorRow(
                        input: input, frame: frame, timestamp: timestamp, message: JSONLines.message(error)),
                    failed: true, frame: frame)
            }
            return Line(
                text: Self.envelope(
                    input: input, frame: frame, timestamp: timestamp, key: "error",
                    json: JSONEnvelope.string(JSONLines.message(error))),
                failed: true, frame: frame)
        }
    }

    /// `{"input": …, ["frame": n,] ["timestampInMilliseconds": t,] key: json}` and a newline.
    static func envelope(input: String, frame: Int?, timestamp: Int? = nil, key: String, json: Data) -> Data {
        var fields: [(String, JSONEnvelope.Value)] = [("input", .string(input))]
        if let frame { fields.append(("frame", .int(frame))) }
        if let timestamp { fields.append(("timestampInMilliseconds", .int(timestamp))) }
        fields.append((key, .json(json)))
        return JSONEnvelope.encode(ordered: fields) + Data("\n".utf8)
    }
}
