#!/usr/bin/env bash
# The NEON kernels of CKernels, and CImageCodecs' warp and pixel conversions, against the portable path
# (tools/platform/neon_kernels_test.c), cross-compiled
# for aarch64 with Debian's gcc-aarch64-linux-gnu and run under qemu-aarch64 (qemu-user-static),
# at -O0 (as a debug build compiles them) and -O2 (release); then the JPEG decoder's NEON colour row
# against stb_image's own row (tools/platform/jpeg_color_test.c); then the GEMM micro-kernel as clang -O2
# compiles it for aarch64 (tools/platform/neon_gemm_loop.py fails unless a loop of ukernel_neon holds the
# 24 FMLA of the 6x16 block; it prints the loops' instruction counts). A few seconds; `make test` runs it.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$SECONDS
out=.build/neon-kernels
mkdir -p "$out"
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
[ -n "$qemu" ] || { echo "neon kernels: qemu-aarch64 is missing (make setup installs qemu-user-static)" >&2; exit 1; }
for opt in -O0 -O2; do
    # -ffp-contract=off: gcc ignores bilinear_warp.c's FP_CONTRACT pragma (clang, which SwiftPM uses, honours it).
    aarch64-linux-gnu-gcc "$opt" -std=gnu11 -Wall -Werror -Wno-unknown-pragmas -ffp-contract=off \
        -ISources/CKernels/include -ISources/CImageCodecs/include tools/platform/neon_kernels_test.c Sources/CKernels/*.c \
        Sources/CImageCodecs/bilinear_warp.c Sources/CImageCodecs/pixel_convert.c -lm -lpthread -o "$out/test$opt"
    echo "neon kernels ($opt):"
    "$qemu" -L /usr/aarch64-linux-gnu "$out/test$opt"
    aarch64-linux-gnu-gcc "$opt" -std=gnu11 -Wall -Werror -Wno-unknown-pragmas -ISources/CImageCodecs/include \
        -idirafter "$(pkg-config --variable=includedir stb)" tools/platform/jpeg_color_test.c Sources/CImageCodecs/jpeg_decode.c \
        Sources/CImageCodecs/jpeg_structure.c Sources/CImageCodecs/pixel_memory.c Sources/CImageCodecs/exif_turn.c \
        -lpthread -o "$out/jpeg-color$opt"
    "$qemu" -L /usr/aarch64-linux-gnu "$out/jpeg-color$opt"
done
python3 tools/platform/neon_gemm_loop.py "${CLANG:-clang}"
echo "neon kernels: cross-compiled and run under $(basename "$qemu") in $((SECONDS - start)) s"
