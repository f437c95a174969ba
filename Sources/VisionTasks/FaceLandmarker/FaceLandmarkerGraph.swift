import Foundation
import TFLite
import VisionCore
import VisionErrors

/// MediaPipe's face landmarker graph for one frame at a time: face detection → face rect (eye
/// keypoints, ×1.5) → landmarks per rect → faces with presence above the threshold → smoothing
/// (one face, video and live stream) → blendshapes and transformation matrices. In video and
/// live-stream mode each face's next rect comes from its landmarks, and the detector runs only
/// while fewer than `numFaces` faces are tracked; new detections replace the tracked rects they
/// overlap. Not thread-safe; the task runner serializes calls.
final class FaceLandmarkerGraph {
    /// The entry holding the landmark model inside `face_landmarker.task`.
    static let landmarksEntry = "face_landmarks_detector.tflite"
    /// The entry holding the geometry metadata inside `face_landmarker.task`.
    static let geometryEntry = "geometry_pipeline_metadata_landmarks.binarypb"
    /// Landmarks per face: 468 mesh points and 10 iris points.
    static let landmarkCount = 478

    private let detector: FaceDetectionGraph
    private let landmarks: ROILanes<ROILandmarksModel>
    private let blendshapesModel: FaceBlendshapesModel?
    private let geometry: FaceGeometryPipeline?
    private let minFacePresenceConfidence: Float
    private var faces: TrackedRects
    /// Smooths the landmarks of the single face (numFaces 1, video and live stream).
    private var smoother: OneEuroLandmarksSmoother?

    /// Loads the models of the `face_landmarker.task` bundle in `bundleData` (`name` in messages).
    convenience init(bundleData: Data, name: String, numThreads: Int, options: FaceLandmarkerOptions) throws {
        try self.init(bundle: try ModelBundle.taskBundle(bundleData, name: name, task: "FaceLandmarker",
                                                         maxDecompressedBytes: options.baseOptions.maxDecompressedBundleBytes),
                      name: name, numThreads: numThreads, options: options)
    }

    /// Loads the models of a `face_landmarker.task` bundle (`name` names it in messages).
    init(bundle: ModelBundle, name: String, numThreads: Int, options: FaceLandmarkerOptions) throws {
        var entries = [FaceDetectionGraph.bundleEntry, Self.landmarksEntry]
        if options.outputFaceBlendshapes { entries.append(FaceBlendshapesModel.bundleEntry) }
        if options.outputFacialTransformationMatrixes { entries.append(Self.geometryEntry) }
        try bundle.requireEntries(entries, kind: "face landmarker", name: name)
        detector = try FaceDetectionGraph(
            model: try bundle.model(named: FaceDetectionGraph.bundleEntry), name: "\(name): \(FaceDetectionGraph.bundleEntry)",
            numThreads: numThreads, minDetectionConfidence: options.minFaceDetectionConfidence,
            minSuppressionThreshold: FaceDetection.minSuppressionThreshold)
        let model = try bundle.model(named: Self.landmarksEntry)
        // Two instances when two faces can run on two cores at once.
        landmarks = try ROILanes(concurrent: options.numFaces >= 2 && numThreads >= 2) {
            try ROILandmarksModel(
                model: model, name: "\(name): \(Self.landmarksEntry)",
                what: "the face landmarks model", numThreads: numThreads, inputSide: nil, landmarkCount: Self.landmarkCount,
                outputCounts: [Self.landmarkCount * 3, 1], outputNames: "landmarks, presence", projection: .cropMatrix)
        }
        blendshapesModel = try options.outputFaceBlendshapes ? FaceBlendshapesModel(
            model: try bundle.model(named: FaceBlendshapesModel.bundleEntry),
            name: "\(name): \(FaceBlendshapesModel.bundleEntry)", numThreads: numThreads) : nil
        geometry = options.outputFacialTransformationMatrixes ? FaceGeometryPipeline(metadata: try FaceGeometryMetadata(
            data: try bundle.data(named: Self.geometryEntry), name: "\(name): \(Self.geometryEntry)")) : nil
        minFacePresenceConfidence = options.minFacePresenceConfidence
        let tracks = options.runningMode != .image, minTrackingConfidence = options.minTrackingConfidence
        faces = TrackedRects(maxCount: options.numFaces, tracks: tracks) { tracked, detected in
            associateRects([tracked, detected], minSimilarityThreshold: minTrackingConfidence)
        }
        if tracks && options.numFaces == 1 {
            let s = FaceLandmarksROI.smoothing
            smoother = OneEuroLandmarksSmoother(minCutoff: s.minCutoff, beta: s.beta, derivateCutoff: s.derivateCutoff)
        }
    }

    /// Forgets the tracked faces and the smoothing history, so the next frame starts a new stream.
    func resetTracking() {
        faces.reset()
        smoother?.reset()
    }

    /// Finds the faces of one image or frame.
    func process(_ image: MPImage, timestampInMilliseconds: Int) throws -> FaceLandmarkerResult {
        let frame = FrameContext(image)
        let (width, height) = (frame.width, frame.height)
        let minFacePresenceConfidence = minFacePresenceConfidence
        var landmarks = try faces.process(
            detect: { try detector.detect(frame.image).compactMap {
                faceRect(fromDetection: $0, imageWidth: width, imageHeight: height, storedAxesSwapped: frame.storedAxesSwapped)
            } },
            observe: { rects in
                // Two faces may be looked at at once, each with a model of its own.
                try self.landmarks.map(rects) { model, rect in
                    let points = try model.landmarks(in: frame, roi: rect)
                    let presence = 1 / (1 + expf(-(try model.output(1)[0])))
                    return presence > minFacePresenceConfidence ? points : nil
                }
            },
            nextRect: { faceRect(fromLandmarks: $0, imageWidth: width, imageHeight: height) })
        if var smoother {
            if let face = landmarks.first {
                // Every face has the model's 478 landmarks, so the smoother always takes them.
                landmarks = [smoother.smooth(face, imageWidth: width, imageHeight: height,
                                             timestampMicroseconds: Int64(timestampInMilliseconds) * 1000) ?? face]
            } else {
                smoother.reset()
            }
            self.smoother = smoother
        }
        let blendshapes = try blendshapesModel.map { model in
            try landmarks.map { try model.classify($0, imageWidth: width, imageHeight: height) }
        } ?? []
        let matrices = try geometry.map { geometry in
            try landmarks.compactMap { face in
                try geometry.poseTransform(landmarks: face, imageWidth: width, imageHeight: height)
                    .flatMap { TransformMatrix(rows: 4, columns: 4, data: $0) }
            }
        } ?? []
        return FaceLandmarkerResult(
            faceLandmarks: landmarks.map { $0.map { NormalizedLandmark(x: $0.x, y: $0.y, z: $0.z) } },
            faceBlendshapes: blendshapes, facialTransformationMatrixes: matrices,
            timestampInMilliseconds: timestampInMilliseconds)
    }
}
