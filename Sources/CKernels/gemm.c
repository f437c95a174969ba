// CONV_2D and FULLY_CONNECTED as one packed GEMM: C[M, O] = A[M, K] x B[K, O] + bias, clamped.
//
// B (the weights) is packed once into panels of VT_NR = 16 output columns: panel p holds
// K rows of 16 floats (columns p*16 ..< p*16+16, zero beyond O), preceded by the bias padded
// to a multiple of 16. A is given as row pointers: for a 1x1 convolution without padding each
// row is an input pixel (any stride), otherwise a tile of rows is gathered (im2col) into the
// caller's scratch. A register-blocked micro-kernel computes MR rows x 16 columns.
#include "ckernels.h"
#include "internal.h"
#include <string.h>

/// Rows of A gathered or addressed per tile (multiple of every micro-kernel MR).
#define VT_MC_MAX 120
#define VT_MC_MIN 12

int vt_conv_geometry_valid(const vt_conv_geometry *g) {
    if (!g) return 0;
    if (g->batch <= 0 || g->in_h <= 0 || g->in_w <= 0 || g->in_c <= 0) return 0;
    if (g->out_h <= 0 || g->out_w <= 0 || g->out_c <= 0) return 0;
    if (g->k_h <= 0 || g->k_w <= 0 || g->stride_h <= 0 || g->stride_w <= 0) return 0;
    if (g->dil_h <= 0 || g->dil_w <= 0 || g->pad_top < 0 || g->pad_left < 0) return 0;
    const int64_t lim = (int64_t)1 << 31;
    if ((int64_t)g->batch * g->in_h * g->in_w * g->in_c >= lim) return 0;
    if ((int64_t)g->batch * g->out_h * g->out_w * g->out_c >= lim) return 0;
    if ((int64_t)g->k_h * g->k_w * g->in_c * (g->out_c + VT_NR) >= lim) return 0;
    if ((int64_t)g->out_h * g->stride_h + (int64_t)g->k_h * g->dil_h >= lim) return 0;
    if ((int64_t)g->out_w * g->stride_w + (int64_t)g->k_w * g->dil_w >= lim) return 0;
    return 1;
}

// ---------------------------------------------------------------- packing

static void pack_panels(size_t k, size_t n, const float *w_nk, const float *bias, float *packed) {
    const size_t npad = vt_round_up(n, VT_NR);
    for (size_t j = 0; j < npad; j++) packed[j] = (bias && j < n) ? bias[j] : 0.0f;
    float *panels = packed + npad;
    for (size_t p = 0; p < npad / VT_NR; p++) {
        float *dst = panels + p * k * VT_NR;
        for (size_t kk = 0; kk < k; kk++) {
            for (size_t j = 0; j < VT_NR; j++) {
                const size_t col = p * VT_NR + j;
                dst[kk * VT_NR + j] = col < n ? w_nk[col * k + kk] : 0.0f;
            }
        }
    }
}

static size_t conv_k(const vt_conv_geometry *g) { return (size_t)g->k_h * g->k_w * g->in_c; }

size_t vt_conv2d_packed_count(const vt_conv_geometry *g) {
    const size_t npad = vt_round_up((size_t)g->out_c, VT_NR);
    return npad + npad * conv_k(g);
}

void vt_conv2d_pack(const vt_conv_geometry *g, const float *filter, const float *bias, float *packed) {
    pack_panels(conv_k(g), (size_t)g->out_c, filter, bias, packed);
}

size_t vt_fc_packed_count(int in_features, int out_features) {
    const size_t npad = vt_round_up((size_t)out_features, VT_NR);
    return npad + npad * (size_t)in_features;
}

void vt_fc_pack(int in_features, int out_features, const float *weights, const float *bias, float *packed) {
    pack_panels((size_t)in_features, (size_t)out_features, weights, bias, packed);
}

// ---------------------------------------------------------------- micro-kernels

/// Stores one row of 16 results (nc <= 16 valid columns), clamped.
VT_INLINE void store_row_portable(float *c, const float *v, int nc, float lo, float hi) {
    for (int j = 0; j < nc; j++) c[j] = vt_clampf(v[j], lo, hi);
}

/// Portable micro-kernel body: MR rows x 16 columns, plain C the compiler vectorises.
VT_INLINE void ukernel_portable_body(const int MR, const float *const *a, size_t k, const float *b,
                                     const float *bias, float *c, size_t ldc, int nc, float lo, float hi) {
    float acc[4][VT_NR];
    for (int r = 0; r < MR; r++)
        for (int j = 0; j < VT_NR; j++) acc[r][j] = bias[j];
    for (size_t p = 0; p < k; p++) {
        const float *bp = b + p * VT_NR;
        for (int r = 0; r < MR; r++) {
            const float av = a[r][p];
            for (int j = 0; j < VT_NR; j++) acc[r][j] += av * bp[j];
        }
    }
    for (int r = 0; r < MR; r++) store_row_portable(c + r * ldc, acc[r], nc, lo, hi);
}

