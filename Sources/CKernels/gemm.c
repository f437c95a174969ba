// CONV_2D and FULLY_CONNECTED as one packed GEMM: C[M, O] = A[M, K] x B[K, O] + bias, clamped.
//
// B (the weights) is packed once into panels of VT_NR = 16 output columns: panel p holds
// K rows of 16 floats (columns p*16 ..< p*16+16, zero beyond O); when O leaves 8 or fewer
// columns for the last panel, that panel is 8 wide. The bias comes first, padded to a multiple of 16.
// A is given as row pointers, each row's K elements consecutive, or in runs a fixed distance
// apart (a vt_window shared by all rows): for a 1x1 convolution without padding a row is an input
// pixel (any stride); a window whose kernel rows are contiguous runs (kernel width x channels) is
// read in place, from its first input pixel, one run per kernel row (no copy): from the input, or,
// where padding puts some windows across its border, from a zero-padded copy of the rows a tile
// needs (a strip in the caller's scratch); other windows are gathered (im2col) there. A register-blocked
// micro-kernel computes MR rows x 16 columns (portable C, AVX2/AVX-512 on x86-64, NEON on AArch64).
#include "ckernels.h"
#include "internal.h"
#include <math.h>
#include <string.h>

/// Rows of A gathered or addressed per tile (multiple of every micro-kernel MR).
#define VT_MC_MAX 120
#define VT_MC_MIN 24

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

/// Width of the panel starting at column `col` of `n`: 16, or 8 for a last panel of <= 8 columns.
VT_INLINE size_t panel_width(size_t n, size_t col) { return n - col <= VT_NR / 2 ? VT_NR / 2 : VT_NR; }

/// Floats of packed weights: bias (padded to 16) and the panels.
static size_t packed_count(size_t k, size_t n) {
    const size_t npad = vt_round_up(n, VT_NR);
    size_t total = npad;
    for (size_t col = 0; col < n; col += VT_NR) total += k * panel_width(n, col);
    return total;
}

static void pack_panels(size_t k, size_t n, const float *w_nk, const float *bias, float *packed) {
    const size_t npad = vt_round_up(n, VT_NR);
    for (size_t j = 0; j < npad; j++) packed[j] = (bias && j < n) ? bias[j] : 0.0f;
    float *dst = packed + npad;
    for (size_t col0 = 0; col0 < n; col0 += VT_NR) {
        const size_t width = panel_width(n, col0);
        for (size_t kk = 0; kk < k; kk++) {
            for (size_t j = 0; j < width; j++) {
                const size_t col = col0 + j;
                *dst++ = col < n ? w_nk[col * k + kk] : 0.0f;
            }
        }
    }
}

static size_t conv_k(const vt_conv_geometry *g) { return (size_t)g->k_h * g->k_w * g->in_c; }

size_t vt_conv2d_packed_count(const vt_conv_geometry *g) { return packed_count(conv_k(g), (size_t)g->out_c); }

void vt_conv2d_pack(const vt_conv_geometry *g, const float *filter, const float *bias, float *packed) {
    pack_panels(conv_k(g), (size_t)g->out_c, filter, bias, packed);
}

size_t vt_fc_packed_count(int in_features, int out_features) {
    return packed_count((size_t)in_features, (size_t)out_features);
}

void vt_fc_pack(int in_features, int out_features, const float *weights, const float *bias, float *packed) {
    pack_panels((size_t)in_features, (size_t)out_features, weights, bias, packed);
}

// ---------------------------------------------------------------- micro-kernels

/// What a micro-kernel does to each result before storing it: add the residual (when `res` is
/// set: row stride `res_ld`, only its first `res_cols` columns counted from the block's first,
/// zero beyond them), clamp to [lo, hi], then apply PReLU slopes (when `alpha` is set). Pointers
/// are offset to the block's first row and column. Passed by memory so the micro-kernel's
/// registers stay free for accumulators.
typedef struct vt_tail {
    float lo, hi;
    const float *res;
    const float *alpha;
    size_t res_ld;
    ptrdiff_t res_cols;
} vt_tail;

/// Where the elements of a row read in place lie: runs of `run` floats (a kernel row), each
/// starting `jump` floats after the previous one ends.
typedef struct vt_window {
    size_t run, jump;
} vt_window;

/// A walk through a row's elements read through a vt_window: the next one is at `at`, its run ends at `end`.
typedef struct run_cursor {
    size_t at, end;
} run_cursor;

/// Where the next element lies, then steps past it (to the next run at the end of one).
VT_INLINE size_t run_next(run_cursor *cur, const vt_window *w) {
    const size_t q = cur->at++;
    if (cur->at == cur->end) {
        cur->at += w->jump;
        cur->end = cur->at + w->run;
    }
    return q;
}

/// Dispatches a run-time row count 1...6 to VT_CASE(constant) (defined by the caller).
#define VT_SWITCH_MR(mr) \
    switch (mr) { VT_CASE(6) VT_CASE(5) VT_CASE(4) VT_CASE(3) VT_CASE(2) default: VT_CASE(1) }

/// One case of a micro-kernel's row dispatch: BODY(M rows, width, runs?, ...) with constant
/// arguments, the width WIDE for a 16-column panel (nr == VT_NR), NARROW for an 8-column one.
#define VT_UKERNEL_CASE(M, BODY, WIDE, NARROW)                                       \
    case M:                                                                          \
        if (nr == VT_NR && runs) BODY(M, WIDE, 1, a, k, runs, b, bias, c, ldc, nc, t);   \
        else if (nr == VT_NR) BODY(M, WIDE, 0, a, k, runs, b, bias, c, ldc, nc, t);      \
        else if (runs) BODY(M, NARROW, 1, a, k, runs, b, bias, c, ldc, nc, t);          \
        else BODY(M, NARROW, 0, a, k, runs, b, bias, c, ldc, nc, t);                    \
        break;

/// Portable micro-kernel body: MR rows x NR (8 or 16) columns, plain C the compiler vectorises. With
/// RUNS, each row's elements lie in the runs of `runs` (else consecutive).
VT_INLINE void ukernel_portable_body(const int MR, const int NR, const int RUNS, const float *const *a, size_t k,
                                     const vt_window *runs, const float *b, const float *bias, float *c, size_t ldc,
                                     int nc, const vt_tail *t) {
    float acc[6][VT_NR];
    for (int r = 0; r < MR; r++)
        for (int j = 0; j < NR; j++) acc[r][j] = bias[j];
    run_cursor cur = {0, RUNS ? runs->run : 0};
    for (size_t p = 0; p < k; p++) {
        const float *bp = b + p * NR;
        const size_t q = RUNS ? run_next(&cur, runs) : p;
        for (int r = 0; r < MR; r++) {
            const float av = a[r][q];
            for (int j = 0; j < NR; j++) acc[r][j] += av * bp[j];
        }
    }
    for (int r = 0; r < MR; r++) {
        for (int j = 0; j < nc; j++) {
            float v = acc[r][j] + (t->res && j < t->res_cols ? t->res[r * t->res_ld + j] : 0.0f);
            v = vt_clampf(v, t->lo, t->hi);
            c[r * ldc + j] = (t->alpha && v < 0.0f) ? t->alpha[j] * v : v;
        }
    }
}

