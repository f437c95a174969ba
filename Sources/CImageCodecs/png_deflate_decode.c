// The common PNG, decoded with libdeflate: 8-bit gray, gray+alpha, RGB or RGBA, not interlaced,
// without tRNS. The IDAT stream is inflated in one call (zlib's Adler-32 checked), every chunk's
// CRC is checked, and the rows are unfiltered in place. Any other file, and any file this path
// finds anything unusual in, is left to libpng (png_codec.c), which decides its pixels or its error.
// The pixels are the file's own bytes after unfiltering: what libpng gives for these files.
// libdeflate inflates one contiguous stream: a file's several IDAT chunks are copied together first,
// or, when the caller lets us rearrange its bytes (a file read only to be decoded), moved together
// where they lie, the 12 bytes between each pair kept aside and put back if libpng must take over.
#include "image_codecs.h"

#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t read_be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static int chunk_is(const unsigned char *type, const char *name) { return memcmp(type, name, 4) == 0; }

/// The payload length of IDAT chunk `k` of a run being joined at `first`: the first chunk's length
/// field stays where it is, the others' are in `gaps`.
static uint32_t idat_length(const unsigned char *data, size_t first, const unsigned char *gaps, size_t k) {
    return k == 0 ? read_be32(data + first) : read_be32(gaps + 12 * (k - 1) + 4);
}

/// Moves the payloads of the `count` consecutive IDAT chunks whose first starts at `first` (its
/// length field) together behind the first payload, keeping in `gaps` the 12 bytes before each
/// later payload (the previous chunk's CRC, its own length and type), which the moves overwrite.
static void join_idats(unsigned char *data, size_t first, size_t count, unsigned char *gaps) {
    size_t chunk = first, to = first + 8;
    for (size_t k = 0; k < count; k++) {
        uint32_t length = read_be32(data + chunk);  // not yet overwritten: `to` stays 12k - 8 bytes behind
        if (k > 0) memcpy(gaps + 12 * (k - 1), data + chunk - 4, 12);
        memmove(data + to, data + chunk + 8, length);
        to += length;
        chunk += 12 + (size_t)length;
    }
}

/// Undoes join_idats: the payloads back where they were, last first, and the 12 bytes before each.
static void split_idats(unsigned char *data, size_t first, size_t count, const unsigned char *gaps) {
    size_t to = first + 8, chunk = first;  // the last payload's offset now, and its chunk's offset before
    for (size_t k = 0; k + 1 < count; k++) {
        uint32_t length = idat_length(data, first, gaps, k);
        to += length;
        chunk += 12 + (size_t)length;
    }
    for (size_t k = count - 1; k >= 1; k--) {
        memmove(data + chunk + 8, data + to, idat_length(data, first, gaps, k));
        memcpy(data + chunk - 4, gaps + 12 * (k - 1), 12);
        uint32_t previous = idat_length(data, first, gaps, k - 1);
        to -= previous;
        chunk -= 12 + (size_t)previous;
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>

// One pixel of 3 or 4 bytes widened to 16-bit lanes, and back (only `bpp` bytes stored).
__attribute__((always_inline)) static inline __m128i load_pixel(const unsigned char *p, size_t bpp) {
    uint32_t word = 0;
    memcpy(&word, p, bpp);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)word), _mm_setzero_si128());
}

__attribute__((always_inline)) static inline void store_pixel(unsigned char *p, __m128i value, size_t bpp) {
    uint32_t word = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(value, value));
    memcpy(p, &word, bpp);
}

static __m128i abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

// Sub, Average and Paeth for 3- and 4-byte pixels, a pixel at a time in 16-bit lanes (the byte
// sums wrap as PNG's arithmetic does: the low byte is kept). Inlined with `bpp` a constant, so the
// 3- and 4-byte copies compile to plain moves.
__attribute__((always_inline)) static inline void unfilter_pixels(unsigned char *row, const unsigned char *in, const unsigned char *prior,
                            size_t stride, size_t bpp, unsigned char filter) {
    const __m128i low = _mm_set1_epi16(0xff);
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (size_t i = 0; i < stride; i += bpp) {
        __m128i x = load_pixel(in + i, bpp);
        __m128i b = prior ? load_pixel(prior + i, bpp) : _mm_setzero_si128();
        __m128i predicted;
        if (filter == 1) {
            predicted = a;
        } else if (filter == 3) {
            predicted = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
        } else {
            __m128i pa = abs16(_mm_sub_epi16(b, c));
            __m128i pb = abs16(_mm_sub_epi16(a, c));
            __m128i pc = abs16(_mm_sub_epi16(_mm_add_epi16(a, b), _mm_add_epi16(c, c)));
            // a where pa <= pb and pa <= pc; else b where pb <= pc; else c.
            __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
            __m128i take_c = _mm_cmpgt_epi16(pb, pc);
            __m128i bc = _mm_or_si128(_mm_and_si128(take_c, c), _mm_andnot_si128(take_c, b));
            predicted = _mm_or_si128(_mm_and_si128(not_a, bc), _mm_andnot_si128(not_a, a));
        }
        a = _mm_and_si128(_mm_add_epi16(x, predicted), low);
        store_pixel(row + i, a, bpp);
        c = b;
    }
}
#endif

