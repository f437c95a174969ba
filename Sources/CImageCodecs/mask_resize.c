// The Image Segmenter's steps from the model's output tensor to masks at the frame's size, as
// MediaPipe's TensorsToSegmentationCalculator does them on the CPU (VisionCore's SegmentationTensor
// calls these, a band of output rows per thread): a plane resized as OpenCV's cv::resize with
// INTER_LINEAR on floats, and the category mask sampled with corners aligned. Each is separable: the
// resize resizes each source row horizontally once (two kept at a time; with AVX2 eight outputs at a
// time by permutations) and blends two of them per output row (eight wide with AVX2); the category
// mask interpolates its two source rows vertically once per output row, then samples that row. No
// multiply-add is fused (as in Swift): every ISA gives the same masks, bit for bit.
#include "image_codecs.h"

#include <math.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#pragma STDC FP_CONTRACT OFF

// OpenCV's INTER_LINEAR taps from `source` to `destination` samples (half-pixel centres, edges clamped):
// per output index, the first source index and the weight of the next.
static void linear_taps(int source, int destination, int32_t *index, float *weight) {
    const double scale = (double)source / (double)destination;
    for (int d = 0; d < destination; d++) {
        const float f = (float)(((double)d + 0.5) * scale - 0.5);
        int i = (int)floorf(f);
        float w = f - (float)i;
        if (i < 0) i = 0, w = 0;
        if (i >= source - 1) i = source - 1, w = 0;
        index[d] = i;
        weight[d] = w;
    }
}

// Outputs [x, count) of a source row resized horizontally along the taps (`xn`: each tap's next index).
static void horizontal_from(const float *row, const int32_t *xi, const int32_t *xn, const float *xw, int x, int count,
                            float *out) {
    for (; x < count; x++) out[x] = row[xi[x]] * (1 - xw[x]) + row[xn[x]] * xw[x];
}

#if defined(__x86_64__)
// Eight outputs at a time where their taps fall within eight source values from the first (an
// enlargement, as every mask is, or a slight reduction): those values loaded once and each output's two
// picked by a permutation, not a gather. The same arithmetic as horizontal_from, bit for bit.
__attribute__((target("avx2"))) static void horizontal_avx2(const float *row, int width, const int32_t *xi,
                                                            const int32_t *xn, const float *xw, int count,
                                                            float *out) {
    const __m256 one = _mm256_set1_ps(1);
    int x = 0;
    for (; x + 8 <= count; x += 8) {
        const int first = xi[x];
        if (xn[x + 7] - first >= 8 || first + 8 > width) break;
        const __m256i base = _mm256_set1_epi32(first);
        const __m256 values = _mm256_loadu_ps(row + first);
        const __m256 a = _mm256_permutevar8x32_ps(
            values, _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(xi + x)), base));
        const __m256 b = _mm256_permutevar8x32_ps(
            values, _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(xn + x)), base));
        const __m256 w = _mm256_loadu_ps(xw + x);
        _mm256_storeu_ps(out + x, _mm256_add_ps(_mm256_mul_ps(a, _mm256_sub_ps(one, w)), _mm256_mul_ps(b, w)));
    }
    horizontal_from(row, xi, xn, xw, x, count, out);
}
#endif

void ic_resize_row_linear(const float *row, int width, const int32_t *xi, const int32_t *xn, const float *xw, int count,
                          float *out) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        horizontal_avx2(row, width, xi, xn, xw, count, out);
        return;
    }
#endif
    horizontal_from(row, xi, xn, xw, 0, count, out);
}

// One output row: two resized source rows weighted b0 and b1.
static void blend_portable(const float *upper, const float *lower, float b0, float b1, int count, float *out) {
    for (int x = 0; x < count; x++) out[x] = upper[x] * b0 + lower[x] * b1;
}

#if defined(__x86_64__)
// The same loop the compiler vectorises eight wide (no FMA: the same bits).
__attribute__((target("avx2"))) static void blend_avx2(const float *upper, const float *lower, float b0, float b1,
                                                       int count, float *out) {
    for (int x = 0; x < count; x++) out[x] = upper[x] * b0 + lower[x] * b1;
}
#endif

static void blend(const float *upper, const float *lower, float b0, float b1, int count, float *out) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        blend_avx2(upper, lower, b0, b1, count, out);
        return;
    }
