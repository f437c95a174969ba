import Foundation
import VisionErrors

/// Writes MediaPipe `.task` model bundles, which `ModelBundle` and MediaPipe read.
public enum ModelBundleWriter {
    /// A .task archive as MediaPipe's model_asset_bundle_utils writes it: entries stored (no compression), in the given order, data aligned to 4 bytes.
    /// - Throws: `VisionTasksError.invalidBundle` when there is no entry, a name is empty, repeated or ends
    ///   with "/" (a directory), or the archive would need ZIP64 (65,535 entries or 4 GiB and more).
    public static func bundle(_ entries: [(name: String, data: Data)]) throws -> Data {
        func fail(_ message: String) -> VisionTasksError { .invalidBundle("cannot write a bundle: \(message)") }
        guard !entries.isEmpty else { throw fail("there are no entries") }
        guard entries.count < 0xFFFF else {
            throw fail("\(entries.count) entries are more than a zip without ZIP64 holds")
        }
        var names = Set<String>()
        var total = 0
        for (index, entry) in entries.enumerated() {
            guard !entry.name.isEmpty else { throw fail("entry \(index) has an empty name") }
            guard !entry.name.hasSuffix("/") else {
                throw fail("entry \(index) \"\(entry.name)\" is named like a directory")
            }
            guard entry.name.utf8.count <= 0xFFFF else {
                throw fail("entry \(index) has a name longer than 65,535 bytes")
            }
            guard names.insert(entry.name).inserted else { throw fail("two entries are named \"\(entry.name)\"") }
            total += entry.data.count + 2 * entry.name.utf8.count + 79 // headers, name twice, padding
        }
        guard total < 0xFFFF_FFFF else { throw fail("the entries take 4 GiB or more, which needs ZIP64") }
        return ZipWriter.archive(entries.map { ZipWriter.Entry.stored($0.name, $0.data) }, alignment: 4)
    }
}
