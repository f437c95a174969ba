// JPEG decoding through stb_image, the decoder MediaPipe's file loader uses, so that a JPEG
// gives exactly MediaPipe's pixels. The bytes pass ic_check_jpeg_structure first (see
// jpeg_structure.c for what stb_image would otherwise trust).
//
// stb_image.h (Debian's libstb-dev) is compiled here, its JPEG part only, rather than linked from
// Debian's libstb: then its colour conversion can be replaced. stb converts YCbCr to RGB in
// SIMD only when it writes four bytes a pixel; for the three we keep, it runs one pixel at a time,
// about half of a colour JPEG's decoding instructions. `ycc_to_rgb` below computes stb's own
// fixed-point formula sixteen pixels at a time (AVX2, chosen at run time) or eight (NEON, part of
// AArch64), the same bytes; every other step is stb's, as stb compiles itself for this CPU
// (SSE2 on x86-64). Tests compare the result with Debian's libstb on every fixture JPEG, and the
// kernels with stb's row function on every (Y, Cb, Cr).
#include "image_codecs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "codec_message.h"
#include "jpeg_structure.h"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
// The picture and stb's component planes (megabytes for a photo) on huge pages, see pixel_memory.c;
// while `planes_untouched` is set (stb reading the frame header for a band-by-band decode, which
// never writes the planes), they take no memory.
static _Thread_local int planes_untouched;
#define STBI_MALLOC(size) (planes_untouched ? ic_pixels_alloc_untouched(size) : ic_pixels_alloc(size))
#define STBI_REALLOC(pointer, size) ic_pixels_realloc(pointer, size)
#define STBI_FREE(pointer) ic_pixels_free(pointer)
// stb's functions we do not call (and those its STBI_ONLY_JPEG leaves undefined, which GCC reports
// at the end of the file) are static here, so unused.
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image.h>  // Debian's libstb-dev header, in the default search path: no link to libstb

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

// stb's fixed point (stbi__float2fixed, 12 fractional bits), per channel:
//   r = (16y + 8 + hi(256cr * 5743)) >> 4
//   g = (16y + 8 + hi(256cb * -1410) + hi(256cr * -2925)) >> 4
//   b = (16y + 8 + hi(256cb * 7258)) >> 4,   hi(x) = x >> 16, cb and cr centred on 0,
// then clamped to 0...255: the value stb's one-pixel row computes with 20 fractional bits.
enum { K_CR_R = 5743, K_CB_G = -1410, K_CR_G = -2925, K_CB_B = 7258 };

