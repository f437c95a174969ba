import Foundation
import Testing
import VisionErrors

@testable import VisionCore

/// The background effect's steps against brute force or values worked by hand: box means, the guided
/// filter, bilinear taps, temporal smoothing, mask reuse, shrinking, covering and blending.
@Suite struct BackgroundStepsTests {
    /// A deterministic plane of values in 0...1.
    private func plane(_ width: Int, _ height: Int, seed: UInt64) -> FloatPlane {
        var state = seed
        let values = (0..<(width * height)).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        return FloatPlane(width: width, height: height, values: values)!
    }

    /// The windowed mean by summing each window.
    private func bruteMean(_ p: FloatPlane, _ r: Int) -> FloatPlane {
        var out = p
        for y in 0..<p.height {
            for x in 0..<p.width {
                var (sum, n): (Float, Int) = (0, 0)
                for v in max(0, y - r)...min(p.height - 1, y + r) {
                    for u in max(0, x - r)...min(p.width - 1, x + r) {
                        sum += p[u, v]
                        n += 1
                    }
                }
                out.values[y * p.width + x] = sum / Float(n)
            }
        }
        return out
    }

    @Test func boxMeanEqualsSummingEachWindow() {
        for (w, h, r) in [(7, 5, 2), (9, 4, 1), (3, 3, 5), (1, 6, 2)] {
            let p = plane(w, h, seed: UInt64(w * 31 + h))
            let fast = BoxMean.of(p, radius: r), slow = bruteMean(p, r)
            #expect(zip(fast.values, slow.values).allSatisfy { abs($0 - $1) < 1e-5 }, "\(w)×\(h) r \(r)")
        }
        #expect(BoxMean.of(plane(4, 4, seed: 1), radius: 0) == plane(4, 4, seed: 1))
    }

    @Test func guidedFilterEqualsTheDefinitionWindowByWindow() throws {
        let guide = plane(11, 8, seed: 7), mask = plane(11, 8, seed: 8)
        let filter = try #require(GuidedMaskFilter(radius: 2, epsilon: 0.01))
        let (a, b) = filter.coefficients(guide: guide, mask: mask)
        // He et al.'s steps written out with brute-force window means.
        let meanI = bruteMean(guide, 2), meanP = bruteMean(mask, 2)
        let ii = FloatPlane(width: 11, height: 8, values: guide.values.map { $0 * $0 })!
        let ip = FloatPlane(width: 11, height: 8, values: zip(guide.values, mask.values).map(*))!
        let meanII = bruteMean(ii, 2), meanIP = bruteMean(ip, 2)
        var rawA = meanI, rawB = meanP
        for i in rawA.values.indices {
            let variance = meanII.values[i] - meanI.values[i] * meanI.values[i]
            rawA.values[i] = (meanIP.values[i] - meanI.values[i] * meanP.values[i]) / (variance + 0.01)
            rawB.values[i] = meanP.values[i] - rawA.values[i] * meanI.values[i]
        }
        let expectedA = bruteMean(rawA, 2), expectedB = bruteMean(rawB, 2)
        #expect(zip(a.values, expectedA.values).allSatisfy { abs($0 - $1) < 1e-4 })
        #expect(zip(b.values, expectedB.values).allSatisfy { abs($0 - $1) < 1e-4 })
        // A constant mask stays constant whatever the guide: a = 0, b = the constant.
        let flat = FloatPlane(width: 11, height: 8, repeating: 0.3)!
        let (a0, b0) = filter.coefficients(guide: guide, mask: flat)
        #expect(a0.values.allSatisfy { abs($0) < 1e-5 } && b0.values.allSatisfy { abs($0 - 0.3) < 1e-5 })
        #expect(GuidedMaskFilter(radius: 0, epsilon: 0.01) == nil && GuidedMaskFilter(radius: 1, epsilon: 0) == nil)
    }

    @Test func bilinearTapsAlignPixelCentresAndClampTheEdges() {
        // 2 → 4: source coordinates −0.25, 0.25, 0.75, 1.25, clamped to 0...1.
        let taps = BilinearTaps(source: 2, destination: 4)
        #expect(taps.index == [0, 0, 0, 0] && taps.weight == [0, 0.25, 0.75, 1])
        let up = BilinearTaps.upsample(FloatPlane(width: 2, height: 1, values: [0, 1])!, width: 4, height: 2)
        #expect(up.values == [0, 0.25, 0.75, 1, 0, 0.25, 0.75, 1])
        #expect(BilinearTaps(source: 1, destination: 3).weight == [0, 0, 0])
    }

