// RGB to I420 (planar YUV 4:2:0) for the video encoder's input. Rows are converted in simple
// loops over whole pixels that the compiler vectorises (luma per pixel; chroma per 2x2 block),
// compiled twice on x86: for any x86-64 and for AVX2, chosen at run time (about 3x faster at 1080p);
// on AArch64, NEON rows of sixteen pixels (eight 2x2 blocks) go first, the same integer arithmetic bit
// for bit, and the loops finish each row. An odd last column or row is handled by repeating it. And
// RGB(X) bytes to the xRGB words a Cairo canvas draws on, four pixels per byte shuffle on x86, sixteen
// per interleaving load and store with NEON.
#include "image_codecs.h"
#include "cpu_features.h"

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

#if IC_NEON
// Luma of sixteen pixels: 66r + 129g + 25b fits 16 bits (at most 56,100); the rounding narrowing
// shift adds the 128 before the >> 8.
static inline uint8x16_t luma16_neon(uint8x16_t r, uint8x16_t g, uint8x16_t b) {
    const uint8x8_t kr = vdup_n_u8(66), kg = vdup_n_u8(129), kb = vdup_n_u8(25);
    uint16x8_t lo = vmlal_u8(vmlal_u8(vmull_u8(vget_low_u8(r), kr), vget_low_u8(g), kg), vget_low_u8(b), kb);
    uint16x8_t hi = vmlal_high_u8(vmlal_high_u8(vmull_high_u8(r, vdupq_n_u8(66)), g, vdupq_n_u8(129)), b, vdupq_n_u8(25));
    return vaddq_u8(vcombine_u8(vrshrn_n_u16(lo, 8), vrshrn_n_u16(hi, 8)), vdupq_n_u8(16));
}

// One chroma of eight 2x2 blocks from their channel sums (at most 1020): ((k·sums + 512) >> 10) + 128
// in 32 bits, as (k·sums + 512 + 128·2^10) >> 10 (16...240, so the narrowing is exact).
static inline uint8x8_t chroma8_neon(uint16x8_t r4, uint16x8_t g4, uint16x8_t b4, int16_t kr, int16_t kg, int16_t kb) {
    const int16x8_t r = vreinterpretq_s16_u16(r4), g = vreinterpretq_s16_u16(g4), b = vreinterpretq_s16_u16(b4);
    const int32x4_t bias = vdupq_n_s32(512 + (128 << 10));
    const int32x4_t lo = vmlal_n_s16(vmlal_n_s16(vmlal_n_s16(bias, vget_low_s16(r), kr), vget_low_s16(g), kg), vget_low_s16(b), kb);
    const int32x4_t hi = vmlal_high_n_s16(vmlal_high_n_s16(vmlal_high_n_s16(bias, r, kr), g, kg), b, kb);
    return vqmovun_s16(vcombine_s16(vshrn_n_s32(lo, 10), vshrn_n_s32(hi, 10)));
}

// Sixteen pixels' red, green and blue from packed RGB (`bytes` 3) or xRGB words (4: bytes B, G, R, x).
static inline void load16_neon(const uint8_t *s, int bytes, uint8x16_t rgb[3]) {
    if (bytes == 3) {
        const uint8x16x3_t p = vld3q_u8(s);
        rgb[0] = p.val[0], rgb[1] = p.val[1], rgb[2] = p.val[2];
    } else {
        const uint8x16x4_t p = vld4q_u8(s);
        rgb[0] = p.val[2], rgb[1] = p.val[1], rgb[2] = p.val[0];
    }
}

// Chroma of eight blocks whose two rows are `top` and `bottom`: pairwise sums of each row, added.
static inline void chroma_block8_neon(const uint8x16_t top[3], const uint8x16_t bottom[3], uint8_t *u, uint8_t *v) {
    const uint16x8_t r4 = vpadalq_u8(vpaddlq_u8(top[0]), bottom[0]);
    const uint16x8_t g4 = vpadalq_u8(vpaddlq_u8(top[1]), bottom[1]);
    const uint16x8_t b4 = vpadalq_u8(vpaddlq_u8(top[2]), bottom[2]);
    vst1_u8(u, chroma8_neon(r4, g4, b4, -38, -74, 112));
    vst1_u8(v, chroma8_neon(r4, g4, b4, 112, -94, -18));
}

