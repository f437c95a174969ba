import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

/// The Image Segmenter in VIDEO mode on a video made in the test (woman_sitting.jpg panned and zoomed,
/// tools/references/make_media_refs.py's `person_pan`) against MediaPipe 1.2.2's `segment_for_video` on
/// the same decoded frames, every frame held to issue 44's tolerances: confidence mask mean |Δ| ≤ 0.5/255
/// against the 8-bit reference (≤ 1/255 against MediaPipe's floats) and IoU at 0.5 ≥ 0.99; category mask
/// ≥ 99.9% of pixels equal.
@Suite struct SegmenterVideoModeParityTests {
    /// The gray levels of a reference mask PNG under media/, `width`×`height` of them.
    static func levels(_ file: String, width: Int, height: Int) throws -> [UInt8] {
        let image = try MPImage(contentsOfFile: Fixture.references.appendingPathComponent("media/\(file)").path)
        try #require(image.bufferWidth == width && image.bufferHeight == height, "\(file) is not \(width)×\(height)")
        let step = image.bufferFormat.bytesPerPixel
        return image.withUnsafeBufferBytes { raw in (0..<width * height).map { raw[$0 * step] } }
    }

    @Test func everyFrameMatchesMediaPipe() throws {
        let (frames, reference) = try MediaReferences.decodedVideo("person_pan")
        // Same ffmpeg, same recipe: the decoded pixels are the reference's.
        #expect(frames.map(MediaReferences.byteSum) == reference.frames.map(\.byteSum))
        let expected = try #require(reference.imageSegmenter)
        let options = ImageSegmenterOptions(
            baseOptions: BaseOptions(
                modelAssetPath: MediaReferences.models.appendingPathComponent("selfie_segmenter.tflite").path),
            runningMode: .video
        ) {
            $0.shouldOutputConfidenceMasks = true
            $0.shouldOutputCategoryMask = true
        }
        let segmenter = try ImageSegmenter(options: options)
        var worst = (mad: 0.0, iou: 1.0, equal: 1.0)
        for (frame, want) in zip(frames, expected) {
            let image = frame.image()
            let (w, h) = (image.width, image.height)
            let got = try segmenter.segment(videoFrame: image, timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(got.timestampInMilliseconds == frame.timestampInMilliseconds)
            let mask = try #require(got.confidenceMasks?.first, "frame \(frame.index)")
            #expect(mask.width == w && mask.height == h, "frame \(frame.index)")
            let (mad, iou) = MaskAgreement.confidence(
                mask.float32Data, levels: try Self.levels(want.confidenceMask, width: w, height: h))
            let category = try #require(got.categoryMask, "frame \(frame.index)")
            let equal = MaskAgreement.equalFraction(
                category.uint8Data, try Self.levels(want.categoryMask, width: w, height: h))
            worst = (max(worst.mad, mad), min(worst.iou, iou), min(worst.equal, equal))
            #expect(mad <= 0.5 / 255, "frame \(frame.index): mean |Δ| \(mad * 255)/255")
            #expect(iou >= 0.99, "frame \(frame.index): IoU \(iou)")
            #expect(equal >= 0.999, "frame \(frame.index): category mask \(equal * 100)% equal")
        }
        print(
            "segmenter video person_pan, \(frames.count) frames, worst: mean |Δ| \(worst.mad * 255)/255, IoU \(worst.iou), category \(worst.equal * 100)% equal"
        )
    }
}
