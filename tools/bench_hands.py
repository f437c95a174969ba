#!/usr/bin/env python3
"""Hand Landmarker and Gesture Recognizer end-to-end latency: VisionTasks vs MediaPipe 1.2.2's
Python API, in one run.

Both sides time the same decoded photo (hand_thumb_up.jpg, 640x521, one hand), decoding outside the
timing, after a warm-up, median over many runs: per image (IMAGE mode: palm detection every call)
and per video frame (VIDEO mode: the hand tracked from frame to frame, timestamps 33 ms apart).
Rounds alternate between the two sides so machine load affects both alike; the best round's
median of each side is compared.

Build first: swift build -c release --product vision-tasks-bench
Usage: python3 tools/bench_hands.py [--runs 100] [--rounds 3] [--threads N]
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
IMAGE = os.path.join(ROOT, "Tests", "Fixtures", "images", "hand_thumb_up.jpg")
BENCH = os.path.join(ROOT, ".build", "release", "vision-tasks-bench")
TASKS = {
    "hand-landmarker": ("hand_landmarker.task", vision.HandLandmarker, vision.HandLandmarkerOptions,
                        "detect", "detect_for_video"),
    "gesture-recognizer": ("gesture_recognizer.task", vision.GestureRecognizer, vision.GestureRecognizerOptions,
                           "recognize", "recognize_for_video"),
}


def mediapipe_median(task_name, image, video, runs, warmup):
    model, cls, options_cls, still, frame = TASKS[task_name]
    mode = vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE
    task = cls.create_from_options(options_cls(
        base_options=BaseOptions(model_asset_path=os.path.join(ROOT, "models", model)), running_mode=mode))
    timestamp = 0

    def call():
        nonlocal timestamp
        timestamp += 33
        return getattr(task, frame)(image, timestamp) if video else getattr(task, still)(image)

    for _ in range(warmup):
        call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    hands = len(call().hand_landmarks)
    task.close()
    return statistics.median(times), hands


def ours_median(task_name, video, runs, warmup, threads):
    model = TASKS[task_name][0]
    command = [BENCH, task_name, "--model", os.path.join(ROOT, "models", model), "--runs", str(runs),
               "--warmup", str(warmup), IMAGE]
    if video:
        command.append("--video")
    if threads:
        command += ["--threads", str(threads)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="VisionTasks threads (default: its default)")
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        raise SystemExit(f"{BENCH} is missing: run swift build -c release --product vision-tasks-bench")
    image = mp.Image.create_from_file(IMAGE)
    summary = {"image": "hand_thumb_up.jpg 640x521, one hand", "runsPerRound": args.runs}
    for task_name in TASKS:
        for video in (False, True):
            kind = "video frame" if video else "image"
            mp_times, ours_times, threads = [], [], None
            for _ in range(args.rounds):
                median, hands = mediapipe_median(task_name, image, video, args.runs, args.warmup)
                mp_times.append(median)
                report = ours_median(task_name, video, args.runs, args.warmup, args.threads)
                ours_times.append(report["medianMs"])
                threads = report["threads"]
                print(f"{task_name} per {kind}: MediaPipe {median:.3f} ms ({hands} hand), "
                      f"VisionTasks {report['medianMs']:.3f} ms")
            mp_ms, ours_ms = min(mp_times), min(ours_times)
            key = f"{task_name} {'perVideoFrame' if video else 'perImage'}"
            summary[key] = {"mediapipeMedianMs": round(mp_ms, 3), "visionTasksMedianMs": round(ours_ms, 3),
                            "visionTasksThreads": threads, "ratio": round(ours_ms / mp_ms, 3)}
            print(f"{task_name} per {kind}: VisionTasks / MediaPipe = {ours_ms / mp_ms:.2f} "
                  "(best round medians; below 1 is faster)")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
