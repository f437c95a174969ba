// VisionCore's BilinearWarp (OpenCV's fixed-point INTER_LINEAR as MediaPipe runs it) in C: the
// sampling, with a software prefetch (a rotated crop walks the source diagonally, so the hardware
// prefetcher does not see the rows it reads next: the caller passes the next row's positions)
// and, with AVX2, eight tensor pixels at a time by gathers (the one-pixel path remains for the picture's last bytes, gray pictures and CPUs
// without AVX2), with NEON four at a time by table lookups (blocks wholly inside the picture); and the
// source coordinates, vectorised. The integer arithmetic and the border
// rules are the same on every path, bit for bit, and a level l becomes fmaf(l, scale, low) on
// every path (one rounding, as Swift's addingProduct).
#include "image_codecs.h"
#include "cpu_features.h"

#include <math.h>
#include <stdint.h>

// The index read for a neighbour outside the image: clamped, or -1 (a zero) with a zero border.
static inline int border_index(int i, int count, int zero_border) {
    if (i >= 0 && i < count) return i;
    if (zero_border) return -1;
    return i < 0 ? 0 : count - 1;
}

// A tensor pixel whose four neighbours are not all inside: OpenCV's remap border rules.
static void sample_at_border(const ic_warp_source *s, int ix, int iy, const int w[4], float *out, float low,
                             float scale) {
    if (s->zero_border && (ix >= s->width || ix + 1 < 0 || iy >= s->height || iy + 1 < 0)) {
        out[0] = out[1] = out[2] = fmaf(0.0f, scale, low);
        return;
    }
    const int x0 = border_index(ix, s->width, s->zero_border), x1 = border_index(ix + 1, s->width, s->zero_border);
    const int y0 = border_index(iy, s->height, s->zero_border), y1 = border_index(iy + 1, s->height, s->zero_border);
    const size_t stride = (size_t)s->width * s->bytes_per_pixel;
    const int offsets[3] = {s->red, s->green, s->blue};
    for (int c = 0; c < 3; c++) {
#define VALUE(x, y) ((x) < 0 || (y) < 0 ? 0 : (int)s->pixels[(size_t)(y) * stride + (size_t)(x) * s->bytes_per_pixel + offsets[c]])
        int sum = VALUE(x0, y0) * w[0] + VALUE(x1, y0) * w[1] + VALUE(x0, y1) * w[2] + VALUE(x1, y1) * w[3];
#undef VALUE
        int level = (sum + 16384) >> 15;
        out[c] = fmaf((float)(level < 0 ? 0 : level > 255 ? 255 : level), scale, low);
    }
}

// How many tensor pixels ahead the source lines of the row itself are prefetched (without `next`).
#define PREFETCH_AHEAD 8

// Prefetches the two source lines tensor pixel `x` of `coordinates` reads, when it lies inside.
static inline void prefetch_pixel(const ic_warp_source *s, const int32_t *coordinates, int x, size_t stride) {
    const int ax = coordinates[2 * x] >> 5, ay = coordinates[2 * x + 1] >> 5;
    if (ax >= 0 && ay >= 0 && ax < s->width - 1 && ay < s->height - 1) {
        const uint8_t *p = s->pixels + (size_t)ay * stride + (size_t)ax * s->bytes_per_pixel;
        __builtin_prefetch(p);
        __builtin_prefetch(p + stride);
    }
}

