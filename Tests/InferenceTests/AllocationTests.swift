import CAllocationCounter
import Foundation
import Testing

@testable import Inference

/// `invoke()` allocates nothing, at 1 and 2 threads, for all nine models: heap allocations made
/// on the invoking thread (which runs its share of every split kernel call through the same code
/// the pool's workers run) are counted by the CAllocationCounter test target's malloc forwarders.
/// Tolerance: exactly zero allocations over 5 runs after 2 warm-up runs. The counter is compiled out
/// of sanitizer builds (the sanitizer owns malloc there), so these tests fail in such a build rather
/// than pass without counting: `make test` runs them in the plain build, `make sanitize` leaves them out.
@Suite struct AllocationTests {
    /// Fails (instead of passing with nothing counted) in a build where the counter is off.
    static func requireCounter() throws {
        try #require(
            allocation_counter_available() == 1,
            "the allocation counter is compiled out of sanitizer builds: run AllocationTests in a plain build")
    }

    @Test(arguments: ParityTests.modelNames, [1, 2])
    func invokeAllocatesNothing(model name: String, threads: Int) throws {
        let manifest = try EngineManifest.load()
        let model = try #require(manifest.models.first { $0.name == name })
        let interpreter = try Interpreter(modelData: try Fixtures.model(model.path), numThreads: threads)
        for (i, input) in model.cases[0].inputs.enumerated() {
            try interpreter.setInput(i, try Fixtures.floats(Fixtures.engine(input.file)))
        }
        try Self.expectNoAllocations(interpreter, "\(name) at \(threads) thread(s)")
    }

    /// Runs `interpreter` twice to warm up, then expects 5 more invokes to allocate nothing.
    static func expectNoAllocations(_ interpreter: Interpreter, _ what: String) throws {
        for _ in 0..<2 { interpreter.invoke() }
        try requireCounter()
        allocation_counter_start()
        for _ in 0..<5 { interpreter.invoke() }
        let allocations = allocation_counter_stop()
        #expect(allocations == 0, "\(what): \(allocations) allocations in 5 invokes")
    }

    /// The two selfie segmenters (AVERAGE_POOL_2D or MEAN, HARD_SWISH, Convolution2DTransposeBias).
    @Test(arguments: ["selfie_segmenter", "selfie_segmentation_landscape"], [1, 2])
    func segmenterInvokeAllocatesNothing(model name: String, threads: Int) throws {
        let interpreter = try Interpreter(modelData: try Fixtures.model(["\(name).tflite"]), numThreads: threads)
        let count = interpreter.inputs[0].shape.reduce(1, *)
        try interpreter.setInput(0, (0..<count).map { Float($0 % 251) / 251 })
        try Self.expectNoAllocations(interpreter, "\(name) at \(threads) thread(s)")
    }

    /// The counter itself sees an allocation (so a zero above is not a counter that never counts).
    @Test func counterCountsAllocations() throws {
        try Self.requireCounter()
        allocation_counter_start()
        let pointer = allocation_counter_probe()
        let allocations = allocation_counter_stop()
        free(pointer)
        #expect(allocations == 1)
    }
}
