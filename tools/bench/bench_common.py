"""What the tools/bench_*.py scripts share: timing a MediaPipe call, running our vision-tasks-bench,
and the command-line options. Not a script of its own."""
import argparse
import json
import os
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, ".build", "release", "vision-tasks-bench")
CLI = os.path.join(ROOT, ".build", "release", "vision-tasks")
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")


def sitting_people():
    """The fixture woman_sitting.jpg cut to the columns the woman fills (780x640), and that beside its
    mirror image (1560x640: two people, both found by either side), as PIL RGB images."""
    from PIL import Image, ImageOps
    photo = Image.open(os.path.join(IMAGES, "woman_sitting.jpg")).convert("RGB")
    person = photo.crop((100, 0, 880, photo.height))
    pair = Image.new("RGB", (2 * person.width, person.height))
    pair.paste(person, (0, 0))
    pair.paste(ImageOps.mirror(person), (person.width, 0))
    return person, pair


def parse_arguments(description, runs, warmup, rounds):
    """The shared options (--runs, --warmup, --rounds, --threads) with this script's defaults; exits
    when the release bench binary has not been built."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--warmup", type=int, default=warmup)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--threads", type=int, default=0, help="VisionTasks threads (default: its default)")
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        raise SystemExit(f"{BENCH} is missing: run swift build -c release --product vision-tasks-bench")
    return args


def time_calls(call, runs, warmup):
    """Calls `call` `warmup` times, then times `runs` calls: (median wall ms, CPU ms per call). The CPU
    time is the process's (all threads) over the whole timed loop, divided by the runs: Linux adds a
    running thread's time to the process clock only at ticks and switches, so one call's reading would
    miss what the other threads burn."""
    for _ in range(warmup):
        call()
    times = []
    cpu_start = time.process_time()
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), (time.process_time() - cpu_start) * 1e3 / max(1, runs)


def ours(arguments, args):
    """Runs vision-tasks-bench with `arguments` plus the shared --runs/--warmup/--threads; its JSON report."""
    command = [BENCH, *arguments, "--runs", str(args.runs), "--warmup", str(args.warmup)]
    if args.threads:
        command += ["--threads", str(args.threads)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])