// Tensor pixels [begin, end) of a row, one at a time. Prefetches the source lines of the row to
// come: pixel x of `next` when set (one row ahead is far enough for a line to come from memory,
// which a rotated crop, walking the source diagonally, otherwise waits for at almost every pixel),
// else pixel x + PREFETCH_AHEAD of this row.
static void warp_pixels(const ic_warp_source *s, const int32_t *coordinates, const int32_t *next, int begin, int end,
                        int count, float *out, float low, float scale) {
    const int bpp = s->bytes_per_pixel, r = s->red, g = s->green, b = s->blue;
    const size_t stride = (size_t)s->width * bpp;
    const int inner_width = s->width - 1, inner_height = s->height - 1;
    out += 3 * begin;
    for (int x = begin; x < end; x++, out += 3) {
        if (next) prefetch_pixel(s, next, x, stride);
        else if (x + PREFETCH_AHEAD < count) prefetch_pixel(s, coordinates, x + PREFETCH_AHEAD, stride);
        const int sx = coordinates[2 * x], sy = coordinates[2 * x + 1];
        const int ix = sx >> 5, iy = sy >> 5, fx = sx & 31, fy = sy & 31;
        const int w[4] = {(32 - fx) * (32 - fy) * 32, fx * (32 - fy) * 32, (32 - fx) * fy * 32, fx * fy * 32};
        if (ix >= 0 && iy >= 0 && ix < inner_width && iy < inner_height) {
            // The weights sum to 2^15, so the rounded result is already within 0...255.
            const uint8_t *p = s->pixels + (size_t)iy * stride + (size_t)ix * bpp, *q = p + stride;
            out[0] = fmaf((float)((p[r] * w[0] + p[r + bpp] * w[1] + q[r] * w[2] + q[r + bpp] * w[3] + 16384) >> 15),
                          scale, low);
            out[1] = fmaf((float)((p[g] * w[0] + p[g + bpp] * w[1] + q[g] * w[2] + q[g + bpp] * w[3] + 16384) >> 15),
                          scale, low);
            out[2] = fmaf((float)((p[b] * w[0] + p[b + bpp] * w[1] + q[b] * w[2] + q[b + bpp] * w[3] + 16384) >> 15),
                          scale, low);
        } else {
            const int cx = ix < -32768 ? -32768 : ix > 32767 ? 32767 : ix;
            const int cy = iy < -32768 ? -32768 : iy > 32767 ? 32767 : iy;
            sample_at_border(s, cx, cy, w, out, low, scale);
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// The (x, y) positions of the eight pixels from `x` of a row's coordinates, as two vectors.
__attribute__((target("avx2"))) static inline void positions8_avx2(const int32_t *coordinates, int x, __m256i *sx,
                                                                   __m256i *sy) {
    const __m256i perm = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i c0 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(coordinates + 2 * x)), perm);
    const __m256i c1 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(coordinates + 2 * x + 8)), perm);
    *sx = _mm256_permute2x128_si256(c0, c1, 0x20);
    *sy = _mm256_permute2x128_si256(c0, c1, 0x31);
}

