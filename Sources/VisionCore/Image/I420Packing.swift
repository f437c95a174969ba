import CImageCodecs
import VisionErrors

/// RGB pixels packed into I420 (planar YUV 4:2:0, BT.601 limited range, as ffmpeg converts RGB to
/// `yuv420p` by default): what a video encoder takes, at half the bytes of RGB. Odd sizes grow
/// by one to even (the last column or row repeated), as H.264 needs.
public enum I420Packing {
    /// How the source pixels are stored.
    public enum Layout: Sendable {
        /// Packed RGB, 3 bytes per pixel.
        case rgb
        /// 32-bit little-endian xRGB words (bytes B, G, R, unused), as Cairo's RGB24 surfaces.
        case bgrx

        /// Bytes one pixel takes.
        public var bytesPerPixel: Int { self == .rgb ? 3 : 4 }
    }

    /// The even size a `width`×`height` frame is packed at.
    public static func paddedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + 1) & ~1, (height + 1) & ~1)
    }

    /// Bytes of the I420 frame for a `width`×`height` picture (Y, then U, then V, rows packed).
    public static func byteCount(width: Int, height: Int) -> Int {
        let (w2, h2) = paddedSize(width: width, height: height)
        return w2 * h2 + 2 * (w2 / 2) * (h2 / 2)
    }

    /// The bytes a source of `width`×`height` pixels of `layout`, rows `rowBytes` apart, spans
    /// (the last row unpadded); nil for a size out of 1...65535, a row stride shorter than a row,
    /// or a span that overflows.
    public static func sourceByteCount(width: Int, height: Int, rowBytes: Int, layout: Layout) -> Int? {
        guard width > 0, height > 0, width <= 65_535, height <= 65_535, rowBytes >= width * layout.bytesPerPixel else {
            return nil
        }
        let (rows, rowsOverflow) = rowBytes.multipliedReportingOverflow(by: height - 1)
        let (needed, sumOverflow) = rows.addingReportingOverflow(width * layout.bytesPerPixel)
        return rowsOverflow || sumOverflow ? nil : needed
    }

    /// Packs `width`×`height` pixels of `layout` (rows `rowBytes` apart) into `destination`,
    /// which must hold `byteCount(width:height:)` bytes. Throws `invalidArgument` if a buffer is short.
    public static func pack(
        _ source: UnsafeRawBufferPointer, layout: Layout, width: Int, height: Int, rowBytes: Int,
        into destination: UnsafeMutableRawBufferPointer
    ) throws {
        guard let needed = sourceByteCount(width: width, height: height, rowBytes: rowBytes, layout: layout),
            source.count >= needed
        else {
            throw VisionTasksError.invalidArgument(
                "\(source.count) bytes do not hold \(width)×\(height) \(layout) pixels \(rowBytes) bytes apart")
        }
        guard destination.count >= byteCount(width: width, height: height),
            let src = source.baseAddress, let dst = destination.baseAddress
        else {
            throw VisionTasksError.invalidArgument(
                "\(destination.count) bytes are too few for a \(width)×\(height) I420 frame")
        }
        ic_pack_i420(
            src.assumingMemoryBound(to: UInt8.self), rowBytes, Int32(width), Int32(height),
            layout == .rgb ? IC_LAYOUT_RGB : IC_LAYOUT_BGRX,
            dst.assumingMemoryBound(to: UInt8.self))
    }
}
