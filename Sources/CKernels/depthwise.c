// DEPTHWISE_CONV_2D, NHWC, SIMD across channels (portable C, AVX2/AVX-512 on x86-64, NEON on AArch64).
//
// Packed layout: bias [cpad] then taps [k_h * k_w][cpad], cpad = out_c rounded up to 8, zero padded.
// Output channel oc reads input channel oc / multiplier (multiplier = out_c / in_c).
#include "ckernels.h"
#include "internal.h"

#define VT_DW_CPAD 8

static size_t dw_cpad(const vt_conv_geometry *g) { return vt_round_up((size_t)g->out_c, VT_DW_CPAD); }

size_t vt_dwconv_packed_count(const vt_conv_geometry *g) {
    return dw_cpad(g) * (1 + (size_t)g->k_h * g->k_w);
}

void vt_dwconv_pack(const vt_conv_geometry *g, const float *filter, const float *bias, float *packed) {
    const size_t cpad = dw_cpad(g), oc = (size_t)g->out_c, taps = (size_t)g->k_h * g->k_w;
    for (size_t c = 0; c < cpad; c++) packed[c] = (bias && c < oc) ? bias[c] : 0.0f;
    for (size_t t = 0; t < taps; t++)
        for (size_t c = 0; c < cpad; c++) packed[cpad * (1 + t) + c] = c < oc ? filter[t * oc + c] : 0.0f;
}

/// The tap range [lo, hi) whose input coordinate o*stride - pad + t*dil lies in [0, size).
VT_INLINE void tap_range(int o, int stride, int pad, int dil, int k, int size, int *lo, int *hi) {
    const int base = o * stride - pad;
    int a = 0, b = k;
    while (a < b && base + a * dil < 0) a++;
    while (b > a && base + (b - 1) * dil >= size) b--;
    *lo = a;
    *hi = b;
}

/// Plain C, multiplier 1: channels [ch, ch + len) of one output pixel in a local accumulator (no
/// aliasing with the output). FULL (len == 16) has only constant trip counts, so the compiler keeps
/// the accumulator in vector registers.
VT_INLINE void dw_chunk_portable(const int FULL, const vt_conv_geometry *g, const float *img, const float *packed,
                                 float *out, size_t ch, size_t len, int oy, int ox, int ky0, int ky1, int kx0,
                                 int kx1, float lo, float hi) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g), n = FULL ? 16 : len;
    float acc[16];
    for (size_t j = 0; j < n; j++) acc[j] = packed[ch + j];
    for (int ky = ky0; ky < ky1; ky++) {
        const int iy = oy * g->stride_h - g->pad_top + ky * g->dil_h;
        for (int kx = kx0; kx < kx1; kx++) {
            const int ix = ox * g->stride_w - g->pad_left + kx * g->dil_w;
            const float *in = img + ((size_t)iy * g->in_w + ix) * c + ch;
            const float *w = packed + cpad * (1 + (size_t)ky * g->k_w + kx) + ch;
            for (size_t j = 0; j < n; j++) acc[j] += in[j] * w[j];
        }
    }
    for (size_t j = 0; j < n; j++) out[ch + j] = vt_clampf(acc[j], lo, hi);
}

/// Plain C, multiplier 1: one output pixel, 16 channels at a time, taps [ky0, ky1) x [kx0, kx1).
VT_INLINE void dw_pixel_m1_portable(const vt_conv_geometry *g, const float *img, const float *packed, float *out,
                                    int oy, int ox, int ky0, int ky1, int kx0, int kx1, float lo, float hi) {
    const size_t c = (size_t)g->out_c;
    size_t ch = 0;
    for (; ch + 16 <= c; ch += 16)
        dw_chunk_portable(1, g, img, packed, out, ch, 16, oy, ox, ky0, ky1, kx0, kx1, lo, hi);
    if (ch < c) dw_chunk_portable(0, g, img, packed, out, ch, c - ch, oy, ox, ky0, ky1, kx0, kx1, lo, hi);
}