// Eight tensor pixels from `x` at once with the same integer arithmetic and OpenCV's border rules:
// each neighbour's column and row clamped into the picture (replicated border) or, with a zero
// border, not read where it lies outside (a masked gather leaves it 0). Each neighbour is read as
// four bytes at its offset; returns 0, writing nothing, when one of those reads would pass the
// picture's last byte (a pixel at the very end of an RGB picture), for the caller to do one at a time.
__attribute__((target("avx2,fma"))) static int warp_block8_avx2(const ic_warp_source *s, const int32_t *coordinates,
                                                                int x, float *out, float low, float scale) {
    const int bpp = s->bytes_per_pixel, stride = s->width * bpp;
    __m256i sx, sy;
    positions8_avx2(coordinates, x, &sx, &sy);
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1), minus1 = _mm256_set1_epi32(-1);
    const __m256i width = _mm256_set1_epi32(s->width), height = _mm256_set1_epi32(s->height);
    const __m256i ix = _mm256_srai_epi32(sx, 5), iy = _mm256_srai_epi32(sy, 5);
    const __m256i ix1 = _mm256_add_epi32(ix, one), iy1 = _mm256_add_epi32(iy, one);
    const __m256i last_x = _mm256_sub_epi32(width, one), last_y = _mm256_sub_epi32(height, one);
    const __m256i x0 = _mm256_min_epi32(_mm256_max_epi32(ix, zero), last_x), x1 = _mm256_min_epi32(_mm256_max_epi32(ix1, zero), last_x);
    const __m256i y0 = _mm256_min_epi32(_mm256_max_epi32(iy, zero), last_y), y1 = _mm256_min_epi32(_mm256_max_epi32(iy1, zero), last_y);
    const __m256i vstride = _mm256_set1_epi32(stride), vbpp = _mm256_set1_epi32(bpp);
    const __m256i row0 = _mm256_mullo_epi32(y0, vstride), row1 = _mm256_mullo_epi32(y1, vstride);
    const __m256i col0 = _mm256_mullo_epi32(x0, vbpp), col1 = _mm256_mullo_epi32(x1, vbpp);
    const __m256i o00 = _mm256_add_epi32(row0, col0), o01 = _mm256_add_epi32(row0, col1);
    const __m256i o10 = _mm256_add_epi32(row1, col0), o11 = _mm256_add_epi32(row1, col1);
    // o11 is the largest offset: its four bytes must end inside the picture.
    const __m256i limit = _mm256_set1_epi32(stride * s->height - 4);
    if (_mm256_movemask_epi8(_mm256_cmpgt_epi32(o11, limit))) return 0;
    const int *base = (const int *)(const void *)s->pixels;
    __m256i p00, p01, p10, p11;
    if (s->zero_border) {
        const __m256i in_x0 = _mm256_and_si256(_mm256_cmpgt_epi32(ix, minus1), _mm256_cmpgt_epi32(width, ix));
        const __m256i in_x1 = _mm256_and_si256(_mm256_cmpgt_epi32(ix1, minus1), _mm256_cmpgt_epi32(width, ix1));
        const __m256i in_y0 = _mm256_and_si256(_mm256_cmpgt_epi32(iy, minus1), _mm256_cmpgt_epi32(height, iy));
        const __m256i in_y1 = _mm256_and_si256(_mm256_cmpgt_epi32(iy1, minus1), _mm256_cmpgt_epi32(height, iy1));
        p00 = _mm256_mask_i32gather_epi32(zero, base, o00, _mm256_and_si256(in_x0, in_y0), 1);
        p01 = _mm256_mask_i32gather_epi32(zero, base, o01, _mm256_and_si256(in_x1, in_y0), 1);
        p10 = _mm256_mask_i32gather_epi32(zero, base, o10, _mm256_and_si256(in_x0, in_y1), 1);
        p11 = _mm256_mask_i32gather_epi32(zero, base, o11, _mm256_and_si256(in_x1, in_y1), 1);
    } else {
        p00 = _mm256_i32gather_epi32(base, o00, 1);
        p01 = _mm256_i32gather_epi32(base, o01, 1);
        p10 = _mm256_i32gather_epi32(base, o10, 1);
        p11 = _mm256_i32gather_epi32(base, o11, 1);
    }
    const __m256i fraction = _mm256_set1_epi32(31), thirty_two = _mm256_set1_epi32(32);
    const __m256i fx = _mm256_and_si256(sx, fraction), fy = _mm256_and_si256(sy, fraction);
    const __m256i gx = _mm256_sub_epi32(thirty_two, fx), gy = _mm256_sub_epi32(thirty_two, fy);
    const __m256i w00 = _mm256_slli_epi32(_mm256_mullo_epi32(gx, gy), 5), w01 = _mm256_slli_epi32(_mm256_mullo_epi32(fx, gy), 5);
    const __m256i w10 = _mm256_slli_epi32(_mm256_mullo_epi32(gx, fy), 5), w11 = _mm256_slli_epi32(_mm256_mullo_epi32(fx, fy), 5);
    const __m256i byte = _mm256_set1_epi32(0xFF), half = _mm256_set1_epi32(16384);
    const __m256 vlow = _mm256_set1_ps(low), vscale = _mm256_set1_ps(scale);
    const int channel_offsets[3] = {s->red, s->green, s->blue};
    __m256 values[3];
    for (int c = 0; c < 3; c++) {
        const __m128i shift = _mm_cvtsi32_si128(8 * channel_offsets[c]);
        const __m256i v00 = _mm256_and_si256(_mm256_srl_epi32(p00, shift), byte);
        const __m256i v01 = _mm256_and_si256(_mm256_srl_epi32(p01, shift), byte);
        const __m256i v10 = _mm256_and_si256(_mm256_srl_epi32(p10, shift), byte);
        const __m256i v11 = _mm256_and_si256(_mm256_srl_epi32(p11, shift), byte);
        const __m256i sum = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(v00, w00), _mm256_mullo_epi32(v01, w01)),
                                             _mm256_add_epi32(_mm256_mullo_epi32(v10, w10), _mm256_mullo_epi32(v11, w11)));
        // Within 0...255: the weights sum to 2^15 and each neighbour is 0...255.
        const __m256i level = _mm256_srai_epi32(_mm256_add_epi32(sum, half), 15);
        values[c] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(level), vscale, vlow);
    }
    // Interleave r0..r7, g0..g7, b0..b7 as r0 g0 b0 r1 ... b7: each output vector takes its lanes
    // from the three channels moved into place, then blended.
    const __m256 r = values[0], g = values[1], b = values[2];
    const __m256 out0 = _mm256_blend_ps(
        _mm256_blend_ps(_mm256_permutevar8x32_ps(r, _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)),
                        _mm256_permutevar8x32_ps(g, _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)), 0x92),
        _mm256_permutevar8x32_ps(b, _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)), 0x24);
    const __m256 out1 = _mm256_blend_ps(
        _mm256_blend_ps(_mm256_permutevar8x32_ps(r, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)),
                        _mm256_permutevar8x32_ps(g, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)), 0x24),
        _mm256_permutevar8x32_ps(b, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)), 0x49);
    const __m256 out2 = _mm256_blend_ps(
        _mm256_blend_ps(_mm256_permutevar8x32_ps(r, _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)),
                        _mm256_permutevar8x32_ps(g, _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)), 0x49),
        _mm256_permutevar8x32_ps(b, _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)), 0x92);
    float *o = out + 3 * x;
    _mm256_storeu_ps(o, out0);
    _mm256_storeu_ps(o + 8, out1);
    _mm256_storeu_ps(o + 16, out2);
    return 1;
}

