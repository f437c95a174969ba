// Convolution2DTransposeBias (MediaPipe's custom operator): each output pixel gathers the input
// pixels whose scattered windows cover it. The body is plain C written once and compiled twice: as
// the portable variant and inside an AVX2 + FMA function, where the compiler vectorises the 8 partial
// sums into one register. With AVX2, the selfie segmenters' one-channel 2x2 stride-2 layer takes a path of
// its own (tconv_pairs_avx2).
#include "ckernels.h"
#include "internal.h"

VT_INLINE void tconv_rows(const vt_conv_geometry *g, const float *input, const float *filter, const float *bias,
                          float *output, const int *columns, size_t r0, size_t r1) {
    const int ci = g->in_c, co = g->out_c;
    for (size_t row = r0; row < r1; row++) {
        const int b = (int)(row / (size_t)g->out_h), oy = (int)(row % (size_t)g->out_h);
        // Input row iy covers output rows iy * stride - pad ... + k - 1.
        const int t = oy + g->pad_top;
        const int y0 = t - g->k_h + 1 <= 0 ? 0 : (t - g->k_h + g->stride_h) / g->stride_h;
        const int y1 = t / g->stride_h < g->in_h - 1 ? t / g->stride_h : g->in_h - 1;
        const float *img = input + (size_t)b * g->in_h * g->in_w * ci;
        float *out = output + row * (size_t)g->out_w * co;
        for (int ox = 0; ox < g->out_w; ox++) {
            const int x0 = columns[2 * ox], x1 = columns[2 * ox + 1];
            for (int oc = 0; oc < co; oc++) {
                float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                for (int iy = y0; iy <= y1; iy++) {
                    const float *line = img + (size_t)iy * g->in_w * ci;
                    const float *taps = filter + ((size_t)oc * g->k_h + (size_t)(t - iy * g->stride_h)) * g->k_w * ci;
                    for (int ix = x0; ix <= x1; ix++) {
                        const float *x = line + (size_t)ix * ci;
                        const float *w = taps + (size_t)(ox + g->pad_left - ix * g->stride_w) * ci;
                        int c = 0;
                        for (; c + 8 <= ci; c += 8)
                            for (int l = 0; l < 8; l++) acc[l] += x[c + l] * w[c + l];
                        for (int l = 0; c + l < ci; l++) acc[l] += x[c + l] * w[c + l];
                    }
                }
                out[(size_t)ox * co + oc] =
                    bias[oc] + (((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])));
            }
        }
    }
}

static void tconv_portable(const vt_conv_geometry *g, const float *input, const float *filter, const float *bias,
                           float *output, const int *columns, size_t r0, size_t r1) {
    tconv_rows(g, input, filter, bias, output, columns, r0, r1);
}

#if VT_X86
// One channel out of a 2-wide window moved by 2 (kernel width = stride width = 2, kernel height =
// stride height, no padding: the selfie segmenters' last layer): each output is one input pixel's
// dot product with one filter tap, so an output row is, for each input pixel of its input row, the
// dot products with the row's two taps side by side. Two input pixels (four outputs) at a time, their
// 8-lane partial sums reduced together by horizontal adds in tconv_rows's order, bit for bit (9x faster
// than tconv_avx2 on the 128x128x16 -> 256x256x1 layer: 0.056 against 0.53 ms).
VT_INLINE int tconv_pairs_applies(const vt_conv_geometry *g) {
    return g->out_c == 1 && g->in_c % 8 == 0 && g->k_w == 2 && g->stride_w == 2 && g->k_h == g->stride_h &&
           g->pad_top == 0 && g->pad_left == 0 && g->out_w == 2 * g->in_w && g->out_h == g->stride_h * g->in_h;
}

// The 8 partial sums of pixel `x` against taps `w` (as tconv_rows's acc[8]) folded to 4: acc[l] + acc[l + 4].
static VT_AVX2_FN inline __m128 tconv_partial(const float *x, const float *w, int ci) {
    __m256 acc = _mm256_mul_ps(_mm256_loadu_ps(x), _mm256_loadu_ps(w));
    for (int c = 8; c < ci; c += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(x + c), _mm256_loadu_ps(w + c), acc);
    return _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
}

static VT_AVX2_FN void tconv_pairs_avx2(const vt_conv_geometry *g, const float *input, const float *filter,
                                        const float *bias, float *output, size_t r0, size_t r1) {
    const int ci = g->in_c;
    const __m128 b = _mm_set1_ps(bias[0]);
    for (size_t row = r0; row < r1; row++) {
        const int n = (int)(row / (size_t)g->out_h), oy = (int)(row % (size_t)g->out_h);
        const int iy = oy / g->stride_h, ky = oy % g->stride_h;
        const float *line = input + (((size_t)n * g->in_h + (size_t)iy) * g->in_w) * ci;
        const float *w0 = filter + (size_t)ky * 2 * ci, *w1 = w0 + ci;
        float *out = output + row * (size_t)g->out_w;
        int ix = 0;
        for (; ix + 2 <= g->in_w; ix += 2) {
            const float *x0 = line + (size_t)ix * ci, *x1 = x0 + ci;
            // hadd(hadd(a, b), hadd(c, d)) = the four dot products ((p0 + p1) + (p2 + p3)) of a, b, c, d.
            const __m128 ab = _mm_hadd_ps(tconv_partial(x0, w0, ci), tconv_partial(x0, w1, ci));
            const __m128 cd = _mm_hadd_ps(tconv_partial(x1, w0, ci), tconv_partial(x1, w1, ci));
            _mm_storeu_ps(out + 2 * ix, _mm_add_ps(b, _mm_hadd_ps(ab, cd)));
        }
        for (; ix < g->in_w; ix++) {
            const float *x = line + (size_t)ix * ci;
            const __m128 ab = _mm_hadd_ps(tconv_partial(x, w0, ci), tconv_partial(x, w1, ci));
            float sums[4];
            _mm_storeu_ps(sums, _mm_add_ps(b, _mm_hadd_ps(ab, ab)));
            out[2 * ix] = sums[0];
            out[2 * ix + 1] = sums[1];
        }
    }
}

static VT_AVX2_FN void tconv_avx2(const vt_conv_geometry *g, const float *input, const float *filter,
                                  const float *bias, float *output, const int *columns, size_t r0, size_t r1) {
    tconv_rows(g, input, filter, bias, output, columns, r0, r1);
}
#endif

void vt_transpose_conv(const vt_conv_geometry *g, const float *input, const float *filter, const float *bias,
                       float *output, const int *columns, size_t row_begin, size_t row_end, int isa) {
#if VT_X86
    if ((isa == VT_ISA_AVX2 || isa == VT_ISA_AVX512) && tconv_pairs_applies(g)) {
        tconv_pairs_avx2(g, input, filter, bias, output, row_begin, row_end);
        return;
    }
    if (isa == VT_ISA_AVX2 || isa == VT_ISA_AVX512) {
        tconv_avx2(g, input, filter, bias, output, columns, row_begin, row_end);
        return;
    }
#endif
    (void)isa;
    tconv_portable(g, input, filter, bias, output, columns, row_begin, row_end);
}