    /// A sharp edge in the frame and the mask a quarter of its size: the guided filter puts the edge
    /// back where the frame has it; plain bilinear upsampling leaves a ramp.
    @Test func guidedUpsamplingFollowsTheFramesEdge() throws {
        let (width, height, factor) = (64, 16, 4)
        let edge = 30 // frame columns 0..<30 dark, the rest bright; the person is the bright part
        let full = FloatPlane(
            width: width, height: height, values: (0..<(width * height)).map { $0 % width < edge ? 0.1 : 0.9 })!
        let ideal = full.values.map { $0 > 0.5 ? Float(1) : 0 }
        // The small guide and mask: box averages of the frame and of the ideal mask over 4×4 blocks.
        func shrink(_ values: [Float]) -> FloatPlane {
            var out = FloatPlane(width: width / factor, height: height / factor, repeating: 0)!
            for y in 0..<height {
                for x in 0..<width {
                    out.values[(y / factor) * (width / factor) + x / factor] += values[y * width + x] / 16
                }
            }
            return out
        }
        let guide = shrink(full.values), mask = shrink(ideal)
        let filter = try #require(GuidedMaskFilter(radius: 2, epsilon: 1e-3))
        let guided = filter.upsample(mask: mask, guide: guide, fullGuide: full)
        let plain = BilinearTaps.upsample(mask, width: width, height: height)
        let error = { (p: FloatPlane) in zip(p.values, ideal).map { abs($0 - $1) }.reduce(0, +) / Float(ideal.count) }
        #expect(guided.values.enumerated().allSatisfy { ($1 > 0.5) == (ideal[$0] > 0.5) })
        #expect(error(guided) < 0.02 && error(plain) > 3 * error(guided), "\(error(guided)) vs \(error(plain))")
    }

    @Test func smoothingFollowsMediaPipesMixingRule() throws {
        #expect(MaskTemporalSmoothing.uncertainty(0.5) == 1)
        #expect(MaskTemporalSmoothing.uncertainty(0) < 1e-3 && MaskTemporalSmoothing.uncertainty(1) < 1e-3)
        // x = 0.04 at p = 0.7: 1 − x·(5.68842 + x·(−0.748699 + x·(−57.8051 + x·(291.309 − 624.717·x)))).
        let x: Double = 0.04
        let worked = 1 - x * (5.68842 + x * (-0.748699 + x * (-57.8051 + x * (291.309 + x * -624.717))))
        #expect(abs(Double(MaskTemporalSmoothing.uncertainty(0.7)) - worked) < 1e-5)
        var smoothing = try #require(MaskTemporalSmoothing(ratio: 0.7))
        let first = FloatPlane(width: 3, height: 1, values: [1, 1, 0])!
        #expect(smoothing.smooth(first) == first)
        let second = smoothing.smooth(FloatPlane(width: 3, height: 1, values: [0.5, 1, 0.7])!)
        // p = 0.5: fully uncertain, 0.5 + (1 − 0.5)·0.7; p = 1: kept; p = 0.7 moves towards 0.
        #expect(abs(second.values[0] - 0.85) < 1e-6 && abs(second.values[1] - 1) < 1e-3)
        #expect(abs(Double(second.values[2]) - (0.7 - 0.7 * worked * 0.7)) < 1e-5)
        // The previous output, not the previous input, is what the next mask mixes with.
        let third = smoothing.smooth(FloatPlane(width: 3, height: 1, values: [0.5, 1, 0.7])!)
        #expect(abs(third.values[0] - (0.5 + (0.85 - 0.5) * 0.7)) < 1e-6)
        #expect(MaskTemporalSmoothing(ratio: 1.5) == nil)
    }

