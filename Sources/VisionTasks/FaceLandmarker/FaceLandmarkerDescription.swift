extension FaceLandmarkerOptions {
    /// The Face Landmarker's options, declared once: the initializer's defaults and every front end read them.
    public enum Declared {
        /// `numFaces`.
        public static let numFaces = DeclaredOption<FaceLandmarkerOptions, Int>(
            "num-faces", property: "numFaces", label: "Faces", help: "The most faces to find.", default: 1, minimum: 1,
            get: { $0.numFaces }, set: { $0.numFaces = $1 })
        /// `minFaceDetectionConfidence`.
        public static let minFaceDetectionConfidence = DeclaredOption<FaceLandmarkerOptions, Float>(
            "min-face-detection-confidence", property: "minFaceDetectionConfidence", label: "Face detection confidence",
            help: "Face detections scoring below this are dropped.", default: 0.5, minimum: 0, maximum: 1,
            get: { $0.minFaceDetectionConfidence }, set: { $0.minFaceDetectionConfidence = $1 })
        /// `minFacePresenceConfidence`.
        public static let minFacePresenceConfidence = DeclaredOption<FaceLandmarkerOptions, Float>(
            "min-face-presence-confidence", property: "minFacePresenceConfidence", label: "Face presence confidence",
            help: "Faces whose presence score is not above this are dropped.", default: 0.5, minimum: 0, maximum: 1,
            get: { $0.minFacePresenceConfidence }, set: { $0.minFacePresenceConfidence = $1 })
        /// `minTrackingConfidence`.
        public static let minTrackingConfidence = DeclaredOption<FaceLandmarkerOptions, Float>(
            "min-tracking-confidence", property: "minTrackingConfidence", label: "Tracking confidence",
            help: "Overlap (IoU) above which a new detection replaces a tracked face (video and live stream).",
            default: 0.5, minimum: 0, maximum: 1,
            get: { $0.minTrackingConfidence }, set: { $0.minTrackingConfidence = $1 })
        /// `outputFaceBlendshapes`.
        public static let outputFaceBlendshapes = DeclaredOption<FaceLandmarkerOptions, Bool>(
            "output-face-blendshapes", property: "outputFaceBlendshapes", label: "Blendshapes",
            help: "Output the 52 blendshape scores of each face.", default: false,
            get: { $0.outputFaceBlendshapes }, set: { $0.outputFaceBlendshapes = $1 })
        /// `outputFacialTransformationMatrixes`.
        public static let outputFacialTransformationMatrixes = DeclaredOption<FaceLandmarkerOptions, Bool>(
            "output-facial-transformation-matrixes", property: "outputFacialTransformationMatrixes",
            label: "Transformation matrices", help: "Output each face's 4×4 facial transformation matrix (row-major).",
            default: false,
            get: { $0.outputFacialTransformationMatrixes }, set: { $0.outputFacialTransformationMatrixes = $1 })
        /// `outputHeadPoses`.
        public static let outputHeadPoses = DeclaredOption<FaceLandmarkerOptions, Bool>(
            "output-head-poses", property: "outputHeadPoses", label: "Head poses",
            help: "Output each face's yaw, pitch and roll in degrees (from its transformation matrix).", default: false,
            get: { $0.outputHeadPoses }, set: { $0.outputHeadPoses = $1 })
        /// `faceDetectorModelAssetPath`.
        public static let faceDetectorModelAssetPath = DeclaredOption<FaceLandmarkerOptions, String?>(
            "face-detector-model", property: "faceDetectorModelAssetPath", label: "Face detector",
            help: "A face detector model replacing the bundle's short-range one, such as "
                + "face_detection_full_range_sparse.tflite for faces far from the camera.",
            default: nil, modelOf: FaceDetectorOptions.taskDescription.name,
            get: { $0.faceDetectorModelAssetPath }, set: { $0.faceDetectorModelAssetPath = $1 })
    }

    /// The Face Landmarker as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "face-landmarker", title: "Face Landmarker",
        summary: "Find 478 face landmarks, and optionally blendshapes and transformation matrices.",
        modelHelp: "the face landmarker bundle, face_landmarker.task.",
        preferredModels: ["face_landmarker.task"],
        options: [Declared.numFaces.option, Declared.minFaceDetectionConfidence.option,
                  Declared.minFacePresenceConfidence.option, Declared.minTrackingConfidence.option,
                  Declared.outputFaceBlendshapes.option, Declared.outputFacialTransformationMatrixes.option,
                  Declared.outputHeadPoses.option, Declared.faceDetectorModelAssetPath.option],
        outputs: ["faceLandmarks", "faceBlendshapes", "facialTransformationMatrixes", "headPoses", "trackingIds"],
        foundNoun: "faces")
}

extension FaceLandmarkerOptions: DescribedOptions {}

extension FaceLandmarker: DescribedTask {
    package static func defaultOptions(baseOptions: BaseOptions, runningMode: RunningMode) -> FaceLandmarkerOptions {
        FaceLandmarkerOptions(baseOptions: baseOptions, runningMode: runningMode)
    }
    package static func setLiveStreamHandler(_ handler: LiveStreamHandler<FaceLandmarkerResult>?, of options: FaceLandmarkerOptions) {
        options.faceLandmarkerLiveStreamDelegate = handler
    }
    package static func foundCount(in result: FaceLandmarkerResult) -> Int { result.faceLandmarks.count }
}
