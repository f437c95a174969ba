import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// Compares the generated connection tables with MediaPipe Python's (mediapipe==1.2.2), dumped by
/// `tools/gen_connections.py --reference`. Tolerance: exact (they are indices).
@Suite struct ConnectionsTests {
    struct Reference: Decodable {
        let face: [String: [[Int]]]
        let hand: [String: [[Int]]]
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
}