/// Plain-C row for any multiplier: output channel oc reads input channel oc / multiplier. Under 64
/// channels (multiplier 1) pixels accumulate in registers, otherwise each tap is accumulated into
/// the output pixel in one long vector loop.
static void dw_row_generic(const vt_conv_geometry *g, const float *input, const float *packed, float *output,
                           float lo, float hi, size_t row) {
    const size_t oc = (size_t)g->out_c, ic = (size_t)g->in_c, cpad = dw_cpad(g), mult = oc / ic;
    const int n = (int)(row / g->out_h), oy = (int)(row % g->out_h);
    const float *img = input + (size_t)n * g->in_h * g->in_w * ic;
    int ky0, ky1;
    tap_range(oy, g->stride_h, g->pad_top, g->dil_h, g->k_h, g->in_h, &ky0, &ky1);
    for (int ox = 0; ox < g->out_w; ox++) {
        int kx0, kx1;
        tap_range(ox, g->stride_w, g->pad_left, g->dil_w, g->k_w, g->in_w, &kx0, &kx1);
        float *out = output + (row * g->out_w + ox) * oc;
        if (mult == 1 && oc < 64) {
            dw_pixel_m1_portable(g, img, packed, out, oy, ox, ky0, ky1, kx0, kx1, lo, hi);
            continue;
        }
        for (size_t ch = 0; ch < oc; ch++) out[ch] = packed[ch];
        for (int ky = ky0; ky < ky1; ky++) {
            const int iy = oy * g->stride_h - g->pad_top + ky * g->dil_h;
            for (int kx = kx0; kx < kx1; kx++) {
                const int ix = ox * g->stride_w - g->pad_left + kx * g->dil_w;
                const float *in = img + ((size_t)iy * g->in_w + ix) * ic;
                const float *w = packed + cpad * (1 + (size_t)ky * g->k_w + kx);
                if (mult == 1) {
                    for (size_t ch = 0; ch < oc; ch++) out[ch] += in[ch] * w[ch];
                } else {
                    for (size_t ci = 0; ci < ic; ci++)
                        for (size_t m = 0; m < mult; m++) out[ci * mult + m] += in[ci] * w[ci * mult + m];
                }
            }
        }
        for (size_t ch = 0; ch < oc; ch++) out[ch] = vt_clampf(out[ch], lo, hi);
    }
}

#if VT_X86
// The x86 kernels below compute `len` channels of their pixels from the channel their pointers
// (input, weights, bias, output) point at: a slice of the out_c channels (dw_row_m1_avx2), pixels
// still out_c channels apart. A slice other than the last is a multiple of 64 channels, so the
// last slice's tail (len % 8) is the whole row's (c % 8), which the AVX2 tail mask covers.

/// AVX2, multiplier 1: NP neighbouring interior output pixels (every kx tap in bounds) starting at
/// `out`, whose first tap row starts at `in0`; NP accumulators per 8-channel block share each weight load.
VT_INLINE VT_AVX2_FN void dw_pixels_avx2(const int NP, const vt_conv_geometry *g, size_t len, const float *in0,
                                         const float *w0, const float *bias, float *out, int ky0, int ky1,
                                         __m256 vlo, __m256 vhi, __m256i tmask) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g);
    const size_t ystep = (size_t)g->dil_h * g->in_w * c, xstep = (size_t)g->dil_w * c;
    const size_t pstep = (size_t)g->stride_w * c;
    const int kw = g->k_w;
    for (size_t ch = 0; ch < len; ch += 8) {
        const int partial = ch + 8 > len;
        __m256 acc[8];
        for (int p = 0; p < NP; p++) acc[p] = _mm256_loadu_ps(bias + ch);
        const float *iny = in0 + ch, *wy = w0 + ch;
        for (int ky = ky0; ky < ky1; ky++, iny += ystep, wy += cpad * kw) {
            const float *in = iny, *w = wy;
            for (int kx = 0; kx < kw; kx++, in += xstep, w += cpad) {
                const __m256 wv = _mm256_loadu_ps(w);
                for (int p = 0; p < NP; p++) {
                    const __m256 x = partial ? _mm256_maskload_ps(in + p * pstep, tmask)
                                             : _mm256_loadu_ps(in + p * pstep);
                    acc[p] = _mm256_fmadd_ps(x, wv, acc[p]);
                }
            }
        }
        for (int p = 0; p < NP; p++) {
            const __m256 y = _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc[p]));
            if (partial) _mm256_maskstore_ps(out + p * c + ch, tmask, y);
            else _mm256_storeu_ps(out + p * c + ch, y);
        }
    }
}

