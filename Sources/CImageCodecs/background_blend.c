// The full-frame passes of the background effect (VisionCore's BackgroundCompositor): shrinking a frame
// by block averages, box means of a working plane, and composing the frame over the new background by an
// alpha brought up bilinearly from the working size. Plain loops the compiler vectorises; the shrink's
// row sums and the blend are compiled twice on x86 (any x86-64, and AVX2 chosen at run time), the same
// arithmetic in both.
#include "image_codecs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The rounded quotient (s + n/2) / n without a division per pixel: an estimate from the reciprocal,
// corrected to the exact integer quotient (s below 2^31).
static inline uint8_t rounded_mean(uint32_t s, uint32_t n, double inverse) {
    const uint32_t t = s + n / 2;
    uint32_t q = (uint32_t)((double)t * inverse);
    if (q * n > t) q--;
    else if ((q + 1) * n <= t) q++;
    return (uint8_t)q;
}

// Adds `count` bytes of `row` to `sums`.
static inline __attribute__((always_inline)) void add_row(const uint8_t *restrict row, uint32_t *restrict sums,
                                                          int count) {
    for (int i = 0; i < count; i++) sums[i] += row[i];
}

static void add_row_plain(const uint8_t *row, uint32_t *sums, int count) { add_row(row, sums, count); }
#if defined(__x86_64__)
__attribute__((target("avx2"))) static void add_row_avx2(const uint8_t *row, uint32_t *sums, int count) {
    add_row(row, sums, count);
}
#endif

void ic_bg_shrink(const unsigned char *src, int width, int height, int factor, unsigned char *rgb, unsigned int *sums) {
    const int sw = (width + factor - 1) / factor, sh = (height + factor - 1) / factor;
    void (*add)(const uint8_t *, uint32_t *, int) = add_row_plain;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) add = add_row_avx2;
#endif
    // Each block row: its frame rows summed column by column (whole rows, in order), then each block's
    // columns summed from those and divided by the block's pixel count.
    for (int sy = 0; sy < sh; sy++) {
        const int y0 = sy * factor, rows = (height - y0 < factor) ? height - y0 : factor;
        memset(sums, 0, (size_t)width * 3 * sizeof(unsigned int));
        for (int y = y0; y < y0 + rows; y++) add(src + (size_t)y * width * 3, sums, width * 3);
        const uint32_t full = (uint32_t)(rows * factor);
        const double inverse = 1.0 / full;
        uint8_t *out = rgb + (size_t)sy * sw * 3;
        for (int sx = 0; sx < sw; sx++) {
            const int x0 = sx * factor, cols = (width - x0 < factor) ? width - x0 : factor;
            uint32_t r = 0, g = 0, b = 0;
            for (int x = x0; x < x0 + cols; x++) {
                r += sums[x * 3];
                g += sums[x * 3 + 1];
                b += sums[x * 3 + 2];
            }
            const uint32_t count = (uint32_t)(rows * cols);
            const double scale = count == full ? inverse : 1.0 / count;
            out[sx * 3] = rounded_mean(r, count, scale);
            out[sx * 3 + 1] = rounded_mean(g, count, scale);
            out[sx * 3 + 2] = rounded_mean(b, count, scale);
        }
    }
}

// Rows the horizontal box pass takes at a time.
#define BOX_ROWS 8

