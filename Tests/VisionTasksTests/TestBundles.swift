import Foundation
import TFLite

/// Builds `.task` bundles (zips) in tests, for bundles with an entry replaced, added or left out.
enum TestBundles {
    /// A zip of `entries` in order, stored.
    static func zip(_ entries: [(name: String, data: Data)]) throws -> Data {
        ZipWriter.archive(entries.map { ZipWriter.Entry.stored($0.name, $0.data) })
    }
}
