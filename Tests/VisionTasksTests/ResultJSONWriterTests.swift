import FixtureSupport
import Foundation
import Testing

@testable import VisionTasks

/// `ResultJSONWriter` against Foundation's `JSONEncoder` with the settings it stands in for
/// (`ResultJSON.makeEncoder()`): the same bytes for every task's real results and for values that
/// use every container and primitive type. Tolerance: byte for byte.
@Suite struct ResultJSONWriterTests {
    private static func foundation<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try ResultJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    private static func ours<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try ResultJSONWriter.encode(value), as: UTF8.self)
    }

    /// Every primitive, optionals present and absent, nesting of every kind, a super encoder, and the
    /// Foundation types JSONEncoder writes its own way.
    private struct Everything: Encodable {
        enum Keys: String, CodingKey {
            case zeta, Alpha, alpha, a10, a9, _under, nested, list, parent, foundation, wide, quiet, reused
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(Float(1.0), forKey: .zeta)
            try c.encode(
                "quote\" backslash\\ slash/ newline\n tab\t bell\u{07} backspace\u{08} feed\u{0c} return\r escape\u{1b} é \u{2028}",
                forKey: .Alpha)
            try c.encode([Float(0.1), -0.0, 1e-7, 3e10, 1.5e-45, .greatestFiniteMagnitude], forKey: .alpha)
            try c.encode([Double(0.1), 1e16, -2.5], forKey: .a10)
            try c.encode([Int8(-8), 7] as [Int8], forKey: .a9)
            try c.encode(Optional<Float>.none, forKey: ._under)
            var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encode(UInt32(4_000_000_000), forKey: .zeta)
            try nested.encode(true, forKey: .alpha)
            try nested.encodeNil(forKey: .a9)
            var list = c.nestedUnkeyedContainer(forKey: .list)
            try list.encode(Int64.min)
            try list.encode(Optional(Float(2.5)))
            try list.encodeNil()
            var inner = list.nestedUnkeyedContainer()
            try inner.encode("x")
            var object = list.nestedContainer(keyedBy: Keys.self)
            try object.encode(UInt8(255), forKey: .a10)
            var foundation = c.nestedUnkeyedContainer(forKey: .foundation)
            try foundation.encode(Data([1, 2, 250]))
            try foundation.encode(URL(fileURLWithPath: "/tmp/a b.png"))
            try foundation.encode(Date(timeIntervalSinceReferenceDate: 12.5))
            try foundation.encode(Decimal(string: "3.25"))
            try c.encode([Int128(-170141183460469231731687303715884105728)], forKey: .wide)
            try c.encode([UInt128.max], forKey: .wide) // the same key again: the later value wins
            // A single value through a super encoder released before the value is written.
            var single = c.superEncoder(forKey: .parent).singleValueContainer()
            try single.encode(Int16(-3))
            _ = c.superEncoder(forKey: .quiet) // encodes nothing: {}
            // Two nested containers at one key write into the same object.
            var first = c.nestedContainer(keyedBy: Keys.self, forKey: .reused)
            try first.encode(1, forKey: .zeta)
            var second = c.nestedContainer(keyedBy: Keys.self, forKey: .reused)
            try second.encode(2, forKey: .alpha)
            // Super encoders inside an array: a single value, and an object.
            var supers = list.superEncoder().singleValueContainer()
            try supers.encode(5)
            var superObject = list.superEncoder().container(keyedBy: Keys.self)
            try superObject.encode("s", forKey: .zeta)
        }
    }

    /// Every integer width, Float and Double written directly into each of the three containers
    /// (each is a separate requirement of the container protocols).
    private struct EveryWidth: Encodable {
        enum Keys: String, CodingKey { case i, i8, i16, i32, i64, u, u8, u16, u32, u64, f, d, list, single }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(Int.min, forKey: .i)
            try c.encode(Int8.min, forKey: .i8)
            try c.encode(Int16.min, forKey: .i16)
            try c.encode(Int32.min, forKey: .i32)
            try c.encode(Int64.max, forKey: .i64)
            try c.encode(UInt.max, forKey: .u)
            try c.encode(UInt8.max, forKey: .u8)
            try c.encode(UInt16.max, forKey: .u16)
            try c.encode(UInt32.max, forKey: .u32)
            try c.encode(UInt64.max, forKey: .u64)
            try c.encode(Float(-0.1), forKey: .f)
            try c.encode(Double(1e-300), forKey: .d)
            var list = c.nestedUnkeyedContainer(forKey: .list)
            try list.encode(Int.max)
            try list.encode(Int8.max)
            try list.encode(Int16.max)
            try list.encode(Int32.max)
            try list.encode(Int64.min)
            try list.encode(UInt(7))
            try list.encode(UInt8(8))
            try list.encode(UInt16(9))
            try list.encode(UInt32(10))
            try list.encode(UInt64(11))
            try list.encode(Float.leastNonzeroMagnitude)
            try list.encode(Double.greatestFiniteMagnitude)
            try list.encode(Int128.min)
            try list.encode(UInt128.max)
            var single = c.superEncoder(forKey: .single).singleValueContainer()
            try single.encode(Double(2.5))
        }
    }

    /// Each single-value container write, one value at a time.
    private struct Single<Value: Encodable>: Encodable {
        let value: Value
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(value)
        }
    }

    @Test func everyWidthInEveryContainerMatchesFoundation() throws {
        #expect(try Self.ours(EveryWidth()) == Self.foundation(EveryWidth()))
        let singles: [any Encodable] = [
            Int.min, Int8.min, Int16.min, Int32.min, Int64.min, UInt.max, UInt8.max, UInt16.max,
            UInt32.max, UInt64.max, Float(3.25), Double(-7.5), Int128.min, UInt128.max,
        ]
        for value in singles {
            func check<V: Encodable>(_ v: V) throws {
                #expect(try Self.ours([Single(value: v)]) == Self.foundation([Single(value: v)]), "\(V.self)")
            }
            try check(value)
        }
    }

    @Test func everyContainerAndPrimitiveMatchesFoundation() throws {
        let expected = try Self.foundation(Everything())
        #expect(
            expected.contains("\"Alpha\"") && expected.contains("\"parent\":-3") && expected.contains("\"quiet\":{}"))
        #expect(expected.contains("\"reused\":{\"alpha\":2,\"zeta\":1}"))
        #expect(try Self.ours(Everything()) == expected)
    }

    /// A value that encodes nothing: an error at the top level, as in Foundation.
    private struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test func aTopLevelValueWithoutContentThrowsAsInFoundation() throws {
        #expect(throws: EncodingError.self) { _ = try Self.foundation(Nothing()) }
        #expect(throws: EncodingError.self) { _ = try ResultJSONWriter.encode(Nothing()) }
        #expect(try Self.ours([Nothing()]) == Self.foundation([Nothing()]))
    }

    @Test func nonFiniteNumbersThrowAsInFoundation() throws {
        #expect(throws: EncodingError.self) { _ = try ResultJSONWriter.encode([Float.nan]) }
        #expect(throws: EncodingError.self) { _ = try ResultJSONWriter.encode(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { _ = try Self.foundation([Float.nan]) }
    }

    /// Landmarks and categories are written whole, not field by field: every optional present and
    /// absent, names needing escapes, integral and exponent numbers; a NaN still throws.
    @Test func landmarksAndCategoriesMatchFoundation() throws {
        let points = [
            NormalizedLandmark(x: 0.25, y: -1, z: 1e-7, visibility: 0.5, presence: nil),
            NormalizedLandmark(x: 3, y: 0, z: -0.0, visibility: nil, presence: 1),
        ]
        let world = [Landmark(x: 1.5e10, y: 2, z: -3.25, visibility: 0.125, presence: 0.875)]
        let categories = [
            ResultCategory(index: -1, score: 0.75, categoryName: "Thumb_Up", displayName: ""),
            ResultCategory(index: 7, score: 1, categoryName: nil, displayName: "quote \" back\\ tab\t é 😀 \u{1}"),
            ResultCategory(index: 0, score: 2e-8, categoryName: "a/b", displayName: nil),
        ]
        #expect(try Self.ours(points) == Self.foundation(points))
        #expect(try Self.ours(world) == Self.foundation(world))
        #expect(try Self.ours(categories) == Self.foundation(categories))
        #expect(try Self.ours(["nested": [categories]]) == Self.foundation(["nested": [categories]]))
        #expect(throws: EncodingError.self) {
            _ = try ResultJSONWriter.encode([NormalizedLandmark(x: .nan, y: 0, z: 0)])
        }
        #expect(throws: EncodingError.self) {
            _ = try ResultJSONWriter.encode([
                ResultCategory(index: 0, score: .infinity, categoryName: nil, displayName: nil)
            ])
        }
    }

    @Test
    func everyTasksResultsMatchFoundation() throws {
        let images = Fixture.repositoryRoot.appendingPathComponent("Tests/Fixtures/images")
        let faces = try MPImage(contentsOfFile: images.appendingPathComponent("astronaut.png").path)
        let hand = try MPImage(contentsOfFile: images.appendingPathComponent("hand_thumb_up.jpg").path)

        let detector = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixture.modelPath("blaze_face_short_range.tflite"))))
        let landmarkerOptions = FaceLandmarkerOptions()
        landmarkerOptions.baseOptions.modelAssetPath = Fixture.modelPath("face_landmarker.task")
        landmarkerOptions.outputFaceBlendshapes = true
        landmarkerOptions.outputFacialTransformationMatrixes = true
        let hands = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixture.modelPath("hand_landmarker.task"))))
        let gestures = try GestureRecognizer(
            options: GestureRecognizerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixture.modelPath("gesture_recognizer.task"))))

        let detections = try detector.detect(image: faces)
        let landmarks = try FaceLandmarker(options: landmarkerOptions).detect(image: faces)
        let handResult = try hands.detect(image: hand)
        let gestureResult = try gestures.recognize(image: hand)
        #expect(detections.detections.count == 1 && landmarks.faceBlendshapes.count == 1)
        #expect(handResult.landmarks.count == 1 && gestureResult.gestures.count == 1)
        #expect(try Self.ours(detections) == Self.foundation(detections))
        #expect(try Self.ours(landmarks) == Self.foundation(landmarks))
        #expect(try Self.ours(handResult) == Self.foundation(handResult))
        #expect(try Self.ours(gestureResult) == Self.foundation(gestureResult))
    }
}