/// dw_pixels_avx2 for 4 pixels of a KW-wide kernel with stride S (1 or 2) and dilation 1 across:
/// each kernel row's 3 * S + KW input vectors are loaded once and shared by the taps that read them
/// (the general body loads 4 per tap), the products summed in the same order. Four pixels keep
/// inputs, accumulators and a weight within AVX2's 16 registers.
VT_INLINE VT_AVX2_FN void dw_pixels4_row_avx2(const int KW, const int S, const vt_conv_geometry *g, size_t len,
                                              const float *in0, const float *w0, const float *bias, float *out,
                                              int ky0, int ky1, __m256 vlo, __m256 vhi, __m256i tmask) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g);
    const size_t ystep = (size_t)g->dil_h * g->in_w * c;
    for (size_t ch = 0; ch < len; ch += 8) {
        const int partial = ch + 8 > len;
        __m256 acc[4];
        for (int p = 0; p < 4; p++) acc[p] = _mm256_loadu_ps(bias + ch);
        const float *in = in0 + ch, *wy = w0 + ch;
        for (int ky = ky0; ky < ky1; ky++, in += ystep, wy += cpad * KW) {
            __m256 x[3 * 2 + 5];
            for (int j = 0; j < 3 * S + KW; j++)
                x[j] = partial ? _mm256_maskload_ps(in + j * c, tmask) : _mm256_loadu_ps(in + j * c);
            for (int kx = 0; kx < KW; kx++) {
                const __m256 wv = _mm256_loadu_ps(wy + kx * cpad);
                for (int p = 0; p < 4; p++) acc[p] = _mm256_fmadd_ps(x[S * p + kx], wv, acc[p]);
            }
        }
        for (int p = 0; p < 4; p++) {
            const __m256 y = _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc[p]));
            if (partial) _mm256_maskstore_ps(out + p * c + ch, tmask, y);
            else _mm256_storeu_ps(out + p * c + ch, y);
        }
    }
}

/// AVX-512 version of dw_pixels_avx2: 16-channel blocks, masked at the end (loads of weights and
/// bias too, since their padding only reaches a multiple of 8).
VT_INLINE VT_AVX512_FN void dw_pixels_avx512_body(const int NP, const vt_conv_geometry *g, size_t len,
                                                  const float *in0, const float *w0, const float *bias, float *out,
                                                  int ky0, int ky1, const float *lohi) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g);
    const size_t ystep = (size_t)g->dil_h * g->in_w * c, xstep = (size_t)g->dil_w * c;
    const size_t pstep = (size_t)g->stride_w * c;
    const int kw = g->k_w;
    const __m512 vlo = _mm512_set1_ps(lohi[0]), vhi = _mm512_set1_ps(lohi[1]);
    for (size_t ch = 0; ch < len; ch += 16) {
        const __mmask16 m = vt_mask16((ptrdiff_t)(len - ch));
        __m512 acc[8];
        const __m512 b = _mm512_maskz_loadu_ps(m, bias + ch);
        for (int p = 0; p < NP; p++) acc[p] = b;
        const float *iny = in0 + ch, *wy = w0 + ch;
        for (int ky = ky0; ky < ky1; ky++, iny += ystep, wy += cpad * kw) {
            const float *in = iny, *w = wy;
            for (int kx = 0; kx < kw; kx++, in += xstep, w += cpad) {
                const __m512 wv = _mm512_maskz_loadu_ps(m, w);
                for (int p = 0; p < NP; p++)
                    acc[p] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, in + p * pstep), wv, acc[p]);
            }
        }
        for (int p = 0; p < NP; p++)
            _mm512_mask_storeu_ps(out + p * c + ch, m, _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc[p])));
    }
}