// The NEON rows: each converts the first pixels (or 2x2 blocks) of a row of `bytes` 3 (RGB) or 4
// (xRGB words), sixteen pixels a step, and returns how many it did, for the loops below to finish.
static int luma_neon(const uint8_t *s, uint8_t *y, int n, int bytes) {
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        uint8x16_t p[3];
        load16_neon(s + (size_t)bytes * x, bytes, p);
        vst1q_u8(y + x, luma16_neon(p[0], p[1], p[2]));
    }
    return x;
}

static int chroma_neon(const uint8_t *a, const uint8_t *b, uint8_t *u, uint8_t *v, int pairs, int bytes) {
    int i = 0;
    for (; i + 8 <= pairs; i += 8) {
        uint8x16_t top[3], bottom[3];
        load16_neon(a + (size_t)2 * bytes * i, bytes, top);
        load16_neon(b + (size_t)2 * bytes * i, bytes, bottom);
        chroma_block8_neon(top, bottom, u + i, v + i);
    }
    return i;
}
#else
#define luma_neon(s, y, n, bytes) 0
#define chroma_neon(a, b, u, v, pairs, bytes) 0
#endif

// The row loops below start where the NEON rows stop when `neon` is set (a constant where pack is inlined).
ALWAYS_INLINE static void luma_row_rgb(const uint8_t *restrict s, uint8_t *restrict y, int n, int neon) {
    for (int x = neon ? luma_neon(s, y, n, 3) : 0; x < n; x++) y[x] = luma(s[3 * x], s[3 * x + 1], s[3 * x + 2]);
}

// One xRGB word of a row that need not be 4-byte aligned.
static inline uint32_t word_at(const uint8_t *row, int x) {
    uint32_t w;
    memcpy(&w, row + 4 * (size_t)x, 4);
    return w;
}

ALWAYS_INLINE static void luma_row_bgrx(const uint8_t *restrict s, uint8_t *restrict y, int n, int neon) {
    for (int x = neon ? luma_neon(s, y, n, 4) : 0; x < n; x++) {
        const uint32_t w = word_at(s, x);
        y[x] = luma(WORD_R(w), WORD_G(w), WORD_B(w));
    }
}

// Chroma of `pairs` 2x2 blocks from rows `a` and `b`.
ALWAYS_INLINE static void chroma_row_rgb(const uint8_t *restrict a, const uint8_t *restrict b, uint8_t *restrict u,
                                         uint8_t *restrict v, int pairs, int neon) {
    for (int i = neon ? chroma_neon(a, b, u, v, pairs, 3) : 0; i < pairs; i++) {
        const uint8_t *p = a + 6 * i, *q = b + 6 * i;
        const int r4 = p[0] + p[3] + q[0] + q[3], g4 = p[1] + p[4] + q[1] + q[4], b4 = p[2] + p[5] + q[2] + q[5];
        u[i] = chroma_u(r4, g4, b4);
        v[i] = chroma_v(r4, g4, b4);
    }
}

