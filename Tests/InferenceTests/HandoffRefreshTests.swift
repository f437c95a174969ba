import CKernels
import Testing

@testable import Inference

/// The pool's hand-off measured again while the last measurement came late, and the grain a plan's splits read
/// from it (a late measurement at start-up kept the largest grain for a process's whole life before).
@Suite(.serialized) struct HandoffRefreshTests {
    @Test func aLateMeasurementIsTakenAgainAndSplitsFollowIt() {
        let measured = HandoffCost.nanoseconds
        defer { vt_pool_handoff_set(measured) }
        let (smallest, largest) = (HandoffCost.grainRange.lowerBound, HandoffCost.grainRange.upperBound)

        // In time: nothing to measure again.
        vt_pool_handoff_set(300)
        #expect(!HandoffCost.cameLate && HandoffCost.grain == smallest)
        #expect(!HandoffCost.refreshIfLate())

        // Late: the largest grain, which threads made now read at each split ...
        vt_pool_handoff_set(Double(VT_PROBE_TIMEOUT_NS))
        let threads = KernelThreads(2)
        #expect(HandoffCost.cameLate && threads.grain == largest)
        // ... (a thread that keeps its calls to itself, as inside a pool job, does not measure) ...
        #expect(!Interpreter.withoutSplitting { HandoffCost.refreshIfLate() })
        // ... until the next refresh measures again.
        #expect(HandoffCost.refreshIfLate())
        #expect(threads.grain == HandoffCost.grain)
        if HandoffCost.cameLate {
            // Late again (the other core still busy here): the next measurement waits its turn.
            #expect(!HandoffCost.refreshIfLate())
        } else {
            #expect(!HandoffCost.refreshIfLate())
            #expect(HandoffCost.nanoseconds > 0 && threads.grain < largest)
        }

        // A grain given at creation stays; one thread never scales.
        vt_pool_handoff_set(Double(VT_PROBE_TIMEOUT_NS))
        #expect(KernelThreads(2, grain: 2.5).grain == 2.5)
        #expect(KernelThreads(1).grain == 1)
    }
}
