#!/usr/bin/env bash
# `make test-arm64` (not in CI: about two hours under emulation on 2 cores, the first time): builds the
# package for aarch64 in the emulated Debian sid arm64 root (tools/platform/arm64_root.sh makes it if missing)
# with sid's Swift, the server included; runs the engine's tests (InferenceTests: kernels with NEON and
# portable paths, operators, model parity) and the face detector's, face landmarker's and hands' parity tests there;
# then runs the `vision-tasks` tool end to end in the root (tools/platform/arm64_e2e.sh: five tasks, all but the
# Image Segmenter, on the fixture
# images, a video, `serve` answering one request per task) and holds its results to those of the
# host's x86-64 build of the same sources within the parity tolerances (tools/platform/arm64_e2e_compare.py).
# Each step is timed; the script fails if a build, the tests or a check of the tool failed.
#   ARM64_CONFIG    debug or release (default: release with -enable-testing; a debug build's tests run
#                   too slowly under emulation for the task parity tests)
#   ARM64_TARGETS   the test targets built (default InferenceTests,VisionTasksTests)
#   ARM64_TESTS     the swift test --filter (default: InferenceTests and the task parity tests)
#   ARM64_E2E       0 skips the tool's end-to-end run (and the host's build it is compared with)
#   SWIFT           the host's swift, for the x86-64 references (default swift)
# -disable-cross-import-overlays: Debian's swiftlang ships the _Testing_Foundation module without its library.
set -euo pipefail
cd "$(dirname "$0")/../.."
config=${ARM64_CONFIG:-release}
tests=${ARM64_TESTS:-'InferenceTests|VisionTasksTests\.(FaceDetectorParityTests|HandParityTests|faceLandmarkerMatchesMediaPipe)'}
targets=${ARM64_TARGETS:-InferenceTests,VisionTasksTests}
e2e=${ARM64_E2E:-1}
flags="-c $config -Xswiftc -Xfrontend -Xswiftc -disable-cross-import-overlays"
[ "$config" = release ] && flags="$flags -Xswiftc -enable-testing"
# One value of VISION_TASKS_TEST_TARGETS for every swift command: a change recompiles the manifests.
env="VISION_TASKS_TEST_TARGETS=$targets"
root() { bash tools/platform/arm64_root.sh run "$@"; }
# Runs a step, prints its time, and returns its status.
step() {
    local name=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    echo "arm64: $name took $((SECONDS - start)) s$([ "$status" = 0 ] || echo ", FAILED (exit $status)")"
    return "$status"
}
step "the root" bash tools/platform/arm64_root.sh create
echo "arm64: uname -m in the root: $(root 'uname -m')"
root '[ -f /src/models/face_landmarker.task ]' \
    || { echo "arm64: the root sees no /src/models/face_landmarker.task (make models fetches the models)" >&2; exit 1; }
echo "arm64: in the root: $(root 'swift --version 2>&1 | head -1')"

# The x86-64 references: the host's release build of these same sources runs the same commands first,
# writing into the root's /tmp (its videos are the ones the root reads too).
results=/tmp/arm64-e2e
host_results=$(bash tools/platform/arm64_root.sh path)$results
if [ "$e2e" = 1 ]; then
    echo "arm64: on the host: $(${SWIFT:-swift} --version 2>&1 | head -1)"
    step "x86-64 build of vision-tasks (host, release)" ${SWIFT:-swift} build -c release --product vision-tasks
    step "x86-64 end to end (host)" bash tools/platform/arm64_e2e.sh "$(${SWIFT:-swift} build -c release --show-bin-path)/vision-tasks" \
        "$host_results/x86_64"
fi

# SwiftPM 6.2.3 sometimes failed to resolve on its first try (a manifest cache race; docs/ARM.md,
# "Swift versions"): resolve up to 3 times before building.
step "resolve" root "for i in 1 2 3; do $env swift package resolve && exit 0; done; exit 1"
step "build ($config): the libraries and the tests" root "$env swift build --product VisionTasksPackageTests $flags"
[ "$e2e" = 1 ] && step "build ($config): vision-tasks and its server" root "$env swift build --product vision-tasks $flags"

failed=0
step "tests" root "$env swift test --skip-build $flags --filter '$tests' 2>&1 | tee /src/.build/arm64-test.log; exit \${PIPESTATUS[0]}" \
    || failed=1
echo "arm64: test counts: $(root "grep -aE 'Test run with [0-9]+ tests?|Executed [0-9]+ tests?' /src/.build/arm64-test.log | tr '\n' ' '")"
# A filter that matched nothing would pass: Swift Testing must have run tests.
ran=$(root "grep -aoE 'Test run with [0-9]+ tests?' /src/.build/arm64-test.log | grep -oE '[0-9]+' | tail -1")
[ "${ran:-0}" -gt 0 ] || { echo "arm64: FAILED: no Swift Testing test ran (--filter '$tests')" >&2; failed=1; }
if [ "$e2e" = 1 ]; then
    step "aarch64 end to end (root)" root "bash tools/platform/arm64_e2e.sh .build/$config/vision-tasks $results/aarch64 $results/x86_64" \
        || failed=1
    step "the tool on aarch64 against x86-64" python3 tools/platform/arm64_e2e_compare.py "$host_results/x86_64" "$host_results/aarch64" \
        || failed=1
fi
[ "$failed" = 0 ] && echo "arm64: all passed" || { echo "arm64: FAILED (see above)"; exit 1; }
