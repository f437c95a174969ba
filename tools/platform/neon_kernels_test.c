// The NEON kernels of CKernels against its portable path on random data, case by case: CONV_2D
// (direct, windowed and gathered rows; 8- and 16-wide panels, partial columns; residual, fewer
// residual channels, PReLU, clamps), FULLY_CONNECTED, DEPTHWISE_CONV_2D (multiplier 1 and 2,
// strides, dilation, padding), MAX_POOL_2D, PRELU and ADD; and CImageCodecs' vector kernels against
// their portable C: the bilinear warp's rows (RGB, BGR, xRGB, gray; replicated and zero borders;
// positions inside, across the edges and far outside), RGB and xRGB to I420, RGB(X) to xRGB words.
// Built for aarch64 and run under qemu-aarch64 by tools/platform/test_neon_kernels.sh (CI); on another CPU it
// checks that VT_ISA_NEON runs the portable path. GEMM and depthwise results may differ in rounding
// (tolerance 1e-5 of the largest magnitude); pooling, elementwise and every image result must be bit
// for bit the same. Pictures end at a page no access is allowed to, so a load past one faults.
#include "ckernels.h"
#include "image_codecs.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t rng = 0x9E3779B97F4A7C15u;
static float rnd(void) { // uniform in [-1, 1)
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (float)((rng >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f;
}
static float *random_floats(size_t n) {
    float *p = malloc(sizeof(float) * (n ? n : 1));
    if (!p) { fprintf(stderr, "out of memory\n"); exit(2); }
    for (size_t i = 0; i < n; i++) p[i] = rnd();
    return p;
}

static int passed, failed;

/// Compares n outputs; exact = bit for bit, else within 1e-5 of the largest reference magnitude.
static void check(const char *what, const float *neon, const float *ref, size_t n, int exact) {
    float scale = 1.0f;
    for (size_t i = 0; i < n; i++) scale = fabsf(ref[i]) > scale ? fabsf(ref[i]) : scale;
    for (size_t i = 0; i < n; i++) {
        const int same = exact ? memcmp(&neon[i], &ref[i], sizeof(float)) == 0
                               : (fabsf(neon[i] - ref[i]) <= 1e-5f * scale || (isnan(neon[i]) && isnan(ref[i])));
        if (!same) {
            printf("FAIL %s: element %zu of %zu: neon %.9g portable %.9g\n", what, i, n, neon[i], ref[i]);
            failed++;
            return;
        }
    }
    passed++;
}

static vt_conv_geometry geometry(int h, int w, int ic, int oc, int k, int stride, int dil, int pad, int pooling) {
    vt_conv_geometry g = {1, h, w, ic, 0, 0, oc, k, k, stride, stride, dil, dil, pad, pad};
    const int span = (k - 1) * dil + 1;
    g.out_h = (h + 2 * pad - span) / stride + 1;
    g.out_w = (w + 2 * pad - span) / stride + 1;
    if (pooling) g.out_c = ic;
    return g;
}

static void conv_case(int h, int w, int ic, int oc, int k, int stride, int dil, int pad, int residual, int alpha) {
    vt_conv_geometry g = geometry(h, w, ic, oc, k, stride, dil, pad, 0);
    if (!vt_conv_geometry_valid(&g)) { printf("FAIL invalid conv case\n"); failed++; return; }
    const size_t in_n = (size_t)h * w * ic, out_n = (size_t)g.out_h * g.out_w * oc, m = (size_t)g.out_h * g.out_w;
    float *in = random_floats(in_n), *filter = random_floats((size_t)oc * k * k * ic), *bias = random_floats((size_t)oc);
    const int res_channels = residual == 2 ? (oc > 1 ? oc / 2 : 1) : 0;
    float *res = random_floats(m * (size_t)(res_channels ? res_channels : oc));
    float *slopes = random_floats((size_t)oc);
    float *packed = random_floats(vt_conv2d_packed_count(&g));
    vt_conv2d_pack(&g, filter, bias, packed);
    float *scratch = random_floats(vt_conv2d_scratch_count(&g));
    float *a = random_floats(out_n), *b = random_floats(out_n);
    const vt_epilogue ep = {alpha ? -INFINITY : -0.5f, alpha ? INFINITY : 6.0f, residual ? res : NULL,
                            alpha ? slopes : NULL, res_channels};
    vt_conv2d(&g, in, packed, a, &ep, scratch, 0, m, 0, (size_t)oc, VT_ISA_NEON);
    vt_conv2d(&g, in, packed, b, &ep, scratch, 0, m, 0, (size_t)oc, VT_ISA_PORTABLE);
    char what[128];
    snprintf(what, sizeof what, "conv %dx%dx%d->%d k%d s%d d%d p%d res%d prelu%d", h, w, ic, oc, k, stride, dil, pad,
             residual, alpha);
    check(what, a, b, out_n, 0);
    free(in); free(filter); free(bias); free(res); free(slopes); free(packed); free(scratch); free(a); free(b);
}

static void fc_case(int rows, int in_f, int out_f) {
    float *in = random_floats((size_t)rows * in_f), *wts = random_floats((size_t)in_f * out_f);
    float *bias = random_floats((size_t)out_f), *packed = random_floats(vt_fc_packed_count(in_f, out_f));
    vt_fc_pack(in_f, out_f, wts, bias, packed);
    float *a = random_floats((size_t)rows * out_f), *b = random_floats((size_t)rows * out_f);
    vt_fc(in_f, out_f, in, packed, a, -INFINITY, INFINITY, 0, (size_t)rows, VT_ISA_NEON);
    vt_fc(in_f, out_f, in, packed, b, -INFINITY, INFINITY, 0, (size_t)rows, VT_ISA_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "fc %d rows %d->%d", rows, in_f, out_f);
    check(what, a, b, (size_t)rows * out_f, 0);
    free(in); free(wts); free(bias); free(packed); free(a); free(b);
}

static void dw_case(int h, int w, int c, int mult, int k, int stride, int dil, int pad) {
    vt_conv_geometry g = geometry(h, w, c, c * mult, k, stride, dil, pad, 0);
    if (!vt_conv_geometry_valid(&g)) { printf("FAIL invalid depthwise case\n"); failed++; return; }
    const size_t out_n = (size_t)g.out_h * g.out_w * g.out_c;
    float *in = random_floats((size_t)h * w * c), *filter = random_floats((size_t)k * k * g.out_c);
    float *bias = random_floats((size_t)g.out_c), *packed = random_floats(vt_dwconv_packed_count(&g));
    vt_dwconv_pack(&g, filter, bias, packed);
    float *a = random_floats(out_n), *b = random_floats(out_n);
    vt_dwconv(&g, in, packed, a, -1.0f, 1.5f, 0, (size_t)g.out_h, VT_ISA_NEON);
    vt_dwconv(&g, in, packed, b, -1.0f, 1.5f, 0, (size_t)g.out_h, VT_ISA_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "depthwise %dx%dx%d x%d k%d s%d d%d p%d", h, w, c, mult, k, stride, dil, pad);
    check(what, a, b, out_n, 0);
    free(in); free(filter); free(bias); free(packed); free(a); free(b);
}

static void pool_case(int h, int w, int c, int k, int stride, int pad) {
    vt_conv_geometry g = geometry(h, w, c, c, k, stride, 1, pad, 1);
    const size_t in_n = (size_t)h * w * c, out_n = (size_t)g.out_h * g.out_w * c;
    float *in = random_floats(in_n);
    in[0] = NAN;        // NaN and negative zero: the comparisons must match, not only the values
    in[in_n / 2] = -0.0f;
    float *a = random_floats(out_n), *b = random_floats(out_n);
    vt_maxpool(&g, in, a, -0.75f, 0.8f, 0, (size_t)g.out_h, VT_ISA_NEON);
    vt_maxpool(&g, in, b, -0.75f, 0.8f, 0, (size_t)g.out_h, VT_ISA_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "maxpool %dx%dx%d k%d s%d p%d", h, w, c, k, stride, pad);
    check(what, a, b, out_n, 1);
    free(in); free(a); free(b);
}

static void eltwise_case(size_t pixels, size_t channels) {
    const size_t n = pixels * channels;
    float *x = random_floats(n), *y = random_floats(n), *alpha = random_floats(channels);
    x[0] = NAN;
    float *a = random_floats(n), *b = random_floats(n);
    vt_prelu(x, alpha, a, channels, 0, pixels, VT_ISA_NEON);
    vt_prelu(x, alpha, b, channels, 0, pixels, VT_ISA_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "prelu %zu x %zu", pixels, channels);
    check(what, a, b, n, 1);
    vt_add(x, y, a, -0.5f, 0.5f, 1, n, VT_ISA_NEON);
    vt_add(x, y, b, -0.5f, 0.5f, 1, n, VT_ISA_PORTABLE);
    snprintf(what, sizeof what, "add %zu", n);
    check(what, a + 1, b + 1, n - 1, 1);
    free(x); free(y); free(alpha); free(a); free(b);
}

/// The block transpose (rows×cols, source and destination rows `pad` floats wider than the block): NEON's
/// 4×4 blocks against the portable 8×8 tiles, the padding between destination rows included (untouched).
static void transpose_case(size_t rows, size_t cols, size_t pad) {
    const size_t ls = cols + pad, ld = rows + pad;
    float *src = random_floats(rows * ls), *a = random_floats(cols * ld), *b = malloc(sizeof(float) * cols * ld);
    memcpy(b, a, sizeof(float) * cols * ld);
    vt_transpose(src, ls, a, ld, rows, cols, VT_ISA_NEON);
    vt_transpose(src, ls, b, ld, rows, cols, VT_ISA_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "transpose %zu x %zu", rows, cols);
    check(what, a, b, cols * ld, 1);
    free(src); free(a); free(b);
}

/// RESIZE_BILINEAR of a [2, in_h, in_w, c] input to out_h x out_w (half-pixel taps, computed here as the engine
/// computes them), clamped to [-0.5, 0.5]: NEON's 4 channels at a time against the portable loop, exact.
static void resize_case(size_t in_h, size_t in_w, size_t c, size_t out_h, size_t out_w) {
    vt_bilinear_tap rows[64], cols[64];
    for (int axis = 0; axis < 2; axis++) {
        const size_t in = axis ? in_w : in_h, out = axis ? out_w : out_h;
        vt_bilinear_tap *taps = axis ? cols : rows;
        const float scale = (float)in / (float)out;
        for (size_t o = 0; o < out; o++) {
            const float source = ((float)o + 0.5f) * scale - 0.5f;
            const ptrdiff_t lower = source < 0 ? 0 : (ptrdiff_t)floorf(source);
            const ptrdiff_t upper = (ptrdiff_t)ceilf(source) > (ptrdiff_t)in - 1 ? (ptrdiff_t)in - 1 : (ptrdiff_t)ceilf(source);
            taps[o] = (vt_bilinear_tap){lower, upper < 0 ? 0 : upper, source - (float)lower};
        }
    }
    const size_t n = 2 * out_h * out_w * c;
    float *x = random_floats(2 * in_h * in_w * c), *a = random_floats(n), *b = random_floats(n);
    x[0] = NAN;
    vt_resize_bilinear(x, a, in_h, in_w, c, rows, out_h, cols, out_w, -0.5f, 0.5f, 0, 2 * out_h, VT_ISA_NEON);
    vt_resize_bilinear(x, b, in_h, in_w, c, rows, out_h, cols, out_w, -0.5f, 0.5f, 0, 2 * out_h, VT_ISA_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "resize %zux%zux%zu -> %zux%zu", in_h, in_w, c, out_h, out_w);
    check(what, a, b, n, 1);
    free(x); free(a); free(b);
}

/// `size` random bytes ending where a page no access is allowed to begins (the mapping is left mapped).
static uint8_t *guarded_bytes(size_t size) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), span = (size + page - 1) / page * page;
    uint8_t *base = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED || mprotect(base + span, page, PROT_NONE) != 0) { fprintf(stderr, "mmap failed\n"); exit(2); }
    uint8_t *p = base + span - size;
    for (size_t i = 0; i < size; i++) p[i] = (uint8_t)((rnd() + 1.0f) * 128.0f);
    return p;
}

