import Foundation
import TFLite
import VisionErrors

/// Labelled photos to train on: one label per folder (`DATA/<label>/<photo>`), or photos held in memory
/// (an upload). One label must be `none` (any case), as in Model Maker: hands showing none of the gestures.
/// Labels are ordered as Model Maker orders them: `none` first, then the others sorted.
public struct GestureSamples: Sendable {
    /// One photo: where its bytes come from and the label it shows.
    public struct Photo: Sendable {
        /// The photo's label (its folder's name).
        public let label: String
        /// A name for reports and errors (its path, or its name in an upload).
        public let name: String
        /// The encoded bytes when held in memory; nil when the photo is read from `name`, a file path.
        public let data: Data?

        /// A photo of `label`: `data` its encoded bytes, or nil to read the file at `name`.
        /// - Parameters:
        ///   - label: The gesture it shows.
        ///   - name: Its name in reports and errors, or the file to read when `data` is nil.
        ///   - data: Its JPEG or PNG bytes, or nil.
        public init(label: String, name: String, data: Data?) {
            self.label = label
            self.name = name
            self.data = data
        }
    }

    /// The most photos one training takes, so a folder or upload cannot make it run without end.
    public static let maxPhotos = 20_000
    /// The most labels, `none` included.
    public static let maxLabels = 100

    /// The labels in output order: the `none` label first, then the others sorted.
    public let labels: [String]
    /// Every photo, grouped by label in `labels` order, each label's photos in name order.
    public let photos: [Photo]
    /// Entries of the label folders that were not taken as photos (hidden files, subfolders), for the report.
    public let ignored: [String]
    /// What in the data looks like a mistake, one sentence each: labels that differ only by case, a photo under
    /// several labels, a label holding a comma. Warnings, not errors: the training goes on (`train-gestures` prints
    /// them first; the report keeps them).
    public private(set) var warnings: [String] = []

    /// The folder macOS's Archive Utility adds to a zip (`__MACOSX`): never a label, in a folder or a zip.
    public static let macOSArchiveFolder = "__MACOSX"