/// Converts `count` pixels of Y, Cb and Cr rows to packed RGB.
typedef void (*color_row)(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb, const stbi_uc *cr, int count);

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void ycc_to_rgb_avx2(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb,
                                                            const stbi_uc *cr, int count) {
    const __m256i bias = _mm256_set1_epi16(8), center = _mm256_set1_epi16(128);
    const __m256i cr_r = _mm256_set1_epi16(K_CR_R), cb_g = _mm256_set1_epi16(K_CB_G),
                  cr_g = _mm256_set1_epi16(K_CR_G), cb_b = _mm256_set1_epi16(K_CB_B);
    // In each 128-bit lane, `rg` holds 8 pixels' R (bytes 0-7) and G (8-15), `bb` their B (0-7):
    // the first shuffles give the lane's RGB bytes 0-15, the second ones bytes 16-23.
    const __m256i rg_first = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 8, -1, 1, 9, -1, 2, 10, -1, 3, 11, -1, 4, 12, -1, 5));
    const __m256i b_first = _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1));
    const __m256i rg_second = _mm256_broadcastsi128_si256(_mm_setr_epi8(13, -1, 6, 14, -1, 7, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m256i b_second = _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1));
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i yw = _mm256_add_epi16(_mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(y + i))), 4), bias);
        __m256i cbw = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cb + i))), center), 8);
        __m256i crw = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cr + i))), center), 8);
        __m256i r = _mm256_srai_epi16(_mm256_add_epi16(yw, _mm256_mulhi_epi16(crw, cr_r)), 4);
        __m256i g = _mm256_srai_epi16(
            _mm256_add_epi16(_mm256_add_epi16(yw, _mm256_mulhi_epi16(cbw, cb_g)), _mm256_mulhi_epi16(crw, cr_g)), 4);
        __m256i b = _mm256_srai_epi16(_mm256_add_epi16(yw, _mm256_mulhi_epi16(cbw, cb_b)), 4);
        // Saturating packs clamp to 0...255 (pixels 0-7 in the low lane, 8-15 in the high one).
        __m256i rg = _mm256_packus_epi16(r, g);
        __m256i bb = _mm256_packus_epi16(b, b);
        __m256i first = _mm256_or_si256(_mm256_shuffle_epi8(rg, rg_first), _mm256_shuffle_epi8(bb, b_first));
        __m256i second = _mm256_or_si256(_mm256_shuffle_epi8(rg, rg_second), _mm256_shuffle_epi8(bb, b_second));
        stbi_uc *o = out + 3 * i;
        _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(first));
        _mm_storel_epi64((__m128i *)(o + 16), _mm256_castsi256_si128(second));
        _mm_storeu_si128((__m128i *)(o + 24), _mm256_extracti128_si256(first, 1));
        _mm_storel_epi64((__m128i *)(o + 40), _mm256_extracti128_si256(second, 1));
    }
    stbi__YCbCr_to_RGB_row(out + 3 * i, y + i, cb + i, cr + i, count - i, 3);
}
#endif

#if defined(__aarch64__)
static void ycc_to_rgb_neon(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb, const stbi_uc *cr, int count) {
    const uint16x8_t bias = vdupq_n_u16(8);
    const uint8x8_t center = vdup_n_u8(0x80);
    const int16x8_t cr_r = vdupq_n_s16(K_CR_R), cb_g = vdupq_n_s16(K_CB_G), cr_g = vdupq_n_s16(K_CR_G),
                    cb_b = vdupq_n_s16(K_CB_B);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        int16x8_t yw = vreinterpretq_s16_u16(vaddq_u16(vshll_n_u8(vld1_u8(y + i), 4), bias));
        // 128·(c - 128): vqdmulh doubles the product, so hi(256c·k) exactly (never saturating).
        int16x8_t cbw = vshll_n_s8(vreinterpret_s8_u8(veor_u8(vld1_u8(cb + i), center)), 7);
        int16x8_t crw = vshll_n_s8(vreinterpret_s8_u8(veor_u8(vld1_u8(cr + i), center)), 7);
        uint8x8x3_t rgb;
        rgb.val[0] = vqmovun_s16(vshrq_n_s16(vaddq_s16(yw, vqdmulhq_s16(crw, cr_r)), 4));
        rgb.val[1] = vqmovun_s16(vshrq_n_s16(vaddq_s16(vaddq_s16(yw, vqdmulhq_s16(cbw, cb_g)), vqdmulhq_s16(crw, cr_g)), 4));
        rgb.val[2] = vqmovun_s16(vshrq_n_s16(vaddq_s16(yw, vqdmulhq_s16(cbw, cb_b)), 4));
        vst3_u8(out + 3 * i, rgb);
    }
    stbi__YCbCr_to_RGB_row(out + 3 * i, y + i, cb + i, cr + i, count - i, 3);
}
#endif

/// The vector row for this CPU, or NULL (x86-64 without AVX2, other architectures).
static color_row vector_row(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2") ? ycc_to_rgb_avx2 : NULL;
#elif defined(__aarch64__)
    return ycc_to_rgb_neon;
#else
    return NULL;
#endif
}

