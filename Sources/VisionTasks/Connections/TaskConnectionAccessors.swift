// MediaPipe for iOS's connection accessors, on the tasks themselves, so iOS drawing code ports:
// `FaceLandmarker.lipsConnections()` (class methods in MPPFaceLandmarker.h) and
// `HandLandmarker.handConnections` (class properties in MPPHandLandmarker.h), `PoseLandmarker.poseLandmarks`
// (MPPPoseLandmarker.h).

extension FaceLandmarker {
    /// The outlines of the lips (`FaceLandmarksConnections.lips`).
    public static func lipsConnections() -> [Connection] { FaceLandmarksConnections.lips }
    /// The left eye (`FaceLandmarksConnections.leftEye`).
    public static func leftEyeConnections() -> [Connection] { FaceLandmarksConnections.leftEye }
    /// The left eyebrow (`FaceLandmarksConnections.leftEyebrow`).
    public static func leftEyebrowConnections() -> [Connection] { FaceLandmarksConnections.leftEyebrow }
    /// The left iris (`FaceLandmarksConnections.leftIris`).
    public static func leftIrisConnections() -> [Connection] { FaceLandmarksConnections.leftIris }
    /// The right eye (`FaceLandmarksConnections.rightEye`).
    public static func rightEyeConnections() -> [Connection] { FaceLandmarksConnections.rightEye }
    /// The right eyebrow (`FaceLandmarksConnections.rightEyebrow`).
    public static func rightEyebrowConnections() -> [Connection] { FaceLandmarksConnections.rightEyebrow }
    /// The right iris (`FaceLandmarksConnections.rightIris`).
    public static func rightIrisConnections() -> [Connection] { FaceLandmarksConnections.rightIris }
    /// The face oval (`FaceLandmarksConnections.faceOval`).
    public static func faceOvalConnections() -> [Connection] { FaceLandmarksConnections.faceOval }
    /// The contours: lips, eyes, eyebrows, irises and oval (`FaceLandmarksConnections.contours`).
    public static func contoursConnections() -> [Connection] { FaceLandmarksConnections.contours }
    /// The mesh's triangles' edges (`FaceLandmarksConnections.tesselation`).
    public static func tesselationConnections() -> [Connection] { FaceLandmarksConnections.tesselation }
    /// Everything: lips, contours and tesselation (`FaceLandmarksConnections.face`).
    public static func faceConnections() -> [Connection] { FaceLandmarksConnections.face }
}

extension HandLandmarker {
    /// The palm (`HandLandmarksConnections.palm`).
    public static var handPalmConnections: [Connection] { HandLandmarksConnections.palm }
    /// The thumb (`HandLandmarksConnections.thumb`).
    public static var handThumbConnections: [Connection] { HandLandmarksConnections.thumb }
    /// The index finger (`HandLandmarksConnections.indexFinger`).
    public static var handIndexFingerConnections: [Connection] { HandLandmarksConnections.indexFinger }
    /// The middle finger (`HandLandmarksConnections.middleFinger`).
    public static var handMiddleFingerConnections: [Connection] { HandLandmarksConnections.middleFinger }
    /// The ring finger (`HandLandmarksConnections.ringFinger`).
    public static var handRingFingerConnections: [Connection] { HandLandmarksConnections.ringFinger }
    /// The pinky (`HandLandmarksConnections.pinky`).
    public static var handPinkyConnections: [Connection] { HandLandmarksConnections.pinky }
    /// The whole hand (`HandLandmarksConnections.hand`).
    public static var handConnections: [Connection] { HandLandmarksConnections.hand }
}

extension PoseLandmarker {
    /// The whole body (`PoseLandmarksConnections.pose`).
    public static var poseLandmarks: [Connection] { PoseLandmarksConnections.pose }
}
