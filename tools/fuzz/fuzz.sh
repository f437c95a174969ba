#!/usr/bin/env bash
# Fuzzing (issue 10): builds vision-fuzz with libFuzzer and AddressSanitizer in its own scratch path
# (.build-fuzz, apart from the normal build) and runs every fuzz target for FUZZ_SECONDS each.
#   tools/fuzz/fuzz.sh build          build only
#   tools/fuzz/fuzz.sh run [TARGET..] each target for FUZZ_SECONDS (default 60), corpus kept in .build-fuzz/corpus
#   tools/fuzz/fuzz.sh ci             a short pass (FUZZ_SECONDS default 20) from the seeds alone
# Any crash, leak, timeout (FUZZ_TIMEOUT s per input) or out-of-memory (FUZZ_RSS_MB) fails the run; the
# input is copied into Tests/Fixtures/fuzz/<target>/ so that FuzzRegressionTests replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCRATCH=.build-fuzz
TARGETS_ALL=(tflite bundle image geometry task sparsity)
mode=${1:-run}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${TARGETS_ALL[@]}")
if [ "$mode" = ci ]; then FUZZ_SECONDS=${FUZZ_SECONDS:-20}; else FUZZ_SECONDS=${FUZZ_SECONDS:-60}; fi
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-30}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}

# SwiftPM passes `--sanitize=fuzzer --sanitize=address` to swiftc as two -sanitize flags and swiftc keeps
# only the last one (the frontend sees -sanitize=fuzzer alone: Swift code without ASan); the C targets get
# both -fsanitize flags. `-Xswiftc -sanitize=fuzzer,address` comes last on every swiftc line, so the Swift
# code is compiled and linked with coverage and AddressSanitizer too.
build() {
    VISION_TASKS_FUZZ=1 swift build -c release --scratch-path "$SCRATCH" --product vision-fuzz \
        --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address 2>&1 \
        | grep -v "Cannot export local symbol '__asan" || true
    [ -x "$SCRATCH/release/vision-fuzz" ] || { echo "fuzz.sh: the vision-fuzz build failed" >&2; exit 1; }
}

build
[ "$mode" = build ] && exit 0
[ "$mode" = run ] || [ "$mode" = ci ] || { echo "usage: tools/fuzz/fuzz.sh build|run|ci [TARGET...]" >&2; exit 64; }

# Seeds: the committed inputs, and copies from the real models and fixtures made now (not committed).
seeds="$SCRATCH/seeds"
rm -rf "$seeds"
ASAN_OPTIONS=detect_leaks=0 "$SCRATCH/release/vision-fuzz" seeds "$seeds"

failed=0
for target in "${TARGETS[@]}"; do
    corpus="$SCRATCH/corpus/$target"
    artifacts="$SCRATCH/artifacts/$target/"
    [ "$mode" = ci ] && rm -rf "$corpus"
    mkdir -p "$corpus" "$artifacts"
    # The largest seed bounds the input length (the task and tflite seeds are whole models).
    max_len=$(find "Tests/Fixtures/fuzz/$target" "$seeds/$target" -type f -printf '%s\n' | sort -n | tail -1)
    log="$SCRATCH/$target.log"
    echo "fuzz: $target for ${FUZZ_SECONDS}s (max_len $max_len)"
    if ! "$SCRATCH/release/vision-fuzz" "$target" -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" \
        -rss_limit_mb="$FUZZ_RSS_MB" -malloc_limit_mb="$FUZZ_RSS_MB" -max_len="$max_len" -len_control=0 \
        -print_final_stats=1 -artifact_prefix="$artifacts" \
        "$corpus" "Tests/Fixtures/fuzz/$target" "$seeds/$target" >"$log" 2>&1; then
        failed=1
        echo "fuzz: $target FAILED (log: $log)" >&2
        grep -E "ERROR:|SUMMARY:|Test unit written" "$log" | head -5 >&2 || true
        for found in "$artifacts"*; do
            [ -f "$found" ] || continue
            cp "$found" "Tests/Fixtures/fuzz/$target/found-$(basename "$found")"
            echo "fuzz: saved Tests/Fixtures/fuzz/$target/found-$(basename "$found") as a regression input" >&2
        done
    fi
    grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb" "$log" | tr '\n' ' ' || true
    echo
done
exit $failed