#define VT_MR_PORTABLE 4
static void ukernel_portable(int mr, const float *const *a, size_t k, const float *b, const float *bias,
                             float *c, size_t ldc, int nc, float lo, float hi) {
    switch (mr) {
    case 4: ukernel_portable_body(4, a, k, b, bias, c, ldc, nc, lo, hi); break;
    case 3: ukernel_portable_body(3, a, k, b, bias, c, ldc, nc, lo, hi); break;
    case 2: ukernel_portable_body(2, a, k, b, bias, c, ldc, nc, lo, hi); break;
    default: ukernel_portable_body(1, a, k, b, bias, c, ldc, nc, lo, hi); break;
    }
}

#if VT_X86
#define VT_MR_AVX2 6

VT_INLINE VT_AVX2_FN void store_row_avx2(float *c, __m256 v0, __m256 v1, int nc, __m256 vlo, __m256 vhi) {
    v0 = _mm256_min_ps(_mm256_max_ps(v0, vlo), vhi);
    v1 = _mm256_min_ps(_mm256_max_ps(v1, vlo), vhi);
    if (nc == VT_NR) {
        _mm256_storeu_ps(c, v0);
        _mm256_storeu_ps(c + 8, v1);
    } else {
        float tmp[VT_NR];
        _mm256_storeu_ps(tmp, v0);
        _mm256_storeu_ps(tmp + 8, v1);
        for (int j = 0; j < nc; j++) c[j] = tmp[j];
    }
}

/// AVX2/FMA micro-kernel body: MR (<= 6) rows x 16 columns in 2*MR accumulators.
VT_INLINE VT_AVX2_FN void ukernel_avx2_body(const int MR, const float *const *a, size_t k, const float *b,
                                            const float *bias, float *c, size_t ldc, int nc, float lo, float hi) {
    __m256 acc0[VT_MR_AVX2], acc1[VT_MR_AVX2];
    const float *ap[VT_MR_AVX2];
    const __m256 bias0 = _mm256_loadu_ps(bias), bias1 = _mm256_loadu_ps(bias + 8);
    for (int r = 0; r < MR; r++) {
        acc0[r] = bias0;
        acc1[r] = bias1;
        ap[r] = a[r];
    }
    for (size_t p = 0; p < k; p++) {
        const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
        b += VT_NR;
        for (int r = 0; r < MR; r++) {
            const __m256 av = _mm256_broadcast_ss(ap[r] + p);
            acc0[r] = _mm256_fmadd_ps(av, b0, acc0[r]);
            acc1[r] = _mm256_fmadd_ps(av, b1, acc1[r]);
        }
    }
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    for (int r = 0; r < MR; r++) store_row_avx2(c + r * ldc, acc0[r], acc1[r], nc, vlo, vhi);
}

static VT_AVX2_FN void ukernel_avx2(int mr, const float *const *a, size_t k, const float *b, const float *bias,
                                    float *c, size_t ldc, int nc, float lo, float hi) {
    switch (mr) {
    case 6: ukernel_avx2_body(6, a, k, b, bias, c, ldc, nc, lo, hi); break;
    case 5: ukernel_avx2_body(5, a, k, b, bias, c, ldc, nc, lo, hi); break;
    case 4: ukernel_avx2_body(4, a, k, b, bias, c, ldc, nc, lo, hi); break;
    case 3: ukernel_avx2_body(3, a, k, b, bias, c, ldc, nc, lo, hi); break;
    case 2: ukernel_avx2_body(2, a, k, b, bias, c, ldc, nc, lo, hi); break;
    default: ukernel_avx2_body(1, a, k, b, bias, c, ldc, nc, lo, hi); break;
    }
}
#endif

typedef void (*ukernel_fn)(int, const float *const *, size_t, const float *, const float *, float *, size_t, int,
                           float, float);

/// Computes rows a[0 ..< mc] against every panel into c (row stride ldc), n valid columns.
static void gemm_tile(const float *const *a, size_t mc, size_t k, size_t n, const float *packed, float *c,
                      size_t ldc, float lo, float hi, int isa) {
    ukernel_fn uk = ukernel_portable;
    size_t mr = VT_MR_PORTABLE;
#if VT_X86
    if (isa == VT_ISA_AVX2) {
        uk = ukernel_avx2;
        mr = VT_MR_AVX2;
    }
#else
    (void)isa;
#endif
    const size_t npad = vt_round_up(n, VT_NR);
    const float *panels = packed + npad;
    for (size_t p = 0; p < npad / VT_NR; p++) {
        const size_t col = p * VT_NR;
        const int nc = (int)(n - col < VT_NR ? n - col : VT_NR);
        const float *bp = panels + p * k * VT_NR;
        for (size_t i = 0; i < mc; i += mr) {
            const size_t rows = mc - i < mr ? mc - i : mr;
            uk((int)rows, a + i, k, bp, packed + col, c + i * ldc + col, ldc, nc, lo, hi);
        }
    }
}

