import CImageCodecs
import Foundation
import Testing

@testable import VisionCore

/// The PNG decoder's libdeflate path (`ic_decode_png_deflate`) gives libpng's bytes: on every PNG
/// fixture it takes, and on made PNGs with every filter type on every row kind (1 to 4 channels,
/// random bytes, several IDAT chunks). Files it must leave to libpng (16-bit, palette, tRNS,
/// interlaced, a bad CRC, a short stream) are left. Tolerance: exact.
@Suite struct PNGDeflatePathTests {
    /// What a decoder call gave: status, size and pixels.
    struct Decoded: Equatable {
        var status: Int32
        var width = 0, height = 0, channels = 0
        var pixels: [UInt8] = []

        init(status: Int32) {
            self.status = status
        }

        /// A call's `status` and, when it is 0, `image`'s size and pixels (which it frees).
        init(status: Int32, image: ic_image) {
            self.status = status
            guard status == 0, let pixels = image.pixels else { return }
            width = Int(image.width)
            height = Int(image.height)
            channels = Int(image.channels)
            self.pixels = Array(UnsafeBufferPointer(start: pixels, count: width * height * channels))
            ic_pixels_free(pixels)
        }
    }

    static func decode(_ data: [UInt8], deflatePath: Bool) -> Decoded {
        var image = ic_image()
        var message = [CChar](repeating: 0, count: Int(IC_MESSAGE_SIZE))
        let status = data.withUnsafeBufferPointer { bytes in
            deflatePath
                ? ic_decode_png_deflate(bytes.baseAddress, bytes.count, 1 << 26, &image)
                : ic_decode_png_libpng(bytes.baseAddress, bytes.count, 1 << 26, &image, &message)
        }
        return Decoded(status: status, image: image)
    }

    @Test func fixturesDecodeAsLibpng() throws {
        let root = Fixtures.root
        let paths = try #require(FileManager.default.subpaths(atPath: root.path)).filter { $0.hasSuffix(".png") }
            .sorted()
        var taken = 0
        for relative in paths {
            let data = [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
            let fast = Self.decode(data, deflatePath: true)
            guard fast.status == 0 else {
                #expect(fast.status == IC_PNG_NOT_HANDLED, "\(relative)")
                continue
            }
            taken += 1
            #expect(fast == Self.decode(data, deflatePath: false), "\(relative)")
        }
        // The photos and video frames are 8-bit RGB/RGBA: most fixtures take the libdeflate path.
        #expect(paths.count >= 60 && taken >= 40, "\(taken) of \(paths.count)")
    }

    @Test(arguments: [(0, 1), (4, 2), (2, 3), (6, 4)])
    func everyFilterOnEveryRowKind(colorType: Int, channels: Int) throws {
        var state = UInt32(colorType * 7919 + 1) // a fixed LCG: the same made file on every run
        let width = 37, height = 25, stride = width * channels
        // Rows cycle through the filters 0...4, the first row included; the filtered bytes are random.
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(UInt8(y % 5))
            raw += (0..<stride).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        let png = MadePNG.file(width: width, height: height, colorType: colorType, raw: raw, idatPieces: 3)
        let fast = Self.decode(png, deflatePath: true)
        #expect(fast.status == 0)
        #expect(fast.channels == channels && fast.pixels.count == width * height * channels)
        #expect(fast == Self.decode(png, deflatePath: false))
    }

    @Test func leavesWhatItDoesNotHandle() throws {
        let raw = [UInt8](repeating: 0, count: 4 * (1 + 4 * 3))
        let good = MadePNG.file(width: 4, height: 4, colorType: 2, raw: raw, idatPieces: 1)
        #expect(Self.decode(good, deflatePath: true).status == 0)
        var badCRC = good
        badCRC[good.count - 20] ^= 1 // inside the IDAT data
        let sixteenBit = MadePNG.file(width: 2, height: 4, colorType: 2, raw: raw, idatPieces: 1, bitDepth: 16)
        let interlaced = MadePNG.file(width: 4, height: 4, colorType: 2, raw: raw, idatPieces: 1, interlace: 1)
        let withTRNS = MadePNG.file(
            width: 4, height: 4, colorType: 2, raw: raw, idatPieces: 1,
            extra: [("tRNS", [0, 0, 0, 0, 0, 0])])
        let shortStream = MadePNG.file(width: 4, height: 5, colorType: 2, raw: raw, idatPieces: 1)
        let badFilter = MadePNG.file(width: 4, height: 4, colorType: 2, raw: [9] + raw.dropFirst(), idatPieces: 1)
        var badSignature = good
        badSignature[6] = 0 // the first four bytes still say PNG
        for file in [badCRC, sixteenBit, interlaced, withTRNS, shortStream, badFilter, badSignature] {
            #expect(Self.decode(file, deflatePath: true) == Decoded(status: IC_PNG_NOT_HANDLED))
        }
        // The public entry falls back to libpng: a sound 16-bit file decodes, a bad CRC is an error.
        #expect(Self.decode(sixteenBit, deflatePath: false).status == 0)
        #expect(Self.decode(badCRC, deflatePath: false).status == 1)
        #expect(Self.decode(badSignature, deflatePath: false).status == 1)
    }
}

extension PNGDeflatePathTests {
    /// `data` through `ic_decode_png_deflate_in_place` on a copy (IDATs joined where they lie), and
    /// the copy as it was left.
    static func decodeInPlace(_ data: [UInt8]) -> (Decoded, left: [UInt8]) {
        var bytes = data
        var image = ic_image()
        let status = bytes.withUnsafeMutableBufferPointer {
            ic_decode_png_deflate_in_place($0.baseAddress, $0.count, 1 << 26, &image)
        }
        return (Decoded(status: status, image: image), bytes)
    }

