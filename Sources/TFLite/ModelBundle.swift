import Foundation
import VisionErrors

/// A MediaPipe `.task` model bundle: a zip of `.tflite` models, nested `.task` bundles and other files.
/// Opening one checks its directory only; an entry is extracted (and checked) when first asked for, so a
/// task inflates just the entries it uses, within one decompressed-size limit shared with nested bundles.
public struct ModelBundle: Sendable {
    /// The default limit on bytes inflated from a bundle and its nested bundles: 64 MiB, several times the
    /// largest real bundle (8.5 MB).
    public static let defaultMaxDecompressedBytes = 64 << 20

    /// What the bundle is (its path, or its entry path inside an outer bundle), used in error messages.
    public let name: String
    /// Entry names in archive order (directories left out).
    public let fileNames: [String]
    private let archive: ZipArchive
    private let indices: [String: Int]
    /// How many bundles this one is nested in (0 for a file's).
    private let depth: Int

    /// Reads a bundle's directory from zip bytes; `name` names it in error messages. At most
    /// `maxDecompressedBytes` are inflated from it and its nested bundles, in all.
    /// - Parameters:
    ///   - data: The bytes of a `.task` file (a zip).
    ///   - name: What error messages call the bundle.
    ///   - maxDecompressedBytes: The most bytes inflated from it and the bundles nested in it, in all.
    /// - Throws: `VisionTasksError.invalidBundle` when `data` is not a readable zip or its directory is absurd.
    public init(
        data: Data, name: String = "model bundle",
        maxDecompressedBytes: Int = ModelBundle.defaultMaxDecompressedBytes
    ) throws {
        try self.init(data: data, name: name, budget: InflateBudget(limit: maxDecompressedBytes), depth: 0)
    }

    /// The most levels of bundles nested in a bundle (MediaPipe's go two deep: gesture_recognizer.task holds
    /// hand_landmarker.task): a deeper chain would copy its bytes once per level.
    public static let maxNesting = 4

    private init(data: Data, name: String, budget: InflateBudget, depth: Int) throws {
        let archive = try ZipArchive(data, name: name, budget: budget)
        var indices: [String: Int] = [:]
        var names: [String] = []
        for (index, entry) in archive.entries.enumerated() where !entry.isDirectory {
            guard indices[entry.name] == nil else {
                throw VisionTasksError.invalidBundle("\(name) has two entries named \"\(entry.name)\"")
            }
            indices[entry.name] = index
            names.append(entry.name)
        }
        self.name = name
        self.archive = archive
        self.indices = indices
        self.fileNames = names
        self.depth = depth
    }

    /// Reads the bundle file at `path`; see `init(data:name:maxDecompressedBytes:)`.
    /// - Parameters:
    ///   - path: The `.task` file; error messages name the bundle by it.
    ///   - maxDecompressedBytes: The most bytes inflated from it and the bundles nested in it, in all.
    /// - Throws: `VisionTasksError.fileNotFound`, `.fileUnreadable` or `.invalidBundle`.
    public init(
        contentsOfFile path: String,
        maxDecompressedBytes: Int = ModelBundle.defaultMaxDecompressedBytes
    ) throws {
        try self.init(data: try ModelFile.read(path), name: path, maxDecompressedBytes: maxDecompressedBytes)
    }

    /// The limit on bytes inflated from this bundle and the bundles nested in it.
    public var maxDecompressedBytes: Int { archive.budget.limit }

    /// Whether the bundle has an entry named `entryName` (nothing is extracted).
    public func contains(_ entryName: String) -> Bool { indices[entryName] != nil }

    /// The size entry `entryName` declares (uncompressed), without extracting it; nil when there is none.
    /// Only a hint: extraction checks the real size.
    public func declaredSize(of entryName: String) -> Int? {
        indices[entryName].map { archive.entries[$0].uncompressedSize }
    }

    /// The bytes of entry `entryName`, extracted and checked on first use.
    /// - Parameter entryName: The entry's name in the zip directory.
    /// - Throws: `VisionTasksError.invalidBundle` naming the missing, corrupted or oversized entry and this bundle.
    public func data(named entryName: String) throws -> Data {
        guard let index = indices[entryName] else {
            throw VisionTasksError.invalidBundle(
                "\(name) has no entry \"\(entryName)\" (it has: \(fileNames.joined(separator: ", ")))")
        }
        return try archive.extract(index)
    }

