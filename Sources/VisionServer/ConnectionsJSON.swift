import Foundation
import VisionTasks

/// The library's landmark connection lists (`FaceLandmarksConnections`, `HandLandmarksConnections`,
/// `PoseLandmarksConnections`)
/// as the JSON `GET /api/v1/connections` serves, so the page draws from the library's constants.
enum ConnectionsJSON {
    /// `{"face": {"tesselation": [{"start":…,"end":…}, …], …}, "hand": {…}, "pose": {"pose": […]}}`.
    static func encode() throws -> Data {
        typealias Face = FaceLandmarksConnections
        typealias Hand = HandLandmarksConnections
        let lists: [String: [String: [Connection]]] = [
            "face": [
                "tesselation": Face.tesselation, "faceOval": Face.faceOval, "lips": Face.lips,
                "leftEye": Face.leftEye, "leftEyebrow": Face.leftEyebrow, "leftIris": Face.leftIris,
                "rightEye": Face.rightEye, "rightEyebrow": Face.rightEyebrow, "rightIris": Face.rightIris,
                "nose": Face.nose, "contours": Face.contours,
            ],
            "hand": [
                "hand": Hand.hand, "palm": Hand.palm, "thumb": Hand.thumb, "indexFinger": Hand.indexFinger,
                "middleFinger": Hand.middleFinger, "ringFinger": Hand.ringFinger, "pinky": Hand.pinky,
            ],
            "pose": ["pose": PoseLandmarksConnections.pose],
        ]
        return try ResultJSON.encode(lists)
    }
}
