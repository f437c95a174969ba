import Foundation
import TFLite
import VisionErrors

// The one path from a task's model asset to its models: the asset read as a `.task` bundle (a
// zip) whose entries are checked and named in errors, or, for the Face Detector, a bare `.tflite`.

extension ModelBundle {
    /// The asset `data` (`name` in errors) as the `.task` bundle `task` needs ("HandLandmarker"),
    /// inflating at most `maxDecompressedBytes`. Throws `invalidBundle` when it is not one (a bare `.tflite`, say).
    static func taskBundle(_ data: Data, name: String, task: String, maxDecompressedBytes: Int) throws -> ModelBundle {
        guard !isTFLiteModel(data) else {
            throw VisionTasksError.invalidBundle(
                "\(name) is not a .task bundle, which \(task) needs: it is a single .tflite model")
        }
        do {
            return try ModelBundle(data: data, name: name, maxDecompressedBytes: maxDecompressedBytes)
        } catch {
            throw VisionTasksError.invalidBundle("\(name) is not a .task bundle, which \(task) needs (\(error))")
        }
    }

    /// A single-model task's model: the asset itself when it is a `.tflite` (file identifier
    /// "TFL3"), else entry `entry` of the `.task` bundle it is (inflating at most
    /// `maxDecompressedBytes`). Throws `invalidModel` when it is neither.
    static func taskModel(_ data: Data, name: String, entry: String, maxDecompressedBytes: Int) throws -> TFLiteModel {
        if isTFLiteModel(data) {
            return try TFLiteModel(data: data, name: name, maxDecompressedBytes: maxDecompressedBytes)
        }
        let bundle: ModelBundle
        do {
            bundle = try ModelBundle(data: data, name: name, maxDecompressedBytes: maxDecompressedBytes)
        } catch {
            throw VisionTasksError.invalidModel(
                "\(name) is neither a TFLite model (no TFL3 file identifier) nor a .task bundle (\(error))")
        }
        return try bundle.model(named: entry)
    }

    /// A task's one `.tflite` model (the Image Segmenter's, whose asset is never a bundle), `task` naming it in the
    /// error for a `.task` bundle given instead (the reader's own words were `file identifier is "????"`).
    static func singleModel(_ data: Data, name: String, task: String, maxDecompressedBytes: Int) throws -> TFLiteModel {
        if !isTFLiteModel(data),
            (try? ModelBundle(data: data, name: name, maxDecompressedBytes: maxDecompressedBytes)) != nil
        {
            throw VisionTasksError.invalidModel(
                "\(name) is a .task bundle (a zip); \(task) takes a single .tflite model, such as selfie_segmenter.tflite"
            )
        }
        return try TFLiteModel(data: data, name: name, maxDecompressedBytes: maxDecompressedBytes)
    }

    /// Whether `data` is a `.tflite` model (FlatBuffer file identifier "TFL3").
    private static func isTFLiteModel(_ data: Data) -> Bool {
        data.count >= 8 && data.dropFirst(4).prefix(4).elementsEqual("TFL3".utf8)
    }

    /// Requires every one of `entries`, the files a `kind` bundle holds ("hand landmarker"). Throws
    /// `invalidBundle` naming the bundle (`name`), the first missing entry, and the files it has.
    package func requireEntries(_ entries: [String], kind: String, name: String) throws {
        for entry in entries where !contains(entry) {
            throw VisionTasksError.invalidBundle(
                "\(name) has no \(entry); a \(kind) bundle holds \(entries.joined(separator: " and ")) (has: \(fileNames.joined(separator: ", ")))"
            )
        }
    }
}
