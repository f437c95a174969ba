// CKernels: the hot fp32 inference kernels, with AVX2/FMA (x86-64) and NEON (AArch64) variants
// chosen at run time.
//
// Tensors are NHWC fp32, densely packed. Kernels know nothing of models: they take pointers,
// shapes and parameters, never allocate, and compute one work range [begin, end) per call so
// the caller can split a call across threads. `isa` picks the code path: VT_ISA_PORTABLE
// (plain C, correct on any CPU), VT_ISA_AVX2 (requires vt_cpu_has_avx2_fma()) or VT_ISA_AVX512
// (requires vt_cpu_has_avx512(); kernels without an AVX-512 variant run their AVX2 one) or
// VT_ISA_NEON (requires vt_cpu_has_neon()). A selector for the other architecture runs the portable path.
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this CPU runs the AVX2/FMA kernel variants.
int vt_cpu_has_avx2_fma(void);

/// Code path selector: plain C for any CPU.
#define VT_ISA_PORTABLE 0
/// Code path selector: AVX2 + FMA intrinsics (only when vt_cpu_has_avx2_fma() is 1).
#define VT_ISA_AVX2 1
/// Code path selector: AVX-512F GEMM micro-kernels, AVX2 elsewhere (only when vt_cpu_has_avx512() is 1).
#define VT_ISA_AVX512 2

/// 1 when this CPU (and OS) runs the AVX-512F variants (AVX2 and FMA included).
int vt_cpu_has_avx512(void);

/// Code path selector: AArch64 Advanced SIMD (NEON) intrinsics (only when vt_cpu_has_neon() is 1).
#define VT_ISA_NEON 3

/// 1 on an AArch64 CPU with Advanced SIMD (every Linux arm64 system), 0 elsewhere.
int vt_cpu_has_neon(void);

/// Shapes and parameters of a 2-D window operation (convolution, depthwise convolution, pooling).
/// The input is [batch, in_h, in_w, in_c], the output [batch, out_h, out_w, out_c]. Output pixel
/// (oy, ox) reads input rows oy*stride_h - pad_top + ky*dil_h, ky < k_h (columns likewise);
/// taps outside the input read zero (convolutions) or are skipped (pooling).
typedef struct vt_conv_geometry {
    int batch;
    int in_h, in_w, in_c;
    int out_h, out_w, out_c;
    int k_h, k_w;
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;
} vt_conv_geometry;

/// 1 when the geometry is self-consistent (all sizes positive, no overflow); kernels assume it.
int vt_conv_geometry_valid(const vt_conv_geometry *g);

// ---- CONV_2D (filter OHWI) and FULLY_CONNECTED (weights [O, I]) through one packed GEMM ----

/// Floats needed for packed conv weights of this geometry (bias + 16-column panels).
size_t vt_conv2d_packed_count(const vt_conv_geometry *g);
/// Packs an OHWI filter [out_c, k_h, k_w, in_c] and an optional bias [out_c] (NULL = zero).
void vt_conv2d_pack(const vt_conv_geometry *g, const float *filter, const float *bias, float *packed);
/// Floats of scratch one thread needs for vt_conv2d (0 for 1x1 convolutions without padding).
size_t vt_conv2d_scratch_count(const vt_conv_geometry *g);
/// What CONV_2D does to each result after adding the bias: add `residual` (NULL = none; a tensor
/// of the output's shape, which may be the output itself, or with `residual_channels` channels
/// where that is above 0, fewer than the output's: channels past them add zero), clamp to
/// [lo, hi], then apply PReLU with per-output-channel slopes `prelu_alpha` (NULL = none). This
/// fuses CONV_2D → ADD → PRELU, and a channel PAD with zeros on the ADD's other input.
typedef struct vt_epilogue {
    float lo, hi;
    const float *residual;
    const float *prelu_alpha;
    int residual_channels;
} vt_epilogue;

/// Output pixels [m_begin, m_end) of the flattened range batch*out_h*out_w and output channels
/// [col_begin, col_end) (multiples of 16, or col_end = out_c), finished by `ep`. `scratch` holds
/// vt_conv2d_scratch_count floats private to this call.
void vt_conv2d(const vt_conv_geometry *g, const float *input, const float *packed, float *output,
               const vt_epilogue *ep, float *scratch, size_t m_begin, size_t m_end, size_t col_begin,
               size_t col_end, int isa);

