// Convolution2DTransposeBias (MediaPipe's custom operator): each output pixel gathers the input
// pixels whose scattered windows cover it. The body is plain C written once and compiled twice: as
// the portable variant and inside an AVX2 + FMA function, where the compiler vectorises the 8 partial
// sums into one register.
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
static VT_AVX2_FN void tconv_avx2(const vt_conv_geometry *g, const float *input, const float *filter,
                                  const float *bias, float *output, const int *columns, size_t r0, size_t r1) {
    tconv_rows(g, input, filter, bias, output, columns, r0, r1);
}
#endif

void vt_transpose_conv(const vt_conv_geometry *g, const float *input, const float *filter, const float *bias,
                       float *output, const int *columns, size_t row_begin, size_t row_end, int isa) {
#if VT_X86
    if (isa == VT_ISA_AVX2 || isa == VT_ISA_AVX512) {
        tconv_avx2(g, input, filter, bias, output, columns, row_begin, row_end);
        return;
    }
#endif
    (void)isa;
    tconv_portable(g, input, filter, bias, output, columns, row_begin, row_end);
}