    @Test func motionGatingStopsTheMixingWhereTheFrameChanged() throws {
        var smoothing = try #require(MaskTemporalSmoothing(ratio: 0.7, motionScale: 0.1))
        let still = FloatPlane(width: 5, height: 5, repeating: 0.5)!
        _ = smoothing.smooth(FloatPlane(width: 5, height: 5, repeating: 1)!, luma: still)
        // The frame's luminance changes by 0.05 everywhere (half the scale), then by 0.1 (the whole scale):
        // the uncertain 0.5 mixes half as much, then not at all. It also lies 0.5 from the previous output
        // 1, which halves the mixing again (1 − |0.5 − 1|): 0.5 + (1 − 0.5)·0.7·0.5·0.5 = 0.5875.
        let uncertain = FloatPlane(width: 5, height: 5, repeating: 0.5)!
        let half = smoothing.smooth(uncertain, luma: FloatPlane(width: 5, height: 5, repeating: 0.55)!)
        #expect(half.values.allSatisfy { abs($0 - 0.5875) < 1e-5 })
        let whole = smoothing.smooth(uncertain, luma: FloatPlane(width: 5, height: 5, repeating: 0.65)!)
        #expect(whole.values.allSatisfy { abs($0 - 0.5) < 1e-5 })
        // One pixel alone changing by 0.25 (noise) counts as its window's mean (the whole 5×5 plane here), 0.01:
        // 0.5 + 0.5·0.7·0.9·0.5 = 0.6575.
        var fresh = try #require(MaskTemporalSmoothing(ratio: 0.7, motionScale: 0.1))
        _ = fresh.smooth(FloatPlane(width: 5, height: 5, repeating: 1)!, luma: still)
        var speck = still
        speck.values[12] = 0.75
        let steady = fresh.smooth(uncertain, luma: speck)
        #expect(abs(steady.values[12] - 0.6575) < 1e-5, "\(steady.values[12])")
        // A still frame: the mixing is MediaPipe's scaled by the distance alone. From 0.6 to the uncertain 0.5
        // (0.1 apart): 0.5 + (0.6 − 0.5)·0.7·0.9 = 0.563; from 0 to 1 (certain, 1 apart) nothing is kept.
        var held = try #require(MaskTemporalSmoothing(ratio: 0.7, motionScale: 0.1))
        _ = held.smooth(
            FloatPlane(width: 2, height: 1, values: [0.6, 0])!, luma: FloatPlane(width: 2, height: 1, repeating: 0.5)!)
        let followed = held.smooth(
            FloatPlane(width: 2, height: 1, values: [0.5, 1])!, luma: FloatPlane(width: 2, height: 1, repeating: 0.5)!)
        #expect(abs(followed.values[0] - 0.563) < 1e-5 && followed.values[1] == 1, "\(followed.values)")
        #expect(MaskTemporalSmoothing(ratio: 0.5, motionScale: 0) == nil)
    }

    @Test func reuseNeedsASmallDifferenceAndStopsAtTheCap() throws {
        var policy = try #require(MaskReusePolicy(threshold: 0.01, maxConsecutive: 2))
        let still = FloatPlane(width: 4, height: 4, repeating: 0.5)!
        let nudged = FloatPlane(width: 4, height: 4, repeating: 0.505)!
        let moved = FloatPlane(width: 4, height: 4, repeating: 0.6)!
        // Nothing to reuse at first; then two nudged or equal frames reuse; the third in a row is segmented.
        let decisions = [still, nudged, still, still, nudged, moved].map { policy.reuse(luma: $0) }
        #expect(decisions == [false, true, true, false, true, false])
        var never = try #require(MaskReusePolicy(threshold: 0, maxConsecutive: 5))
        #expect([still, still].map { never.reuse(luma: $0) } == [false, false])
        #expect(abs(MaskReusePolicy.meanAbsoluteDifference(still, moved) - 0.1) < 1e-6)
    }

    /// An RGB frame whose pixel (x, y) is `pixel(x, y)`.
    private func frame(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> MPImage {
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                bytes += [r, g, b]
            }
        }
        return try bytes.withUnsafeBytes {
            try MPImage(pixels: $0, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        }
    }

