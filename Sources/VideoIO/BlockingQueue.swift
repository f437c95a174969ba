import Foundation

/// A first-in first-out hand-over between two threads that holds at most `capacity` items (no
/// bound when nil, for a producer something else keeps in step): `push` waits while it is full,
/// `pop` waits while it is empty. `close()` ends it for both sides (a consumer that stops early
/// closes it so the producer does not wait for ever). Items cross threads, so a producer must not
/// touch an item after pushing it.
package final class BlockingQueue<Element>: @unchecked Sendable {
    private let capacity: Int
    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false

    /// A queue holding at most `capacity` items (at least 1), or any number when nil.
    package init(capacity: Int?) {
        self.capacity = capacity.map { max(1, $0) } ?? Int.max
        if let capacity { items.reserveCapacity(max(1, capacity)) }
    }

    /// Appends `item`, waiting for room; returns false (dropping the item) once the queue is closed.
    @discardableResult
    package func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Appends `item` without waiting, dropping the oldest item first when the queue is full (a live
    /// source that must not wait for a slow consumer); returns whether an item was dropped.
    @discardableResult
    package func pushDroppingOldest(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        let dropping = items.count >= capacity
        if dropping { items.removeFirst() }
        items.append(item)
        condition.broadcast()
        return dropping
    }

    /// The oldest item, waiting for one; nil once the queue is closed and empty.
    package func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// The oldest item if there is one, without waiting.
    package func popIfAny() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// Ends the queue: pushes fail from now on; pops return what is left, then nil.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
