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
import json
import os

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

from bench_common import ROOT, ours, parse_arguments, time_calls

IMAGE = os.path.join(ROOT, "Tests", "Fixtures", "images", "hand_thumb_up.jpg")
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

    median, _ = time_calls(call, runs, warmup)
    hands = len(call().hand_landmarks)
    task.close()
    return median, hands


def ours_median(task_name, video, args):
    model = os.path.join(ROOT, "models", TASKS[task_name][0])
    return ours([task_name, "--model", model, IMAGE] + (["--video"] if video else []), args)


def main():
    args = parse_arguments(__doc__.splitlines()[0], runs=100, warmup=10, rounds=3)
    image = mp.Image.create_from_file(IMAGE)
    summary = {"image": "hand_thumb_up.jpg 640x521, one hand", "runsPerRound": args.runs}
    for task_name in TASKS:
        for video in (False, True):
            kind = "video frame" if video else "image"
            mp_times, ours_times, threads = [], [], None
            for _ in range(args.rounds):
                median, hands = mediapipe_median(task_name, image, video, args.runs, args.warmup)
                mp_times.append(median)
                report = ours_median(task_name, video, args)
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
