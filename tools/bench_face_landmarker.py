#!/usr/bin/env python3
"""Face Landmarker end-to-end latency: VisionTasks vs MediaPipe 1.2.2's Python API, in one run.

Both sides time the same decoded photo (astronaut.png, 512x512, one face), decoding outside the
timing, after a warm-up, median over many runs: per image (IMAGE mode, detection every call) and
per video frame (VIDEO mode, the face tracked from frame to frame, timestamps 33 ms apart), with
blendshapes and transformation matrices on. Rounds alternate between the two sides so machine
load affects both alike; the summary gives the median and the best of the round medians, the CPU
time per call (all threads of the process, less disturbed by a busy machine) and the load average.

Build first: swift build -c release --product vision-tasks-bench
Usage: python3 tools/bench_face_landmarker.py [--runs 200] [--rounds 6] [--threads N]
"""
import json
import os
import statistics

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

from bench_common import ROOT, ours, parse_arguments, time_calls

MODEL = os.path.join(ROOT, "models", "face_landmarker.task")
IMAGE = os.path.join(ROOT, "Tests", "Fixtures", "images", "astronaut.png")


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

    median, cpu = time_calls(call, runs, warmup)
    faces = len(call().face_landmarks)
    task.close()
    return median, cpu, faces


def ours_median(video, args):
    return ours(["face-landmarker", "--model", MODEL, "--all-outputs", IMAGE] + (["--video"] if video else []), args)


def main():
    args = parse_arguments(__doc__.splitlines()[0], runs=200, warmup=20, rounds=6)
    image = mp.Image.create_from_file(IMAGE)
    summary = {"image": "astronaut.png 512x512, blendshapes and matrices on", "rounds": args.rounds,
               "runsPerRound": args.runs}
    for video in (False, True):
        kind = "video frame" if video else "image"
        mp_times, ours_times, mp_cpu, ours_cpu, threads = [], [], [], [], None
        for _ in range(args.rounds):
            median, cpu, faces = mediapipe_median(image, video, args.runs, args.warmup)
            mp_times.append(median)
            mp_cpu.append(cpu)
            report = ours_median(video, args)
            ours_times.append(report["medianMs"])
            ours_cpu.append(report["cpuMsPerCall"])
            threads = report["threads"]
            print(f"{kind}: MediaPipe {median:.3f} ms (CPU {cpu:.3f} ms, {faces} face), "
                  f"VisionTasks {report['medianMs']:.3f} ms (CPU {report['cpuMsPerCall']:.3f} ms)")
        key = "perVideoFrame" if video else "perImage"
        summary[key] = {
            "medianOfRoundMediansMs": {"mediapipe": round(statistics.median(mp_times), 3),
                                       "visionTasks": round(statistics.median(ours_times), 3)},
            "bestRoundMedianMs": {"mediapipe": round(min(mp_times), 3), "visionTasks": round(min(ours_times), 3)},
            "cpuMsPerCall": {"mediapipe": round(statistics.median(mp_cpu), 3),
                             "visionTasks": round(statistics.median(ours_cpu), 3)},
            "visionTasksThreads": threads,
            "ratio": round(statistics.median(ours_times) / statistics.median(mp_times), 3),
            "cpuRatio": round(statistics.median(ours_cpu) / statistics.median(mp_cpu), 3)}
        print(f"per {kind}: VisionTasks / MediaPipe = {summary[key]['ratio']:.2f} (median of round medians), "
              f"{summary[key]['cpuRatio']:.2f} (CPU time per call); below 1 is faster")
    summary["loadAverage"] = os.getloadavg()[0]
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