    @Test func shrinkingAveragesBlocksTheEdgeOnesSmaller() throws {
        // 34×18 at a working size of 16: factor 3, 12×6 working pixels, the last column one frame pixel wide.
        let picture = try frame(34, 18) { x, y in (UInt8(x * 7 % 256), UInt8(y * 13 % 256), UInt8((x + y) % 256)) }
        let compositor = try BackgroundCompositor(
            width: 34, height: 18, effect: .color(red: 0, green: 0, blue: 0), workingSize: 16)
        #expect(compositor.factor == 3 && compositor.smallWidth == 12 && compositor.smallHeight == 6)
        let small = try compositor.shrink(picture)
        let bytes = picture.withUnsafeBufferBytes { [UInt8]($0) }
        for sy in 0..<6 {
            for sx in 0..<12 {
                for c in 0..<3 {
                    var (sum, n) = (0, 0)
                    for y in (sy * 3)..<min(sy * 3 + 3, 18) {
                        for x in (sx * 3)..<min(sx * 3 + 3, 34) {
                            sum += Int(bytes[(y * 34 + x) * 3 + c])
                            n += 1
                        }
                    }
                    #expect(Int(small.rgb[(sy * 12 + sx) * 3 + c]) == (sum + n / 2) / n)
                }
                let o = (sy * 12 + sx) * 3
                let luma = BackgroundCompositor.luminance(small.rgb[o], small.rgb[o + 1], small.rgb[o + 2])
                #expect(small.luma[sx, sy] == luma)
            }
        }
    }

    @Test func composingBlendsTheBackgroundByTheUpsampledAlpha() throws {
        let picture = try frame(40, 24) { x, y in (UInt8(x * 6), UInt8(y * 10), 200) }
        let compositor = try BackgroundCompositor(
            width: 40, height: 24, effect: .color(red: 10, green: 20, blue: 30), workingSize: 16)
        let small = try compositor.shrink(picture)
        let (w, h) = (compositor.smallWidth, compositor.smallHeight)
        let a = FloatPlane(width: w, height: h, values: (0..<(w * h)).map { Float($0 % 3) * 0.4 - 0.4 })!
        let b = FloatPlane(width: w, height: h, values: (0..<(w * h)).map { Float($0 % 5) * 0.25 })!
        var out: [UInt8] = []
        try compositor.compose(picture, small: small, a: a, b: b, into: &out)
        let upA = BilinearTaps.upsample(a, width: 40, height: 24), upB = BilinearTaps.upsample(b, width: 40, height: 24)
        let bytes = picture.withUnsafeBufferBytes { [UInt8]($0) }
        var worst: Float = 0
        for i in 0..<(40 * 24) {
            let luma = BackgroundCompositor.luminance(bytes[i * 3], bytes[i * 3 + 1], bytes[i * 3 + 2])
            let alpha = min(max(upA.values[i] * luma + upB.values[i], 0), 1)
            for (c, background) in [Float(10), 20, 30].enumerated() {
                let expected = background + (Float(bytes[i * 3 + c]) - background) * alpha
                worst = max(worst, abs(Float(out[i * 3 + c]) - expected))
            }
        }
        #expect(worst <= 0.51, "\(worst)")
        // Another frame size mid-stream is refused.
        let other = try frame(20, 24) { _, _ in (0, 0, 0) }
        #expect(throws: VisionTasksError.self) { try compositor.shrink(other) }
        var refused = false
        do { try compositor.compose(other, small: small, a: a, b: b, into: &out) } catch is VisionTasksError {
            refused = true
        }
        #expect(refused)
    }

