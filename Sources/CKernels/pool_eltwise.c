// Pooling and elementwise kernels. Each body is plain C written once and compiled twice:
// as the portable variant and inside an AVX2 function, where the compiler vectorises it 8 wide;
// on AArch64, NEON variants (intrinsics, so debug builds run them vectorised too).
#include "ckernels.h"
#include "internal.h"
#include <math.h>

VT_INLINE void tap_range_pool(int o, int stride, int pad, int k, int size, int *lo, int *hi) {
    const int base = o * stride - pad;
    *lo = base < 0 ? -base : 0;
    *hi = base + k > size ? size - base : k;
}

/// Output row `row` (of batch * out_h): its image in the batch, its row in it, and its kernel rows
/// [ky0, ky1) inside the input.
typedef struct pool_row {
    const float *img;
    int oy, ky0, ky1;
} pool_row;

VT_INLINE pool_row pool_row_at(const vt_conv_geometry *g, const float *input, size_t row) {
    pool_row r;
    const size_t n = row / (size_t)g->out_h;
    r.oy = (int)(row % (size_t)g->out_h);
    r.img = input + n * g->in_h * g->in_w * (size_t)g->in_c;
    tap_range_pool(r.oy, g->stride_h, g->pad_top, g->k_h, g->in_h, &r.ky0, &r.ky1);
    return r;
}

/// Output column `ox` of pool row `pr` (row `row` of batch * out_h): its kernel columns [kx0, kx1)
/// inside the input, the window's first in-bounds tap (NULL when it has no tap inside the input),
/// and where its channels go in `output`.
typedef struct pool_window {
    const float *first;
    float *out;
    int kx0, kx1;
} pool_window;

VT_INLINE pool_window pool_window_at(const vt_conv_geometry *g, const pool_row *pr, float *output, size_t row, int ox) {
    pool_window w;
    w.out = output + (row * (size_t)g->out_w + (size_t)ox) * (size_t)g->in_c;
    tap_range_pool(ox, g->stride_w, g->pad_left, g->k_w, g->in_w, &w.kx0, &w.kx1);
    const size_t row_floats = (size_t)g->in_w * (size_t)g->in_c;
    w.first = pr->ky1 <= pr->ky0 || w.kx1 <= w.kx0
                  ? NULL
                  : pr->img + (size_t)(pr->oy * g->stride_h - g->pad_top + pr->ky0) * row_floats +
                        (size_t)(ox * g->stride_w - g->pad_left + w.kx0) * (size_t)g->in_c;
    return w;
}

/// MAX_POOL_2D rows [r0, r1): the maximum over each window's in-bounds taps (zero when there is none), clamped.
VT_INLINE void maxpool_rows(const vt_conv_geometry *g, const float *input, float *output, float lo, float hi,
                            size_t r0, size_t r1) {
    const size_t c = (size_t)g->in_c;
    for (size_t row = r0; row < r1; row++) {
        const pool_row pr = pool_row_at(g, input, row);
        const float *img = pr.img;
        const int oy = pr.oy, ky0 = pr.ky0, ky1 = pr.ky1;
        for (int ox = 0; ox < g->out_w; ox++) {
            int kx0, kx1;
            tap_range_pool(ox, g->stride_w, g->pad_left, g->k_w, g->in_w, &kx0, &kx1);
            float *out = output + (row * g->out_w + ox) * c;
            for (size_t ch = 0; ch < c; ch++) out[ch] = -INFINITY;
            for (int ky = ky0; ky < ky1; ky++) {
                const int iy = oy * g->stride_h - g->pad_top + ky;
                for (int kx = kx0; kx < kx1; kx++) {
                    const int ix = ox * g->stride_w - g->pad_left + kx;
                    const float *in = img + ((size_t)iy * g->in_w + ix) * c;
                    for (size_t ch = 0; ch < c; ch++) out[ch] = in[ch] > out[ch] ? in[ch] : out[ch];
                }
            }
            if (ky1 <= ky0 || kx1 <= kx0)
                for (size_t ch = 0; ch < c; ch++) out[ch] = 0.0f;
            for (size_t ch = 0; ch < c; ch++) out[ch] = vt_clampf(out[ch], lo, hi);
        }
    }
}

