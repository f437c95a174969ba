// RESIZE_BILINEAR on NHWC: each output pixel is its four source pixels weighted as TFLite's reference kernel
// weighs them, channels a vector at a time (AVX2 8 with the last 1-7 masked; NEON 4, then one at a time).
#include "ckernels.h"
#include "internal.h"

// Each product rounded, then added in order, on every path (the compiler may not fuse them): 1, 2 and 3
// threads and every code path give the same bits.
#pragma STDC FP_CONTRACT OFF

/// The four corner weights of output pixel (wy, wx): (1 - wy)(1 - wx), (1 - wy)wx, wy(1 - wx), wy wx.
typedef struct corner_weights {
    float w00, w01, w10, w11;
} corner_weights;

VT_INLINE corner_weights corners(float wy, float wx) {
    const corner_weights w = {(1 - wy) * (1 - wx), (1 - wy) * wx, wy * (1 - wx), wy * wx};
    return w;
}

/// Channels [k, c) of one output pixel, one at a time.
VT_INLINE void pixel_tail(const float *p00, const float *p01, const float *p10, const float *p11, corner_weights w,
                          float *y, size_t k, size_t c, float lo, float hi) {
    for (; k < c; k++) {
        float v = p00[k] * w.w00;
        v += p10[k] * w.w10;
        v += p01[k] * w.w01;
        v += p11[k] * w.w11;
        y[k] = vt_clampf(v, lo, hi);
    }
}

/// Calls BODY(p00, p01, p10, p11, w, y) for every output pixel of rows [r0, r1) (of batch * out_h).
#define RESIZE_PIXELS(BODY)                                                                               \
    do {                                                                                                  \
        float *y = output + r0 * out_w * c;                                                               \
        for (size_t row = r0; row < r1; row++) {                                                          \
            const float *image = input + row / out_h * in_h * in_w * c;                                   \
            const vt_bilinear_tap ry = rows[row % out_h];                                                 \
            const float *top = image + (size_t)ry.lower * in_w * c, *bottom = image + (size_t)ry.upper * in_w * c; \
            for (size_t x = 0; x < out_w; x++, y += c) {                                                  \
                const vt_bilinear_tap cx = columns[x];                                                    \
                const size_t left = (size_t)cx.lower * c, right = (size_t)cx.upper * c;                   \
                BODY(top + left, top + right, bottom + left, bottom + right, corners(ry.weight, cx.weight), y); \
            }                                                                                             \
        }                                                                                                 \
    } while (0)

#define RESIZE_ARGS                                                                                          \
    const float *input, float *output, size_t in_h, size_t in_w, size_t c, const vt_bilinear_tap *rows,     \
        size_t out_h, const vt_bilinear_tap *columns, size_t out_w, float lo, float hi, size_t r0, size_t r1

static void resize_portable(RESIZE_ARGS) {
#define PORTABLE_PIXEL(p00, p01, p10, p11, w, y) pixel_tail(p00, p01, p10, p11, w, y, 0, c, lo, hi)
    RESIZE_PIXELS(PORTABLE_PIXEL);
#undef PORTABLE_PIXEL
}

#if VT_X86
/// 8 channels at a time, the last 1-7 masked.
static VT_AVX2_FN void resize_avx2(RESIZE_ARGS) {
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    const __m256i tmask = vt_lane_mask((int)(c % 8));
#define AVX2_PIXEL(p00, p01, p10, p11, w, y)                                                                \
    do {                                                                                                    \
        const __m256 w00 = _mm256_set1_ps(w.w00), w01 = _mm256_set1_ps(w.w01), w10 = _mm256_set1_ps(w.w10), \
                     w11 = _mm256_set1_ps(w.w11);                                                           \
        for (size_t k = 0; k < c; k += 8) {                                                                 \
            const int part = c - k < 8;                                                                     \
            const __m256 a = part ? _mm256_maskload_ps(p00 + k, tmask) : _mm256_loadu_ps(p00 + k);         \
            const __m256 b = part ? _mm256_maskload_ps(p10 + k, tmask) : _mm256_loadu_ps(p10 + k);         \
            const __m256 d = part ? _mm256_maskload_ps(p01 + k, tmask) : _mm256_loadu_ps(p01 + k);         \
            const __m256 e = part ? _mm256_maskload_ps(p11 + k, tmask) : _mm256_loadu_ps(p11 + k);         \
            __m256 v = _mm256_mul_ps(a, w00);                                                               \
            v = _mm256_add_ps(v, _mm256_mul_ps(b, w10));                                                    \
            v = _mm256_add_ps(v, _mm256_mul_ps(d, w01));                                                    \
            v = _mm256_add_ps(v, _mm256_mul_ps(e, w11));                                                    \
            v = _mm256_min_ps(vhi, _mm256_max_ps(vlo, v));                                                  \
            if (part) _mm256_maskstore_ps(y + k, tmask, v);                                                 \
            else _mm256_storeu_ps(y + k, v);                                                                \
        }                                                                                                   \
    } while (0)
    RESIZE_PIXELS(AVX2_PIXEL);
#undef AVX2_PIXEL
}
#endif

#if VT_ARM64
/// 4 channels at a time, then one at a time.
static void resize_neon(RESIZE_ARGS) {
    const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
#define NEON_PIXEL(p00, p01, p10, p11, w, y)                                                                \
    do {                                                                                                    \
        size_t k = 0;                                                                                       \
        for (; k + 4 <= c; k += 4) {                                                                        \
            float32x4_t v = vmulq_n_f32(vld1q_f32(p00 + k), w.w00);                                         \
            v = vaddq_f32(v, vmulq_n_f32(vld1q_f32(p10 + k), w.w10));                                       \
            v = vaddq_f32(v, vmulq_n_f32(vld1q_f32(p01 + k), w.w01));                                       \
            v = vaddq_f32(v, vmulq_n_f32(vld1q_f32(p11 + k), w.w11));                                       \
            vst1q_f32(y + k, vt_clamp_neon(v, vlo, vhi));                                                   \
        }                                                                                                   \
        pixel_tail(p00, p01, p10, p11, w, y, k, c, lo, hi);                                                 \
    } while (0)
    RESIZE_PIXELS(NEON_PIXEL);
#undef NEON_PIXEL
}
#endif

void vt_resize_bilinear(const float *input, float *output, size_t in_h, size_t in_w, size_t channels,
                        const vt_bilinear_tap *rows, size_t out_h, const vt_bilinear_tap *columns, size_t out_w,
                        float lo, float hi, size_t row_begin, size_t row_end, int isa) {
    VT_DISPATCH(isa, resize, input, output, in_h, in_w, channels, rows, out_h, columns, out_w, lo, hi, row_begin,
                row_end);
}
