import Foundation
import TFLite
import VisionErrors

extension FuzzTargets {
    /// Writes each target's seeds from the fetched models and the fixture images into `directory/<target>/`
    /// (done at run time: the models are not committed). Throws when the models or fixtures are missing.
    public static func writeSeeds(to directory: String) throws {
        let images = TaskAssets.path("Tests/Fixtures/images")
        var seeds: [String: [(name: String, data: Data)]] = [:]
        // Images: every JPEG and PNG fixture.
        let enumerator = FileManager.default.enumerator(atPath: images)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".jpg") || relative.hasSuffix(".png") else { continue }
            seeds["image", default: []].append(
                (
                    relative.replacingOccurrences(of: "/", with: "-"),
                    try ModelFile.read((images as NSString).appendingPathComponent(relative))
                ))
        }
        // Bundles whole, and every model and the geometry file inside them.
        for name in ["face_landmarker.task", "hand_landmarker.task", "gesture_recognizer.task"] {
            let data = try ModelFile.read(TaskAssets.path("models/\(name)"))
            seeds["bundle", default: []].append((name, data))
            let bundle = try ModelBundle(data: data, name: name)
            for path in try bundle.allFilePaths() {
                let flat = "\(name)-\(path.replacingOccurrences(of: "/", with: "-"))"
                if path.hasSuffix(".tflite") { seeds["tflite", default: []].append((flat, try bundle.find(path))) }
                if path.hasSuffix(".binarypb") { seeds["geometry", default: []].append((flat, try bundle.find(path))) }
            }
        }
        // The full-range face detector, whose fp16 weights are sparse tensors behind DENSIFY.
        let sparse = "face_detection_full_range_sparse.tflite"
        seeds["tflite", default: []].append((sparse, try ModelFile.read(TaskAssets.path("models/\(sparse)"))))
        // The task target: each slot's selector byte and the real entry.
        guard let assets = TaskAssets.shared else {
            throw VisionTasksError.fileNotFound(path: TaskAssets.path("models"))
        }
        for (index, slot) in TaskAssets.slots.enumerated() {
            seeds["task", default: []].append(("\(index)-\(slot.entry)", try assets.seed(index)))
        }
        for target in all {
            let folder = (directory as NSString).appendingPathComponent(target.name)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for seed in seeds[target.name] ?? [] {
                try seed.data.write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(seed.name)))
            }
        }
    }
}