/// Alpha values repeated to fill this many floats, so PRELU over few channels runs long vector loops.
#define VT_PRELU_SPAN 512

/// y = prelu(x) over `count` floats, alpha given per element.
VT_INLINE void prelu_run(const float *x, const float *alpha, float *y, size_t count) {
    for (size_t j = 0; j < count; j++) {
        const float v = x[j];
        y[j] = v >= 0.0f ? v : alpha[j] * v;
    }
}

#if VT_ARM64
/// prelu_run with NEON, 4 floats at a time (x >= 0 selects x, as the plain loop), the rest one at a time.
VT_INLINE void prelu_run_neon(const float *x, const float *alpha, float *y, size_t count) {
    const float32x4_t zero = vdupq_n_f32(0.0f);
    size_t j = 0;
    for (; j + 4 <= count; j += 4) {
        const float32x4_t v = vld1q_f32(x + j);
        vst1q_f32(y + j, vbslq_f32(vcgeq_f32(v, zero), v, vmulq_f32(vld1q_f32(alpha + j), v)));
    }
    prelu_run(x + j, alpha + j, y + j, count - j);
}
#endif

#if VT_X86
/// prelu_run with AVX2, 8 floats at a time (x >= 0 selects x, as the plain loop), the rest one at a time.
/// Written out, not left to the compiler, whose vector loop gives way to the scalar one when `y` is `x`.
static VT_AVX2_FN void prelu_run_avx2(const float *x, const float *alpha, float *y, size_t count) {
    size_t j = 0;
    for (; j + 8 <= count; j += 8) {
        const __m256 v = _mm256_loadu_ps(x + j);
        const __m256 keep = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GE_OQ);
        _mm256_storeu_ps(y + j, _mm256_blendv_ps(_mm256_mul_ps(_mm256_loadu_ps(alpha + j), v), v, keep));
    }
    prelu_run(x + j, alpha + j, y + j, count - j);
}
#endif

/// The PRELU code paths prelu_body runs spans with.
enum { PRELU_PORTABLE, PRELU_AVX2, PRELU_NEON };

/// prelu_run with the code path `path`.
VT_INLINE void prelu_span(const int path, const float *x, const float *alpha, float *y, size_t count) {
#if VT_ARM64
    if (path == PRELU_NEON) {
        prelu_run_neon(x, alpha, y, count);
        return;
    }
#endif
#if VT_X86
    if (path == PRELU_AVX2) {
        prelu_run_avx2(x, alpha, y, count);
        return;
    }
#endif
    (void)path;
    prelu_run(x, alpha, y, count);
}

/// PRELU for pixels [begin, end) of [pixels, channels] tensors, spans run with the code path `path`.
VT_INLINE void prelu_body(const int path, const float *a, const float *alpha, float *output, size_t channels,
                          size_t begin, size_t end) {
    if (channels * 2 > VT_PRELU_SPAN) {
        for (size_t i = begin; i < end; i++) {
            const size_t o = i * channels;
            prelu_span(path, a + o, alpha, output + o, channels);
        }
        return;
    }
    // Few channels: treat the range as runs of `per` pixels against alpha repeated `per` times.
    const size_t per = VT_PRELU_SPAN / channels, span = per * channels;
    float rep[VT_PRELU_SPAN];
    for (size_t j = 0; j < span; j++) rep[j] = alpha[j % channels];
    for (size_t i = begin; i < end; i += per) {
        const size_t count = (end - i < per ? end - i : per) * channels, o = i * channels;
        prelu_span(path, a + o, rep, output + o, count);
    }
}

VT_INLINE void add_body(const float *a, const float *b, float *output, float lo, float hi, size_t begin,
                        size_t end) {
    for (size_t i = begin; i < end; i++) output[i] = vt_clampf(a[i] + b[i], lo, hi);
}

static void maxpool_portable(const vt_conv_geometry *g, const float *in, float *out, float lo, float hi, size_t r0,
                             size_t r1) { maxpool_rows(g, in, out, lo, hi, r0, r1); }
static void prelu_portable(const float *x, const float *al, float *y, size_t ch, size_t b, size_t e) {
    prelu_body(PRELU_PORTABLE, x, al, y, ch, b, e);
}
static void add_portable(const float *a, const float *b, float *y, float lo, float hi, size_t s, size_t e) {
    add_body(a, b, y, lo, hi, s, e);
}

