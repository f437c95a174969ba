import CZlibCRC
import Foundation
import VisionErrors

/// Writes small zip archives (no ZIP64, no data descriptors): model bundles (`ModelBundleWriter`), the files
/// appended to a model, and, for tests and fuzz harnesses, bundles with an entry replaced or added, with
/// correct CRCs, and bundles whose entries are prepared deflate streams.
package enum ZipWriter {
    /// One entry as it goes into the archive.
    package struct Entry {
        /// Entry path.
        package var name: String
        /// Whether `payload` is a raw deflate stream (method 8) rather than the stored bytes (method 0).
        package var isDeflated: Bool
        /// The bytes written as the entry's data.
        package var payload: Data
        /// Size and CRC-32 of the entry's uncompressed bytes, as the headers declare them.
        package var uncompressedSize: Int
        /// CRC-32 of the uncompressed bytes.
        package var crc32: UInt32

        /// An entry holding `data` stored, with its true size and CRC.
        package static func stored(_ name: String, _ data: Data) -> Entry {
            Entry(
                name: name, isDeflated: false, payload: data, uncompressedSize: data.count,
                crc32: ZipArchive.crc32(data))
        }

        /// An entry holding `data` deflated by zlib, with its true size and CRC.
        package static func deflated(_ name: String, _ data: Data) throws -> Entry {
            Entry(
                name: name, isDeflated: true, payload: try ZipWriter.deflate(data), uncompressedSize: data.count,
                crc32: ZipArchive.crc32(data))
        }
    }

    /// A deflated entry of `mebibytes` MiB of zeros, built in milliseconds from one fully flushed 1 MiB block
    /// repeated (about 1 KB per MiB): the building block of zip-bomb tests. `declaredSize` overrides the
    /// size the headers claim (a lying bomb); the CRC is that of the true bytes.
    package static func zeros(_ name: String, mebibytes: Int, declaredSize: Int? = nil) throws -> Entry {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        // A full flush ends the block byte-aligned with no back-references: it can be repeated.
        let block = try deflateRaw(zeros, flush: Z_FULL_FLUSH)
        var payload = Data(capacity: block.count * mebibytes + 2)
        let zeroCRC = crc32(0, zeros, uInt(zeros.count))
        var crc = crc32(0, nil, 0)
        for _ in 0..<mebibytes {
            payload.append(contentsOf: block)
            crc = crc32_combine(crc, zeroCRC, off_t(zeros.count))
        }
        payload.append(contentsOf: [0x03, 0x00]) // an empty final block with fixed codes
        return Entry(
            name: name, isDeflated: true, payload: payload, uncompressedSize: declaredSize ?? mebibytes << 20,
            crc32: UInt32(truncatingIfNeeded: crc))
    }

    /// The raw deflate stream (no zlib header) of `data`, at the best compression.
    package static func deflate(_ data: Data) throws -> Data {
        Data(try deflateRaw([UInt8](data), flush: Z_FINISH))
    }

    /// Deflates all of `input` in one call with `flush` (Z_FINISH: a whole stream; Z_FULL_FLUSH: an open one).
    private static func deflateRaw(_ input: [UInt8], flush: Int32) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY,
                zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw VisionTasksError.processingFailed("zlib deflate could not start")
        }
        defer { deflateEnd(&stream) }
        var input = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlibCRC.deflate(&stream, flush)
            }
        }
        guard status == (flush == Z_FINISH ? Z_STREAM_END : Z_OK), stream.avail_in == 0 else {
            throw VisionTasksError.processingFailed("zlib deflate failed (\(status))")
        }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// The zip archive of `entries`, in order. `startingAt` is the archive's position in the file it ends
    /// (a model's label files are a zip appended to the model): its offsets count from the file's start.
    /// Zero bytes before each local header put every entry's data at a multiple of `alignment` from the
    /// file's start, as MediaPipe's bundle writer does so that models can be used in place.
    package static func archive(_ entries: [Entry], startingAt base: Int = 0, alignment: Int = 1) -> Data {
        var out = Data()
        var directory = Data()
        func u16(_ value: Int, _ to: inout Data) {
            withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { to.append(contentsOf: $0) }
        }
        func u32(_ value: Int, _ to: inout Data) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { to.append(contentsOf: $0) }
        }
        for entry in entries {
            let name = Data(entry.name.utf8)
            let dataStart = base + out.count + 30 + name.count
            out.append(contentsOf: repeatElement(0, count: (alignment - dataStart % alignment) % alignment))
            let offset = out.count
            // The fields both records share after their version(s): flags, method, time, date, CRC, sizes, name
            // and extra lengths.
            func shared(_ to: inout Data) {
                for field in [0, entry.isDeflated ? 8 : 0, 0, 0x21] { u16(field, &to) }
                for field in [Int(entry.crc32), entry.payload.count, entry.uncompressedSize] { u32(field, &to) }
                for field in [name.count, 0] { u16(field, &to) }
            }
            // Local header: signature, version needed, the shared fields, name, data.
            u32(0x0403_4B50, &out)
            u16(20, &out)
            shared(&out)
            out.append(name)
            out.append(entry.payload)
            // Central directory record: signature, versions made by and needed, the shared fields, comment length,
            // disk, internal and external attributes, the local header's offset, name.
            u32(0x0201_4B50, &directory)
            u16(20, &directory)
            u16(20, &directory)
            shared(&directory)
            for field in [0, 0, 0] { u16(field, &directory) }
            u32(0, &directory)
            u32(base + offset, &directory)
            directory.append(name)
        }
        let directoryStart = out.count
        out.append(directory)
        u32(0x0605_4B50, &out)
        u16(0, &out)
        u16(0, &out)
        u16(entries.count, &out)
        u16(entries.count, &out)
        u32(directory.count, &out)
        u32(base + directoryStart, &out)
        u16(0, &out)
        return out
    }
}