/// stb's colour-kernel slot: the vector row for the three-byte pixels we decode, stb's own kernel
/// (SIMD where it has one) for any other step.
static void ycc_to_rgb(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb, const stbi_uc *cr, int count, int step) {
    color_row vector = vector_row();
    if (step == 3 && vector != NULL) {
        vector(out, y, cb, cr, count);
        return;
    }
#if defined(STBI_SSE2) || defined(STBI_NEON)
    stbi__YCbCr_to_RGB_simd(out, y, cb, cr, count, step);
#else
    stbi__YCbCr_to_RGB_row(out, y, cb, cr, count, step);
#endif
}

int ic_jpeg_ycbcr_to_rgb(unsigned char *out, const unsigned char *y, const unsigned char *cb, const unsigned char *cr,
                         int count, int kernel) {
    if (kernel == IC_JPEG_COLOR_STB) {
        stbi__YCbCr_to_RGB_row(out, y, cb, cr, count, 3);
        return 0;
    }
    color_row vector = vector_row();
    if (kernel != IC_JPEG_COLOR_VECTOR || vector == NULL) return -1;
    vector(out, y, cb, cr, count);
    return 0;
}

// Band by band. stb decodes a whole scan into full-size planes (the luma of a 12 MP photo is 12 MB;
// 18 MB in all at 4:2:0, 36 MB at 4:4:4), then upsamples and converts them into the picture, so
// both are held at once. For the common photo (baseline, the three YCbCr components interleaved in
// one scan) the same work can go a band of MCU rows at a time: stb's own scan loop runs, but each
// block its IDCT writes lands in a ring of two MCU rows per component (our function in stb's IDCT
// slot, which checks the block is the one stb's loop order says comes next), and every picture row
// whose samples are in the rings is made at once, with stb's resamplers, in stb's order and with
// its state (load_jpeg_image's), then our colour row. The planes stb allocates are then never
// touched (untouched pages take no memory). Any other JPEG (progressive, gray, CMYK, RGB, a second
// scan, a scan stb cuts short, markers after the scan that change how stb would convert) goes
// through stb's own loader, from the start when the surprise comes late.

/// Rows turned together into a picture with an EXIF orientation: a quarter turn then writes runs of
/// this many pixels (whole cache lines), not single pixels down a column (a 12 MP photo's turn took
/// 40 ms in bands of 16 rows, 20 ms in bands of 64).
enum { TURN_BAND = 64 };

/// A scan decoded band by band, and the picture made from it.
typedef struct {
    stbi__jpeg *z;
    void (*idct)(stbi_uc *out, int out_stride, short data[64]);  // stb's
    stbi_uc *ring[3];  // two MCU rows (or more) of each component's plane: plane row r at ring row r & ring_mask
    int ring_mask[3];  // ring rows - 1, a power of two less one (no division per block)
    stbi__resample resample[3];  // load_jpeg_image's resampler state (line0/line1 kept as rows below)
    int row0[3], row1[3];        // the plane rows its line0/line1 point at
    stbi_uc *picture;
    int next_row;                // the next picture row to make
    int exif;                    // the EXIF orientation the picture is turned by
    stbi_uc *band;               // with an orientation: the rows made and not yet turned into the picture
    int band_first, band_count;
    int mcu_x, mcu_y, k, bx, by;  // where the next block goes, in stb's scan order
    int out_of_order;
} jpeg_stream;

/// The scan being decoded on this thread (stb's IDCT slot takes no context).
static _Thread_local jpeg_stream *active_stream;

/// Blocks of a sequential scan decoded in a row after its entropy-coded data reached a marker. stb goes on with zero
/// bits there, so a file cut short (an end-of-image marker put back) decoded its missing part as grey and black
/// blocks, without an error. A whole scan meets its marker within stb's last 4 bytes read ahead: a few blocks.
enum { MAX_BLOCKS_PAST_DATA = 64 };
static _Thread_local stbi__jpeg *watched_decoder;
static _Thread_local void (*watched_idct)(stbi_uc *out, int out_stride, short data[64]);
static _Thread_local int blocks_past_data, past_data;
static _Thread_local stbi_uc *last_position;