// Prefetches the source lines of the eight pixels of `next` from `x`, their positions clamped into
// the picture (a pixel outside reads the edge, or nothing), without a branch per pixel.
__attribute__((target("avx2"))) static inline void prefetch_next8_avx2(const ic_warp_source *s, const int32_t *next,
                                                                       int x, int stride) {
    __m256i sx, sy;
    positions8_avx2(next, x, &sx, &sy);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i ix = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(sx, 5), zero), _mm256_set1_epi32(s->width - 1));
    const __m256i iy = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(sy, 5), zero), _mm256_set1_epi32(s->height - 1));
    const __m256i below = _mm256_min_epi32(_mm256_add_epi32(iy, _mm256_set1_epi32(1)), _mm256_set1_epi32(s->height - 1));
    const __m256i col = _mm256_mullo_epi32(ix, _mm256_set1_epi32(s->bytes_per_pixel)), vstride = _mm256_set1_epi32(stride);
    int32_t top[8], bottom[8];
    _mm256_storeu_si256((__m256i *)top, _mm256_add_epi32(_mm256_mullo_epi32(iy, vstride), col));
    _mm256_storeu_si256((__m256i *)bottom, _mm256_add_epi32(_mm256_mullo_epi32(below, vstride), col));
    for (int i = 0; i < 8; i++) {
        __builtin_prefetch(s->pixels + top[i]);
        __builtin_prefetch(s->pixels + bottom[i]);
    }
}

