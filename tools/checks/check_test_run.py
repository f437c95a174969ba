#!/usr/bin/env python3
"""Runs `swift test` (or reads a saved log) and fails unless every test ran.

    tools/checks/check_test_run.py -- swift test --skip-build    run it, echo its output, then check
    tools/checks/check_test_run.py --log FILE                    check a saved `swift test` output

Fails (exit 1) when the command failed, when any XCTest case or Swift Testing test or suite was
skipped (a disabled trait, an XCTSkip, or a parameterised test given no arguments: "No test cases
found."), or when Swift Testing reports no test run at all (the project's tests are Swift Testing;
XCTest reports 0 tests when there are none). Prints each reason.
"""
import re
import subprocess
import sys

# Swift Testing: "➜ Test name() skipped." / "➜ Suite Name skipped: reason" (any leading symbol).
SWIFT_TESTING_SKIP = re.compile(r"^\S+ (Test|Suite) (.+?) skipped(?:[.:]|$)(.*)")
# XCTest: "Test Case 'Class.test' skipped (0.001 seconds)".
XCTEST_SKIP = re.compile(r"^Test Case '(.+?)' skipped")
# XCTest closing line: "Executed 12 tests, with 1 test skipped and 0 failures ...".
XCTEST_TOTAL = re.compile(r"Test Suite 'All tests' (passed|failed)")
XCTEST_EXECUTED = re.compile(r"^\s*Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?")
# Swift Testing closing line: "✔ Test run with 40 tests in 9 suites passed after 1.2 seconds."
SWIFT_TESTING_TOTAL = re.compile(r"^\S+ Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed)")


def problems(lines):
    """The reasons this run does not count as a full pass (empty when it does)."""
    found = []
    xctest_executed = None
    xctest_seen = False
    swift_testing_total = None
    for line in lines:
        line = line.rstrip("\n")
        m = SWIFT_TESTING_SKIP.match(line)
        if m:
            found.append(f"skipped: {m.group(1)} {m.group(2)}{(' —' + m.group(3)) if m.group(3).strip() else ''}")
            continue
        m = XCTEST_SKIP.match(line)
        if m:
            found.append(f"skipped: XCTest {m.group(1)}")
            continue
        if XCTEST_TOTAL.search(line):
            xctest_seen = True
            continue
        m = XCTEST_EXECUTED.match(line)
        if m and xctest_seen and xctest_executed is None:
            # The line right after "Test Suite 'All tests' ..." is the whole run's count.
            xctest_executed = int(m.group(1))
            if m.group(2) and int(m.group(2)) > 0:
                found.append(f"XCTest reports {m.group(2)} skipped tests")
            continue
        m = SWIFT_TESTING_TOTAL.match(line)
        if m:
            swift_testing_total = int(m.group(1))
            if m.group(2) != "passed":
                found.append("Swift Testing run failed")
    if swift_testing_total is None:
        found.append("no Swift Testing closing line (did the run stop early?)")
    elif swift_testing_total == 0:
        found.append("Swift Testing ran no test")
    return found


def main(argv):
    if len(argv) >= 2 and argv[0] == "--log":
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        status = 0
    elif len(argv) >= 2 and argv[0] == "--":
        process = subprocess.Popen(argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, encoding="utf-8", errors="replace")
        lines = []
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line)
        status = process.wait()
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    reasons = problems(lines)
    if status != 0:
        reasons.insert(0, f"the test command exited with status {status}")
    if reasons:
        print(f"check_test_run: FAILED ({len(reasons)} problems)")
        for reason in reasons:
            print(f"  - {reason}")
        return 1
    print("check_test_run: every test ran, none skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
