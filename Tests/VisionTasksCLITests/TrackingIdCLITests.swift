import Foundation
import Testing

/// Tracking ids on a video made from the fixtures with ffmpeg (issue 27 item 5): the astronaut's head
/// twice side by side (the right one mirrored), the right one covered by a grey box for half a
/// second. Through the built tool, Face Detector and Face Landmarker: the left face keeps one id, the
/// right one keeps its id until it is covered and takes a new one when it comes back. Exact.
@Suite(.serialized) struct TrackingIdCLITests {
    /// 25 frames at 10 fps, 640×320; the right face is covered from 1 s to 1.5 s.
    static func twoFacesVideo(in dir: URL) throws -> URL {
        let video = dir.appendingPathComponent("two-faces.mp4")
        let astronaut = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        try CLIRun.ffmpeg([
            "-loop", "1", "-i", astronaut, "-loop", "1", "-i", astronaut, "-filter_complex",
            "[0:v]crop=200:200:125:30[l];[1:v]crop=200:200:125:30,hflip[r];[l][r]hstack,scale=640:320,"
                + "drawbox=x=320:y=0:w=320:h=320:color=gray:t=fill:enable='between(t,1,1.5)'",
            "-t", "2.5", "-r", "10", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", video.path,
        ])
        return video
    }

    /// Per frame, the ids of the faces left and right of the middle, from the CSV rows' x of the face
    /// (the Face Detector's box centre in pixels, or the Face Landmarker's nose tip, landmark 1).
    static func sides(_ csv: String, x: (([String: String]) -> Double?)) throws -> [(left: String?, right: String?)] {
        let rows = CSVCLITests.parse(csv)
        let header = try #require(rows.first)
        var frames: [Int: (left: String?, right: String?)] = [:]
        for cells in rows.dropFirst() {
            let row = Dictionary(uniqueKeysWithValues: zip(header, cells))
            let frame = try #require(Int(row["frame"] ?? ""))
            var entry = frames[frame] ?? (nil, nil)
            if row["success"] == "1", let position = x(row) {
                if position < 0.5 { entry.left = row["id"] } else { entry.right = row["id"] }
            }
            frames[frame] = entry
        }
        return frames.keys.sorted().compactMap { frames[$0] }
    }

    @Test(arguments: ["face-detector", "face-landmarker"])
    func aFaceThatLeavesAndComesBackTakesANewId(task: String) throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = try Self.twoFacesVideo(in: dir)
        let model = task == "face-detector" ? "blaze_face_short_range.tflite" : "face_landmarker.task"
        let faces = task == "face-landmarker" ? ["--num-faces", "2"] : []
        let run = try CLIRun.run(
            [
                task, "--model", CLIRun.models.appendingPathComponent(model).path, "--video", video.path,
                "--format", "csv",
            ] + faces)
        #expect(run.status == 0, "\(run.stderr)")
        let perFrame = try Self.sides(run.stdout) { row in
            task == "face-detector"
                ? Double(row["box_origin_x"] ?? "").flatMap { x in
                    Double(row["box_width"] ?? "").map { (x + $0 / 2) / 640 }
                }
                : Double(row["x1"] ?? "")
        }
        let text = perFrame.map { "\($0.left ?? "-")/\($0.right ?? "-")" }.joined(separator: " ")
        print("tracking ids, \(task), ffmpeg video of two faces, the right one covered for 0.5 s: \(text)")
        #expect(perFrame.count == 25)
        let left = Set(perFrame.map(\.left)), right = perFrame.map(\.right)
        let gone = right.indices.filter { right[$0] == nil }
        #expect(left == ["0"], "\(task): \(text)")
        // One run of frames without the right face, between one id before and another after.
        #expect(!gone.isEmpty && gone == Array((gone.first ?? 0)...(gone.last ?? 0)), "\(task): \(text)")
        #expect(
            Set(right.prefix(gone.first ?? 0)) == ["1"] && Set(right.suffix(from: (gone.last ?? 0) + 1)) == ["2"],
            "\(task): \(text)")
    }
}
