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
    times, cpu = [], []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        call()
        cpu.append((time.process_time() - cpu_start) * 1e3)
        times.append((time.perf_counter() - start) * 1e3)
    faces = len(call().face_landmarks)
    task.close()
    return statistics.median(times), statistics.median(cpu), faces


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
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--threads", type=int, default=0, help="VisionTasks threads (default: its default)")
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        raise SystemExit(f"{BENCH} is missing: run swift build -c release --product vision-tasks-bench")
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
            report = ours_median(video, args.runs, args.warmup, args.threads)
            ours_times.append(report["medianMs"])
            ours_cpu.append(report["cpuMedianMs"])
            threads = report["threads"]
            print(f"{kind}: MediaPipe {median:.3f} ms (CPU {cpu:.3f} ms, {faces} face), "
                  f"VisionTasks {report['medianMs']:.3f} ms (CPU {report['cpuMedianMs']:.3f} ms)")
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
