import Foundation
import Testing

@testable import VisionCore

// Tolerance: 1e-5 relative, the filters store single-precision values.

@Test func oneEuroFilterPassesTheFirstValueAndFollowsTheClosedForm() {
    var f = OneEuroFilter(frequency: 30, minCutoff: 1, beta: 0, derivateCutoff: 1)
    #expect(f.apply(10, timestampNanoseconds: 0, valueScale: 1) == 10)
    // After a first frame at time 0 MediaPipe keeps the configured 30 Hz for the second frame:
    // alpha = 1 / (1 + tau / te) with tau = 1/(2π), te = 1/30.
    let alpha30 = 1 / (1 + (1 / (2 * Double.pi)) * 30)
    let y = f.apply(20, timestampNanoseconds: 100_000_000, valueScale: 1)
    #expect(abs(y - (10 + alpha30 * 10)) < 1e-4)
    // From then on the frequency follows the timestamps: 50 ms later, 20 Hz.
    let alpha20 = 1 / (1 + (1 / (2 * Double.pi)) * 20)
    let y2 = f.apply(20, timestampNanoseconds: 150_000_000, valueScale: 1)
    #expect(abs(y2 - (y + alpha20 * (20 - y))) < 1e-4)
    // A timestamp that does not advance returns the raw value.
    #expect(f.apply(30, timestampNanoseconds: 150_000_000, valueScale: 1) == 30)
}

@Test func oneEuroFilterFollowsFastMotionMoreWithHigherBeta() {
    var slow = OneEuroFilter(frequency: 30, minCutoff: 0.05, beta: 0, derivateCutoff: 1)
    var fast = OneEuroFilter(frequency: 30, minCutoff: 0.05, beta: 80, derivateCutoff: 1)
    _ = slow.apply(0, timestampNanoseconds: 1, valueScale: 0.01)
    _ = fast.apply(0, timestampNanoseconds: 1, valueScale: 0.01)
    let s = slow.apply(100, timestampNanoseconds: 33_000_000, valueScale: 0.01)
    let q = fast.apply(100, timestampNanoseconds: 33_000_000, valueScale: 0.01)
    #expect(s < 2 && q > 50)
}

@Test func landmarksSmootherResetsOnEmptyFramesAndKeepsStillPointsStill() throws {
    var smoother = OneEuroLandmarksSmoother(minCutoff: 0.05, beta: 80, derivateCutoff: 1)
    let still: [SIMD3<Float>] = [SIMD3(0.2, 0.2, 0), SIMD3(0.4, 0.5, 0.01)]
    for t in 0..<3 {
        let result = smoother.smooth(still, imageWidth: 640, imageHeight: 480, timestampMicroseconds: Int64(t) * 33_000)
        let out = try #require(result)
        for (a, b) in zip(out, still) {
            #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 && abs(a.z - b.z) < 1e-6)
        }
    }
    let moved = still.map { $0 + SIMD3(0.01, 0, 0) }
    let lagged = smoother.smooth(moved, imageWidth: 640, imageHeight: 480, timestampMicroseconds: 99_000)
    let lagging = try #require(lagged)
    #expect(lagging[0].x < moved[0].x && lagging[0].x > still[0].x)
    let empty = smoother.smooth([], imageWidth: 640, imageHeight: 480, timestampMicroseconds: 132_000)
    #expect(empty == [])
    // After the reset the next frame passes through unfiltered.
    let fresh = smoother.smooth(moved, imageWidth: 640, imageHeight: 480, timestampMicroseconds: 165_000)
    #expect(fresh == moved)
    let mismatched = smoother.smooth(
        [SIMD3(0, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0)], imageWidth: 640,
        imageHeight: 480, timestampMicroseconds: 198_000)
    #expect(mismatched == nil)
}
