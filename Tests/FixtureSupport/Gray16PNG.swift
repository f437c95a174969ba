import CDeflate
import Foundation

/// A 16-bit grayscale PNG read at full precision (the pose references' masks; the library's decoder
/// keeps 8 bits): non-interlaced, colour type 0, bit depth 16, as OpenCV writes them.
public struct Gray16PNG {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The levels over 65535, row by row.
    public let values: [Float]

    /// Reads the PNG at `path` under Tests/Fixtures; throws `FixtureError.undecodable` for any other kind of file.
    public init(fixture path: String) throws {
        let full = Fixture.path(path)
        func fail(_ why: String) -> FixtureError { .undecodable(full, why) }
        guard let bytes = FileManager.default.contents(atPath: full).map([UInt8].init) else {
            throw FixtureError.unreadable(full, "missing")
        }
        guard bytes.count > 8, bytes[0..<8].elementsEqual([137, 80, 78, 71, 13, 10, 26, 10]) else {
            throw fail("not a PNG")
        }
        func be32(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8, idat: [UInt8] = [], header: (w: Int, h: Int)?
        while offset + 8 <= bytes.count {
            let length = be32(offset), type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= bytes.count else { throw fail("chunk \(type) runs past the end") }
            if type == "IHDR" {
                guard length == 13, bytes[start + 8] == 16, bytes[start + 9] == 0, bytes[start + 12] == 0 else {
                    throw fail("not a 16-bit gray non-interlaced PNG")
                }
                header = (be32(start), be32(start + 4))
            } else if type == "IDAT" {
                idat += bytes[start..<start + length]
            } else if type == "IEND" {
                break
            }
            offset = start + length + 4
        }
        guard let (w, h) = header, w > 0, h > 0, w * h <= 1 << 26 else { throw fail("no usable IHDR") }
        let stride = 1 + 2 * w
        var raw = [UInt8](repeating: 0, count: stride * h)
        var produced = 0
        let result = idat.withUnsafeBytes { input in
            raw.withUnsafeMutableBytes { output -> libdeflate_result in
                guard let decompressor = libdeflate_alloc_decompressor() else { return LIBDEFLATE_INSUFFICIENT_SPACE }
                defer { libdeflate_free_decompressor(decompressor) }
                return libdeflate_zlib_decompress(
                    decompressor, input.baseAddress, input.count, output.baseAddress,
                    output.count, &produced)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, produced == raw.count else {
            throw fail("IDAT does not inflate to \(raw.count) bytes")
        }
        // Undo the row filters (2 bytes per pixel).
        var previous = [UInt8](repeating: 0, count: 2 * w), values: [Float] = []
        values.reserveCapacity(w * h)
        for row in 0..<h {
            let filter = raw[row * stride]
            var line = Array(raw[row * stride + 1..<(row + 1) * stride])
            for i in line.indices {
                let a = i >= 2 ? Int(line[i - 2]) : 0, b = Int(previous[i]), c = i >= 2 ? Int(previous[i - 2]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw fail("row \(row) has filter \(filter)")
                }
                line[i] = UInt8(truncatingIfNeeded: Int(line[i]) + predictor)
            }
            for x in 0..<w { values.append(Float(Int(line[2 * x]) << 8 | Int(line[2 * x + 1])) / 65535) }
            previous = line
        }
        (width, height, self.values) = (w, h, values)
    }
}
