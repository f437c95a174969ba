import Foundation
import TFLite
import VisionCore

/// MediaPipe's face landmarker graph for one frame at a time: face detection → face rect (eye
/// keypoints, ×1.5) → landmarks per rect → faces with presence above the threshold → smoothing
/// (one face, video and live stream) → blendshapes and transformation matrices. In video and
/// live-stream mode each face's next rect comes from its landmarks, and the detector runs only
/// while fewer than `numFaces` faces are tracked; new detections replace the tracked rects they
/// overlap. Not thread-safe; the task runner serializes calls.
final class FaceLandmarkerGraph {
    /// The entry holding the geometry metadata inside `face_landmarker.task`.
    static let geometryEntry = "geometry_pipeline_metadata_landmarks.binarypb"

    private let detector: FaceDetectionGraph
    private let landmarksModel: FaceLandmarksModel
    private let blendshapesModel: FaceBlendshapesModel?
    private let geometry: FaceGeometryPipeline?
    private let numFaces: Int
    private let minFacePresenceConfidence: Float
    private let minTrackingConfidence: Float
    private let tracking: Bool
    /// The rects the previous frame's landmarks give for this frame (video and live stream).
    private var trackedRects: [NormalizedRect] = []
    /// Smooths the landmarks of the single face (numFaces 1, video and live stream).
    private var smoother: OneEuroLandmarksSmoother?

    /// Loads the models of a `face_landmarker.task` bundle. `name` names the bundle in messages.
    init(bundleData: Data, name: String, numThreads: Int, options: FaceLandmarkerOptions) throws {
        let isTFLiteModel = bundleData.count >= 8 && bundleData.dropFirst(4).prefix(4).elementsEqual("TFL3".utf8)
        guard !isTFLiteModel else {
            throw VisionTasksError.invalidBundle(
                "\(name) is not a .task bundle: the FaceLandmarker needs face_landmarker.task (a zip holding \(FaceDetectionGraph.bundleEntry), \(FaceLandmarksModel.bundleEntry), \(FaceBlendshapesModel.bundleEntry) and \(Self.geometryEntry)), not a single .tflite model")
        }
        let bundle = try ModelBundle(data: bundleData, name: name, maxDecompressedBytes: options.baseOptions.maxDecompressedBundleBytes)
        func entry(_ file: String, _ purpose: String) throws -> Data {
            guard bundle.fileNames.contains(file) else {
                throw VisionTasksError.invalidBundle("\(name) lacks \(file), the \(purpose) the FaceLandmarker needs (it holds \(bundle.fileNames.sorted().joined(separator: ", ")))")
            }
            return try bundle.data(named: file)
        }
        detector = try FaceDetectionGraph(
            modelData: try entry(FaceDetectionGraph.bundleEntry, "face detector"), name: "\(name):\(FaceDetectionGraph.bundleEntry)",
            numThreads: numThreads, minDetectionConfidence: options.minFaceDetectionConfidence,
            minSuppressionThreshold: 0.5)
        let landmarksName = "\(name):\(FaceLandmarksModel.bundleEntry)"
        landmarksModel = try FaceLandmarksModel(
            model: try TFLiteModel(data: try entry(FaceLandmarksModel.bundleEntry, "face landmarks model"), name: landmarksName),
            name: landmarksName, numThreads: numThreads)
        if options.outputFaceBlendshapes {
            let blendshapesName = "\(name):\(FaceBlendshapesModel.bundleEntry)"
            blendshapesModel = try FaceBlendshapesModel(
                model: try TFLiteModel(data: try entry(FaceBlendshapesModel.bundleEntry, "blendshapes model"), name: blendshapesName),
                name: blendshapesName, numThreads: numThreads)
        } else {
            blendshapesModel = nil
        }
        if options.outputFacialTransformationMatrixes {
            geometry = FaceGeometryPipeline(metadata: try FaceGeometryMetadata(
                data: try entry(Self.geometryEntry, "face geometry metadata"), name: "\(name):\(Self.geometryEntry)"))
        } else {
            geometry = nil
        }
        numFaces = options.numFaces
        minFacePresenceConfidence = options.minFacePresenceConfidence
        minTrackingConfidence = options.minTrackingConfidence
        tracking = options.runningMode != .image
        if tracking && numFaces == 1 {
            smoother = OneEuroLandmarksSmoother(minCutoff: 0.05, beta: 80, derivateCutoff: 1)
        }
    }

