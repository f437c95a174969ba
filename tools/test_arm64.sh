#!/usr/bin/env bash
# `make test-arm64` (not in CI: about an hour under emulation on 2 cores): builds the package for
# aarch64 in the emulated Debian sid arm64 root (tools/arm64_root.sh makes it if missing) with sid's
# Swift, and runs the engine's tests (InferenceTests: kernels with NEON and portable paths, operators,
# model parity) and the tasks' parity tests there, timing each step.
#   ARM64_CONFIG    debug or release (default: release with -enable-testing; a debug build's tests run
#                   too slowly under emulation for the task parity tests)
#   ARM64_TARGETS   the test targets built (default InferenceTests,VisionTasksTests)
#   ARM64_TESTS     the swift test --filter (default: InferenceTests and the task parity tests)
# The server is left out (VISION_TASKS_NO_SERVER, see Package.swift): its packages would add about an
# hour of emulated build, and no test here uses them. -disable-cross-import-overlays: Debian's swiftlang ships the
# _Testing_Foundation module without its library.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${ARM64_CONFIG:-release}
tests=${ARM64_TESTS:-'InferenceTests|VisionTasksTests\.(FaceDetectorParityTests|HandParityTests|faceLandmarkerMatchesMediaPipe)'}
targets=${ARM64_TARGETS:-InferenceTests,VisionTasksTests}
flags="-c $config -Xswiftc -Xfrontend -Xswiftc -disable-cross-import-overlays"
[ "$config" = release ] && flags="$flags -Xswiftc -enable-testing"
env="VISION_TASKS_NO_SERVER=1 VISION_TASKS_TEST_TARGETS=$targets"
root() { bash tools/arm64_root.sh run "$@"; }
step() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    echo "arm64: $name took $((SECONDS - start)) s"
}
step "the root" bash tools/arm64_root.sh create
echo "arm64: uname -m in the root: $(root 'uname -m')"
root '[ -f /src/models/face_landmarker.task ]' \
    || { echo "arm64: the root sees no /src/models/face_landmarker.task (make models fetches the models)" >&2; exit 1; }
root 'swift --version 2>&1 | head -1'
# SwiftPM 6.2.3 sometimes fails to resolve even this graph on its first try (a manifest cache race):
# resolve up to 3 times before building.
step "resolve" root "for i in 1 2 3; do $env swift package resolve && exit 0; done; exit 1"
step "build ($config)" root "$env swift build --product VisionTasksPackageTests $flags"
step "tests" root "$env swift test --skip-build $flags --filter '$tests' 2>&1 | tee /src/.build/arm64-test.log; exit \${PIPESTATUS[0]}"