/// dw_pixels_avx512_body for 8 pixels of a KW-wide kernel with stride S (1 or 2) and dilation 1
/// across: each kernel row's 7 * S + KW input vectors are loaded once and shared by the taps that
/// read them (the general body loads 8 per tap), the products summed in the same order.
VT_INLINE VT_AVX512_FN void dw_pixels8_row_avx512(const int KW, const int S, const vt_conv_geometry *g, size_t len,
                                                  const float *in0, const float *w0, const float *bias, float *out,
                                                  int ky0, int ky1, const float *lohi) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g);
    const size_t ystep = (size_t)g->dil_h * g->in_w * c;
    const __m512 vlo = _mm512_set1_ps(lohi[0]), vhi = _mm512_set1_ps(lohi[1]);
    for (size_t ch = 0; ch < len; ch += 16) {
        const __mmask16 m = vt_mask16((ptrdiff_t)(len - ch));
        __m512 acc[8];
        const __m512 b = _mm512_maskz_loadu_ps(m, bias + ch);
        for (int p = 0; p < 8; p++) acc[p] = b;
        const float *in = in0 + ch, *wy = w0 + ch;
        for (int ky = ky0; ky < ky1; ky++, in += ystep, wy += cpad * KW) {
            __m512 x[7 * 2 + 5];
            for (int j = 0; j < 7 * S + KW; j++) x[j] = _mm512_maskz_loadu_ps(m, in + j * c);
            for (int kx = 0; kx < KW; kx++) {
                const __m512 wv = _mm512_maskz_loadu_ps(m, wy + kx * cpad);
                for (int p = 0; p < 8; p++) acc[p] = _mm512_fmadd_ps(x[S * p + kx], wv, acc[p]);
            }
        }
        for (int p = 0; p < 8; p++)
            _mm512_mask_storeu_ps(out + p * c + ch, m, _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc[p])));
    }
}

static VT_AVX512_FN void dw_pixels_avx512(int np, const vt_conv_geometry *g, size_t len, const float *in0,
                                          const float *w0, const float *bias, float *out, int ky0, int ky1,
                                          const float *lohi) {
    const int s = g->dil_w == 1 && g->stride_w <= 2 ? g->stride_w : 0, kw = g->k_w; // s 0: the general body
#define VT_ROW(KW, S) dw_pixels8_row_avx512(KW, S, g, len, in0, w0, bias, out, ky0, ky1, lohi)
    if (np == 8 && s == 1 && kw == 3) VT_ROW(3, 1);
    else if (np == 8 && s == 1 && kw == 5) VT_ROW(5, 1);
    else if (np == 8 && s == 2 && kw == 3) VT_ROW(3, 2);
    else if (np == 8 && s == 2 && kw == 5) VT_ROW(5, 2);
    else if (np == 8) dw_pixels_avx512_body(8, g, len, in0, w0, bias, out, ky0, ky1, lohi);
    else dw_pixels_avx512_body(4, g, len, in0, w0, bias, out, ky0, ky1, lohi);
#undef VT_ROW
}

/// AVX2, multiplier 1: one output pixel (at a border) with taps [ky0, ky1) x [kx0, kx1), 32
/// channels (4 accumulators) per step, then 8, masked at the end.
VT_INLINE VT_AVX2_FN void dw_pixel_avx2(const vt_conv_geometry *g, size_t len, const float *in0, const float *w0,
                                        const float *bias, float *out, int ky0, int ky1, int kx0, int kx1,
                                        __m256 vlo, __m256 vhi, __m256i tmask) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g), kw = (size_t)g->k_w;
    const size_t ystep = (size_t)g->dil_h * g->in_w * c, xstep = (size_t)g->dil_w * c;
    size_t ch = 0;
    for (; ch + 32 <= len; ch += 32) {
        __m256 a0 = _mm256_loadu_ps(bias + ch), a1 = _mm256_loadu_ps(bias + ch + 8);
        __m256 a2 = _mm256_loadu_ps(bias + ch + 16), a3 = _mm256_loadu_ps(bias + ch + 24);
        const float *iny = in0 + ch, *wy = w0 + ch;
        for (int ky = ky0; ky < ky1; ky++, iny += ystep, wy += cpad * kw) {
            const float *in = iny, *w = wy;
            for (int kx = kx0; kx < kx1; kx++, in += xstep, w += cpad) {
                a0 = _mm256_fmadd_ps(_mm256_loadu_ps(in), _mm256_loadu_ps(w), a0);
                a1 = _mm256_fmadd_ps(_mm256_loadu_ps(in + 8), _mm256_loadu_ps(w + 8), a1);
                a2 = _mm256_fmadd_ps(_mm256_loadu_ps(in + 16), _mm256_loadu_ps(w + 16), a2);
                a3 = _mm256_fmadd_ps(_mm256_loadu_ps(in + 24), _mm256_loadu_ps(w + 24), a3);
            }
        }
        _mm256_storeu_ps(out + ch, _mm256_min_ps(vhi, _mm256_max_ps(vlo, a0)));
        _mm256_storeu_ps(out + ch + 8, _mm256_min_ps(vhi, _mm256_max_ps(vlo, a1)));
        _mm256_storeu_ps(out + ch + 16, _mm256_min_ps(vhi, _mm256_max_ps(vlo, a2)));
        _mm256_storeu_ps(out + ch + 24, _mm256_min_ps(vhi, _mm256_max_ps(vlo, a3)));
    }
    for (; ch < len; ch += 8) {
        const int partial = ch + 8 > len;
        __m256 a0 = _mm256_loadu_ps(bias + ch);
        const float *iny = in0 + ch, *wy = w0 + ch;
        for (int ky = ky0; ky < ky1; ky++, iny += ystep, wy += cpad * kw) {
            const float *in = iny, *w = wy;
            for (int kx = kx0; kx < kx1; kx++, in += xstep, w += cpad) {
                const __m256 x = partial ? _mm256_maskload_ps(in, tmask) : _mm256_loadu_ps(in);
                a0 = _mm256_fmadd_ps(x, _mm256_loadu_ps(w), a0);
            }
        }
        a0 = _mm256_min_ps(vhi, _mm256_max_ps(vlo, a0));
        if (partial) _mm256_maskstore_ps(out + ch, tmask, a0);
        else _mm256_storeu_ps(out + ch, a0);
    }
}

