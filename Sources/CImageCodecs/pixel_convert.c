// RGB to I420 (planar YUV 4:2:0) for the video encoder's input.
#include "image_codecs.h"

#include <stdint.h>

// BT.601 limited range in 8.8 fixed point, as ffmpeg converts RGB to yuv420p by default.
static inline unsigned char luma(int r, int g, int b) {
    return (unsigned char)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
}

// Chroma from the sums of four pixels' channels (one 2x2 block).
static inline unsigned char chroma_u(int r4, int g4, int b4) {
    return (unsigned char)(((-38 * r4 - 74 * g4 + 112 * b4 + 512) >> 10) + 128);
}

static inline unsigned char chroma_v(int r4, int g4, int b4) {
    return (unsigned char)(((112 * r4 - 94 * g4 - 18 * b4 + 512) >> 10) + 128);
}

// The red, green and blue bytes of pixel `x` of a row in `layout`.
static inline void pixel(const unsigned char *row, int x, int layout, int *r, int *g, int *b) {
    if (layout == IC_LAYOUT_RGB) {
        const unsigned char *p = row + 3 * x;
        *r = p[0]; *g = p[1]; *b = p[2];
    } else {
        const unsigned char *p = row + 4 * x;  // xRGB words, little-endian: B, G, R, x
        *r = p[2]; *g = p[1]; *b = p[0];
    }
}

void ic_pack_i420(const unsigned char *src, size_t stride, int width, int height, int layout, unsigned char *dst) {
    const int w2 = (width + 1) & ~1, h2 = (height + 1) & ~1, cw = w2 / 2;
    unsigned char *y_plane = dst, *u_plane = dst + (size_t)w2 * h2, *v_plane = u_plane + (size_t)cw * (h2 / 2);
    for (int y = 0; y < h2; y += 2) {
        const unsigned char *top = src + (size_t)y * stride;
        const unsigned char *bottom = y + 1 < height ? top + stride : top;  // the last row repeats
        unsigned char *y0 = y_plane + (size_t)y * w2, *y1 = y0 + w2;
        unsigned char *u = u_plane + (size_t)(y / 2) * cw, *v = v_plane + (size_t)(y / 2) * cw;
        for (int x = 0; x < w2; x += 2) {
            const int x1 = x + 1 < width ? x + 1 : x;  // the last column repeats
            int r0, g0, b0, r1, g1, b1, r2, g2, b2, r3, g3, b3;
            pixel(top, x, layout, &r0, &g0, &b0);
            pixel(top, x1, layout, &r1, &g1, &b1);
            pixel(bottom, x, layout, &r2, &g2, &b2);
            pixel(bottom, x1, layout, &r3, &g3, &b3);
            y0[x] = luma(r0, g0, b0);
            y0[x + 1] = luma(r1, g1, b1);
            y1[x] = luma(r2, g2, b2);
            y1[x + 1] = luma(r3, g3, b3);
            const int r4 = r0 + r1 + r2 + r3, g4 = g0 + g1 + g2 + g3, b4 = b0 + b1 + b2 + b3;
            u[x / 2] = chroma_u(r4, g4, b4);
            v[x / 2] = chroma_v(r4, g4, b4);
        }
    }
}
