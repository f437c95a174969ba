#!/usr/bin/env python3
"""Face Landmarker end-to-end latency: VisionTasks vs MediaPipe 1.2.2's Python API, in one run.

Both sides time the same decoded photo (astronaut.png, 512x512, one face), decoding outside the
timing, after a warm-up, median over many runs: per image (IMAGE mode, detection every call) and
per video frame (VIDEO mode, the face tracked from frame to frame, timestamps 33 ms apart), with
blendshapes and transformation matrices on. Rounds alternate between the two sides so machine
load affects both alike.

Build first: swift build -c release --product vision-tasks-bench
Usage: python3 tools/bench_face_landmarker.py [--runs 200] [--rounds 3] [--threads N]
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "models", "face_landmarker.task")
IMAGE = os.path.join(ROOT, "Tests", "Fixtures", "images", "astronaut.png")
BENCH = os.path.join(ROOT, ".build", "release", "vision-tasks-bench")


def mediapipe_median(image, video, runs, warmup):
    mode = vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE
    task = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=MODEL), running_mode=mode,
        output_face_blendshapes=True, output_facial_transformation_matrixes=True))
    timestamp = 0

    def call():
        nonlocal timestamp
        timestamp += 33
        return task.detect_for_video(image, timestamp) if video else task.detect(image)

    for _ in range(warmup):
        call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    faces = len(call().face_landmarks)
    task.close()
    return statistics.median(times), faces


def ours_median(video, runs, warmup, threads):
    command = [BENCH, "face-landmarker", "--model", MODEL, "--all-outputs", "--runs", str(runs),
               "--warmup", str(warmup), IMAGE]
    if video:
        command.append("--video")
    if threads:
        command += ["--threads", str(threads)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="VisionTasks threads (default: its default)")
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        raise SystemExit(f"{BENCH} is missing: run swift build -c release --product vision-tasks-bench")
    image = mp.Image.create_from_file(IMAGE)
    summary = {"image": "astronaut.png 512x512, blendshapes and matrices on", "runsPerRound": args.runs}
    for video in (False, True):
        kind = "video frame" if video else "image"
        mp_times, ours_times, threads = [], [], None
        for _ in range(args.rounds):
            median, faces = mediapipe_median(image, video, args.runs, args.warmup)
            mp_times.append(median)
            report = ours_median(video, args.runs, args.warmup, args.threads)
            ours_times.append(report["medianMs"])
            threads = report["threads"]
            print(f"{kind}: MediaPipe {median:.3f} ms ({faces} face), VisionTasks {report['medianMs']:.3f} ms")
        mp_ms, ours_ms = min(mp_times), min(ours_times)
        key = "perVideoFrame" if video else "perImage"
        summary[key] = {"mediapipeMedianMs": round(mp_ms, 3), "visionTasksMedianMs": round(ours_ms, 3),
                        "visionTasksThreads": threads, "ratio": round(ours_ms / mp_ms, 3)}
        print(f"per {kind}: VisionTasks / MediaPipe = {ours_ms / mp_ms:.2f} (best round medians; below 1 is faster)")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
