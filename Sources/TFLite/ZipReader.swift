import Foundation
import CZlibCRC
import VisionErrors
import ZIPFoundation

/// Reads every file of an in-memory zip archive, with limits against hostile archives: the directory is
/// checked by `ZipDirectory`, stored entries are copied out directly, deflated ones are inflated by
/// ZIPFoundation, and every entry's CRC-32 is verified (with zlib's fast implementation).
enum ZipReader {
    /// Largest single entry accepted (uncompressed), 1 GiB.
    static let maxEntrySize = 1 << 30
    /// Largest total of all entries accepted (uncompressed), 4 GiB.
    static let maxTotalSize = 4 << 30
    /// Largest number of entries accepted.
    static let maxEntries = 10_000

    /// The archive's files in archive order (directories skipped), CRC-checked; each `Data` starts at index 0.
    /// - Throws: `VisionTasksError.invalidBundle` naming `name` and the problem.
    static func files(in data: Data, name: String) throws -> [(name: String, data: Data)] {
        let directory = try ZipDirectory(data, name: name)
        guard directory.entries.count <= maxEntries else {
            throw VisionTasksError.invalidBundle("\(name) has more than \(maxEntries) entries")
        }
        var total = 0
        for entry in directory.entries {
            guard entry.uncompressedSize <= maxEntrySize else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" claims an absurd size of \(entry.uncompressedSize) bytes")
            }
            total += entry.uncompressedSize
            guard total <= maxTotalSize else {
                throw VisionTasksError.invalidBundle("\(name) holds more than \(maxTotalSize) bytes uncompressed")
            }
        }
        let inflated = directory.entries.contains { $0.isCompressed } ? try inflate(data, directory, name: name) : [:]
        var files: [(name: String, data: Data)] = []
        for (index, entry) in directory.entries.enumerated() where !entry.isDirectory {
            let bytes: Data
            if entry.isCompressed {
                guard let inflatedBytes = inflated[index] else {
                    throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" cannot be extracted")
                }
                bytes = inflatedBytes
            } else {
                bytes = Data(data[data.startIndex + entry.dataRange.lowerBound..<data.startIndex + entry.dataRange.upperBound])
            }
            guard bytes.count == entry.uncompressedSize else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" holds \(bytes.count) bytes, not its declared \(entry.uncompressedSize)")
            }
            guard crc32(bytes) == entry.crc32 else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" is corrupted (CRC-32 mismatch)")
            }
            files.append((entry.name, bytes))
        }
        return files
    }

    /// The deflated entries of `directory`, inflated by ZIPFoundation, by directory index.
    private static func inflate(_ data: Data, _ directory: ZipDirectory, name: String) throws -> [Int: Data] {
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw VisionTasksError.invalidBundle("\(name) is not a readable zip archive (\(error))")
        }
        var inflated: [Int: Data] = [:]
        // ZIPFoundation walks the same central directory, in the same order.
        for (index, archiveEntry) in archive.enumerated() {
            guard directory.entries.indices.contains(index) else { break }
            let entry = directory.entries[index]
            guard entry.isCompressed, !entry.isDirectory else { continue }
            guard archiveEntry.type == .file else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" is not a regular file")
            }
            var bytes = Data()
            bytes.reserveCapacity(entry.uncompressedSize)
            do {
                _ = try archive.extract(archiveEntry, skipCRC32: true) { chunk in
                    guard bytes.count + chunk.count <= entry.uncompressedSize else {
                        throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" inflates to more than its declared \(entry.uncompressedSize) bytes")
                    }
                    bytes.append(chunk)
                }
            } catch let error as VisionTasksError {
                throw error
            } catch {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(entry.name)\" cannot be inflated (\(error))")
            }
            inflated[index] = bytes
        }
        return inflated
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
    static func hasEndOfCentralDirectory(_ data: Data) -> Bool {
        ZipDirectory.endRecordPosition(data) != nil
    }

    /// Files of a zip appended to a `.tflite` model (TFLite metadata's associated files), by name.
    /// Returns an empty dictionary when there is no zip; a zip that does not read is an error only when
    /// the metadata names files (`required`) that would have come from it.
    static func appendedFiles(in data: Data, name: String, required: [String]) throws -> [String: Data] {
        guard hasEndOfCentralDirectory(data) else { return [:] }
        do {
            var files: [String: Data] = [:]
            for file in try self.files(in: data, name: name) where files[file.name] == nil {
                files[file.name] = file.data
            }
            return files
        } catch let error as VisionTasksError {
            guard !required.isEmpty else { return [:] }
            throw VisionTasksError.invalidModel("\(name): the associated files \(required) cannot be read: \(error)")
        }
    }
}