/// Floats needed for packed fully-connected weights with `in_features` inputs, `out_features` outputs.
size_t vt_fc_packed_count(int in_features, int out_features);
/// Packs weights [out_features, in_features] and an optional bias [out_features] (NULL = zero).
void vt_fc_pack(int in_features, int out_features, const float *weights, const float *bias, float *packed);
/// Rows [row_begin, row_end) of output [rows, out_features] = input [rows, in_features] x W^T + bias.
void vt_fc(int in_features, int out_features, const float *input, const float *packed, float *output,
           float lo, float hi, size_t row_begin, size_t row_end, int isa);

// ---- DEPTHWISE_CONV_2D (filter [1, k_h, k_w, out_c], out_c = in_c * multiplier) ----

/// Floats needed for packed depthwise weights of this geometry.
size_t vt_dwconv_packed_count(const vt_conv_geometry *g);
/// Packs a depthwise filter [1, k_h, k_w, out_c] and an optional bias [out_c] (NULL = zero).
void vt_dwconv_pack(const vt_conv_geometry *g, const float *filter, const float *bias, float *packed);
/// Output rows [row_begin, row_end) of the flattened range batch*out_h, clamped to [lo, hi].
void vt_dwconv(const vt_conv_geometry *g, const float *input, const float *packed, float *output,
               float lo, float hi, size_t row_begin, size_t row_end, int isa);

// ---- Pooling (out_c == in_c; dilation ignored) ----

/// MAX_POOL_2D over output rows [row_begin, row_end) of batch*out_h; padded taps are skipped.
void vt_maxpool(const vt_conv_geometry *g, const float *input, float *output, float lo, float hi,
                size_t row_begin, size_t row_end, int isa);

// ---- Convolution2DTransposeBias (MediaPipe's custom operator; filter OHWI [out_c, k_h, k_w, in_c]) ----

/// Output rows [row_begin, row_end) of batch*out_h of a transposed convolution: input pixel (iy, ix)
/// adds filter-weighted values to output pixels (iy*stride_h - pad_top + ky, ix*stride_w - pad_left + kx);
/// each output is bias[oc] plus those sums (dilation ignored). `columns` holds, per output column, the
/// first and last input column covering it (last < first: none).
void vt_transpose_conv(const vt_conv_geometry *g, const float *input, const float *filter, const float *bias,
                       float *output, const int *columns, size_t row_begin, size_t row_end, int isa);

// ---- Elementwise ----

/// PRELU with per-channel alpha: out[i*channels + c] = x >= 0 ? x : alpha[c] * x, for pixels
/// [begin, end) of a [pixels, channels] tensor.
void vt_prelu(const float *input, const float *alpha, float *output, size_t channels,
              size_t begin, size_t end, int isa);
/// out[i] = clamp(a[i] + b[i], lo, hi) for i in [begin, end).
void vt_add(const float *a, const float *b, float *output, float lo, float hi,
            size_t begin, size_t end, int isa);

// ---- RESIZE_BILINEAR (resize.c) ----

/// One output coordinate of a bilinear resize along an axis: its two source indices and the weight of
/// `upper` (`lower` gets 1 - weight).
typedef struct vt_bilinear_tap {
    ptrdiff_t lower, upper;
    float weight;
} vt_bilinear_tap;

/// RESIZE_BILINEAR of a [batch, in_h, in_w, channels] input, output rows [row_begin, row_end) of batch*out_h
/// (`rows` out_h taps, `columns` out_w taps, every index inside the input): each output is TFLite's
/// p00*w00 + p10*w10 + p01*w01 + p11*w11 (w00 = (1 - wy)(1 - wx), ...), each product rounded and added in
/// that order (no fused multiply-add, on every path), then clamped to [lo, hi].
void vt_resize_bilinear(const float *input, float *output, size_t in_h, size_t in_w, size_t channels,
                        const vt_bilinear_tap *rows, size_t out_h, const vt_bilinear_tap *columns, size_t out_w,
                        float lo, float hi, size_t row_begin, size_t row_end, int isa);

// ---- Layout (transpose.c) ----

/// dst[c*dst_stride + r] = src[r*src_stride + c] for r in [0, rows), c in [0, cols): a rows×cols block
/// transposed. Source and destination must not overlap.
void vt_transpose(const float *src, size_t src_stride, float *dst, size_t dst_stride, size_t rows, size_t cols,
                  int isa);

