import Foundation
import VisionCore

/// What a request body is, from its first bytes (never from a client-given name or type).
enum MediaSniffer {
    /// Whether `bytes` start like a JPEG or a PNG file.
    static func isImage(_ bytes: Data) -> Bool {
        bytes.prefix(ImageFileFormat.signatureLength).withUnsafeBytes { ImageFileFormat(signature: $0) != nil }
    }

    /// Whether `bytes` start like a video container ffmpeg reads: MP4/MOV (`ftyp`), Matroska/WebM,
    /// AVI, MPEG transport stream or YUV4MPEG2.
    static func isVideo(_ bytes: Data) -> Bool {
        let head = [UInt8](bytes.prefix(12))
        guard head.count >= 12 else { return false }
        if Array(head[4..<8]) == Array("ftyp".utf8) { return true }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }
        if head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("AVI ".utf8) { return true }
        if head.starts(with: Array("YUV4MPEG2".utf8)) { return true }
        return head[0] == 0x47 && bytes.count > 188 && bytes[bytes.startIndex + 188] == 0x47
    }
}