/// Rows per portable micro-kernel call: 2 x 16 accumulators fit SSE2's 16 registers (measured
/// fastest of 2, 3, 4 on x86-64); CPUs with 32 vector registers (AArch64) take 4.
#if VT_X86
#define VT_MR_PORTABLE 2
#else
#define VT_MR_PORTABLE 4
#endif
static void ukernel_portable(int mr, int nr, const float *const *a, size_t k, const vt_window *runs, const float *b,
                             const float *bias, float *c, size_t ldc, int nc, const vt_tail *t) {
#define VT_CASE(M) VT_UKERNEL_CASE(M, ukernel_portable_body, VT_NR, VT_NR / 2)
    VT_SWITCH_MR(mr)
#undef VT_CASE
}

#if VT_X86
#define VT_MR_AVX2 6

/// Rows of the AVX2 kernel on an 8-wide panel: 12 accumulators, as many as the 6x16 block's, so that the FMA
/// units stay busy (6 chains of 4-cycle FMAs keep two units busy 3 cycles in 4).
#define VT_MR_AVX2_NARROW 12

/// The end of every AVX2 micro-kernel's epilogue: the clamp to [vlo, vhi] (a NaN stays NaN), then PReLU by `slope` when
/// `prelu`.
VT_INLINE VT_AVX2_FN __m256 clamp_prelu_avx2(__m256 x, __m256 vlo, __m256 vhi, int prelu, __m256 slope) {
    x = _mm256_min_ps(vhi, _mm256_max_ps(vlo, x));
    return prelu ? _mm256_blendv_ps(x, _mm256_mul_ps(x, slope), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ)) : x;
}

/// AVX2/FMA micro-kernel body: MR rows x NV (1 or 2) vectors of 8 columns, MR*NV (<= 12) accumulators;
/// RUNS as in the portable body.
VT_INLINE VT_AVX2_FN void ukernel_avx2_body(const int MR, const int NV, const int RUNS, const float *const *a,
                                            size_t k, const vt_window *runs, const float *b, const float *bias, float *c,
                                            size_t ldc, int nc, const vt_tail *t) {
    __m256 acc[VT_MR_AVX2_NARROW][2];
    const float *ap[VT_MR_AVX2_NARROW];
    for (int r = 0; r < MR; r++) {
        for (int v = 0; v < NV; v++) acc[r][v] = _mm256_loadu_ps(bias + 8 * v);
        ap[r] = a[r];
    }
    run_cursor cur = {0, RUNS ? runs->run : 0};
    for (size_t p = 0; p < k; p++) {
        __m256 bv[2];
        for (int v = 0; v < NV; v++) bv[v] = _mm256_loadu_ps(b + 8 * v);
        b += 8 * NV;
        const size_t q = RUNS ? run_next(&cur, runs) : p;
        for (int r = 0; r < MR; r++) {
            const __m256 av = _mm256_broadcast_ss(ap[r] + q);
            for (int v = 0; v < NV; v++) acc[r][v] = _mm256_fmadd_ps(av, bv[v], acc[r][v]);
        }
    }
    const __m256 vlo = _mm256_broadcast_ss(&t->lo), vhi = _mm256_broadcast_ss(&t->hi);
    const __m256 zero = _mm256_setzero_ps();
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int v = 0; v < NV; v++) {
        const int cols = nc - 8 * v >= 8 ? 8 : nc - 8 * v;
        if (cols <= 0) break;
        const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(cols), idx);
        const __m256 slope = t->alpha ? _mm256_maskload_ps(t->alpha + 8 * v, m) : zero;
        const ptrdiff_t rc = t->res_cols - 8 * v;
        const __m256i mres = _mm256_cmpgt_epi32(_mm256_set1_epi32(rc < cols ? (rc > 0 ? (int)rc : 0) : cols), idx);
        const float *res = t->res && rc > 0 ? t->res + 8 * v : t->res;
        for (int r = 0; r < MR; r++) {
            __m256 x = acc[r][v];
            if (t->res) x = _mm256_add_ps(x, _mm256_maskload_ps(res + r * t->res_ld, mres));
            x = clamp_prelu_avx2(x, vlo, vhi, t->alpha != NULL, slope);
            if (cols == 8) _mm256_storeu_ps(c + r * ldc + 8 * v, x);
            else _mm256_maskstore_ps(c + r * ldc + 8 * v, m, x);
        }
    }
}

/// The AVX2 kernel's commonest block alone: 6 rows x 16 columns, rows read in place, clamp only (no residual, no
/// PReLU), every column stored. `ukernel_avx2_body` with those constants folds away the per-block dispatch and the
/// epilogue's tests, which a small k does not amortise.
static VT_AVX2_FN void ukernel_avx2_6x16_clamp(const float *const *a, size_t k, const float *b, const float *bias,
                                               float *c, size_t ldc, float lo, float hi) {
    const vt_tail clamp_only = {lo, hi, NULL, NULL, 0, 0};
    ukernel_avx2_body(VT_MR_AVX2, 2, 0, a, k, NULL, b, bias, c, ldc, VT_NR, &clamp_only);
}

/// A whole 6x16 block (every column stored) with the epilogue's tests folded: a residual covering the panel (`res`, the
/// block's first, rows `res_ld` apart) or none (NULL), the clamp, PReLU with the block's slopes `alpha` or none (NULL).
/// For the blocks the plain kernel above does not take: the stems' windowed 3x3 and 5x5 convolutions over 3 channels
/// (reduction 27 or 75: 3x3/2 3->16 at 128x128 0.293 -> 0.242 ms against the general epilogue), and the face and palm
/// models' fused ADD and PReLU (face_landmarks_detector 4.33 -> 3.78 ms).
VT_INLINE VT_AVX2_FN void ukernel_avx2_6x16_whole_body(const int RUNS, const float *const *a, size_t k,
                                                       const vt_window *runs, const float *b, const float *bias,
                                                       float *c, size_t ldc, float lo, float hi, const float *res,
                                                       size_t res_ld, const float *alpha) {
    const vt_tail whole = {lo, hi, res, alpha, res_ld, VT_NR};
    ukernel_avx2_body(VT_MR_AVX2, 2, RUNS, a, k, runs, b, bias, c, ldc, VT_NR, &whole);
}

