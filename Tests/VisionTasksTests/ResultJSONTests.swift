import Foundation
import Testing

@testable import VisionTasks

@Suite struct ResultJSONTests {
    private func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func detectionUsesTheIOSPropertyNamesAndExplicitNulls() throws {
        let detection = Detection(
            categories: [ResultCategory(index: 0, score: 0.5, categoryName: nil, displayName: nil)],
            boundingBox: CGRect(x: 126, y: 100, width: 463, height: 463),
            keypoints: [NormalizedKeypoint(location: CGPoint(x: 0.25, y: 0.5))])
        #expect(
            try json(detection) == #"{"boundingBox":{"height":463,"originX":126,"originY":100,"width":463},"#
                + #""categories":[{"categoryName":null,"displayName":null,"index":0,"score":0.5}],"#
                + #""keypoints":[{"label":null,"score":null,"x":0.25,"y":0.5}]}"#)
        let back = try JSONDecoder().decode(Detection.self, from: Data(try json(detection).utf8))
        #expect(back == detection)
    }

    /// Sizes whose product passes `Int.max` are refused, not multiplied (a `Mask` or `TransformMatrix` made, or
    /// decoded, from a client's numbers used to trap); and one frame's masks together are bounded by
    /// `Mask.maxFrameValues`, as many people's segmentation masks on a large picture would pass it.
    @Test func sizesPastTheLimitsAreRefusedNotMultiplied() throws {
        #expect(throws: VisionTasksError.self) { try Mask(width: Int.max, height: 2, float32Data: [0]) }
        #expect(TransformMatrix(rows: Int.max, columns: 4, data: []) == nil)
        let json = Data(#"{"rows": 4611686018427387904, "columns": 4, "data": [1]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TransformMatrix.self, from: json) }
        func people(_ count: Int) throws {
            try Mask.checkFrameValues(
                count, width: 8192, height: 8192, what: "masks of \(count) people", advice: "fewer")
        }
        try people(4)
        #expect(
            throws: VisionTasksError.invalidArgument(
                "masks of 5 people at 8192×8192 pixels would take 1.3 GiB, over the limit of 1.0 GiB: fewer")
        ) { try people(5) }
    }

    @Test func landmarksAndMatricesRoundTrip() throws {
        let landmark = NormalizedLandmark(x: 0.5, y: 0.25, z: -0.125)
        #expect(try json(landmark) == #"{"presence":null,"visibility":null,"x":0.5,"y":0.25,"z":-0.125}"#)
        let matrix = try #require(TransformMatrix(rows: 2, columns: 2, data: [1, 2, 3, 4]))
        #expect(matrix[1, 0] == 3)
        #expect(TransformMatrix(rows: 4, columns: 4, data: [1]) == nil)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(TransformMatrix.self, from: Data(#"{"rows":2,"columns":2,"data":[1]}"#.utf8))
        }
        let heads = Classifications(headIndex: 0, headName: nil, categories: [])
        #expect(try json(heads) == #"{"categories":[],"headIndex":0,"headName":null}"#)
    }
}
