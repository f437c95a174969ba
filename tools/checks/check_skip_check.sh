#!/usr/bin/env bash
# Proves that tools/checks/check_test_run.py fails a run that did not run everything (part of `make test`,
# after the tests are built; about 10 s):
#  1. on saved logs: a parameterised test with no cases, a disabled suite, an XCTSkip; a clean log passes;
#  2. end to end: the hand parity tests run against a copy of the references in which
#     hands/image_refs.json is (a) cut short, (b) emptied of cases; each run must fail the check
#     and name the file, where before issue 11 both silently ran no hand parity case;
#  3. a --filter one of whose alternatives names no test fails, naming it (ASan's filter named a suite that
#     no longer existed and ran nothing of it); one whose alternatives all name tests passes.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect() {  # expect STATUS NAME COMMAND...: run COMMAND, require its exit status, keep its output
    local want=$1 name=$2; shift 2
    local got=0
    "$@" >"$work/$name.out" 2>&1 || got=$?
    local did=pass
    [ "$got" -eq 0 ] || did=fail
    if [ "$did" != "$want" ]; then
        echo "check_skip_check: $name: expected the check to $want, exit status $got"
        cat "$work/$name.out"
        failures=$((failures + 1))
    else
        echo "check_skip_check: $name: the check did $want, as it must"
    fi
}

closing='✔ Test run with 3 tests in 1 suite passed after 0.1 seconds.'
printf '%s\n' '◇ Test run started.' '✔ Test a() passed after 0.001 seconds.' "$closing" >"$work/clean.log"
printf '%s\n' '◇ Test run started.' '➜ Test cases(_:) skipped: "No test cases found."' "$closing" >"$work/empty.log"
printf '%s\n' '◇ Test run started.' '➜ Suite HandParityTests skipped: "models/ not fetched"' "$closing" >"$work/suite.log"
printf '%s\n' "Test Case 'A.testB' skipped (0.001 seconds)" "$closing" >"$work/xctest.log"
printf '%s\n' '◇ Test run started.' >"$work/cut.log"
expect pass clean-log python3 tools/checks/check_test_run.py --log "$work/clean.log"
expect fail empty-parameterised-test-log python3 tools/checks/check_test_run.py --log "$work/empty.log"
expect fail disabled-suite-log python3 tools/checks/check_test_run.py --log "$work/suite.log"
expect fail xctest-skip-log python3 tools/checks/check_test_run.py --log "$work/xctest.log"
expect fail no-closing-line-log python3 tools/checks/check_test_run.py --log "$work/cut.log"

# End to end on the built tests, with a corrupted copy of the references.
cp -R Tests/Fixtures/references "$work/references"
refs="$work/references/hands/image_refs.json"
filter='HandParityTests/handLandmarkerImageMode'
head -c 4096 Tests/Fixtures/references/hands/image_refs.json >"$refs"
expect fail truncated-reference env VISIONTASKS_REFERENCES="$work/references" \
    python3 tools/checks/check_test_run.py -- "$SWIFT" test --skip-build --filter "$filter"
grep -q 'image_refs.json cannot be decoded' "$work/truncated-reference.out" ||
    { echo "check_skip_check: the truncated reference's failure does not name the file"; failures=$((failures + 1)); }
echo '{"cases": []}' >"$refs"
expect fail emptied-reference env VISIONTASKS_REFERENCES="$work/references" \
    python3 tools/checks/check_test_run.py -- "$SWIFT" test --skip-build --filter "$filter"
grep -q 'image_refs.json holds 0 cases, the test expects 8' "$work/emptied-reference.out" ||
    { echo "check_skip_check: the emptied reference's failure does not name the file"; failures=$((failures + 1)); }

dead='TaskRunnerTests/imageModeRunsImages|NoSuchSuiteTests'
expect fail dead-filter-alternative python3 tools/checks/check_test_run.py -- "$SWIFT" test --skip-build --filter "$dead"
grep -q "filter 'NoSuchSuiteTests' matches none" "$work/dead-filter-alternative.out" ||
    { echo "check_skip_check: the dead filter alternative is not named"; failures=$((failures + 1)); }
expect pass live-filter-alternatives python3 tools/checks/check_test_run.py -- "$SWIFT" test --skip-build \
    --filter 'TaskRunnerTests/(imageModeRunsImages|videoModeRequires)'

if [ "$failures" -ne 0 ]; then
    echo "check_skip_check: FAILED ($failures)"
    exit 1
fi
echo "check_skip_check: the skip check fails every incomplete run"
