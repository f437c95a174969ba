// JPEG and PNG decoding/encoding for VisionCore: JPEG decoding over stb_image (the decoder
// MediaPipe's file loader uses) behind our own structure check, JPEG encoding over
// libjpeg-turbo, PNG over libdeflate (8-bit, non-interlaced, no tRNS) or else libpng; RGB to I420 for video encoders; the bilinear image-to-tensor
// warp's source coordinates and sampling. Every error is caught inside this C code (setjmp/longjmp
// never crosses a Swift frame) and returned as a non-zero code with a message.
#ifndef IMAGE_CODECS_H
#define IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A decoded image: `pixels` (from `ic_pixels_alloc`, free with `ic_pixels_free`) holds `height` rows of
/// `width * channels` bytes, no padding. `channels` is 1 (gray), 3 (RGB) or 4 (RGBA).
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
    int channels;
} ic_image;

/// Returned by the decoders when the header declares more than `max_pixels` pixels: nothing was
/// decoded or allocated for the pixels, and `out->width`, `out->height` hold the declared size.
#define IC_TOO_MANY_PIXELS 2

/// Size of the message buffers the functions below fill on failure.
#define IC_MESSAGE_SIZE 256

/// Decodes a JPEG (baseline, progressive, gray, YCbCr, CMYK/YCCK) to gray or RGB, pixel for
/// pixel as stb_image does, after checking its marker structure (truncated files are refused) and
/// that its header declares at most `max_pixels` pixels, and turns it as its EXIF orientation `exif`
/// (1...8, read by the caller; see `ic_turn_rows`) says: `out` holds the turned picture. A baseline
/// YCbCr photo is decoded, and turned, a band of MCU rows at a time (the picture and a few rows of
/// samples in memory, not whole planes nor a second picture).
/// Returns 0 on success, IC_TOO_MANY_PIXELS for a larger header; otherwise fills `message` and returns 1.
int ic_decode_jpeg(const unsigned char *data, size_t size, size_t max_pixels, int exif, ic_image *out, char *message);

/// Whether EXIF orientation `exif` (1...8) turns a picture a quarter (5...8: width and height swap).
int ic_turn_swaps_sides(int exif);

/// Turns `count` rows, rows `first`... of a `width`×`height` picture of `channels` bytes a pixel (compact
/// rows at `rows`), into `target`, the picture turned as EXIF orientation `exif` says (2 mirrored, 3 half
/// a turn, 4 upside down, 5 transposed, 6 a quarter turn clockwise, 7 transposed the other way, 8 a quarter
/// turn counterclockwise; any other value: unchanged), as MediaPipe's file loader turns a photo: `height`
/// rows of `width` pixels, or `width` rows of `height` when `ic_turn_swaps_sides(exif)`.
void ic_turn_rows(const unsigned char *rows, int count, int first, int width, int height, int channels, int exif,
                  unsigned char *target);

/// Whether the last `ic_decode_jpeg` call on this thread decoded its scan band by band (a baseline
/// YCbCr JPEG with its three components in one scan), holding two MCU rows of samples rather than
/// whole planes; else stb_image's own loader decoded it (for tests).
int ic_jpeg_last_decode_in_bands(void);

/// The JPEG decoder's YCbCr-to-RGB rows (for tests): stb_image's own, one pixel at a time.
#define IC_JPEG_COLOR_STB 0
/// Ours, the one `ic_decode_jpeg` uses where the CPU has it: AVX2 on x86-64, NEON on AArch64.
#define IC_JPEG_COLOR_VECTOR 1

/// Converts `count` pixels of Y, Cb and Cr samples to `count` packed RGB triples with `kernel`;
/// returns 0, or -1 (nothing written) when that kernel cannot run on this CPU. `out` holds
/// 3 * count + 1 bytes: stb's row writes a fourth byte after its last pixel (as into the next row,
/// or the spare byte stb allocates after the picture).
int ic_jpeg_ycbcr_to_rgb(unsigned char *out, const unsigned char *y, const unsigned char *cb, const unsigned char *cr,
                         int count, int kernel);

