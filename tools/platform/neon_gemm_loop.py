#!/usr/bin/env python3
"""Counts the instructions of the NEON GEMM micro-kernel's inner loops in the generated code.

    tools/platform/neon_gemm_loop.py [CLANG]

Compiles Sources/CKernels/gemm.c for aarch64 at -O2 with clang (the Swift toolchain's, as a release
build does) against Debian's aarch64 C headers (libc6-dev-arm64-cross, which `make setup` installs),
finds the loops of
`ukernel_neon` whose body holds 24 FMLA (the 6x16 block: 6 rows x 4 vectors of 4 floats = 96
multiply-accumulates per k step) and prints each loop's instructions by kind and per
multiply-accumulate. docs/ARM.md turns these into projected times.
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MACS_PER_STEP = 6 * 16


def loops(asm):
    """The innermost loops of ukernel_neon: {header block: [(block, [opcodes])]}, from the loop
    comments clang writes on each block ("Inner Loop Header", "in Loop: Header=...")."""
    body = asm.split("\nukernel_neon:", 1)[1].split(".Lfunc_end", 1)[0]
    found, loop, name = {}, None, None
    for line in body.split("\n"):
        start = re.match(r"^(\.LBB\w+):|^// (%bb\.\d+):", line)
        if start:
            name = start.group(1) or start.group(2)
            if "Inner Loop Header" in line: loop = name.lstrip(".L")
            elif "in Loop: Header=" in line: loop = line.split("Header=")[1].split()[0]
            else: loop = None
            if loop: found.setdefault(loop, []).append((name, []))
        elif loop and line.startswith("\t") and not line.strip().startswith((".", "//")):
            found[loop][-1][1].append(line.split()[0])
    return found


def main():
    clang = sys.argv[1] if len(sys.argv) > 1 else "clang"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "gemm.s"
        subprocess.run([clang, "--target=aarch64-linux-gnu", "-O2", "--sysroot=/usr/aarch64-linux-gnu",
                        "-isystem", "/usr/aarch64-linux-gnu/include", "-I", str(ROOT / "Sources/CKernels/include"),
                        "-S", str(ROOT / "Sources/CKernels/gemm.c"), "-o", str(out)], check=True)
        asm = out.read_text()
    shown = 0
    for header, blocks in loops(asm).items():
        ops = [op for _, block in blocks for op in block]
        fmla = ops.count("fmla")
        if fmla != 24: continue
        shown += 1
        print(f"loop {header}: {len(ops)} instructions in its blocks, {fmla} fmla per k step ({MACS_PER_STEP} MACs)")
        for name, block in blocks:
            loads = sum(op.startswith("ld") for op in block)
            print(f"  {name}: {len(block)} instructions: {block.count('fmla')} fmla, {loads} loads, "
                  f"{len(block) - block.count('fmla') - loads} other; opcodes {' '.join(sorted(set(block)))}")
        print(f"  per MAC: {len(ops) / MACS_PER_STEP:.3f} instructions (all blocks), "
              f"{fmla / MACS_PER_STEP:.3f} FMLA")
    if not shown:
        sys.exit("no 24-FMLA loop found in ukernel_neon")


if __name__ == "__main__":
    main()
