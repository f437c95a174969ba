#!/usr/bin/env python3
"""Face Detector end-to-end latency: VisionTasks vs MediaPipe 1.2.2's Python API, in one run.

Both sides time detect(image:) on the same decoded 1280x853 photo (woman_sitting.jpg scaled up),
decoding outside the timing, after a warm-up, and report the median over many runs. The rounds
alternate between the two sides so that machine load affects both alike; the summary gives the
median and the best of the round medians, and the load average (the figures mean little on a
busy machine).

Build first: swift build -c release --product vision-tasks-bench
Usage: python3 tools/bench_face_detector.py [--runs 300] [--rounds 3] [--threads N]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "models", "blaze_face_short_range.tflite")
BENCH = os.path.join(ROOT, ".build", "release", "vision-tasks-bench")


def mediapipe_median(image, runs, warmup):
    detector = vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=BaseOptions(model_asset_path=MODEL)))
    for _ in range(warmup):
        detector.detect(image)
    times, cpu = [], []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        detector.detect(image)
        cpu.append((time.process_time() - cpu_start) * 1e3)
        times.append((time.perf_counter() - start) * 1e3)
    faces = len(detector.detect(image).detections)
    detector.close()
    return statistics.median(times), statistics.median(cpu), faces


def ours_median(path, runs, warmup, threads):
    command = [BENCH, "face-detector", "--model", MODEL, "--runs", str(runs), "--warmup", str(warmup), path]
    if threads:
        command += ["--threads", str(threads)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=150)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--threads", type=int, default=0, help="VisionTasks threads (default: its default)")
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        raise SystemExit(f"{BENCH} is missing: run swift build -c release --product vision-tasks-bench")

    photo = Image.open(os.path.join(ROOT, "Tests", "Fixtures", "images", "woman_sitting.jpg")).convert("RGB")
    photo = photo.resize((1280, 853), Image.BICUBIC)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "woman_sitting_1280x853.png")
        photo.save(path)
        pixels = np.asarray(Image.open(path).convert("RGB"))
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(pixels))
        mp_times, ours_times, mp_cpu, ours_cpu, threads = [], [], [], [], None
        for _ in range(args.rounds):
            median, cpu, faces = mediapipe_median(image, args.runs, args.warmup)
            mp_times.append(median)
            mp_cpu.append(cpu)
            report = ours_median(path, args.runs, args.warmup, args.threads)
            ours_times.append(report["medianMs"])
            ours_cpu.append(report["cpuMedianMs"])
            threads = report["threads"]
            print(f"round: MediaPipe {median:.3f} ms (CPU {cpu:.3f} ms, {faces} face), "
                  f"VisionTasks {report['medianMs']:.3f} ms (CPU {report['cpuMedianMs']:.3f} ms)")
    mp_best, ours_best = min(mp_times), min(ours_times)
    mp_mid, ours_mid = statistics.median(mp_times), statistics.median(ours_times)
    print(json.dumps({"image": "woman_sitting.jpg scaled to 1280x853", "rounds": args.rounds, "runsPerRound": args.runs,
                      "loadAverage": os.getloadavg()[0], "visionTasksThreads": threads,
                      "mediapipeMs": {"bestRound": round(mp_best, 3), "medianRound": round(mp_mid, 3)},
                      "visionTasksMs": {"bestRound": round(ours_best, 3), "medianRound": round(ours_mid, 3)},
                      "ratio": {"bestRound": round(ours_best / mp_best, 3), "medianRound": round(ours_mid / mp_mid, 3)},
                      "cpuMsPerImage": {"mediapipe": round(statistics.median(mp_cpu), 3),
                                        "visionTasks": round(statistics.median(ours_cpu), 3)}}))
    print(f"VisionTasks / MediaPipe = {ours_mid / mp_mid:.2f} (median of round medians), "
          f"{ours_best / mp_best:.2f} (best round medians), "
          f"{statistics.median(ours_cpu) / statistics.median(mp_cpu):.2f} (CPU time per image); below 1 is faster")


if __name__ == "__main__":
    main()