static VT_AVX2_FN void ukernel_avx2_6x16_whole(const float *const *a, size_t k, const float *b, const float *bias,
                                               float *c, size_t ldc, float lo, float hi, const float *res,
                                               size_t res_ld, const float *alpha) {
    ukernel_avx2_6x16_whole_body(0, a, k, NULL, b, bias, c, ldc, lo, hi, res, res_ld, alpha);
}

static VT_AVX2_FN void ukernel_avx2_6x16_whole_runs(const float *const *a, size_t k, const vt_window *runs,
                                                    const float *b, const float *bias, float *c, size_t ldc, float lo,
                                                    float hi, const float *res, size_t res_ld, const float *alpha) {
    ukernel_avx2_6x16_whole_body(1, a, k, runs, b, bias, c, ldc, lo, hi, res, res_ld, alpha);
}

/// A whole 6x8 block of windowed rows with no residual, PReLU by `alpha` or none (NULL), its tests folded as above.
static VT_AVX2_FN void ukernel_avx2_6x8_runs(const float *const *a, size_t k, const vt_window *runs, const float *b,
                                             const float *bias, float *c, size_t ldc, float lo, float hi,
                                             const float *alpha) {
    const vt_tail no_residual = {lo, hi, NULL, alpha, 0, 0};
    ukernel_avx2_body(VT_MR_AVX2, 1, 1, a, k, runs, b, bias, c, ldc, VT_NR / 2, &no_residual);
}

/// Twelve rows of an 8-wide panel, each row's elements consecutive (any tail).
static VT_AVX2_FN void ukernel_avx2_12x8(const float *const *a, size_t k, const float *b, const float *bias, float *c,
                                         size_t ldc, int nc, const vt_tail *t) {
    ukernel_avx2_body(VT_MR_AVX2_NARROW, 1, 0, a, k, NULL, b, bias, c, ldc, nc, t);
}

/// Panels the one- or two-row kernel computes together.
#define VT_WIDE_PANELS_1 4
#define VT_WIDE_PANELS_2 2

/// MR (1 or 2) rows x P whole 16-wide panels (`b` the first, the others k * 16 floats apart), MR * P * 2 <= 8
/// accumulators, each output's sum in the same order as `ukernel_avx2_body`'s (so the same bits), its residual covering
/// the panels when set. A single row (a FULLY_CONNECTED call, or a convolution to a 1x1 map: face_landmarks_detector's
/// 2x2x128 -> 1434) left `ukernel_avx2_body` two accumulators, each FMA waiting on the last: 4 cycles a step.
VT_INLINE VT_AVX2_FN void ukernel_avx2_wide_body(const int MR, const int P, const int RUNS, const float *const *a,
                                                 size_t k, const vt_window *runs, const float *b, const float *bias,
                                                 float *c, size_t ldc, const vt_tail *t) {
    __m256 acc[2][2 * VT_WIDE_PANELS_1];
    const float *ap[2];
    for (int r = 0; r < MR; r++) {
        for (int v = 0; v < 2 * P; v++) acc[r][v] = _mm256_loadu_ps(bias + 8 * v);
        ap[r] = a[r];
    }
    run_cursor cur = {0, RUNS ? runs->run : 0};
    for (size_t p = 0; p < k; p++) {
        const size_t q = RUNS ? run_next(&cur, runs) : p;
        for (int r = 0; r < MR; r++) {
            const __m256 av = _mm256_broadcast_ss(ap[r] + q);
            for (int v = 0; v < 2 * P; v++)
                acc[r][v] = _mm256_fmadd_ps(av, _mm256_loadu_ps(b + (size_t)(v / 2) * k * VT_NR + p * VT_NR + 8 * (v % 2)),
                                            acc[r][v]);
        }
    }
    const __m256 vlo = _mm256_broadcast_ss(&t->lo), vhi = _mm256_broadcast_ss(&t->hi);
    for (int r = 0; r < MR; r++)
        for (int v = 0; v < 2 * P; v++) {
            __m256 x = acc[r][v];
            if (t->res) x = _mm256_add_ps(x, _mm256_loadu_ps(t->res + r * t->res_ld + 8 * v));
            x = clamp_prelu_avx2(x, vlo, vhi, t->alpha != NULL, t->alpha ? _mm256_loadu_ps(t->alpha + 8 * v) : vlo);
            _mm256_storeu_ps(c + r * ldc + 8 * v, x);
        }
}

static VT_AVX2_FN void ukernel_avx2(int mr, int nr, const float *const *a, size_t k, const vt_window *runs,
                                    const float *b, const float *bias, float *c, size_t ldc, int nc, const vt_tail *t) {
#define VT_CASE(M) VT_UKERNEL_CASE(M, ukernel_avx2_body, 2, 1)
    VT_SWITCH_MR(mr)
#undef VT_CASE
}

/// Longest reduction the single-column kernel takes (its weights are copied to the stack, 16 KB).
#define VT_COLUMN_K_MAX 4096
/// Rows the single-column kernel computes together (independent sums, so that FMAs overlap).
#define VT_COLUMN_ROWS 4

/// The sum over the `k` elements of row `a` (consecutive, or in the runs of `runs`) times `w`, eight at a time into
/// the lanes of an accumulator, into acc[r] for each of R rows at once.
VT_INLINE VT_AVX2_FN void column_sums_avx2(const int R, const float *const *a, size_t k, const vt_window *runs,
                                           const float *w, __m256 *acc) {
    const size_t run = runs ? runs->run : k, step = runs ? runs->run + runs->jump : 0;
    const __m256i tail = vt_lane_mask((int)(run % 8));
    for (int r = 0; r < R; r++) acc[r] = _mm256_setzero_ps();
    for (size_t first = 0, offset = 0; first < k; first += run, offset += step) {
        size_t j = 0;
        for (; j + 8 <= run; j += 8) {
            const __m256 wv = _mm256_loadu_ps(w + first + j);
            for (int r = 0; r < R; r++) acc[r] = _mm256_fmadd_ps(_mm256_loadu_ps(a[r] + offset + j), wv, acc[r]);
        }
        if (j < run) {
            const __m256 wv = _mm256_maskload_ps(w + first + j, tail);
            for (int r = 0; r < R; r++)
                acc[r] = _mm256_fmadd_ps(_mm256_maskload_ps(a[r] + offset + j, tail), wv, acc[r]);
        }
    }
}

