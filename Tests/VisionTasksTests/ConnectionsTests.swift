import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// Compares the generated connection tables with MediaPipe Python's (mediapipe==1.2.2), dumped by
/// `tools/references/gen_connections.py --reference`. Tolerance: exact (they are indices).
@Suite struct ConnectionsTests {
    struct Reference: Decodable {
        let face: [String: [[Int]]]
        let hand: [String: [[Int]]]
        let pose: [String: [[Int]]]
    }

    static func reference() throws -> Reference {
        try Fixture.decode(Reference.self, "connections/connections.json")
    }

    static func pairs(_ table: [Connection]) -> [[Int]] { table.map { [$0.start, $0.end] } }

    @Test func faceTablesEqualMediaPipes() throws {
        let ref = try Self.reference()
        let ours: [String: [Connection]] = [
            "lips": FaceLandmarksConnections.lips, "left_eye": FaceLandmarksConnections.leftEye,
            "left_eyebrow": FaceLandmarksConnections.leftEyebrow, "left_iris": FaceLandmarksConnections.leftIris,
            "right_eye": FaceLandmarksConnections.rightEye, "right_eyebrow": FaceLandmarksConnections.rightEyebrow,
            "right_iris": FaceLandmarksConnections.rightIris, "face_oval": FaceLandmarksConnections.faceOval,
            "nose": FaceLandmarksConnections.nose,
            // iOS's contours include the irises (132 connections); Python's leave them out (124).
            "contours": FaceLandmarksConnections.contours.filter {
                !(FaceLandmarksConnections.leftIris + FaceLandmarksConnections.rightIris).contains($0)
            },
            "tesselation": FaceLandmarksConnections.tesselation,
        ]
        #expect(Set(ours.keys) == Set(ref.face.keys))
        for (name, table) in ours {
            #expect(Self.pairs(table) == ref.face[name], "face table \(name)")
        }
        #expect(FaceLandmarksConnections.tesselation.count == 2556)
        #expect(FaceLandmarksConnections.lips.first == Connection(start: 61, end: 146))
        #expect(FaceLandmarksConnections.contours.count == 132)
        #expect(FaceLandmarksConnections.face.count == 40 + 132 + 2556)
        // Every index is a landmark of the 478-point mesh.
        #expect(FaceLandmarksConnections.face.allSatisfy { (0..<478).contains($0.start) && (0..<478).contains($0.end) })
    }

    @Test func handTablesEqualMediaPipes() throws {
        let ref = try Self.reference()
        let ours: [String: [Connection]] = [
            "palm_connections": HandLandmarksConnections.palm, "thumb_connections": HandLandmarksConnections.thumb,
            "index_finger_connections": HandLandmarksConnections.indexFinger,
            "middle_finger_connections": HandLandmarksConnections.middleFinger,
            "ring_finger_connections": HandLandmarksConnections.ringFinger,
            "pinky_finger_connections": HandLandmarksConnections.pinky,
            "connections": HandLandmarksConnections.hand,
        ]
        #expect(Set(ours.keys) == Set(ref.hand.keys))
        for (name, table) in ours {
            #expect(Self.pairs(table) == ref.hand[name], "hand table \(name)")
        }
        #expect(HandLandmarksConnections.hand.count == 21)
        #expect(HandLandmarksConnections.hand.last == Connection(start: 19, end: 20))
    }

    @Test func poseTableEqualsMediaPipes() throws {
        let ref = try Self.reference()
        #expect(Set(ref.pose.keys) == ["pose"])
        #expect(Self.pairs(PoseLandmarksConnections.pose) == ref.pose["pose"], "pose table")
        #expect(PoseLandmarker.poseLandmarks == PoseLandmarksConnections.pose)
        #expect(PoseLandmarksConnections.pose.count == 35)
        #expect(PoseLandmarksConnections.pose.allSatisfy { (0..<33).contains($0.start) && (0..<33).contains($0.end) })
    }

    /// The iOS spellings (`FaceLandmarker.lipsConnections()`, `HandLandmarker.handConnections`, ...)
    /// give MediaPipe's tables too. Tolerance: exact.
    @Test func iOSAccessorsGiveMediaPipesTables() throws {
        let ref = try Self.reference()
        let face: [(String, [Connection])] = [
            ("lips", FaceLandmarker.lipsConnections()), ("left_eye", FaceLandmarker.leftEyeConnections()),
            ("left_eyebrow", FaceLandmarker.leftEyebrowConnections()),
            ("left_iris", FaceLandmarker.leftIrisConnections()),
            ("right_eye", FaceLandmarker.rightEyeConnections()),
            ("right_eyebrow", FaceLandmarker.rightEyebrowConnections()),
            ("right_iris", FaceLandmarker.rightIrisConnections()), ("face_oval", FaceLandmarker.faceOvalConnections()),
            ("tesselation", FaceLandmarker.tesselationConnections()),
        ]
        #expect(face.count == 9)
        for (name, table) in face {
            #expect(Self.pairs(table) == ref.face[name], "FaceLandmarker accessor for \(name)")
        }
        #expect(FaceLandmarker.contoursConnections().count == 132)
        #expect(
            FaceLandmarker.faceConnections() == FaceLandmarker.lipsConnections() + FaceLandmarker.contoursConnections()
                + FaceLandmarker.tesselationConnections())
        let hand: [(String, [Connection])] = [
            ("palm_connections", HandLandmarker.handPalmConnections),
            ("thumb_connections", HandLandmarker.handThumbConnections),
            ("index_finger_connections", HandLandmarker.handIndexFingerConnections),
            ("middle_finger_connections", HandLandmarker.handMiddleFingerConnections),
            ("ring_finger_connections", HandLandmarker.handRingFingerConnections),
            ("pinky_finger_connections", HandLandmarker.handPinkyConnections),
            ("connections", HandLandmarker.handConnections),
        ]
        #expect(hand.count == 7)
        for (name, table) in hand {
            #expect(Self.pairs(table) == ref.hand[name], "HandLandmarker accessor for \(name)")
        }
    }
}
