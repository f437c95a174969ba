/// Reads the orientation tag (0x0112) of a JPEG's EXIF block (APP1 "Exif\0\0" + TIFF IFD0).
enum ExifOrientation {
    /// The EXIF orientation 1...8, or 1 when the file has none or it cannot be read.
    static func read(fromJPEG bytes: UnsafeRawBufferPointer) -> Int {
        let n = bytes.count
        var offset = 2
        // Walk the markers before the image data looking for APP1.
        while offset + 4 <= n {
            guard bytes[offset] == 0xFF else { return 1 }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 {
                offset += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return 1 }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= n else { return 1 }
            if marker == 0xE1, let value = orientation(inApp1: bytes, from: offset + 4, count: length - 2) {
                return value
            }
            offset += 2 + length
        }
        return 1
    }

    private static func orientation(inApp1 bytes: UnsafeRawBufferPointer, from start: Int, count: Int) -> Int? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] // "Exif\0\0"
        guard count >= 6 + 8 else { return nil }
        for i in 0..<6 where bytes[start + i] != header[i] { return nil }
        let tiff = start + 6, end = start + count
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= tiff, at + 2 <= end else { return nil }
            let a = Int(bytes[at]), b = Int(bytes[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), let entries = u16(tiff + ifd) else { return nil }
        for i in 0..<entries {
            let entry = tiff + ifd + 2 + 12 * i
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(entry + 2), type == 3, let value = u16(entry + 8) else { return nil }
                return (1...8).contains(value) ? value : nil
            }
        }
        return nil
    }
}