void ic_box_mean(const float *src, int width, int height, int radius, float *dst, float *scratch) {
    float *sums = scratch, *scale = scratch + width, *copy = scratch + 2 * width;
    // Vertically, whole rows at a time: running column sums, read and written in order.
    memset(sums, 0, (size_t)width * sizeof(float));
    for (int y = 0; y < radius && y < height; y++)
        for (int x = 0; x < width; x++) sums[x] += src[(size_t)y * width + x];
    for (int y = 0; y < height; y++) {
        if (y + radius < height) {
            const float *add = src + (size_t)(y + radius) * width;
            for (int x = 0; x < width; x++) sums[x] += add[x];
        }
        if (y - radius - 1 >= 0) {
            const float *drop = src + (size_t)(y - radius - 1) * width;
            for (int x = 0; x < width; x++) sums[x] -= drop[x];
        }
        const int top = y - radius > 0 ? y - radius : 0, bottom = y + radius < height - 1 ? y + radius : height - 1;
        const float s = 1.0f / (float)(bottom - top + 1);
        float *out = dst + (size_t)y * width;
        for (int x = 0; x < width; x++) out[x] = sums[x] * s;
    }
    // Horizontally, eight rows at a time, each with its running sum: eight independent chains of additions
    // rather than one waiting on the last (the rows copied first: the output replaces them).
    for (int x = 0; x < width; x++) {
        const int left = x - radius > 0 ? x - radius : 0, right = x + radius < width - 1 ? x + radius : width - 1;
        scale[x] = 1.0f / (float)(right - left + 1);
    }
    for (int y0 = 0; y0 < height; y0 += BOX_ROWS) {
        const int rows = height - y0 < BOX_ROWS ? height - y0 : BOX_ROWS;
        memcpy(copy, dst + (size_t)y0 * width, (size_t)rows * width * sizeof(float));
        float s[BOX_ROWS] = {0};
        for (int x = 0; x < radius && x < width; x++)
            for (int k = 0; k < rows; k++) s[k] += copy[(size_t)k * width + x];
        for (int x = 0; x < width; x++) {
            if (x + radius < width)
                for (int k = 0; k < rows; k++) s[k] += copy[(size_t)k * width + x + radius];
            if (x - radius - 1 >= 0)
                for (int k = 0; k < rows; k++) s[k] -= copy[(size_t)k * width + x - radius - 1];
            for (int k = 0; k < rows; k++) dst[(size_t)(y0 + k) * width + x] = s[k] * scale[x];
        }
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

int ic_bg_compose(const unsigned char *src, unsigned char *dst, int width, int height, const float *const *planes,
                   int count, int sw, int sh, const int *xi, const float *xw, const int *yi, const float *yw,
                   const unsigned char *cover, const float *fixed, float *wide) {
    void (*blend)(const uint8_t *, uint8_t *, int, const float *, const float *, const float *, const float *, float,
                  const float *const *, const uint8_t *, const float *) = blend_plain;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) blend = blend_avx2;
#endif
    // Each plane's working rows widened to the frame's width (`ic_resize_row_linear`, its second taps here
    // too: one column on, the last column repeated), two at a time: row j in slot j % 2, so the rows above
    // and below an output row are always both held.
    int32_t *xn = malloc((size_t)width * sizeof(int32_t));
    if (!xn) return -1;
    for (int x = 0; x < width; x++) xn[x] = xi[x] + 1 < sw ? xi[x] + 1 : sw - 1;
    int held[2] = {-1, -1};
    for (int y = 0; y < height; y++) {
        const int y0 = yi[y], y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
        const int want[2] = {y0, y1};
        for (int k = 0; k < 2; k++) {
            const int j = want[k];
            if (held[j & 1] == j) continue;
            for (int p = 0; p < count; p++)
                ic_resize_row_linear(planes[p] + (size_t)j * sw, sw, xi, xn, xw, width,
                                     wide + ((size_t)p * 2 + (j & 1)) * width);
            held[j & 1] = j;
        }
#define ROW(p, j) (wide + ((size_t)(p) * 2 + ((j) & 1)) * width)
        const float *background[6] = {0};
        if (count == 5)
            for (int c = 0; c < 3; c++) background[c * 2] = ROW(2 + c, y0), background[c * 2 + 1] = ROW(2 + c, y1);
        blend(src + (size_t)y * width * 3, dst + (size_t)y * width * 3, width, ROW(0, y0), ROW(0, y1), ROW(1, y0),
              ROW(1, y1), yw[y], count == 5 ? (const float *const *)background : 0, cover ? cover + (size_t)y * width * 3 : 0, fixed);
#undef ROW
    }
    free(xn);
    return 0;
}
