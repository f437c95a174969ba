#!/usr/bin/env python3
"""Runs `swift test` (or reads a saved log) and fails unless every test ran.

    tools/checks/check_test_run.py -- swift test --skip-build    run it, echo its output, then check
    tools/checks/check_test_run.py --log FILE                    check a saved `swift test` output

Fails (exit 1) when the command failed, when any XCTest case or Swift Testing test or suite was
skipped (a disabled trait, an XCTSkip, or a parameterised test given no arguments: "No test cases
found."), or when Swift Testing reports no test run at all (the project's tests are Swift Testing;
XCTest reports 0 tests when there are none). A run given `--filter` or `--skip` fails before it starts
when one way through the pattern's alternatives (`A\\.(B|C)` is `A\\.B` and `A\\.C`) names no test that
`swift test list` (the same build) lists: a renamed suite no longer leaves its part of a filter silently
selecting nothing. Prints each reason.
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


def alternatives(pattern):
    """Each way through the alternations of a regular expression, as patterns: `A\\.(B|C)x` gives
    `A\\.Bx` and `A\\.Cx`. Escapes and character classes are kept whole; a group may be `(?:...)`. A pattern
    this cannot split faithfully (lookarounds, flags, back references, a quantified group) is one way."""
    if re.search(r"\(\?[^:]|\\[1-9]|\)[*+?{]", pattern):
        return [pattern]
    def sequence(i):  # parse up to ')' or the end; returns (the ways, where it stopped)
        ways, i = [""], i
        branches = []
        while i < len(pattern) and pattern[i] != ")":
            c = pattern[i]
            if c == "|":
                branches += ways
                ways, i = [""], i + 1
            elif c == "(":
                start = i + 3 if pattern.startswith("(?:", i) else i + 1
                inner, i = sequence(start)
                if i >= len(pattern):
                    raise ValueError(f"unbalanced '(' in {pattern!r}")
                ways, i = [w + x for w in ways for x in inner], i + 1
            else:
                if c == "\\":
                    token = pattern[i:i + 2]
                elif c == "[":
                    close = i + 2 if pattern.startswith("[^", i) else i + 1
                    if pattern.startswith("]", close):
                        close += 1  # a `]` first is a literal
                    while pattern[close] != "]":  # an escaped `]` (or any escape) is inside the class
                        close += 2 if pattern[close] == "\\" else 1
                    token = pattern[i:close + 1]
                else:
                    token = c
                ways, i = [w + token for w in ways], i + len(token)
        return branches + ways, i
    ways, end = sequence(0)
    if end != len(pattern):
        raise ValueError(f"unbalanced ')' in {pattern!r}")
    return ways


def unselecting_patterns(command):
    """The `--filter`/`--skip` alternatives of a `swift test` command that match no test it lists (run as
    `swift test list` with the same build options); empty when the command has neither."""
    patterns, rest, i = [], [], 0
    while i < len(command):
        option, joined, value = command[i].partition("=")
        if option in ("--filter", "--skip") and (joined or i + 1 < len(command)):
            pattern = value if joined else command[i + 1]
            try:
                ways = alternatives(pattern)
            except (ValueError, IndexError):
                ways = [pattern]  # unbalanced: the regular expression check below names it
            patterns += [(option, way) for way in ways]
            i += 1 if joined else 2
        else:
            rest.append(command[i])
            i += 1
    if not patterns:
        return []
    if "test" not in rest:
        return [f"cannot list the tests of {' '.join(command)} (no 'test' subcommand)"]
    at = rest.index("test") + 1
    listed = subprocess.run(rest[:at] + ["list"] + rest[at:], capture_output=True, text=True)
    if listed.returncode != 0:
        return [f"swift test list failed ({listed.returncode}): {listed.stderr.strip()[-500:]}"]
    tests = listed.stdout.split()
    found = []
    for option, way in patterns:
        try:
            if not any(re.search(way, test) for test in tests):
                found.append(f"{option[2:]} {way!r} matches none of the {len(tests)} tests listed")
        except re.error as error:
            found.append(f"{option[2:]} {way!r} is not a regular expression: {error}")
    return found


def main(argv):
    if len(argv) >= 2 and argv[0] == "--log":
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        status = 0
    elif len(argv) >= 2 and argv[0] == "--":
        # Before the run, which may take an hour under a sanitizer: a filter that selects nothing fails at once.
        unselecting = unselecting_patterns(argv[1:])
        if unselecting:
            print(f"check_test_run: FAILED ({len(unselecting)} problems)")
            for reason in unselecting:
                print(f"  - {reason}")
            return 1
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
