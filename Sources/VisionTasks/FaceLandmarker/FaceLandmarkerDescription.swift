extension FaceLandmarkerOptions {
    /// The Face Landmarker's options, declared once: the initializer's defaults and every front end read them.
    public enum Declared {
        /// `numFaces` and the face detection, presence and tracking thresholds.
        public static let faces = LandmarkerDeclarations<FaceLandmarkerOptions>(
            "face", "faces", detectionHelp: "Face detections scoring below this are dropped.", \.numFaces,
            \.minFaceDetectionConfidence, \.minFacePresenceConfidence, \.minTrackingConfidence)
        /// `outputFaceBlendshapes`.
        public static let outputFaceBlendshapes = DeclaredOption<FaceLandmarkerOptions, Bool>(
            "output-face-blendshapes", \.outputFaceBlendshapes, label: "Blendshapes",
            help: "Output the 52 blendshape scores of each face.", default: false)
        /// `outputFacialTransformationMatrixes`.
        public static let outputFacialTransformationMatrixes = DeclaredOption<FaceLandmarkerOptions, Bool>(
            "output-facial-transformation-matrixes", \.outputFacialTransformationMatrixes,
            label: "Transformation matrices", help: "Output each face's 4×4 facial transformation matrix (row-major).",
            default: false)
        /// `outputHeadPoses`.
        public static let outputHeadPoses = DeclaredOption<FaceLandmarkerOptions, Bool>(
            "output-head-poses", \.outputHeadPoses, label: "Head poses",
            help: "Output each face's yaw, pitch and roll in degrees (from its transformation matrix).", default: false)
        /// `faceDetectorModelAssetPath`.
        public static let faceDetectorModelAssetPath = DeclaredOption<FaceLandmarkerOptions, String?>(
            "face-detector-model", \.faceDetectorModelAssetPath, property: "faceDetectorModelAssetPath",
            label: "Face detector",
            help: "A face detector model replacing the bundle's short-range one, such as "
                + "face_detection_full_range_sparse.tflite for faces far from the camera.",
            default: nil, modelOf: FaceDetectorOptions.taskDescription.name)
    }

    /// The Face Landmarker as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "face-landmarker", title: "Face Landmarker",
        summary: "Find 478 face landmarks, and optionally blendshapes and transformation matrices.",
        modelHelp: "the face landmarker bundle, face_landmarker.task.",
        preferredModels: ["face_landmarker.task"],
        options: Declared.faces.options + [
            Declared.outputFaceBlendshapes.option,
            Declared.outputFacialTransformationMatrixes.option,
            Declared.outputHeadPoses.option, Declared.faceDetectorModelAssetPath.option,
        ],
        outputs: ["faceLandmarks", "faceBlendshapes", "facialTransformationMatrixes", "headPoses", "trackingIds"],
        foundNoun: "faces",
        connections: ConnectionSets(
            group: "face",
            sets: [
                "tesselation": F.tesselation, "faceOval": F.faceOval, "lips": F.lips, "leftEye": F.leftEye,
                "leftEyebrow": F.leftEyebrow, "leftIris": F.leftIris, "rightEye": F.rightEye,
                "rightEyebrow": F.rightEyebrow, "rightIris": F.rightIris, "nose": F.nose, "contours": F.contours,
            ]))
}

/// The face's connection tables, short.
private typealias F = FaceLandmarksConnections

extension LiveStreamHandler: FaceLandmarkerLiveStreamDelegate where Output == FaceLandmarkerResult {
    /// Hands the landmarker's result to the handler.
    public func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        deliver(result, timestampInMilliseconds, error)
    }
}

// MediaPipe for iOS's connection accessors (class methods in MPPFaceLandmarker.h), so iOS drawing code ports.
extension FaceLandmarker {
    /// The outlines of the lips (`FaceLandmarksConnections.lips`).
    public static func lipsConnections() -> [Connection] { F.lips }
    /// The left eye (`FaceLandmarksConnections.leftEye`).
    public static func leftEyeConnections() -> [Connection] { F.leftEye }
    /// The left eyebrow (`FaceLandmarksConnections.leftEyebrow`).
    public static func leftEyebrowConnections() -> [Connection] { F.leftEyebrow }
    /// The left iris (`FaceLandmarksConnections.leftIris`).
    public static func leftIrisConnections() -> [Connection] { F.leftIris }
    /// The right eye (`FaceLandmarksConnections.rightEye`).
    public static func rightEyeConnections() -> [Connection] { F.rightEye }
    /// The right eyebrow (`FaceLandmarksConnections.rightEyebrow`).
    public static func rightEyebrowConnections() -> [Connection] { F.rightEyebrow }
    /// The right iris (`FaceLandmarksConnections.rightIris`).
    public static func rightIrisConnections() -> [Connection] { F.rightIris }
    /// The face oval (`FaceLandmarksConnections.faceOval`).
    public static func faceOvalConnections() -> [Connection] { F.faceOval }
    /// The contours: lips, eyes, eyebrows, irises and oval (`FaceLandmarksConnections.contours`).
    public static func contoursConnections() -> [Connection] { F.contours }
    /// The mesh's triangles' edges (`FaceLandmarksConnections.tesselation`).
    public static func tesselationConnections() -> [Connection] { F.tesselation }
    /// Everything: lips, contours and tesselation (`FaceLandmarksConnections.face`).
    public static func faceConnections() -> [Connection] { F.face }
}