#if VT_X86
/// MAX_POOL_2D rows with each window's maximum kept in a register, 8 channels at a time (the last
/// block masked): the comparisons of maxpool_rows (x > max ? x : max from -inf, then the clamp), so
/// results are the same bit for bit, NaN included, without its per-tap pass over the output.
static VT_AVX2_FN void maxpool_avx2(const vt_conv_geometry *g, const float *input, float *output, float lo, float hi,
                                    size_t r0, size_t r1) {
    const size_t c = (size_t)g->in_c, row_floats = (size_t)g->in_w * c;
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi), none = _mm256_set1_ps(-INFINITY);
    const __m256i tmask = vt_lane_mask((int)(c % 8));
    for (size_t row = r0; row < r1; row++) {
        const pool_row pr = pool_row_at(g, input, row);
        for (int ox = 0; ox < g->out_w; ox++) {
            const pool_window w = pool_window_at(g, &pr, output, row, ox);
            if (!w.first) {
                // No tap inside the input: zero, clamped (as maxpool_rows).
                const __m256 z = _mm256_min_ps(vhi, _mm256_max_ps(vlo, _mm256_setzero_ps()));
                for (size_t ch = 0; ch < c; ch += 8) {
                    if (c - ch < 8) _mm256_maskstore_ps(w.out + ch, tmask, z);
                    else _mm256_storeu_ps(w.out + ch, z);
                }
                continue;
            }
            size_t ch = 0;
            for (; ch + 32 <= c; ch += 32) {
                __m256 m0 = none, m1 = none, m2 = none, m3 = none;
                const float *tap_row = w.first + ch;
                for (int ky = pr.ky0; ky < pr.ky1; ky++, tap_row += row_floats) {
                    const float *tap = tap_row;
                    for (int kx = w.kx0; kx < w.kx1; kx++, tap += c) {
                        m0 = _mm256_max_ps(_mm256_loadu_ps(tap), m0);
                        m1 = _mm256_max_ps(_mm256_loadu_ps(tap + 8), m1);
                        m2 = _mm256_max_ps(_mm256_loadu_ps(tap + 16), m2);
                        m3 = _mm256_max_ps(_mm256_loadu_ps(tap + 24), m3);
                    }
                }
                _mm256_storeu_ps(w.out + ch, _mm256_min_ps(vhi, _mm256_max_ps(vlo, m0)));
                _mm256_storeu_ps(w.out + ch + 8, _mm256_min_ps(vhi, _mm256_max_ps(vlo, m1)));
                _mm256_storeu_ps(w.out + ch + 16, _mm256_min_ps(vhi, _mm256_max_ps(vlo, m2)));
                _mm256_storeu_ps(w.out + ch + 24, _mm256_min_ps(vhi, _mm256_max_ps(vlo, m3)));
            }
            for (; ch < c; ch += 8) {
                const int partial = c - ch < 8;
                __m256 m = none;
                const float *tap_row = w.first + ch;
                for (int ky = pr.ky0; ky < pr.ky1; ky++, tap_row += row_floats) {
                    const float *tap = tap_row;
                    for (int kx = w.kx0; kx < w.kx1; kx++, tap += c)
                        m = _mm256_max_ps(partial ? _mm256_maskload_ps(tap, tmask) : _mm256_loadu_ps(tap), m);
                }
                m = _mm256_min_ps(vhi, _mm256_max_ps(vlo, m));
                if (partial) _mm256_maskstore_ps(w.out + ch, tmask, m);
                else _mm256_storeu_ps(w.out + ch, m);
            }
        }
    }
}
static VT_AVX2_FN void prelu_avx2(const float *x, const float *al, float *y, size_t ch, size_t b, size_t e) {
    prelu_body(PRELU_AVX2, x, al, y, ch, b, e);
}
/// vt_add with AVX2: 8 sums at a time clamped as vt_clampf does (max(lo, v) then min(hi, v): NaN passes
/// through, signed zeros kept), the rest one at a time. Written out, not left to the compiler, whose vector
/// loop gives way to the scalar one when the output aliases an input (as in place it does).
static VT_AVX2_FN void add_avx2(const float *a, const float *b, float *y, float lo, float hi, size_t s, size_t e) {
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    size_t i = s;
    for (; i + 8 <= e; i += 8) {
        const __m256 v = _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i));
        _mm256_storeu_ps(y + i, _mm256_min_ps(vhi, _mm256_max_ps(vlo, v)));
    }
    add_body(a, b, y, lo, hi, i, e);
}
#endif

