// JPEG decoding through stb_image, the decoder MediaPipe's file loader uses, so that a JPEG
// gives exactly MediaPipe's pixels. The bytes pass ic_check_jpeg_structure first (see
// jpeg_structure.c for what stb_image would otherwise trust).
//
// stb_image.h (Debian's libstb-dev) is compiled here, its JPEG part only, rather than linked from
// Debian's libstb: then its colour conversion can be replaced. stb converts YCbCr to RGB in
// SIMD only when it writes four bytes a pixel; for the three we keep, it runs one pixel at a time,
// about half of a colour JPEG's decoding instructions. `ycc_to_rgb` below computes stb's own
// fixed-point formula sixteen pixels at a time (AVX2, chosen at run time) or eight (NEON, part of
// AArch64), the same bytes; every other step is stb's, as stb compiles itself for this CPU
// (SSE2 on x86-64). Tests compare the result with Debian's libstb on every fixture JPEG, and the
// kernels with stb's row function on every (Y, Cb, Cr).
#include "image_codecs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "codec_message.h"
#include "jpeg_structure.h"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
// The picture and stb's component planes (megabytes for a photo) on huge pages, see pixel_memory.c.
#define STBI_MALLOC(size) ic_pixels_alloc(size)
#define STBI_REALLOC(pointer, size) ic_pixels_realloc(pointer, size)
#define STBI_FREE(pointer) ic_pixels_free(pointer)
// stb's functions we do not call (and those its STBI_ONLY_JPEG leaves undefined, which GCC reports
// at the end of the file) are static here, so unused.
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image.h>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

// stb's fixed point (stbi__float2fixed, 12 fractional bits), per channel:
//   r = (16y + 8 + hi(256cr * 5743)) >> 4
//   g = (16y + 8 + hi(256cb * -1410) + hi(256cr * -2925)) >> 4
//   b = (16y + 8 + hi(256cb * 7258)) >> 4,   hi(x) = x >> 16, cb and cr centred on 0,
// then clamped to 0...255: the value stb's one-pixel row computes with 20 fractional bits.
enum { K_CR_R = 5743, K_CB_G = -1410, K_CR_G = -2925, K_CB_B = 7258 };

/// Converts `count` pixels of Y, Cb and Cr rows to packed RGB.
typedef void (*color_row)(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb, const stbi_uc *cr, int count);

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void ycc_to_rgb_avx2(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb,
                                                            const stbi_uc *cr, int count) {
    const __m256i bias = _mm256_set1_epi16(8), center = _mm256_set1_epi16(128);
    const __m256i cr_r = _mm256_set1_epi16(K_CR_R), cb_g = _mm256_set1_epi16(K_CB_G),
                  cr_g = _mm256_set1_epi16(K_CR_G), cb_b = _mm256_set1_epi16(K_CB_B);
    // In each 128-bit lane, `rg` holds 8 pixels' R (bytes 0-7) and G (8-15), `bb` their B (0-7):
    // the first shuffles give the lane's RGB bytes 0-15, the second ones bytes 16-23.
    const __m256i rg_first = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 8, -1, 1, 9, -1, 2, 10, -1, 3, 11, -1, 4, 12, -1, 5));
    const __m256i b_first = _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1));
    const __m256i rg_second = _mm256_broadcastsi128_si256(_mm_setr_epi8(13, -1, 6, 14, -1, 7, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m256i b_second = _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1));
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i yw = _mm256_add_epi16(_mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(y + i))), 4), bias);
        __m256i cbw = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cb + i))), center), 8);
        __m256i crw = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cr + i))), center), 8);
        __m256i r = _mm256_srai_epi16(_mm256_add_epi16(yw, _mm256_mulhi_epi16(crw, cr_r)), 4);
        __m256i g = _mm256_srai_epi16(
            _mm256_add_epi16(_mm256_add_epi16(yw, _mm256_mulhi_epi16(cbw, cb_g)), _mm256_mulhi_epi16(crw, cr_g)), 4);
        __m256i b = _mm256_srai_epi16(_mm256_add_epi16(yw, _mm256_mulhi_epi16(cbw, cb_b)), 4);
        // Saturating packs clamp to 0...255 (pixels 0-7 in the low lane, 8-15 in the high one).
        __m256i rg = _mm256_packus_epi16(r, g);
        __m256i bb = _mm256_packus_epi16(b, b);
        __m256i first = _mm256_or_si256(_mm256_shuffle_epi8(rg, rg_first), _mm256_shuffle_epi8(bb, b_first));
        __m256i second = _mm256_or_si256(_mm256_shuffle_epi8(rg, rg_second), _mm256_shuffle_epi8(bb, b_second));
        stbi_uc *o = out + 3 * i;
        _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(first));
        _mm_storel_epi64((__m128i *)(o + 16), _mm256_castsi256_si128(second));
        _mm_storeu_si128((__m128i *)(o + 24), _mm256_extracti128_si256(first, 1));
        _mm_storel_epi64((__m128i *)(o + 40), _mm256_extracti128_si256(second, 1));
    }
    stbi__YCbCr_to_RGB_row(out + 3 * i, y + i, cb + i, cr + i, count - i, 3);
}
#endif

