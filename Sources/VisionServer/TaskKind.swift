import Foundation
import VisionTasks

/// The four tasks the server runs, by the names their URLs use (`/api/v1/face-landmarker`).
public enum TaskKind: String, CaseIterable, Sendable, Codable {
    /// MediaPipe's Face Detector.
    case faceDetector = "face-detector"
    /// MediaPipe's Face Landmarker.
    case faceLandmarker = "face-landmarker"
    /// MediaPipe's Hand Landmarker.
    case handLandmarker = "hand-landmarker"
    /// MediaPipe's Gesture Recognizer.
    case gestureRecognizer = "gesture-recognizer"

    /// Model file names offered first when the models folder has them (the samples' defaults).
    var preferredModels: [String] {
        switch self {
        case .faceDetector: return ["blaze_face_short_range.tflite", "face_landmarker.task"]
        case .faceLandmarker: return ["face_landmarker.task"]
        case .handLandmarker: return ["hand_landmarker.task"]
        case .gestureRecognizer: return ["gesture_recognizer.task"]
        }
    }

    /// The options a request may give, in the CLI's kebab-case names, besides `model` and `threads`.
    var optionKinds: [String: OptionKind] {
        let hands: [String: OptionKind] = [
            "num-hands": .int, "min-hand-detection-confidence": .float,
            "min-hand-presence-confidence": .float, "min-tracking-confidence": .float,
        ]
        switch self {
        case .faceDetector:
            return ["min-detection-confidence": .float, "min-suppression-threshold": .float]
        case .faceLandmarker:
            return ["num-faces": .int, "min-face-detection-confidence": .float,
                    "min-face-presence-confidence": .float, "min-tracking-confidence": .float,
                    "output-face-blendshapes": .bool, "output-facial-transformation-matrixes": .bool]
        case .handLandmarker:
            return hands
        case .gestureRecognizer:
            return hands.merging([
                "canned-gestures-max-results": .int, "canned-gestures-score-threshold": .float,
                "canned-gestures-allowlist": .list, "canned-gestures-denylist": .list,
            ]) { first, _ in first }
        }
    }
}

/// How an option's text value is read.
enum OptionKind: Sendable {
    case int, float, bool, list
}
