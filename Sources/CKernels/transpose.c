// The 2-D transpose under TRANSPOSE (and any strided copy whose innermost two dimensions swap):
// 8×8 blocks through registers on AVX2, 4×4 on NEON, the edges and the portable path one float at a time
// in 8×8 tiles, so each tile's source and destination lines stay in L1.
#include "ckernels.h"
#include "internal.h"

/// dst[c*ld + r] = src[r*ls + c] for r in [r0, r1), c in [c0, c1).
VT_INLINE void transpose_scalar(const float *src, size_t ls, float *dst, size_t ld, size_t r0, size_t r1, size_t c0,
                                size_t c1) {
    for (size_t r = r0; r < r1; r++) {
        for (size_t c = c0; c < c1; c++) dst[c * ld + r] = src[r * ls + c];
    }
}

/// The whole transpose in tiles of `tile`×`tile`: each full tile by `block`, the edges one float at a time.
#define TRANSPOSE_TILED(tile, block)                                                                      \
    do {                                                                                                  \
        const size_t full_r = rows / (tile) * (tile), full_c = cols / (tile) * (tile);                    \
        for (size_t r = 0; r < full_r; r += (tile)) {                                                     \
            for (size_t c = 0; c < full_c; c += (tile)) block(src + r * ls + c, ls, dst + c * ld + r, ld); \
            transpose_scalar(src, ls, dst, ld, r, r + (tile), full_c, cols);                              \
        }                                                                                                 \
        transpose_scalar(src, ls, dst, ld, full_r, rows, 0, cols);                                        \
    } while (0)

VT_INLINE void block8_scalar(const float *s, size_t ls, float *d, size_t ld) {
    for (size_t r = 0; r < 8; r++) {
        for (size_t c = 0; c < 8; c++) d[c * ld + r] = s[r * ls + c];
    }
}

static void transpose_portable(const float *src, size_t ls, float *dst, size_t ld, size_t rows, size_t cols) {
    TRANSPOSE_TILED(8, block8_scalar);
}

#if VT_X86
/// One 8×8 block: eight rows loaded, interleaved in pairs, then quads, then the 128-bit halves swapped.
VT_INLINE VT_AVX2_FN void block8_avx2(const float *s, size_t ls, float *d, size_t ld) {
    const __m256 r0 = _mm256_loadu_ps(s), r1 = _mm256_loadu_ps(s + ls), r2 = _mm256_loadu_ps(s + 2 * ls),
                 r3 = _mm256_loadu_ps(s + 3 * ls), r4 = _mm256_loadu_ps(s + 4 * ls), r5 = _mm256_loadu_ps(s + 5 * ls),
                 r6 = _mm256_loadu_ps(s + 6 * ls), r7 = _mm256_loadu_ps(s + 7 * ls);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
                 t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
                 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
                 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
                 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
                 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_storeu_ps(d, _mm256_permute2f128_ps(u0, u4, 0x20));
    _mm256_storeu_ps(d + ld, _mm256_permute2f128_ps(u1, u5, 0x20));
    _mm256_storeu_ps(d + 2 * ld, _mm256_permute2f128_ps(u2, u6, 0x20));
    _mm256_storeu_ps(d + 3 * ld, _mm256_permute2f128_ps(u3, u7, 0x20));
    _mm256_storeu_ps(d + 4 * ld, _mm256_permute2f128_ps(u0, u4, 0x31));
    _mm256_storeu_ps(d + 5 * ld, _mm256_permute2f128_ps(u1, u5, 0x31));
    _mm256_storeu_ps(d + 6 * ld, _mm256_permute2f128_ps(u2, u6, 0x31));
    _mm256_storeu_ps(d + 7 * ld, _mm256_permute2f128_ps(u3, u7, 0x31));
}

static VT_AVX2_FN void transpose_avx2(const float *src, size_t ls, float *dst, size_t ld, size_t rows, size_t cols) {
    TRANSPOSE_TILED(8, block8_avx2);
}
#endif

#if VT_ARM64
/// One 4×4 block: rows interleaved in pairs (TRN1/TRN2), then the 64-bit halves recombined.
VT_INLINE void block4_neon(const float *s, size_t ls, float *d, size_t ld) {
    const float32x4x2_t a = vtrnq_f32(vld1q_f32(s), vld1q_f32(s + ls));
    const float32x4x2_t b = vtrnq_f32(vld1q_f32(s + 2 * ls), vld1q_f32(s + 3 * ls));
    vst1q_f32(d, vcombine_f32(vget_low_f32(a.val[0]), vget_low_f32(b.val[0])));
    vst1q_f32(d + ld, vcombine_f32(vget_low_f32(a.val[1]), vget_low_f32(b.val[1])));
    vst1q_f32(d + 2 * ld, vcombine_f32(vget_high_f32(a.val[0]), vget_high_f32(b.val[0])));
    vst1q_f32(d + 3 * ld, vcombine_f32(vget_high_f32(a.val[1]), vget_high_f32(b.val[1])));
}

static void transpose_neon(const float *src, size_t ls, float *dst, size_t ld, size_t rows, size_t cols) {
    TRANSPOSE_TILED(4, block4_neon);
}
#endif

void vt_transpose(const float *src, size_t src_stride, float *dst, size_t dst_stride, size_t rows, size_t cols,
                  int isa) {
    VT_DISPATCH(isa, transpose, src, src_stride, dst, dst_stride, rows, cols);
}