ALWAYS_INLINE static void chroma_row_bgrx(const uint8_t *restrict a, const uint8_t *restrict b, uint8_t *restrict u,
                                          uint8_t *restrict v, int pairs, int neon) {
    for (int i = neon ? chroma_neon(a, b, u, v, pairs, 4) : 0; i < pairs; i++) {
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

ALWAYS_INLINE static void pack(const uint8_t *src, size_t stride, int width, int height, int layout, uint8_t *dst,
                               int neon) {
    const int w2 = (width + 1) & ~1, h2 = (height + 1) & ~1, cw = w2 / 2, pairs = width / 2;
    uint8_t *y_plane = dst, *u_plane = dst + (size_t)w2 * h2, *v_plane = u_plane + (size_t)cw * (h2 / 2);
    for (int y = 0; y < h2; y += 2) {
        const uint8_t *top = src + (size_t)y * stride;
        const uint8_t *bottom = y + 1 < height ? top + stride : top;  // an odd last row repeats
        uint8_t *y0 = y_plane + (size_t)y * w2, *y1 = y0 + w2;
        uint8_t *u = u_plane + (size_t)(y / 2) * cw, *v = v_plane + (size_t)(y / 2) * cw;
        if (layout == IC_LAYOUT_RGB) {
            luma_row_rgb(top, y0, width, neon);
            luma_row_rgb(bottom, y1, width, neon);
            chroma_row_rgb(top, bottom, u, v, pairs, neon);
        } else {
            luma_row_bgrx(top, y0, width, neon);
            luma_row_bgrx(bottom, y1, width, neon);
            chroma_row_bgrx(top, bottom, u, v, pairs, neon);
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
    pack(src, stride, width, height, layout, dst, 0);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2")))
static void pack_avx2(const uint8_t *src, size_t stride, int width, int height, int layout, uint8_t *dst) {
    pack(src, stride, width, height, layout, dst, 0);
}
#endif

int ic_pack_i420_kernel(const unsigned char *src, size_t stride, int width, int height, int layout, unsigned char *dst,
                        int kernel) {
    if (kernel == IC_KERNEL_PORTABLE) {
        pack_baseline(src, stride, width, height, layout, dst);
        return 0;
    }
    if (kernel != IC_KERNEL_VECTOR) return -1;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) return -1;
    pack_avx2(src, stride, width, height, layout, dst);
    return 0;
#else
    if (!ic_cpu_has_neon()) return -1;
    pack(src, stride, width, height, layout, dst, 1);
    return 0;
#endif
}

void ic_pack_i420(const unsigned char *src, size_t stride, int width, int height, int layout, unsigned char *dst) {
    if (ic_pack_i420_kernel(src, stride, width, height, layout, dst, IC_KERNEL_VECTOR) != 0)
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

#if IC_NEON
// One row, sixteen pixels per step: an interleaving load splits R, G, B (and X), an interleaving store
// writes them back as B, G, R, 0xFF bytes (the little-endian words); the rest go one at a time.
static void expand_row_neon(const uint8_t *s, int channels, uint32_t *d, int width) {
    uint8x16x4_t words;
    words.val[3] = vdupq_n_u8(0xFF);
    int x = 0;
    for (; x + 16 <= width; x += 16) {
        uint8x16_t r, g, b;
        if (channels == 3) {
            const uint8x16x3_t p = vld3q_u8(s + 3 * (size_t)x);
            r = p.val[0], g = p.val[1], b = p.val[2];
        } else {
            const uint8x16x4_t p = vld4q_u8(s + 4 * (size_t)x);
            r = p.val[0], g = p.val[1], b = p.val[2];
        }
        words.val[0] = b, words.val[1] = g, words.val[2] = r;
        vst4q_u8((uint8_t *)(void *)(d + x), words);
    }
    expand_pixels(s, channels, d, x, width);
}
#endif

/// This CPU's vector row of ic_expand_xrgb, or NULL.
typedef void (*expand_row)(const uint8_t *s, int channels, uint32_t *d, int width);
static expand_row vector_expand_row(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("ssse3") ? expand_row_ssse3 : NULL;
#elif IC_NEON
    return ic_cpu_has_neon() ? expand_row_neon : NULL;
#else
    return NULL;
#endif
}

int ic_expand_xrgb_kernel(const unsigned char *src, size_t src_stride, int channels, unsigned char *dst,
                          size_t dst_stride, int width, int height, int kernel) {
    const expand_row vector = kernel == IC_KERNEL_VECTOR ? vector_expand_row() : NULL;
    if (kernel == IC_KERNEL_VECTOR ? vector == NULL : kernel != IC_KERNEL_PORTABLE) return -1;
    for (int y = 0; y < height; y++) {
        const uint8_t *s = src + (size_t)y * src_stride;
        uint32_t *d = (uint32_t *)(void *)(dst + (size_t)y * dst_stride);
        if (vector) vector(s, channels, d, width);
        else expand_pixels(s, channels, d, 0, width);
    }
    return 0;
}

void ic_expand_xrgb(const unsigned char *src, size_t src_stride, int channels, unsigned char *dst, size_t dst_stride,
                    int width, int height) {
    if (ic_expand_xrgb_kernel(src, src_stride, channels, dst, dst_stride, width, height, IC_KERNEL_VECTOR) != 0)
        ic_expand_xrgb_kernel(src, src_stride, channels, dst, dst_stride, width, height, IC_KERNEL_PORTABLE);
}
