import Foundation

/// The committed test fixtures (Tests/Fixtures) and the fetched models (models/), with loaders
/// that throw on a missing, undecodable or short reference file instead of running nothing.
public enum Fixture {
    /// The repository root (three levels above this file).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Tests/Fixtures.
    public static let directory = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    /// The MediaPipe/LiteRT references: Tests/Fixtures/references, or the directory named by
    /// `VISIONTASKS_REFERENCES` (tools/checks/check_skip_check.sh points it at a corrupted copy).
    public static var references: URL {
        if let override = ProcessInfo.processInfo.environment["VISIONTASKS_REFERENCES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return directory.appendingPathComponent("references")
    }

    /// The models `make models` fetches.
    public static let models = [
        "blaze_face_short_range.tflite", "face_landmarker.task", "hand_landmarker.task",
        "gesture_recognizer.task", "operations.task", "face_detection_full_range_sparse.tflite",
        "pose_landmarker_full.task", "selfie_segmenter.tflite", "selfie_segmentation_landscape.tflite",
    ]

    /// Whether every model `make models` fetches is present (`make test` always fetches them; a
    /// suite enabled only with them is reported skipped without, which fails the skip check).
    public static var haveModels: Bool { models.allSatisfy { FileManager.default.fileExists(atPath: modelPath($0)) } }

    /// `models/NAME` (fetched by `make models`).
    public static func modelPath(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("models/\(name)").path
    }

    /// A path under Tests/Fixtures.
    public static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// The bytes of a reference file (`path` under the references directory).
    public static func reference(_ path: String) throws -> Data {
        let url = references.appendingPathComponent(path)
        do { return try Data(contentsOf: url) } catch { throw FixtureError.unreadable(url.path, "\(error)") }
    }

    /// A reference JSON file decoded as `T`.
    public static func decode<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        let data = try reference(path)
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw FixtureError.undecodable(references.appendingPathComponent(path).path, "\(error)")
        }
    }

    /// `cases` when there are exactly `count` of them: a parameterised test's arguments, so a
    /// reference file that lost cases fails the test instead of shrinking it.
    public static func expecting<C: Collection>(_ count: Int, _ cases: C, in path: String) throws -> C {
        guard cases.count == count else { throw FixtureError.wrongCount(path, expected: count, found: cases.count) }
        return cases
    }
}

/// Why a reference file could not be used.
public enum FixtureError: Error, CustomStringConvertible {
    /// The file is missing or cannot be read.
    case unreadable(String, String)
    /// The file is not what its loader decodes.
    case undecodable(String, String)
    /// The file holds another number of cases than the test expects.
    case wrongCount(String, expected: Int, found: Int)

    /// What was wrong, naming the file.
    public var description: String {
        switch self {
        case .unreadable(let path, let why): "reference \(path) cannot be read: \(why)"
        case .undecodable(let path, let why): "reference \(path) cannot be decoded: \(why)"
        case .wrongCount(let path, let expected, let found):
            "reference \(path) holds \(found) cases, the test expects \(expected)"
        }
    }
}
