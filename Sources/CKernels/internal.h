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

#define VT_INLINE static inline __attribute__((always_inline))

/// Columns of one packed weight panel (two AVX2 registers).
#define VT_NR 16

VT_INLINE size_t vt_round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }
VT_INLINE float vt_clampf(float v, float lo, float hi) {
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}
