#include "ckernels.h"
#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

int vt_cpu_has_avx2_fma(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

int vt_cpu_has_avx512(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return vt_cpu_has_avx2_fma() && __builtin_cpu_supports("avx512f");
#else
    return 0;
#endif
}

int vt_cpu_has_neon(void) {
#if defined(__aarch64__) && defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#elif defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}
