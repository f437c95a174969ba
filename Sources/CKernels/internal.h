// Shared helpers of the CKernels sources (not part of the public header).
#pragma once
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#define VT_X86 1
#include <immintrin.h>
/// Marks a function compiled for AVX2 + FMA (called only after vt_cpu_has_avx2_fma()).
#define VT_AVX2_FN __attribute__((target("avx2,fma")))
/// Marks a function compiled for AVX-512F (called only after vt_cpu_has_avx512()).
#define VT_AVX512_FN __attribute__((target("avx512f,avx2,fma")))
#else
#define VT_X86 0
#endif

#if defined(__aarch64__)
/// AArch64: Advanced SIMD (NEON) is part of the base architecture, so its intrinsics need no target
/// attribute; the NEON variants still run only when the caller asks for VT_ISA_NEON.
#define VT_ARM64 1
#include <arm_neon.h>
#else
#define VT_ARM64 0
#endif

#define VT_INLINE static inline __attribute__((always_inline))
/// Unrolls the loop that follows completely. For a micro-kernel's loop over its accumulator
/// columns: left rolled (as clang leaves it once the kernel is inlined into many variants), the
/// accumulators are indexed at run time, so they live on the stack around the k loop.
#define VT_UNROLL _Pragma("clang loop unroll(full)")

/// Columns of one packed weight panel (two AVX2 registers).
#define VT_NR 16

VT_INLINE size_t vt_round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }
VT_INLINE float vt_clampf(float v, float lo, float hi) {
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

#if VT_X86
/// AVX2 lane mask with the first `count` (0...8) lanes on, for masked loads and stores of a tail.
VT_INLINE VT_AVX2_FN __m256i vt_lane_mask(int count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
/// AVX-512 mask with the first `count` lanes on: none for 0 or less, all 16 for 16 or more.
VT_INLINE __mmask16 vt_mask16(ptrdiff_t count) {
    return count <= 0 ? (__mmask16)0 : count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}
#endif

#if VT_ARM64
/// vt_clampf on 4 lanes with the same comparisons (NaN passes through, signed zeros kept).
VT_INLINE float32x4_t vt_clamp_neon(float32x4_t v, float32x4_t lo, float32x4_t hi) {
    v = vbslq_f32(vcltq_f32(v, lo), lo, v);
    return vbslq_f32(vcgtq_f32(v, hi), hi, v);
}
#endif

/// Calls `name`'s variant for the code path `isa` (VT_ISA_*): `name_avx2` for AVX2 and AVX-512 on x86-64,
/// `name_neon` for NEON on AArch64, else `name_portable`.
#if VT_X86
#define VT_DISPATCH(isa, name, ...)                                                      \
    do {                                                                                 \
        if ((isa) == VT_ISA_AVX2 || (isa) == VT_ISA_AVX512) name##_avx2(__VA_ARGS__);    \
        else name##_portable(__VA_ARGS__);                                               \
    } while (0)
#elif VT_ARM64
#define VT_DISPATCH(isa, name, ...) \
    do { if ((isa) == VT_ISA_NEON) name##_neon(__VA_ARGS__); else name##_portable(__VA_ARGS__); } while (0)
#else
#define VT_DISPATCH(isa, name, ...) do { (void)(isa); name##_portable(__VA_ARGS__); } while (0)
#endif
