import Foundation

/// `vision-tasks-soak` (`make soak`): long runs that must keep memory flat and lose nothing.
/// (a) A face detector in live-stream mode fed at 4× the rate its slow listener (50 ms per result)
/// can take, for `SOAK_SECONDS` (default 600). (b) One video file processed 20 times in one process.
/// Prints its figures and exits 1 when a check fails (RSS not flat within 10% after warm-up,
/// results out of order, counts that do not add up), 2 when it cannot run.
let arguments = CommandLine.arguments.dropFirst()
let environment = ProcessInfo.processInfo.environment
let seconds = environment["SOAK_SECONDS"].flatMap(Double.init) ?? 600
let passes = environment["SOAK_PASSES"].flatMap(Int.init) ?? 20
let model = environment["SOAK_MODEL"] ?? "models/blaze_face_short_range.tflite"
let photo = environment["SOAK_PHOTO"] ?? "Tests/Fixtures/images/woman_sitting.jpg"
let parts = arguments.isEmpty ? ["live", "video"] : Array(arguments)

/// Prints one line of figures at once (unbuffered, so a pipe shows them as they come).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var failures: [String] = []
do {
    for part in parts {
        switch part {
        case "live":
            failures += try LiveSoak(model: model, photo: photo, seconds: seconds, listenerMs: 50, speedup: 4).run()
        case "video":
            failures += try VideoSoak(model: model, photo: photo, passes: passes).run()
        default:
            FileHandle.standardError.write(Data("usage: vision-tasks-soak [live] [video] (got \(part))\n".utf8))
            exit(2)
        }
    }
} catch {
    FileHandle.standardError.write(Data("soak: cannot run: \(error)\n".utf8))
    exit(2)
}
for failure in failures { say("FAIL: \(failure)") }
say(failures.isEmpty ? "soak: all checks passed" : "soak: \(failures.count) check(s) failed")
exit(failures.isEmpty ? 0 : 1)