    /// The nested bundle stored as entry `entryName` (a `.task` inside this one), sharing this bundle's limit.
    /// - Parameter entryName: The entry's name in the zip directory.
    /// - Throws: `VisionTasksError.invalidBundle` when the entry is missing or not a zip, or nests more than
    ///   `maxNesting` levels deep.
    public func bundle(named entryName: String) throws -> ModelBundle {
        guard depth < Self.maxNesting else {
            throw VisionTasksError.invalidBundle(
                "\(name)/\(entryName) is nested more than \(Self.maxNesting) bundles deep")
        }
        return try ModelBundle(
            data: try data(named: entryName), name: "\(name)/\(entryName)", budget: archive.budget, depth: depth + 1)
    }

    /// The model stored as entry `entryName`, parsed (files appended to it count against this bundle's limit).
    /// - Parameter entryName: The entry's name in the zip directory.
    /// - Throws: `VisionTasksError.invalidBundle` when missing, `.invalidModel` when malformed.
    public func model(named entryName: String) throws -> TFLiteModel {
        try TFLiteModel(data: try data(named: entryName), name: "\(name)/\(entryName)", inflateBudget: archive.budget)
    }

    /// Every file path, descending into nested `.task` bundles ("hand_landmarker.task/hand_detector.tflite");
    /// only the nested bundles are extracted.
    /// - Throws: `VisionTasksError.invalidBundle` when a nested bundle does not read.
    public func allFilePaths() throws -> [String] {
        var paths: [String] = []
        for entryName in fileNames {
            paths.append(entryName)
            if entryName.hasSuffix(".task") {
                paths += try bundle(named: entryName).allFilePaths().map { "\(entryName)/\($0)" }
            }
        }
        return paths
    }

    /// The bytes at `path`: an entry name, a path through nested bundles ("a.task/b.tflite"), or a file name
    /// found anywhere in the nested bundles when it is unique.
    /// - Parameter path: An entry name, a path through nested bundles, or a file name.
    /// - Throws: `VisionTasksError.invalidBundle` when nothing or more than one file matches.
    public func find(_ path: String) throws -> Data {
        if contains(path) { return try data(named: path) }
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        if parts.count == 2, contains(parts[0]), parts[0].hasSuffix(".task") {
            return try bundle(named: parts[0]).find(parts[1])
        }
        let all = try allFilePaths()
        let matches = all.filter { $0 == path || $0.hasSuffix("/" + path) }
        guard matches.count == 1, let match = matches.first else {
            let reason = matches.isEmpty ? "no entry" : "several entries (\(matches.joined(separator: ", ")))"
            throw VisionTasksError.invalidBundle(
                "\(name) has \(reason) matching \"\(path)\" (it has: \(all.joined(separator: ", ")))")
        }
        return try find(match)
    }
}

/// Reading model files from disk with `VisionTasksError`s that name the path.
public enum ModelFile {
    /// The bytes of the file at `path` (memory-mapped when safe).
    /// - Parameter path: The file; errors name it.
    /// - Throws: `VisionTasksError.fileNotFound`, or `.fileUnreadable` for a directory, anything else that is not
    ///   a regular file (a pipe, a device, a socket) or an I/O error.
    public static func read(_ path: String) throws -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw VisionTasksError.fileNotFound(path: path) }
            throw VisionTasksError.fileUnreadable(path: path, reason: String(cString: strerror(code)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw VisionTasksError.fileUnreadable(path: path, reason: "it is a directory")
        // An empty regular file: Foundation's Data(contentsOf:) leaks its 4 KB read buffer on a file whose
        // size is 0 (FoundationEssentials.readBytesFromFile, Swift 6.3.1), so it is not asked.
        case S_IFREG where status.st_size == 0: return Data()
        case S_IFREG: break
        // A named pipe would be waited on for a writer for ever, a device such as /dev/zero read without end.
        default:
            throw VisionTasksError.fileUnreadable(
                path: path, reason: "it is not a regular file (a pipe, a device or a socket)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw VisionTasksError.fileUnreadable(path: path, reason: error.localizedDescription)
        }
    }
}

extension TFLiteModel {
    /// Reads and parses the `.tflite` file at `path`; see `init(data:name:maxDecompressedBytes:)`.
    /// - Parameters:
    ///   - path: The `.tflite` file; error messages name the model by it.
    ///   - maxDecompressedBytes: The most bytes inflated from a zip of associated files appended to it.
    /// - Throws: `VisionTasksError.fileNotFound`, `.fileUnreadable` or `.invalidModel`.
    public init(
        contentsOfFile path: String,
        maxDecompressedBytes: Int = ModelBundle.defaultMaxDecompressedBytes
    ) throws {
        try self.init(data: try ModelFile.read(path), name: path, maxDecompressedBytes: maxDecompressedBytes)
    }
}
