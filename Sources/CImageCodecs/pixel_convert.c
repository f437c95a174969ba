// RGB to I420 (planar YUV 4:2:0) for the video encoder's input. Rows are converted in simple
// loops over whole pixels that the compiler vectorises (luma per pixel; chroma per 2x2 block),
// compiled twice on x86: for any x86-64 and for AVX2, chosen at run time (about 3x faster at 1080p).
// An odd last column or row is handled by repeating it. And RGB(X) bytes to the xRGB words a Cairo
// canvas draws on, four pixels per byte shuffle on x86.
#include "image_codecs.h"

#include <stdint.h>
#include <string.h>

// BT.601 limited range in 8.8 fixed point, as ffmpeg converts RGB to yuv420p by default.
static inline uint8_t luma(int r, int g, int b) {
    return (uint8_t)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
}

// Chroma from the sums of one 2x2 block's channels.
static inline uint8_t chroma_u(int r4, int g4, int b4) {
    return (uint8_t)(((-38 * r4 - 74 * g4 + 112 * b4 + 512) >> 10) + 128);
}

static inline uint8_t chroma_v(int r4, int g4, int b4) {
    return (uint8_t)(((112 * r4 - 94 * g4 - 18 * b4 + 512) >> 10) + 128);
}

#define ALWAYS_INLINE __attribute__((always_inline)) inline

// Cairo's xRGB words, little-endian: bytes B, G, R, x.
#define WORD_R(w) ((int)(((w) >> 16) & 0xFF))
#define WORD_G(w) ((int)(((w) >> 8) & 0xFF))
#define WORD_B(w) ((int)((w) & 0xFF))

ALWAYS_INLINE static void luma_row_rgb(const uint8_t *restrict s, uint8_t *restrict y, int n) {
    for (int x = 0; x < n; x++) y[x] = luma(s[3 * x], s[3 * x + 1], s[3 * x + 2]);
}

// One xRGB word of a row that need not be 4-byte aligned.
static inline uint32_t word_at(const uint8_t *row, int x) {
    uint32_t w;
    memcpy(&w, row + 4 * (size_t)x, 4);
    return w;
}

ALWAYS_INLINE static void luma_row_bgrx(const uint8_t *restrict s, uint8_t *restrict y, int n) {
    for (int x = 0; x < n; x++) {
        const uint32_t w = word_at(s, x);
        y[x] = luma(WORD_R(w), WORD_G(w), WORD_B(w));
    }
}

// Chroma of `pairs` 2x2 blocks from rows `a` and `b`.
ALWAYS_INLINE static void chroma_row_rgb(const uint8_t *restrict a, const uint8_t *restrict b, uint8_t *restrict u,
                           uint8_t *restrict v, int pairs) {
    for (int i = 0; i < pairs; i++) {
        const uint8_t *p = a + 6 * i, *q = b + 6 * i;
        const int r4 = p[0] + p[3] + q[0] + q[3], g4 = p[1] + p[4] + q[1] + q[4], b4 = p[2] + p[5] + q[2] + q[5];
        u[i] = chroma_u(r4, g4, b4);
        v[i] = chroma_v(r4, g4, b4);
    }
}

ALWAYS_INLINE static void chroma_row_bgrx(const uint8_t *restrict a, const uint8_t *restrict b, uint8_t *restrict u,
                                          uint8_t *restrict v, int pairs) {
    for (int i = 0; i < pairs; i++) {
        const uint32_t p0 = word_at(a, 2 * i), p1 = word_at(a, 2 * i + 1), q0 = word_at(b, 2 * i), q1 = word_at(b, 2 * i + 1);
        const int r4 = WORD_R(p0) + WORD_R(p1) + WORD_R(q0) + WORD_R(q1);
        const int g4 = WORD_G(p0) + WORD_G(p1) + WORD_G(q0) + WORD_G(q1);
        const int b4 = WORD_B(p0) + WORD_B(p1) + WORD_B(q0) + WORD_B(q1);
        u[i] = chroma_u(r4, g4, b4);
        v[i] = chroma_v(r4, g4, b4);
    }
}

// The red, green and blue of pixel `x` of a row in `layout`.
static inline void pixel(const uint8_t *row, int x, int layout, int *r, int *g, int *b) {
    if (layout == IC_LAYOUT_RGB) {
        *r = row[3 * x]; *g = row[3 * x + 1]; *b = row[3 * x + 2];
    } else {
        const uint32_t w = word_at(row, x);
        *r = WORD_R(w); *g = WORD_G(w); *b = WORD_B(w);
    }
}

