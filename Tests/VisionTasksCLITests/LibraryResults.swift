import Foundation
import VisionTasks

/// What the tool must print for an input the library reads: the result line of the tool's output
/// contract, `{"input": …, "result": …}`, with the library's own JSON of the result. The library's
/// results are compared with MediaPipe's by its parity tests; these lines tie the tool to them exactly.
enum LibraryResults {
    /// The line for `input`'s `result`, as the tool writes it.
    static func line(input: String, result: some Encodable) throws -> String {
        #"{"input":"\#(input)","result":"# + String(decoding: try ResultJSON.encode(result), as: UTF8.self) + "}"
    }

    /// Base options for `model` on one thread (the tests run the tool with `--threads 1`).
    static func baseOptions(_ model: String) -> BaseOptions {
        BaseOptions(modelAssetPath: CLIRun.models.appendingPathComponent(model).path, numThreads: 1)
    }
}
