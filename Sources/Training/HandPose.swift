import Foundation
import VisionCore

/// One hand as the gesture embedder takes it: what `GestureEmbedder.embed(landmarks:…)` reads, kept so a
/// training hand can be turned into variants (mirrored, turned) before it is embedded.
struct HandPose: Sendable, Equatable {
    /// 21 landmarks normalised to the image, z relative to the stored pixels' width.
    var landmarks: [SIMD3<Float>]
    /// The image's upright size, which the landmarks are normalised to.
    var imageWidth: Int
    /// See `imageWidth`.
    var imageHeight: Int
    /// 21 world landmarks in metres.
    var worldLandmarks: [SIMD3<Float>]
    /// The probability that the hand is a right hand.
    var rightHandScore: Float

    /// The same hand seen in a mirror: x flipped in the image and in the world, and the handedness swapped
    /// (a mirrored left hand looks like a right hand).
    func mirrored() -> HandPose {
        var pose = self
        pose.landmarks = landmarks.map { SIMD3(1 - $0.x, $0.y, $0.z) }
        pose.worldLandmarks = worldLandmarks.map { SIMD3(-$0.x, $0.y, $0.z) }
        pose.rightHandScore = 1 - rightHandScore
        return pose
    }

    /// The hand turned in the image plane by `degrees` about its wrist (landmark 0), in pixels so the image's
    /// aspect ratio is kept; the world landmarks turn by the same angle about the camera's axis.
    func turned(by degrees: Float) -> HandPose {
        guard let wrist = landmarks.first else { return self }
        let angle = Double(degrees) * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        let (w, h) = (Double(imageWidth), Double(imageHeight))
        var pose = self
        pose.landmarks = landmarks.map { p in
            let dx = Double(p.x - wrist.x) * w, dy = Double(p.y - wrist.y) * h
            return SIMD3(wrist.x + Float((c * dx - s * dy) / w), wrist.y + Float((s * dx + c * dy) / h), p.z)
        }
        pose.worldLandmarks = worldLandmarks.map { p in
            SIMD3(Float(c * Double(p.x) - s * Double(p.y)), Float(s * Double(p.x) + c * Double(p.y)), p.z)
        }
        return pose
    }

    /// The variants training adds for one hand when augmenting: mirrored, and both turned by each angle.
    func augmentations(angles: [Float]) -> [HandPose] {
        let mirror = mirrored()
        return [mirror] + angles.flatMap { [turned(by: $0), mirror.turned(by: $0)] }
    }
}
