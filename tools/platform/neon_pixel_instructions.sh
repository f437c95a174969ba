#!/usr/bin/env bash
# Instructions per pixel of CImageCodecs' image kernels on aarch64, portable C against NEON (docs/ARM.md).
# Builds tools/platform/neon_pixel_instructions.c with bilinear_warp.c and pixel_convert.c for aarch64 with the
# Swift toolchain's clang (as SwiftPM compiles them) at -O2 (a release build) and -O0 (a debug build),
# links it statically with Debian's aarch64 cross gcc, runs it under qemu-aarch64 one guest instruction
# per translation block with chaining off (-singlestep -d nochain,exec: one trace line per instruction
# executed), and divides the difference between 3 runs of the kernel and 1 by twice the pixels of a run.
# Not a test (a minute or two); emulation gives counts, not times.
#   tools/platform/neon_pixel_instructions.sh [CLANG]
set -euo pipefail
cd "$(dirname "$0")/../.."
clang=${1:-clang}
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {  # BINARY KIND KERNEL REPS: instructions executed
    "$qemu" -singlestep -d nochain,exec -D "$out/trace" "$1" "$2" "$3" "$4" > /dev/null
    grep -c '^Trace' "$out/trace"
}
printf '%-6s %-14s %12s %12s %8s\n' build kernel portable neon ratio
for opt in -O2 -O0; do
    objects=()
    for source in tools/platform/neon_pixel_instructions.c Sources/CImageCodecs/bilinear_warp.c Sources/CImageCodecs/pixel_convert.c; do
        "$clang" --target=aarch64-linux-gnu --sysroot=/usr/aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include \
            "$opt" -std=gnu11 -ISources/CImageCodecs/include -c "$source" -o "$out/$(basename "$source" .c).o"
        objects+=("$out/$(basename "$source" .c).o")
    done
    aarch64-linux-gnu-gcc -static "${objects[@]}" -lm -o "$out/count$opt"
    for kind in warp-upright warp-rotated i420-rgb i420-xrgb xrgb-rgb; do
        per=()
        for kernel in portable vector; do
            pixels=$("$qemu" "$out/count$opt" "$kind" "$kernel" 1)
            one=$(count "$out/count$opt" "$kind" "$kernel" 1)
            three=$(count "$out/count$opt" "$kind" "$kernel" 3)
            per+=("$(python3 -c "print(f'{($three - $one) / (2 * $pixels):.2f}')")")
        done
        printf '%-6s %-14s %12s %12s %8s\n' "$opt" "$kind" "${per[0]}" "${per[1]}" \
            "$(python3 -c "print(f'{${per[0]} / ${per[1]}:.2f}x')")"
    done
done