// A row eight pixels at a time, one at a time where a block cannot be (and for the last few).
__attribute__((target("avx2,fma"))) static void warp_row_avx2(const ic_warp_source *s, const int32_t *coordinates,
                                                              const int32_t *next, int count, float *out, float low,
                                                              float scale) {
    const size_t stride = (size_t)s->width * s->bytes_per_pixel;
    int x = 0;
    for (; x + 8 <= count; x += 8) {
        if (next) {
            prefetch_next8_avx2(s, next, x, (int)stride);
        } else if (x + 16 <= count) {
            prefetch_pixel(s, coordinates, x + 8, stride);
            prefetch_pixel(s, coordinates, x + 12, stride);
            prefetch_pixel(s, coordinates, x + 15, stride);
        }
        if (!warp_block8_avx2(s, coordinates, x, out, low, scale))
            warp_pixels(s, coordinates, NULL, x, x + 8, count, out, low, scale);
    }
    warp_pixels(s, coordinates, next, x, count, count, out, low, scale);
}
#endif

#if IC_NEON
// Four tensor pixels from `x` whose four neighbours all lie inside the picture, with the portable
// integer arithmetic: each pixel's two neighbours on a line are one 8-byte load (so 1 to 4 bytes a
// pixel), the four pixels' top and bottom loads two 32-byte tables, and `index[c]` picks channel c's
// left and right neighbours of the four pixels from a table. Returns 0, writing nothing, when a pixel
// is not inside or a load would pass the picture's last byte, for the caller to do one at a time.
static int warp_block4_neon(const ic_warp_source *s, const int32_t *coordinates, int x, const uint8x8_t index[3],
                            float *out, float32x4_t low, float32x4_t scale) {
    const uint32_t stride = (uint32_t)s->width * (uint32_t)s->bytes_per_pixel;
    const int32x4x2_t position = vld2q_s32(coordinates + 2 * x);
    const uint32x4_t ix = vreinterpretq_u32_s32(vshrq_n_s32(position.val[0], 5));
    const uint32x4_t iy = vreinterpretq_u32_s32(vshrq_n_s32(position.val[1], 5));
    // 0 <= ix < width - 1 and 0 <= iy < height - 1 in one unsigned comparison each.
    const uint32x4_t inside = vandq_u32(vcltq_u32(ix, vdupq_n_u32((uint32_t)s->width - 1)),
                                        vcltq_u32(iy, vdupq_n_u32((uint32_t)s->height - 1)));
    if (vminvq_u32(inside) == 0) return 0;
    const uint32x4_t top = vmlaq_n_u32(vmulq_n_u32(ix, (uint32_t)s->bytes_per_pixel), iy, stride);
    if (vmaxvq_u32(top) + stride + 8 > stride * (uint32_t)s->height) return 0;
    uint32_t offsets[4];
    vst1q_u32(offsets, top);
    const uint8_t *p = s->pixels;
    const uint8x16x2_t above = {{vcombine_u8(vld1_u8(p + offsets[0]), vld1_u8(p + offsets[1])),
                                 vcombine_u8(vld1_u8(p + offsets[2]), vld1_u8(p + offsets[3]))}};
    p += stride;
    const uint8x16x2_t below = {{vcombine_u8(vld1_u8(p + offsets[0]), vld1_u8(p + offsets[1])),
                                 vcombine_u8(vld1_u8(p + offsets[2]), vld1_u8(p + offsets[3]))}};
    // The weights over 32 (at most 32 * 32): (left, right) of the four pixels, above and below.
    const uint32x4_t thirty_two = vdupq_n_u32(32);
    const uint32x4_t fx = vandq_u32(vreinterpretq_u32_s32(position.val[0]), vdupq_n_u32(31)), gx = vsubq_u32(thirty_two, fx);
    const uint32x4_t fy = vandq_u32(vreinterpretq_u32_s32(position.val[1]), vdupq_n_u32(31)), gy = vsubq_u32(thirty_two, fy);
    const uint16x8_t w_above = vcombine_u16(vmovn_u32(vmulq_u32(gx, gy)), vmovn_u32(vmulq_u32(fx, gy)));
    const uint16x8_t w_below = vcombine_u16(vmovn_u32(vmulq_u32(gx, fy)), vmovn_u32(vmulq_u32(fx, fy)));
    float32x4x3_t rgb;
    for (int c = 0; c < 3; c++) {
        const uint16x8_t a = vmovl_u8(vqtbl2_u8(above, index[c])), b = vmovl_u8(vqtbl2_u8(below, index[c]));
        uint32x4_t sum = vmull_u16(vget_low_u16(a), vget_low_u16(w_above));
        sum = vmlal_high_u16(sum, a, w_above);
        sum = vmlal_u16(sum, vget_low_u16(b), vget_low_u16(w_below));
        sum = vmlal_high_u16(sum, b, w_below);
        // (32 sum + 2^14) >> 15 = (sum + 2^9) >> 10: the portable level, already within 0...255.
        rgb.val[c] = vfmaq_f32(low, vcvtq_f32_u32(vrshrq_n_u32(sum, 10)), scale);
    }
    vst3q_f32(out + 3 * x, rgb);
    return 1;
}

