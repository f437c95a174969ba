import Foundation
import TFLite
import Training
import VisionTasks

/// A training upload (`POST /api/v1/gesture-models`): a zip whose entries are `label/photo`, read in memory
/// into `GestureSamples`. Nothing of it reaches the file system, and every entry is checked before any is
/// unpacked: its name (no `..`, absolute path, backslash, control character or empty part), the number of photos and
/// the bytes they declare against the limits; then each photo is inflated against a budget (so a size the zip lies
/// about stops at the limit too) and sniffed for JPEG or PNG. Photos are the entries `label/photo`, or
/// `top/label/photo` when every entry lies in one folder `top`. Any other file (beside the label folders, in a folder
/// inside one, hidden, or in macOS's `__MACOSX/`) is skipped and listed in the report's `ignored`, as
/// `vision-tasks train-gestures` skips and lists them in a folder.
enum GestureUpload {
    /// What the errors call the zip.
    static let archiveName = "the upload"

    /// The photos of `zip`, each labelled by its folder; at most `maxPhotos` photos unpacking to at most
    /// `maxUnpackedBytes` in all (413 beyond, naming `photosFlag` or `unpackedFlag`). A zip that does not read,
    /// a bad entry name or a missing `none` label is a 400; an entry that is not a JPEG or PNG a 415.
    static func samples(
        _ zip: Data, maxPhotos: Int, maxUnpackedBytes: Int,
        photosFlag: String = "--max-training-photos",
        unpackedFlag: String = "--max-training-unpacked"
    ) throws -> GestureSamples {
        do {
            let directory = try ZipDirectory(zip, name: archiveName)
            let top = sharedTopFolder(directory.entries)
            var photos: [(index: Int, label: String, name: String)] = []
            var ignored: [String] = [], seen: Set<String> = [], unpacked = 0
            for (index, entry) in directory.entries.enumerated() {
                guard let parts = try parts(of: entry, below: top) else {
                    if !entry.isDirectory { ignored.append(entry.name) }
                    continue
                }
                guard seen.insert(entry.name).inserted else {
                    throw APIError(.badRequest, "\(archiveName) has two entries named \"\(entry.name)\"")
                }
                photos.append((index, parts.label, entry.name))
                guard photos.count <= maxPhotos else {
                    throw APIError(
                        .contentTooLarge, "\(archiveName) holds more than \(maxPhotos) photos (\(photosFlag))")
                }
                unpacked += entry.uncompressedSize
                guard unpacked <= maxUnpackedBytes else {
                    throw APIError(
                        .contentTooLarge,
                        "\(archiveName)'s photos unpack to more than \(maxUnpackedBytes) bytes (\(unpackedFlag))")
                }
            }
            let archive = try ZipArchive(zip, name: archiveName, budget: InflateBudget(limit: maxUnpackedBytes))
            let samples = try photos.map { photo -> GestureSamples.Photo in
                let bytes = try archive.extract(photo.index)
                guard MediaSniffer.isImage(bytes) else {
                    throw APIError(
                        .unsupportedMediaType,
                        "\(archiveName) entry \"\(photo.name)\" is not a JPEG or PNG image (every file in a folder is a "
                            + "photo of the label the folder names, here \"\(photo.label)\")")
                }
                return GestureSamples.Photo(label: photo.label, name: photo.name, data: bytes)
            }
            guard !samples.isEmpty else {
                throw APIError(
                    .badRequest, "\(archiveName) holds no photos: send a zip of label folders (none/…, thumb/…)")
            }
            return try GestureSamples(photos: samples, ignored: ignored, source: archiveName)
        } catch VisionTasksError.invalidBundle(let message), VisionTasksError.invalidArgument(let message) {
            throw APIError(.badRequest, message)
        }
    }

    /// Whether an entry of these name parts is skipped, not a photo: hidden (a part starting with `.`) or in macOS's
    /// `__MACOSX/`.
    private static func isSkipped<Part: StringProtocol>(_ parts: [Part]) -> Bool {
        parts.first.map { String($0) == GestureSamples.macOSArchiveFolder } == true
            || parts.contains { $0.hasPrefix(".") }
    }

    /// The one folder every entry lies in when the zip is of the data folder itself (`my_gestures/none/a.jpg`, as a
    /// file manager's "compress" makes it): photos are then `top/label/photo`, and `top` is read past (a file directly
    /// in it is then skipped as one beside the label folders). Nil when no photo is nested that deep, or the files in
    /// folders lie in more than one (skipped entries, folder entries and files at the zip's root aside: a README beside
    /// the data folder is skipped, not a reason to lose every photo).
    private static func sharedTopFolder(_ entries: [ZipDirectory.Entry]) -> String? {
        var top: String?
        var nested = false
        for entry in entries where !entry.isDirectory {
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            if isSkipped(parts) || parts.count < 2 { continue }
            guard let first = parts.first.map(String.init), !first.isEmpty, top == nil || top == first else {
                return nil
            }
            top = first
            if parts.count >= 3 { nested = true }
        }
        return nested ? top : nil
    }

    /// The label of a photo entry `label/photo` (below `top`, when given); nil for an entry that is skipped (a
    /// directory, a hidden entry, macOS's `__MACOSX/`, a file beside the label folders or in a folder inside one); a
    /// 400 for a name that could point outside the zip or is malformed.
    private static func parts(of entry: ZipDirectory.Entry, below top: String?) throws -> (
        label: String, photo: String
    )? {
        let name = entry.name
        func refuse(_ reason: String) -> APIError {
            let layout = top.map { "\($0)/label/photo" } ?? "label/photo"
            return APIError(.badRequest, "\(archiveName) entry \"\(name)\" \(reason): entries must be \(layout)")
        }
        if name.contains("\\") { throw refuse("has a backslash") }
        if name.hasPrefix("/") || name.dropFirst().hasPrefix(":") {
            throw refuse("is an absolute path (or names a drive)")
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw refuse("has a control character")
        }
        var parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.contains("..") || parts.contains(".") { throw refuse("has a . or .. part") }
        if isSkipped(parts) { return nil }
        if let top, parts.first == top { parts.removeFirst() }
        // A folder's name ends in its one empty part ("label/"); any other empty part ("a//b") is malformed.
        if parts.dropLast(entry.isDirectory ? 1 : 0).contains("") { throw refuse("has an empty part") }
        guard !entry.isDirectory, parts.count == 2 else { return nil }
        return (parts[0], parts[1])
    }
}
