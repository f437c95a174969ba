import FixtureSupport
import Foundation

/// Paths of the committed test fixtures (Tests/Fixtures), found from this file's location.
enum Fixtures {
    static let root = Fixture.directory

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// A fixture file; `references/...` through the shared reference loader.
    static func data(_ relative: String) throws -> Data {
        let references = "references/"
        if relative.hasPrefix(references) { return try Fixture.reference(String(relative.dropFirst(references.count))) }
        return try Data(contentsOf: root.appendingPathComponent(relative))
    }

    static func json(_ relative: String) throws -> Any { try JSONSerialization.jsonObject(with: data(relative)) }

    /// A little-endian float32 file.
    static func floats(_ relative: String) throws -> [Float] {
        let bytes = try data(relative)
        return bytes.withUnsafeBytes { raw in
            (0..<(bytes.count / 4)).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)))
            }
        }
    }

    /// A scratch directory for files a test writes.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("VisionCoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
