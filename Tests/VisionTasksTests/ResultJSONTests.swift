import Foundation
import Testing
import VisionTasks

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
