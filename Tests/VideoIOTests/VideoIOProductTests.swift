import Foundation
import Testing
import VideoIO
import VisionTasks

/// VideoIO as a library user meets it (the `VideoIO` product): camera-style YUV frames in as
/// `MPImage`s, written as H.264 and read back as `MPImage`s with their timestamps.
@Suite struct VideoIOProductTests {
    @Test func writerTakesMPImagesAndTheReaderGivesThemBack() throws {
        let dir = try TestVideos.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("yuv.mp4")
        // NV12 frames stored 48x64 and turned by their orientation: the video is the upright 64x48.
        let writer = try VideoWriter(path: url.path, width: 64, height: 48, frameRate: "25")
        for i in 0..<5 {
            // Full-range gray: Y = 40 * (i + 1), U = V = 128.
            let frame = Data(repeating: UInt8(40 * (i + 1)), count: 48 * 64) + Data(repeating: 128, count: 48 * 32)
            try writer.write(
                try MPImage(
                    pixels: frame, width: 48, height: 64, format: .nv12,
                    colorSpace: .bt601Full, orientation: .right))
        }
        #expect(throws: VisionTasksError.self) {
            try writer.write(
                try MPImage(
                    pixels: Data(repeating: 0, count: 4 * 4 * 3), width: 4, height: 4,
                    bytesPerRow: 12, format: .rgb8))
        }
        try writer.finish()
        let reader = try VideoReader(contentsOfFile: url.path)
        var images: [(MPImage, Int)] = []
        while let frame = try reader.nextFrame() { images.append((frame.image(), frame.timestampInMilliseconds)) }
        #expect(images.map(\.1) == [0, 40, 80, 120, 160])
        #expect(images.allSatisfy { $0.0.width == 64 && $0.0.height == 48 })
        // Lossy: within 6 levels of the gray written (centre pixel).
        for (i, (image, _)) in images.enumerated() {
            let centre = image.withUnsafeBufferBytes { Int($0[(24 * 64 + 32) * 3]) }
            #expect(abs(centre - 40 * (i + 1)) <= 6, "frame \(i): \(centre)")
        }
    }
}
