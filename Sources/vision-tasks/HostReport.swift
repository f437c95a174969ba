import Foundation
import Inference
import VisionCore

/// The host a timing comes from, as `model benchmark` and `model profile` report it: the CPU and its caches, the
/// load, and what a hand-off between two of its cores costs.
struct HostReport: Codable {
    /// CPU model, family and model numbers, CPU count, caches (`HostCPU.describe`).
    var cpu: String
    /// 1, 5 and 15 minute load averages when the runs ended.
    var loadAverage: String
    /// A cache line's round trip between two threads, ns (median of 31 batches of 2,000), measured right after
    /// the runs: on this VM it moves between about 60 and 330 ns as the two vCPUs land on near or far cores.
    var pingPongNs: Double
    /// The pool's hand-off (an empty job over two threads), ns, and the factor it puts on the
    /// kernels' minimum work per part (`HandoffCost`).
    var handoffNs, grain: Double
    /// Whether most of the pool's probe workers came late, so that `handoffNs` is the probe's timeout (`HandoffCost.cameLate`).
    var handoffCameLate: Bool
    /// The line round trip measured when the first plan was made, ns, and whether plans over several threads
    /// therefore give each tensor its own buffer (`HandoffCost.separatesBuffers`).
    var planLineTripNs: Double
    var separateBuffers: Bool
    /// Each core's arithmetic speed while both compute, as a share of one alone (`HandoffCost.twoCoreShare`);
    /// twice it bounds a second thread's gain here then (other tenants' load on the cores moves it).
    var twoCoreShare: Double

    /// The host now, with a two-core share the caller probed (once, or as a median over rounds).
    static func now(twoCoreShare: Double) -> HostReport {
        HostReport(
            cpu: HostCPU.describe(), loadAverage: HostCPU.loadAverage(), pingPongNs: HandoffCost.pingPong(),
            handoffNs: HandoffCost.nanoseconds, grain: HandoffCost.grain, handoffCameLate: HandoffCost.cameLate,
            planLineTripNs: HandoffCost.lineTripNanoseconds, separateBuffers: HandoffCost.separatesBuffers,
            twoCoreShare: twoCoreShare)
    }

    /// The header lines of a text report: the CPU and load, then what two cores give at once and cost per hand-off.
    var header: String {
        let f0 = { (v: Double) in String(format: "%.0f", v) }, f2 = { (v: Double) in String(format: "%.2f", v) }
        let handoff =
            handoffCameLate
            ? "over \(f0(handoffNs / 1e6)) ms (most of the probe's workers came late: a core busy with other work)"
            : "\(f0(handoffNs)) ns"
        return """
            CPU: \(cpu); load average \(loadAverage)
            hand-off: cache-line ping-pong \(f0(pingPongNs)) ns per round trip; pool hand-off \(handoff) \
            (minimum work per part x\(f2(grain))); at plan time a line's round trip took \(f0(planLineTripNs)) ns, \
            so buffers are \(separateBuffers ? "separate" : "reused") at 2+ threads
            two cores at once: each computes at \(f2(twoCoreShare)) of one alone, so a second thread gains at most \
            x\(f2(2 * twoCoreShare)) here now

            """
    }
}