/// dw_pixel_avx2 with AVX-512 for NA (1 to 4) blocks of 16 channels from `ch`, the last `last`
/// (masked) channels wide; the taps summed in the same order.
VT_INLINE VT_AVX512_FN void dw_pixel_avx512_blocks(const int NA, const vt_conv_geometry *g, size_t ch, int last,
                                                   const float *in0, const float *w0, const float *bias, float *out,
                                                   int ky0, int ky1, int kx0, int kx1, __m512 vlo, __m512 vhi) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g), kw = (size_t)g->k_w;
    const size_t ystep = (size_t)g->dil_h * g->in_w * c, xstep = (size_t)g->dil_w * c;
    __mmask16 m[4];
    __m512 acc[4];
    for (int j = 0; j < NA; j++) {
        m[j] = vt_mask16(j < NA - 1 ? 16 : last);
        acc[j] = _mm512_maskz_loadu_ps(m[j], bias + ch + 16 * j);
    }
    const float *iny = in0 + ch, *wy = w0 + ch;
    for (int ky = ky0; ky < ky1; ky++, iny += ystep, wy += cpad * kw) {
        const float *in = iny, *w = wy;
        for (int kx = kx0; kx < kx1; kx++, in += xstep, w += cpad)
            for (int j = 0; j < NA; j++)
                acc[j] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m[j], in + 16 * j),
                                         _mm512_maskz_loadu_ps(m[j], w + 16 * j), acc[j]);
    }
    for (int j = 0; j < NA; j++)
        _mm512_mask_storeu_ps(out + ch + 16 * j, m[j], _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc[j])));
}

/// dw_pixel_avx2 with AVX-512: 64 channels (4 accumulators) per step, the last step as many
/// 16-channel blocks as it needs, the last one masked.
static VT_AVX512_FN void dw_pixel_avx512(const vt_conv_geometry *g, size_t len, const float *in0, const float *w0,
                                         const float *bias, float *out, int ky0, int ky1, int kx0, int kx1,
                                         const float *lohi) {
    const __m512 vlo = _mm512_set1_ps(lohi[0]), vhi = _mm512_set1_ps(lohi[1]);
    for (size_t ch = 0; ch < len; ch += 64) {
        const int rest = len - ch < 64 ? (int)(len - ch) : 64, last = rest - (rest - 1) / 16 * 16;
#define VT_BLOCKS(NA) dw_pixel_avx512_blocks(NA, g, ch, last, in0, w0, bias, out, ky0, ky1, kx0, kx1, vlo, vhi)
        switch ((rest + 15) / 16) {
        case 4: VT_BLOCKS(4); break;
        case 3: VT_BLOCKS(3); break;
        case 2: VT_BLOCKS(2); break;
        default: VT_BLOCKS(1); break;
        }
#undef VT_BLOCKS
    }
}

