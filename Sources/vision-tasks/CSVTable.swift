import Foundation
import VisionTasks

/// `--format csv`: the results as one table for pandas, R or a spreadsheet. A header names every
/// column; then one row per face or hand of each image or frame, under the common columns `input`,
/// `frame` (empty for an image), `timestamp_ms`, `success` (1: a face or hand; 0: none, or an
/// error), `error`, `index` (the face or hand's place in the result), `id` (its tracking id; empty in
/// image mode) and the task's own (`DescribedResult.csvColumns`). An image or frame where nothing was found
/// still gets a row, with `success` 0 and the object cells empty; an input or frame that failed gets
/// one with its message under `error` (and its timestamp, when the frame had one). A video of `--video-list` ends with
/// a row without frame or timestamp (its JSON summary line): `success` empty when every frame went through, else 0
/// with how many failed under `error`; as in the JSON lines, an input's rows without a frame are its final ones, which
/// `--resume` looks for.
struct CSVTable: Sendable {
    /// The columns before the task's.
    static let commonColumns = ["input", "frame", "timestamp_ms", "success", "error", "index", "id"]

    /// The task's own columns.
    let taskColumns: [String]

    /// The table of a task whose results are `Result`.
    init<Result: DescribedResult>(for _: Result.Type) {
        taskColumns = Result.csvColumns
    }

    /// The header line (with its newline).
    var header: Data { Self.line(Self.commonColumns + taskColumns) }

    /// The rows of one result: one per face or hand, or one saying none was found.
    func rows<Result: DescribedResult>(input: String, frame: Int?, result: Result) -> Data {
        let start = [input, frame.map(String.init) ?? "", String(result.timestampInMilliseconds)]
        let objects = result.csvObjects
        guard !objects.isEmpty else {
            return Self.line(start + ["0", "", "", ""] + Array(repeating: "", count: taskColumns.count))
        }
        return objects.enumerated().reduce(into: Data()) { rows, entry in
            rows += Self.line(
                start + ["1", "", String(entry.offset), entry.element.id.map(String.init) ?? ""]
                    + entry.element.cells)
        }
    }

    /// The row of an input or frame that failed.
    func errorRow(input: String, frame: Int?, timestamp: Int? = nil, message: String) -> Data {
        Self.line(
            [input, frame.map(String.init) ?? "", timestamp.map(String.init) ?? "", "0", message, "", ""]
                + Array(repeating: "", count: taskColumns.count))
    }

    /// The row closing a video of `--video-list` whose `frames` lines held `failed` errors.
    func videoEndRow(input: String, frames: Int, failed: Int) -> Data {
        // `success` empty, not 1: a 1 says a face or hand is on the row (a Spark job counted the closing row as a face).
        let outcome = failed == 0 ? ["", ""] : ["0", "\(failed) of \(frames) frames failed"]
        return Self.line([input, "", ""] + outcome + ["", ""] + Array(repeating: "", count: taskColumns.count))
    }

    /// Cells joined by commas, each quoted when it holds a comma, a quote or a line break (RFC 4180).
    static func line(_ cells: [String]) -> Data {
        var text = cells.map { cell -> String in
            // By scalar: "\r\n" is one Character, equal neither to "\n" nor to "\r".
            guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
                return cell
            }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
        text += "\n"
        return Data(text.utf8)
    }

    /// The input of a row, whether it is the input's final row (no frame) and whether it failed (its `error` cell, the
    /// fifth, is not empty), from the row's first bytes; nil when they do not start as rows do (an input, then a frame
    /// number or nothing).
    static func parseRow(_ head: Data) -> OutputLine? {
        let bytes = [UInt8](head)
        var input: [UInt8] = []
        var i = 0
        if bytes.first == UInt8(ascii: "\"") {
            i = 1
            while true {
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                        input.append(bytes[i])
                        i += 2
                        continue
                    }
                    i += 1
                    break
                }
                input.append(bytes[i])
                i += 1
            }
        } else {
            while i < bytes.count, bytes[i] != UInt8(ascii: ",") {
                input.append(bytes[i])
                i += 1
            }
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ","), let text = String(bytes: input, encoding: .utf8) else {
            return nil
        }
        let frame = bytes[(i + 1)...].prefix { $0 != UInt8(ascii: ",") }
        guard frame.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        // frame, timestamp_ms and success hold no comma or quote: the error cell follows the fourth comma.
        var commas = 0, j = i
        while j < bytes.count, commas < 4 {
            if bytes[j] == UInt8(ascii: ",") { commas += 1 }
            j += 1
        }
        let failed = commas == 4 && j < bytes.count && bytes[j] != UInt8(ascii: ",")
        return OutputLine(input: text, isFinal: frame.isEmpty, failed: failed)
    }
}
