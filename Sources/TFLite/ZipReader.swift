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
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
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
            guard UInt64(bytes.count) == size else {
                throw VisionTasksError.invalidBundle("\(name) entry \"\(path)\" holds \(bytes.count) bytes, not its declared \(size)")
            }
            files.append((path, bytes))
        }
        return files
    }

    /// Whether `data` ends with a zip end-of-central-directory record (searched in the last 64 KiB + 22 bytes).
    static func hasEndOfCentralDirectory(_ data: Data) -> Bool {
        let searched = min(data.count, 65_535 + 22)
        guard searched >= 22 else { return false }
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = bytes.count - 22
            while position >= bytes.count - searched {
                if bytes[position] == 0x50, bytes[position + 1] == 0x4B, bytes[position + 2] == 5, bytes[position + 3] == 6 {
                    return true
                }
                position -= 1
            }
            return false
        }
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