/// Rows a[0 ..< mc] against a single output column (n = 1: pose_landmarks_detector's mask head, 3x3x8 -> 1 at
/// 256x256): each row's dot product with the weights eight elements at a time, then its lanes summed, the bias, the
/// residual, the clamp (a NaN stays NaN) and PReLU. The 8-wide panel would compute seven columns of padding and
/// store through masks: that head took 2.6 ms of the model's 20.
static VT_AVX2_FN void single_column_avx2(const float *const *a, size_t mc, size_t k, const vt_window *runs,
                                          const float *packed, float *c, size_t ldc, const vt_tail *t) {
    float w[VT_COLUMN_K_MAX];
    const float *panel = packed + VT_NR; // the bias padded to 16, then one 8-wide panel: column 0 every 8 floats
    for (size_t p = 0; p < k; p++) w[p] = panel[p * (VT_NR / 2)];
    for (size_t i = 0; i < mc; i += VT_COLUMN_ROWS) {
        __m256 acc[VT_COLUMN_ROWS];
        const size_t rows = mc - i < VT_COLUMN_ROWS ? mc - i : VT_COLUMN_ROWS;
        if (rows == VT_COLUMN_ROWS) column_sums_avx2(VT_COLUMN_ROWS, a + i, k, runs, w, acc);
        else
            for (size_t r = 0; r < rows; r++) column_sums_avx2(1, a + i + r, k, runs, w, acc + r);
        for (size_t r = 0; r < rows; r++) {
            const __m128 half = _mm_add_ps(_mm256_castps256_ps128(acc[r]), _mm256_extractf128_ps(acc[r], 1));
            const __m128 pair = _mm_add_ps(half, _mm_movehl_ps(half, half));
            float x = _mm_cvtss_f32(_mm_add_ss(pair, _mm_movehdup_ps(pair))) + packed[0];
            if (t->res && t->res_cols > 0) x += t->res[(i + r) * t->res_ld];
            x = t->lo > x ? t->lo : x;
            x = t->hi < x ? t->hi : x;
            if (t->alpha && x < 0) x *= t->alpha[0];
            c[(i + r) * ldc] = x;
        }
    }
}
#endif

/// The tail of the block whose first result is at row `row`, column `col`. Past the residual's
/// columns its pointer stays at the row start (never read: the micro-kernels mask it out).
VT_INLINE vt_tail tail_at(const vt_tail *tail, size_t row, size_t col) {
    vt_tail t = *tail;
    if (t.res) {
        t.res += row * t.res_ld + (t.res_cols > (ptrdiff_t)col ? col : 0);
        t.res_cols -= (ptrdiff_t)col;
    }
    if (t.alpha) t.alpha += col;
    return t;
}

#if VT_X86
/// One or two rows against whole panels from `col` while VT_WIDE_PANELS_1 (one row) or VT_WIDE_PANELS_2 (two) of them
/// remain and a residual, if any, covers them; returns the column it stopped at (`b` the panel at `col`).
static VT_AVX2_FN size_t few_rows_avx2(const float *const *a, size_t mc, size_t k, const vt_window *runs,
                                       const float *b, const float *packed, size_t n, size_t col, size_t col1,
                                       float *c, size_t ldc, const vt_tail *tail) {
    const size_t width = (mc == 1 ? VT_WIDE_PANELS_1 : VT_WIDE_PANELS_2) * VT_NR;
    for (; col + width <= (col1 < n ? col1 : n) && (!tail->res || tail->res_cols >= (ptrdiff_t)(col + width));
         col += width, b += k * width) {
        const vt_tail t = tail_at(tail, 0, col);
        if (mc == 1 && runs) ukernel_avx2_wide_body(1, VT_WIDE_PANELS_1, 1, a, k, runs, b, packed + col, c + col, ldc, &t);
        else if (mc == 1) ukernel_avx2_wide_body(1, VT_WIDE_PANELS_1, 0, a, k, NULL, b, packed + col, c + col, ldc, &t);
        else if (runs) ukernel_avx2_wide_body(2, VT_WIDE_PANELS_2, 1, a, k, runs, b, packed + col, c + col, ldc, &t);
        else ukernel_avx2_wide_body(2, VT_WIDE_PANELS_2, 0, a, k, NULL, b, packed + col, c + col, ldc, &t);
    }
    return col;
}

/// Rows a[0 ..< mc] of the 8-wide panel at column `col` on AVX2 (b its weights, c its first result): twelve rows at
/// a time when the rows are consecutive, then six. (Rows read through `runs` stay at six: the window's cursor beside
/// twelve row pointers spills registers, and the 5x5 stem 3->24 at 128x128 took 0.28 ms against 0.21.)
static VT_AVX2_FN void narrow_panel_avx2(const float *const *a, size_t mc, size_t k, const vt_window *runs,
                                         const float *b, const float *bias, float *c, size_t ldc, int nc,
                                         const vt_tail *tail, size_t col) {
    size_t i = 0;
    if (!runs)
        for (; i + VT_MR_AVX2_NARROW <= mc; i += VT_MR_AVX2_NARROW) {
            const vt_tail t = tail_at(tail, i, col);
            ukernel_avx2_12x8(a + i, k, b, bias, c + i * ldc, ldc, nc, &t);
        }
    else if (nc == VT_NR / 2 && !tail->res)
        for (; i + VT_MR_AVX2 <= mc; i += VT_MR_AVX2)
            ukernel_avx2_6x8_runs(a + i, k, runs, b, bias, c + i * ldc, ldc, tail->lo, tail->hi,
                                  tail->alpha ? tail->alpha + col : NULL);
    for (; i < mc; i += VT_MR_AVX2) {
        const size_t rows = mc - i < VT_MR_AVX2 ? mc - i : VT_MR_AVX2;
        const vt_tail t = tail_at(tail, i, col);
        ukernel_avx2((int)rows, VT_NR / 2, a + i, k, runs, b, bias, c + i * ldc, ldc, nc, &t);
    }
}

#define VT_MR_AVX512 8

