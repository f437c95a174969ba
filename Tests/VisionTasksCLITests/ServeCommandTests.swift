import FixtureSupport
import Foundation
import Testing

/// `vision-tasks serve` starting: the URL it prints is where it listens (the port the system chose for `--port 0`),
/// printed only once it listens; an address it cannot listen on is an error naming it.
@Suite struct ServeCommandTests {
    @Test func theURLIsPrintedOnceListeningWithThePortGotAndATakenPortIsNamed() throws {
        let process = Process()
        process.executableURL = CLIRun.binary
        process.arguments = ["serve", "--port", "0", "--models", CLIRun.models.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // The URL line, read as it comes; a server that never prints it is killed after 60 s, which ends the reads.
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        var printed = ""
        while !printed.contains("in a browser") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            printed += String(decoding: data, as: UTF8.self)
        }
        let url = try #require(
            printed.firstMatch(of: /open (http:\/\/127\.0\.0\.1:(\d+)\/) in a browser/), "printed: \(printed)")
        let port = try #require(Int(url.2))
        #expect(port > 0, "--port 0 printed port 0, where nothing listens")
        let health = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                // No proxy: an http_proxy in the environment would take the loopback request elsewhere.
                "import sys, urllib.request as u; print(u.build_opener(u.ProxyHandler({})).open(sys.argv[1], timeout=30)"
                    + ".read().decode())",
                "\(url.1)healthz",
            ])
        #expect(health.stdout.contains(#"{"status":"ok"}"#), "\(health.stderr)")
        // The same port again: it is taken. The error names the address and what to do; no URL was printed first.
        let taken = try CLIRun.run(["serve", "--port", "\(port)", "--models", CLIRun.models.path])
        #expect(taken.status == 1)
        #expect(
            taken.stderr.contains("cannot listen on 127.0.0.1:\(port): the port is in use") == true, "\(taken.stderr)")
        #expect(!taken.stdout.contains("open http"), "\(taken.stdout)")
        // SIGTERM ends the listening server gracefully.
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "the server ran on 20 s after SIGTERM")
        #expect(!process.isRunning && process.terminationStatus == 0)
    }

    @Test func aPortOutOfRangeIsNamed() throws {
        for port in ["-1", "65536"] {
            let run = try CLIRun.run(["serve", "--port", port, "--models", CLIRun.models.path])
            #expect(run.status != 0)
            #expect(run.stderr.contains("--port must be 0...65535, got \(port)"), "\(run.stderr)")
        }
    }
}