#endif
    blend_portable(upper, lower, b0, b1, count, out);
}

void ic_resize_plane_linear(const float *src, int sw, int sh, float *dst, int dw, int dh, int row_begin,
                            int row_end, int32_t *scratch_index, float *scratch_weight, float *scratch_rows) {
    int32_t *xi = scratch_index, *yi = scratch_index + dw, *xn = scratch_index + dw + dh;
    float *xw = scratch_weight, *yw = scratch_weight + dw;
    linear_taps(sw, dw, xi, xw);
    linear_taps(sh, dh, yi, yw);
    for (int x = 0; x < dw; x++) xn[x] = xi[x] + 1 < sw ? xi[x] + 1 : sw - 1;
    // Slot r & 1 holds source row r resized (rows r and r + 1 never share a slot).
    float *rows[2] = {scratch_rows, scratch_rows + dw};
    int held[2] = {-1, -1};
    for (int y = row_begin; y < row_end; y++) {
        const int r0 = yi[y], r1 = r0 + 1 < sh ? r0 + 1 : sh - 1;
        const int want[2] = {r0, r1};
        for (int k = 0; k < 2; k++) {
            const int slot = want[k] & 1;
            if (held[slot] != want[k]) {
                ic_resize_row_linear(src + (size_t)want[k] * sw, sw, xi, xn, xw, dw, rows[slot]);
                held[slot] = want[k];
            }
        }
        const float b1 = yw[y];
        blend(rows[r0 & 1], rows[r1 & 1], 1 - b1, b1, dw, dst + (size_t)y * dw);
    }
}

// Corner-aligned sampling position of output index `d`: the two source indices and the weight of the second.
static inline void aligned_tap(int source, int destination, int d, int32_t *first, int32_t *second, float *weight) {
    const float scale = destination > 1 ? (float)(source - 1) / (float)(destination - 1) : 0;
    const float s = (float)d * scale, last = (float)(source - 1);
    const float lo = floorf(s) > 0 ? floorf(s) : 0, hi = ceilf(s) < last ? ceilf(s) : last;
    const float t = s - lo;
    *first = (int32_t)lo;
    *second = (int32_t)hi;
    *weight = t < 0 ? 0 : t > 1 ? 1 : t;
}

void ic_segmentation_category(const float *values, int width, int height, int channels, int sigmoid, uint8_t *out,
                              int ow, int oh, int row_begin, int row_end, int32_t *scratch_index,
                              float *scratch_weight, float *scratch_row) {
    int32_t *x0 = scratch_index, *x1 = scratch_index + ow;
    float *tx = scratch_weight, *scores = scratch_row + (size_t)width * channels;
    for (int x = 0; x < ow; x++) aligned_tap(width, ow, x, &x0[x], &x1[x], &tx[x]);
    const size_t span = (size_t)width * channels;
    for (int y = row_begin; y < row_end; y++) {
        int32_t y0, y1;
        float ty;
        aligned_tap(height, oh, y, &y0, &y1, &ty);
        // The two source rows interpolated vertically: v0 + (v1 - v0) * ty for every value.
        const float *top = values + (size_t)y0 * span, *bottom = values + (size_t)y1 * span;
        float *col = scratch_row;
        for (size_t i = 0; i < span; i++) col[i] = top[i] + (bottom[i] - top[i]) * ty;
        uint8_t *row = out + (size_t)y * ow;
        if (channels == 1 && !sigmoid) {
            // The one-label model without activation (both selfie models): the threshold alone.
            for (int x = 0; x < ow; x++) {
                const float left = col[x0[x]], right = col[x1[x]];
                row[x] = left + (right - left) * tx[x] > 0.5f ? 0 : 255;
            }
            continue;
        }
        for (int x = 0; x < ow; x++) {
            for (int c = 0; c < channels; c++) {
                const float left = col[(size_t)x0[x] * channels + c], right = col[(size_t)x1[x] * channels + c];
                const float v = left + (right - left) * tx[x];
                scores[c] = sigmoid ? (float)(1.0 / (1.0 + exp(-(double)v))) : v;
            }
            if (channels == 1) {
                row[x] = scores[0] > 0.5f ? 0 : 255;
            } else {
                int best = 0;
                for (int c = 1; c < channels; c++)
                    if (scores[c] > scores[best]) best = c;
                row[x] = (uint8_t)best;
            }
        }
    }
}