/// Decodes a PNG of any bit depth and colour type to 8-bit gray, gray+alpha (2),
/// RGB or RGBA: palettes expand to RGB, tRNS becomes an alpha channel, 1/2/4-bit
/// gray is scaled to 0...255, 16-bit samples keep their high byte. Returns as `ic_decode_jpeg`.
/// The common files go through `ic_decode_png_deflate`, every other one through `ic_decode_png_libpng`.
int ic_decode_png(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message);

/// `ic_decode_png` on bytes the caller lets it rearrange (a file read only to be decoded): a file's
/// several IDAT chunks are moved together where they lie rather than copied (a photo's compressed size
/// less memory). On success the bytes are left rearranged; otherwise they hold the file again.
int ic_decode_png_in_place(unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message);

/// `ic_decode_png` through libpng alone (every PNG; the tests compare the two paths).
int ic_decode_png_libpng(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message);

/// Returned by `ic_decode_png_deflate` for a file it leaves to libpng (nothing allocated).
#define IC_PNG_NOT_HANDLED (-1)

/// Decodes an 8-bit, non-interlaced gray, gray+alpha, RGB or RGBA PNG without tRNS, every chunk's CRC
/// and the stream's Adler-32 sound, within `max_pixels`, with libdeflate: returns 0 and fills `out`
/// with the bytes libpng gives, or IC_PNG_NOT_HANDLED for any other file (libpng then decides).
int ic_decode_png_deflate(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out);

/// `ic_decode_png_deflate` rearranging the bytes as `ic_decode_png_in_place` (put back when it returns
/// IC_PNG_NOT_HANDLED, so libpng then reads the file).
int ic_decode_png_deflate_in_place(unsigned char *data, size_t size, size_t max_pixels, ic_image *out);

/// Encodes 8-bit pixels (`channels` 1, 3 or 4; rows `stride` bytes apart) as PNG, deflated at zlib
/// `level` 1 (fastest) ... 9 (smallest). On success `*out` (free with `ic_free`) holds `*out_size` bytes.
int ic_encode_png(const unsigned char *pixels, int width, int height, size_t stride, int channels, int level,
                  unsigned char **out, size_t *out_size, char *message);

/// Encodes 8-bit gray (1) or RGB (3) pixels as a baseline JPEG of `quality` 1...100.
int ic_encode_jpeg(const unsigned char *pixels, int width, int height, size_t stride, int channels,
                   int quality, unsigned char **out, size_t *out_size, char *message);

/// The kernels a conversion can run (for tests, which compare them): the portable C every CPU runs,
/// or this CPU's vector kernel (NEON on AArch64; AVX2 on x86-64, SSSE3 for `ic_expand_xrgb`).
#define IC_KERNEL_PORTABLE 0
#define IC_KERNEL_VECTOR 1

/// Pixel layouts `ic_pack_i420` reads: packed RGB bytes, or Cairo's little-endian xRGB words (B, G, R, x).
#define IC_LAYOUT_RGB 0
#define IC_LAYOUT_BGRX 1

/// Converts `width`×`height` pixels in `layout` (rows `stride` bytes apart) to I420 (planar YUV
/// 4:2:0, BT.601 limited range, ffmpeg's default for RGB to yuv420p) of the even size w2×h2
/// (odd sizes grow by one, the last column or row repeated); chroma is each 2×2 block's mean.
/// `dst` holds w2*h2 + 2*(w2/2)*(h2/2) bytes: the Y, U and V planes, rows packed.
void ic_pack_i420(const unsigned char *src, size_t stride, int width, int height, int layout, unsigned char *dst);
/// `ic_pack_i420` with `kernel` (IC_KERNEL_*); returns 0, or -1 (nothing written) when this CPU has no such kernel.
int ic_pack_i420_kernel(const unsigned char *src, size_t stride, int width, int height, int layout, unsigned char *dst,
                        int kernel);

