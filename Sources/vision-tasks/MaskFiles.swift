import Foundation
import VisionTasks

/// A result that carries masks the CLI can write as files (`--masks DIR`): the Pose Landmarker's segmentation
/// masks, the Image Segmenter's confidence and category masks.
protocol MaskFileResult {
    /// The task's bool option that must be on for the result to hold masks (nil: it holds them by default).
    static var maskOption: String? { get }
    /// The result with each mask written as an 8-bit grayscale PNG to `path(name)` (its folder made when
    /// missing; `name` tells the mask from the result's others) and named in the JSON instead of embedded;
    /// throws naming a file that cannot be written.
    func writingMasks(to path: (String) throws -> String) throws -> Self
}

extension Mask {
    /// The mask written to `path` (`MaskFiles.write`) and naming it.
    fileprivate func written(to path: String) throws -> Mask {
        var mask = self
        mask.file = try MaskFiles.write(self, to: path)
        return mask
    }
}

extension PoseLandmarkerResult: MaskFileResult {
    static var maskOption: String? { "output-segmentation-masks" }

    /// Pose k's mask goes to `path("k")`.
    func writingMasks(to path: (String) throws -> String) throws -> PoseLandmarkerResult {
        guard let masks = segmentationMasks else { return self }
        let written = try masks.enumerated().map { i, mask in try mask.written(to: path("\(i)")) }
        return PoseLandmarkerResult(
            landmarks: landmarks, worldLandmarks: worldLandmarks, segmentationMasks: written,
            jointAngles: jointAngles, trackingIds: trackingIds, timestampInMilliseconds: timestampInMilliseconds)
    }
}

extension ImageSegmenterResult: MaskFileResult {
    /// Confidence masks are on by default (and the task refuses to output neither).
    static var maskOption: String? { nil }

    /// Label k's confidence mask goes to `path("k")` (round(255·p)), the category mask to `path("category")`.
    func writingMasks(to path: (String) throws -> String) throws -> ImageSegmenterResult {
        ImageSegmenterResult(
            confidenceMasks: try confidenceMasks?.enumerated().map { k, mask in try mask.written(to: path("\(k)")) },
            categoryMask: try categoryMask?.written(to: path("category")), qualityScores: qualityScores,
            timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// Where `--masks DIR` puts each mask, and the writing.
enum MaskFiles {
    /// An image's masks: DIR, then `stem` (`stems`), "-", the mask's name (a pose's or label's index, or
    /// "category"), ".png" (`DIR/photos/a/x-0.png`).
    static func imagePath(folder: String, stem: String, name: String) -> String {
        (folder as NSString).appendingPathComponent(stem + "-\(name).png")
    }

    /// The stems of the images at `relativePaths` (distinct: each input's path below its input folder; a file given
    /// alone, its name): the path without its extension, or whole where another path shares that or is that
    /// (`x.jpg` and `x.png` write `x.jpg-0.png` and `x.png-0.png`, not both `x-0.png`). Distinct: a bare stem is kept
    /// only when no other path has it bare or whole.
    static func stems(of relativePaths: [String]) -> [String: String] {
        let bare = relativePaths.map { ($0, ($0 as NSString).deletingPathExtension) }
        let counts = Dictionary(bare.map { ($0.1, 1) }, uniquingKeysWith: +), whole = Set(relativePaths)
        return Dictionary(
            bare.map { path, stem in (path, counts[stem, default: 0] > 1 || whole.contains(stem) ? path : stem) },
            uniquingKeysWith: { first, _ in first })
    }

    /// A video frame's masks: DIR/<video stem>-<frame index, 6 digits>-<mask's name>.png.
    static func framePath(folder: String, video: String, frame: Int, name: String) -> String {
        let stem = ((video as NSString).lastPathComponent as NSString).deletingPathExtension
        return (folder as NSString).appendingPathComponent(stem + "-" + String(format: "%06d", frame) + "-\(name).png")
    }

    /// `result` with its masks written under `folder` (nil: `result` as it is), at `path(folder, name)`.
    static func writing<Result>(_ result: Result, to folder: String?, path: (String, String) throws -> String) throws
        -> Result
    {
        guard let folder, let maskable = result as? any MaskFileResult else { return result }
        return try maskable.writingMasks { try path(folder, $0) } as? Result ?? result
    }

    /// Writes `mask`'s PNG to `path` whole (`OutputFile`), making its folder;
    /// returns the path. Throws `invalidOption` naming `--masks` and the path when it cannot.
    static func write(_ mask: Mask, to path: String) throws -> String {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, let problem = OutputFiles.makeFolder(folder) {
            throw VisionTasksError.invalidOption(name: "--masks", reason: "cannot write \(path): \(problem)")
        }
        try OutputFiles.write(try mask.pngData(), to: path, option: "--masks")
        return path
    }
}