    /// The photos in `folder`'s label folders (its subfolders; files directly in it, hidden entries and
    /// `macOSArchiveFolder` are ignored and listed).
    /// - Parameter folder: The folder of label folders (`DATA/<label>/<photo>`).
    /// - Throws: `VisionTasksError.fileNotFound` for a missing folder; `.fileUnreadable` for one that cannot be
    ///   listed or a link that leads nowhere; `.invalidArgument` for a path that is not a folder of label folders, no `none` label, fewer
    ///   than two labels, a label without photos, or more than `maxPhotos` photos or `maxLabels` labels.
    public init(folder: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            var info = stat()
            guard lstat(folder, &info) == 0, stat(folder, &info) != 0 else {
                throw VisionTasksError.fileNotFound(path: folder)
            }
            throw VisionTasksError.fileUnreadable(
                path: folder, reason: "is a link that leads nowhere (\(String(cString: strerror(errno))))")
        }
        guard isFolder.boolValue else {
            throw VisionTasksError.invalidArgument("\(folder) is not a folder of label folders")
        }
        let root = URL(fileURLWithPath: folder)
        var photos: [Photo] = [], ignored: [String] = []
        for name in try Self.list(root.path) {
            let path = root.appendingPathComponent(name).path
            var isLabel: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isLabel)
            // macOS's zip leaves __MACOSX beside the data when unpacked: no label, as the server's upload skips it.
            guard isLabel.boolValue, !name.hasPrefix("."), name != Self.macOSArchiveFolder else {
                ignored.append(path)
                continue
            }
            for entry in try Self.list(path) {
                let file = path + "/" + entry
                var isSub: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: file, isDirectory: &isSub)
                if isSub.boolValue || entry.hasPrefix(".") {
                    ignored.append(file)
                    continue
                }
                photos.append(Photo(label: name, name: file, data: nil))
                guard photos.count <= Self.maxPhotos else {
                    throw VisionTasksError.invalidArgument("\(folder) holds more than \(Self.maxPhotos) photos")
                }
            }
            if !photos.contains(where: { $0.label == name }) {
                throw VisionTasksError.invalidArgument("label folder \(path) holds no photos")
            }
        }
        try self.init(photos: photos, ignored: ignored, source: folder)
    }

    /// Photos held in memory, each with its label; `source` names them in errors.
    /// - Parameters:
    ///   - photos: The photos with their labels.
    ///   - ignored: Entries that were not taken as photos, for the report.
    ///   - source: What errors call the photos.
    /// - Throws: `VisionTasksError.invalidArgument` for no `none` label, fewer than two labels, a label without
    ///   photos or not a plain name, or more than `maxPhotos` photos or `maxLabels` labels.
    public init(photos: [Photo], ignored: [String] = [], source: String = "the photos") throws {
        guard photos.count <= Self.maxPhotos else {
            throw VisionTasksError.invalidArgument("\(source): more than \(Self.maxPhotos) photos")
        }
        let names = Set(photos.map(\.label))
        // Swift's String equality is canonical equivalence: two folders named "café", one composed (Linux) and one
        // decomposed (macOS), were merged into one label without a word.
        let spellings = Dictionary(
            grouping: Set(photos.map { Array($0.label.unicodeScalars) }), by: { String(String.UnicodeScalarView($0)) })
        if let twice = spellings.values.first(where: { $0.count > 1 }) {
            let shown = twice.map {
                $0.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
            }
            throw VisionTasksError.invalidArgument(
                "\(source): labels \(shown.sorted().joined(separator: " and ")) are one name in two Unicode spellings "
                    + "(composed and decomposed): rename one")
        }
        for label in names.sorted() {
            if label.contains("/") || label.hasPrefix(".") {
                throw VisionTasksError.invalidArgument(
                    "\(source): \(label.debugDescription) is not a plain label name")
            }
            // The written model's rule too, checked now, not after training.
            if let problem = ClassifierModelWriter.labelProblem(label) {
                throw VisionTasksError.invalidArgument("\(source): label \(problem)")
            }
        }
        guard let none = names.first(where: { $0.lowercased() == "none" }) else {
            throw VisionTasksError.invalidArgument(
                "\(source) has no \"none\" label: add a folder named none with photos of hands showing none of the gestures"
            )
        }
        guard names.filter({ $0.lowercased() == "none" }).count == 1 else {
            throw VisionTasksError.invalidArgument(
                "\(source) has more than one none label (\(names.filter { $0.lowercased() == "none" }.sorted()))")
        }
        guard names.count >= 2 else {
            throw VisionTasksError.invalidArgument("\(source) has only the none label: add a folder per gesture")
        }
        guard names.count <= Self.maxLabels else {
            throw VisionTasksError.invalidArgument("\(source) has \(names.count) labels; at most \(Self.maxLabels)")
        }
        labels = [none] + names.subtracting([none]).sorted()
        let order = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        self.photos = photos.sorted { (order[$0.label] ?? 0, $0.name) < (order[$1.label] ?? 0, $1.name) }
        self.ignored = ignored
        warnings = foundWarnings
    }

    /// Labels that differ only by case ("One" and "one"), each group sorted: trained as separate gestures, which a
    /// person likely did not mean (a warning, not an error: they are distinct names).
    public var labelsDifferingOnlyByCase: [[String]] {
        Dictionary(grouping: labels, by: { $0.lowercased() }).values.filter { $0.count > 1 }.map { $0.sorted() }
            .sorted { $0[0] < $1[0] }
    }

    /// The photos whose bytes stand under more than one label, each group's names in photo order (a photo copied
    /// or linked into two label folders teaches both gestures). Only photos of one size as a photo of another label
    /// are read, one size at a time; one that cannot be read is passed over (training names it).
    public var photosUnderSeveralLabels: [[String]] {
        func size(_ photo: Photo) -> Int? {
            if let data = photo.data { return data.count }
            var info = stat()
            return stat(photo.name, &info) == 0 ? Int(info.st_size) : nil
        }
        let bySize = Dictionary(grouping: photos.indices) { size(photos[$0]) ?? -1 }
        var groups: [[Int]] = []
        for (bytes, indices) in bySize where bytes >= 0 && Set(indices.map { photos[$0].label }).count > 1 {
            var byContent: [Int: [Int]] = [:]
            for index in indices {
                let photo = photos[index]
                guard let data = photo.data ?? FileManager.default.contents(atPath: photo.name) else { continue }
                var hasher = Hasher() // every byte (`Data`'s own hash takes its first 80)
                data.withUnsafeBytes { hasher.combine(bytes: $0) }
                byContent[hasher.finalize(), default: []].append(index)
            }
            groups += byContent.values.filter { Set($0.map { photos[$0].label }).count > 1 }.map { $0.sorted() }
        }
        return groups.sorted { $0[0] < $1[0] }.map { $0.map { photos[$0].name } }
    }

    /// The warnings as found in the photos (read once, by the initializer: the photos' bytes are hashed).
    private var foundWarnings: [String] {
        labelsDifferingOnlyByCase.map {
            "labels \($0.joined(separator: " and ")) differ only by case: they are trained as \($0.count) gestures"
        }
            + photosUnderSeveralLabels.map {
                "one photo stands under several labels (\($0.joined(separator: ", "))): it teaches each of their gestures"
            }
            + labels.filter { $0.contains(",") }.map {
                "label \($0.debugDescription) holds a comma: the recognizer's comma-separated custom gestures allowlist "
                    + "and denylist (--custom-gestures-allowlist, --custom-gestures-denylist) cannot name it"
            }
    }

    /// The index of the `none` label in `labels` (always 0).
    public var noneIndex: Int { 0 }

    /// The names in the folder `path`, sorted.
    /// - Throws: `VisionTasksError.fileUnreadable` for a folder that cannot be listed; `.invalidArgument` for a name
    ///   that is not UTF-8 (Foundation lists it with U+FFFD in place of its bytes, a name no file has: its photos, or
    ///   its whole label, would be lost without a word).
    private static func list(_ path: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw VisionTasksError.fileUnreadable(path: path, reason: error.localizedDescription)
        }
        if let name = names.first(where: { $0.contains("\u{FFFD}") }) {
            throw VisionTasksError.invalidArgument(
                "\(path) holds \(name.debugDescription), a name that is not UTF-8 (or holds U+FFFD): rename it")
        }
        return names
    }
}