// ---------------------------------------------------------------- CONV_2D

/// Tile height for a reduction length k: the gathered tile stays around 64 KB.
static size_t conv_mc(size_t k) {
    size_t mc = (16384 / (k ? k : 1)) / VT_MC_MIN * VT_MC_MIN;
    if (mc < VT_MC_MIN) mc = VT_MC_MIN;
    if (mc > VT_MC_MAX) mc = VT_MC_MAX;
    return mc;
}

/// 1 when every output pixel reads exactly one in-bounds input pixel (1x1, no padding).
static int conv_is_direct(const vt_conv_geometry *g) {
    return g->k_h == 1 && g->k_w == 1 && g->pad_top == 0 && g->pad_left == 0 &&
           (int64_t)(g->out_h - 1) * g->stride_h < g->in_h && (int64_t)(g->out_w - 1) * g->stride_w < g->in_w;
}

size_t vt_conv2d_scratch_count(const vt_conv_geometry *g) {
    if (conv_is_direct(g)) return 0;
    const size_t k = conv_k(g);
    return conv_mc(k) * k;
}

/// Gathers the receptive field of output pixel m into dst[k] (zero outside the input).
static void im2col_row(const vt_conv_geometry *g, const float *input, size_t m, float *dst) {
    const size_t hw = (size_t)g->out_h * g->out_w;
    const size_t n = m / hw, r = m % hw;
    const int oy = (int)(r / g->out_w), ox = (int)(r % g->out_w);
    const size_t c = (size_t)g->in_c;
    const float *img = input + n * g->in_h * g->in_w * c;
    for (int ky = 0; ky < g->k_h; ky++) {
        const int iy = oy * g->stride_h - g->pad_top + ky * g->dil_h;
        if (iy < 0 || iy >= g->in_h) {
            memset(dst, 0, sizeof(float) * c * g->k_w);
            dst += c * g->k_w;
            continue;
        }
        for (int kx = 0; kx < g->k_w; kx++) {
            const int ix = ox * g->stride_w - g->pad_left + kx * g->dil_w;
            if (ix < 0 || ix >= g->in_w) memset(dst, 0, sizeof(float) * c);
            else memcpy(dst, img + ((size_t)iy * g->in_w + ix) * c, sizeof(float) * c);
            dst += c;
        }
    }
}

void vt_conv2d(const vt_conv_geometry *g, const float *input, const float *packed, float *output, float lo,
               float hi, float *scratch, size_t m_begin, size_t m_end, int isa) {
    const size_t k = conv_k(g), n = (size_t)g->out_c, mc_max = conv_mc(k);
    const size_t hw = (size_t)g->out_h * g->out_w;
    const int direct = conv_is_direct(g);
    const float *rows[VT_MC_MAX];
    for (size_t m0 = m_begin; m0 < m_end; m0 += mc_max) {
        const size_t mc = m_end - m0 < mc_max ? m_end - m0 : mc_max;
        for (size_t i = 0; i < mc; i++) {
            const size_t m = m0 + i;
            if (direct) {
                const size_t b = m / hw, r = m % hw;
                const size_t oy = r / g->out_w, ox = r % g->out_w;
                rows[i] = input + ((b * g->in_h + oy * g->stride_h) * g->in_w + ox * g->stride_w) * g->in_c;
            } else {
                im2col_row(g, input, m, scratch + i * k);
                rows[i] = scratch + i * k;
            }
        }
        gemm_tile(rows, mc, k, n, packed, output + m0 * n, n, lo, hi, isa);
    }
}

// ---------------------------------------------------------------- FULLY_CONNECTED

void vt_fc(int in_features, int out_features, const float *input, const float *packed, float *output, float lo,
           float hi, size_t row_begin, size_t row_end, int isa) {
    const size_t k = (size_t)in_features, n = (size_t)out_features;
    const float *rows[VT_MC_MAX];
    for (size_t m0 = row_begin; m0 < row_end; m0 += VT_MC_MAX) {
        const size_t mc = row_end - m0 < VT_MC_MAX ? row_end - m0 : VT_MC_MAX;
        for (size_t i = 0; i < mc; i++) rows[i] = input + (m0 + i) * k;
        gemm_tile(rows, mc, k, n, packed, output + m0 * n, n, lo, hi, isa);
    }
}