    /// A frame beyond H.264's sides, or a working size too small, is refused naming what is wrong with it.
    @Test func framesOutOfRangeAreNamed() {
        #expect {
            try BackgroundCompositor(width: 16_386, height: 8, effect: .blur(sigma: 4))
        } throws: {
            "\($0)" == "Invalid argument: frames of 16386×8: the background effect takes 1 to 16384 pixels a side"
        }
        #expect {
            try BackgroundCompositor(width: 64, height: 64, effect: .blur(sigma: 4), workingSize: 8)
        } throws: {
            "\($0)".hasSuffix("a working size of 8: the background effect needs 16 or more")
        }
    }

    /// Alpha 1 keeps the frame as it is; alpha 0 shows the background alone: the blurred working frame
    /// brought up bilinearly, or the covering picture.
    @Test func composingWithAlphaOneOrZeroGivesTheFrameOrTheBackground() throws {
        let picture = try frame(40, 24) { x, y in (UInt8(x * 6), UInt8(y * 10), UInt8((x * y) % 256)) }
        let replacement = try frame(10, 6) { x, y in (UInt8(x * 20), 50, UInt8(y * 40)) }
        for effect in [BackgroundEffect.blur(sigma: 4), .replace(replacement)] {
            let compositor = try BackgroundCompositor(width: 40, height: 24, effect: effect, workingSize: 16)
            let small = try compositor.shrink(picture)
            let (w, h) = (compositor.smallWidth, compositor.smallHeight)
            let zero = FloatPlane(width: w, height: h, repeating: 0)!,
                one = FloatPlane(width: w, height: h, repeating: 1)!
            var kept: [UInt8] = [], replaced: [UInt8] = []
            try compositor.compose(picture, small: small, a: zero, b: one, into: &kept)
            try compositor.compose(picture, small: small, a: zero, b: zero, into: &replaced)
            #expect(kept == picture.withUnsafeBufferBytes { [UInt8]($0) })
            let expected: [Float]
            if let planes = try compositor.blurredBackground(small) {
                let up = planes.map { BilinearTaps.upsample($0, width: 40, height: 24).values }
                expected = (0..<(40 * 24 * 3)).map { up[$0 % 3][$0 / 3] }
            } else {
                expected = try BackgroundCompositor.cover(replacement, width: 40, height: 24).map(Float.init)
            }
            let worst = zip(replaced, expected).map { abs(Float($0) - $1) }.max() ?? 99
            #expect(worst <= 0.51, "\(effect): \(worst)")
        }
    }

    /// Where the replacement picture is transparent the frame shows through, by the picture's opacity (its alpha was
    /// dropped, so a logo on transparent pixels stored black painted the background black).
    @Test func aTransparentReplacementPictureShowsTheFrameThrough() throws {
        let picture = try frame(8, 2) { x, y in (UInt8(x * 30), UInt8(y * 100), 7) }
        // Opacity 0, 0, 128, 128, 255, 255, 255, 255 by column; colour (200, 10, 40) everywhere.
        let opacity: [UInt8] = [0, 0, 128, 128, 255, 255, 255, 255]
        var rgba = [UInt8]()
        for _ in 0..<2 { for a in opacity { rgba += [200, 10, 40, a] } }
        let replacement = try rgba.withUnsafeBytes {
            try MPImage(pixels: $0, width: 8, height: 2, bytesPerRow: 32, format: .rgba8)
        }
        #expect(try BackgroundCompositor.coverAlpha(replacement, width: 8, height: 2) == opacity + opacity)
        let compositor = try BackgroundCompositor(width: 8, height: 2, effect: .replace(replacement), workingSize: 16)
        let small = try compositor.shrink(picture)
        let zero = FloatPlane(width: compositor.smallWidth, height: compositor.smallHeight, repeating: 0)!
        var out: [UInt8] = []
        try compositor.compose(picture, small: small, a: zero, b: zero, into: &out)
        let frameBytes = picture.withUnsafeBufferBytes { [UInt8]($0) }
        for i in 0..<16 {
            let a = Int(opacity[i % 8])
            for (c, colour) in [200, 10, 40].enumerated() {
                let expected = (colour * a + Int(frameBytes[i * 3 + c]) * (255 - a) + 127) / 255
                #expect(abs(Int(out[i * 3 + c]) - expected) <= 1, "pixel \(i) channel \(c)")
            }
        }
        // Scaled, colour is weighed by opacity (premultiplied, as a browser scales): white on transparent black over a
        // white frame stays white at the edge (a dark band 30 pixels wide showed the black).
        var edge = [UInt8]()
        for _ in 0..<8 { for x in 0..<8 { edge += x < 4 ? [255, 255, 255, 255] : [0, 0, 0, 0] } }
        let logo = try edge.withUnsafeBytes {
            try MPImage(pixels: $0, width: 8, height: 8, bytesPerRow: 32, format: .rgba8)
        }
        let white = try frame(64, 64) { _, _ in (255, 255, 255) }
        let scaled = try BackgroundCompositor(width: 64, height: 64, effect: .replace(logo), workingSize: 16)
        let whiteSmall = try scaled.shrink(white)
        let none = FloatPlane(width: scaled.smallWidth, height: scaled.smallHeight, repeating: 0)!
        var composed: [UInt8] = []
        try scaled.compose(white, small: whiteSmall, a: none, b: none, into: &composed)
        #expect(composed.min() ?? 0 >= 254, "darkest \(composed.min() ?? 0)")
        // An opaque RGBA picture is a plain one.
        let opaque = try [UInt8](repeating: 255, count: 16).withUnsafeBytes {
            try MPImage(pixels: $0, width: 2, height: 2, bytesPerRow: 8, format: .rgba8)
        }
        #expect(try BackgroundCompositor.coverAlpha(opaque, width: 8, height: 2) == nil)
        // A gray PNG with alpha keeps its transparency (it was decoded to gray, its alpha dropped).
        let grayAlpha = try MPImage(contentsOfFile: Fixtures.path("images/png-variants/gray_alpha8.png"))
        #expect(try BackgroundCompositor.coverAlpha(grayAlpha, width: 13, height: 7) != nil)
    }

    @Test func coverScalesToFillAndCentres() throws {
        // 4×2 picture onto a 2×2 frame: scale 1 (the height fills), columns 1 and 2 kept.
        let picture = try frame(4, 2) { x, y in (UInt8(x * 10 + y), 0, 0) }
        let covered = try BackgroundCompositor.cover(picture, width: 2, height: 2)
        #expect(stride(from: 0, to: 12, by: 3).map { covered[$0] } == [10, 20, 11, 21])
        // 2×2 picture onto 4×2: scale 2 (the width fills), the middle rows of the doubled picture: the
        // first row sampled at 0.25 and 0.75 → bilinear between the two rows.
        let square = try frame(2, 2) { x, y in (UInt8(x * 100), UInt8(y * 100), 0) }
        let wide = try BackgroundCompositor.cover(square, width: 4, height: 2)
        #expect(stride(from: 0, to: 24, by: 3).map { wide[$0] } == [0, 25, 75, 100, 0, 25, 75, 100])
        #expect(stride(from: 1, to: 24, by: 3).map { wide[$0] } == [25, 25, 25, 25, 75, 75, 75, 75])
    }

    @Test func blurKeepsTheMeanAndSpreadsAnEdge() throws {
        #expect(BackgroundCompositor.boxRadius(sigma: 0) == 0)
        #expect(BackgroundCompositor.boxRadius(sigma: 1) == 1 && BackgroundCompositor.boxRadius(sigma: 10) == 10)
        // A standard deviation past any frame's side blurs to the mean; 4σ² past Float's range trapped.
        #expect(BackgroundCompositor.boxRadius(sigma: .greatestFiniteMagnitude) == 16_384)
        let picture = try frame(64, 8) { x, _ in x < 32 ? (0, 0, 0) : (255, 255, 255) }
        let flat = try BackgroundCompositor(width: 64, height: 8, effect: .blur(sigma: 1e10), workingSize: 32)
        let everywhere = try #require(try flat.blurredBackground(try flat.shrink(picture)))[0]
        #expect(everywhere.values.allSatisfy { abs($0 - 127.5) < 1 })
        let compositor = try BackgroundCompositor(width: 64, height: 8, effect: .blur(sigma: 8), workingSize: 32)
        let small = try compositor.shrink(picture)
        let planes = try #require(try compositor.blurredBackground(small))
        let red = planes[0]
        #expect(abs(red.values.reduce(0, +) / Float(red.values.count) - 127.5) < 2)
        // Next to the edge the values are spread out: neither black nor white within a few pixels.
        #expect(red[15, 2] > 40 && red[16, 2] < 215 && red[0, 2] < red[15, 2])
        // Another compositor's working frame (a smaller one): refused, not read past its end.
        let smaller = try BackgroundCompositor(width: 16, height: 4, effect: .blur(sigma: 8), workingSize: 16)
        let other = try smaller.shrink(try frame(16, 4) { _, _ in (0, 0, 0) })
        #expect(throws: VisionTasksError.self) { try compositor.blurredBackground(other) }
        // A plane whose size overflows is no plane.
        #expect(FloatPlane(width: 1 << 32, height: 1 << 32, values: []) == nil)
        // Nor is a filled one of no size, a negative size or an overflowing one (these trapped once).
        for (w, h) in [(0, 4), (4, 0), (-1, -1), (1 << 32, 1 << 32), (Int.max, 2)] {
            #expect(FloatPlane(width: w, height: h, repeating: 0) == nil)
        }
        let same = FloatPlane(sizeOf: red, repeating: 2)
        #expect(same.width == red.width && same.height == red.height && same.values.allSatisfy { $0 == 2 })
    }
}
