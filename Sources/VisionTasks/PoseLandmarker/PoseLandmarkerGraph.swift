import Foundation
import TFLite
import VisionCore
import VisionErrors

// MARK: - Observation

/// One person as the pose landmarks model saw it, in MediaPipe's terms, before it becomes a result.
package struct PoseObservation: Sendable {
    /// 33 landmarks in normalized coordinates of the upright image (z scaled like x), with visibility
    /// and presence; smoothed when the graph smooths.
    package var landmarks: ScoredLandmarks
    /// The same 33 landmarks in metres, origin between the hips, rotated like the image; visibility
    /// and presence copied from `landmarks`.
    package var worldLandmarks: ScoredLandmarks
    /// The person's segmentation mask over the upright image (row-major, `width`×`height` of the
    /// frame, probabilities in [0, 1]), when the graph outputs masks.
    package var segmentationMask: [Float]?
    /// The ROI this person gives the next frame.
    package var nextRect: NormalizedRect
    /// The person's tracking id (video and live stream; nil in image mode).
    package var trackingId: Int?
}

// MARK: - Graph

/// MediaPipe's pose landmarker graph over a `pose_landmarker_*.task` bundle: pose detection → one
/// ROI per person from the detection's alignment keypoints → landmarks per ROI (crop → pose
/// landmarks model → presence gate → landmarks refined on the heatmap → 33 body and 2 auxiliary
/// landmarks projected back, world landmarks rotated back, the mask warped back) → smoothing
/// (one pose, video and live stream; every pose by id with `smoothAllPoses`). In video and live
/// stream the next frame's ROIs come from this frame's auxiliary landmarks, and the detector runs
/// only while fewer than `numPoses` people are tracked, its ROIs associated with the tracked ones by IoU.
///
/// Not thread-safe: it holds the tracking state; callers serialize use (the task runner does).
package final class PoseLandmarkerGraph: TaskGraph {
    /// The detector's entry in the bundle.
    package static let detectorEntry = "pose_detector.tflite"
    /// The landmark model's entry in the bundle.
    package static let landmarksEntry = "pose_landmarks_detector.tflite"

    /// The options the graph needs, as MediaPipe's pose landmarker graph options hold them.
    package struct Settings: Sendable {
        /// How many people to find, the detection, presence and tracking thresholds, whether frames form
        /// a stream (tracking and smoothing on) and the threads of each model.
        package var poses: LandmarkerSettings
        /// Whether each person gets a segmentation mask.
        package var outputSegmentationMasks: Bool
        /// Whether every person is smoothed by tracking id (VisionTasks' extension; MediaPipe smooths
        /// only when `numPoses` is 1).
        package var smoothAllPoses: Bool
    }

    private let detector: SSDDetector
    private let landmarks: ROILanes<ROILandmarksModel>
    private let settings: Settings
    private var poses: TrackedRects
    /// The smoothing of each person, by tracking id (video and live stream; one person unless
    /// `smoothAllPoses`).
    private var smoothers: [Int: PoseSmoother] = [:]

    /// Loads the two models of a pose landmarker bundle (`name` names it in errors). Throws
    /// `invalidBundle` when an entry is missing and the models' load errors; `unsupportedModel`
    /// unless the detector is MediaPipe's (1×224×224×3 in, [1, 2254, 12] boxes and [1, 2254, 1] scores
    /// out) and the landmark model has one 1×256×256×3 input and the five outputs MediaPipe reads, in
    /// order: 39 landmarks × 5 values, the pose flag, a 256×256 mask, a 64×64×39 heatmap and 39 world
    /// landmarks × 3.
    package init(bundle: ModelBundle, name: String, settings: Settings) throws {
        try bundle.requireEntries([Self.detectorEntry, Self.landmarksEntry], kind: "pose landmarker", name: name)
        detector = try SSDDetector(
            model: try bundle.model(named: Self.detectorEntry), name: "\(name): \(Self.detectorEntry)",
            numThreads: settings.poses.numThreads,
            description: .pose(minScoreThreshold: settings.poses.minDetectionConfidence))
        let model = try bundle.model(named: Self.landmarksEntry)
        let side = PoseLandmarksModel.inputSize, count = PoseLandmarksModel.modelLandmarkCount
        let outputCounts = [
            count * PoseLandmarksModel.valuesPerLandmark, 1, side * side,
            PoseLandmarksModel.heatmapSide * PoseLandmarksModel.heatmapSide * count, count * 3,
        ]
        landmarks = try ROILanes(concurrent: settings.poses.maxCount >= 2 && settings.poses.numThreads >= 2) {
            try ROILandmarksModel(
                model: model, name: "\(name): \(Self.landmarksEntry)", what: "the pose landmarks model",
                numThreads: settings.poses.numThreads, inputSide: side, landmarkCount: count,
                outputCounts: outputCounts,
                outputNames: "landmarks, pose flag, segmentation, heatmap, world landmarks",
                projection: .normalizedRect,
                // Without masks the segmentation head (a third of the model's time) is not run.
                readOutputs: settings.outputSegmentationMasks ? nil : [0, 1, 3, 4])
        }
        self.settings = settings
        // MediaPipe clips the pose ROIs to numPoses after association, not the detections before it.
        poses = TrackedRects(settings.poses, clipsDetections: false)
    }

    /// Forgets the tracked people and their smoothing, so the next frame starts a new stream.
    package func resetTracking() {
        poses.reset()
        smoothers = [:]
    }

    /// The people in one upright image or frame: in image mode in the detector's order, in video and
    /// live stream by tracking id.
    package func process(_ frame: FrameContext) throws -> [PoseObservation] {
        let (width, height) = (frame.width, frame.height)
        let settings = settings
        let found = try poses.process(
            detect: {
                try detector.detect(frame).compactMap {
                    poseRect(fromDetection: $0, imageWidth: width, imageHeight: height)
                }
            },
            observe: { rects in
                if settings.outputSegmentationMasks {
                    try Mask.checkFrameValues(
                        rects.count, width: width, height: height, what: "segmentation masks of \(rects.count) people",
                        advice: "ask for fewer poses (numPoses) or no masks, or give a smaller image")
                }
                return try landmarks.map(rects) { model, rect in
                    try Self.observe(frame, in: rect, with: model, settings: settings)
                }
            },
            nextRect: \.nextRect)
        var observations = found.map { pose, id in
            var pose = pose
            pose.trackingId = id
            return pose
        }
        if settings.poses.tracks && (settings.poses.maxCount == 1 || settings.smoothAllPoses) {
            smooth(&observations, frame: frame)
        }
        return observations
    }

    /// Smooths each person by id (MediaPipe: the single person, whose filters of normalized
    /// landmarks start over when a frame has nobody); people not seen in this frame are forgotten.
    private func smooth(_ observations: inout [PoseObservation], frame: FrameContext) {
        let t = Int64(frame.timestampInMilliseconds) * 1000
        if observations.isEmpty {
            for id in smoothers.keys { smoothers[id]?.landmarks.reset() }
            if settings.smoothAllPoses { smoothers = [:] }
            return
        }
        var kept: [Int: PoseSmoother] = settings.smoothAllPoses ? [:] : smoothers
        for i in observations.indices {
            let id = settings.smoothAllPoses ? observations[i].trackingId ?? i : 0
            var smoother = smoothers[id] ?? PoseSmoother()
            smoother.smooth(
                &observations[i], frameWidth: frame.width, frameHeight: frame.height, timestampMicroseconds: t)
            kept[id] = smoother
            if !settings.smoothAllPoses { break }
        }
        smoothers = kept
    }

    /// The pose landmarks model on `rect`; nil when the pose flag is not above
    /// `minPosePresenceConfidence`. Touches nothing but `model`: two people may be observed at once.
    private static func observe(
        _ frame: FrameContext, in rect: NormalizedRect, with model: ROILandmarksModel,
        settings: Settings
    ) throws -> PoseObservation? {
        let matrix = try model.run(in: frame, roi: rect)
        let flag = try model.withOutput(1) { $0.first ?? 0 }
        guard Double(flag) > Double(settings.poses.minPresenceConfidence) else { return nil }
        let side = PoseLandmarksModel.inputSize
        // The outputs' sizes were checked at load, so decoding cannot fail.
        guard var raw = try model.withOutput(0, { decodePoseLandmarks($0, inputSide: side) }) else { return nil }
        try model.withOutput(3) { heatmap in
            _ = refineLandmarksFromHeatmap(
                &raw.points, heatmap: heatmap, height: PoseLandmarksModel.heatmapSide,
                width: PoseLandmarksModel.heatmapSide,
                channels: PoseLandmarksModel.modelLandmarkCount)
        }
        let body = 0..<PoseLandmarksModel.landmarkCount
        let auxiliary = body.upperBound..<(body.upperBound + PoseLandmarksModel.auxiliaryLandmarkCount)
        var landmarks = raw.slice(body)
        landmarks.points = projectLandmarks(landmarks.points, fromNormalizedRect: rect)
        let auxiliaryPoints = projectLandmarks(Array(raw.points[auxiliary]), fromNormalizedRect: rect)
        guard
            let next = poseRect(
                fromAuxiliaryLandmarks: auxiliaryPoints, imageWidth: frame.width, imageHeight: frame.height)
        else { return nil }
        let world = try model.withOutput(4) { values in
            body.map { SIMD3(values[3 * $0], values[3 * $0 + 1], values[3 * $0 + 2]) }
        }
        let worldLandmarks = ScoredLandmarks(
            points: rotateWorldLandmarks(world, by: rect.rotation),
            visibility: landmarks.visibility, presence: landmarks.presence)
        var mask: [Float]?
        if settings.outputSegmentationMasks, let inverse = inverseAffineMatrix(matrix) {
            mask = try model.withOutput(2) { logits in
                let probabilities = logits.map(sigmoid)
                return probabilities.withUnsafeBufferPointer {
                    warpAffineBilinear(
                        $0, sourceWidth: side, sourceHeight: side, matrix: inverse,
                        outputWidth: frame.width, outputHeight: frame.height)
                }
            }
        }
        return PoseObservation(
            landmarks: landmarks, worldLandmarks: worldLandmarks, segmentationMask: mask,
            nextRect: next, trackingId: nil)
    }
}

