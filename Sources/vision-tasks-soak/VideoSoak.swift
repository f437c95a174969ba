import Dispatch
import Foundation
import VideoIO
import VisionTasks

/// Part (b): one video file (made from `photo` with ffmpeg, panning and zooming) processed `passes`
/// times in one process, a new video-mode detector each pass. Checks: RSS after each pass flat
/// within 10% after 3 warm-up passes; every pass decodes every frame the file announces, in
/// timestamp order, with no frame lost; every pass gives the same results as the first.
struct VideoSoak {
    let model: String
    let photo: String
    let passes: Int
    let frames = 150

    func run() throws -> [String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("pan.mp4").path
        try Self.ffmpeg([
            "-framerate", "30", "-loop", "1", "-i", photo,
            "-vf", "zoompan=z='1+0.004*on':x='(iw-iw/zoom)*on/\(frames)':y='(ih-ih/zoom)/2':d=1:s=640x428:fps=30",
            "-frames:v", "\(frames)", "-c:v", "libx264", "-pix_fmt", "yuv420p", video,
        ])

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var first: [Data]?
        var rss: [Double] = []
        var failures: [String] = []
        for pass in 1...max(1, passes) {
            let started = DispatchTime.now().uptimeNanoseconds
            let reader = try VideoReader(contentsOfFile: video)
            let detector = try FaceDetector(
                options: FaceDetectorOptions(
                    baseOptions: BaseOptions(modelAssetPath: model), runningMode: .video))
            var results: [Data] = []
            var lastTimestamp = Int.min
            var outOfOrder = 0
            while let frame = try reader.nextFrame() {
                let result = try detector.detect(
                    videoFrame: frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
                if result.timestampInMilliseconds <= lastTimestamp { outOfOrder += 1 }
                lastTimestamp = result.timestampInMilliseconds
                results.append(try encoder.encode(result))
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            rss.append(Memory.residentMiB())
            let count = results.count
            say(
                String(
                    format: "video pass %2d: %d frames, %.2f s (%.1f frames/s), RSS %.1f MiB",
                    pass, count, seconds, Double(count) / seconds, rss.last ?? 0))
            if results.count != frames || reader.info?.frameCount != frames {
                failures.append(
                    "video pass \(pass): \(results.count) results for the \(reader.info?.frameCount ?? -1) frames announced (\(frames) written)"
                )
            }
            if outOfOrder > 0 { failures.append("video pass \(pass): \(outOfOrder) results out of timestamp order") }
            if let first {
                let differing = zip(first, results).filter { $0 != $1 }.count
                if differing > 0 || first.count != results.count {
                    failures.append("video pass \(pass): \(differing) results differ from the first pass")
                }
            } else {
                first = results
            }
        }
        let memory = Memory.flat(rss, warmup: min(3, max(0, rss.count - 1)), tolerance: 0.10, what: "video")
        say(memory.figures)
        if let failure = memory.failure { failures.append(failure) }
        return failures
    }

    /// Runs ffmpeg quietly; throws with what it said on stderr when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw VisionTasksError.invalidVideo("ffmpeg could not make the soak video: \(said)")
        }
    }
}