    @Test func joiningInPlaceDecodesTheSameAndPutsTheBytesBack() throws {
        let root = Fixtures.root
        let fixtures = try #require(FileManager.default.subpaths(atPath: root.path)).filter { $0.hasSuffix(".png") }
            .sorted()
            .map { (name: $0, bytes: [UInt8](try Data(contentsOf: root.appendingPathComponent($0)))) }
        var rows: [UInt8] = []
        for y in 0..<6 {
            rows.append(UInt8(y % 5))
            rows += (0..<(3 * 9)).map { (x: Int) -> UInt8 in UInt8(truncatingIfNeeded: x &* 37 &+ y) }
        }
        let made: [(name: String, bytes: [UInt8])] =
            [1, 2, 7, 40].map { pieces in
                ("\(pieces) IDATs", MadePNG.file(width: 9, height: 6, colorType: 2, raw: rows, idatPieces: pieces))
            } + [
                // Found wrong only after the IDATs are joined: a stream one row short, a bad filter type.
                ("short stream in 5 IDATs", MadePNG.file(width: 9, height: 7, colorType: 2, raw: rows, idatPieces: 5)),
                (
                    "bad filter in 4 IDATs",
                    MadePNG.file(width: 9, height: 6, colorType: 2, raw: [7] + rows.dropFirst(), idatPieces: 4)
                ),
            ]
        var joined = 0, putBack = 0
        for (name, bytes) in fixtures + made {
            let (inPlace, left) = Self.decodeInPlace(bytes)
            #expect(inPlace == Self.decode(bytes, deflatePath: true), "\(name)")
            if inPlace.status == 0 {
                joined += 1
            } else {
                putBack += 1
                #expect(left == bytes, "\(name): the bytes were not put back")
            }
            // The public entry: libpng reads the file put back, so the same pixels or the same message.
            var copy = bytes
            var messages = [[CChar]](repeating: [CChar](repeating: 0, count: Int(IC_MESSAGE_SIZE)), count: 2)
            var images = [ic_image(), ic_image()]
            let statuses = [
                bytes.withUnsafeBufferPointer {
                    ic_decode_png($0.baseAddress, $0.count, 1 << 26, &images[0], &messages[0])
                },
                copy.withUnsafeMutableBufferPointer {
                    ic_decode_png_in_place($0.baseAddress, $0.count, 1 << 26, &images[1], &messages[1])
                },
            ]
            #expect(statuses[0] == statuses[1] && cMessage(messages[0]) == cMessage(messages[1]), "\(name)")
            if statuses[0] == 0, statuses[1] == 0, let a = images[0].pixels, let b = images[1].pixels {
                let count = Int(images[0].width) * Int(images[0].height) * Int(images[0].channels)
                #expect(memcmp(a, b, count) == 0, "\(name)")
            }
            images.forEach { ic_pixels_free($0.pixels) }
        }
        #expect(joined >= 40 && putBack >= 2 + 10, "\(joined) joined, \(putBack) put back")
    }
}

/// PNG files written by hand: the given filtered rows in stored (uncompressed) deflate blocks.
enum MadePNG {
    static func file(
        width: Int, height: Int, colorType: Int, raw: [UInt8], idatPieces: Int,
        bitDepth: UInt8 = 8, interlace: UInt8 = 0, extra: [(String, [UInt8])] = []
    ) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk(
            "IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [bitDepth, UInt8(colorType), 0, 0, interlace])
        for (type, data) in extra { png += chunk(type, data) }
        let stream = zlibStored(raw)
        let piece = (stream.count + idatPieces - 1) / idatPieces
        for start in Swift.stride(from: 0, to: stream.count, by: piece) {
            png += chunk("IDAT", Array(stream[start..<min(stream.count, start + piece)]))
        }
        return png + chunk("IEND", [])
    }

    static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    /// A zlib stream of stored blocks, Adler-32 at the end.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[start..<start + count]
            start += count
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }
}
