import Foundation
import Synchronization
import Testing
import VisionTasks

@testable import VisionServer

/// The worker pool's bound: a request beyond the workers and the waiting line is refused at once.
@Suite struct WorkerPoolTests {
    @Test func aRequestBeyondTheWorkersAndTheLineIs503() async throws {
        let pool = WorkerPool(name: "test", workers: 1, queueDepth: 1)
        let held = try await pool.acquire()
        let waiting = Task { try await pool.run { _ in 42 } }
        let deadline = ContinuousClock.now + .seconds(30)
        while await pool.waitingCount == 0 {
            try #require(ContinuousClock.now < deadline, "the second request was not waiting for a worker after 30 s")
            try await Task.sleep(for: .milliseconds(5))
        }
        await #expect(throws: APIError.self) { try await pool.acquire() }
        do {
            _ = try await pool.acquire()
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.message.contains("busy"))
        }
        await pool.release(held)
        #expect(try await waiting.value == 42)
        // The worker came back: the next request gets it at once.
        #expect(try await pool.run { _ in 7 } == 7)
    }

    /// A lease gives its worker back once, after its cleanup: when ended (a second end does nothing), and when
    /// dropped unended, as a video response whose body never ran is (the client reset the connection before
    /// the head went out: the worker and the temporary file were kept for good, and once every video worker was
    /// lost so, every video request got 503).
    @Test func aLeaseGivesItsWorkerBackOnceEndedOrDropped() async throws {
        let pool = WorkerPool(name: "test", workers: 1, queueDepth: 0)
        let cleanups = Mutex(0)
        let lease = WorkerLease(try await pool.acquire(), of: pool) { cleanups.withLock { $0 += 1 } }
        await lease.end()
        await lease.end()
        let again = try await pool.acquire()
        await #expect(throws: APIError.self) { try await pool.acquire() } // one worker, not two
        #expect(cleanups.withLock { $0 } == 1)
        do { _ = WorkerLease(again, of: pool) { cleanups.withLock { $0 += 1 } } }
        #expect(cleanups.withLock { $0 } == 2)
        let deadline = ContinuousClock.now + .seconds(60)
        while await pool.idleCount == 0 {
            try #require(ContinuousClock.now < deadline, "the dropped lease's worker was not back after 60 s")
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// A write that outlasts its limit (a client that stopped reading the video's lines) ends the lease while it
    /// still waits: the cleanup runs and the worker comes back before the write returns; then the write, and
    /// every later one, throws. A quick write passes. Such a client held a video worker, ffmpeg and the temporary
    /// file for as long as it kept the connection. The limit's timer is Dispatch's: in a full test run other
    /// suites keep Swift's cooperative threads so busy that a task sleeping 50 ms had not woken after 30 s.
    @Test func aWriteThatStallsGivesTheWorkerBackMeanwhile() async throws {
        let pool = WorkerPool(name: "test", workers: 1, queueDepth: 0)
        let cleaned = Mutex(false)
        let lease = WorkerLease(try await pool.acquire(), of: pool) { cleaned.withLock { $0 = true } }
        try await lease.write(within: .seconds(30)) {}
        #expect(await pool.idleCount == 0 && !cleaned.withLock { $0 })
        let cleanedWhileWaiting = Mutex(false)
        let connectionClosed = Mutex(false)
        await #expect(throws: WorkerLease.StalledClient.self) {
            try await lease.write(within: .milliseconds(50), onStall: { connectionClosed.withLock { $0 = true } }) {
                let deadline = ContinuousClock.now + .seconds(60)
                while !cleaned.withLock({ $0 }), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                cleanedWhileWaiting.withLock { $0 = cleaned.withLock { $0 } }
            }
        }
        #expect(cleanedWhileWaiting.withLock { $0 })
        #expect(connectionClosed.withLock { $0 }, "the stalled write's connection is closed too")
        let deadline = ContinuousClock.now + .seconds(60)
        while await pool.idleCount == 0 {
            try #require(ContinuousClock.now < deadline, "the stalled lease's worker was not back after 60 s")
            try await Task.sleep(for: .milliseconds(5))
        }
        await #expect(throws: WorkerLease.StalledClient.self) { try await lease.write(within: .seconds(30)) {} }
    }

    /// Posted images and live frames share one bound on decodes at once (`workers`), whatever their task or
    /// socket: 12 decodes started together on threads of their own never run more than 2 at a time, and do run 2.
    @Test func atMostWorkersImagesDecodeAtOnce() throws {
        var configuration = ServerConfiguration()
        configuration.workers = 2
        configuration.maxImagePixels = 100
        let decoder = ImageDecoder(configuration: configuration)
        // An NSLock, not a Mutex: ThreadSanitizer (make sanitize) sees pthread locks, and took the Mutex's futex
        // for no synchronisation at all.
        final class Counts: @unchecked Sendable {
            private let lock = NSLock()
            private var running = 0, highest = 0
            func enter() {
                lock.withLock {
                    running += 1
                    highest = max(highest, running)
                }
            }
            func leave() { lock.withLock { running -= 1 } }
            var peak: Int { lock.withLock { highest } }
        }
        let counts = Counts()
        let done = DispatchGroup()
        for _ in 0..<12 {
            done.enter()
            Thread {
                decoder.whileHeld {
                    counts.enter()
                    Thread.sleep(forTimeInterval: 0.05)
                    counts.leave()
                }
                done.leave()
            }.start()
        }
        try #require(done.wait(timeout: .now() + 60) == .success, "12 decodes of 50 ms had not ended after 60 s")
        #expect(counts.peak == 2)
        // The pixel limit is the configuration's: 10×10 pixels pass 100, 10×11 are refused.
        func png(height: Int) throws -> Data {
            try MPImage(
                pixels: Data(count: 10 * height), width: 10, height: height, bytesPerRow: 10, format: .gray8
            ).pngData()
        }
        #expect(try decoder.decode(try png(height: 10), name: "10×10").height == 10)
        #expect(throws: VisionTasksError.self) { try decoder.decode(try png(height: 11), name: "10×11") }
    }

    @Test func sniffingTellsImagesAndVideosFromOtherBytes() {
        #expect(MediaSniffer.isImage(Data([0xFF, 0xD8, 0xFF, 0xE0])))
        #expect(MediaSniffer.isImage(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!MediaSniffer.isImage(Data("GIF89a".utf8)))
        #expect(MediaSniffer.isVideo(Data([0, 0, 0, 32] + Array("ftypisom0000".utf8))))
        #expect(MediaSniffer.isVideo(Data([0x1A, 0x45, 0xDF, 0xA3] + [UInt8](repeating: 0, count: 8))))
        #expect(MediaSniffer.isVideo(Data("YUV4MPEG2 W640 H480".utf8)))
        #expect(!MediaSniffer.isVideo(Data("hello, this is text".utf8)))
        #expect(!MediaSniffer.isVideo(Data([0xFF, 0xD8, 0xFF])))
    }
}
