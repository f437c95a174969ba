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
import json
import os
import statistics
import tempfile

import numpy as np
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

from bench_common import ROOT, ours, parse_arguments, time_calls

MODEL = os.path.join(ROOT, "models", "blaze_face_short_range.tflite")


def mediapipe_median(image, runs, warmup):
    detector = vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=BaseOptions(model_asset_path=MODEL)))
    median, cpu = time_calls(lambda: detector.detect(image), runs, warmup)
    faces = len(detector.detect(image).detections)
    detector.close()
    return median, cpu, faces


def main():
    args = parse_arguments(__doc__.splitlines()[0], runs=150, warmup=20, rounds=8)

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
            report = ours(["face-detector", "--model", MODEL, path], args)
            ours_times.append(report["medianMs"])
            ours_cpu.append(report["cpuMsPerCall"])
            threads = report["threads"]
            print(f"round: MediaPipe {median:.3f} ms (CPU {cpu:.3f} ms, {faces} face), "
                  f"VisionTasks {report['medianMs']:.3f} ms (CPU {report['cpuMsPerCall']:.3f} ms)")
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
