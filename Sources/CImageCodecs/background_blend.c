// The full-frame passes of the background effect (VisionCore's BackgroundCompositor): shrinking a frame
// by block averages, widening a working row bilinearly, and blending a row over the new background by an
// alpha brought up from the working size. Plain loops the compiler vectorises; the blend is compiled
// twice on x86 (any x86-64, and AVX2 with FMA chosen at run time), the same arithmetic in both.
#include "image_codecs.h"

#include <stdint.h>

void ic_bg_shrink(const unsigned char *src, int width, int height, int factor, unsigned char *rgb, unsigned int *sums) {
    const int sw = (width + factor - 1) / factor, sh = (height + factor - 1) / factor;
    for (int sy = 0; sy < sh; sy++) {
        const int y0 = sy * factor, rows = (height - y0 < factor) ? height - y0 : factor;
        for (int i = 0; i < sw * 3; i++) sums[i] = 0;
        for (int y = y0; y < y0 + rows; y++) {
            const uint8_t *row = src + (size_t)y * width * 3;
            for (int sx = 0; sx < sw; sx++) {
                const int x0 = sx * factor, cols = (width - x0 < factor) ? width - x0 : factor;
                unsigned int r = 0, g = 0, b = 0;
                for (int x = x0; x < x0 + cols; x++) {
                    r += row[x * 3];
                    g += row[x * 3 + 1];
                    b += row[x * 3 + 2];
                }
                sums[sx * 3] += r;
                sums[sx * 3 + 1] += g;
                sums[sx * 3 + 2] += b;
            }
        }
        for (int sx = 0; sx < sw; sx++) {
            const int x0 = sx * factor, cols = (width - x0 < factor) ? width - x0 : factor;
            const unsigned int count = (unsigned int)(rows * cols);
            for (int c = 0; c < 3; c++) rgb[((size_t)sy * sw + sx) * 3 + c] = (uint8_t)((sums[sx * 3 + c] + count / 2) / count);
        }
    }
}

void ic_bg_expand_row(const float *small, const int *index, const float *weight, int width, float *out) {
    for (int x = 0; x < width; x++) {
        const float s0 = small[index[x]], s1 = small[index[x] + 1];
        out[x] = s0 + (s1 - s0) * weight[x];
    }
}

// One blended row; `mode` 0: one colour, 1: a blurred background (bg: R, G, B rows above and below),
// 2: a cover picture's row.
static inline __attribute__((always_inline)) void blend_row(
    const uint8_t *restrict src, uint8_t *restrict dst, int width, const float *restrict a0, const float *restrict a1,
    const float *restrict b0, const float *restrict b1, float wy, const float *const *bgs,
    const uint8_t *restrict cover, const float *fixed, int mode) {
    const float kr = 0.299f / 255.0f, kg = 0.587f / 255.0f, kb = 0.114f / 255.0f;
    const float *restrict r0 = mode == 1 ? bgs[0] : a0, *restrict r1 = mode == 1 ? bgs[1] : a0;
    const float *restrict g0 = mode == 1 ? bgs[2] : a0, *restrict g1 = mode == 1 ? bgs[3] : a0;
    const float *restrict l0 = mode == 1 ? bgs[4] : a0, *restrict l1 = mode == 1 ? bgs[5] : a0;
    const float fr0 = fixed[0], fg0 = fixed[1], fb0 = fixed[2];
    for (int x = 0; x < width; x++) {
        const float fr = src[x * 3], fg = src[x * 3 + 1], fb = src[x * 3 + 2];
        const float luma = kr * fr + kg * fg + kb * fb;
        const float a = a0[x] + (a1[x] - a0[x]) * wy, b = b0[x] + (b1[x] - b0[x]) * wy;
        float alpha = a * luma + b;
        alpha = alpha < 0.0f ? 0.0f : (alpha > 1.0f ? 1.0f : alpha);
        float br, bgreen, bb;
        if (mode == 1) {
            br = r0[x] + (r1[x] - r0[x]) * wy;
            bgreen = g0[x] + (g1[x] - g0[x]) * wy;
            bb = l0[x] + (l1[x] - l0[x]) * wy;
        } else if (mode == 2) {
            br = cover[x * 3];
            bgreen = cover[x * 3 + 1];
            bb = cover[x * 3 + 2];
        } else {
            br = fr0;
            bgreen = fg0;
            bb = fb0;
        }
        dst[x * 3] = (uint8_t)(int)(br + (fr - br) * alpha + 0.5f);
        dst[x * 3 + 1] = (uint8_t)(int)(bgreen + (fg - bgreen) * alpha + 0.5f);
        dst[x * 3 + 2] = (uint8_t)(int)(bb + (fb - bb) * alpha + 0.5f);
    }
}

#define BLEND_VARIANTS(suffix, attributes)                                                                     \
    attributes static void blend_##suffix(const uint8_t *src, uint8_t *dst, int width, const float *a0,         \
                                          const float *a1, const float *b0, const float *b1, float wy,          \
                                          const float *const *bg, const uint8_t *cover, const float *fixed) {   \
        if (bg)                                                                                                 \
            blend_row(src, dst, width, a0, a1, b0, b1, wy, bg, cover, fixed, 1);                                \
        else if (cover)                                                                                         \
            blend_row(src, dst, width, a0, a1, b0, b1, wy, bg, cover, fixed, 2);                                \
        else                                                                                                    \
            blend_row(src, dst, width, a0, a1, b0, b1, wy, bg, cover, fixed, 0);                                \
    }

BLEND_VARIANTS(plain, )
#if defined(__x86_64__)
BLEND_VARIANTS(avx2, __attribute__((target("avx2"))))
#endif

void ic_bg_blend_row(const unsigned char *src, unsigned char *dst, int width, const float *a0, const float *a1,
                     const float *b0, const float *b1, float wy, const float *const *bg, const unsigned char *cover,
                     const float *fixed) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        blend_avx2(src, dst, width, a0, a1, b0, b1, wy, bg, cover, fixed);
        return;
    }
#endif
    blend_plain(src, dst, width, a0, a1, b0, b1, wy, bg, cover, fixed);
}