// MARK: - Smoothing

/// One person's smoothing as MediaPipe's pose graph sets it up: visibilities through a low-pass
/// filter (0.1), landmarks through one-euro filters (min cutoff 0.05, beta 80, speed scaled by the
/// next ROI's size), world landmarks through their own (min cutoff 0.1, beta 40, unscaled).
struct PoseSmoother {
    var landmarks = OneEuroLandmarksSmoother(minCutoff: 0.05, beta: 80, derivateCutoff: 1)
    var world = OneEuroLandmarksSmoother(minCutoff: 0.1, beta: 40, derivateCutoff: 1)
    var visibility = VisibilitySmoother(alpha: 0.1)
    var worldVisibility = VisibilitySmoother(alpha: 0.1)

    /// Smooths `pose` in place, at `timestampMicroseconds` of a `frameWidth`×`frameHeight` stream.
    mutating func smooth(
        _ pose: inout PoseObservation, frameWidth: Int, frameHeight: Int, timestampMicroseconds t: Int64
    ) {
        pose.landmarks.visibility = visibility.smooth(pose.landmarks.visibility)
        let roi = pose.nextRect
        let scale = (roi.width * Float(frameWidth) + roi.height * Float(frameHeight)) / 2
        if let points = landmarks.smooth(
            pose.landmarks.points, imageWidth: frameWidth, imageHeight: frameHeight,
            timestampMicroseconds: t, objectScale: scale)
        {
            pose.landmarks.points = points
        }
        pose.worldLandmarks.visibility = worldVisibility.smooth(pose.worldLandmarks.visibility)
        if let points = world.smoothWorld(pose.worldLandmarks.points, timestampMicroseconds: t) {
            pose.worldLandmarks.points = points
        }
    }
}
