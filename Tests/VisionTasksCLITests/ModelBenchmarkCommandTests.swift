import FixtureSupport
import Foundation
import Testing

/// `vision-tasks model benchmark`: a model's latency on random inputs, as `make bench` reads it.
@Suite
struct ModelBenchmarkCommandTests {
    private struct Report: Decodable {
        struct Host: Decodable { let cpu: String, twoCoreShare: Double, pingPongNs: Double }
        let model: String
        let threads: Int
        let separateBuffers: Bool
        let host: Host
        let medianMs, p90Ms, cpuMsPerCall: Double
    }

    private func benchmark(_ extra: [String]) throws -> CLIRun {
        try CLIRun.run(
            [
                "model", "benchmark", CLIRun.models.appendingPathComponent("face_landmarker.task").path,
                "--entry", "face_detector.tflite", "--runs", "5", "--warmup", "1",
            ] + extra)
    }

    @Test func reportsLatencyCPUAndTheHostsTwoCoreShare() throws {
        let run = try benchmark(["--threads", "2", "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        #expect(report.threads == 2 && report.model.hasSuffix("face_detector.tflite"))
        #expect(report.medianMs > 0 && report.p90Ms >= report.medianMs && report.cpuMsPerCall > 0, "\(report)")
        // 0 only where CPUs 0 and 1 are not both ours.
        #expect(report.host.twoCoreShare > 0 || ProcessInfo.processInfo.activeProcessorCount < 2, "\(report)")
        #expect(report.host.pingPongNs > 0 || ProcessInfo.processInfo.activeProcessorCount < 2, "\(report)")
        #expect(!report.host.cpu.isEmpty)
        let text = try benchmark([])
        #expect(
            text.status == 0 && text.stdout.contains("median") && text.stdout.contains("two cores at once")
                && text.stdout.contains("ping-pong") && text.stdout.hasPrefix("CPU: "),
            "\(text.stdout)")
    }

    /// Allowed one CPU (`taskset -c 0`), two threads measure no line round trip: the two spinning threads would
    /// take turns a scheduler slice each (seconds). The plan then reuses buffers, and the run stays quick.
    @Test func onOneCPUNoRoundTripIsMeasured() throws {
        let start = ContinuousClock.now
        let output = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "taskset", "-c", "0", CLIRun.binary.path, "model", "benchmark",
                CLIRun.models.appendingPathComponent("face_landmarker.task").path, "--entry", "face_detector.tflite",
                "--runs", "3", "--warmup", "0", "--threads", "2", "--json",
            ])
        let elapsed = ContinuousClock.now - start
        try #require(output.status == 0, "\(output.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(output.stdout.utf8))
        #expect(report.host.pingPongNs == 0 && !report.separateBuffers && report.host.twoCoreShare == 0, "\(report)")
        #expect(elapsed < .seconds(20), "\(elapsed)")
    }

    @Test func runsBelowOneAreAnErrorNamingTheOption() throws {
        let runs = try benchmark(["--runs", "0"])
        #expect(runs.status == 1 && runs.stderr.contains("--runs"), "\(runs.stderr)")
        let warmup = try benchmark(["--warmup=-1"])
        #expect(warmup.status == 1 && warmup.stderr.contains("--warmup"), "\(warmup.stderr)")
        // Runs past memory's reach: the reservation of their timings used to abort the process.
        let many = try benchmark(["--runs", "10000000000000"])
        #expect(many.status == 1 && many.stderr.contains("--runs: must be 1...1000000"), "\(many.stderr)")
    }
}