/// Counts a block decoded past the data without a byte read since the last one (a restart reads on: an interval
/// that fits in the bytes read ahead has every block after its marker was seen). A progressive JPEG's blocks are all
/// made after its last scan: not counted.
static void count_block(stbi__jpeg *z) {
    if (!z->nomore || z->progressive || z->s->img_buffer != last_position) {
        blocks_past_data = 0;
    } else if (++blocks_past_data > MAX_BLOCKS_PAST_DATA) {
        past_data = 1;
    }
    last_position = z->s->img_buffer;
}

/// stb's IDCT slot in its own loader: the block counted, then stb's IDCT.
static void watching_idct(stbi_uc *out, int out_stride, short data[64]) {
    count_block(watched_decoder);
    watched_idct(out, out_stride, data);
}
/// Whether the last ic_decode_jpeg on this thread went band by band.
static _Thread_local int last_decode_in_bands;

int ic_jpeg_last_decode_in_bands(void) { return last_decode_in_bands; }

static stbi_uc *ring_row(jpeg_stream *s, int k, int row) {
    return s->ring[k] + (size_t)s->z->img_comp[k].w2 * (size_t)(row & s->ring_mask[k]);
}

/// Makes every picture row whose samples are in the rings, once `bands` MCU rows are decoded.
static void make_rows(jpeg_stream *s, int bands) {
    stbi__jpeg *z = s->z;
    int all = bands == z->img_mcu_y;
    while (s->next_row < (int)z->s->img_y) {
        for (int k = 0; k < 3; k++) {
            if (!all && s->row1[k] >= bands * 8 * z->img_comp[k].v) return;
        }
        stbi_uc *rows[3];
        for (int k = 0; k < 3; k++) {
            stbi__resample *r = &s->resample[k];
            stbi_uc *line0 = ring_row(s, k, s->row0[k]), *line1 = ring_row(s, k, s->row1[k]);
            int bottom = r->ystep >= (r->vs >> 1);
            rows[k] = r->resample(z->img_comp[k].linebuf, bottom ? line1 : line0, bottom ? line0 : line1, r->w_lores, r->hs);
            if (++r->ystep >= r->vs) {
                r->ystep = 0;
                s->row0[k] = s->row1[k];
                if (++r->ypos < z->img_comp[k].y) s->row1[k] += 1;
            }
        }
        if (s->band == NULL) {
            ycc_to_rgb(s->picture + (size_t)3 * z->s->img_x * (size_t)s->next_row, rows[0], rows[1], rows[2], z->s->img_x, 3);
        } else {
            ycc_to_rgb(s->band + (size_t)3 * z->s->img_x * (size_t)s->band_count, rows[0], rows[1], rows[2], z->s->img_x, 3);
            s->band_count += 1;
            if (s->band_count == TURN_BAND || s->next_row + 1 == (int)z->s->img_y) {
                ic_turn_rows(s->band, s->band_count, s->band_first, z->s->img_x, z->s->img_y, 3, s->exif, s->picture);
                s->band_first += s->band_count;
                s->band_count = 0;
            }
        }
        s->next_row += 1;
    }
}

/// stb's IDCT slot during a streamed scan: the block into its ring, then the rows it completes.
static void stream_idct(stbi_uc *out, int out_stride, short data[64]) {
    jpeg_stream *s = active_stream;
    stbi__jpeg *z = s->z;
    count_block(z);
    if (s->out_of_order || s->mcu_y >= z->img_mcu_y) {
        s->out_of_order = 1;
        return;
    }
    int n = z->order[s->k];
    int x = (s->mcu_x * z->img_comp[n].h + s->bx) * 8, y = (s->mcu_y * z->img_comp[n].v + s->by) * 8;
    if (out_stride != z->img_comp[n].w2 || out != z->img_comp[n].data + (size_t)z->img_comp[n].w2 * (size_t)y + (size_t)x) {
        s->out_of_order = 1;
        return;
    }
    s->idct(ring_row(s, n, y) + x, out_stride, data);
    if (++s->bx < z->img_comp[n].h) return;
    s->bx = 0;
    if (++s->by < z->img_comp[n].v) return;
    s->by = 0;
    if (++s->k < z->scan_n) return;
    s->k = 0;
    if (++s->mcu_x < z->img_mcu_x) return;
    s->mcu_x = 0;
    s->mcu_y += 1;
    make_rows(s, s->mcu_y);
}

