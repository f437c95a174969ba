import FixtureSupport
import Foundation
import Testing

@testable import TFLite

/// Paths and loaders shared by the TFLite tests.
enum TestSupport {
    /// The repository root (three levels above this file).
    static let root = Fixture.repositoryRoot

    /// `models/NAME` under the repository root.
    static func modelPath(_ name: String) -> String { root.appendingPathComponent("models/\(name)").path }

    /// The bytes of a model inside `file` at `entry` (nil entry: the file itself).
    static func modelData(_ file: String, _ entry: String?) throws -> Data {
        let data = try ModelFile.read(modelPath(file))
        guard let entry else { return data }
        return try ModelBundle(data: data, name: file).find(entry)
    }

    /// A reference file under Tests/Fixtures/references/.
    static func reference(_ path: String) throws -> Data {
        try Fixture.reference(path)
    }
}

/// A small deterministic random generator (SplitMix64) so fuzz tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
