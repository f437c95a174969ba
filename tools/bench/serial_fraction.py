#!/usr/bin/env python3
"""The serial fraction of a command, from a scheduler trace, and Amdahl's projection from it (issue 37).

Runs COMMAND under `perf sched record` and replays the trace (sched_switch, sched_waking,
sched_wakeup_new) to know, at each instant, how many threads of the command's process are runnable:
running, or preempted and waiting for a core. From the process's first event to its last:
  alone     exactly one thread runnable: work no other thread of the process could share;
  parallel  two or more runnable; its work is the time its threads were on a core (two threads
            running for a second: two seconds of work);
  idle      none (waiting for a file, a pipe, the disk).
The serial fraction is the share of the work done alone, s = alone / (alone + parallel work), and
Amdahl's law projects the speed-up on N cores as 1 / (s + (1 - s) / N). On a machine with few cores
that is an upper bound of s (a part that ran alone only because the other threads had finished or
waited still counts as serial), so the projection is a lower bound.

Usage: python3 tools/bench/serial_fraction.py [--json] -- COMMAND [ARG...]
Needs perf (Debian's linux-perf) and the right to trace the scheduler (root, or
kernel.perf_event_paranoid at most -1). The command's output goes to /dev/null.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

EVENT = re.compile(r"^\s*(.*?)\s+(-?\d+)/(-?\d+)\s+([\d.]+):\s+sched:(\w+):\s*(.*)$")
SWITCH = re.compile(r"prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)")
WOKEN = re.compile(r"\bpid=(\d+) prio=")
FORK = re.compile(r"\bpid=(\d+) child_comm=.* child_pid=(\d+)")
CORES = (2, 4, 8, 16)


def record(command, data):
    """Runs `command` under perf sched record, writing the trace to `data`."""
    with open(os.devnull, "w") as null:
        perf = subprocess.run(["perf", "sched", "record", "-o", data, "--"] + command, stdout=null,
                              stderr=subprocess.PIPE, text=True)
    if perf.returncode != 0:
        sys.exit(f"serial_fraction: perf sched record -- {command[0]} failed (exit {perf.returncode}): "
                 f"{perf.stderr.strip()[-400:]}")


def events(data):
    """(comm, tgid, tid, time s, event, details) of every scheduler event of the trace, in order."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,time,event,trace"],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = EVENT.match(line)
        if m:
            yield m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4)), m.group(5), m.group(6)


def measure(trace, name):
    """Seconds alone, parallel (and the work in it), idle, and the thread count of the process
    whose main thread is first seen as `name` (a command name as the kernel keeps it: 15 bytes)."""
    target, members = None, set()
    for comm, tgid, tid, _, event, details in trace:
        if target is None and comm == name[:15] and tgid == tid:
            target = tgid
        if target is not None and tgid == target:
            members.add(tid)
            if event == "sched_process_fork":
                m = FORK.search(details)
                if m:
                    members.add(int(m.group(2)))
    if target is None:
        sys.exit(f"serial_fraction: no process named {name[:15]} in the trace")
    runnable, running = {target}, {target}
    alone = parallel = work = idle = 0.0
    first = last = None
    for _, tgid, tid, t, event, details in trace:
        involved = tid in members
        if event == "sched_switch":
            m = SWITCH.search(details)
            prev, state, nxt = int(m.group(1)), m.group(2), int(m.group(3))
            involved = involved or prev in members or nxt in members
        elif event in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
            m = WOKEN.search(details)
            woken = int(m.group(1)) if m else -1
            involved = involved or woken in members
        if not involved:
            continue
        if first is None:
            first = t
        elif last is not None:
            n, span = len(runnable), t - last
            if n == 0:
                idle += span
            elif n == 1:
                alone += span
            else:
                parallel += span
                work += span * len(running)
        last = t
        if event == "sched_switch":
            running.discard(prev)
            if prev in members and not state.startswith("R"):
                runnable.discard(prev)
            if nxt in members:
                runnable.add(nxt)
                running.add(nxt)
        elif event in ("sched_waking", "sched_wakeup", "sched_wakeup_new") and woken in members:
            runnable.add(woken)
    return {"alone_s": alone, "parallel_s": parallel, "parallel_work_s": work, "idle_s": idle,
            "span_s": (last or 0) - (first or 0), "threads": len(members)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON line too")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARG...]")
    args = p.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        p.error("no command given")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "sched.data")
        record(command, data)
        figures = measure(list(events(data)), os.path.basename(command[0]))
    total = figures["alone_s"] + figures["parallel_work_s"]
    if total <= 0:
        sys.exit("serial_fraction: the process never ran")
    s = figures["alone_s"] / total
    figures["serial_fraction"] = s
    figures["amdahl"] = {str(n): 1 / (s + (1 - s) / n) for n in CORES}
    print(f"span {figures['span_s']:.3f} s, {figures['threads']} threads: one runnable {figures['alone_s']:.3f} s, "
          f"two or more {figures['parallel_s']:.3f} s ({figures['parallel_work_s']:.3f} s of work), "
          f"none {figures['idle_s']:.3f} s")
    print(f"serial fraction {s:.4f}; Amdahl: " + ", ".join(f"{n} cores x{figures['amdahl'][str(n)]:.2f}" for n in CORES))
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