/// Copies `width`×`height` pixels of `channels` (3: RGB, 4: RGBX, the fourth byte ignored) bytes,
/// rows `src_stride` bytes apart, into Cairo's opaque xRGB words (0xFF000000 | R << 16 | G << 8 | B,
/// native byte order), rows `dst_stride` bytes apart (a multiple of 4).
void ic_expand_xrgb(const unsigned char *src, size_t src_stride, int channels, unsigned char *dst, size_t dst_stride,
                    int width, int height);
/// `ic_expand_xrgb` with `kernel` (IC_KERNEL_*); returns 0, or -1 (nothing written) when this CPU has no such kernel.
int ic_expand_xrgb_kernel(const unsigned char *src, size_t src_stride, int channels, unsigned char *dst,
                          size_t dst_stride, int width, int height, int kernel);

/// The picture a warp samples: `height` compact rows of `width` pixels of `bytes_per_pixel`
/// bytes, with the red, green and blue bytes at those offsets in a pixel (all 0 for gray).
typedef struct {
    const unsigned char *pixels;
    int width, height, bytes_per_pixel;
    int red, green, blue;
    /// 1: neighbours outside the picture read zero; 0: the nearest edge pixel.
    int zero_border;
} ic_warp_source;

/// One tensor row of VisionCore's BilinearWarp: `count` RGB float triples into `out`, from source
/// positions `coordinates` ((x, y) pairs in 1/32 pixel), weighted with OpenCV's 15-bit integer
/// coefficients; each resulting level l (0...255) is stored as fmaf(l, scale, low). `next` (or NULL):
/// the coordinates of the row sampled next, whose source lines are prefetched meanwhile.
void ic_warp_row(const ic_warp_source *source, const int32_t *coordinates, const int32_t *next, int count, float *out,
                 float low, float scale);
/// ic_warp_row one pixel at a time, without SIMD (what it does on CPUs without AVX2 or NEON; for tests).
void ic_warp_row_portable(const ic_warp_source *source, const int32_t *coordinates, int count, float *out, float low,
                          float scale);
/// ic_warp_row with `kernel` (IC_KERNEL_*; the vector kernel: AVX2 eight pixels at a time, NEON four
/// where all their neighbours are inside; a picture either does not take goes one pixel at a time, see
/// bilinear_warp.c); returns 0, or -1 (nothing written) when this CPU has no such kernel.
int ic_warp_row_kernel(const ic_warp_source *source, const int32_t *coordinates, const int32_t *next, int count,
                       float *out, float low, float scale, int kernel);

/// The source positions of tensor row `y` of a `width`×`height` tensor for ic_warp_row, as OpenCV's
/// warpPerspective computes them: `matrix` (row-major 3×3, doubles) maps tensor (x, y, 1) to
/// homogeneous source coordinates; `coordinates` receives `width` (x, y) pairs in 1/32 pixel.
void ic_warp_coordinates(const double *matrix, int y, int width, int height, int32_t *coordinates);

/// Output rows [row_begin, row_end) of a `sw`×`sh` float plane resized to `dw`×`dh` as OpenCV's
/// cv::resize with INTER_LINEAR (no antialiasing). Scratch (one set per concurrent call):
/// `scratch_index` of 2·dw + dh, `scratch_weight` of dw + dh, `scratch_rows` of 2·dw.
void ic_resize_plane_linear(const float *src, int sw, int sh, float *dst, int dw, int dh, int row_begin,
                            int row_end, int32_t *scratch_index, float *scratch_weight, float *scratch_rows);
/// One row of `width` floats resized to `count`: `out[x] = row[xi[x]]·(1 − xw[x]) + row[xn[x]]·xw[x]` (with AVX2
/// eight outputs at a time where their taps lie within eight values; the same bits either way).
void ic_resize_row_linear(const float *row, int width, const int32_t *xi, const int32_t *xn, const float *xw, int count,
                          float *out);
