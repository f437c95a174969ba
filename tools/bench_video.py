#!/usr/bin/env python3
"""VIDEO mode on a 10-second 720p video: frames per second of each task, ours next to MediaPipe's.

Makes a 1280x720, 30 fps, 10 s H.264 video from a fixture photo (pan and zoom) with ffmpeg, then
  - ours: `vision-tasks <task> --video FILE` (release build), end to end: ffmpeg decoding in a
    pipe, every frame through the task with its timestamp, one JSON line per frame written out;
    frames per second = frames / wall time of the whole command;
  - MediaPipe 1.2.2 (Python API): the same frames decoded beforehand with ffmpeg into memory (not
    timed), then detect_for_video / recognize_for_video on every frame (timed).
Prints one line per task and, with --json, a JSON object.

Usage: python3 tools/bench_video.py [--bin .build/release/vision-tasks] [--models models] [--threads 1]
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")

TASKS = [
    # (subcommand, model, photo, MediaPipe task factory, method)
    ("face-detector", "blaze_face_short_range.tflite", "astronaut.png",
     lambda m, t: vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(
         base_options=BaseOptions(model_asset_path=m), running_mode=vision.RunningMode.VIDEO)), "detect_for_video"),
    ("face-landmarker", "face_landmarker.task", "astronaut.png",
     lambda m, t: vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
         base_options=BaseOptions(model_asset_path=m), running_mode=vision.RunningMode.VIDEO)), "detect_for_video"),
    ("hand-landmarker", "hand_landmarker.task", "two_thumbs_up.jpg",
     lambda m, t: vision.HandLandmarker.create_from_options(vision.HandLandmarkerOptions(
         base_options=BaseOptions(model_asset_path=m), running_mode=vision.RunningMode.VIDEO, num_hands=2)), "detect_for_video"),
    ("gesture-recognizer", "gesture_recognizer.task", "two_thumbs_up.jpg",
     lambda m, t: vision.GestureRecognizer.create_from_options(vision.GestureRecognizerOptions(
         base_options=BaseOptions(model_asset_path=m), running_mode=vision.RunningMode.VIDEO, num_hands=2)), "recognize_for_video"),
]
EXTRA = {"hand-landmarker": ["--num-hands", "2"], "gesture-recognizer": ["--num-hands", "2"]}


def make_video(photo, path):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-framerate", "30", "-loop", "1",
                    "-i", photo, "-vf",
                    "scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,"
                    "zoompan=z='1+0.001*on':x='(iw-iw/zoom)*on/300':y='(ih-ih/zoom)/2':d=1:s=1280x720:fps=30",
                    "-frames:v", "300", "-c:v", "libx264", "-pix_fmt", "yuv420p", path], check=True)


def decode(path):
    p = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", path, "-copyts", "-fps_mode", "passthrough",
                        "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], check=True, capture_output=True)
    return np.frombuffer(p.stdout, np.uint8).reshape(-1, 720, 1280, 3)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "vision-tasks"))
    ap.add_argument("--models", default=os.path.join(ROOT, "models"))
    ap.add_argument("--threads", default="1")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        videos = {}
        for sub, model, photo, make, method in TASKS:
            if photo not in videos:
                videos[photo] = os.path.join(tmp, photo + ".mp4")
                make_video(os.path.join(IMAGES, photo), videos[photo])
            video = videos[photo]
            frames = decode(video)
            n = len(frames)
            stamps = [round(i * 1000 / 30) for i in range(n)]
            entry = {"frames": n}
            commands = subprocess.run([args.bin, "--help"], capture_output=True, text=True).stdout
            if f" {sub} " in commands or f" {sub}\n" in commands:
                start = time.perf_counter()
                p = subprocess.run([args.bin, sub, "--model", os.path.join(args.models, model), "--threads", args.threads,
                                    "--video", video, "--no-progress"] + EXTRA.get(sub, []),
                                   capture_output=True)
                wall = time.perf_counter() - start
                lines = p.stdout.count(b"\n")
                entry["ours_fps"] = round(lines / wall, 1)
                entry["ours_lines"] = lines
            task = make(os.path.join(args.models, model), args.threads)
            fn = getattr(task, method)
            start = time.perf_counter()
            for f, t in zip(frames, stamps):
                fn(mp.Image(image_format=mp.ImageFormat.SRGB, data=f), t)
            entry["mediapipe_fps"] = round(n / (time.perf_counter() - start), 1)
            task.close()
            report[sub] = entry
            print(f"{sub:20s} {n} frames 1280x720: ours {entry.get('ours_fps', 'n/a')} fps, MediaPipe {entry['mediapipe_fps']} fps",
                  flush=True)
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
