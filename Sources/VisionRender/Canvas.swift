import CCairo
import CImageCodecs
import VisionErrors

/// An opaque RGB picture that Cairo draws on: 32-bit xRGB pixels in native byte order
/// (B, G, R, x in memory on little-endian machines), anti-aliased lines and text.
final class Canvas {
    let width: Int
    let height: Int
    private let stride: Int
    private let pixels: UnsafeMutablePointer<UInt8>
    private let surface: OpaquePointer
    private let cr: OpaquePointer

    // MARK: - Setting the pixels

    /// A canvas holding a copy of `bytes`: `width`×`height` pixels of `channels` (3 = RGB, 4 = RGBA,
    /// alpha ignored) bytes each, rows `rowBytes` apart.
    init(width: Int, height: Int, channels: Int, rowBytes: Int, bytes: UnsafeRawBufferPointer) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw VisionTasksError.invalidImage("cannot draw on a \(width)×\(height) picture")
        }
        try Self.check(width: width, height: height, channels: channels, rowBytes: rowBytes, bytes: bytes)
        self.width = width
        self.height = height
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(width)))
        pixels = .allocate(capacity: stride * height)
        Self.copy(
            bytes, channels: channels, rowBytes: rowBytes, into: pixels, stride: stride, width: width, height: height)
        surface = cairo_image_surface_create_for_data(
            pixels, CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))
        cr = cairo_create(surface)
        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(cairo_status(cr)))
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
            pixels.deallocate()
            throw VisionTasksError.processingFailed("Cairo could not make a \(width)×\(height) canvas: \(message)")
        }
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_BEST)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        pixels.deallocate()
    }

    private static func check(
        width: Int, height: Int, channels: Int, rowBytes: Int,
        bytes: UnsafeRawBufferPointer
    ) throws {
        // A row's start within the buffer first: sizes are at most 32767, so the product below cannot overflow then.
        guard channels == 3 || channels == 4, rowBytes >= width * channels, height == 1 || rowBytes <= bytes.count,
            bytes.count >= rowBytes * (height - 1) + width * channels
        else {
            throw VisionTasksError.invalidArgument(
                "pixel buffer of \(bytes.count) bytes is too small for \(width)×\(height)×\(channels) with \(rowBytes) bytes per row"
            )
        }
    }

    /// Replaces the picture with a copy of `bytes` of the canvas's size (see `init`), so one canvas
    /// serves every frame of a video. Throws if the buffer does not fit.
    func replace(channels: Int, rowBytes: Int, bytes: UnsafeRawBufferPointer) throws {
        try Self.check(width: width, height: height, channels: channels, rowBytes: rowBytes, bytes: bytes)
        cairo_surface_flush(surface)
        Self.copy(
            bytes, channels: channels, rowBytes: rowBytes, into: pixels, stride: stride, width: width, height: height)
        cairo_surface_mark_dirty(surface)
    }

    /// Copies checked `bytes` into xRGB `pixels` (rows `stride` bytes apart).
    private static func copy(
        _ bytes: UnsafeRawBufferPointer, channels: Int, rowBytes: Int,
        into pixels: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int
    ) {
        guard let base = bytes.baseAddress else { return }
        ic_expand_xrgb(
            base.assumingMemoryBound(to: UInt8.self), rowBytes, Int32(channels), pixels, stride,
            Int32(width), Int32(height))
    }

    // MARK: - Drawing

    /// A size in pixels that reads the same on small and large pictures: `fraction` of the shorter side, at least `minimum`.
    func scaled(_ fraction: Double, minimum: Double) -> Double {
        max(minimum, Double(min(width, height)) * fraction)
    }

    private func setColor(_ c: Color) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }

    /// Strokes each segment (pixel coordinates) with one colour and width, all in one path. Lines
    /// thinner than 2 pixels get flat ends and Cairo's 4×4-sample anti-aliasing: on such lines a
    /// round cap is invisible and 16 coverage levels look the same, yet the caps' polygons and the
    /// finer rasteriser made most of the cost of the face mesh's ~2,500 segments.
    func strokeSegments(_ segments: [(Point, Point)], color: Color, width lineWidth: Double) {
        guard !segments.isEmpty else { return }
        for (a, b) in segments {
            cairo_move_to(cr, a.x, a.y)
            cairo_line_to(cr, b.x, b.y)
        }
        setColor(color)
        cairo_set_line_width(cr, lineWidth)
        let thin = lineWidth < 2
        if thin {
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
            cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
        }
        cairo_stroke(cr)
        if thin {
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_antialias(cr, CAIRO_ANTIALIAS_BEST)
        }
    }

    /// Fills discs of `radius` at `centers`, with an optional outline.
    func fillDots(_ centers: [Point], radius: Double, color: Color, outline: Color? = nil) {
        guard !centers.isEmpty else { return }
        for p in centers {
            cairo_new_sub_path(cr)
            cairo_arc(cr, p.x, p.y, radius, 0, 2 * Double.pi)
        }
        setColor(color)
        if let outline {
            cairo_fill_preserve(cr)
            setColor(outline)
            cairo_set_line_width(cr, max(1, radius / 3))
            cairo_stroke(cr)
        } else {
            cairo_fill(cr)
        }
    }

    /// Strokes a rectangle outline (pixel coordinates).
    func strokeRect(x: Double, y: Double, width w: Double, height h: Double, color: Color, width lineWidth: Double) {
        cairo_rectangle(cr, x, y, w, h)
        setColor(color)
        cairo_set_line_width(cr, lineWidth)
        cairo_stroke(cr)
    }

    /// Writes `text` on a filled box whose top-left corner is near `origin`, kept inside the picture.
    func label(_ text: String, at origin: Point, size: Double, textColor: Color, background: Color) {
        cairo_set_font_size(cr, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        var fontExtents = cairo_font_extents_t()
        cairo_font_extents(cr, &fontExtents)
        let pad = size * 0.3
        let boxW = extents.x_advance + 2 * pad
        let boxH = fontExtents.ascent + fontExtents.descent + 2 * pad
        let x = min(max(0, origin.x), max(0, Double(width) - boxW))
        let y = min(max(0, origin.y), max(0, Double(height) - boxH))
        cairo_rectangle(cr, x, y, boxW, boxH)
        setColor(background)
        cairo_fill(cr)
        cairo_move_to(cr, x + pad, y + pad + fontExtents.ascent)
        setColor(textColor)
        cairo_show_text(cr, text)
    }

    // MARK: - Pixels out

    /// Calls `body` with the canvas's own buffer, read in place: 32-bit little-endian xRGB words
    /// (bytes B, G, R, unused), rows `stride` bytes apart.
    func withBGRXBytes<R>(_ body: (UnsafeRawBufferPointer, Int) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        return try body(UnsafeRawBufferPointer(start: pixels, count: stride * height), stride)
    }

    /// Blends `color` over each pixel in proportion to `mask` (row-major `width`×`height` values in
    /// [0, 1], the canvas's size) times `color.alpha`; a mask of another size changes nothing.
    func tint(mask: [Float], color: Color) {
        guard mask.count == width * height else { return }
        cairo_surface_flush(surface)
        let (r, g, b) = (color.red * 255, color.green * 255, color.blue * 255)
        for y in 0..<height {
            let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let a = Double(max(0, min(1, mask[y * width + x]))) * color.alpha
                guard a > 0 else { continue }
                let v = row[x]
                func mix(_ old: UInt32, _ new: Double) -> UInt32 {
                    UInt32((Double(old & 0xFF) * (1 - a) + new * a).rounded())
                }
                row[x] = (v & 0xFF00_0000) | mix(v >> 16, r) << 16 | mix(v >> 8, g) << 8 | mix(v, b)
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// The picture as tightly packed bytes: RGB (`channels` 3) or RGBA with opaque alpha (4).
    func bytes(channels: Int) -> [UInt8] {
        cairo_surface_flush(surface)
        var out = [UInt8](repeating: 255, count: width * height * channels)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let row = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                var o = y * width * channels
                for x in 0..<width {
                    let v = row[x]
                    dst[o] = UInt8(truncatingIfNeeded: v >> 16)
                    dst[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    dst[o + 2] = UInt8(truncatingIfNeeded: v)
                    o += channels
                }
            }
        }
        return out
    }
}

// MARK: - Points

/// A point in pixels.
struct Point {
    var x: Double
    var y: Double
}