#if defined(__aarch64__)
static void ycc_to_rgb_neon(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb, const stbi_uc *cr, int count) {
    const uint16x8_t bias = vdupq_n_u16(8);
    const uint8x8_t center = vdup_n_u8(0x80);
    const int16x8_t cr_r = vdupq_n_s16(K_CR_R), cb_g = vdupq_n_s16(K_CB_G), cr_g = vdupq_n_s16(K_CR_G),
                    cb_b = vdupq_n_s16(K_CB_B);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        int16x8_t yw = vreinterpretq_s16_u16(vaddq_u16(vshll_n_u8(vld1_u8(y + i), 4), bias));
        // 128·(c - 128): vqdmulh doubles the product, so hi(256c·k) exactly (never saturating).
        int16x8_t cbw = vshll_n_s8(vreinterpret_s8_u8(veor_u8(vld1_u8(cb + i), center)), 7);
        int16x8_t crw = vshll_n_s8(vreinterpret_s8_u8(veor_u8(vld1_u8(cr + i), center)), 7);
        uint8x8x3_t rgb;
        rgb.val[0] = vqmovun_s16(vshrq_n_s16(vaddq_s16(yw, vqdmulhq_s16(crw, cr_r)), 4));
        rgb.val[1] = vqmovun_s16(vshrq_n_s16(vaddq_s16(vaddq_s16(yw, vqdmulhq_s16(cbw, cb_g)), vqdmulhq_s16(crw, cr_g)), 4));
        rgb.val[2] = vqmovun_s16(vshrq_n_s16(vaddq_s16(yw, vqdmulhq_s16(cbw, cb_b)), 4));
        vst3_u8(out + 3 * i, rgb);
    }
    stbi__YCbCr_to_RGB_row(out + 3 * i, y + i, cb + i, cr + i, count - i, 3);
}
#endif

/// The vector row for this CPU, or NULL (x86-64 without AVX2, other architectures).
static color_row vector_row(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2") ? ycc_to_rgb_avx2 : NULL;
#elif defined(__aarch64__)
    return ycc_to_rgb_neon;
#else
    return NULL;
#endif
}

/// stb's colour-kernel slot: the vector row for the three-byte pixels we decode, stb's own kernel
/// (SIMD where it has one) for any other step.
static void ycc_to_rgb(stbi_uc *out, const stbi_uc *y, const stbi_uc *cb, const stbi_uc *cr, int count, int step) {
    color_row vector = vector_row();
    if (step == 3 && vector != NULL) {
        vector(out, y, cb, cr, count);
        return;
    }
#if defined(STBI_SSE2) || defined(STBI_NEON)
    stbi__YCbCr_to_RGB_simd(out, y, cb, cr, count, step);
#else
    stbi__YCbCr_to_RGB_row(out, y, cb, cr, count, step);
#endif
}

int ic_jpeg_ycbcr_to_rgb(unsigned char *out, const unsigned char *y, const unsigned char *cb, const unsigned char *cr,
                         int count, int kernel) {
    if (kernel == IC_JPEG_COLOR_STB) {
        stbi__YCbCr_to_RGB_row(out, y, cb, cr, count, 3);
        return 0;
    }
    color_row vector = vector_row();
    if (kernel != IC_JPEG_COLOR_VECTOR || vector == NULL) return -1;
    vector(out, y, cb, cr, count);
    return 0;
}

/// stbi_load_from_memory(data, size, ..., 0) for a JPEG (its SOI already checked), with our colour row in
/// stb's kernel slot: stb's JPEG loader itself, once its kernels are set up.
static stbi_uc *load_jpeg(const unsigned char *data, int size, int *width, int *height, int *channels) {
    stbi__context context;
    stbi__start_mem(&context, data, size);
    stbi__jpeg *decoder = (stbi__jpeg *)stbi__malloc(sizeof(stbi__jpeg));
    if (decoder == NULL) return stbi__errpuc("outofmem", "Out of memory");
    decoder->s = &context;
    stbi__setup_jpeg(decoder);
    decoder->YCbCr_to_RGB_kernel = ycc_to_rgb;
    stbi_uc *pixels = load_jpeg_image(decoder, width, height, channels, 0);
    STBI_FREE(decoder);
    return pixels;
}

int ic_decode_jpeg(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message) {
    memset(out, 0, sizeof(*out));
    message[0] = 0;
    if (size > INT_MAX) return ic_fail(message, "file too large (%zu bytes)", size);
    if (ic_check_jpeg_structure(data, size, message)) return 1;
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, (int)size, &width, &height, &channels)) {
        return ic_fail(message, "%s", stbi_failure_reason());
    }
    if (width <= 0 || height <= 0) return ic_fail(message, "unsupported JPEG size %dx%d", width, height);
    // Checked from the header, before stb_image allocates anything for the pixels or coefficients.
    if ((size_t)width * (size_t)height > max_pixels) {
        out->width = width;
        out->height = height;
        return IC_TOO_MANY_PIXELS;
    }
    unsigned char *pixels = load_jpeg(data, (int)size, &width, &height, &channels);
    if (pixels == NULL) return ic_fail(message, "%s", stbi_failure_reason());
    if (channels != 1 && channels != 3) {
        STBI_FREE(pixels);
        return ic_fail(message, "unexpected %d channels", channels);
    }
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->channels = channels;
    return 0;
}