ALWAYS_INLINE static void pack(const uint8_t *src, size_t stride, int width, int height, int layout, uint8_t *dst) {
    const int w2 = (width + 1) & ~1, h2 = (height + 1) & ~1, cw = w2 / 2, pairs = width / 2;
    uint8_t *y_plane = dst, *u_plane = dst + (size_t)w2 * h2, *v_plane = u_plane + (size_t)cw * (h2 / 2);
    for (int y = 0; y < h2; y += 2) {
        const uint8_t *top = src + (size_t)y * stride;
        const uint8_t *bottom = y + 1 < height ? top + stride : top;  // an odd last row repeats
        uint8_t *y0 = y_plane + (size_t)y * w2, *y1 = y0 + w2;
        uint8_t *u = u_plane + (size_t)(y / 2) * cw, *v = v_plane + (size_t)(y / 2) * cw;
        if (layout == IC_LAYOUT_RGB) {
            luma_row_rgb(top, y0, width);
            luma_row_rgb(bottom, y1, width);
            chroma_row_rgb(top, bottom, u, v, pairs);
        } else {
            luma_row_bgrx(top, y0, width);
            luma_row_bgrx(bottom, y1, width);
            chroma_row_bgrx(top, bottom, u, v, pairs);
        }
        if (width & 1) {  // an odd last column repeats
            const int x = width - 1;
            int r0, g0, b0, r1, g1, b1;
            pixel(top, x, layout, &r0, &g0, &b0);
            pixel(bottom, x, layout, &r1, &g1, &b1);
            y0[w2 - 1] = y0[x];
            y1[w2 - 1] = y1[x];
            u[cw - 1] = chroma_u(2 * (r0 + r1), 2 * (g0 + g1), 2 * (b0 + b1));
            v[cw - 1] = chroma_v(2 * (r0 + r1), 2 * (g0 + g1), 2 * (b0 + b1));
        }
    }
}

static void pack_baseline(const uint8_t *src, size_t stride, int width, int height, int layout, uint8_t *dst) {
    pack(src, stride, width, height, layout, dst);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2")))
static void pack_avx2(const uint8_t *src, size_t stride, int width, int height, int layout, uint8_t *dst) {
    pack(src, stride, width, height, layout, dst);
}
#endif

void ic_pack_i420(const unsigned char *src, size_t stride, int width, int height, int layout, unsigned char *dst) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        pack_avx2(src, stride, width, height, layout, dst);
        return;
    }
#endif
    pack_baseline(src, stride, width, height, layout, dst);
}

// ---------------------------------------------------------------- RGB(X) to xRGB words

// Pixels [from, width) of one row, one at a time: 0xFF000000 | R << 16 | G << 8 | B in native order.
static void expand_pixels(const uint8_t *restrict s, int channels, uint32_t *restrict d, int from, int width) {
    for (int x = from; x < width; x++) {
        const uint8_t *p = s + (size_t)channels * x;
        d[x] = 0xFF000000u | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | (uint32_t)p[2];
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// One row, four pixels per step: a 16-byte load, a byte shuffle into B, G, R, 0 words, then the
// opaque alpha. Steps stop while a 16-byte load still ends inside the row; the rest go one at a time.
__attribute__((target("ssse3"))) static void expand_row_ssse3(const uint8_t *s, int channels, uint32_t *d, int width) {
    const __m128i shuffle = channels == 3 ? _mm_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1)
                                          : _mm_setr_epi8(2, 1, 0, -1, 6, 5, 4, -1, 10, 9, 8, -1, 14, 13, 12, -1);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
    int x = 0;
    for (; (size_t)channels * x + 16 <= (size_t)channels * width; x += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + (size_t)channels * x));
        _mm_storeu_si128((__m128i *)(void *)(d + x), _mm_or_si128(_mm_shuffle_epi8(v, shuffle), alpha));
    }
    expand_pixels(s, channels, d, x, width);
}
#endif

void ic_expand_xrgb(const unsigned char *src, size_t src_stride, int channels, unsigned char *dst, size_t dst_stride,
                    int width, int height) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    const int ssse3 = __builtin_cpu_supports("ssse3");
#endif
    for (int y = 0; y < height; y++) {
        const uint8_t *s = src + (size_t)y * src_stride;
        uint32_t *d = (uint32_t *)(void *)(dst + (size_t)y * dst_stride);
#if defined(__x86_64__) || defined(__i386__)
        if (ssse3) {
            expand_row_ssse3(s, channels, d, width);
            continue;
        }
#endif
        expand_pixels(s, channels, d, 0, width);
    }
}
