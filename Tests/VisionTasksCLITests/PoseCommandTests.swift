import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// `vision-tasks pose-landmarker`, run as a user runs it: JSON lines, masks written as PNG files
/// where `--masks` says (mirroring a folder's tree as `--annotate` does), CSV with the joint angles,
/// and the usage errors of `--masks`.
@Suite
struct PoseCommandTests {
    private var model: String { CLIRun.models.appendingPathComponent("pose_landmarker_full.task").path }
    private struct Line: Decodable {
        let input: String
        let result: PoseLandmarkerResult
    }

    @Test func masksGoToFilesNamedInTheJSONLines() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A folder with a sub-folder: the masks mirror its tree.
        let photos = scratch.appendingPathComponent("photos"), sub = photos.appendingPathComponent("pairs")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg"),
            to: photos.appendingPathComponent("woman.jpg"))
        try FileManager.default.copyItem(
            atPath: Fixture.path("references/pose/images/two_people.png"),
            toPath: sub.appendingPathComponent("two.png").path)
        let masks = scratch.appendingPathComponent("masks").path
        let run = try CLIRun.run([
            "pose-landmarker", "--model", model, "--num-poses", "2", "--output-segmentation-masks",
            "--output-joint-angles", "--masks", masks, photos.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.outputLines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        try #require(lines.count == 2)
        let expected = [["pairs/two-0.png", "pairs/two-1.png"], ["woman-0.png"]]
        for (line, names) in zip(lines, expected) {
            let files = try #require(line.result.segmentationMasks).map { $0.file ?? "" }
            #expect(files == names.map { (masks as NSString).appendingPathComponent($0) }, "\(line.input)")
            for (mask, file) in zip(line.result.segmentationMasks ?? [], files) {
                // The file is the mask: an 8-bit gray PNG of the input's size, read back by the decoder.
                let image = try MPImage(contentsOfFile: file)
                #expect(image.width == mask.width && image.height == mask.height && image.bufferFormat == .gray8)
            }
            #expect(line.result.jointAngles?.count == line.result.landmarks.count)
        }
        // The JSON line names the file and holds no PNG.
        #expect(run.stdout.contains(#""file":""#) && !run.stdout.contains(#""png":""#))
    }

    @Test func withoutMasksFolderTheMaskIsAnEmbeddedPNG() throws {
        let photo = CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg").path
        let run = try CLIRun.run(["pose-landmarker", "--model", model, "--output-segmentation-masks", photo])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try JSONDecoder().decode(Line.self, from: Data((run.outputLines.first ?? "").utf8))
        let mask = try #require(line.result.segmentationMasks?.first)
        #expect(mask.width == 960 && mask.height == 640 && mask.file == nil)
        #expect(mask.float32Data.contains { $0 > 0.9 } && mask.float32Data.contains { $0 < 0.1 })
    }

    @Test func csvHasTheJointAnglesAndLandmarks() throws {
        let photo = CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg").path
        let run = try CLIRun.run([
            "pose-landmarker", "--model", model, "--output-joint-angles", "--format", "csv", photo,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.outputLines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        try #require(rows.count == 2)
        let header = rows[0], row = rows[1]
        #expect(header.count == row.count)
        for name in ["leftKnee", "rightElbow", "x32", "visibility0", "presence32", "world_z32"] {
            #expect(header.contains(name), "no \(name) column")
        }
        let knee = try #require(header.firstIndex(of: "leftKnee"))
        let degrees = try #require(Float(row[knee]))
        #expect(degrees > 0 && degrees <= 180)
    }

    @Test func masksOptionIsAUsageErrorWhereItCannotApply() throws {
        let photo = CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg").path
        let noMasks = try CLIRun.run(["pose-landmarker", "--model", model, "--masks", "/tmp/unused-masks", photo])
        #expect(noMasks.status == 64 && noMasks.stderr.contains("add --output-segmentation-masks"), "\(noMasks.stderr)")
        let hands = try CLIRun.run([
            "hand-landmarker", "--model", CLIRun.models.appendingPathComponent("hand_landmarker.task").path,
            "--masks", "/tmp/unused-masks", photo,
        ])
        #expect(hands.status == 64 && hands.stderr.contains("outputs no segmentation masks"), "\(hands.stderr)")
        // A folder that cannot be made: refused before any image, naming --masks and the path.
        let blocked = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: blocked) }
        let file = blocked.appendingPathComponent("taken")
        try Data("x".utf8).write(to: file)
        let run = try CLIRun.run([
            "pose-landmarker", "--model", model, "--output-segmentation-masks",
            "--masks", file.appendingPathComponent("sub").path, photo,
        ])
        // Before any image is read: one error line.
        #expect(
            run.status == 1 && run.stderr.contains("Invalid option --masks: \(file.path)/sub cannot be made: ")
                && run.stderr.contains("taken is a file, not a folder") && run.lines.isEmpty, "\(run.stderr)")
    }
}
