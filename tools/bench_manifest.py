"""Throughput of vision-tasks as a batch worker: images per second on the manifest path
(`--input-list -` into `--output FILE.jsonl`), with 1 and 2 workers (`--jobs`), and how time and
peak memory scale as the manifest grows from 100 to 10,000 inputs (memory must stay flat: no
per-input leak). Needs the release build: swift build -c release --product vision-tasks.

    python3 tools/bench_manifest.py [--task face-detector] [--sizes 100,1000,10000]
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build", "release", "vision-tasks")
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "images")
PICTURES = ["astronaut.png", "hand_thumb_up.jpg", "two_thumbs_up.jpg", "woman_sitting.jpg"]
MODELS = {
    "face-detector": "blaze_face_short_range.tflite",
    "face-landmarker": "face_landmarker.task",
    "hand-landmarker": "hand_landmarker.task",
    "gesture-recognizer": "gesture_recognizer.task",
}


def manifest(folder, count):
    """`count` distinct paths (symbolic links to the four sample photos, in turn) and their manifest text."""
    paths = []
    for i in range(count):
        picture = PICTURES[i % len(PICTURES)]
        path = os.path.join(folder, f"img{i:05d}{os.path.splitext(picture)[1]}")
        if not os.path.lexists(path):
            os.symlink(os.path.join(FIXTURES, picture), path)
        paths.append(path)
    return "".join(p + "\n" for p in paths)


def run(tool, task, text, jobs, threads, output):
    """Runs one batch; (seconds, peak RSS in MiB, summary line, lines written)."""
    if os.path.exists(output):
        os.remove(output)
    command = [tool, task, "--model", os.path.join(ROOT, "models", MODELS[task]), "--input-list", "-",
               "--output", output, "--jobs", str(jobs), "--threads", str(threads), "--no-progress"]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdin.write(text)
    process.stdin.close()
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed ({status}):\n{stderr}")
    with open(output, "rb") as f:
        lines = sum(1 for _ in f)
    summary = next((line for line in stderr.splitlines() if line.startswith("summary:")), "")
    return seconds, usage.ru_maxrss / 1024, summary, lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="face-detector", choices=sorted(MODELS))
    parser.add_argument("--sizes", default="100,1000,10000", help="manifest sizes for the scaling table")
    parser.add_argument("--workers-size", type=int, default=1000, help="manifest size for the 1-vs-2-workers table")
    parser.add_argument("--tool", default=TOOL, help="the vision-tasks executable (default: the release build)")
    args = parser.parse_args()
    if not os.path.exists(args.tool):
        raise SystemExit(f"{args.tool} is missing: run swift build -c release --product vision-tasks")
    sizes = [int(s) for s in args.sizes.split(",")]
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-manifest-") as folder:
        output = os.path.join(folder, "out.jsonl")
        print(f"vision-tasks {args.task} on a manifest (--input-list - --output FILE), load average {load:.2f}")
        print(f"{'inputs':>7} {'workers':>7} {'threads':>7} {'seconds':>8} {'images/s':>9} {'peak RSS MiB':>13}")
        for jobs, threads in [(1, 1), (2, 1), (1, 2)]:
            text = manifest(folder, args.workers_size)
            seconds, rss, summary, lines = run(args.tool, args.task, text, jobs, threads, output)
            assert lines == args.workers_size, summary
            rows.append((args.workers_size, jobs, threads, seconds, rss))
            print(f"{args.workers_size:>7} {jobs:>7} {threads:>7} {seconds:>8.2f} {args.workers_size / seconds:>9.1f} {rss:>13.1f}")
        print()
        for size in sizes:
            text = manifest(folder, size)
            seconds, rss, summary, lines = run(args.tool, args.task, text, 2, 1, output)
            assert lines == size, summary
            rows.append((size, 2, 1, seconds, rss))
            print(f"{size:>7} {2:>7} {1:>7} {seconds:>8.2f} {size / seconds:>9.1f} {rss:>13.1f}")
    scaling = [r for r in rows[3:]]
    if len(scaling) >= 2:
        (small, _, _, _, rss_small), (large, _, _, _, rss_large) = scaling[0], scaling[-1]
        per_input = (rss_large - rss_small) * 1024 * 1024 / max(1, large - small)
        print(f"\npeak RSS from {small} to {large} inputs: {rss_small:.1f} -> {rss_large:.1f} MiB "
              f"({per_input:.0f} bytes per added input)")
    print(json.dumps({"task": args.task, "load": load, "rows": [
        {"inputs": n, "workers": j, "threads": t, "seconds": round(s, 3), "rss_mib": round(m, 1)} for n, j, t, s, m in rows]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
