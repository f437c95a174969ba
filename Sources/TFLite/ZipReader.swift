import Foundation
import ZIPFoundation

/// Reads every file of an in-memory zip archive through ZIPFoundation, with limits against hostile archives.
enum ZipReader {
    /// Largest single entry accepted (uncompressed), 1 GiB.
    static let maxEntrySize: UInt64 = 1 << 30
    /// Largest total of all entries accepted (uncompressed), 4 GiB.
    static let maxTotalSize: UInt64 = 4 << 30
    /// Largest number of entries accepted.
    static let maxEntries = 10_000

    /// The archive's files in archive order (directories skipped), CRC-checked.
    /// - Throws: `VisionTasksError.invalidBundle` naming `name` and the problem.
    static func files(in data: Data, name: String) throws -> [(name: String, data: Data)] {
        // ZIPFoundation trusts the offsets in an archive (its in-memory reader traps on one past the end),
        // so the whole directory is checked first; ZIPFoundation then extracts and checks each CRC.
        let directory = try ZipDirectory(data, name: name)
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw VisionTasksError.invalidBundle("\(name) is not a readable zip archive (\(error))")
        }
        var files: [(name: String, data: Data)] = []
        var total: UInt64 = 0
        for entry in archive {
            guard files.count < maxEntries else {
                throw VisionTasksError.invalidBundle("\(name) has more than \(maxEntries) entries")
            }
            let path = entry.path
            switch entry.type {
            case .directory: continue
            case .symlink: throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" is a symbolic link")
            case .file: break
            }
            let size = entry.uncompressedSize
            guard size <= maxEntrySize else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" claims an absurd size of \(size) bytes")
            }
            guard entry.isCompressed || entry.compressedSize == size, size <= maxTotalSize - total else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" has inconsistent sizes (\(entry.compressedSize) stored, \(size) uncompressed)")
            }
            total += size
            var bytes = Data()
            bytes.reserveCapacity(Int(size))
            let checksum: CRC32
            do {
                checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                    guard UInt64(bytes.count + chunk.count) <= size else {
                        throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" holds more than its declared \(size) bytes")
                    }
                    bytes.append(chunk)
                }
            } catch let error as VisionTasksError {
                throw error
            } catch {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" cannot be extracted (\(error))")
            }
            guard checksum == entry.checksum else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" is corrupted (CRC-32 mismatch)")
            }
            guard UInt64(bytes.count) == size else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" holds \(bytes.count) bytes, not its declared \(size)")
            }
            files.append((path, bytes))
        }
        let expected = directory.entries.filter { !$0.isDirectory }
        guard files.count == expected.count else {
            throw VisionTasksError.invalidBundle("\(name): the zip reader found \(files.count) of the \(expected.count) files its directory lists")
        }
        return files
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
            let dataStart = localHeader + 30 + u16(localHeader + 26) + u16(localHeader + 28)
            guard inside(dataStart, compressed), dataStart + compressed <= directoryStart else {
                throw fail("entry \"\(entryName)\" data (\(compressed) bytes at \(dataStart)) lies outside the archive's file area")
            }
            if flags & 8 != 0, !inside(dataStart + compressed, 16) {
                throw fail("entry \"\(entryName)\" data descriptor lies outside the archive")
            }
            entries.append(Entry(name: entryName, isDirectory: entryName.hasSuffix("/"),
                                 dataRange: dataStart..<dataStart + compressed, uncompressedSize: uncompressed))
            position += recordLength
        }
        self.entries = entries
    }
}
