extension FaceDetectorOptions {
    /// The Face Detector's options, declared once: the initializer's defaults and every front end read them.
    public enum Declared {
        /// `minDetectionConfidence`.
        public static let minDetectionConfidence = DeclaredOption<FaceDetectorOptions, Float>.threshold(
            "min-detection-confidence", \.minDetectionConfidence, label: "Detection confidence",
            help: "Faces scoring below this are dropped.")
        /// `minSuppressionThreshold`.
        public static let minSuppressionThreshold = DeclaredOption<FaceDetectorOptions, Float>.threshold(
            "min-suppression-threshold", \.minSuppressionThreshold, label: "Suppression threshold (IoU)",
            help: "Overlap (IoU) above which detections of one face are merged.", default: 0.3)
    }

    /// The Face Detector as the CLI, the server and the docs describe it.
    public static let taskDescription = TaskDescription(
        name: "face-detector", title: "Face Detector",
        summary: "Detect faces (BlazeFace short or full range): a box and 6 keypoints each.",
        modelHelp: "blaze_face_short_range.tflite, face_detection_full_range_sparse.tflite (far faces), "
            + "or a .task bundle holding face_detector.tflite.",
        preferredModels: ["blaze_face_short_range.tflite", "face_landmarker.task"],
        options: [Declared.minDetectionConfidence.option, Declared.minSuppressionThreshold.option],
        outputs: ["detections", "trackingIds"], foundNoun: "faces")
}

extension LiveStreamHandler: FaceDetectorLiveStreamDelegate where Output == FaceDetectorResult {
    /// Hands the detector's result to the handler.
    public func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        deliver(result, timestampInMilliseconds, error)
    }
}