// A row four pixels at a time, one at a time where a block cannot be (and for the last few), prefetching
// as warp_pixels does (two of the four positions: four tensor pixels lie within a few source pixels).
static void warp_row_neon(const ic_warp_source *s, const int32_t *coordinates, const int32_t *next, int count,
                          float *out, float low, float scale) {
    const int bpp = s->bytes_per_pixel, channel_offsets[3] = {s->red, s->green, s->blue};
    const size_t stride = (size_t)s->width * bpp;
    uint8x8_t index[3];
    for (int c = 0; c < 3; c++) {
        uint8_t lanes[8];
        for (int k = 0; k < 4; k++) {
            lanes[k] = (uint8_t)(8 * k + channel_offsets[c]);
            lanes[4 + k] = (uint8_t)(8 * k + bpp + channel_offsets[c]);
        }
        index[c] = vld1_u8(lanes);
    }
    const float32x4_t vlow = vdupq_n_f32(low), vscale = vdupq_n_f32(scale);
    int x = 0;
    for (; x + 4 <= count; x += 4) {
        if (next) {
            prefetch_pixel(s, next, x, stride);
            prefetch_pixel(s, next, x + 3, stride);
        } else if (x + PREFETCH_AHEAD + 4 <= count) {
            prefetch_pixel(s, coordinates, x + PREFETCH_AHEAD, stride);
            prefetch_pixel(s, coordinates, x + PREFETCH_AHEAD + 3, stride);
        }
        if (!warp_block4_neon(s, coordinates, x, index, out, vlow, vscale))
            warp_pixels(s, coordinates, NULL, x, x + 4, count, out, low, scale);
    }
    warp_pixels(s, coordinates, next, x, count, count, out, low, scale);
}
#endif

int ic_warp_row_kernel(const ic_warp_source *s, const int32_t *coordinates, const int32_t *next, int count, float *out,
                       float low, float scale, int kernel) {
    if (kernel == IC_KERNEL_PORTABLE) {
        warp_pixels(s, coordinates, next, 0, count, count, out, low, scale);
        return 0;
    }
    if (kernel != IC_KERNEL_VECTOR) return -1;
    // The vector paths read at 32-bit offsets: pictures under 2 GiB. Sides up to 32767 keep every
    // coordinate within OpenCV's 16-bit range, which the one-pixel path clamps to.
    const int fits = s->width > 0 && s->height > 0 && s->width <= 32767 && s->height <= 32767 &&
                     (int64_t)s->width * s->bytes_per_pixel * s->height < INT32_MAX - 8;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return -1;
    // The gathers read four bytes per neighbour: RGB(X) pictures.
    if (fits && s->bytes_per_pixel >= 3) warp_row_avx2(s, coordinates, next, count, out, low, scale);
    else warp_pixels(s, coordinates, next, 0, count, count, out, low, scale);
    return 0;
#elif IC_NEON
    if (!ic_cpu_has_neon()) return -1;
    // A pixel's two neighbours on a line within one 8-byte load: 1 to 4 bytes a pixel.
    const int bpp = s->bytes_per_pixel;
    if (fits && bpp >= 1 && bpp <= 4 && s->red >= 0 && s->red < bpp && s->green >= 0 && s->green < bpp &&
        s->blue >= 0 && s->blue < bpp)
        warp_row_neon(s, coordinates, next, count, out, low, scale);
    else
        warp_pixels(s, coordinates, next, 0, count, count, out, low, scale);
    return 0;
#else
    (void)fits;
    return -1;
#endif
}