/// A zip archive's central directory, read and checked without trusting any offset: every record, name,
/// local header and data range must lie inside the archive, sizes must be consistent, and ZIP64 and
/// encrypted archives are refused.
struct ZipDirectory {
    /// One entry of the directory.
    struct Entry {
        /// Entry path.
        let name: String
        /// Whether the entry is a directory (its name ends with "/").
        let isDirectory: Bool
        /// Byte range of the (possibly compressed) data.
        let dataRange: Range<Int>
        /// Uncompressed size.
        let uncompressedSize: Int
        /// Whether the data is deflated (otherwise stored).
        let isCompressed: Bool
        /// CRC-32 of the uncompressed data.
        let crc32: UInt32
    }

    /// The entries, in directory order.
    let entries: [Entry]

    /// Position of the end-of-central-directory record: the last signature in the final 64 KiB + 22 bytes,
    /// which is where ZIPFoundation's backwards scan stops too.
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
    init(_ data: Data, name: String) throws {
        func fail(_ message: String) -> VisionTasksError { .invalidBundle("\(name): \(message)") }
        let count = data.count
        func u16(_ at: Int) -> Int { data.withUnsafeBytes { Int(UInt16(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt16.self))) } }
        func u32(_ at: Int) -> Int { data.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self))) } }
        func inside(_ position: Int, _ size: Int) -> Bool { position >= 0 && size >= 0 && position <= count && size <= count - position }

        guard let end = Self.endRecordPosition(data) else {
            throw fail("not a zip archive (no end-of-central-directory record)")
        }
        // ZIP64 records sit just before the end record; ZIPFoundation would trust their 64-bit offsets.
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
            throw fail("the central directory (\(directorySize) bytes at \(directoryStart)) lies outside the \(count)-byte archive")
        }
        var entries: [Entry] = []
        var position = directoryStart
        for index in 0..<entryCount {
            guard inside(position, 46), position + 46 <= directoryStart + directorySize, u32(position) == 0x0201_4B50 else {
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
            let entryName = String(decoding: data[data.startIndex + position + 46..<data.startIndex + position + 46 + nameLength], as: UTF8.self)
            guard flags & 1 == 0 else { throw fail("entry \"\(entryName)\" is encrypted") }
            guard compressed != 0xFFFF_FFFF, uncompressed != 0xFFFF_FFFF, localHeader != 0xFFFF_FFFF else {
                throw fail("entry \"\(entryName)\" uses ZIP64 sizes, which are not supported")
            }
            guard method == 0 || method == 8 else {
                throw fail("entry \"\(entryName)\" uses compression method \(method); only stored and deflated entries are supported")
            }
            guard method == 8 || compressed == uncompressed else {
                throw fail("entry \"\(entryName)\" is stored but has sizes \(compressed) and \(uncompressed)")
            }
            guard inside(localHeader, 30), u32(localHeader) == 0x0403_4B50, u16(localHeader + 8) == method else {
                throw fail("entry \"\(entryName)\" has no matching local header at byte \(localHeader)")
            }
            // Without a data descriptor (flag bit 3) the local header repeats the CRC and sizes.
            guard flags & 8 != 0 || (u32(localHeader + 14) == u32(position + 16) && u32(localHeader + 18) == compressed
                                     && u32(localHeader + 22) == uncompressed) else {
                throw fail("entry \"\(entryName)\" has a local header that disagrees with the central directory")
            }
            let dataStart = localHeader + 30 + u16(localHeader + 26) + u16(localHeader + 28)
            guard inside(dataStart, compressed), dataStart + compressed <= directoryStart else {
                throw fail("entry \"\(entryName)\" data (\(compressed) bytes at \(dataStart)) lies outside the archive's file area")
            }
            if flags & 8 != 0, !inside(dataStart + compressed, 16) {
                throw fail("entry \"\(entryName)\" data descriptor lies outside the archive")
            }
            entries.append(Entry(name: entryName, isDirectory: entryName.hasSuffix("/"),
                                 dataRange: dataStart..<dataStart + compressed, uncompressedSize: uncompressed,
                                 isCompressed: method == 8, crc32: UInt32(u32(position + 16))))
            position += recordLength
        }
        self.entries = entries
    }
}
