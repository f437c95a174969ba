import FixtureSupport
import Foundation
import Testing

/// `vision-tasks model profile`: each operator's time at one thread and at --threads, and
/// `--read-outputs`, which leaves out the operators feeding only unread outputs.
@Suite(.enabled(if: Fixture.haveModels, "models/ not fetched: run make models"))
struct ModelProfileCommandTests {
    private struct Report: Decodable {
        struct Row: Decodable { let op: String; let index: Int; let outputShape: [Int]; let ms1: Double; let msN: Double }
        let model: String
        let threads: Int
        let operators: [Row]
    }

    private func profile(_ extra: [String]) throws -> (Report?, CLIRun) {
        let run = try CLIRun.run(["model", "profile", CLIRun.models.appendingPathComponent("pose_landmarker_full.task").path,
                                  "--entry", "pose_landmarks_detector.tflite", "--threads", "2", "--runs", "5", "--warmup", "1"] + extra)
        return (try? JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8)), run)
    }

    @Test func listsEveryKernelAtBothThreadCounts() throws {
        let (full, run) = try profile(["--json"])
        let report = try #require(full, "\(run.stderr)")
        #expect(report.threads == 2 && report.model.hasSuffix("pose_landmarks_detector.tflite"))
        #expect(report.operators.count > 100 && report.operators.allSatisfy { $0.ms1 >= 0 && $0.msN >= 0 })
        #expect(report.operators.contains { $0.op == "CONV_2D" && $0.outputShape == [1, 256, 256, 1] })
        // Without the mask output, the segmentation head is not run.
        let (pruned, _) = try profile(["--json", "--read-outputs", "0,1,3,4"])
        let kept = try #require(pruned).operators
        #expect(kept.count < report.operators.count && !kept.contains { $0.outputShape == [1, 256, 256, 1] })
        // The text form: a header with the totals, then the operators and the sums by type.
        let text = try CLIRun.run(["model", "profile", CLIRun.models.appendingPathComponent("pose_landmarker_full.task").path,
                                   "--entry", "pose_landmarks_detector.tflite", "--runs", "5", "--top", "3"])
        #expect(text.status == 0 && text.stdout.contains("by operator type:") && text.stdout.contains("CONV_2D"), "\(text.stdout)")
    }

    @Test func badOptionsAreErrorsNamingThem() throws {
        let (_, malformed) = try profile(["--read-outputs", "one"])
        #expect(malformed.status == 1 && malformed.stderr.contains("--read-outputs"), "\(malformed.stderr)")
        let (_, outOfRange) = try profile(["--read-outputs", "7"])
        #expect(outOfRange.status == 1 && outOfRange.stderr.contains("5 outputs"), "\(outOfRange.stderr)")
        let (_, runs) = try profile(["--runs", "0"])
        #expect(runs.status == 1 && runs.stderr.contains("--runs"), "\(runs.stderr)")
    }
}