// ---- Worker pool (pool.c) ----

/// One part of a split kernel call: runs part `part` of the job at `ctx` on thread `thread`
/// (0 = the caller, below the call's thread count: it picks per-thread scratch).
typedef void (*vt_part_fn)(void *ctx, int part, int thread);
/// Runs fn(ctx, p, t) for every p in [0, parts) on the caller (t = 0) and up to threads - 1
/// persistent worker threads (started on first use, at most 63), each part once, and returns when
/// all have finished. Thread t first runs its own contiguous range of the parts, in order; a thread
/// out of parts then takes the others' unclaimed ones from the back. Allocates nothing once the
/// workers exist. A call made while another thread's call holds the pool runs all its parts on its
/// own thread rather than wait; fn must not call it.
void vt_parallel_run(int parts, int threads, vt_part_fn fn, void *ctx);
/// With `serial` 1, vt_parallel_run calls made on this thread run every part on it (a thread that
/// runs one of several models at once, each on its own core); 0 restores splitting. Returns the
/// previous setting.
int vt_pool_set_serial(int serial);
/// 1 when this thread's vt_parallel_run calls run every part on it (vt_pool_set_serial).
int vt_pool_serial(void);

/// What the pool has done since the process started, counted only while vt_pool_count is on.
typedef struct vt_pool_stats {
    unsigned long long jobs;         // jobs published to the workers: one hand-off each
    unsigned long long parts;        // parts of those jobs
    unsigned long long worker_parts; // of which run by a worker (the rest by the caller)
    unsigned long long join_waits;   // jobs whose caller ran out of parts before the workers finished
    unsigned long long join_sleeps;  // of which the caller slept on the futex
    unsigned long long join_wait_ns; // the caller's time waiting for the workers
} vt_pool_stats;
/// Turns the counters on (1) or off (0); off, counting costs one predictable branch per call.
void vt_pool_count(int on);
/// Reads the counters.
void vt_pool_stats_read(vt_pool_stats *stats);
/// Worker threads started so far (0 before the first split call, or when none could start).
int vt_pool_workers(void);
/// Median nanoseconds of one round trip of a cache line between CPUs 0 and 1 (the caller, pinned
/// there meanwhile, and a fresh thread) over `batches` batches of `rounds` round trips; 0 when the
/// thread cannot start or the process may run on one CPU only.
double vt_pingpong_ns(int batches, int rounds);
/// The pool's hand-off cost on this host: median wall nanoseconds of an empty job split over two
/// threads (published, claimed by a worker, joined), measured on the first call (8 ms at most)
/// and cached; VT_PROBE_TIMEOUT_NS (1 ms) when most workers came later than that, 0 when no worker runs. The environment
/// variable VT_POOL_HANDOFF_NS, when set, is taken instead of measuring (benches, tests). Includes VT_POOL_HANDOFF_DELAY_NS (pool.c).
double vt_pool_handoff_ns(void);
/// Measures the hand-off again when the last measurement came late (another process held the worker's core at that
/// moment) and its wait has passed: 0.1 s after the first late one, doubling to 64 s; returns 1 when it measured. Else
/// one atomic load: callers run it before each multi-threaded model run. A serial thread (vt_pool_serial: it runs
/// inside a pool job, whose caller holds the pool) does not measure: every probe would come late.
int vt_pool_handoff_refresh(void);
/// Tests: replaces the recorded hand-off by `ns`; a late value (VT_PROBE_TIMEOUT_NS) is measured again at the next
/// vt_pool_handoff_refresh.
void vt_pool_handoff_set(double ns);
/// A hand-off probe's worker later than this many nanoseconds counts as late (asleep, or its core taken): the
/// probe's wait for it ends there, and `vt_pool_handoff_ns` gives this value when most workers came late.
#define VT_PROBE_TIMEOUT_NS 1000000
/// What two cores give at once: the median over `rounds` rounds (1...101) of each core's arithmetic
/// speed while CPUs 0 and 1 both compute (about `milliseconds`, up to 100, each), as a share of CPU 0's
/// alone just before. 1: the cores are independent; 0.5: they share one core's units (hyperthreads of
/// one core, or a core whose other hyperthread another tenant keeps busy). 0 when it cannot run.
double vt_two_core_share(int rounds, double milliseconds);

#ifdef __cplusplus
}
#endif
