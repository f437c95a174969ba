import Inference

/// Runs per-ROI work (a landmark model on each face or hand) on up to two model instances at once.
/// With one ROI, or one instance, the ROIs go through the first instance in turn, its kernels
/// split over the task's threads. With two instances and two or more ROIs, the ROIs go in pairs to
/// the calling thread (first instance) and a worker of the engine's pool (second instance), each running its
/// kernels unsplit on a core of its own: two hands on two cores take about the time of one, where
/// splitting each model's layers over both cores gains less (MediaPipe's graph runs the per-ROI
/// work of several hands concurrently too). When another interpreter holds the pool (`--jobs` with `--threads 2`,
/// several server workers), the calling thread runs both, one after the other, unsplit. An odd last ROI runs alone on the first instance with
/// its kernels split, rather than keeping one core idle. Results come in the order of the ROIs.
///
/// Not thread-safe: one `map` at a time (the graphs' callers serialize use).
package final class ROILanes<Model> {
    private let first: Model
    private let second: Model?

    /// Lanes over an instance from `make`, and a second one when `concurrent` (the graph can have two
    /// ROIs and the task two threads: otherwise a second instance would only cost memory).
    package init(concurrent: Bool, make: () throws -> Model) rethrows {
        first = try make()
        second = concurrent ? try make() : nil
    }

    /// `body(model, item)` for each item; `body` must touch nothing shared but `model` and `item`
    /// when there are two instances (it runs on two threads at once).
    package func map<Item, Result>(_ items: [Item], _ body: (Model, Item) throws -> Result) throws -> [Result] {
        guard let second, items.count >= 2 else { return try items.map { try body(first, $0) } }
        let paired = items.count / 2 * 2
        let slots = UnsafeMutablePointer<Swift.Result<Result, any Error>?>.allocate(capacity: paired)
        slots.initialize(repeating: nil, count: paired)
        defer {
            slots.deinitialize(count: paired)
            slots.deallocate()
        }
        withoutActuallyEscaping(body) { body in
            let lanes = LaneWork(results: slots, body: body, models: (first, second), items: Array(items[..<paired]))
            Interpreter.eachOnACore(2) { lane in lanes.run(lane: lane) }
        }
        // Every slot was filled: lane 0 takes the even items, lane 1 the odd ones.
        var results = try (0..<paired).map { try slots[$0]!.get() }
        if paired < items.count { results.append(try body(first, items[paired])) }
        return results
    }
}

/// What the two lanes of one `map` share: each writes the result slots of its own items only.
private struct LaneWork<Model, Item, Result>: @unchecked Sendable {
    let results: UnsafeMutablePointer<Swift.Result<Result, any Error>?>
    let body: (Model, Item) throws -> Result
    let models: (Model, Model)
    let items: [Item]

    /// Lane 0 takes the even items with the first model, lane 1 the odd ones with the second.
    func run(lane: Int) {
        let model = lane == 0 ? models.0 : models.1
        for i in stride(from: lane, to: items.count, by: 2) {
            results[i] = Swift.Result { try body(model, items[i]) }
        }
    }
}
