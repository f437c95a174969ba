import FixtureSupport
import Foundation

/// Videos made during the tests with ffmpeg from the fixture photos (panned and zoomed).
enum TestVideos {
    static let fixtures = Fixture.directory.appendingPathComponent("images")

    /// A fresh scratch directory for one test.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("videoio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs ffmpeg with `arguments` (quiet, overwriting); throws with its stderr if it fails.
    static func ffmpeg(_ arguments: [String]) throws { try Tool.ffmpeg(arguments) }

    /// Runs `tool` from PATH with `arguments`; throws with its stderr if it fails.
    static func run(_ tool: String, _ arguments: [String]) throws { try Tool.system(tool, arguments) }

    /// A copy of `url` cut to its first half, as a download or copy that stopped midway leaves it.
    static func firstHalf(of url: URL, to copy: URL) throws {
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count / 2).write(to: copy)
    }

    /// `frames` frames at `rate` of `photo`, zooming in while panning left to right, `size` "WxH".
    static func panZoom(
        photo: String, frames: Int, rate: String, size: String, to url: URL,
        extra: [String] = []
    ) throws {
        let photoPath = fixtures.appendingPathComponent(photo).path
        try ffmpeg(
            [
                "-framerate", rate, "-loop", "1", "-i", photoPath,
                "-vf",
                "zoompan=z='1+0.01*on':x='(iw-iw/zoom)*on/\(frames)':y='(ih-ih/zoom)/2':d=1:s=\(size):fps=\(rate)",
                "-frames:v", "\(frames)", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            ] + extra + [url.path])
    }
}