/// Channels per slice of a multiplier-1 row: the row is computed slice by slice when its weights
/// would not fit in L1 together with the inputs, so that each output pixel's taps read L1 and not
/// L2 (7x7 maps of 1,152 channels, 5x5 taps: 115 KB of weights). A multiple of 64 (the border
/// pixels' step), 2,048 weights or more.
VT_INLINE size_t dw_slice(const vt_conv_geometry *g) {
    const size_t taps = (size_t)g->k_h * g->k_w, c = (size_t)g->out_c;
    const size_t slice = vt_round_up(2048 / taps, 64);
    return c > slice ? slice : c;
}

/// AVX2 multiplier-1 row, in slices of channels when SLICED (else all at once, the slice loop
/// compiled away): interior pixels in groups of 8 and 4 (dw_pixels_avx2 and the shared-input
/// rows), border pixels one at a time (dw_pixel_avx2). With `wide`, both run the AVX-512 kernels
/// (for 16 channels or more).
VT_INLINE VT_AVX2_FN void dw_row_m1_avx2_body(const int SLICED, const vt_conv_geometry *g, const float *input,
                                              const float *packed, float *output, float lo, float hi, size_t row,
                                              int wide) {
    const float lohi[2] = {lo, hi};
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g), slice = SLICED ? dw_slice(g) : c;
    const int n = (int)(row / g->out_h), oy = (int)(row % g->out_h);
    const float *img = input + (size_t)n * g->in_h * g->in_w * c;
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    const int kw = g->k_w;
    int ky0, ky1;
    tap_range(oy, g->stride_h, g->pad_top, g->dil_h, g->k_h, g->in_h, &ky0, &ky1);
    const int iy0 = oy * g->stride_h - g->pad_top + ky0 * g->dil_h;
    const int tail = (int)(c % 8);
    const __m256i tmask = vt_lane_mask(tail);
    const int unit = g->stride_w == 1 && g->dil_w == 1, pair = g->stride_w == 2 && g->dil_w == 1;
    // Interior columns [ox_in0, ox_in1): every kx tap lies inside the input.
    const int span = (kw - 1) * g->dil_w;
    int ox_in0 = (g->pad_left + g->stride_w - 1) / g->stride_w;
    int ox_in1 = g->in_w - 1 - span + g->pad_left < 0 ? 0 : (g->in_w - 1 - span + g->pad_left) / g->stride_w + 1;
    if (ox_in1 > g->out_w) ox_in1 = g->out_w;
    if (ox_in0 > ox_in1) ox_in0 = ox_in1;
    for (size_t c0 = 0; c0 < c; c0 += slice) {
        const size_t len = c - c0 < slice ? c - c0 : slice;
        const float *bias = packed + c0;
        for (int ox = 0; ox < g->out_w; ox++) {
            if (ox >= ox_in0 && ox + 4 <= ox_in1 && ky1 > ky0) {
                const int ix = ox * g->stride_w - g->pad_left;
                const float *in0 = img + ((size_t)iy0 * g->in_w + ix) * c + c0;
                const float *w0 = packed + cpad * (1 + (size_t)ky0 * kw) + c0;
                float *out = output + (row * g->out_w + ox) * c + c0;
                const int np = ox + 8 <= ox_in1 ? 8 : 4;
                if (wide) {
                    dw_pixels_avx512(np, g, len, in0, w0, bias, out, ky0, ky1, lohi);
                } else if ((unit && (kw == 3 || kw == 5)) || (pair && kw == 3)) {
                    // The next 4 pixels start 4 * stride input pixels on. Stride 2 with 5 taps would need
                    // 11 input registers: the general body.
                    for (int q = 0; q < np; q += 4) {
                        const float *in = in0 + (size_t)q * g->stride_w * c;
                        float *o = out + q * c;
                        if (pair) dw_pixels4_row_avx2(3, 2, g, len, in, w0, bias, o, ky0, ky1, vlo, vhi, tmask);
                        else if (kw == 3) dw_pixels4_row_avx2(3, 1, g, len, in, w0, bias, o, ky0, ky1, vlo, vhi, tmask);
                        else dw_pixels4_row_avx2(5, 1, g, len, in, w0, bias, o, ky0, ky1, vlo, vhi, tmask);
                    }
                } else if (np == 8) {
                    dw_pixels_avx2(8, g, len, in0, w0, bias, out, ky0, ky1, vlo, vhi, tmask);
                } else {
                    dw_pixels_avx2(4, g, len, in0, w0, bias, out, ky0, ky1, vlo, vhi, tmask);
                }
                ox += np - 1;
                continue;
            }
            int kx0, kx1;
            tap_range(ox, g->stride_w, g->pad_left, g->dil_w, kw, g->in_w, &kx0, &kx1);
            const int ix0 = ox * g->stride_w - g->pad_left + kx0 * g->dil_w;
            const float *in0 = img + ((size_t)iy0 * g->in_w + ix0) * c + c0;
            const float *w0 = packed + cpad * (1 + (size_t)ky0 * kw + kx0) + c0;
            float *out = output + (row * g->out_w + ox) * c + c0;
            if (wide) dw_pixel_avx512(g, len, in0, w0, bias, out, ky0, ky1, kx0, kx1, lohi);
            else dw_pixel_avx2(g, len, in0, w0, bias, out, ky0, ky1, kx0, kx1, vlo, vhi, tmask);
        }
    }
}
static VT_AVX2_FN void dw_row_m1_avx2(const vt_conv_geometry *g, const float *input, const float *packed,
                                      float *output, float lo, float hi, size_t row, int wide) {
    if (dw_slice(g) < (size_t)g->out_c) dw_row_m1_avx2_body(1, g, input, packed, output, lo, hi, row, wide);
    else dw_row_m1_avx2_body(0, g, input, packed, output, lo, hi, row, wide);
}
#endif

