import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// `vision-tasks image-segmenter`, run as a user runs it: masks embedded in the JSON lines, or written as PNG
/// files where `--masks` says and named in the JSON (`confidenceMasks[k].file`, `categoryMask.file`), and the
/// same results as the library's.
@Suite
struct ImageSegmenterCommandTests {
    private var model: String { CLIRun.models.appendingPathComponent("selfie_segmenter.tflite").path }
    private struct Line: Decodable {
        let input: String
        let result: ImageSegmenterResult
    }

    @Test func masksGoToFilesNamedInTheJSONLinesAndEqualTheEmbeddedOnes() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photo = CLIRun.fixtures.appendingPathComponent("woman_sitting.jpg").path
        let embedded = try CLIRun.run(["image-segmenter", "--model", model, "--output-category-mask", photo])
        #expect(embedded.status == 0, "\(embedded.stderr)")
        let masks = scratch.appendingPathComponent("masks").path
        let filed = try CLIRun.run([
            "image-segmenter", "--model", model, "--output-category-mask", "--masks", masks, photo,
        ])
        #expect(filed.status == 0, "\(filed.stderr)")
        let inline = try JSONDecoder().decode(Line.self, from: Data((embedded.outputLines.first ?? "").utf8)).result
        let named = try JSONDecoder().decode(Line.self, from: Data((filed.outputLines.first ?? "").utf8)).result
        // The library's result on the same photo: the tool's masks are its masks, as 8-bit PNGs.
        let library = try ImageSegmenter(modelPath: model)
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = model
        options.shouldOutputCategoryMask = true
        let expected = try ImageSegmenter(options: options).segment(image: MPImage(contentsOfFile: photo))
        #expect(try library.segment(image: MPImage(contentsOfFile: photo)).categoryMask == nil)
        let confidence = try #require(named.confidenceMasks?.first), category = try #require(named.categoryMask)
        #expect(confidence.file == (masks as NSString).appendingPathComponent("woman_sitting-0.png"))
        #expect(category.file == (masks as NSString).appendingPathComponent("woman_sitting-category.png"))
        #expect(filed.stdout.contains(#""file":""#) && !filed.stdout.contains(#""png":""#))
        #expect(inline.confidenceMasks?.first?.file == nil && embedded.stdout.contains(#""png":""#))
        for (mask, reference) in [
            (confidence, try #require(expected.confidenceMasks?.first)),
            (category, try #require(expected.categoryMask)),
        ] {
            let image = try MPImage(contentsOfFile: try #require(mask.file))
            #expect(image.width == 960 && image.height == 640 && image.bufferFormat == .gray8)
            let written = image.withUnsafeBufferBytes { Array($0.prefix(960 * 640)) }
            #expect(written == reference.uint8Data, "\(mask.file ?? "")")
        }
        // The category mask of a one-label model: 0 on the person, 255 elsewhere, both present.
        #expect(category.dataType == .uInt8 && Set(expected.categoryMask?.uint8Data ?? []) == [0, 255])
    }

    @Test func photosThatDifferOnlyInTheirExtensionWriteMasksOfTheirOwn() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let copies = [
            ("woman_sitting.jpg", "a.jpg"), ("astronaut.png", "a.jpg.png"), ("astronaut.png", "a.png"),
            ("astronaut.png", "b.png"),
        ]
        for (fixture, name) in copies {
            try FileManager.default.copyItem(
                at: CLIRun.fixtures.appendingPathComponent(fixture), to: photos.appendingPathComponent(name))
        }
        let masks = scratch.appendingPathComponent("masks").path
        let run = try CLIRun.run(["image-segmenter", "--model", model, "--masks", masks, photos.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.outputLines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let files = lines.map { $0.result.confidenceMasks?.first?.file ?? "" }
        // a.jpg.png's bare stem is a.jpg, which a.jpg's masks take whole: it keeps its own whole too.
        #expect(
            files
                == ["a.jpg-0.png", "a.jpg.png-0.png", "a.png-0.png", "b-0.png"].map {
                    (masks as NSString).appendingPathComponent($0)
                })
        // Each file is its own photo's mask (woman_sitting is 960 wide, the astronaut 512).
        let widths = try files.map { try MPImage(contentsOfFile: $0).width }
        #expect(widths == lines.map { $0.result.confidenceMasks?.first?.width ?? 0 } && widths[0] != widths[1])
    }

    @Test func masksNeedNoExtraOptionButAFolderThatCanBeMade() throws {
        let blocked = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: blocked) }
        let file = blocked.appendingPathComponent("taken")
        try Data("x".utf8).write(to: file)
        let photo = CLIRun.fixtures.appendingPathComponent("astronaut.png").path
        let run = try CLIRun.run([
            "image-segmenter", "--model", model, "--masks", file.appendingPathComponent("sub").path, photo,
        ])
        // Before any image is read: one error line.
        #expect(
            run.status == 1 && run.stderr.contains("Invalid option --masks: \(file.path)/sub cannot be made: ")
                && run.stderr.contains("taken is a file, not a folder") && run.lines.isEmpty, "\(run.stderr)")
    }

    /// A model of more labels than the category mask can name (an index per pixel in a byte) is refused when the
    /// category mask is asked for, naming its count; its confidence masks are still given. Its 300th label, which
    /// wins everywhere, used to read as 43 in the category mask.
    @Test func aCategoryMaskOfMoreLabelsThanAByteNamesIsRefused() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let model = Fixture.path("references/tflite/crafted/segmenter_300_labels.tflite")
        let photo = try Self.greyPhoto(width: 48, height: 32, in: scratch)
        let refused = try CLIRun.run(["image-segmenter", "--model", model, "--output-category-mask", photo.path])
        #expect(
            refused.status == 1 && (refused.stdout + refused.stderr).contains("300 labels")
                && !refused.stdout.contains("categoryMask"), "\(refused.stdout) \(refused.stderr)")
        let confidence = try CLIRun.run(["image-segmenter", "--model", model, photo.path])
        #expect(confidence.status == 0, "\(confidence.stderr)")
        let line = try JSONDecoder().decode(Line.self, from: Data((confidence.outputLines.first ?? "").utf8))
        #expect(line.result.confidenceMasks?.count == 300 && line.result.categoryMask == nil)
    }

    /// Confidence masks grow with labels × pixels: 300 labels on a 1000×900 photo would take 1.0 GiB, over the limit,
    /// so the photo is refused naming the sizes instead of the process growing by that much.
    @Test func confidenceMasksBeyondTheLimitAreRefused() throws {
        let scratch = try CLIRun.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let model = Fixture.path("references/tflite/crafted/segmenter_300_labels.tflite")
        let photo = try Self.greyPhoto(width: 1000, height: 900, in: scratch)
        let refused = try CLIRun.run(["image-segmenter", "--model", model, photo.path])
        let said = refused.stdout + refused.stderr
        #expect(
            refused.status == 1 && said.contains("300 labels at 1000×900 pixels would take 1.0 GiB")
                && !refused.stdout.contains("confidenceMasks"), "\(said)")
    }

    /// A uniformly grey PNG of `width`×`height` written into `folder`.
    private static func greyPhoto(width: Int, height: Int, in folder: URL) throws -> URL {
        let photo = folder.appendingPathComponent("grey-\(width)x\(height).png")
        let grey = [UInt8](repeating: 90, count: width * height * 3)
        try grey.withUnsafeBytes {
            try MPImage(pixels: $0, width: width, height: height, bytesPerRow: width * 3, format: .rgb8).pngData()
        }.write(to: photo)
        return photo
    }
}
