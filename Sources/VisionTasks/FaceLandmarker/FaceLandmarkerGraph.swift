import Foundation
import TFLite
import VisionCore
import VisionErrors

/// One face as the face landmarker graph saw it, in MediaPipe's terms, before it becomes a result.
package struct FaceObservation {
    /// 478 landmarks in normalized coordinates of the upright image (z scaled like x), smoothed when
    /// a single face is tracked.
    package var landmarks: [SIMD3<Float>]
    /// The 52 blendshape scores, when the graph computes them.
    package var blendshapes: Classifications?
    /// The facial transformation matrix, when the graph computes them (for the matrices or the head
    /// poses) and the face gives one.
    package var transformationMatrix: TransformMatrix?
    /// The face's tracking id (video and live stream; nil in image mode).
    package var trackingId: Int?
}

/// MediaPipe's face landmarker graph for one frame at a time: face detection → face rect (eye
/// keypoints, ×1.5) → landmarks per rect → faces with presence above the threshold → smoothing
/// (one face, video and live stream) → blendshapes and transformation matrices. In video and
/// live-stream mode each face's next rect comes from its landmarks, and the detector runs only
/// while fewer than `numFaces` faces are tracked; new detections replace the tracked rects they
/// overlap.
///
/// Not thread-safe: it holds the tracking state; callers serialize use (the task runner does).
package final class FaceLandmarkerGraph: TaskGraph {
    /// The entry holding the landmark model inside `face_landmarker.task`.
    package static let landmarksEntry = "face_landmarks_detector.tflite"
    /// The entry holding the geometry metadata inside `face_landmarker.task`.
    package static let geometryEntry = "geometry_pipeline_metadata_landmarks.binarypb"

    /// The options the graph needs, as MediaPipe's face landmarker graph options hold them.
    package struct Settings: Sendable {
        /// How many faces to find, the detection, presence and tracking thresholds, whether frames form
        /// a stream (tracking and smoothing on) and the threads of each model.
        package var faces: LandmarkerSettings
        /// Whether each face gets its blendshapes.
        package var outputFaceBlendshapes: Bool
        /// Whether each face gets its transformation matrix.
        package var outputFacialTransformationMatrixes: Bool
        /// Whether each face gets its head pose (which needs its transformation matrix).
        package var outputHeadPoses: Bool
    }

    private let detector: FaceDetectionGraph
    private let landmarks: ROILanes<ROILandmarksModel>
    private let blendshapesModel: FaceBlendshapesModel?
    private let geometry: FaceGeometryPipeline?
    private let minFacePresenceConfidence: Float
    private var faces: TrackedRects
    /// Smooths the landmarks of the single face (numFaces 1, video and live stream).
    private var smoother: OneEuroLandmarksSmoother?

    /// Loads the models of a `face_landmarker.task` bundle (`name` names it in errors): the detector,
    /// the landmark model, and the blendshapes model and geometry metadata when the settings ask
    /// for them (the geometry for the matrices or the head poses); `faceDetector`, when given, replaces
    /// the bundle's detector (BlazeFace full range, say). Throws `invalidBundle` when one of those
    /// entries is missing and the models' load errors.
    package init(
        bundle: ModelBundle, name: String, settings: Settings,
        faceDetector: (model: TFLiteModel, name: String)? = nil
    ) throws {
        var entries = [FaceDetectionGraph.bundleEntry, Self.landmarksEntry]
        if settings.outputFaceBlendshapes { entries.append(FaceBlendshapesModel.bundleEntry) }
        let needsGeometry = settings.outputFacialTransformationMatrixes || settings.outputHeadPoses
        if needsGeometry { entries.append(Self.geometryEntry) }
        try bundle.requireEntries(entries, kind: "face landmarker", name: name)
        let numThreads = settings.faces.numThreads
        let (detectorModel, detectorName) =
            try faceDetector
            ?? (bundle.model(named: FaceDetectionGraph.bundleEntry), "\(name): \(FaceDetectionGraph.bundleEntry)")
        detector = try FaceDetectionGraph(
            model: detectorModel, name: detectorName,
            numThreads: numThreads, minScoreThreshold: settings.faces.minDetectionConfidence,
            minSuppressionThreshold: FaceDetection.minSuppressionThreshold)
        let model = try bundle.model(named: Self.landmarksEntry)
        // Two instances when two faces can run on two cores at once.
        landmarks = try ROILanes(concurrent: settings.faces.maxCount >= 2 && numThreads >= 2) {
            try ROILandmarksModel(
                model: model, name: "\(name): \(Self.landmarksEntry)",
                what: "the face landmarks model", numThreads: numThreads, inputSide: nil,
                landmarkCount: faceLandmarkCount,
                outputCounts: [faceLandmarkCount * 3, 1], outputNames: "landmarks, presence", projection: .cropMatrix)
        }
        blendshapesModel =
            try settings.outputFaceBlendshapes
            ? FaceBlendshapesModel(
                model: try bundle.model(named: FaceBlendshapesModel.bundleEntry),
                name: "\(name): \(FaceBlendshapesModel.bundleEntry)", numThreads: numThreads) : nil
        geometry =
            needsGeometry
            ? FaceGeometryPipeline(
                metadata: try FaceGeometryMetadata(
                    data: try bundle.data(named: Self.geometryEntry), name: "\(name): \(Self.geometryEntry)")) : nil
        minFacePresenceConfidence = settings.faces.minPresenceConfidence
        faces = TrackedRects(settings.faces)
        if settings.faces.tracks && settings.faces.maxCount == 1 {
            let s = FaceLandmarksROI.smoothing
            smoother = OneEuroLandmarksSmoother(minCutoff: s.minCutoff, beta: s.beta, derivateCutoff: s.derivateCutoff)
        }
    }

    /// Forgets the tracked faces and the smoothing history, so the next frame starts a new stream.
    package func resetTracking() {
        faces.reset()
        smoother?.reset()
    }

    /// The faces in one upright image or frame: in image mode in the detector's order, in video and
    /// live stream by tracking id.
    package func process(_ frame: FrameContext) throws -> [FaceObservation] {
        let (width, height) = (frame.width, frame.height)
        let minFacePresenceConfidence = minFacePresenceConfidence
        var faces = try self.faces.process(
            detect: { try detector.faceRects(frame) },
            observe: { rects in
                // Two faces may be looked at at once, each with a model of its own.
                try self.landmarks.map(rects) { model, rect in
                    let points = try model.landmarks(in: frame, roi: rect)
                    return faceIsPresent(
                        score: try model.output(1)[0], minPresenceConfidence: minFacePresenceConfidence)
                        ? points : nil
                }
            },
            nextRect: { faceRect(fromLandmarks: $0, imageWidth: width, imageHeight: height) })
        if var smoother {
            if let (face, id) = faces.first {
                // Every face has the model's 478 landmarks, so the smoother always takes them.
                faces = [
                    (
                        smoother.smooth(
                            face, imageWidth: width, imageHeight: height,
                            timestampMicroseconds: Int64(frame.timestampInMilliseconds) * 1000) ?? face, id
                    )
                ]
            } else {
                smoother.reset()
            }
            self.smoother = smoother
        }
        return try faces.map { face, id in
            FaceObservation(
                landmarks: face,
                blendshapes: try blendshapesModel?.classify(face, imageWidth: width, imageHeight: height),
                transformationMatrix: try geometry?.poseTransform(
                    landmarks: face, imageWidth: width, imageHeight: height
                )
                .flatMap { TransformMatrix(rows: 4, columns: 4, data: $0) },
                trackingId: id)
        }
    }
}
