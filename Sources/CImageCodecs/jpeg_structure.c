// A bounds-checked walk over a JPEG's marker segments, run before stb_image sees the bytes.
// stb_image (the decoder MediaPipe's file loader uses, so the one whose pixels we must give)
// trusts parts of the header it reads: a Huffman table of more than 256 codes overruns its
// tables, a scan may name a table never defined (uninitialised memory), and a truncated file
// decodes into silently grey pixels. This check refuses all of those first.
#include "image_codecs.h"
#include "jpeg_structure.h"
#include "codec_message.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    int id;
    int quant;
} frame_component;

static int fail(char *message, const char *text, size_t offset) {
    return ic_fail(message, "%s (at byte %zu)", text, offset);
}

static unsigned read16(const unsigned char *p) { return ((unsigned)p[0] << 8) | p[1]; }

// DHT: one or more tables, each a class/id byte, 16 code counts and their symbols.
static int check_dht(const unsigned char *p, size_t length, size_t at, int defined[2][4], char *message) {
    size_t i = 0;
    while (i < length) {
        if (length - i < 17) return fail(message, "truncated Huffman table", at + i);
        int table_class = p[i] >> 4, id = p[i] & 15;
        if (table_class > 1 || id > 3) return fail(message, "bad Huffman table class or id", at + i);
        size_t count = 0;
        for (int k = 1; k <= 16; k++) count += p[i + k];
        if (count > 256) return fail(message, "Huffman table with more than 256 codes", at + i);
        if (count > length - i - 17) return fail(message, "truncated Huffman table", at + i);
        defined[table_class][id] = 1;
        i += 17 + count;
    }
    return 0;
}

// DQT: one or more tables of 64 one- or two-byte steps.
static int check_dqt(const unsigned char *p, size_t length, size_t at, int defined[4], char *message) {
    size_t i = 0;
    while (i < length) {
        int precision = p[i] >> 4, id = p[i] & 15;
        if (precision > 1 || id > 3) return fail(message, "bad quantization table precision or id", at + i);
        size_t size = precision ? 128 : 64;
        if (length - i - 1 < size) return fail(message, "truncated quantization table", at + i);
        defined[id] = 1;
        i += 1 + size;
    }
    return 0;
}