/// Compares n bytes exactly.
static void check_bytes(const char *what, const void *vector, const void *portable, size_t n, int status) {
    if (status != 0) { printf("FAIL %s: no vector kernel on this CPU\n", what); failed++; return; }
    const uint8_t *a = vector, *b = portable;
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            printf("FAIL %s: byte %zu of %zu: vector %d portable %d\n", what, i, n, a[i], b[i]);
            failed++;
            return;
        }
    }
    passed++;
}

/// One warp row of `count` pixels at random positions within `spread` times the picture (in 1/32
/// pixel, from two pixels before it), with and without a next row to prefetch.
static void warp_case(int width, int height, int bpp, int red, int green, int blue, int zero_border, int count,
                      int spread) {
    const uint8_t *pixels = guarded_bytes((size_t)width * height * bpp);
    const ic_warp_source source = {pixels, width, height, bpp, red, green, blue, zero_border};
    int32_t *coordinates = malloc(sizeof(int32_t) * 2 * (size_t)count), *next = malloc(sizeof(int32_t) * 2 * (size_t)count);
    float *a = malloc(sizeof(float) * 3 * (size_t)count), *b = malloc(sizeof(float) * 3 * (size_t)count);
    if (!coordinates || !next || !a || !b) { fprintf(stderr, "out of memory\n"); exit(2); }
    for (int i = 0; i < count; i++) {
        coordinates[2 * i] = (int32_t)(-64 + (rnd() + 1.0f) * 0.5f * (32.0f * width * spread + 64));
        coordinates[2 * i + 1] = (int32_t)(-64 + (rnd() + 1.0f) * 0.5f * (32.0f * height * spread + 64));
        next[2 * i] = (int32_t)(rnd() * 3200.0f + 16.0f * width);
        next[2 * i + 1] = (int32_t)(rnd() * 3200.0f + 16.0f * height);
    }
    if (count > 2) coordinates[2 * count - 2] = 32 * (width - 2) + 31, coordinates[2 * count - 1] = 32 * (height - 2) + 31;
    const float low = -1.0f + 0.37f * rnd(), scale = 0.0078f + 0.003f * rnd();
    for (int with_next = 0; with_next < 2; with_next++) {
        const int status = ic_warp_row_kernel(&source, coordinates, with_next ? next : NULL, count, a, low, scale,
                                              IC_KERNEL_VECTOR);
        ic_warp_row_kernel(&source, coordinates, NULL, count, b, low, scale, IC_KERNEL_PORTABLE);
        char what[128];
        snprintf(what, sizeof what, "warp %dx%dx%d (%d,%d,%d) zero border %d, %d pixels, spread %d, next %d", width,
                 height, bpp, red, green, blue, zero_border, count, spread, with_next);
        check_bytes(what, a, b, sizeof(float) * 3 * (size_t)count, status);
    }
    free(coordinates); free(next); free(a); free(b);
}

