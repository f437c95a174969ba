import CSwscale
import Foundation
import VisionErrors

/// Turns a frame that ffmpeg sent in the pixel format it decoded it to into packed RGB, with
/// libswscale set up as ffmpeg's own conversion for `-pix_fmt rgb24` sets it up (bicubic flags, the
/// frame's colour matrix and range): the pixels are those ffmpeg would have sent, byte for byte,
/// while a 4:2:0 video sends half the bytes through the pipe. Used by one reading thread.
final class RGBConversion {
    /// How one frame's pixels arrive: ffmpeg's name of their format (`yuv420p`, `rgb24`, ...), their
    /// size, and the colour matrix and range its `showinfo` gave (`bt709`, `tv`; `unknown` if unset).
    struct Layout: Equatable {
        let pixelFormat: String
        let width: Int
        let height: Int
        let colorSpace: String
        let colorRange: String
    }

    /// Bytes of room kept past the last row of a converted frame.
    static let padding = 256
    private var context: UnsafeMutableRawPointer?
    private var contextKey: (format: Int32, width: Int, height: Int)?
    private var colours: (space: String, range: String)?
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var converted = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init() { silenceLibraryLog }

    deinit {
        vt_sws_free_context(context)
        free(scratch.baseAddress)
        free(converted.baseAddress)
    }

    /// `buffer` made `count` bytes long, with `padding` more after them (contents not kept).
    private static func resize(_ buffer: inout UnsafeMutableRawBufferPointer, to count: Int, what: String) throws {
        if buffer.count == count { return }
        free(buffer.baseAddress)
        buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        guard let block = malloc(count + padding) else {
            throw VisionTasksError.invalidVideo("cannot allocate \(count) bytes for \(what)")
        }
        buffer = UnsafeMutableRawBufferPointer(start: block, count: count)
    }

    /// Fills `rgb` (width × height × 3 bytes, or `padding` more, which it may overwrite: then converted straight
    /// into it rather than through a buffer of its own) with the frame `layout` describes, whose bytes `read`
    /// delivers into the buffer it is given (false: the stream ended cleanly before the frame).
    /// Throws `invalidVideo` naming `source` for a pixel format that has no conversion to RGB.
    func fill(
        _ rgb: UnsafeMutableRawBufferPointer, layout: Layout, source: String,
        read: (UnsafeMutableRawBufferPointer) throws -> Bool
    ) throws -> Bool {
        let rgbCount = layout.width * layout.height * 3
        if layout.pixelFormat == "rgb24" { return try read(UnsafeMutableRawBufferPointer(rebasing: rgb[..<rgbCount])) }
        let format = av_get_pix_fmt(layout.pixelFormat)
        let size = av_image_get_buffer_size(format, Int32(layout.width), Int32(layout.height), 1)
        guard format != AV_PIX_FMT_NONE, sws_isSupportedInput(format) > 0, size > 0 else {
            throw VisionTasksError.invalidVideo(
                "ffmpeg decodes \(source) to pixel format \(layout.pixelFormat), which has no conversion to RGB")
        }
        // Room past the last row of both: libswscale's vector loops may read a little beyond a row's
        // end, as ffmpeg's own frames (padded by 64 bytes and more) allow, and write beyond it too
        // (Debian 12's libswscale on x86-64 writes past the last RGB row of a frame whose width is not
        // a multiple of 16: 360 pixels corrupted the heap), so it converts into a padded buffer of ours
        // and the rows are copied out.
        let frame = "a \(layout.width)x\(layout.height) frame of \(source)"
        let direct = rgb.count >= rgbCount + Self.padding
        try Self.resize(&scratch, to: Int(size), what: frame)
        if !direct { try Self.resize(&converted, to: rgbCount, what: frame) }
        guard try read(scratch) else { return false }
        let converter = try context(format: format, layout: layout, source: source)
        var planes = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var strides = [Int32](repeating: 0, count: 4)
        _ = av_image_fill_arrays(
            &planes, &strides, scratch.baseAddress!.assumingMemoryBound(to: UInt8.self), format,
            Int32(layout.width), Int32(layout.height), 1)
        let sources = planes.map { UnsafePointer($0) }
        let target: [UnsafeMutablePointer<UInt8>?] = [
            (direct ? rgb : converted).baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil,
        ]
        let targetStrides: [Int32] = [Int32(layout.width * 3), 0, 0, 0]
        let rows = vt_sws_scale(converter, sources, strides, 0, Int32(layout.height), target, targetStrides)
        guard rows == Int32(layout.height) else {
            throw VisionTasksError.invalidVideo(
                "converting a frame of \(source) from \(layout.pixelFormat) to RGB failed")
        }
        if !direct { rgb.copyMemory(from: UnsafeRawBufferPointer(converted)) } // `converted` holds rgbCount bytes
        return true
    }

    /// The conversion for this format and size, its colour matrix and range set as ffmpeg's scale
    /// filter sets them for each frame: the frame's matrix (BT.601 when unset or unknown to
    /// libswscale) both ways, and the frame's range when it has one.
    private func context(format: AVPixelFormat, layout: Layout, source: String) throws -> UnsafeMutableRawPointer {
        if let key = contextKey, let context, key == (format.rawValue, layout.width, layout.height) {
            try setColours(context, layout: layout, source: source)
            return context
        }
        vt_sws_free_context(context)
        colours = nil
        context = vt_sws_get_context(
            Int32(layout.width), Int32(layout.height), format,
            Int32(layout.width), Int32(layout.height), AV_PIX_FMT_RGB24, vt_sws_bicubic)
        guard let context else {
            contextKey = nil
            throw VisionTasksError.invalidVideo(
                "no conversion of \(source)'s \(layout.width)x\(layout.height) \(layout.pixelFormat) frames to RGB")
        }
        contextKey = (format.rawValue, layout.width, layout.height)
        try setColours(context, layout: layout, source: source)
        return context
    }

    private func setColours(_ context: UnsafeMutableRawPointer, layout: Layout, source: String) throws {
        if let colours, colours == (layout.colorSpace, layout.colorRange) { return }
        var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var sourceFull: Int32 = 0, targetFull: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0,
            saturation: Int32 = 0
        guard
            vt_sws_get_colorspace_details(
                context, &inverse, &sourceFull, &table, &targetFull,
                &brightness, &contrast, &saturation) >= 0
        else {
            throw VisionTasksError.invalidVideo(
                "\(source): \(layout.pixelFormat) frames have no colour conversion to RGB")
        }
        var space = av_color_space_from_name(layout.colorSpace)
        if space < 1 || space > 10 || space == Int32(AVCOL_SPC_YCGCO.rawValue) {
            space = Int32(AVCOL_SPC_BT470BG.rawValue)
        }
        let coefficients = sws_getCoefficients(space)
        let range = av_color_range_from_name(layout.colorRange)
        if range == Int32(AVCOL_RANGE_JPEG.rawValue) {
            sourceFull = 1
        } else if range == Int32(AVCOL_RANGE_MPEG.rawValue) {
            sourceFull = 0
        }
        _ = vt_sws_set_colorspace_details(
            context, coefficients, sourceFull, coefficients, targetFull, brightness, contrast, saturation)
        colours = (layout.colorSpace, layout.colorRange)
    }
}

/// libswscale's warnings (a deprecated full-range format, say) would land on this process's stderr:
/// every failure is read from return values instead. The log level is libavutil's, for the whole
/// process, so it is lowered only while it has its default: an app that set its own keeps it.
private let silenceLibraryLog: Void = {
    if av_log_get_level() == AV_LOG_INFO { av_log_set_level(AV_LOG_QUIET) }
}()
