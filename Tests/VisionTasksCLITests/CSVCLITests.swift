import FixtureSupport
import Foundation
import Testing

/// `--format csv` end to end through the built tool (issue 27): the header, one row per face or hand
/// (and one with success 0 for an image or frame with none), values equal to the JSON lines', and the
/// batch options (`--output`/`--resume`, `--input-list`, `--shard`, `--video-list`). Exact: the cells
/// are the JSON's numbers as text.
@Suite(.serialized) struct CSVCLITests {
    static let faceModel = CLIRun.models.appendingPathComponent("face_landmarker.task").path
    static let detectorModel = CLIRun.models.appendingPathComponent("blaze_face_short_range.tflite").path
    static let handModel = CLIRun.models.appendingPathComponent("hand_landmarker.task").path

    /// A CSV text's rows, each a list of cells (RFC 4180 quoting), read scalar by scalar: a CR LF inside a quoted
    /// cell stays in it, and one outside it ends its row as a lone LF does.
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], cell = String.UnicodeScalarView(), quoted = false
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            if quoted {
                if c == "\"" {
                    if scalars.first == "\"" {
                        cell.append("\"")
                        scalars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(String(cell))
                cell = String.UnicodeScalarView()
            } else if c == "\n" || (c == "\r" && scalars.first == "\n") {
                if c == "\r" { scalars.removeFirst() }
                row.append(String(cell))
                rows.append(row)
                row = []
                cell = String.UnicodeScalarView()
            } else {
                cell.append(c)
            }
        }
        return rows
    }

    /// The rows as dictionaries by column name; checks every row has the header's width.
    static func table(_ text: String) throws -> (header: [String], rows: [[String: String]]) {
        let rows = parse(text)
        let header = try #require(rows.first, "no header")
        #expect(rows.dropFirst().allSatisfy { $0.count == header.count }, "rows must have \(header.count) cells")
        return (header, rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }

    static func float(_ any: Any?) -> Float? { (any as? NSNumber)?.floatValue }

    @Test func faceLandmarkerRowsEqualTheJSONLines() throws {
        let images = ["astronaut.png", "woman_sitting.jpg", "hand_thumb_up.jpg"].map {
            CLIRun.fixtures.appendingPathComponent($0).path
        }
        let options =
            [
                "face-landmarker", "--model", Self.faceModel, "--num-faces", "2", "--output-face-blendshapes",
                "--output-head-poses", "--output-facial-transformation-matrixes",
            ] + images
        let json = try CLIRun.run(options)
        let csv = try CLIRun.run(options + ["--format", "csv"])
        #expect(json.status == 0 && csv.status == 0, "\(csv.stderr)")
        let (header, rows) = try Self.table(csv.stdout)
        #expect(
            Array(header.prefix(10)) == [
                "input", "frame", "timestamp_ms", "success", "error", "index", "id", "yaw", "pitch", "roll",
            ])
        #expect(header[10] == "matrix0" && header[25] == "matrix15")
        #expect(
            header[26] == "_neutral" && header[77] == "noseSneerRight" && header[78] == "x0" && header.last == "z477")
        #expect(header.count == 10 + 16 + 52 + 478 * 3)
        var expectedRows = 0
        for line in json.lines {
            let input = try #require(line["input"] as? String)
            let result = try #require(line["result"] as? [String: Any])
            let faces = try #require(result["faceLandmarks"] as? [[[String: Any]]])
            let poses = try #require(result["headPoses"] as? [[String: Any]])
            let blendshapes = try #require(result["faceBlendshapes"] as? [[String: Any]])
            let matrices = try #require(result["facialTransformationMatrixes"] as? [[String: Any]])
            let mine = rows.filter { $0["input"] == input }
            expectedRows += max(faces.count, 1)
            if faces.isEmpty {
                #expect(
                    mine.count == 1 && mine[0]["success"] == "0" && mine[0]["x0"] == "" && mine[0]["index"] == "",
                    "\(input)")
                continue
            }
            #expect(
                mine.count == faces.count
                    && mine.allSatisfy { $0["success"] == "1" && $0["id"] == "" && $0["frame"] == "" })
            for (i, row) in mine.enumerated() {
                #expect(row["index"] == String(i))
                for k in [0, 1, 477] {
                    #expect(
                        Float(row["x\(k)"] ?? "") == Self.float(faces[i][k]["x"])
                            && Float(row["z\(k)"] ?? "") == Self.float(faces[i][k]["z"]))
                }
                for angle in ["yaw", "pitch", "roll"] {
                    #expect(Float(row[angle] ?? "") == Self.float(poses[i][angle]), "\(input) face \(i) \(angle)")
                }
                let data = try #require(matrices[i]["data"] as? [Any])
                #expect(data.count == 16)
                for k in 0..<16 {
                    #expect(Float(row["matrix\(k)"] ?? "") == Self.float(data[k]), "\(input) face \(i) matrix\(k)")
                }
                let categories = try #require(blendshapes[i]["categories"] as? [[String: Any]])
                for category in categories {
                    let name = try #require(category["categoryName"] as? String)
                    #expect(Float(row[name] ?? "") == Self.float(category["score"]), "\(name)")
                }
            }
        }
        #expect(rows.count == expectedRows && expectedRows >= 3, "a row per face and one for the image without")
    }

    @Test func videoRowsCarryFramesTimestampsAndIds() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("hand.mp4")
        try CLIRun.stillVideo(of: "hand_thumb_up.jpg", frames: 3, fps: 10, size: "640x520", to: video)
        let options = ["hand-landmarker", "--model", Self.handModel, "--video", video.path]
        let json = try CLIRun.run(options)
        let csv = try CLIRun.run(options + ["--format", "csv"])
        #expect(json.status == 0 && csv.status == 0, "\(csv.stderr)")
        let (header, rows) = try Self.table(csv.stdout)
        #expect(header.contains("handedness") && header.contains("world_z20"))
        #expect(rows.count == json.lines.count && rows.count == 3)
        for (row, line) in zip(rows, json.lines) {
            let result = try #require(line["result"] as? [String: Any])
            let hand = try #require((result["landmarks"] as? [[[String: Any]]])?.first)
            #expect(row["frame"] == (line["frame"] as? Int).map(String.init))
            #expect(row["timestamp_ms"] == (result["timestampInMilliseconds"] as? Int).map(String.init))
            #expect(row["id"] == "0" && (result["trackingIds"] as? [Int]) == [0])
            #expect(Float(row["x8"] ?? "") == Self.float(hand[8]["x"]))
        }
    }

    @Test func fileNamesWithLineBreaksQuotesAndCommasStayInTheirCell() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // "\r\n" is one Character in Swift: a check by Character never sees its "\n".
        let names = ["a\r\nb.png", "c\rd.png", "e\nf.png", "g\"h,i.png"]
        let images = try names.map { name in
            let target = dir.appendingPathComponent(name)
            try FileManager.default.copyItem(at: CLIRun.fixtures.appendingPathComponent("astronaut.png"), to: target)
            return target.path
        }
        let run = try CLIRun.run(["face-detector", "--model", Self.detectorModel, "--format", "csv"] + images)
        #expect(run.status == 0, "\(run.stderr)")
        let (_, rows) = try Self.table(run.stdout)
        #expect(rows.map { $0["input"] ?? "" } == images)
        // Quoted, each: the parser would keep a lone CR of an unquoted cell in its cell too.
        #expect(images.allSatisfy { run.stdout.contains("\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"") })
        // And read back by --resume, row by row (a newline inside quotes is no row's end): nothing to redo.
        let out = dir.appendingPathComponent("faces.csv")
        let base = ["face-detector", "--model", Self.detectorModel, "--format", "csv", "--output", out.path]
        let first = try CLIRun.run(base + images)
        let whole = try String(contentsOf: out, encoding: .utf8)
        let again = try CLIRun.run(base + ["--resume"] + images)
        #expect(first.status == 0 && again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8) == whole)
        #expect(again.stderr.contains("0 processed, 4 skipped"), "\(again.stderr)")
    }

    @Test func batchOptionsWriteOneTableAndResumeIt() throws {
        let dir = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let images = try ["astronaut.png", "hand_thumb_up.jpg", "woman_sitting.jpg"].map { name in
            let target = dir.appendingPathComponent("a,\(name)") // a comma, to be quoted
            try FileManager.default.copyItem(at: CLIRun.fixtures.appendingPathComponent(name), to: target)
            return target.path
        }
        let list = dir.appendingPathComponent("list.txt")
        try (images.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("faces.csv")
        let base = ["face-detector", "--model", Self.detectorModel, "--format", "csv", "--output", out.path]
        // Two shards into one file: one header, every input once.
        for shard in ["0/2", "1/2"] {
            let run = try CLIRun.run(base + ["--input-list", list.path, "--shard", shard])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let whole = try String(contentsOf: out, encoding: .utf8)
        let (_, rows) = try Self.table(whole)
        #expect(Set(rows.compactMap { $0["input"] }) == Set(images))
        #expect(whole.components(separatedBy: "input,frame").count == 2, "one header")
        // Resume: nothing to redo; a cut last row is removed and its input redone.
        let again = try CLIRun.run(base + ["--input-list", list.path, "--resume"])
        let afterResume = try String(contentsOf: out, encoding: .utf8)
        #expect(again.status == 0 && afterResume == whole, "\(again.stderr)")
        let cut = Data(whole.utf8).dropLast(5)
        try Data(cut).write(to: out)
        let redone = try CLIRun.run(base + ["--input-list", list.path, "--resume"])
        #expect(redone.status == 0 && redone.stderr.contains("removed 1 line"), "\(redone.stderr)")
        #expect(
            Set(try Self.table(String(contentsOf: out, encoding: .utf8)).rows.map { $0["input"] ?? "" }) == Set(images))
        #expect(try Self.table(String(contentsOf: out, encoding: .utf8)).rows.count == rows.count)
        // An image's rows are one write: whole rows of the last image before a cut one of the same image (a kill, a
        // full disk part way through it) are redone with it. They were kept, and the image's other faces lost.
        let lastRow = try #require(whole.dropLast().split(separator: "\n", omittingEmptySubsequences: false).last)
        try Data((whole + lastRow + "\n" + lastRow.dropLast(3)).utf8).write(to: out)
        let regrouped = try CLIRun.run(base + ["--input-list", list.path, "--resume"])
        #expect(regrouped.status == 0 && regrouped.stderr.contains("removed 3 line"), "\(regrouped.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8) == whole)
        // A write that fails part way (here the file size limit, as a full disk; the image has a face, so its row is
        // longer than the 12,000 bytes less the header) is taken back: the file ends after the header, and --resume
        // goes on from there. The row's first bytes were kept, and the next run's first line glued to them.
        let limited = dir.appendingPathComponent("limited.csv")
        let landmarks = [
            "face-landmarker", "--model", Self.faceModel, "--format", "csv", "--output", limited.path, images[0],
        ]
        let sizeLimited = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/prlimit"), ["--fsize=12000", CLIRun.binary.path] + landmarks)
        #expect(sizeLimited.status == 1 && sizeLimited.stderr.contains("File too large"), "\(sizeLimited.stderr)")
        let kept = try Data(contentsOf: limited)
        #expect(
            kept.last == UInt8(ascii: "\n") && String(decoding: kept, as: UTF8.self).hasPrefix("input,frame,")
                && kept.filter { $0 == UInt8(ascii: "\n") }.count == 1, "\(kept.count) bytes kept")
        let finished = try CLIRun.run(landmarks + ["--resume"])
        #expect(finished.status == 0 && finished.stderr.contains("1 processed"), "\(finished.stderr)")
        // Another task's table is not appended to.
        let other = try CLIRun.run([
            "hand-landmarker", "--model", Self.handModel, "--format", "csv", "--output", out.path, images[0],
        ])
        #expect(other.status != 0 && other.stderr.contains("CSV header"), "\(other.stderr)")

        // --video-list: frame rows, then a closing row without a frame per video.
        let video = dir.appendingPathComponent("face.mp4")
        try CLIRun.stillVideo(of: "astronaut.png", frames: 2, fps: 10, to: video)
        let videos = dir.appendingPathComponent("videos.txt")
        try (video.path + "\n").write(to: videos, atomically: true, encoding: .utf8)
        let run = try CLIRun.run([
            "face-detector", "--model", Self.detectorModel, "--format", "csv", "--video-list", videos.path,
        ])
        let (_, videoRows) = try Self.table(run.stdout)
        #expect(
            videoRows.map { $0["frame"] ?? "?" } == ["0", "1", ""]
                && videoRows.map { $0["id"] ?? "?" } == ["0", "0", ""],
            "\(run.stdout.prefix(300))")
        // The closing row says whether every frame went through (it said 0, as for a frame with no face); not 1,
        // which says a face is on the row.
        #expect(videoRows.last?["success"] == "" && videoRows.last?["error"] == "", "\(videoRows.last ?? [:])")
        // A frame that fails keeps its timestamp in its row, and the closing row counts it.
        let fast = dir.appendingPathComponent("fast.mp4")
        try CLIRun.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=96x64:r=2000", "-frames:v", "4", "-c:v", "libx264", "-pix_fmt",
            "yuv420p", fast.path,
        ])
        try (fast.path + "\n").write(to: videos, atomically: true, encoding: .utf8)
        let failing = try CLIRun.run([
            "face-detector", "--model", Self.detectorModel, "--format", "csv", "--video-list", videos.path,
        ])
        let (_, failingRows) = try Self.table(failing.stdout)
        let failed = failingRows.filter { !($0["error"] ?? "").isEmpty && !($0["frame"] ?? "").isEmpty }
        #expect(failed.map { $0["frame"] ?? "?" } == ["2"] && failed.map { $0["timestamp_ms"] ?? "?" } == ["1"])
        #expect(
            failingRows.last?["success"] == "0" && failingRows.last?["error"] == "1 of 4 frames failed",
            "\(failingRows.last ?? [:])")
    }
}
