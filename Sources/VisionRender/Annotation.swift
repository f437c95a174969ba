import VisionCore
import VisionErrors
import VisionTasks

/// A copy of a picture with task results drawn over it, as MediaPipe's sample apps overlay them:
/// make one from the input image, draw one or more results, then take the picture out.
public final class Annotation {
    let canvas: Canvas

    /// An annotation over `width`×`height` pixels of `channels` bytes (3: RGB, 4: RGBA), rows
    /// `rowBytes` apart (default: packed).
    /// - Parameters:
    ///   - pixels: The picture's bytes, row by row.
    ///   - width: Width in pixels, 1...32767.
    ///   - height: Height in pixels, 1...32767.
    ///   - channels: Bytes per pixel: 3 (RGB) or 4 (RGBA, alpha ignored).
    ///   - rowBytes: Bytes from one row's start to the next's (nil: `width * channels`).
    /// - Throws: `VisionTasksError.invalidImage` for a size outside 1...32767; `.invalidArgument` for another
    ///   channel count, a row stride shorter than a row or a buffer too small; `.processingFailed` when Cairo
    ///   cannot make the canvas.
    public init(pixels: [UInt8], width: Int, height: Int, channels: Int, rowBytes: Int? = nil) throws {
        canvas = try pixels.withUnsafeBytes {
            try Canvas(
                width: width, height: height, channels: channels,
                rowBytes: rowBytes ?? Self.packedRowBytes(width, channels), bytes: $0)
        }
    }

    /// An annotation over the upright picture of `image` (results are in upright coordinates).
    /// - Parameter image: The picture the results were found in.
    /// - Throws: `VisionTasksError.invalidImage` for a picture over 32767 pixels a side or an upright copy
    ///   that cannot be allocated; `.processingFailed` when Cairo cannot make the canvas.
    public init(image: MPImage) throws {
        let upright = try image.uprightRGB()
        canvas = try upright.withUnsafeBufferBytes {
            try Canvas(
                width: upright.width, height: upright.height, channels: 3, rowBytes: upright.bufferBytesPerRow,
                bytes: $0)
        }
    }

    /// Replaces the picture with new pixels of the same size (`channels` 3: RGB, 4: RGBA; rows
    /// `rowBytes` apart, default packed), dropping what was drawn: one annotation can then serve
    /// every frame of a video without allocating a canvas per frame.
    /// - Parameters:
    ///   - pixels: The new picture's bytes, row by row, `width`×`height` pixels.
    ///   - channels: Bytes per pixel: 3 (RGB) or 4 (RGBA, alpha ignored).
    ///   - rowBytes: Bytes from one row's start to the next's (nil: `width * channels`).
    /// - Throws: `VisionTasksError.invalidArgument` for another channel count, a row stride shorter than a
    ///   row or a buffer too small.
    public func replacePixels(_ pixels: [UInt8], channels: Int, rowBytes: Int? = nil) throws {
        try pixels.withUnsafeBytes {
            try canvas.replace(
                channels: channels, rowBytes: rowBytes ?? Self.packedRowBytes(width, channels), bytes: $0)
        }
    }

    /// `width × channels`, or `Int.max` when that overflows (the canvas then refuses the width or the channels,
    /// which it checks first).
    private static func packedRowBytes(_ width: Int, _ channels: Int) -> Int {
        let (bytes, overflow) = width.multipliedReportingOverflow(by: channels)
        return overflow ? Int.max : bytes
    }

    /// Replaces the picture with the upright picture of `image`, of the same size, as
    /// `replacePixels` does.
    /// - Parameter image: The new picture, `width`×`height` once upright.
    /// - Throws: `VisionTasksError.invalidArgument` for another size; `.invalidImage` when the upright copy
    ///   cannot be allocated.
    public func replace(with image: MPImage) throws {
        let upright = try image.uprightRGB()
        guard upright.width == width, upright.height == height else {
            throw VisionTasksError.invalidArgument(
                "a \(upright.width)×\(upright.height) picture cannot replace a \(width)×\(height) one")
        }
        try upright.withUnsafeBufferBytes {
            try canvas.replace(channels: 3, rowBytes: upright.bufferBytesPerRow, bytes: $0)
        }
    }

    /// The width of the picture in pixels.
    public var width: Int { canvas.width }
    /// The height of the picture in pixels.
    public var height: Int { canvas.height }

    /// Draws detections as the face detector's overlay: box, keypoints and "face 0.97", preceded by
    /// the face's tracking id when `trackingIds` has one per detection ("#2 face 0.97").
    /// - Parameters:
    ///   - detections: Boxes in pixels, keypoints normalized.
    ///   - trackingIds: One id per detection, or nil.
    public func draw(detections: [Detection], trackingIds: [Int]? = nil) {
        for (i, detection) in detections.enumerated() {
            let box = detection.boundingBox
            canvas.drawFaceDetection(
                box: (
                    x: Double(box.origin.x), y: Double(box.origin.y), width: Double(box.size.width),
                    height: Double(box.size.height)
                ),
                keypoints: (detection.keypoints ?? []).map { (x: Float($0.location.x), y: Float($0.location.y)) },
                score: detection.categories.first?.score, id: Self.id(trackingIds, i, count: detections.count))
        }
    }

