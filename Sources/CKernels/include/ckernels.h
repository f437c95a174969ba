// CKernels: the hot fp32 inference kernels, with AVX2/FMA variants chosen at run time.
#pragma once
/// 1 when this CPU runs the AVX2/FMA kernel variants.
int vt_cpu_has_avx2_fma(void);
