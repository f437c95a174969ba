import FixtureSupport
import Foundation
import Testing
import VisionCore
import VisionTasks

// Parity with MediaPipe 1.2.2's PoseLandmarker (tools/references/make_pose_refs.py) on the fixture photos (one
// and two people) and two frame sequences.
//
// The pose landmarks model is chaotic at the last bits: moving our own ROI by one float ulp (1e-7)
// moves our landmarks by 1.1e-5 to 4.7e-5 on average and up to 2.8e-4 (measured on these photos),
// and the ROI comes from the detector, whose outputs differ from XNNPACK's in the last bits (its
// sums run in another order). Issue #36 asked for a landmarks mean of 1e-5 and max 1e-4, below that
// floor; we are at 1-2.3× it (woman_sitting: mean 2.4e-5, max 1.7e-4; astronaut, legs out of frame:
// 1.1e-4, 5.8e-4). Tolerances, set above the floor: image mode, landmarks (normalized x, y, z) mean
// |Δ| ≤ 2.5e-4 and max ≤ 1.5e-3, world landmarks ≤ 1.5e-3 m, visibility and presence ≤ 2e-3, masks
// mean |Δ| ≤ 1/255 and IoU at 0.5 ≥ 0.99; joint angles within 0.5° of the angles of MediaPipe's
// own world landmarks. Video mode: the same pose count and ids 0..<count on every frame; landmarks
// mean ≤ 5e-4 and mask IoU ≥ 0.99 on the first two frames, then ≤ 2e-2 and ≥ 0.9 (see videoMode).

@Suite
struct PoseParityTests {
    @Test(arguments: try PoseSupport.imageCases())
    func imageMode(_ c: PoseSupport.ImageCase) throws {
        let r = try PoseSupport.landmarker(numPoses: c.numPoses, masks: true, angles: true).detect(
            image: try PoseSupport.image(c.image))
        try #require(
            r.landmarks.count == c.poseCount, "\(c.name): \(r.landmarks.count) poses, MediaPipe \(c.poseCount)")
        #expect(r.worldLandmarks.count == c.poseCount && r.segmentationMasks?.count == c.poseCount)
        #expect(r.trackingIds == nil && r.timestampInMilliseconds == 0)
        var image = PoseSupport.Differences(), world = PoseSupport.Differences()
        for (i, pose) in c.poses.enumerated() {
            image.add(r.landmarks[i], pose.landmarks)
            world.add(r.worldLandmarks[i], pose.worldLandmarks)
            let mask = try PoseSupport.compareMask(try #require(r.segmentationMasks?[i]), pose)
            #expect(
                mask.mean <= 1 / 255 && mask.iou >= 0.99, "\(c.name) pose \(i): mask mean \(mask.mean), IoU \(mask.iou)"
            )
            // Joint angles: ours against the angles of MediaPipe's own world landmarks.
            let theirs = PoseJoint.angles(pose.worldLandmarks.map { SIMD3($0[0], $0[1], $0[2]) })
            let ours = try #require(r.jointAngles?[i])
            #expect(Set(ours.keys) == Set(PoseJoint.allCases) && Set(theirs.keys) == Set(PoseJoint.allCases))
            for (joint, degrees) in theirs {
                #expect(
                    abs((ours[joint] ?? .nan) - degrees) <= 0.5,
                    "\(c.name) pose \(i) \(joint): \(ours[joint] ?? .nan) vs \(degrees)")
            }
        }
        #expect(
            image.meanPosition <= 2.5e-4 && image.maxPosition <= 1.5e-3,
            "\(c.name): landmarks mean \(image.meanPosition), max \(image.maxPosition)")
        #expect(world.maxPosition <= 1.5e-3, "\(c.name): world landmarks max \(world.maxPosition) m")
        #expect(
            image.maxScore <= 2e-3 && world.maxScore <= 2e-3,
            "\(c.name): visibility/presence \(image.maxScore), \(world.maxScore)")
    }

    @Test(arguments: try PoseSupport.videoCases())
    func videoMode(_ c: PoseSupport.VideoCase) throws {
        let landmarker = try PoseSupport.landmarker(numPoses: c.numPoses, mode: .video, masks: true)
        for (n, frame) in c.frames.enumerated() {
            let r = try landmarker.detect(
                videoFrame: try PoseSupport.image(frame.image), timestampInMilliseconds: frame.timestampMs)
            try #require(
                r.landmarks.count == frame.poseCount,
                "\(c.sequence) frame \(n): \(r.landmarks.count) poses, MediaPipe \(frame.poseCount)")
            #expect(r.trackingIds == Array(0..<frame.poseCount), "\(c.sequence) frame \(n): ids \(r.trackingIds ?? [])")
            #expect(r.timestampInMilliseconds == frame.timestampMs)
            var d = PoseSupport.Differences()
            for (i, pose) in frame.poses.enumerated() {
                d.add(r.landmarks[i], pose.landmarks)
                let mask = try PoseSupport.compareMask(try #require(r.segmentationMasks?[i]), pose)
                #expect(mask.iou >= (n < 2 ? 0.99 : 0.9), "\(c.sequence) frame \(n) pose \(i): mask IoU \(mask.iou)")
            }
            // The tracking loop feeds each frame's landmarks into the next frame's ROI, so the last-bit
            // differences grow: our own results with the first ROI moved by one ulp drift apart by up
            // to 1.1e-2 (mean) by frame 8. The first two frames are held to issue #36's 5e-4; the rest
            // to the drift seen (2e-2).
            let bound: Float = n < 2 ? 5e-4 : 2e-2
            #expect(
                d.meanPosition <= bound, "\(c.sequence) frame \(n): landmarks mean \(d.meanPosition) (bound \(bound))")
        }
    }
}
