import Foundation
import Testing

@testable import VideoIO

/// The hand-over queue between the video pipeline's threads: order, the bound, and `close()`
/// releasing both sides.
@Suite struct BlockingQueueTests {
    @Test func itemsComeOutInOrderAndLeftoversAfterClose() {
        let queue = BlockingQueue<Int>(capacity: nil)
        for i in 0..<1000 { #expect(queue.push(i)) } // no bound: never waits
        #expect(queue.pop() == 0)
        queue.close()
        #expect(!queue.push(1000))
        var rest: [Int] = []
        while let item = queue.pop() { rest.append(item) }
        #expect(rest == Array(1..<1000))
        #expect(queue.pop() == nil)
    }

    @Test func aLiveProducerDropsTheOldestInsteadOfWaiting() {
        let queue = BlockingQueue<Int>(capacity: 2)
        #expect(queue.pushDroppingOldest(1) == false && queue.pushDroppingOldest(2) == false)
        #expect(queue.pushDroppingOldest(3)) // full: 1 goes
        #expect(queue.pop() == 2 && queue.pop() == 3)
        queue.close()
        #expect(!queue.pushDroppingOldest(4) && queue.pop() == nil)
    }

    @Test func popIfAnyNeverWaits() {
        let queue = BlockingQueue<Int>(capacity: 2)
        #expect(queue.popIfAny() == nil) // empty and open: nil at once
        queue.push(7)
        #expect(queue.popIfAny() == 7 && queue.popIfAny() == nil)
        queue.push(8)
        queue.close()
        #expect(queue.popIfAny() == 8 && queue.popIfAny() == nil)
    }

    @Test func aFullQueueHoldsTheProducerUntilAPop() {
        let queue = BlockingQueue<Int>(capacity: 2)
        #expect(queue.push(1) && queue.push(2))
        let pushed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            queue.push(3)
            pushed.signal()
        }
        #expect(pushed.wait(timeout: .now() + .milliseconds(200)) == .timedOut) // full: the third waits
        #expect(queue.pop() == 1)
        #expect(pushed.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(queue.pop() == 2 && queue.pop() == 3)
    }

    @Test func closeReleasesAWaitingProducerAndConsumer() {
        let full = BlockingQueue<Int>(capacity: 1)
        full.push(1)
        let producerResult = ResultBox()
        let producerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            producerResult.set(full.push(2))
            producerDone.signal()
        }
        let empty = BlockingQueue<Int>(capacity: 1)
        let consumerDone = DispatchSemaphore(value: 0)
        let consumed = ResultBox()
        Thread.detachNewThread {
            consumed.set(empty.pop() == nil)
            consumerDone.signal()
        }
        #expect(producerDone.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        full.close()
        empty.close()
        #expect(producerDone.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(consumerDone.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(producerResult.value == false) // the item was dropped
        #expect(consumed.value == true) // the consumer saw the end
        #expect(full.pop() == 1 && full.pop() == nil)
    }
}

/// A Bool written by one thread and read by another after a semaphore.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    func set(_ value: Bool) { lock.withLock { stored = value } }
    var value: Bool? { lock.withLock { stored } }
}
