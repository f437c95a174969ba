import CCairo
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

    /// A canvas holding a copy of `bytes`: `width`×`height` pixels of `channels` (3 = RGB, 4 = RGBA,
    /// alpha ignored) bytes each, rows `rowBytes` apart.
    init(width: Int, height: Int, channels: Int, rowBytes: Int, bytes: UnsafeRawBufferPointer) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw VisionTasksError.invalidImage("cannot draw on a \(width)×\(height) picture")
        }
        guard channels == 3 || channels == 4, rowBytes >= width * channels, bytes.count >= rowBytes * (height - 1) + width * channels else {
            throw VisionTasksError.invalidArgument("pixel buffer of \(bytes.count) bytes is too small for \(width)×\(height)×\(channels) with \(rowBytes) bytes per row")
        }
        self.width = width
        self.height = height
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(width)))
        pixels = .allocate(capacity: stride * height)
        for y in 0..<height {
            let src = bytes.baseAddress!.advanced(by: y * rowBytes).assumingMemoryBound(to: UInt8.self)
            let dst = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let s = src + x * channels
                dst[x] = 0xFF00_0000 | UInt32(s[0]) << 16 | UInt32(s[1]) << 8 | UInt32(s[2])
            }
        }
        surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))
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

    /// A size in pixels that reads the same on small and large pictures: `fraction` of the shorter side, at least `minimum`.
    func scaled(_ fraction: Double, minimum: Double) -> Double {
        max(minimum, Double(min(width, height)) * fraction)
    }

    private func setColor(_ c: Color) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }

    /// Strokes each segment (pixel coordinates) with one colour and width.
    func strokeSegments(_ segments: [(Point, Point)], color: Color, width lineWidth: Double) {
        guard !segments.isEmpty else { return }
        for (a, b) in segments {
            cairo_move_to(cr, a.x, a.y)
            cairo_line_to(cr, b.x, b.y)
        }
        setColor(color)
        cairo_set_line_width(cr, lineWidth)
        cairo_stroke(cr)
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

/// A point in pixels.
struct Point {
    var x: Double
    var y: Double
}
