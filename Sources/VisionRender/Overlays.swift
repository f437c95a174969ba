import Foundation
import VisionTasks

/// The sample apps' overlays, drawn on a canvas from normalized (0...1) coordinates.
extension Canvas {
    private func pixel(_ p: (x: Float, y: Float)) -> Point {
        Point(x: Double(p.x) * Double(width), y: Double(p.y) * Double(height))
    }

    /// The larger side of `points`' bounding box in pixels, for line widths that follow an object's size: at most
    /// the picture's larger side (landmarks far outside it, from a model gone wrong or a client's numbers, made
    /// lines and dots of any width, and Cairo's round caps take time and memory that grow with it); 0 when a
    /// point is not finite.
    private func extent(_ points: [Point]) -> Double {
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return 0 }
        let xs = points.map(\.x), ys = points.map(\.y)
        let size = max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
        return min(Double(max(width, height)), size)
    }

    private func segments(_ connections: [Connection], _ points: [Point]) -> [(Point, Point)] {
        connections.compactMap { c in
            guard c.start >= 0, c.end >= 0, c.start < points.count, c.end < points.count else { return nil }
            return (points[c.start], points[c.end])
        }
    }

    /// A face detection: its box (pixels), its keypoints (normalized) and "face 0.97" above the box,
    /// preceded by its tracking id when it has one ("#2 face 0.97").
    func drawFaceDetection(
        box: (x: Double, y: Double, width: Double, height: Double),
        keypoints: [(x: Float, y: Float)], score: Float?, id: Int? = nil
    ) {
        let thickness = scaled(1.0 / 200, minimum: 2)
        strokeRect(x: box.x, y: box.y, width: box.width, height: box.height, color: Palette.faceBox, width: thickness)
        fillDots(keypoints.map(pixel), radius: thickness * 1.5, color: Palette.faceKeypoint, outline: Palette.white)
        if score != nil || id != nil {
            let size = scaled(1.0 / 35, minimum: 12)
            let text = [id.map { "#\($0)" }, score.map { "face " + formatScore($0) }].compactMap { $0 }.joined(
                separator: " ")
            label(
                text, at: Point(x: box.x, y: box.y - size * 1.6), size: size,
                textColor: Palette.white, background: Palette.labelBackground)
        }
    }

    /// A face mesh of 468 or 478 landmarks: tesselation, then contours (eyes, eyebrows, lips, oval), then
    /// irises; then "#id" above the face when it has one, and the head-pose axes (picture directions,
    /// see `Annotation.screenAxes`) from the nose tip, the one pointing away from the viewer first.
    func drawFaceMesh(
        _ landmarks: [(x: Float, y: Float)], id: Int? = nil,
        poseAxes: [(dx: Double, dy: Double, towardsViewer: Double)]? = nil
    ) {
        let points = landmarks.map(pixel)
        // Line widths relative to the face's size, so that small faces stay legible.
        let xs = points.map(\.x), ys = points.map(\.y)
        let faceSize = extent(points)
        let thin = max(0.5, faceSize / 400)
        let thick = max(1, faceSize / 150)
        typealias F = FaceLandmarksConnections
        strokeSegments(segments(F.tesselation, points), color: Palette.tesselation, width: thin)
        strokeSegments(segments(F.faceOval, points), color: Palette.faceOval, width: thick)
        strokeSegments(segments(F.lips, points), color: Palette.lips, width: thick)
        strokeSegments(segments(F.rightEye + F.rightEyebrow, points), color: Palette.rightSide, width: thick)
        strokeSegments(segments(F.leftEye + F.leftEyebrow, points), color: Palette.leftSide, width: thick)
        strokeSegments(segments(F.rightIris, points), color: Palette.rightSide, width: thick)
        strokeSegments(segments(F.leftIris, points), color: Palette.leftSide, width: thick)
        if let poseAxes, points.count > 1 {
            // Landmark 1 is the nose tip; axes a third of the face long, drawn back to front.
            let nose = points[1], length = faceSize / 3
            for k in poseAxes.indices.sorted(by: { poseAxes[$0].towardsViewer < poseAxes[$1].towardsViewer }) {
                let a = poseAxes[k]
                strokeSegments(
                    [(nose, Point(x: nose.x + a.dx * length, y: nose.y + a.dy * length))],
                    color: Palette.poseAxes[k], width: thick * 1.5)
            }
        }
        if let id, let top = ys.min(), let left = xs.min() {
            let size = scaled(1.0 / 35, minimum: 12)
            label(
                "#\(id)", at: Point(x: left, y: top - size * 1.8), size: size, textColor: Palette.white,
                background: Palette.labelBackground)
        }
    }

    /// A hand: bones, joints, and a label with handedness and gesture (with scores) above the hand.
    func drawHand(_ landmarks: [(x: Float, y: Float)], labels: [String]) {
        let points = landmarks.map(pixel)
        let xs = points.map(\.x), ys = points.map(\.y)
        let bone = max(1.5, extent(points) / 80)
        strokeSegments(segments(HandLandmarksConnections.hand, points), color: Palette.handBone, width: bone)
        fillDots(points, radius: bone * 1.3, color: Palette.handJoint, outline: Palette.white)
        guard !labels.isEmpty, let top = ys.min(), let left = xs.min() else { return }
        let size = scaled(1.0 / 35, minimum: 12)
        for (i, text) in labels.enumerated() {
            let y = top - Double(labels.count - i) * size * 1.7 - bone * 2
            label(
                text, at: Point(x: left, y: y), size: size,
                textColor: i == 0 ? Palette.handednessText : Palette.white, background: Palette.labelBackground)
        }
    }
}

extension Canvas {
    /// A body: bones (the person's left side orange, right side cyan, the rest white, as MediaPipe's
    /// samples colour them), joints whose visibility is at least 0.5, and "#id" above the body.
    func drawPose(_ landmarks: [(x: Float, y: Float, visibility: Float)], id: Int? = nil) {
        let points = landmarks.map { pixel(($0.x, $0.y)) }
        let xs = points.map(\.x), ys = points.map(\.y)
        let bone = max(1.5, extent(points) / 120)
        // Odd landmarks are the person's left, even ones (from 2 on) the right, as in BlazePose's topology.
        func side(_ c: Connection) -> Color {
            let (a, b) = (c.start, c.end)
            if a > 10 && b > 10 && a % 2 == 1 && b % 2 == 1 { return Palette.poseLeft }
            if a > 10 && b > 10 && a % 2 == 0 && b % 2 == 0 { return Palette.poseRight }
            return Palette.poseCenter
        }
        for color in [Palette.poseCenter, Palette.poseLeft, Palette.poseRight] {
            strokeSegments(
                segments(PoseLandmarksConnections.pose.filter { side($0) == color }, points), color: color, width: bone)
        }
        let seen = points.indices.filter { landmarks[$0].visibility >= 0.5 }.map { points[$0] }
        fillDots(seen, radius: bone * 1.2, color: Palette.handJoint, outline: Palette.white)
        if let id, let top = ys.min(), let left = xs.min() {
            let text = scaled(1.0 / 35, minimum: 12)
            label(
                "#\(id)", at: Point(x: left, y: top - text * 1.8), size: text, textColor: Palette.white,
                background: Palette.labelBackground)
        }
    }
}

/// A score as the sample apps show it: two decimals.
func formatScore(_ score: Float) -> String {
    String(format: "%.2f", Double(score))
}