/// AVX-512 micro-kernel body: MR (<= 8) rows x NP (1 or 2) panels of 16 columns (b0, b1), MR*NP
/// accumulators; nc (<= 16*NP) columns are stored, with masked stores for a partial panel. RUNS as in
/// the portable body.
VT_INLINE VT_AVX512_FN void ukernel_avx512_body(const int MR, const int NP, const int RUNS, const float *const *a,
                                                size_t k, const vt_window *runs, const float *b0, const float *b1,
                                                const float *bias, float *c, size_t ldc, int nc, const vt_tail *t) {
    __m512 acc[VT_MR_AVX512][2];
    const float *ap[VT_MR_AVX512];
    for (int r = 0; r < MR; r++) {
        for (int v = 0; v < NP; v++) acc[r][v] = _mm512_loadu_ps(bias + 16 * v);
        ap[r] = a[r];
    }
    run_cursor cur = {0, RUNS ? runs->run : 0};
    for (size_t p = 0; p < k; p++) {
        const __m512 bv0 = _mm512_loadu_ps(b0 + p * VT_NR);
        const __m512 bv1 = NP > 1 ? _mm512_loadu_ps(b1 + p * VT_NR) : bv0;
        const size_t q = RUNS ? run_next(&cur, runs) : p;
        for (int r = 0; r < MR; r++) {
            const __m512 av = _mm512_set1_ps(ap[r][q]);
            acc[r][0] = _mm512_fmadd_ps(av, bv0, acc[r][0]);
            if (NP > 1) acc[r][1] = _mm512_fmadd_ps(av, bv1, acc[r][1]);
        }
    }
    const __m512 vlo = _mm512_set1_ps(t->lo), vhi = _mm512_set1_ps(t->hi), zero = _mm512_setzero_ps();
    VT_UNROLL for (int v = 0; v < NP; v++) {
        const int cols = nc - 16 * v >= 16 ? 16 : nc - 16 * v;
        const __mmask16 mask = vt_mask16(cols);
        const __m512 slope = t->alpha ? _mm512_maskz_loadu_ps(mask, t->alpha + 16 * v) : zero;
        const ptrdiff_t rc = t->res_cols - 16 * v;
        const __mmask16 mres = rc >= cols ? mask : vt_mask16(rc);
        const float *res = t->res && rc > 0 ? t->res + 16 * v : t->res;
        for (int r = 0; r < MR; r++) {
            __m512 x = acc[r][v];
            if (t->res) x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(mres, res + r * t->res_ld));
            x = _mm512_min_ps(vhi, _mm512_max_ps(vlo, x));
            if (t->alpha) x = _mm512_mask_mul_ps(x, _mm512_cmp_ps_mask(x, zero, _CMP_LT_OQ), x, slope);
            _mm512_mask_storeu_ps(c + r * ldc + 16 * v, mask, x);
        }
    }
}

static VT_AVX512_FN void ukernel_avx512(int mr, int np, const float *const *a, size_t k, const vt_window *runs,
                                        const float *b0, const float *b1, const float *bias, float *c, size_t ldc,
                                        int nc, const vt_tail *t) {
#define VT_CASE(M)                                                                                   \
    case M:                                                                                          \
        if (np == 2 && runs) ukernel_avx512_body(M, 2, 1, a, k, runs, b0, b1, bias, c, ldc, nc, t);   \
        else if (np == 2) ukernel_avx512_body(M, 2, 0, a, k, runs, b0, b1, bias, c, ldc, nc, t);     \
        else if (runs) ukernel_avx512_body(M, 1, 1, a, k, runs, b0, b1, bias, c, ldc, nc, t);         \
        else ukernel_avx512_body(M, 1, 0, a, k, runs, b0, b1, bias, c, ldc, nc, t);                  \
        break;
    switch (mr) { VT_CASE(8) VT_CASE(7) VT_CASE(6) VT_CASE(5) VT_CASE(4) VT_CASE(3) VT_CASE(2) default: VT_CASE(1) }
#undef VT_CASE
}

/// The AVX-512 tile: pairs of full 16-column panels (8x32 blocks), then a single 16-column panel
/// (8x16), then an 8-wide last panel through the AVX2 kernel.
static void gemm_tile_avx512(const float *const *a, size_t mc, size_t k, const vt_window *runs, size_t n, size_t col0,
                             size_t col1, const float *packed, float *c, size_t ldc, const vt_tail *tail) {
    const float *bp = packed + vt_round_up(n, VT_NR) + k * col0; // panels before col0 are all 16 wide
    for (size_t col = col0; col < col1;) {
        const size_t nr = panel_width(n, col);
        const int np = (nr == VT_NR && col + VT_NR < col1 && panel_width(n, col + VT_NR) == VT_NR) ? 2 : 1;
        const size_t width = np * nr, nc = n - col < width ? n - col : width;
        if (nr == VT_NR)
            for (size_t i = 0; i < mc; i += VT_MR_AVX512) {
                const size_t rows = mc - i < VT_MR_AVX512 ? mc - i : VT_MR_AVX512;
                const vt_tail t = tail_at(tail, i, col);
                ukernel_avx512((int)rows, np, a + i, k, runs, bp, bp + k * VT_NR, packed + col, c + i * ldc + col,
                               ldc, (int)nc, &t);
            }
        else
            narrow_panel_avx2(a, mc, k, runs, bp, packed + col, c + col, ldc, (int)nc, tail, col);
        bp += k * width;
        col += width;
    }
}

#endif

#if VT_ARM64
#define VT_MR_NEON 6

/// NEON micro-kernel body: MR (<= 6) rows x NV (2 or 4) vectors of 4 columns. The 6x16 block keeps
/// 24 accumulators, 4 weight vectors and a broadcast of A in AArch64's 32 vector registers: per k
/// step 4 weight loads, MR broadcast loads (LD1R) and MR*NV FMLA. RUNS as in the portable body.
VT_INLINE void ukernel_neon_body(const int MR, const int NV, const int RUNS, const float *const *a, size_t k,
                                 const vt_window *runs, const float *b, const float *bias, float *c, size_t ldc,
                                 int nc, const vt_tail *t) {
    float32x4_t acc[VT_MR_NEON][4];
    const float *ap[VT_MR_NEON];
    for (int r = 0; r < MR; r++) {
        for (int v = 0; v < NV; v++) acc[r][v] = vld1q_f32(bias + 4 * v);
        ap[r] = a[r];
    }
    run_cursor cur = {0, RUNS ? runs->run : 0};
    const float *bp = b;
    for (size_t p = 0; p < k; p++, bp += 4 * NV) {
        float32x4_t bv[4];
        for (int v = 0; v < NV; v++) bv[v] = vld1q_f32(bp + 4 * v);
        const size_t q = RUNS ? run_next(&cur, runs) : p;
        for (int r = 0; r < MR; r++) {
            const float32x4_t av = vld1q_dup_f32(ap[r] + q);
            for (int v = 0; v < NV; v++) acc[r][v] = vfmaq_f32(acc[r][v], bv[v], av);
        }
    }
    // The tail of the portable body: whole vectors where the columns and the residual's columns
    // allow, the same scalar steps for the last few.
    const float32x4_t vlo = vdupq_n_f32(t->lo), vhi = vdupq_n_f32(t->hi), zero = vdupq_n_f32(0.0f);
    for (int v = 0; v < NV && 4 * v < nc; v++) {
        const int col = 4 * v;
        const int whole = nc - col >= 4 && (!t->res || t->res_cols - col >= 4);
        for (int r = 0; r < MR; r++) {
            float *dst = c + r * ldc + col;
            if (whole) {
                float32x4_t x = acc[r][v];
                if (t->res) x = vaddq_f32(x, vld1q_f32(t->res + r * t->res_ld + col));
                x = vt_clamp_neon(x, vlo, vhi);
                if (t->alpha) x = vbslq_f32(vcltq_f32(x, zero), vmulq_f32(x, vld1q_f32(t->alpha + col)), x);
                vst1q_f32(dst, x);
                continue;
            }
            float lane[4];
            vst1q_f32(lane, acc[r][v]);
            for (int j = 0; j < 4 && col + j < nc; j++) {
                float x = lane[j] + (t->res && col + j < t->res_cols ? t->res[r * t->res_ld + col + j] : 0.0f);
                x = vt_clampf(x, t->lo, t->hi);
                dst[j] = (t->alpha && x < 0.0f) ? t->alpha[col + j] * x : x;
            }
        }
    }
}