    /// Forgets the tracked faces and the smoothing history, so the next frame starts a new stream.
    func resetTracking() {
        trackedRects = []
        smoother?.reset()
    }

    /// Finds the faces of one image or frame.
    func process(_ image: MPImage, timestampInMilliseconds: Int) throws -> FaceLandmarkerResult {
        let width = image.width, height = image.height
        var rects: [NormalizedRect]
        if tracking {
            let detected = trackedRects.count >= numFaces ? [] : try detectFaceRects(image)
            rects = associateRects([trackedRects, detected], minSimilarityThreshold: minTrackingConfidence)
        } else {
            rects = try detectFaceRects(image)
        }
        rects = Array(rects.prefix(numFaces))

        var faces: [[SIMD3<Float>]] = []
        var nextRects: [NormalizedRect] = []
        for rect in rects {
            let (landmarks, presence) = try landmarksModel.detect(image, roi: rect)
            guard presence > minFacePresenceConfidence else { continue }
            faces.append(landmarks)
            if tracking, let next = Self.faceRect(fromLandmarks: landmarks, imageWidth: width, imageHeight: height) {
                nextRects.append(next)
            }
        }
        trackedRects = nextRects

        if smoother != nil {
            if let first = faces.first {
                guard let smoothed = smoother?.smooth(first, imageWidth: width, imageHeight: height,
                                                      timestampMicroseconds: Int64(timestampInMilliseconds) * 1000) else {
                    throw VisionTasksError.processingFailed("face landmarks smoothing: the landmark count changed")
                }
                faces = [smoothed]
            } else {
                smoother?.reset()
            }
        }

        let blendshapes = try blendshapesModel.map { model in
            try faces.map { try model.classify($0, imageWidth: width, imageHeight: height) }
        } ?? []
        var matrices: [TransformMatrix] = []
        if let geometry {
            for face in faces {
                guard let pose = try geometry.poseTransform(landmarks: face, imageWidth: width, imageHeight: height),
                      let matrix = TransformMatrix(rows: 4, columns: 4, data: pose) else { continue }
                matrices.append(matrix)
            }
        }
        return FaceLandmarkerResult(
            faceLandmarks: faces.map { $0.map { NormalizedLandmark(x: $0.x, y: $0.y, z: $0.z) } },
            faceBlendshapes: blendshapes, facialTransformationMatrixes: matrices,
            timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The detector's faces (at most `numFaces`, best first) as landmark-model rects.
    private func detectFaceRects(_ image: MPImage) throws -> [NormalizedRect] {
        try detector.detect(image).prefix(numFaces).compactMap {
            Self.faceRect(fromDetection: $0, imageWidth: image.width, imageHeight: image.height,
                          storedAxesSwapped: image.orientation.swapsWidthAndHeight)
        }
    }

    /// A detection's face rect: its box turned so the eyes (keypoints 0 and 1) are level, scaled by
    /// 1.5 (MediaPipe's face detector graph's expanded face rect). `storedAxesSwapped`: the image's
    /// stored pixels are a quarter turn from upright (see `rectFromDetection`).
    static func faceRect(fromDetection detection: RelativeDetection, imageWidth: Int, imageHeight: Int,
                         storedAxesSwapped: Bool = false) -> NormalizedRect? {
        rectFromDetection(detection, rotationStart: 0, rotationEnd: 1, targetAngle: 0,
                          imageWidth: imageWidth, imageHeight: imageHeight, storedAxesSwapped: storedAxesSwapped)
            .map { RectTransformation(scaleX: 1.5, scaleY: 1.5).apply(to: $0, imageWidth: imageWidth, imageHeight: imageHeight) }
    }

    /// The next frame's rect from a face's landmarks: their bounding box turned so the eye corners
    /// (landmarks 33 and 263) are level, squared on its long side and scaled by 1.5.
    static func faceRect(fromLandmarks landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int) -> NormalizedRect? {
        rectFromLandmarks(landmarks, rotationStart: 33, rotationEnd: 263, targetAngle: 0,
                          imageWidth: imageWidth, imageHeight: imageHeight)
            .map { RectTransformation(scaleX: 1.5, scaleY: 1.5, squareLong: true)
                .apply(to: $0, imageWidth: imageWidth, imageHeight: imageHeight) }
    }
}