#if VT_ARM64
/// NEON, multiplier 1: channels [ch, ch + 4 * NV) of NP (1 or 4) output pixels whose first taps lie
/// `pstep` floats of input apart, taps [ky0, ky1) x [kx0, kx1) from in0 and w0 (the first tap's
/// channel 0); NP * NV accumulators share each weight load, the taps summed in the portable order.
VT_INLINE void dw_block_neon(const int NP, const int NV, const vt_conv_geometry *g, size_t ch, const float *in0,
                             const float *w0, const float *bias, float *out, int ky0, int ky1, int kx0, int kx1,
                             float32x4_t vlo, float32x4_t vhi) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g), kw = (size_t)g->k_w;
    const size_t ystep = (size_t)g->dil_h * g->in_w * c, xstep = (size_t)g->dil_w * c;
    const size_t pstep = (size_t)g->stride_w * c;
    float32x4_t acc[4][4];
    for (int p = 0; p < NP; p++)
        for (int v = 0; v < NV; v++) acc[p][v] = vld1q_f32(bias + ch + 4 * v);
    const float *iny = in0 + ch, *wy = w0 + ch;
    for (int ky = ky0; ky < ky1; ky++, iny += ystep, wy += cpad * kw) {
        const float *in = iny, *w = wy;
        for (int kx = kx0; kx < kx1; kx++, in += xstep, w += cpad) {
            float32x4_t wv[4];
            for (int v = 0; v < NV; v++) wv[v] = vld1q_f32(w + 4 * v);
            for (int p = 0; p < NP; p++)
                for (int v = 0; v < NV; v++)
                    acc[p][v] = vfmaq_f32(acc[p][v], vld1q_f32(in + p * pstep + 4 * v), wv[v]);
        }
    }
    for (int p = 0; p < NP; p++)
        for (int v = 0; v < NV; v++) vst1q_f32(out + p * c + ch + 4 * v, vt_clamp_neon(acc[p][v], vlo, vhi));
}

/// NEON, multiplier 1: NP (1 or 4) output pixels, 16 channels per step, then 4, then the last
/// out_c % 4 one at a time (as the portable chunk does them).
VT_INLINE void dw_pixels_neon(const int NP, const vt_conv_geometry *g, const float *in0, const float *w0,
                              const float *bias, float *out, int ky0, int ky1, int kx0, int kx1, float lo, float hi) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g), kw = (size_t)g->k_w;
    const size_t ystep = (size_t)g->dil_h * g->in_w * c, xstep = (size_t)g->dil_w * c;
    const size_t pstep = (size_t)g->stride_w * c;
    const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
    size_t ch = 0;
    for (; ch + 16 <= c; ch += 16) dw_block_neon(NP, 4, g, ch, in0, w0, bias, out, ky0, ky1, kx0, kx1, vlo, vhi);
    for (; ch + 4 <= c; ch += 4) dw_block_neon(NP, 1, g, ch, in0, w0, bias, out, ky0, ky1, kx0, kx1, vlo, vhi);
    for (; ch < c; ch++) {
        for (int p = 0; p < NP; p++) {
            float acc = bias[ch];
            const float *iny = in0 + ch + p * pstep, *wy = w0 + ch;
            for (int ky = ky0; ky < ky1; ky++, iny += ystep, wy += cpad * kw) {
                const float *in = iny, *w = wy;
                for (int kx = kx0; kx < kx1; kx++, in += xstep, w += cpad) acc += *in * *w;
            }
            out[p * c + ch] = vt_clampf(acc, lo, hi);
        }
    }
}

