#!/usr/bin/env python3
"""The task parity figures of two test logs side by side, as Markdown: an x86-64 run and an aarch64
run (`make test-arm64` writes .build-arm64/root/src/.build/arm64-test.log). It pairs the lines the
parity tests print (FaceDetectorParityTests, faceLandmarkerMatchesMediaPipe, HandParityTests and
their gesture scores) by what they measure, and fails when an aarch64 line has no x86-64 partner or a log has none
(the x86-64 log may hold more: a full run has suites the aarch64 run leaves out).

Usage: python3 tools/arm_parity_table.py X86_LOG ARM64_LOG >> docs/arm-parity.md
"""
import re
import sys

# (prefix, the measure's name up to ':', the figures after it)
PATTERNS = [re.compile(r"^(FaceDetector parity over \d+ images): (.*)$"),
            re.compile(r"^(face-landmarker parity \S+): (.*)$"),
            re.compile(r"^(hands .*?) \(tolerances[^)]*\): (.*)$"),
            re.compile(r"^(gestures .*?): (.*)$")]


def figures(path):
    found = {}
    with open(path, errors="replace") as log:
        for line in log:
            for pattern in PATTERNS:
                match = pattern.match(line.strip())
                if match:
                    found[match.group(1)] = match.group(2)
                    break
    if not found:
        sys.exit(f"arm_parity_table: no parity lines in {path}")
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    x86, arm = figures(sys.argv[1]), figures(sys.argv[2])
    missing = sorted(set(arm) - set(x86))
    if missing:
        sys.exit("arm_parity_table: measured on aarch64 only: " + "; ".join(missing))
    print("| what | x86-64 | aarch64 |")
    print("|---|---|---|")
    for name in sorted(arm):
        print(f"| {name} | {x86[name]} | {arm[name]} |")
    same = sum(x86[name] == arm[name] for name in arm)
    print(f"\n{len(arm)} measures; {same} print the same figures on both.")


if __name__ == "__main__":
    main()
