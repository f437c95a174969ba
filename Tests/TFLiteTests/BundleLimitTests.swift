import FixtureSupport
import Foundation
import Testing
import VisionErrors

@testable import TFLite

/// Hostile bundles (issue 10): zip bombs stop at the decompressed-size limit, counted while inflating and
/// shared by nested bundles, and only the entries a caller asks for are extracted.
@Suite struct BundleLimitTests {
    /// The invalidBundle message of an entry passing a limit of `limit` bytes.
    static func limitMessage(_ archive: String, _ entry: String, _ limit: Int) -> String {
        "\(archive) entry \"\(entry)\" inflates past the limit of \(limit) decompressed bytes per bundle (nested bundles included); "
            + "raise BaseOptions.maxDecompressedBundleBytes (--max-bundle-bytes) if the bundle is trusted"
    }

    @Test func zerosEntryIsAValidDeflateStream() throws {
        // The bomb builder's stream inflates to exactly its zeros with the right CRC (under a large enough limit).
        let archive = ZipWriter.archive([try ZipWriter.zeros("z.bin", mebibytes: 3)])
        let bundle = try ModelBundle(data: archive, name: "z.task", maxDecompressedBytes: 3 << 20)
        #expect(try bundle.data(named: "z.bin") == Data(count: 3 << 20))
    }

    @Test(.timeLimit(.minutes(1)))
    func zipBombFailsFastAtTheDefaultLimit() throws {
        // Four deflated 1 GiB entries of zeros (about 4 MB of archive): opening reads the directory only,
        // extracting one fails before inflating anything, well under a second.
        let bomb = ZipWriter.archive(try (0..<4).map { try ZipWriter.zeros("model\($0).tflite", mebibytes: 1024) })
        #expect(bomb.count < 5 << 20)
        let start = CPUTime.threadSeconds()
        let bundle = try ModelBundle(data: bomb, name: "bomb.task")
        #expect(bundle.maxDecompressedBytes == 64 << 20)
        #expect(throws: VisionTasksError.invalidBundle(Self.limitMessage("bomb.task", "model0.tflite", 64 << 20))) {
            try bundle.data(named: "model0.tflite")
        }
        #expect(CPUTime.threadSeconds() - start < 1)
    }

    @Test func lyingSizesAreCaughtWhileInflating() throws {
        // An entry that declares 1000 bytes but inflates to 64 MiB stops at byte 1000 (plus one 64 KiB step).
        let liar = ZipWriter.archive([try ZipWriter.zeros("small.tflite", mebibytes: 64, declaredSize: 1000)])
        #expect(
            throws: VisionTasksError.invalidBundle(
                "liar.task entry \"small.tflite\" inflates to more than its declared 1000 bytes")
        ) {
            try ModelBundle(data: liar, name: "liar.task").data(named: "small.tflite")
        }
    }

    @Test func theLimitCoversAllEntriesAndNestedBundles() throws {
        // Three 3 MiB entries under an 8 MiB limit: two inflate, the third passes the limit.
        let flat = ZipWriter.archive(try (0..<3).map { try ZipWriter.zeros("e\($0).bin", mebibytes: 3) })
        let bundle = try ModelBundle(data: flat, name: "flat.task", maxDecompressedBytes: 8 << 20)
        #expect(try bundle.data(named: "e0.bin").count == 3 << 20)
        #expect(try bundle.data(named: "e1.bin").count == 3 << 20)
        #expect(try bundle.data(named: "e0.bin").count == 3 << 20) // extracted once, counted once
        #expect(throws: VisionTasksError.invalidBundle(Self.limitMessage("flat.task", "e2.bin", 8 << 20))) {
            try bundle.data(named: "e2.bin")
        }
        // A deflated nested bundle holding a 5 MiB entry, beside a 3 MiB entry: the nested bundle's bytes
        // count too, and its entry passes the shared limit.
        let inner = ZipWriter.archive([try ZipWriter.zeros("deep.bin", mebibytes: 5)])
        let outer = ZipWriter.archive([
            try ZipWriter.zeros("top.bin", mebibytes: 3), try .deflated("inner.task", inner),
        ])
        let nested = try ModelBundle(data: outer, name: "outer.task", maxDecompressedBytes: 8 << 20)
        #expect(try nested.data(named: "top.bin").count == 3 << 20)
        let innerBundle = try nested.bundle(named: "inner.task")
        #expect(innerBundle.maxDecompressedBytes == 8 << 20)
        #expect(throws: VisionTasksError.invalidBundle(Self.limitMessage("outer.task/inner.task", "deep.bin", 8 << 20)))
        {
            try innerBundle.data(named: "deep.bin")
        }
    }

    @Test func onlyRequestedEntriesAreExtracted() throws {
        // A bundle whose "broken.tflite" is a bomb and whose "notes.txt" is fine: listing the bundle
        // (nested bundles included) and reading notes.txt never touch the bomb.
        let inner = ZipWriter.archive([.stored("inner.txt", Data("inner".utf8))])
        let archive = ZipWriter.archive([
            try ZipWriter.zeros("broken.tflite", mebibytes: 1024), .stored("notes.txt", Data("ok".utf8)),
            try .deflated("inner.task", inner),
        ])
        let bundle = try ModelBundle(data: archive, name: "lazy.task")
        #expect(try bundle.allFilePaths() == ["broken.tflite", "notes.txt", "inner.task", "inner.task/inner.txt"])
        #expect(bundle.declaredSize(of: "broken.tflite") == 1 << 30)
        #expect(try bundle.find("notes.txt") == Data("ok".utf8))
        #expect(try bundle.find("inner.txt") == Data("inner".utf8))
        #expect(throws: VisionTasksError.self) { try bundle.data(named: "broken.tflite") }
    }

    @Test func archivesZIPFoundationRefusedNowRead() throws {
        // Trailing bytes after the end record, or a comment length running past the end: our directory check
        // accepted these and ZIPFoundation 0.9.20 then refused them, leaking its fopencookie copy of the bundle.
        // Entries are now extracted by this reader alone (the bundle fuzz target runs under LeakSanitizer).
        let archive = ZipWriter.archive([
            .stored("a.txt", Data("a".utf8)), try .deflated("b.txt", Data(repeating: 66, count: 999)),
        ])
        var longComment = archive
        longComment[longComment.count - 2] = 0xFF
        for data in [archive + Data(repeating: 0, count: 10), longComment] {
            let bundle = try ModelBundle(data: data, name: "odd.task")
            #expect(try bundle.data(named: "b.txt") == Data(repeating: 66, count: 999))
        }
    }
}
