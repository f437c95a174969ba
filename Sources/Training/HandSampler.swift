import Foundation
import TFLite
import VisionCore
import VisionErrors
import VisionTasks

/// Finds the hands in a training photo and embeds hands, through the recognizer's own steps: the hand
/// landmarker graph in image mode (up to `handsPerPhoto` hands, the photo's EXIF orientation applied as recognition
/// does) and `GestureEmbedder`, so the classifier is trained on the numbers recognition will give it.
///
/// Not thread-safe: it owns interpreters; use one per thread.
final class HandSampler {
    /// What one photo gave.
    enum Outcome: Sendable {
        /// The hands found, the palm detector's best first (the one recognition with one hand takes).
        case hands([HandPose])
        /// The photo decoded but no hand was found.
        case noHand
        /// The photo could not be read or decoded (the reason, for the report).
        case unreadable(String)
    }

    private let hands: HandLandmarkerGraph
    private let embedder: GestureEmbedder
    private let decoding: ImageDecodingOptions

    /// The most hands looked for in a photo: a person showing a gesture with one hand often rests the other in
    /// view, and the palm detector may rank the resting hand first (`GestureTrainer.chooseHands` picks).
    static let handsPerPhoto = 2

    /// Loads the hand landmarker and the embedder from a gesture recognizer bundle (`name` names it in errors).
    init(bundle: ModelBundle, name: String, minDetectionConfidence: Float, decoding: ImageDecodingOptions) throws {
        try bundle.requireEntries(
            [GestureRecognizerGraph.handLandmarkerEntry, GestureRecognizerGraph.gestureRecognizerEntry],
            kind: "gesture recognizer", name: name)
        hands = try HandLandmarkerGraph(
            bundle: try bundle.bundle(named: GestureRecognizerGraph.handLandmarkerEntry),
            name: "\(name): \(GestureRecognizerGraph.handLandmarkerEntry)",
            settings: HandLandmarkerOptions(baseOptions: BaseOptions(numThreads: 1)) {
                $0.numHands = Self.handsPerPhoto
                $0.minHandDetectionConfidence = minDetectionConfidence
            }.handLandmarkerSettings())
        embedder = try GestureEmbedder(
            bundle: try bundle.bundle(named: GestureRecognizerGraph.gestureRecognizerEntry),
            name: "\(name): \(GestureRecognizerGraph.gestureRecognizerEntry)", numThreads: 1)
        self.decoding = decoding
    }

    /// Values in one embedding.
    var embeddingSize: Int { embedder.embeddingSize }

    /// The hands in `photo`, or why there is none. Model errors (not the photo's) are thrown.
    func hand(in photo: GestureSamples.Photo) throws -> Outcome {
        let image: MPImage
        do {
            if let data = photo.data {
                image = try MPImage(encodedData: data, name: photo.name, decodingOptions: decoding)
            } else {
                image = try MPImage(contentsOfFile: photo.name, decodingOptions: decoding)
            }
        } catch let error as VisionTasksError {
            return .unreadable(error.description)
        }
        let frame = FrameContext(image)
        let found = try hands.process(frame)
        guard !found.isEmpty else { return .noHand }
        return .hands(
            found.map { hand in
                HandPose(
                    landmarks: hand.landmarks.map { SIMD3($0.x, $0.y, $0.z * frame.zToStoredWidth) },
                    imageWidth: frame.width, imageHeight: frame.height, worldLandmarks: hand.worldLandmarks,
                    rightHandScore: rightHandScore(hand.handedness))
            })
    }

    /// The embedding of `pose`.
    func embed(_ pose: HandPose) throws -> [Float] {
        try embedder.embed(
            landmarks: pose.landmarks, imageSize: (pose.imageWidth, pose.imageHeight),
            worldLandmarks: pose.worldLandmarks, rightHandScore: pose.rightHandScore)
        return try embedder.withEmbedding { Array($0) }
    }
}
