// The sampling half of VisionCore's BilinearWarp (OpenCV's fixed-point INTER_LINEAR as MediaPipe
// runs it), in C for a software prefetch Swift cannot express: a rotated crop walks the source
// diagonally, so the hardware prefetcher does not see the rows it reads next, and the loads of
// new cache lines dominated the Swift loop. The arithmetic is BilinearWarp.swift's, bit for bit.
#include "image_codecs.h"

#include <stdint.h>

// How many tensor pixels ahead the source lines are prefetched.
#define PREFETCH_AHEAD 8

// The index read for a neighbour outside the image: clamped, or -1 (a zero) with a zero border.
static inline int border_index(int i, int count, int zero_border) {
    if (i >= 0 && i < count) return i;
    if (zero_border) return -1;
    return i < 0 ? 0 : count - 1;
}

// A tensor pixel whose four neighbours are not all inside: OpenCV's remap border rules.
static void sample_at_border(const ic_warp_source *s, int ix, int iy, const int w[4], float *out,
                             const float *levels) {
    if (s->zero_border && (ix >= s->width || ix + 1 < 0 || iy >= s->height || iy + 1 < 0)) {
        out[0] = out[1] = out[2] = levels[0];
        return;
    }
    const int x0 = border_index(ix, s->width, s->zero_border), x1 = border_index(ix + 1, s->width, s->zero_border);
    const int y0 = border_index(iy, s->height, s->zero_border), y1 = border_index(iy + 1, s->height, s->zero_border);
    const size_t stride = (size_t)s->width * s->bytes_per_pixel;
    const int offsets[3] = {s->red, s->green, s->blue};
    for (int c = 0; c < 3; c++) {
#define VALUE(x, y) ((x) < 0 || (y) < 0 ? 0 : (int)s->pixels[(size_t)(y) * stride + (size_t)(x) * s->bytes_per_pixel + offsets[c]])
        int sum = VALUE(x0, y0) * w[0] + VALUE(x1, y0) * w[1] + VALUE(x0, y1) * w[2] + VALUE(x1, y1) * w[3];
#undef VALUE
        int level = (sum + 16384) >> 15;
        out[c] = levels[level < 0 ? 0 : level > 255 ? 255 : level];
    }
}

void ic_warp_row(const ic_warp_source *s, const int32_t *coordinates, int count, float *out, const float *levels) {
    const int bpp = s->bytes_per_pixel, r = s->red, g = s->green, b = s->blue;
    const size_t stride = (size_t)s->width * bpp;
    const int inner_width = s->width - 1, inner_height = s->height - 1;
    for (int x = 0; x < count; x++, out += 3) {
        if (x + PREFETCH_AHEAD < count) {
            const int ax = coordinates[2 * (x + PREFETCH_AHEAD)] >> 5, ay = coordinates[2 * (x + PREFETCH_AHEAD) + 1] >> 5;
            if (ax >= 0 && ay >= 0 && ax < inner_width && ay < inner_height) {
                const uint8_t *p = s->pixels + (size_t)ay * stride + (size_t)ax * bpp;
                __builtin_prefetch(p);
                __builtin_prefetch(p + stride);
            }
        }
        const int sx = coordinates[2 * x], sy = coordinates[2 * x + 1];
        const int ix = sx >> 5, iy = sy >> 5, fx = sx & 31, fy = sy & 31;
        const int w[4] = {(32 - fx) * (32 - fy) * 32, fx * (32 - fy) * 32, (32 - fx) * fy * 32, fx * fy * 32};
        if (ix >= 0 && iy >= 0 && ix < inner_width && iy < inner_height) {
            // The weights sum to 2^15, so the rounded result is already within 0...255.
            const uint8_t *p = s->pixels + (size_t)iy * stride + (size_t)ix * bpp, *q = p + stride;
            out[0] = levels[(p[r] * w[0] + p[r + bpp] * w[1] + q[r] * w[2] + q[r + bpp] * w[3] + 16384) >> 15];
            out[1] = levels[(p[g] * w[0] + p[g + bpp] * w[1] + q[g] * w[2] + q[g + bpp] * w[3] + 16384) >> 15];
            out[2] = levels[(p[b] * w[0] + p[b + bpp] * w[1] + q[b] * w[2] + q[b + bpp] * w[3] + 16384) >> 15];
        } else {
            const int cx = ix < -32768 ? -32768 : ix > 32767 ? 32767 : ix;
            const int cy = iy < -32768 ? -32768 : iy > 32767 ? 32767 : iy;
            sample_at_border(s, cx, cy, w, out, levels);
        }
    }
}