int ic_check_jpeg_structure(const unsigned char *data, size_t size, char *message) {
    message[0] = 0;
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return fail(message, "no start-of-image marker", 0);
    int huffman[2][4] = {{0}}, quant[4] = {0};
    frame_component components[4];
    int component_count = 0, have_frame = 0, progressive = 0, scans = 0;
    size_t pos = 2;
    for (;;) {
        // A marker: 0xFF, any fill bytes 0xFF, then its code.
        if (pos >= size) return fail(message, "truncated file (no end-of-image marker)", pos);
        if (data[pos] != 0xFF) return fail(message, "expected a marker", pos);
        while (pos < size && data[pos] == 0xFF) pos++;
        if (pos >= size) return fail(message, "truncated file (no end-of-image marker)", pos);
        const int marker = data[pos++];
        const size_t marker_at = pos - 2;
        if (marker == 0xD9) {
            if (scans == 0) return fail(message, "no image data before the end-of-image marker", marker_at);
            return 0;
        }
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
            return fail(message, "restart or TEM marker outside image data", marker_at);
        }
        if (size - pos < 2) return fail(message, "truncated marker segment", marker_at);
        const size_t length = read16(data + pos);
        if (length < 2 || length > size - pos) return fail(message, "marker segment runs past the end of the file", marker_at);
        const unsigned char *body = data + pos + 2;
        const size_t body_length = length - 2, body_at = pos + 2;
        pos += length;

        switch (marker) {
        case 0xC4:
            if (check_dht(body, body_length, body_at, huffman, message)) return 1;
            break;
        case 0xDB:
            if (check_dqt(body, body_length, body_at, quant, message)) return 1;
            break;
        case 0xDD:
            if (body_length != 2) return fail(message, "bad restart interval segment", marker_at);
            break;
        case 0xC0: case 0xC1: case 0xC2: {
            if (have_frame) return fail(message, "more than one frame header", marker_at);
            have_frame = 1;
            progressive = marker == 0xC2;
            if (body_length < 6) return fail(message, "truncated frame header", marker_at);
            if (body[0] != 8) return fail(message, "only 8-bit JPEG samples are supported", marker_at);
            if (read16(body + 1) == 0 || read16(body + 3) == 0) return fail(message, "image height or width is zero", marker_at);
            component_count = body[5];
            if (component_count != 1 && component_count != 3 && component_count != 4) {
                return fail(message, "JPEG must have 1, 3 or 4 colour components", marker_at);
            }
            if (body_length != 6 + 3 * (size_t)component_count) return fail(message, "bad frame header length", marker_at);
            for (int c = 0; c < component_count; c++) {
                const unsigned char *f = body + 6 + 3 * c;
                int h = f[1] >> 4, v = f[1] & 15;
                if (h < 1 || h > 4 || v < 1 || v > 4) return fail(message, "bad sampling factors", marker_at);
                if (f[2] > 3) return fail(message, "bad quantization table id", marker_at);
                components[c].id = f[0];
                components[c].quant = f[2];
            }
            break;
        }
        case 0xDA: {
            if (!have_frame) return fail(message, "scan before the frame header", marker_at);
            if (body_length < 1) return fail(message, "truncated scan header", marker_at);
            const int n = body[0];
            if (n < 1 || n > component_count || body_length != 4 + 2 * (size_t)n) {
                return fail(message, "bad scan header", marker_at);
            }
            const int start = body[1 + 2 * n], end = body[2 + 2 * n];
            const int high = body[3 + 2 * n] >> 4;
            for (int s = 0; s < n; s++) {
                const int id = body[1 + 2 * s], dc = body[2 + 2 * s] >> 4, ac = body[2 + 2 * s] & 15;
                int found = -1;
                for (int c = 0; c < component_count; c++) {
                    if (components[c].id == id) found = c;
                }
                if (found < 0) return fail(message, "scan names a component the frame lacks", marker_at);
                if (dc > 3 || ac > 3) return fail(message, "bad Huffman table id in scan", marker_at);
                if (!quant[components[found].quant]) return fail(message, "scan before its quantization table", marker_at);
                // Which tables the scan decodes with: sequential scans both; progressive DC
                // first scans the DC one, AC scans the AC one, DC refinements none.
                const int needs_dc = !progressive || (start == 0 && high == 0);
                const int needs_ac = !progressive || start > 0;
                if ((needs_dc && !huffman[0][dc]) || (needs_ac && !huffman[1][ac])) {
                    return fail(message, "scan uses an undefined Huffman table", marker_at);
                }
            }
            if (progressive && (start > 63 || end > 63 || start > end || (start > 0 && n != 1))) {
                return fail(message, "bad progressive scan parameters", marker_at);
            }
            // Each scan decodes every block of its components again, even one with no data (stb reads zeros
            // past its end): a few MB of empty scan headers on a 64-megapixel frame took hours. A sequential
            // JPEG has one scan per component at most; progressive encoders write a dozen or two.
            if (++scans > (progressive ? IC_JPEG_MAX_PROGRESSIVE_SCANS : component_count)) {
                return fail(message, progressive ? "more scans than a progressive JPEG needs"
                                                 : "more scans than colour components in a sequential JPEG", marker_at);
            }
            // Entropy-coded data up to the next marker that is not a stuffed 0x00 or a restart.
            for (;;) {
                while (pos < size && data[pos] != 0xFF) pos++;
                if (pos + 1 >= size) return fail(message, "truncated file (image data without an end-of-image marker)", pos);
                const int next = data[pos + 1];
                if (next == 0x00 || (next >= 0xD0 && next <= 0xD7) || next == 0xFF) {
                    pos += next == 0xFF ? 1 : 2;
                    continue;
                }
                break;
            }
            break;
        }
        default:
            if ((marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE) break;  // APPn, COM
            if (marker >= 0xC3 && marker <= 0xCF) return fail(message, "unsupported JPEG coding (only baseline and progressive Huffman)", marker_at);
            return fail(message, "unknown JPEG marker", marker_at);
        }
    }
}
