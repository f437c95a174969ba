#!/usr/bin/env python3
"""Two builds of vision-tasks, A and B, side by side at 1 and 2 threads: each model's wall median,
speed-up and CPU per call at 2 threads against 1, from alternating `model benchmark` runs (A1, B1,
A2, B2 in every round, so load from other work weighs on all four alike). For the engine's threading
changes (issue 46): the same rows under an artificial hand-off delay (--delay-ns, which sets
VT_POOL_HANDOFF_DELAY_NS; see Sources/CKernels/pool.c) show what each build loses where the
hand-off is dear.

Usage: python3 tools/bench/threads_ab.py A_BINARY B_BINARY [--rounds 7] [--runs 100]
       [--delay-ns 0] [--models pose_detector,...] [--json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = {
    "pose_detector": ("pose_landmarker_full.task", "pose_detector.tflite"),
    "pose_landmarks_detector": ("pose_landmarker_full.task", "pose_landmarks_detector.tflite"),
    "hand_detector": ("hand_landmarker.task", "hand_detector.tflite"),
    "hand_landmarks_detector": ("hand_landmarker.task", "hand_landmarks_detector.tflite"),
    "face_detector": ("face_landmarker.task", "face_detector.tflite"),
    "face_landmarks_detector": ("face_landmarker.task", "face_landmarks_detector.tflite"),
    "face_detection_full_range_sparse": ("face_detection_full_range_sparse.tflite", None),
}


def benchmark(binary, model, threads, runs, delay):
    path, entry = MODELS[model]
    command = [binary, "model", "benchmark", os.path.join(ROOT, "models", path), "--threads", str(threads),
               "--runs", str(runs), "--warmup", "10", "--json"]
    if entry:
        command += ["--entry", entry]
    env = dict(os.environ)
    env.pop("VT_POOL_HANDOFF_DELAY_NS", None)
    if delay:
        env["VT_POOL_HANDOFF_DELAY_NS"] = str(delay)
    report = json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
    return report["medianMs"], report["cpuMsPerCall"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--delay-ns", type=int, default=0)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    models = args.models.split(",")
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        sys.exit(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    rows = []
    for model in models:
        samples = {(build, t): [] for build in "AB" for t in (1, 2)}
        for _ in range(args.rounds):
            for t in (1, 2):
                for build, binary in (("A", args.a), ("B", args.b)):
                    samples[(build, t)].append(benchmark(binary, model, t, args.runs, args.delay_ns))
        row = {"model": model}
        for build in "AB":
            w1 = statistics.median(s[0] for s in samples[(build, 1)])
            w2 = statistics.median(s[0] for s in samples[(build, 2)])
            c1 = statistics.median(s[1] for s in samples[(build, 1)])
            c2 = statistics.median(s[1] for s in samples[(build, 2)])
            row[build] = {"wall1": w1, "wall2": w2, "speedup": w1 / w2, "cpu2_over_cpu1": c2 / c1}
        rows.append(row)
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"delayNs": args.delay_ns, "load": load, "rows": rows}, indent=1))
        return
    print(f"delay {args.delay_ns} ns per hand-off; {args.rounds} alternating rounds of {args.runs} runs, medians; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("| model | A 1T ms | A 2T ms | A ×2T | A CPU 2T/1T | B 1T ms | B 2T ms | B ×2T | B CPU 2T/1T |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = []
        for build in "AB":
            x = r[build]
            cells += [f"{x['wall1']:.3f}", f"{x['wall2']:.3f}", f"×{x['speedup']:.2f}", f"{x['cpu2_over_cpu1']:.2f}"]
        print(f"| {r['model']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
