import Foundation
import Testing

@testable import VisionServer

/// A live socket's bookkeeping without a socket: the rate limit, the idle count, and replies dropped
/// for a slow client counted in the next reply.
@Suite struct LiveLedgerTests {
    static let second: UInt64 = 1_000_000_000

    @Test func theRateLimitAdmitsAtMostNFramesInAnyOneSecondWindow() {
        var limit = FrameRateLimit(framesPerSecond: 3)
        let at: [(UInt64, Bool)] = [
            (0, true), (Self.second / 10, true), (Self.second / 5, true), (Self.second * 3 / 10, false),
            (Self.second * 9 / 10, false), (Self.second, true), // the frame at 0 has left the window
            (Self.second + Self.second / 20, false), (Self.second + Self.second / 5, true),
            (Self.second * 5, true), (Self.second * 5, true), (Self.second * 5, true), (Self.second * 5, false),
        ]
        #expect(at.map { limit.admit(at: $0.0) } == at.map(\.1))
    }

    @Test func theSocketIsIdleOnlyWhileNothingOfItsOwnIsInWork() {
        let ledger = LiveLedger(maxQueuedReplies: 8, budget: LiveFrameBudget(limit: 1_000))
        #expect(ledger.idle(adding: .milliseconds(300)) == .milliseconds(300))
        ledger.touch()
        #expect(ledger.idle(adding: .milliseconds(200)) == .milliseconds(200))
        ledger.working(true) // decoding a frame (perhaps waiting for a worker) is not idle
        #expect(ledger.idle(adding: .seconds(10)) == .zero)
        #expect(ledger.send(1, pixels: 10))
        ledger.working(false)
        #expect(ledger.idle(adding: .seconds(10)) == .zero, "a frame in the task")
        ledger.delivered(.success(Data("{}".utf8)), timestamp: 1)
        #expect(ledger.idle(adding: .seconds(10)) == .zero, "a reply queued")
        #expect(ledger.nextReply() != nil)
        #expect(ledger.idle(adding: .seconds(10)) == .zero, "a reply being written")
        ledger.written()
        #expect(ledger.idle(adding: .milliseconds(500)) == .milliseconds(500))
        #expect(ledger.idle(adding: .milliseconds(500)) == .seconds(1))
        ledger.reply(error: "bad frame", timestamp: 2)
        #expect(ledger.idle(adding: .seconds(10)) == .zero)
        #expect(ledger.nextReply() != nil)
        ledger.written()
        #expect(ledger.nextReply() == nil)
        #expect(ledger.idle(adding: .milliseconds(100)) == .milliseconds(100))
    }

    /// A second frame of one timestamp, refused by the task, takes only its own entry back: the first is still in
    /// work (the socket not idle), and its reply still times it. Both entries used to go.
    @Test func aRefusedFrameOfARepeatedTimestampLeavesTheFirstPending() throws {
        let ledger = LiveLedger(maxQueuedReplies: 8, budget: LiveFrameBudget(limit: 1_000))
        #expect(ledger.send(5, pixels: 10))
        #expect(ledger.send(5, pixels: 10))
        ledger.unsent(5)
        #expect(ledger.idle(adding: .seconds(10)) == .zero, "the first frame 5 is in work")
        ledger.delivered(.success(Data("{}".utf8)), timestamp: 5)
        let reply = try Self.next(ledger)
        #expect(reply["timestampInMilliseconds"] as? Int == 5 && reply["inferenceMs"] != nil, "\(reply)")
        #expect(ledger.idle(adding: .milliseconds(100)) == .milliseconds(100))
    }

    /// A frame's pixels are held in the server's budget from its sending until its result, or a later frame's (the
    /// flow limiter dropped it), comes; a frame the budget has no room for is not recorded; a refused frame and the
    /// frames pending at the end give theirs back. Two sockets share one budget.
    @Test func framesHoldTheirPixelsInTheSharedBudgetUntilTheirResultComes() {
        let budget = LiveFrameBudget(limit: 100)
        let one = LiveLedger(maxQueuedReplies: 8, budget: budget)
        let two = LiveLedger(maxQueuedReplies: 8, budget: budget)
        #expect(one.send(1, pixels: 40) && one.send(2, pixels: 30))
        #expect(!two.send(1, pixels: 31) && !two.hasFramesInWork, "70 held: 31 more do not fit")
        #expect(two.send(1, pixels: 30) && budget.heldPixels == 100)
        one.delivered(.success(Data("{}".utf8)), timestamp: 2) // frame 1 was dropped: both give theirs back
        #expect(budget.heldPixels == 30 && !one.hasFramesInWork)
        #expect(one.send(3, pixels: 70) && budget.heldPixels == 100)
        one.unsent(3)
        #expect(budget.heldPixels == 30)
        two.finish()
        #expect(budget.heldPixels == 0)
        #expect(budget.take(100) && !budget.take(1))
    }

    /// The ledger's next queued reply as a JSON object.
    static func next(_ ledger: LiveLedger) throws -> [String: Any] {
        let data = try #require(ledger.nextReply(), "a reply")
        ledger.written()
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aSlowClientLosesTheOldestRepliesCountedInTheNewestOne() throws {
        let ledger = LiveLedger(maxQueuedReplies: 2, budget: LiveFrameBudget(limit: 1_000))
        // The third drops the first.
        for timestamp in 1...3 { ledger.reply(error: "frame \(timestamp)", timestamp: timestamp) }
        #expect(try Self.next(ledger)["timestampInMilliseconds"] as? Int == 2)
        #expect(ledger.send(4, pixels: 10))
        #expect(ledger.send(5, pixels: 10))
        #expect(ledger.send(6, pixels: 10))
        ledger.delivered(.success(Data("{}".utf8)), timestamp: 5) // frame 4 was dropped by the flow limiter
        ledger.delivered(.success(Data("{}".utf8)), timestamp: 6) // the queue is full: the reply to 3 goes
        #expect(try Self.next(ledger)["timestampInMilliseconds"] as? Int == 5)
        let last = try Self.next(ledger)
        #expect(last["timestampInMilliseconds"] as? Int == 6)
        #expect(last["dropped"] as? Int == 3, "replies 1 and 3 and frame 4: \(last)")
        #expect(ledger.nextReply() == nil)
    }
}