    /// Draws face meshes (478 or 468 normalized landmarks each): tesselation, contours, irises; with
    /// "#id" above each face when `trackingIds` has one per face, and a three-axis head-pose gizmo at
    /// the nose when `headPoses` has one per face.
    /// - Parameters:
    ///   - faceLandmarks: Each face's normalized landmarks.
    ///   - trackingIds: One id per face, or nil.
    ///   - headPoses: One head pose per face, or nil.
    public func draw(faceLandmarks: [[NormalizedLandmark]], trackingIds: [Int]? = nil, headPoses: [HeadPose]? = nil) {
        for (i, face) in faceLandmarks.enumerated() {
            let pose = headPoses.flatMap { $0.count == faceLandmarks.count ? $0[i] : nil }
            canvas.drawFaceMesh(
                face.map { (x: $0.x, y: $0.y) }, id: Self.id(trackingIds, i, count: faceLandmarks.count),
                poseAxes: pose.map(Self.screenAxes))
        }
    }

    /// The i-th tracking id when there is one per object.
    private static func id(_ ids: [Int]?, _ i: Int, count: Int) -> Int? {
        guard let ids, ids.count == count else { return nil }
        return ids[i]
    }

    /// The face's x (towards the person's left: the picture's right when frontal), y (up) and z
    /// (forwards, out of the face) axes of a head pose, as picture directions (x right, y down) with
    /// their depth towards the viewer: the columns of Rz(roll) · Ry(yaw) · Rx(−pitch), y flipped.
    static func screenAxes(_ pose: HeadPose) -> [(dx: Double, dy: Double, towardsViewer: Double)] {
        let m = headPoseRotation(yaw: Double(pose.yaw), pitch: Double(pose.pitch), roll: Double(pose.roll))
        return (0..<3).map { (dx: m[0][$0], dy: -m[1][$0], towardsViewer: m[2][$0]) }
    }

    /// Draws hand skeletons (21 normalized landmarks each) labelled with the hand's tracking id when
    /// `trackingIds` has one per hand ("#1"), its handedness and, when given, its gesture, each with
    /// its score ("Right 0.98", "Thumb_Up 0.77").
    /// - Parameters:
    ///   - handLandmarks: Each hand's normalized landmarks.
    ///   - handedness: Each hand's handedness categories (the top one is drawn), or none.
    ///   - gestures: Each hand's gesture categories (the top one is drawn), or none.
    ///   - trackingIds: One id per hand, or nil.
    public func draw(
        handLandmarks: [[NormalizedLandmark]], handedness: [[ResultCategory]] = [],
        gestures: [[ResultCategory]] = [], trackingIds: [Int]? = nil
    ) {
        draw(handLandmarks: handLandmarks, categories: [handedness, gestures], trackingIds: trackingIds)
    }

    /// Draws hand skeletons labelled with the tracking id and the top category of each of `categories`
    /// (lists with one entry per hand: handedness, gestures), the first in the handedness colour.
    func draw(handLandmarks: [[NormalizedLandmark]], categories: [[[ResultCategory]]], trackingIds: [Int]?) {
        for (i, hand) in handLandmarks.enumerated() {
            var labels: [String] = []
            if let id = Self.id(trackingIds, i, count: handLandmarks.count) { labels.append("#\(id)") }
            for list in categories where i < list.count {
                if let top = list[i].first {
                    labels.append("\(top.categoryName ?? top.displayName ?? "#\(top.index)") \(formatScore(top.score))")
                }
            }
            canvas.drawHand(hand.map { (x: $0.x, y: $0.y) }, labels: labels)
        }
    }

    /// Draws each person's segmentation mask tinted (one colour per person in turn), then their
    /// skeletons (33 normalized landmarks each) labelled with their tracking id when `trackingIds`
    /// has one per person ("#1").
    /// - Parameters:
    ///   - poseLandmarks: Each person's normalized landmarks.
    ///   - segmentationMasks: Masks of the picture's size, one per person, or nil.
    ///   - trackingIds: One id per person, or nil.
    public func draw(poseLandmarks: [[NormalizedLandmark]], segmentationMasks: [Mask]? = nil, trackingIds: [Int]? = nil)
    {
        draw(masks: segmentationMasks ?? [])
        for (i, pose) in poseLandmarks.enumerated() {
            canvas.drawPose(
                pose.map { (x: $0.x, y: $0.y, visibility: $0.visibility ?? 1) },
                id: Self.id(trackingIds, i, count: poseLandmarks.count))
        }
    }

    /// Tints each mask of the picture's size (another size is skipped) in its own colour in turn.
    public func draw(masks: [Mask]) {
        for (i, mask) in masks.enumerated() where mask.width == width && mask.height == height {
            canvas.tint(mask: mask.float32Data, color: Palette.poseMasks[i % Palette.poseMasks.count])
        }
    }

    /// The annotated picture as an upright RGB `MPImage` (write it with `write(to:)`).
    /// - Throws: `VisionTasksError.invalidImage` when the image's memory cannot be allocated.
    public func image() throws -> MPImage {
        let bytes = canvas.bytes(channels: 3)
        return try bytes.withUnsafeBytes {
            try MPImage(
                pixels: $0, width: canvas.width, height: canvas.height, bytesPerRow: canvas.width * 3, format: .rgb8)
        }
    }

    /// The annotated picture as packed RGB bytes, row by row.
    public func rgbPixels() -> [UInt8] { canvas.bytes(channels: 3) }

    /// Calls `body` with the annotated picture in place, without a copy: `bytes` are 32-bit
    /// little-endian xRGB words (B, G, R, unused per pixel), rows `rowBytes` apart.
    public func withBGRXBytes<R>(_ body: (_ bytes: UnsafeRawBufferPointer, _ rowBytes: Int) throws -> R) rethrows -> R {
        try canvas.withBGRXBytes(body)
    }

    /// The annotated picture as packed RGBA bytes (opaque), row by row.
    public func rgbaPixels() -> [UInt8] { canvas.bytes(channels: 4) }
}