/// load_jpeg_image's test for components stored as RGB (copied, not converted).
static int stored_as_rgb(stbi__jpeg *z) {
    return z->s->img_n == 3 && (z->rgb == 3 || (z->app14_color_transform == 0 && !z->jfif));
}

/// Whether the scan just read (its header processed) can be streamed.
static int streamable(stbi__jpeg *z) {
    if (z->progressive || z->s->img_n != 3 || z->scan_n != 3 || stored_as_rgb(z)) return 0;
    int seen = 0;
    for (int k = 0; k < 3; k++) seen |= 1 << z->order[k];
    return seen == 7;
}

/// Sets up `s` for the scan whose header `z` has just read: the picture, stb's line buffers, the
/// rings and the resamplers as load_jpeg_image sets them. 0 when memory is short.
static int start_stream(jpeg_stream *s, stbi__jpeg *z, int exif) {
    memset(s, 0, sizeof(*s));
    s->z = z;
    s->exif = exif;
    // Every row is written before the picture is handed out (a scan cut short is decoded again by
    // stb's loader), so a kept block is taken as it is. One byte more, as stbi__malloc_mad3(3, x, y, 1)
    // gives (JPEG sides are 16-bit: no overflow).
    s->picture = (stbi_uc *)ic_pixels_alloc_overwritten((size_t)3 * z->s->img_x * z->s->img_y + 1);
    if (s->picture == NULL) return 0;
    if (exif >= 2 && exif <= 8) {
        // Room for stb's colour row's byte after the last pixel.
        s->band = (stbi_uc *)stbi__malloc_mad3(3 * TURN_BAND, z->s->img_x, 1, 1);
        if (s->band == NULL) return 0;
    }
    for (int k = 0; k < 3; k++) {
        z->img_comp[k].linebuf = (stbi_uc *)stbi__malloc(z->s->img_x + 3);  // freed by stbi__cleanup_jpeg
        int rows = 16;
        while (rows < 2 * 8 * z->img_comp[k].v) rows *= 2;  // 16, 32, 64 or 64 for v = 1...4
        s->ring_mask[k] = rows - 1;
        s->ring[k] = (stbi_uc *)stbi__malloc_mad2(z->img_comp[k].w2, rows, 0);
        if (z->img_comp[k].linebuf == NULL || s->ring[k] == NULL) return 0;
        stbi__resample *r = &s->resample[k];
        r->hs = z->img_h_max / z->img_comp[k].h;
        r->vs = z->img_v_max / z->img_comp[k].v;
        r->ystep = r->vs >> 1;
        r->w_lores = (z->s->img_x + r->hs - 1) / r->hs;
        r->ypos = 0;
        if (r->hs == 1 && r->vs == 1) r->resample = resample_row_1;
        else if (r->hs == 1 && r->vs == 2) r->resample = stbi__resample_row_v_2;
        else if (r->hs == 2 && r->vs == 1) r->resample = stbi__resample_row_h_2;
        else if (r->hs == 2 && r->vs == 2) r->resample = z->resample_row_hv_2_kernel;
        else r->resample = stbi__resample_row_generic;
    }
    return 1;
}

static void free_stream(jpeg_stream *s, int keep_picture) {
    for (int k = 0; k < 3; k++) STBI_FREE(s->ring[k]);
    STBI_FREE(s->band);
    if (!keep_picture) STBI_FREE(s->picture);
}

typedef enum { STREAM_DONE, STREAM_FAILED, STREAM_NOT_POSSIBLE } stream_outcome;

