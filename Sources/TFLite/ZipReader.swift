import CZlibCRC
import Foundation
import Synchronization
import VisionErrors

// MARK: - Decompression budget

/// The decompressed-byte allowance of one bundle, shared with every bundle nested in it: each byte
/// inflated from a deflated entry is counted as zlib produces it, and passing `limit` is an error.
/// Stored entries are slices of bytes already held, so they are not counted.
package final class InflateBudget: Sendable {
    /// The most bytes that may be inflated in all.
    package let limit: Int
    private let used = Mutex(0)

    /// A budget of `limit` bytes, none used.
    package init(limit: Int) { self.limit = limit }

    /// Bytes still allowed.
    var remaining: Int { used.withLock { limit - $0 } }

    /// Counts `bytes` more inflated from entry `entry` of `archive`; throws when that passes the limit.
    func charge(_ bytes: Int, archive: String, entry: String) throws {
        let allowed = used.withLock { used -> Bool in
            guard bytes <= limit - used else { return false }
            used += bytes
            return true
        }
        guard allowed else { throw exceeded(archive: archive, entry: entry) }
    }

    /// The error for entry `entry` of `archive` needing more than the limit allows.
    func exceeded(archive: String, entry: String) -> VisionTasksError {
        .invalidBundle(
            "\(archive) entry \"\(entry)\" inflates past the limit of \(limit) decompressed bytes per bundle "
                + "(nested bundles included); raise BaseOptions.maxDecompressedBundleBytes (--max-bundle-bytes) if the bundle is trusted"
        )
    }
}

// MARK: - Archive

