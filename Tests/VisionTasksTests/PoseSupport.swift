import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

/// The Pose Landmarker's MediaPipe references (tools/references/make_pose_refs.py, MediaPipe 1.2.2) and the
/// comparisons its tests share. Paths in the references are relative to Tests/Fixtures.
enum PoseSupport {
    /// One person as MediaPipe reported it: landmarks as [x, y, z, visibility, presence], and the
    /// 16-bit PNG of its mask.
    struct Pose: Decodable {
        let landmarks: [[Float]]
        let worldLandmarks: [[Float]]
        let mask: String
        let maskWidth: Int
        let maskHeight: Int
    }
    /// An IMAGE-mode case: one picture with one `numPoses`.
    struct ImageCase: Decodable, CustomTestStringConvertible {
        let name: String
        let image: String
        let width: Int
        let height: Int
        let numPoses: Int
        let poseCount: Int
        let poses: [Pose]
        var testDescription: String { name }
    }
    /// One frame of a VIDEO-mode case.
    struct Frame: Decodable {
        let image: String
        let timestampMs: Int
        let poseCount: Int
        let poses: [Pose]
    }
    /// A VIDEO-mode case: a frame sequence and MediaPipe's result per frame.
    struct VideoCase: Decodable, CustomTestStringConvertible {
        let sequence: String
        let numPoses: Int
        let frameStepMs: Int
        let frames: [Frame]
        var testDescription: String { sequence }
    }
    private struct ImageFile: Decodable { let cases: [ImageCase] }
    private struct VideoFile: Decodable { let cases: [VideoCase] }

    /// The 10 image cases (5 pictures × numPoses 1 and 2).
    static func imageCases() throws -> [ImageCase] {
        try Fixture.expecting(
            10, Fixture.decode(ImageFile.self, "pose/image_refs.json").cases, in: "pose/image_refs.json")
    }

    /// The 2 video cases (one person panning, two people moving).
    static func videoCases() throws -> [VideoCase] {
        try Fixture.expecting(
            2, Fixture.decode(VideoFile.self, "pose/video_refs.json").cases, in: "pose/video_refs.json")
    }

    /// A picture under Tests/Fixtures.
    static func image(_ relative: String) throws -> MPImage { try MPImage(contentsOfFile: Fixture.path(relative)) }

    /// A landmarker over `pose_landmarker_full.task`.
    static func landmarker(
        numPoses: Int, mode: RunningMode = .image, masks: Bool = false, angles: Bool = false,
        smoothAll: Bool = false
    ) throws -> PoseLandmarker {
        try PoseLandmarker(
            options: PoseLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixture.modelPath("pose_landmarker_full.task")),
                runningMode: mode
            ) {
                $0.numPoses = numPoses
                $0.outputSegmentationMasks = masks
                $0.outputJointAngles = angles
                $0.smoothAllPoses = smoothAll
            })
    }

    /// The largest and mean absolute differences of x, y, z (normalized or metres) and of visibility
    /// and presence between our landmarks and MediaPipe's.
    struct Differences {
        var maxPosition: Float = 0, sumPosition: Float = 0, count = 0, maxScore: Float = 0
        var meanPosition: Float { count == 0 ? 0 : sumPosition / Float(count) }

        mutating func add<Space>(_ ours: [LandmarkPoint<Space>], _ theirs: [[Float]]) {
            #expect(ours.count == theirs.count, "landmark count \(ours.count) vs MediaPipe's \(theirs.count)")
            for (a, b) in zip(ours, theirs) {
                for d in [abs(a.x - b[0]), abs(a.y - b[1]), abs(a.z - b[2])] {
                    maxPosition = max(maxPosition, d.isNaN ? .infinity : d)
                    sumPosition += d
                    count += 1
                }
                for d in [abs((a.visibility ?? .nan) - b[3]), abs((a.presence ?? .nan) - b[4])] {
                    maxScore = max(maxScore, d.isNaN ? .infinity : d)
                }
            }
        }
    }

    /// Mean absolute difference and IoU at 0.5 between our mask and MediaPipe's.
    static func compareMask(_ ours: Mask, _ pose: Pose) throws -> (mean: Float, iou: Float) {
        let theirs = try Gray16PNG(fixture: pose.mask)
        #expect(
            ours.width == theirs.width && ours.height == theirs.height,
            "mask \(ours.width)×\(ours.height) vs \(theirs.width)×\(theirs.height)")
        guard ours.float32Data.count == theirs.values.count else { return (.infinity, 0) }
        var sum: Double = 0, both = 0, either = 0
        for (a, b) in zip(ours.float32Data, theirs.values) {
            sum += Double(abs(a - b))
            let (x, y) = (a > 0.5, b > 0.5)
            if x && y { both += 1 }
            if x || y { either += 1 }
        }
        return (Float(sum / Double(theirs.values.count)), either == 0 ? 1 : Float(both) / Float(either))
    }
}
