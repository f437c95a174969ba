#ifndef CPU_FEATURES_H
#define CPU_FEATURES_H
// Which vector kernels of CImageCodecs this CPU runs, asked at run time as CKernels' cpu.c asks.

#if defined(__aarch64__) && defined(__ARM_NEON) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/// 1 where the NEON kernels are compiled in: little-endian AArch64 (their byte layouts assume it).
#define IC_NEON 1
#include <arm_neon.h>
#if defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif
#else
#define IC_NEON 0
#endif

/// Whether this CPU runs the NEON kernels: Advanced SIMD in AT_HWCAP (every arm64 Linux system has it).
static inline int ic_cpu_has_neon(void) {
#if IC_NEON && defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#else
    return IC_NEON;
#endif
}

#endif
