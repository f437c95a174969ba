import Foundation
import Testing

@testable import Inference

/// The host probe behind `model profile`'s and `model benchmark`'s "two cores at once" figure.
@Suite struct TwoCoreShareTests {
    @Test func refusesRoundsAndDurationsOutOfRange() {
        #expect(HandoffCost.twoCoreShare(rounds: 0) == 0)
        #expect(HandoffCost.twoCoreShare(rounds: 102) == 0)
        #expect(HandoffCost.twoCoreShare(milliseconds: 0) == 0)
        #expect(HandoffCost.twoCoreShare(milliseconds: .nan) == 0)
        #expect(HandoffCost.twoCoreShare(milliseconds: 101) == 0)
    }

    /// Two cores computing at once each keep between a shared core's half (with slack for a loaded
    /// host) and one core's speed (a lone run other tenants slowed counts as 1: 2.07 was reported under load);
    /// without CPUs 0 and 1 it gives 0.
    @Test func aShareOfOneCoreOnTwoCores() {
        let share = HandoffCost.twoCoreShare(rounds: 5, milliseconds: 1)
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            #expect(share > 0.25 && share <= 1, "\(share)")
        } else {
            #expect(share == 0, "\(share)")
        }
    }
}