/// RGB (3) or xRGB words (4) to I420, rows `pad` bytes longer than the pixels.
static void i420_case(int width, int height, int bpp, int pad) {
    const size_t stride = (size_t)width * bpp + pad;
    const uint8_t *src = guarded_bytes(stride * (height - 1) + (size_t)width * bpp);
    const int w2 = (width + 1) & ~1, h2 = (height + 1) & ~1;
    const size_t n = (size_t)w2 * h2 + 2 * (size_t)(w2 / 2) * (h2 / 2);
    uint8_t *a = malloc(n), *b = malloc(n);
    if (!a || !b) { fprintf(stderr, "out of memory\n"); exit(2); }
    const int layout = bpp == 3 ? IC_LAYOUT_RGB : IC_LAYOUT_BGRX;
    const int status = ic_pack_i420_kernel(src, stride, width, height, layout, a, IC_KERNEL_VECTOR);
    ic_pack_i420_kernel(src, stride, width, height, layout, b, IC_KERNEL_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "i420 %dx%d from %s, pad %d", width, height, bpp == 3 ? "RGB" : "xRGB", pad);
    check_bytes(what, a, b, n, status);
    free(a); free(b);
}

/// RGB(X) to xRGB words, rows `pad` bytes longer than the pixels.
static void xrgb_case(int width, int height, int channels, int pad) {
    const size_t stride = (size_t)width * channels + pad, n = (size_t)4 * width * height;
    const uint8_t *src = guarded_bytes(stride * (height - 1) + (size_t)width * channels);
    uint8_t *a = malloc(n), *b = malloc(n);
    if (!a || !b) { fprintf(stderr, "out of memory\n"); exit(2); }
    const int status = ic_expand_xrgb_kernel(src, stride, channels, a, (size_t)4 * width, width, height, IC_KERNEL_VECTOR);
    ic_expand_xrgb_kernel(src, stride, channels, b, (size_t)4 * width, width, height, IC_KERNEL_PORTABLE);
    char what[96];
    snprintf(what, sizeof what, "xrgb %dx%d from %d channels, pad %d", width, height, channels, pad);
    check_bytes(what, a, b, n, status);
    free(a); free(b);
}