/// stbi__decode_jpeg_image's marker loop, with the first scan streamed into `s->picture` (see above).
static stream_outcome decode_streaming(stbi__jpeg *z, jpeg_stream *s, int exif) {
    for (int k = 0; k < 4; k++) {
        z->img_comp[k].raw_data = NULL;
        z->img_comp[k].raw_coeff = NULL;
    }
    z->restart_interval = 0;
    planes_untouched = 1;
    int header = stbi__decode_jpeg_header(z, STBI__SCAN_load);
    planes_untouched = 0;
    if (!header) return STREAM_FAILED;
    int streamed = 0;
    int m = stbi__get_marker(z);
    while (!stbi__EOI(m)) {
        if (stbi__SOS(m)) {
            if (!stbi__process_scan_header(z)) return STREAM_FAILED;
            if (streamed || !streamable(z)) return STREAM_NOT_POSSIBLE;
            if (!start_stream(s, z, exif)) {
                stbi__err("outofmem", "Out of memory");
                return STREAM_FAILED;
            }
            streamed = 1;
            s->idct = z->idct_block_kernel;
            z->idct_block_kernel = stream_idct;
            active_stream = s;
            int parsed = stbi__parse_entropy_coded_data(z);
            active_stream = NULL;
            z->idct_block_kernel = s->idct;
            if (!parsed) return STREAM_FAILED;
            // The scan's data ended (at the end-of-image marker) before its last row of blocks.
            if (past_data || (!s->out_of_order && s->mcu_y < z->img_mcu_y && z->marker == 0xD9)) {
                stbi__err("truncated image data (the scan ends before its last blocks)", "Corrupt JPEG");
                return STREAM_FAILED;
            }
            if (s->out_of_order || s->mcu_y != z->img_mcu_y) return STREAM_NOT_POSSIBLE;
            if (z->marker == STBI__MARKER_none) {
                while (!stbi__at_eof(z->s)) {
                    if (stbi__get8(z->s) == 255) {
                        z->marker = stbi__get8(z->s);
                        break;
                    }
                }
            }
        } else if (stbi__DNL(m)) {
            int length = stbi__get16be(z->s);
            stbi__uint32 lines = stbi__get16be(z->s);
            if (length != 4 || lines != z->s->img_y) {
                stbi__err(length != 4 ? "bad DNL len" : "bad DNL height", "Corrupt JPEG");
                return STREAM_FAILED;
            }
        } else if (!stbi__process_marker(z, m)) {
            return STREAM_FAILED;
        }
        m = stbi__get_marker(z);
    }
    // A JPEG without a scan, or whose later markers make stb keep the samples as RGB.
    if (!streamed || stored_as_rgb(z)) return STREAM_NOT_POSSIBLE;
    return STREAM_DONE;
}

/// A decoder over `data` with our colour row in stb's kernel slot; NULL when memory is short.
static stbi__jpeg *new_decoder(stbi__context *context, const unsigned char *data, int size) {
    stbi__start_mem(context, data, size);
    stbi__jpeg *decoder = (stbi__jpeg *)stbi__malloc(sizeof(stbi__jpeg));
    if (decoder == NULL) return NULL;
    decoder->s = context;
    stbi__setup_jpeg(decoder);
    decoder->YCbCr_to_RGB_kernel = ycc_to_rgb;
    return decoder;
}

/// `pixels` (`width`×`height`, `channels` bytes a pixel, from stb) turned by `exif` into a new picture,
/// a band of rows at a time, the first freed; NULL when memory is short.
static stbi_uc *turn_picture(stbi_uc *pixels, int width, int height, int channels, int exif) {
    // Every byte is written below, so a kept block is taken as it is; one byte more, as
    // stbi__malloc_mad3(channels, width, height, 1) gives (JPEG sides are 16-bit: no overflow).
    stbi_uc *turned = (stbi_uc *)ic_pixels_alloc_overwritten((size_t)channels * (size_t)width * (size_t)height + 1);
    if (turned != NULL) {
        for (int first = 0; first < height; first += TURN_BAND) {
            int count = height - first < TURN_BAND ? height - first : TURN_BAND;
            ic_turn_rows(pixels + (size_t)first * (size_t)width * (size_t)channels, count, first, width, height, channels,
                         exif, turned);
        }
    }
    STBI_FREE(pixels);
    return turned;
}