#if VT_ARM64
/// MAX_POOL_2D rows with NEON, each window's maximum in registers, 16 channels at a time, then 4, then
/// one: the comparisons of maxpool_rows (x > max ? x : max from -inf, then the clamp), so results are
/// the same bit for bit, NaN and signed zeros included.
static void maxpool_neon(const vt_conv_geometry *g, const float *input, float *output, float lo, float hi,
                         size_t r0, size_t r1) {
    const size_t c = (size_t)g->in_c, row_floats = (size_t)g->in_w * c;
    const float32x4_t none = vdupq_n_f32(-INFINITY), vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
    for (size_t row = r0; row < r1; row++) {
        const pool_row pr = pool_row_at(g, input, row);
        for (int ox = 0; ox < g->out_w; ox++) {
            const pool_window w = pool_window_at(g, &pr, output, row, ox);
            if (!w.first) {
                // No tap inside the input: zero, clamped (as maxpool_rows).
                for (size_t ch = 0; ch < c; ch++) w.out[ch] = vt_clampf(0.0f, lo, hi);
                continue;
            }
            size_t ch = 0;
            for (; ch + 4 <= c;) {
                const int nv = ch + 16 <= c ? 4 : 1;
                float32x4_t m[4] = {none, none, none, none};
                const float *tap_row = w.first + ch;
                for (int ky = pr.ky0; ky < pr.ky1; ky++, tap_row += row_floats) {
                    const float *tap = tap_row;
                    for (int kx = w.kx0; kx < w.kx1; kx++, tap += c)
                        for (int v = 0; v < nv; v++) {
                            const float32x4_t x = vld1q_f32(tap + 4 * v);
                            m[v] = vbslq_f32(vcgtq_f32(x, m[v]), x, m[v]);
                        }
                }
                for (int v = 0; v < nv; v++) vst1q_f32(w.out + ch + 4 * v, vt_clamp_neon(m[v], vlo, vhi));
                ch += 4 * (size_t)nv;
            }
            for (; ch < c; ch++) {
                float m = -INFINITY;
                const float *tap_row = w.first + ch;
                for (int ky = pr.ky0; ky < pr.ky1; ky++, tap_row += row_floats) {
                    const float *tap = tap_row;
                    for (int kx = w.kx0; kx < w.kx1; kx++, tap += c) m = *tap > m ? *tap : m;
                }
                w.out[ch] = vt_clampf(m, lo, hi);
            }
        }
    }
}
static void prelu_neon(const float *x, const float *al, float *y, size_t ch, size_t b, size_t e) {
    prelu_body(PRELU_NEON, x, al, y, ch, b, e);
}
/// vt_add with NEON: 4 sums at a time clamped as vt_clampf does (NaN passes through), the rest one at a time.
static void add_neon(const float *a, const float *b, float *y, float lo, float hi, size_t s, size_t e) {
    const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
    size_t i = s;
    for (; i + 4 <= e; i += 4) {
        vst1q_f32(y + i, vt_clamp_neon(vaddq_f32(vld1q_f32(a + i), vld1q_f32(b + i)), vlo, vhi));
    }
    add_body(a, b, y, lo, hi, i, e);
}
#endif

void vt_maxpool(const vt_conv_geometry *g, const float *input, float *output, float lo, float hi, size_t row_begin,
                size_t row_end, int isa) {
    VT_DISPATCH(isa, maxpool, g, input, output, lo, hi, row_begin, row_end);
}

void vt_prelu(const float *input, const float *alpha, float *output, size_t channels, size_t begin, size_t end,
              int isa) {
    VT_DISPATCH(isa, prelu, input, alpha, output, channels, begin, end);
}

void vt_add(const float *a, const float *b, float *output, float lo, float hi, size_t begin, size_t end, int isa) {
    VT_DISPATCH(isa, add, a, b, output, lo, hi, begin, end);
}