int main(void) {
    printf("neon kernels: vt_cpu_has_neon() = %d\n", vt_cpu_has_neon());
    const int outs[] = {1, 3, 8, 13, 16, 24, 40};
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) {
        const int oc = outs[i];
        conv_case(7, 9, 5, oc, 1, 1, 1, 0, 0, 0);   // direct, consecutive rows
        conv_case(8, 8, 3, oc, 1, 2, 1, 0, 1, 0);   // direct, strided
        conv_case(9, 7, 4, oc, 3, 1, 1, 1, 1, 1);   // windowed inside, gathered at the border
        conv_case(10, 11, 2, oc, 3, 2, 1, 1, 2, 0); // stride 2, fewer residual channels
        conv_case(12, 12, 3, oc, 3, 1, 2, 2, 0, 1); // dilation 2 (gathered)
        conv_case(6, 30, 17, oc, 5, 1, 1, 0, 0, 0); // windowed, no padding, many rows per tile
    }
    conv_case(40, 40, 8, 32, 3, 1, 1, 1, 1, 1);     // several tiles of rows, two full panels
    const int fcs[][3] = {{1, 1, 1}, {1, 64, 10}, {3, 17, 23}, {13, 70, 40}, {7, 128, 8}, {130, 9, 16}};
    for (size_t i = 0; i < sizeof fcs / sizeof *fcs; i++) fc_case(fcs[i][0], fcs[i][1], fcs[i][2]);
    const int chans[] = {1, 3, 4, 7, 8, 16, 19, 32, 35, 72};
    for (size_t i = 0; i < sizeof chans / sizeof *chans; i++) {
        const int c = chans[i];
        dw_case(9, 13, c, 1, 3, 1, 1, 1);
        dw_case(10, 12, c, 1, 3, 2, 1, 1);
        dw_case(11, 14, c, 1, 5, 1, 1, 2);
        dw_case(12, 15, c, 1, 5, 2, 1, 2);
        dw_case(12, 12, c, 1, 3, 1, 2, 2);
        dw_case(3, 3, c, 1, 5, 1, 1, 3);   // rows and columns with no tap inside the input
        dw_case(8, 9, c, 2, 3, 1, 1, 1);   // multiplier 2 (the portable row on every path)
    }
    for (size_t i = 0; i < sizeof chans / sizeof *chans; i++) {
        pool_case(8, 8, chans[i], 2, 2, 0);
        pool_case(9, 11, chans[i], 3, 2, 1);
        pool_case(2, 2, chans[i], 3, 1, 2); // windows with no tap inside the input
    }
    const size_t pcs[][2] = {{1, 1}, {33, 3}, {10, 16}, {7, 300}, {4, 1000}};
    for (size_t i = 0; i < sizeof pcs / sizeof *pcs; i++) eltwise_case(pcs[i][0], pcs[i][1]);
    const size_t resizes[][5] = {{4, 5, 1, 8, 10}, {7, 3, 3, 14, 6}, {8, 8, 8, 16, 16}, {5, 6, 13, 3, 17}, {16, 16, 48, 32, 32}};
    for (size_t i = 0; i < sizeof resizes / sizeof *resizes; i++)
        resize_case(resizes[i][0], resizes[i][1], resizes[i][2], resizes[i][3], resizes[i][4]);
    const size_t sides[] = {1, 3, 4, 5, 8, 9, 64, 97};
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++)
        for (size_t j = 0; j < sizeof sides / sizeof *sides; j++) transpose_case(sides[i], sides[j], (i + j) % 3);
    // (width, height, bytes per pixel, red, green, blue): RGB, BGR, xRGB words, gray, tiny and large pictures.
    const int layouts[][6] = {{37, 29, 3, 0, 1, 2}, {64, 48, 3, 2, 1, 0}, {40, 33, 4, 2, 1, 0}, {31, 20, 1, 0, 0, 0},
                              {1, 1, 3, 0, 1, 2}, {2, 3, 4, 0, 1, 2}, {9, 4, 3, 0, 1, 2}, {640, 480, 3, 0, 1, 2}};
    const int counts[] = {1, 3, 4, 7, 64, 193};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)
        for (int zero_border = 0; zero_border < 2; zero_border++)
            for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
                const int *l = layouts[i];
                warp_case(l[0], l[1], l[2], l[3], l[4], l[5], zero_border, counts[k], 1);
                if (k % 2) warp_case(l[0], l[1], l[2], l[3], l[4], l[5], zero_border, counts[k], 4);
            }
    const int sizes[][2] = {{1, 1}, {2, 2}, {15, 3}, {16, 2}, {17, 5}, {31, 7}, {32, 4}, {33, 9}, {100, 11}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int bpp = 3; bpp <= 4; bpp++) {
            i420_case(sizes[i][0], sizes[i][1], bpp, 0);
            xrgb_case(sizes[i][0], sizes[i][1], bpp, 0);
            if (i % 3 == 2) i420_case(sizes[i][0], sizes[i][1], bpp, 5), xrgb_case(sizes[i][0], sizes[i][1], bpp, 3);
        }
    printf("neon kernels: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
