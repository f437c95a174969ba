import Testing

@testable import VideoIO

/// Frames placed on a constant-rate video by their timestamps: held until the next frame's time, left out when their
/// slot is taken, a hold longer than a minute shortened, long holds sharing ten minutes a video, all counted.
@Suite struct FramePlacementTests {
    /// Places `timestamps` at `rate` and gives, for each, how often the frame before it was repeated and whether it
    /// was written.
    private func placed(_ timestamps: [Int], rate: Double) -> (places: [String], placement: FramePlacement) {
        var placement = FramePlacement(framesPerSecond: rate)
        let places = timestamps.map {
            let place = placement.place(timestampInMilliseconds: $0)
            return place.write ? "+\(place.repeatsOfPrevious)" : "-"
        }
        return (places, placement)
    }

    @Test func aSteadySourceIsWrittenFrameForFrame() {
        #expect(placed([1000, 1040, 1080, 1120], rate: 25).places == ["+0", "+0", "+0", "+0"])
        // 30000/1001 fps timestamps, rounded to milliseconds, land one a slot.
        let ntsc = (0..<300).map { Int((Double($0) * 1001 / 30).rounded()) }
        #expect(placed(ntsc, rate: 30000.0 / 1001).places.allSatisfy { $0 == "+0" })
    }

    @Test func aLongFrameIsHeldAndADenseOneLeftOut() {
        // 40 ms, then a second-long frame (24 repeats at 25 fps), then frames 5 ms apart (left out until the next slot, 1080 ms).
        #expect(placed([0, 40, 1040, 1045, 1050, 1080], rate: 25).places == ["+0", "+0", "+24", "-", "-", "+0"])
        // A repeated timestamp takes no slot.
        #expect(placed([0, 40, 40, 80], rate: 25).places == ["+0", "+0", "-", "+0"])
    }

    @Test func aHoldOverAMinuteIsShortenedAndCounted() {
        let hour = 3_600_000
        let (places, placement) = placed([0, hour, hour + 40, 2 * hour], rate: 25)
        // At most 60 s (1500 slots) a frame: 1499 repeats, then on from there.
        #expect(places == ["+0", "+1499", "+0", "+1499"])
        #expect(placement.shortenedGaps == 2)
    }

    @Test func anyTimestampIsPlacedWithoutTrapping() {
        let (places, placement) = placed([Int.min, 0, Int.max, Int.max], rate: 1000)
        #expect(places == ["+0", "+36599", "+599", "-"]) // 10 s + 600 s of long holds at 60 fps, then 10 s
        #expect(placement.shortenedGaps == 2)
    }

    /// A clock that goes back (two streams joined, a camera reconnected) goes on from the frame before: the frames
    /// after the join were all left out, their slots taken.
    @Test func aClockThatGoesBackGoesOnFromTheFrameBefore() {
        let (places, placement) = placed([0, 40, 80, 0, 40, 120], rate: 25)
        #expect(places == ["+0", "+0", "+0", "+0", "+0", "+1"])
        #expect(placement.restarts == 1 && placement.shortenedGaps == 0)
    }

    /// Holds up to 10 s are always kept (a time-lapse of frames 10 s apart plays in its time however long); what longer
    /// ones add beyond 10 s comes out of 10 minutes a video, then they are cut to 10 s.
    @Test func longHoldsShareTenMinutesAndOrdinaryOnesAreKept() {
        let lapse = placed((0..<500).map { $0 * 10_000 }, rate: 1)
        #expect(lapse.places.dropFirst().allSatisfy { $0 == "+9" } && lapse.placement.shortenedGaps == 0)
        // Frames 59 s apart: 49 s beyond the ordinary each, 12 of them fit in 600 s (588), the 13th gets 12 s more,
        // then 10 s each.
        let (places, placement) = placed((0..<20).map { $0 * 59_000 }, rate: 1)
        let repeats = places.dropFirst().compactMap { Int($0.dropFirst()) }
        #expect(repeats == Array(repeating: 58, count: 12) + [21] + Array(repeating: 9, count: 6), "\(places)")
        #expect(placement.shortenedGaps == 7)
    }

    /// The rate frames are written at: the average, or a variable-rate video's higher base rate up to 60.
    @Test func aVariableRateVideoIsWrittenAtItsBaseRate() {
        func rate(_ average: String, _ base: String?) -> String {
            var info = VideoInfo(
                width: 2, height: 2, rotation: 0, frameRate: average, durationSeconds: nil, frameCount: nil)
            info.baseFrameRate = base
            return info.writingFrameRate
        }
        #expect(rate("30000/1001", "30000/1001") == "30000/1001")
        #expect(rate("550/69", "25/1") == "25/1") // a variable-rate video: 8 frames a second on average
        #expect(rate("24/1", "90000/1") == "60") // a base rate that is the file's clock
        #expect(rate("120/1", "90000/1") == "120/1")
        #expect(rate("30/1", nil) == "30/1")
        // A rate no camera gives, or none: 60 (each slot costs the encoder a frame).
        #expect(rate("1001/1", "1001/1") == "60" && rate("30000/1", nil) == "60" && rate("0/1", nil) == "60")
        #expect(rate("240/1", "240/1") == "240/1" && rate("480/1", "480/1") == "480/1")
    }
}

extension FramePlacementTests {
    /// A live source's frame is held at most the wall time until the next one and a second: a camera's or a stream's
    /// clock that jumps ahead an hour froze the `--live --annotate` and `background --live` MP4s a minute.
    @Test func aLiveSourcesHoldIsBoundedByTheWallClock() {
        final class Clock: @unchecked Sendable { var seconds = 100.0 }
        let clock = Clock()
        var placement = FramePlacement(framesPerSecond: 25, wallClock: { clock.seconds })
        var places: [String] = []
        for (timestamp, wall) in [(0, 0.0), (40, 0.04), (3_600_000, 0.08), (3_600_040, 0.12), (3_602_040, 2.12)] {
            clock.seconds = 100 + wall
            let place = placement.place(timestampInMilliseconds: timestamp)
            places.append(place.write ? "+\(place.repeatsOfPrevious)" : "-")
        }
        // The hour's jump came 0.04 s later: 1.04 s at 25 fps is 26 writes of the frame before, 25 repeats; then on
        // from there. A 2 s gap that took 2 s of wall time is kept whole (49 repeats).
        #expect(places == ["+0", "+0", "+25", "+0", "+49"])
        #expect(placement.clockJumps == 1 && placement.shortenedGaps == 0)
        // A file's frames (no wall clock) are held by their timestamps alone, up to a minute.
        #expect(FramePlacementTests().placed([0, 40, 3_600_000], rate: 25).places == ["+0", "+0", "+1499"])
    }
}