/// Output rows [row_begin, row_end) of the segmenter's category mask at `ow`×`oh` from a
/// `width`×`height`×`channels` tensor, as MediaPipe's ProcessForCategoryMaskCpu: each pixel samples
/// the tensor bilinearly with corners aligned, then (after a sigmoid when `sigmoid`) one channel gives
/// 0 above 0.5 and 255 elsewhere, several the index of the largest. Scratch (one set per concurrent
/// call): `scratch_index` of 2·ow, `scratch_weight` of ow, `scratch_row` of (width + 1)·channels.
void ic_segmentation_category(const float *values, int width, int height, int channels, int sigmoid, uint8_t *out,
                              int ow, int oh, int row_begin, int row_end, int32_t *scratch_index,
                              float *scratch_weight, float *scratch_row);

/// Frees memory the encoders return.
void ic_free(void *pointer);

/// Blocks from `ic_pixels_alloc` of this many bytes or more get a mapping of their own, marked for
/// transparent huge pages (a decoded photo then costs a page fault per 2 MiB rather than per 4 KiB).
#define IC_PIXELS_LARGE ((size_t)4 << 20)

/// Memory for pixels (the decoders' results, `MPImage`'s storage): 16-byte aligned, zeroed (no byte
/// of an earlier picture shows through); NULL when memory is short. Free with `ic_pixels_free`;
/// `ic_pixels_realloc` as realloc.
void *ic_pixels_alloc(size_t size);
/// As `ic_pixels_alloc`, not zeroed: for a caller that writes every byte before any is read (a file
/// read, a picture decoded band by band), which then skips clearing a kept block.
void *ic_pixels_alloc_overwritten(size_t size);
/// As `ic_pixels_alloc`, not zeroed, for memory that may never be touched (stb's component planes,
/// which a picture decoded band by band leaves alone): a large block is a fresh small-page mapping,
/// unmapped when freed rather than kept, so only the pages written take memory.
void *ic_pixels_alloc_untouched(size_t size);
void *ic_pixels_realloc(void *pointer, size_t size);
void ic_pixels_free(void *pointer);
/// Unmaps the blocks kept for reuse that were freed `seconds` ago or earlier (0: all of them), for a
/// process gone idle (a server between requests); returns how many stay kept.
int ic_pixels_release_kept(double seconds);
/// Returns the free pages inside malloc's heaps to the system (glibc's malloc_trim; elsewhere nothing).
void ic_trim_heap(void);

/// The background effect's full-frame passes (background_blend.c). Shrinks packed RGB of `width`×`height` by
/// `factor`: each working pixel the rounded mean of its block (smaller at the right and bottom edges);
/// `sums` holds `width` × 3 counters.
void ic_bg_shrink(const unsigned char *src, int width, int height, int factor, unsigned char *rgb, unsigned int *sums);
/// The mean over each value's (2·radius+1)² window of the `width`×`height` plane `src`, the window clipped to
/// the plane and each sum divided by the values inside it, into `dst` (not `src`); `scratch` holds 10·width floats.
void ic_box_mean(const float *src, int width, int height, int radius, float *dst, float *scratch);
/// The frame composed over the background into `dst` (packed RGB, `width`×`height`): per pixel α = clamp(a·Y + b)
/// with Y its luminance and a, b the first two of `count` planes (`sw`×`sh`) brought up bilinearly along the
/// taps (`xi`, `xw`: first column and weight of the next, per output column; `yi`, `yw` per row); the background
/// the next three planes (R, G, B) brought up alike when `count` is 5, else the `cover` picture (packed RGB of the
/// frame's size) when given, else the colour `fixed`. `wide` holds count·2·width floats. Returns 0, or -1
/// (nothing written) when memory is short.
int ic_bg_compose(const unsigned char *src, unsigned char *dst, int width, int height, const float *const *planes,
                   int count, int sw, int sh, const int *xi, const float *xw, const int *yi, const float *yw,
                   const unsigned char *cover, const float *fixed, float *wide);

#ifdef __cplusplus
}
#endif

#endif