/// stbi_load_from_memory(data, size, ..., 0) for a JPEG (its SOI already checked), turned as EXIF
/// orientation `exif` says (`width`, `height`: the turned picture's): streamed band by band when it
/// can be, else stb's JPEG loader itself, with our colour row in its kernel slot.
static stbi_uc *load_jpeg(const unsigned char *data, int size, int exif, int *width, int *height, int *channels) {
    stbi__context context;
    stbi__jpeg *decoder = new_decoder(&context, data, size);
    if (decoder == NULL) return stbi__errpuc("outofmem", "Out of memory");
    jpeg_stream stream;
    memset(&stream, 0, sizeof(stream));
    blocks_past_data = past_data = 0;
    last_position = NULL;
    decoder->s->img_n = 0;  // makes stbi__cleanup_jpeg safe, as load_jpeg_image does
    stream_outcome outcome = decode_streaming(decoder, &stream, exif);
    stbi__cleanup_jpeg(decoder);
    free_stream(&stream, outcome == STREAM_DONE);
    stbi_uc *pixels = NULL;
    last_decode_in_bands = outcome == STREAM_DONE;
    if (outcome == STREAM_DONE) {
        pixels = stream.picture;
        *width = decoder->s->img_x;
        *height = decoder->s->img_y;
        *channels = 3;
    } else if (outcome == STREAM_NOT_POSSIBLE) {
        STBI_FREE(decoder);
        decoder = new_decoder(&context, data, size);
        if (decoder == NULL) return stbi__errpuc("outofmem", "Out of memory");
        blocks_past_data = past_data = 0;
        last_position = NULL;
        watched_decoder = decoder;
        watched_idct = decoder->idct_block_kernel;
        decoder->idct_block_kernel = watching_idct;
        pixels = load_jpeg_image(decoder, width, height, channels, 0);
        watched_decoder = NULL;
        if (pixels != NULL && past_data) {
            STBI_FREE(pixels);
            pixels = stbi__errpuc("truncated image data (a scan ends before its last blocks)", "Corrupt JPEG");
        }
        if (pixels != NULL && exif >= 2 && exif <= 8) {
            pixels = turn_picture(pixels, *width, *height, *channels, exif);
            if (pixels == NULL) stbi__err("outofmem", "Out of memory");
        }
    }
    STBI_FREE(decoder);
    if (pixels != NULL && ic_turn_swaps_sides(exif)) {
        int stored_width = *width;
        *width = *height;
        *height = stored_width;
    }
    return pixels;
}

int ic_decode_jpeg(const unsigned char *data, size_t size, size_t max_pixels, int exif, ic_image *out, char *message) {
    memset(out, 0, sizeof(*out));
    message[0] = 0;
    last_decode_in_bands = 0;
    if (size > INT_MAX) return ic_fail(message, "file too large (%zu bytes)", size);
    if (ic_check_jpeg_structure(data, size, message)) return 1;
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, (int)size, &width, &height, &channels)) {
        return ic_fail(message, "%s", stbi_failure_reason());
    }
    if (width <= 0 || height <= 0) return ic_fail(message, "unsupported JPEG size %dx%d", width, height);
    // Checked from the header, before stb_image allocates anything for the pixels or coefficients.
    if ((size_t)width * (size_t)height > max_pixels) {
        out->width = width;
        out->height = height;
        return IC_TOO_MANY_PIXELS;
    }
    unsigned char *pixels = load_jpeg(data, (int)size, exif, &width, &height, &channels);
    if (pixels == NULL) return ic_fail(message, "%s", stbi_failure_reason());
    if (channels != 1 && channels != 3) {
        STBI_FREE(pixels);
        return ic_fail(message, "unexpected %d channels", channels);
    }
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->channels = channels;
    return 0;
}
