import Foundation
import VisionErrors

/// A MediaPipe `.task` model bundle: a zip of `.tflite` models, nested `.task` bundles and other files.
public struct ModelBundle: Sendable {
    /// What the bundle is (its path, or its entry path inside an outer bundle), used in error messages.
    public let name: String
    /// The bundle's files by entry name.
    public let files: [String: Data]
    /// Entry names in archive order.
    public let fileNames: [String]

    /// Reads a bundle from zip bytes; `name` names it in error messages.
    /// - Throws: `VisionTasksError.invalidBundle` when `data` is not a readable zip or an entry is absurd.
    public init(data: Data, name: String = "model bundle") throws {
        let entries = try ZipReader.files(in: data, name: name)
        var files: [String: Data] = [:]
        var names: [String] = []
        for entry in entries {
            guard files[entry.name] == nil else {
                throw VisionTasksError.invalidBundle("\(name) has two entries named \"\(entry.name)\"")
            }
            files[entry.name] = entry.data
            names.append(entry.name)
        }
        self.name = name
        self.files = files
        self.fileNames = names
    }

    /// Reads the bundle file at `path`.
    /// - Throws: `VisionTasksError.fileNotFound`, `.fileUnreadable` or `.invalidBundle`.
    public init(contentsOfFile path: String) throws {
        try self.init(data: try ModelFile.read(path), name: path)
    }

    /// The bytes of entry `entryName`.
    /// - Throws: `VisionTasksError.invalidBundle` naming the missing entry and this bundle.
    public func data(named entryName: String) throws -> Data {
        guard let data = files[entryName] else {
            throw VisionTasksError.invalidBundle(
                "\(name) has no entry \"\(entryName)\" (it has: \(fileNames.joined(separator: ", ")))")
        }
        return data
    }

    /// The nested bundle stored as entry `entryName` (a `.task` inside this one).
    /// - Throws: `VisionTasksError.invalidBundle` when the entry is missing or not a zip.
    public func bundle(named entryName: String) throws -> ModelBundle {
        try ModelBundle(data: try data(named: entryName), name: "\(name)/\(entryName)")
    }

    /// The model stored as entry `entryName`, parsed.
    /// - Throws: `VisionTasksError.invalidBundle` when missing, `.invalidModel` when malformed.
    public func model(named entryName: String) throws -> TFLiteModel {
        try TFLiteModel(data: try data(named: entryName), name: "\(name)/\(entryName)")
    }

    /// Every file path, descending into nested `.task` bundles ("hand_landmarker.task/hand_detector.tflite").
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
    /// - Throws: `VisionTasksError.invalidBundle` when nothing or more than one file matches.
    public func find(_ path: String) throws -> Data {
        if let data = files[path] { return data }
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        if parts.count == 2, files[parts[0]] != nil, parts[0].hasSuffix(".task") {
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
    /// - Throws: `VisionTasksError.fileNotFound` or `.fileUnreadable`.
    public static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw VisionTasksError.fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else {
            throw VisionTasksError.fileUnreadable(path: path, reason: "it is a directory")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw VisionTasksError.fileUnreadable(path: path, reason: error.localizedDescription)
        }
    }
}

extension TFLiteModel {
    /// Reads and parses the `.tflite` file at `path`.
    /// - Throws: `VisionTasksError.fileNotFound`, `.fileUnreadable` or `.invalidModel`.
    public init(contentsOfFile path: String) throws {
        try self.init(data: try ModelFile.read(path), name: path)
    }
}