/// NEON multiplier-1 row: interior pixels (every kx tap in bounds) four at a time, border pixels
/// one at a time with their in-bounds taps.
static void dw_row_m1_neon(const vt_conv_geometry *g, const float *input, const float *packed, float *output,
                           float lo, float hi, size_t row) {
    const size_t c = (size_t)g->out_c, cpad = dw_cpad(g);
    const int n = (int)(row / g->out_h), oy = (int)(row % g->out_h), kw = g->k_w;
    const float *img = input + (size_t)n * g->in_h * g->in_w * c;
    int ky0, ky1;
    tap_range(oy, g->stride_h, g->pad_top, g->dil_h, g->k_h, g->in_h, &ky0, &ky1);
    if (ky1 <= ky0) {
        // No kernel row inside the input: the bias, clamped (as the portable row).
        for (int ox = 0; ox < g->out_w; ox++)
            for (size_t ch = 0; ch < c; ch++) output[(row * g->out_w + ox) * c + ch] = vt_clampf(packed[ch], lo, hi);
        return;
    }
    const int iy0 = oy * g->stride_h - g->pad_top + ky0 * g->dil_h;
    const int span = (kw - 1) * g->dil_w;
    int ox_in0 = (g->pad_left + g->stride_w - 1) / g->stride_w;
    int ox_in1 = g->in_w - 1 - span + g->pad_left < 0 ? 0 : (g->in_w - 1 - span + g->pad_left) / g->stride_w + 1;
    if (ox_in1 > g->out_w) ox_in1 = g->out_w;
    if (ox_in0 > ox_in1) ox_in0 = ox_in1;
    for (int ox = 0; ox < g->out_w; ox++) {
        float *out = output + (row * g->out_w + ox) * c;
        if (ox >= ox_in0 && ox + 4 <= ox_in1) {
            const float *in0 = img + ((size_t)iy0 * g->in_w + (size_t)(ox * g->stride_w - g->pad_left)) * c;
            dw_pixels_neon(4, g, in0, packed + cpad * (1 + (size_t)ky0 * kw), packed, out, ky0, ky1, 0, kw, lo, hi);
            ox += 3;
            continue;
        }
        int kx0, kx1;
        tap_range(ox, g->stride_w, g->pad_left, g->dil_w, kw, g->in_w, &kx0, &kx1);
        if (kx1 <= kx0) {
            for (size_t ch = 0; ch < c; ch++) out[ch] = vt_clampf(packed[ch], lo, hi);
            continue;
        }
        const int ix0 = ox * g->stride_w - g->pad_left + kx0 * g->dil_w;
        const float *in0 = img + ((size_t)iy0 * g->in_w + (size_t)ix0) * c;
        dw_pixels_neon(1, g, in0, packed + cpad * (1 + (size_t)ky0 * kw + kx0), packed, out, ky0, ky1, kx0, kx1, lo, hi);
    }
}
#endif

void vt_dwconv(const vt_conv_geometry *g, const float *input, const float *packed, float *output, float lo,
               float hi, size_t row_begin, size_t row_end, int isa) {
#if VT_X86
    if ((isa == VT_ISA_AVX2 || isa == VT_ISA_AVX512) && g->out_c == g->in_c) {
        const int wide = isa == VT_ISA_AVX512 && g->out_c >= 16 && (g->out_c % 16 == 0 || g->out_c % 16 > 8);
        for (size_t row = row_begin; row < row_end; row++)
            dw_row_m1_avx2(g, input, packed, output, lo, hi, row, wide);
        return;
    }
#elif VT_ARM64
    if (isa == VT_ISA_NEON && g->out_c == g->in_c) {
        for (size_t row = row_begin; row < row_end; row++) dw_row_m1_neon(g, input, packed, output, lo, hi, row);
        return;
    }
#else
    (void)isa;
#endif
    for (size_t row = row_begin; row < row_end; row++) dw_row_generic(g, input, packed, output, lo, hi, row);
}
