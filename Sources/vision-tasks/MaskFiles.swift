import Foundation
import VisionTasks

/// A result that carries segmentation masks the CLI can write as files (`--masks DIR`): the Pose
/// Landmarker's.
protocol MaskFileResult {
    /// The result with each mask written as an 8-bit grayscale PNG to `path(index)` (its folder made
    /// when missing) and named in the JSON instead of embedded; throws naming a file that cannot be written.
    func writingMasks(to path: (Int) -> String) throws -> Self
}

extension PoseLandmarkerResult: MaskFileResult {
    func writingMasks(to path: (Int) -> String) throws -> PoseLandmarkerResult {
        guard let masks = segmentationMasks else { return self }
        let written = try masks.enumerated().map { i, mask in
            var mask = mask
            mask.file = try MaskFiles.write(mask, to: path(i))
            return mask
        }
        return PoseLandmarkerResult(
            landmarks: landmarks, worldLandmarks: worldLandmarks, segmentationMasks: written,
            jointAngles: jointAngles, trackingIds: trackingIds, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// Where `--masks DIR` puts each mask, and the writing.
enum MaskFiles {
    /// An image's masks: DIR, then the image's path below its input folder without its extension
    /// (a file given alone: its name), "-", the pose's index, ".png" (`DIR/photos/a/x-0.png`).
    static func imagePath(folder: String, relativePath: String, index: Int) -> String {
        (folder as NSString).appendingPathComponent((relativePath as NSString).deletingPathExtension + "-\(index).png")
    }

    /// A video frame's masks: DIR/<video stem>-<frame index, 6 digits>-<pose index>.png.
    static func framePath(folder: String, video: String, frame: Int, index: Int) -> String {
        let stem = ((video as NSString).lastPathComponent as NSString).deletingPathExtension
        return (folder as NSString).appendingPathComponent(stem + "-" + String(format: "%06d", frame) + "-\(index).png")
    }

    /// `result` with its masks written under `folder` (nil: `result` as it is), at `path(folder, index)`.
    static func writing<Result>(_ result: Result, to folder: String?, path: (String, Int) -> String) throws -> Result {
        guard let folder, let maskable = result as? any MaskFileResult else { return result }
        return try maskable.writingMasks { path(folder, $0) } as? Result ?? result
    }

    /// Writes `mask`'s PNG to `path` whole (a temporary file renamed into place), making its folder;
    /// returns the path. Throws `invalidOption` naming `--masks` and the path when it cannot.
    static func write(_ mask: Mask, to path: String) throws -> String {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try mask.pngData().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch let error as VisionTasksError {
            throw error
        } catch {
            throw VisionTasksError.invalidOption(
                name: "--masks", reason: "cannot write \(path): \(error.localizedDescription)")
        }
        return path
    }
}