/// A zip archive in memory, with limits against hostile archives: its directory is checked up front by
/// `ZipDirectory`, and each entry is extracted only when asked for (stored entries copied, deflated ones
/// inflated with zlib against the shared `InflateBudget`), checked against its declared size and CRC-32,
/// and kept for later calls.
package final class ZipArchive: Sendable {
    /// Largest number of entries accepted.
    package static let maxEntries = 10_000

    /// What the archive is, for error messages.
    package let name: String
    /// The checked directory's entries, in archive order.
    package let entries: [ZipDirectory.Entry]
    /// The allowance this archive's inflation counts against.
    let budget: InflateBudget
    private let data: Data
    private let extracted = Mutex<[Int: Data]>([:])

    /// Checks the directory of `data`; `name` names the archive in errors.
    /// - Throws: `VisionTasksError.invalidBundle` naming `name` and the problem.
    package init(_ data: Data, name: String, budget: InflateBudget) throws {
        let directory = try ZipDirectory(data, name: name)
        guard directory.entries.count <= Self.maxEntries else {
            throw VisionTasksError.invalidBundle("\(name) has more than \(Self.maxEntries) entries")
        }
        self.name = name
        self.entries = directory.entries
        self.budget = budget
        self.data = data
    }

    /// The bytes of entry `index` (starting at index 0), extracted on the first call.
    /// - Throws: `VisionTasksError.invalidBundle` when the entry does not inflate, passes the budget,
    ///   differs from its declared size or fails its CRC-32.
    package func extract(_ index: Int) throws -> Data {
        if let bytes = extracted.withLock({ $0[index] }) { return bytes }
        let entry = entries[index]
        let stored = data[data.startIndex + entry.dataRange.lowerBound..<data.startIndex + entry.dataRange.upperBound]
        let bytes = entry.isCompressed ? try inflate(stored, entry) : Data(stored)
        guard bytes.count == entry.uncompressedSize else {
            throw VisionTasksError.invalidBundle(
                "\(name) entry \"\(entry.name)\" holds \(bytes.count) bytes, not its declared \(entry.uncompressedSize)"
            )
        }
        guard ZipArchive.crc32(bytes) == entry.crc32 else {
            throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" is corrupted (CRC-32 mismatch)")
        }
        extracted.withLock { $0[index] = bytes }
        return bytes
    }

    /// Inflates the raw deflate stream `deflated` of `entry` in 64 KiB steps, never past its declared size
    /// nor the budget (a declared size beyond what is left is refused before any work).
    private func inflate(_ deflated: Data, _ entry: ZipDirectory.Entry) throws -> Data {
        guard entry.uncompressedSize <= budget.remaining else {
            throw budget.exceeded(archive: name, entry: entry.name)
        }
        func fail(_ reason: String) -> VisionTasksError {
            .invalidBundle("\(name) entry \"\(entry.name)\" cannot be inflated (\(reason))")
        }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw fail("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        try deflated.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            var status = Z_OK
            while status != Z_STREAM_END {
                let produced = try chunk.withUnsafeMutableBufferPointer { buffer -> Int in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = CZlibCRC.inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else {
                        throw fail(status == Z_BUF_ERROR ? "the deflate stream is truncated" : "zlib error \(status)")
                    }
                    return buffer.count - Int(stream.avail_out)
                }
                guard output.count + produced <= entry.uncompressedSize else {
                    throw VisionTasksError.invalidBundle(
                        "\(name) entry \"\(entry.name)\" inflates to more than its declared \(entry.uncompressedSize) bytes"
                    )
                }
                try budget.charge(produced, archive: name, entry: entry.name)
                output.append(contentsOf: chunk[0..<produced])
            }
        }
        return output
    }

    /// The CRC-32 (zip's, ISO-HDLC) of `bytes`.
    static func crc32(_ bytes: Data) -> UInt32 {
        bytes.withUnsafeBytes { raw -> UInt32 in
            var crc = CZlibCRC.crc32(0, nil, 0)
            guard let base = raw.baseAddress else { return UInt32(truncatingIfNeeded: crc) }
            var offset = 0
            while offset < raw.count {
                let chunk = min(raw.count - offset, 1 << 30)
                crc = CZlibCRC.crc32(crc, base.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(chunk))
                offset += chunk
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    /// Whether `data` ends with a zip end-of-central-directory record (searched in the last 64 KiB + 22 bytes).
    package static func hasEndOfCentralDirectory(_ data: Data) -> Bool {
        ZipDirectory.endRecordPosition(data) != nil
    }

    /// Files of a zip appended to a `.tflite` model (TFLite metadata's associated files), by name, inflated
    /// against `budget`. Returns an empty dictionary when there is no zip; a zip that does not
    /// read is an error only when the metadata names files (`required`) that would have come from it.
    static func appendedFiles(
        in data: Data, name: String, required: [String],
        budget: InflateBudget
    ) throws -> [String: Data] {
        guard hasEndOfCentralDirectory(data) else { return [:] }
        do {
            let archive = try ZipArchive(data, name: name, budget: budget)
            var files: [String: Data] = [:]
            for (index, entry) in archive.entries.enumerated() where !entry.isDirectory && files[entry.name] == nil {
                files[entry.name] = try archive.extract(index)
            }
            return files
        } catch let error as VisionTasksError {
            guard !required.isEmpty else { return [:] }
            throw VisionTasksError.invalidModel("\(name): the associated files \(required) cannot be read: \(error)")
        }
    }
}

// MARK: - Central directory

/// A zip archive's central directory, read and checked without trusting any offset: every record, name,
/// local header and data range must lie inside the archive, no two entries may share data, sizes must be consistent,
/// and ZIP64 and encrypted archives are refused.
package struct ZipDirectory: Sendable {
    /// One entry of the directory.
    package struct Entry: Sendable {
        /// Entry path.
        package let name: String
        /// Whether the entry is a directory (its name ends with "/").
        package let isDirectory: Bool
        /// Byte range of the (possibly compressed) data.
        let dataRange: Range<Int>
        /// Uncompressed size.
        package let uncompressedSize: Int
        /// Whether the data is deflated (otherwise stored).
        let isCompressed: Bool
        /// CRC-32 of the uncompressed data.
        let crc32: UInt32
    }

    /// The entries, in directory order.
    package let entries: [Entry]

    /// Position of the end-of-central-directory record: the last signature in the final 64 KiB + 22 bytes,
    /// as zip readers search for it.
    static func endRecordPosition(_ data: Data) -> Int? {
        guard data.count >= 22 else { return nil }
        return data.withUnsafeBytes { raw -> Int? in
            let lowest = max(0, raw.count - 22 - 65_535)
            var position = raw.count - 22
            while position >= lowest {
                if raw[position] == 0x50, raw[position + 1] == 0x4B, raw[position + 2] == 5, raw[position + 3] == 6 {
                    return position
                }
                position -= 1
            }
            return nil
        }
    }

    /// Reads and checks the directory of `data`; `name` names the archive in errors.
    package init(_ data: Data, name: String) throws {
        func fail(_ message: String) -> VisionTasksError { .invalidBundle("\(name): \(message)") }
        let count = data.count
        func u16(_ at: Int) -> Int {
            data.withUnsafeBytes { Int(UInt16(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt16.self))) }
        }
        func u32(_ at: Int) -> Int {
            data.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        }
        func inside(_ position: Int, _ size: Int) -> Bool {
            position >= 0 && size >= 0 && position <= count && size <= count - position
        }

        guard let end = Self.endRecordPosition(data) else {
            throw fail("not a zip archive (no end-of-central-directory record)")
        }
        // ZIP64 records sit just before the end record; which this reader does not read.
        if end >= 20, u32(end - 20) == 0x0706_4B50 { throw fail("ZIP64 archives are not supported") }
        if end >= 76, u32(end - 76) == 0x0606_4B50 { throw fail("ZIP64 archives are not supported") }
        let entryCount = u16(end + 10)
        let directorySize = u32(end + 12)
        let directoryStart = u32(end + 16)
        guard u16(end + 4) == 0, u16(end + 6) == 0, u16(end + 8) == entryCount else {
            throw fail("multi-disk archives are not supported")
        }
        guard entryCount != 0xFFFF, directorySize != 0xFFFF_FFFF, directoryStart != 0xFFFF_FFFF else {
            throw fail("ZIP64 archives are not supported")
        }
        guard inside(directoryStart, directorySize), directoryStart + directorySize <= end else {
            throw fail(
                "the central directory (\(directorySize) bytes at \(directoryStart)) lies outside the \(count)-byte archive"
            )
        }
        var entries: [Entry] = []
        var position = directoryStart
        for index in 0..<entryCount {
            guard inside(position, 46), position + 46 <= directoryStart + directorySize, u32(position) == 0x0201_4B50
            else {
                throw fail("central directory record \(index) at byte \(position) is missing or damaged")
            }
            let flags = u16(position + 8)
            let method = u16(position + 10)
            let compressed = u32(position + 20)
            let uncompressed = u32(position + 24)
            let nameLength = u16(position + 28)
            let recordLength = 46 + nameLength + u16(position + 30) + u16(position + 32)
            let localHeader = u32(position + 42)
            guard position + recordLength <= directoryStart + directorySize else {
                throw fail("central directory record \(index) runs past the directory")
            }
            let entryName = String(
                decoding: data[data.startIndex + position + 46..<data.startIndex + position + 46 + nameLength],
                as: UTF8.self)
            guard flags & 1 == 0 else { throw fail("entry \"\(entryName)\" is encrypted") }
            guard compressed != 0xFFFF_FFFF, uncompressed != 0xFFFF_FFFF, localHeader != 0xFFFF_FFFF else {
                throw fail("entry \"\(entryName)\" uses ZIP64 sizes, which are not supported")
            }
            guard method == 0 || method == 8 else {
                throw fail(
                    "entry \"\(entryName)\" uses compression method \(method); only stored and deflated entries are supported"
                )
            }
            guard method == 8 || compressed == uncompressed else {
                throw fail("entry \"\(entryName)\" is stored but has sizes \(compressed) and \(uncompressed)")
            }
            guard inside(localHeader, 30), u32(localHeader) == 0x0403_4B50, u16(localHeader + 8) == method else {
                throw fail("entry \"\(entryName)\" has no matching local header at byte \(localHeader)")
            }
            // A local header with ZIP64 sizes (Python's `force_zip64`) under a plain central directory.
            if u32(localHeader + 18) == 0xFFFF_FFFF || u32(localHeader + 22) == 0xFFFF_FFFF {
                throw fail("entry \"\(entryName)\" uses ZIP64 sizes, which are not supported")
            }
            // Without a data descriptor (flag bit 3) the local header repeats the CRC and sizes.
            guard
                flags & 8 != 0
                    || (u32(localHeader + 14) == u32(position + 16) && u32(localHeader + 18) == compressed
                        && u32(localHeader + 22) == uncompressed)
            else {
                throw fail("entry \"\(entryName)\" has a local header that disagrees with the central directory")
            }
            let dataStart = localHeader + 30 + u16(localHeader + 26) + u16(localHeader + 28)
            guard inside(dataStart, compressed), dataStart + compressed <= directoryStart else {
                throw fail(
                    "entry \"\(entryName)\" data (\(compressed) bytes at \(dataStart)) lies outside the archive's file area"
                )
            }
            if flags & 8 != 0, !inside(dataStart + compressed, 16) {
                throw fail("entry \"\(entryName)\" data descriptor lies outside the archive")
            }
            entries.append(
                Entry(
                    name: entryName, isDirectory: entryName.hasSuffix("/"),
                    dataRange: dataStart..<dataStart + compressed, uncompressedSize: uncompressed,
                    isCompressed: method == 8, crc32: UInt32(u32(position + 16))))
            position += recordLength
        }
        // Entries sharing their bytes (a directory listing one stored file under many names, or one nested bundle
        // under many) would multiply what extracting them costs beyond the file's size: each entry's data is its own.
        let ranges = entries.enumerated().filter { !$0.element.dataRange.isEmpty }.sorted {
            $0.element.dataRange.lowerBound < $1.element.dataRange.lowerBound
        }
        for (earlier, later) in zip(ranges, ranges.dropFirst())
        where later.element.dataRange.lowerBound < earlier.element.dataRange.upperBound {
            throw fail(
                "entries \"\(earlier.element.name)\" and \"\(later.element.name)\" share their data "
                    + "(bytes \(later.element.dataRange.lowerBound)..<\(earlier.element.dataRange.upperBound))")
        }
        self.entries = entries
    }
}
