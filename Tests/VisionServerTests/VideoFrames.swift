import Foundation
import VideoIO
import VisionTasks

/// A video's frames through VideoIO, for the library side of the video comparisons.
enum VideoFrames {
    struct Frame {
        let index: Int
        let timestamp: Int
        let image: MPImage
    }

    static func read(_ path: String) throws -> [Frame] {
        let reader = try VideoReader(contentsOfFile: path)
        defer { reader.close() }
        var frames: [Frame] = []
        while let frame = try reader.nextFrame() {
            frames.append(Frame(index: frame.index, timestamp: frame.timestampInMilliseconds, image: frame.image()))
        }
        return frames
    }
}