static unsigned char paeth(unsigned char a, unsigned char b, unsigned char c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

// Unfilters one row: `raw` is its filter byte and filtered bytes, `prior` the unfiltered row above
// (NULL for the first row), `row` where it goes. `row` may start before `raw` in the same buffer:
// each pixel of `raw` is read before the pixel of `row` that may overlap it is written.
static int unfilter_row(unsigned char *row, const unsigned char *raw, const unsigned char *prior,
                        size_t stride, size_t bpp) {
    unsigned char filter = raw[0];
    const unsigned char *in = raw + 1;
    if (filter > 4) return 1;
    if (filter == 0 || (filter == 2 && prior == NULL)) {
        memmove(row, in, stride);
        return 0;
    }
    if (filter == 2) {
        for (size_t i = 0; i < stride; i++) row[i] = (unsigned char)(in[i] + prior[i]);
        return 0;
    }
#if defined(__SSE2__)
    if (bpp == 3) {
        unfilter_pixels(row, in, prior, stride, 3, filter);
        return 0;
    }
    if (bpp == 4) {
        unfilter_pixels(row, in, prior, stride, 4, filter);
        return 0;
    }
#endif
    for (size_t i = 0; i < stride; i++) {
        unsigned char left = i >= bpp ? row[i - bpp] : 0;
        unsigned char up = prior ? prior[i] : 0;
        unsigned char corner = (prior && i >= bpp) ? prior[i - bpp] : 0;
        unsigned char predicted = filter == 1 ? left
                                : filter == 3 ? (unsigned char)(((unsigned)left + up) >> 1)
                                              : paeth(left, up, corner);
        row[i] = (unsigned char)(in[i] + predicted);
    }
    return 0;
}

/// ic_decode_png_deflate, and with `writable` (the same bytes as `data`) ic_decode_png_deflate_in_place.
static int decode_png_deflate(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out,
                              unsigned char *writable) {
    memset(out, 0, sizeof(*out));
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size < 8 + 25 || memcmp(data, signature, 8) != 0) return IC_PNG_NOT_HANDLED;
    size_t offset = 8;
    // IHDR: first, 13 bytes.
    if (read_be32(data + offset) != 13 || !chunk_is(data + offset + 4, "IHDR")) return IC_PNG_NOT_HANDLED;
    const unsigned char *header = data + offset + 8;
    uint32_t width = read_be32(header), height = read_be32(header + 4);
    int depth = header[8], color = header[9];
    if (header[10] != 0 || header[11] != 0 || header[12] != 0 || depth != 8) return IC_PNG_NOT_HANDLED;
    int channels = color == 0 ? 1 : color == 4 ? 2 : color == 2 ? 3 : color == 6 ? 4 : 0;
    if (channels == 0 || width == 0 || height == 0 || width > 65500 || height > 65500) return IC_PNG_NOT_HANDLED;
    // Larger images go to libpng, which reports IC_TOO_MANY_PIXELS from the same header.
    if ((size_t)width * (size_t)height > max_pixels) return IC_PNG_NOT_HANDLED;

    // Walks the chunks: every CRC checked, the IDATs consecutive, IEND present, no tRNS, no critical
    // chunk but IHDR, PLTE, IDAT and IEND, and PLTE (a suggested palette here) once, before the IDATs,
    // in RGB or RGBA only.
    const unsigned char *first_idat = NULL;
    size_t idat_total = 0, idat_count = 0, idat_end = 0;
    int seen_idat = 0, idat_closed = 0, seen_iend = 0, seen_plte = 0;
    while (!seen_iend) {
        if (size - offset < 12) return IC_PNG_NOT_HANDLED;
        uint32_t length = read_be32(data + offset);
        if (length > 0x7fffffffu || (size_t)length > size - offset - 12) return IC_PNG_NOT_HANDLED;
        const unsigned char *type = data + offset + 4;
        uint32_t crc = (uint32_t)libdeflate_crc32(0, type, (size_t)length + 4);
        if (crc != read_be32(type + 4 + length)) return IC_PNG_NOT_HANDLED;
        if (chunk_is(type, "IDAT")) {
            if (idat_closed) return IC_PNG_NOT_HANDLED;
            if (!seen_idat) first_idat = type + 4;
            seen_idat = 1;
            idat_total += length;
            idat_count += 1;
        } else {
            if (seen_idat) idat_closed = 1;
            if (chunk_is(type, "IEND")) {
                seen_iend = 1;
            } else if (chunk_is(type, "tRNS")) {
                return IC_PNG_NOT_HANDLED;
            } else if ((type[0] & 0x20) == 0 && !chunk_is(type, "IHDR") && !chunk_is(type, "PLTE")) {
                return IC_PNG_NOT_HANDLED;
            } else if (chunk_is(type, "IHDR") && offset != 8) {
                return IC_PNG_NOT_HANDLED;
            } else if (chunk_is(type, "PLTE")) {
                if (seen_plte || seen_idat || channels < 3) return IC_PNG_NOT_HANDLED;
                seen_plte = 1;
            }
        }
        offset += 12 + (size_t)length;
        if (chunk_is(type, "IDAT")) idat_end = offset;
    }
    if (!seen_idat || idat_total == 0) return IC_PNG_NOT_HANDLED;

    // One IDAT is inflated where it lies; several are joined first: copied (at most the file's
    // size), or moved together where they lie.
    const unsigned char *stream = first_idat;
    unsigned char *joined = NULL, *gaps = NULL;
    size_t first_chunk = (size_t)(first_idat - 8 - data);
    if (idat_count > 1 && writable != NULL) {
        gaps = (unsigned char *)malloc(12 * (idat_count - 1));
        if (gaps == NULL) return IC_PNG_NOT_HANDLED;
        join_idats(writable, first_chunk, idat_count, gaps);
    } else if (idat_count > 1) {
        joined = (unsigned char *)malloc(idat_total);
        if (joined == NULL) return IC_PNG_NOT_HANDLED;
        size_t at = 0;
        for (size_t chunk = first_chunk; chunk < idat_end;) {
            uint32_t length = read_be32(data + chunk);
            memcpy(joined + at, data + chunk + 8, length);
            at += length;
            chunk += 12 + (size_t)length;
        }
        stream = joined;
    }

    size_t stride = (size_t)width * (size_t)channels;
    size_t raw_size = (size_t)height * (stride + 1);
    // Not cleared: kept only when the stream fills it exactly (produced == raw_size).
    unsigned char *pixels = (unsigned char *)ic_pixels_alloc_overwritten(raw_size);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    size_t produced = 0;
    int ok = pixels != NULL && inflater != NULL &&
             libdeflate_zlib_decompress(inflater, stream, idat_total, pixels, raw_size, &produced) == LIBDEFLATE_SUCCESS &&
             produced == raw_size;
    if (inflater != NULL) libdeflate_free_decompressor(inflater);
    free(joined);
    // Rows unfiltered in place: row y moves from y*(stride+1)+1 down to y*stride.
    for (size_t y = 0; ok && y < height; y++) {
        unsigned char *row = pixels + y * stride;
        const unsigned char *raw = pixels + y * (stride + 1);
        ok = unfilter_row(row, raw, y == 0 ? NULL : row - stride, stride, (size_t)channels) == 0;
    }
    if (gaps != NULL) {
        if (!ok) split_idats(writable, first_chunk, idat_count, gaps);
        free(gaps);
    }
    if (!ok) {
        ic_pixels_free(pixels);
        return IC_PNG_NOT_HANDLED;
    }
    unsigned char *fitted = (unsigned char *)ic_pixels_realloc(pixels, stride * height);
    out->pixels = fitted != NULL ? fitted : pixels;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = channels;
    return 0;
}

int ic_decode_png_deflate(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out) {
    return decode_png_deflate(data, size, max_pixels, out, NULL);
}

int ic_decode_png_deflate_in_place(unsigned char *data, size_t size, size_t max_pixels, ic_image *out) {
    return decode_png_deflate(data, size, max_pixels, out, data);
}