void ic_warp_row(const ic_warp_source *s, const int32_t *coordinates, const int32_t *next, int count, float *out,
                 float low, float scale) {
    if (ic_warp_row_kernel(s, coordinates, next, count, out, low, scale, IC_KERNEL_VECTOR) != 0)
        warp_pixels(s, coordinates, next, 0, count, count, out, low, scale);
}

void ic_warp_row_portable(const ic_warp_source *s, const int32_t *coordinates, int count, float *out, float low,
                          float scale) {
    warp_pixels(s, coordinates, NULL, 0, count, count, out, low, scale);
}

// ---------------------------------------------------------------- source coordinates

// The coordinates must be OpenCV's to the last bit: no multiply-add may be fused.
#pragma STDC FP_CONTRACT OFF

// One block of `count` columns from column `start` of tensor row `fy`: OpenCV's per-block
// double-precision start, then (x0 + M0·i)·(32 / w) per column, clamped to 32 bits and rounded
// half to even by adding and removing 1.5·2^52 (the sum is exact in double, then cast exactly).
static inline __attribute__((always_inline)) void coordinates_block(const double *m, double fy, int start, int count,
                                                                   int32_t *out) {
    const double magic = 6755399441055744.0, low = -2147483648.0, high = 2147483647.0;
    const double fx = (double)start;
    const double x0 = m[0] * fx + m[1] * fy + m[2];
    const double y0 = m[3] * fx + m[4] * fy + m[5];
    const double w0 = m[6] * fx + m[7] * fy + m[8];
    const double m0 = m[0], m3 = m[3], m6 = m[6];
    for (int i = 0; i < count; i++) {
        const double d = (double)i;
        double w = w0 + m6 * d;
        w = w != 0 ? 32.0 / w : 0.0;
        double sx = (x0 + m0 * d) * w, sy = (y0 + m3 * d) * w;
        sx = sx != sx ? low : sx < low ? low : sx > high ? high : sx;
        sy = sy != sy ? low : sy < low ? low : sy > high ? high : sy;
        out[2 * i] = (int32_t)((sx + magic) - magic);
        out[2 * i + 1] = (int32_t)((sy + magic) - magic);
    }
}

static inline __attribute__((always_inline)) void coordinates_row(const double *m, int y, int width, int height,
                                                                 int32_t *out) {
    // OpenCV walks the tensor in blocks of (at most) 16 rows by 1024/rows columns.
    const int rows = height < 16 ? height : 16;
    const int block = 1024 / rows < width ? 1024 / rows : width;
    for (int start = 0; start < width; start += block) {
        const int count = width - start < block ? width - start : block;
        coordinates_block(m, (double)y, start, count, out + 2 * start);
    }
}

static void coordinates_baseline(const double *m, int y, int width, int height, int32_t *out) {
    coordinates_row(m, y, width, height, out);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f,avx512vl,avx512dq")))
static void coordinates_avx512(const double *m, int y, int width, int height, int32_t *out) {
    coordinates_row(m, y, width, height, out);
}

__attribute__((target("avx2")))
static void coordinates_avx2(const double *m, int y, int width, int height, int32_t *out) {
    coordinates_row(m, y, width, height, out);
}
#endif

void ic_warp_coordinates(const double *matrix, int y, int width, int height, int32_t *coordinates) {
    if (width <= 0 || height <= 0) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
        coordinates_avx512(matrix, y, width, height, coordinates);
        return;
    }
    if (__builtin_cpu_supports("avx2")) {
        coordinates_avx2(matrix, y, width, height, coordinates);
        return;
    }
#endif
    coordinates_baseline(matrix, y, width, height, coordinates);
}