static void ukernel_neon(int mr, int nr, const float *const *a, size_t k, const vt_window *runs, const float *b,
                         const float *bias, float *c, size_t ldc, int nc, const vt_tail *t) {
#define VT_CASE(M) VT_UKERNEL_CASE(M, ukernel_neon_body, 4, 2)
    VT_SWITCH_MR(mr)
#undef VT_CASE
}
#endif

typedef void (*ukernel_fn)(int, int, const float *const *, size_t, const vt_window *, const float *, const float *,
                           float *, size_t, int, const vt_tail *);

/// Computes rows a[0 ..< mc] (elements consecutive, or in the runs of `runs` when it is set)
/// against the panels of columns [col0, col1) (multiples of 16, col1 may be n) into c (row stride
/// ldc) of n columns.
static void gemm_tile(const float *const *a, size_t mc, size_t k, const vt_window *runs, size_t n, size_t col0,
                      size_t col1, const float *packed, float *c, size_t ldc, const vt_tail *tail, int isa) {
    ukernel_fn uk = ukernel_portable;
    size_t mr = VT_MR_PORTABLE;
#if VT_X86
    if (n == 1 && k <= VT_COLUMN_K_MAX && (isa == VT_ISA_AVX2 || isa == VT_ISA_AVX512)) {
        single_column_avx2(a, mc, k, runs, packed, c, ldc, tail);
        return;
    }
    if (isa == VT_ISA_AVX512) {
        gemm_tile_avx512(a, mc, k, runs, n, col0, col1, packed, c, ldc, tail);
        return;
    }
    if (isa == VT_ISA_AVX2) {
        uk = ukernel_avx2;
        mr = VT_MR_AVX2;
    }
#elif VT_ARM64
    if (isa == VT_ISA_NEON) {
        uk = ukernel_neon;
        mr = VT_MR_NEON;
    }
#else
    (void)isa;
#endif
    const float *bp = packed + vt_round_up(n, VT_NR) + k * col0; // panels before col0 are all 16 wide
    size_t first = col0;
#if VT_X86
    if (uk == ukernel_avx2 && mc <= 2) {
        first = few_rows_avx2(a, mc, k, runs, bp, packed, n, col0, col1, c, ldc, tail);
        bp += k * (first - col0);
    }
#endif
    for (size_t col = first; col < col1; col += VT_NR) {
        const int nr = (int)panel_width(n, col);
        const int nc = (int)(n - col < (size_t)nr ? n - col : (size_t)nr);
        size_t i = 0;
#if VT_X86
        // Whole 6x16 blocks with no residual, or one that covers the panel, take a kernel with the epilogue's tests
        // folded; an 8-wide panel, twelve rows at a time.
        if (uk == ukernel_avx2 && nc == VT_NR && (!tail->res || tail->res_cols >= (ptrdiff_t)(col + VT_NR))) {
            const float *alpha = tail->alpha ? tail->alpha + col : NULL, *bias = packed + col;
            for (; i + VT_MR_AVX2 <= mc; i += VT_MR_AVX2) {
                float *ci = c + i * ldc + col;
                const float *res = tail->res ? tail->res + i * tail->res_ld + col : NULL;
                if (runs)
                    ukernel_avx2_6x16_whole_runs(a + i, k, runs, bp, bias, ci, ldc, tail->lo, tail->hi, res,
                                                 tail->res_ld, alpha);
                else if (res || alpha)
                    ukernel_avx2_6x16_whole(a + i, k, bp, bias, ci, ldc, tail->lo, tail->hi, res, tail->res_ld, alpha);
                else
                    ukernel_avx2_6x16_clamp(a + i, k, bp, bias, ci, ldc, tail->lo, tail->hi);
            }
        }
        if (uk == ukernel_avx2 && nr == VT_NR / 2) {
            narrow_panel_avx2(a, mc, k, runs, bp, packed + col, c + col, ldc, nc, tail, col);
            i = mc;
        }
#endif
        for (; i < mc; i += mr) {
            const size_t rows = mc - i < mr ? mc - i : mr;
            const vt_tail t = tail_at(tail, i, col);
            uk((int)rows, nr, a + i, k, runs, bp, packed + col, c + i * ldc + col, ldc, nc, &t);
        }
        bp += k * nr;
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

/// 1 when windows inside the input are read in place: each kernel row is one contiguous run of the
/// input (kernel width x channels), and a window fits the input.
static int conv_is_windowed(const vt_conv_geometry *g) {
    return !conv_is_direct(g) && g->dil_w == 1 && g->k_w <= g->in_w && (int64_t)(g->k_h - 1) * g->dil_h < g->in_h;
}

/// How a window read in place runs through rows of `row_width` pixels (the input's, or a strip's;
/// conv_is_windowed geometries): a kernel row, then the next one dil_h rows below, in the order of the
/// packed weights.
static vt_window conv_window(const vt_conv_geometry *g, size_t row_width) {
    const size_t run = (size_t)g->k_w * g->in_c;
    const vt_window w = {run, (size_t)g->dil_h * row_width * g->in_c - run};
    return w;
}

/// Columns of a zero-padded strip: padded column x holds input column x - pad_left, up to the last
/// window's last column.
static size_t strip_width(const vt_conv_geometry *g) {
    return (size_t)(g->out_w - 1) * g->stride_w + (size_t)(g->k_w - 1) * g->dil_w + 1;
}

/// Rows of a strip for `span` consecutive output rows.
static size_t strip_rows(const vt_conv_geometry *g, size_t span) {
    return (span - 1) * g->stride_h + (size_t)(g->k_h - 1) * g->dil_h + 1;
}

/// Floats of the largest strip a tile of `mc` consecutive output pixels (within one image) needs, in double: a
/// hostile geometry's count may not fit size_t (each of its sizes is below 2^31).
static double strip_count_for(const vt_conv_geometry *g, size_t mc) {
    const double ow = g->out_w;
    double span = floor(((double)mc + ow - 2) / ow) + 1;
    if (span > g->out_h) span = g->out_h;
    return (double)strip_rows(g, (size_t)span) * (double)strip_width(g) * g->in_c;
}

/// Largest strip in floats (1 MB): a geometry needing more gathers its border windows instead.
#define VT_STRIP_MAX 262144
/// Output pixels of a tile read from a strip when its strip fits VT_STRIP_MAX (a multiple of every MR), else
/// VT_MC_MAX.
#define VT_MC_STRIP 384

/// Pixels of a tile read from a strip. Nothing is gathered, so tiles are larger than conv_mc(k): each input row is
/// copied fewer times (3x3 32->32 at 56x56 0.660 -> 0.635 ms with VT_MC_MAX pixels against conv_mc(k), then 0.637 ->
/// 0.609 with VT_MC_STRIP, tiles stopping at row ends and the windows' pointers set a row at a time; the 3x3/2 3->16
/// stem at 256x256 0.253 -> 0.197).
static size_t strip_mc(const vt_conv_geometry *g) {
    return strip_count_for(g, VT_MC_STRIP) <= VT_STRIP_MAX ? VT_MC_STRIP : VT_MC_MAX;
}

/// Floats of the largest strip a tile needs.
static double strip_count(const vt_conv_geometry *g) { return strip_count_for(g, strip_mc(g)); }

/// 1 when a windowed geometry's border windows leave the input (padding), and the tiles read every
/// window in place from a zero-padded copy of the input rows they need (a strip, in the caller's
/// scratch) instead: no window is gathered, and the micro-kernel's row blocks are not cut where the
/// in-place windows stop.
static int conv_uses_strip(const vt_conv_geometry *g) {
    // A single output channel computes little per window: copying rows into strips would cost more than it (3x3x8 -> 1
    // at 256x256: 1.25 ms with strips, of which 44% the copies), and cut row blocks cost the single-column kernel little.
    if (!conv_is_windowed(g) || g->out_c == 1) return 0;
    const int64_t bottom = (int64_t)(g->out_h - 1) * g->stride_h - g->pad_top + (int64_t)(g->k_h - 1) * g->dil_h;
    const int64_t right = (int64_t)(g->out_w - 1) * g->stride_w - g->pad_left + (int64_t)(g->k_w - 1) * g->dil_w;
    if (g->pad_top == 0 && g->pad_left == 0 && bottom < g->in_h && right < g->in_w) return 0;
    return strip_count(g) <= VT_STRIP_MAX;
}

size_t vt_conv2d_scratch_count(const vt_conv_geometry *g) {
    if (conv_is_direct(g)) return 0;
    if (conv_uses_strip(g)) return (size_t)strip_count(g);
    const size_t k = conv_k(g);
    return conv_mc(k) * k;
}

/// An output pixel position, advanced one pixel at a time (no divisions per row).
typedef struct pixel_pos { size_t b; int oy, ox; } pixel_pos;

static pixel_pos pixel_at(const vt_conv_geometry *g, size_t m) {
    const size_t hw = (size_t)g->out_h * g->out_w, r = m % hw;
    pixel_pos p = {m / hw, (int)(r / g->out_w), (int)(r % g->out_w)};
    return p;
}

/// Moves `p`, one past its row's last pixel, to the next row's first.
VT_INLINE void pixel_next_row(const vt_conv_geometry *g, pixel_pos *p) {
    p->ox = 0;
    if (++p->oy == g->out_h) {
        p->oy = 0;
        p->b++;
    }
}

VT_INLINE void pixel_next(const vt_conv_geometry *g, pixel_pos *p) {
    if (++p->ox == g->out_w) pixel_next_row(g, p);
}

VT_INLINE void copy_plain(float *dst, const float *src, size_t n) { memcpy(dst, src, sizeof(float) * n); }

/// Gathers the receptive field of output pixel `p` into dst[k] (zero outside the input), moving
/// each contiguous run with `copy`.
VT_INLINE void im2col_row_body(const vt_conv_geometry *g, const float *input, pixel_pos p, float *dst,
                               void (*copy)(float *, const float *, size_t)) {
    const size_t c = (size_t)g->in_c, run = c * g->k_w;
    const float *img = input + p.b * g->in_h * g->in_w * c;
    const int ix0 = p.ox * g->stride_w - g->pad_left;
    const int full_row = g->dil_w == 1 && ix0 >= 0 && ix0 + g->k_w <= g->in_w;
    for (int ky = 0; ky < g->k_h; ky++, dst += run) {
        const int iy = p.oy * g->stride_h - g->pad_top + ky * g->dil_h;
        if (iy < 0 || iy >= g->in_h) {
            memset(dst, 0, sizeof(float) * run);
            continue;
        }
        const float *src = img + (size_t)iy * g->in_w * c;
        if (full_row) {
            copy(dst, src + (size_t)ix0 * c, run);
            continue;
        }
        for (int kx = 0; kx < g->k_w; kx++) {
            const int ix = ix0 + kx * g->dil_w;
            if (ix < 0 || ix >= g->in_w) memset(dst + kx * c, 0, sizeof(float) * c);
            else copy(dst + kx * c, src + (size_t)ix * c, c);
        }
    }
}

/// The first input pixel of output pixel `p`'s window when the whole window lies inside the input
/// (conv_is_windowed geometries), else NULL.
VT_INLINE const float *window_start(const vt_conv_geometry *g, const float *input, pixel_pos p) {
    const int ix0 = p.ox * g->stride_w - g->pad_left, iy0 = p.oy * g->stride_h - g->pad_top;
    if (ix0 < 0 || ix0 + g->k_w > g->in_w || iy0 < 0 || iy0 + (g->k_h - 1) * g->dil_h >= g->in_h) return NULL;
    return input + ((p.b * g->in_h + (size_t)iy0) * g->in_w + (size_t)ix0) * g->in_c;
}

/// Fills `strip` with the padded rows output rows [oy0, oy1] of image b read (conv_uses_strip
/// geometries): strip row r is padded row oy0 * stride_h + r, zero outside the input.
static void fill_strip(const vt_conv_geometry *g, const float *input, size_t b, size_t oy0, size_t oy1,
                       float *strip) {
    const size_t c = (size_t)g->in_c, pw = strip_width(g), rows = strip_rows(g, oy1 - oy0 + 1);
    const size_t left = (size_t)g->pad_left < pw ? (size_t)g->pad_left : pw;
    const size_t cols = pw - left < (size_t)g->in_w ? pw - left : (size_t)g->in_w;
    const float *img = input + b * g->in_h * g->in_w * c;
    for (size_t r = 0; r < rows; r++) {
        float *dst = strip + r * pw * c;
        const int64_t iy = (int64_t)(oy0 * g->stride_h + r) - g->pad_top;
        if (iy < 0 || iy >= g->in_h) {
            memset(dst, 0, sizeof(float) * pw * c);
            continue;
        }
        memset(dst, 0, sizeof(float) * left * c);
        memcpy(dst + left * c, img + (size_t)iy * g->in_w * c, sizeof(float) * cols * c);
        memset(dst + (left + cols) * c, 0, sizeof(float) * (pw - left - cols) * c);
    }
}

static void im2col_row_plain(const vt_conv_geometry *g, const float *input, pixel_pos p, float *dst) {
    im2col_row_body(g, input, p, dst, copy_plain);
}

#if VT_X86
/// Copies n floats with 16-wide (masked at the end) moves: no library call for short runs.
VT_INLINE VT_AVX512_FN void copy_avx512(float *dst, const float *src, size_t n) {
    for (; n >= 16; n -= 16, src += 16, dst += 16) _mm512_storeu_ps(dst, _mm512_loadu_ps(src));
    if (n) {
        const __mmask16 m = vt_mask16((ptrdiff_t)n);
        _mm512_mask_storeu_ps(dst, m, _mm512_maskz_loadu_ps(m, src));
    }
}

static VT_AVX512_FN void im2col_row_avx512(const vt_conv_geometry *g, const float *input, pixel_pos p, float *dst) {
    im2col_row_body(g, input, p, dst, copy_avx512);
}
#endif

void vt_conv2d(const vt_conv_geometry *g, const float *input, const float *packed, float *output,
               const vt_epilogue *ep, float *scratch, size_t m_begin, size_t m_end, size_t col_begin,
               size_t col_end, int isa) {
    const size_t k = conv_k(g), n = (size_t)g->out_c, mc_max = conv_mc(k);
    const size_t res_ld = ep->residual_channels > 0 ? (size_t)ep->residual_channels : n;
    const vt_tail base = {ep->lo, ep->hi, ep->residual, ep->prelu_alpha, res_ld, (ptrdiff_t)res_ld};
    const size_t col0 = col_begin / VT_NR * VT_NR, col1 = col_end < n ? vt_round_up(col_end, VT_NR) : n;
    vt_tail tail = base;
    const int direct = conv_is_direct(g), windowed = conv_is_windowed(g);
    void (*gather)(const vt_conv_geometry *, const float *, pixel_pos, float *) = im2col_row_plain;
#if VT_X86
    if (isa == VT_ISA_AVX512) gather = im2col_row_avx512;
#endif
    const vt_window window = windowed ? conv_window(g, (size_t)g->in_w) : (vt_window){0, 0};
    const float *rows[VT_MC_STRIP];
    unsigned char in_place[VT_MC_MAX]; // 1: rows[i] is a window's first input pixel, read through `window`
    pixel_pos pos = pixel_at(g, m_begin);
    if (conv_uses_strip(g)) {
        // Tiles within one image, every window read in place from its strip; a tile that stops inside the image
        // stops at the end of an output row when it can, so the next one copies no input row twice.
        const size_t pw = strip_width(g), hw = (size_t)g->out_h * g->out_w, tile = strip_mc(g);
        const vt_window sw = conv_window(g, pw);
        for (size_t m0 = m_begin, mc; m0 < m_end; m0 += mc) {
            const size_t left_in_image = hw - ((size_t)pos.oy * g->out_w + (size_t)pos.ox);
            mc = m_end - m0 < tile ? m_end - m0 : tile;
            const size_t past_row_end = (pos.ox + mc) % g->out_w; // pixels of a last, partial output row
            if (mc >= left_in_image) mc = left_in_image;
            else if (mc == tile && past_row_end < mc) mc -= past_row_end;
            const size_t b = pos.b, oy0 = (size_t)pos.oy;
            fill_strip(g, input, b, oy0, (oy0 * g->out_w + (size_t)pos.ox + mc - 1) / g->out_w, scratch);
            // The tile's windows, an output row's run at a time: each a stride further than the last.
            const size_t step = (size_t)g->stride_w * g->in_c;
            for (size_t i = 0; i < mc;) {
                const size_t sy = ((size_t)pos.oy - oy0) * g->stride_h, in_row = (size_t)(g->out_w - pos.ox);
                const size_t run = mc - i < in_row ? mc - i : in_row;
                const float *w = scratch + (sy * pw + (size_t)pos.ox * g->stride_w) * g->in_c;
                for (size_t j = 0; j < run; j++, w += step) rows[i + j] = w;
                i += run;
                pos.ox += (int)run;
                if (pos.ox == g->out_w) pixel_next_row(g, &pos);
            }
            tail.res = base.res ? base.res + m0 * res_ld : NULL;
            gemm_tile(rows, mc, k, &sw, n, col0, col1, packed, output + m0 * n, n, &tail, isa);
        }
        return;
    }
    for (size_t m0 = m_begin; m0 < m_end; m0 += mc_max) {
        const size_t mc = m_end - m0 < mc_max ? m_end - m0 : mc_max;
        tail.res = base.res ? base.res + m0 * res_ld : NULL;
        if (direct && g->stride_h == 1 && g->stride_w == 1) {
            // Output pixel m reads input pixel m: rows are consecutive.
            for (size_t i = 0; i < mc; i++) rows[i] = input + (m0 + i) * k;
            gemm_tile(rows, mc, k, NULL, n, col0, col1, packed, output + m0 * n, n, &tail, isa);
            continue;
        }
        for (size_t i = 0; i < mc; i++, pixel_next(g, &pos)) {
            const float *start = windowed ? window_start(g, input, pos) : NULL;
            in_place[i] = start != NULL;
            if (direct) {
                rows[i] = input + ((pos.b * g->in_h + (size_t)pos.oy * g->stride_h) * g->in_w +
                                   (size_t)pos.ox * g->stride_w) * g->in_c;
            } else if (start) {
                rows[i] = start;
            } else {
                gather(g, input, pos, scratch + i * k);
                rows[i] = scratch + i * k;
            }
        }
        // Runs of rows read the same way (in place windows, or gathered / direct rows).
        for (size_t i0 = 0, i1; i0 < mc; i0 = i1) {
            for (i1 = i0 + 1; i1 < mc && in_place[i1] == in_place[i0]; i1++) {}
            vt_tail t = tail;
            if (t.res) t.res += i0 * res_ld;
            gemm_tile(rows + i0, i1 - i0, k, in_place[i0] ? &window : NULL, n, col0, col1, packed,
                      output + (m0 + i0) * n, n, &t, isa);
        }
    }
}

// ---------------------------------------------------------------- FULLY_CONNECTED

void vt_fc(int in_features, int out_features, const float *input, const float *packed, float *output, float lo,
           float hi, size_t row_begin, size_t row_end, int isa) {
    const size_t k = (size_t)in_features, n = (size_t)out_features;
    const vt_tail tail = {lo, hi, NULL, NULL, 0, 0};
    const size_t col0 = 0, col1 = n;
    const float *rows[VT_MC_MAX];
    for (size_t m0 = row_begin; m0 < row_end; m0 += VT_MC_MAX) {
        const size_t mc = row_end - m0 < VT_MC_MAX ? row_end - m0 : VT_MC_MAX;
        for (size_t i = 0; i < mc; i++) rows[i] = input + (m0 + i) * k;
        gemm_tile(rows, mc, k, NULL, n, col0, col1, packed, output + m0 * n, n, &tail, isa);
    }
}
