#!/usr/bin/env python3
"""How much the Pose Landmarker's landmarks shake when nobody moves: a measurement, not a test.

Makes two 1280x720, 30 fps videos of people holding still, 60 frames each: the sitting woman of
Tests/Fixtures/images/woman_sitting.jpg beside her mirror image (two people), and the woman alone,
each fitted into the frame on grey, with fresh camera-like noise in every frame (Gaussian, sigma 3
levels per channel), written losslessly (H.264 at -qp 0, 4:4:4). Then runs both sides in VIDEO mode
on them:
  two people  ours with --num-poses 2 (no smoothing, as MediaPipe), ours with --num-poses 2
              --smooth-all-poses, MediaPipe 1.2.2 with num_poses=2 (its usual loop, frames decoded by
              ffmpeg, timestamps i*1000/30 ms);
  one person  ours and MediaPipe with num_poses 1 (both smooth a single person), for reference;
and prints the mean frame-to-frame motion of the landmarks, as the Euclidean distance in normalized
image coordinates (x, y), over the torso (landmarks 11, 12, 23, 24) and over all 33, in thousandths,
with the frames where exactly the expected people were found (a frame pair counts only when both
frames have them; people are matched between frames by the left-to-right order of their torsos).

Usage: python3 tools/bench/pose_jitter.py [--frames 60]   (after swift build -c release --product vision-tasks)
tools/bench/bench.py runs it as its section pose-jitter.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

os.environ.setdefault("GLOG_minloglevel", "2")
import mediapipe as mp  # noqa: E402
from mediapipe.tasks.python import BaseOptions, vision  # noqa: E402

from bench_common import CLI, ROOT, sitting_people  # noqa: E402

MODEL = os.path.join(ROOT, "models", "pose_landmarker_full.task")
WIDTH, HEIGHT, FPS = 1280, 720, 30
NOISE_SIGMA = 3.0
TORSO = [11, 12, 23, 24]
SECTION = "pose-jitter"


def still_frames(picture, frames, seed):
    """`frames` RGB frames of `picture` fitted into 1280x720 on grey, each with fresh Gaussian noise."""
    scale = min(WIDTH / picture.width, HEIGHT / picture.height)
    fitted = picture.resize((round(picture.width * scale), round(picture.height * scale)), Image.LANCZOS)
    canvas = Image.new("RGB", (WIDTH, HEIGHT), (128, 128, 128))
    canvas.paste(fitted, ((WIDTH - fitted.width) // 2, (HEIGHT - fitted.height) // 2))
    base = np.asarray(canvas).astype(np.float32)
    rng = np.random.default_rng(seed)
    for _ in range(frames):
        yield np.clip(np.rint(base + rng.normal(0, NOISE_SIGMA, base.shape)), 0, 255).astype(np.uint8)


def write_video(frames, path):
    """Encodes RGB frames as lossless H.264 (libx264 -qp 0, yuv444p) at 30 fps; returns the frames."""
    kept = list(frames)
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo",
                    "-pix_fmt", "rgb24", "-s", f"{WIDTH}x{HEIGHT}", "-r", str(FPS), "-i", "pipe:0",
                    "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-pix_fmt", "yuv444p", path],
                   input=b"".join(f.tobytes() for f in kept), check=True)
    return kept


def decoded(path):
    """The video's frames as ffmpeg decodes them to RGB (what MediaPipe's side is given)."""
    out = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", path, "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "pipe:1"], check=True, capture_output=True).stdout
    return np.frombuffer(out, np.uint8).reshape(-1, HEIGHT, WIDTH, 3)


def ours(path, num_poses, smooth_all):
    """Our CLI in VIDEO mode on the video: per frame, per person, the 33 (x, y) landmarks."""
    command = [CLI, "pose-landmarker", "--model", MODEL, "--video", path, "--no-progress",
               "--num-poses", str(num_poses)] + (["--smooth-all-poses"] if smooth_all else [])
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [[[(p["x"], p["y"]) for p in pose] for pose in json.loads(line)["result"]["landmarks"]]
            for line in out.splitlines() if line.strip()]


def mediapipe(frames, num_poses):
    """MediaPipe 1.2.2's PoseLandmarker in VIDEO mode on the frames: per frame, per person, 33 (x, y)."""
    task = vision.PoseLandmarker.create_from_options(vision.PoseLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=MODEL), running_mode=vision.RunningMode.VIDEO, num_poses=num_poses))
    results = []
    for i, frame in enumerate(frames):
        result = task.detect_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(frame)),
                                       int(i * 1000 / FPS))
        results.append([[(p.x, p.y) for p in pose] for pose in result.pose_landmarks])
    task.close()
    return results


def motion(per_frame, people):
    """(frames with exactly `people` people, mean torso motion, mean motion of all 33): the mean over
    consecutive frame pairs that both have them, and over people matched left to right, of each
    landmark's Euclidean (x, y) displacement."""
    def ordered(poses):
        return sorted((np.array(p) for p in poses), key=lambda p: p[TORSO, 0].mean())
    found = sum(len(poses) == people for poses in per_frame)
    torso, whole = [], []
    for before, after in zip(per_frame, per_frame[1:]):
        if len(before) != people or len(after) != people:
            continue
        for a, b in zip(ordered(before), ordered(after)):
            step = np.linalg.norm(b - a, axis=1)
            torso.append(step[TORSO].mean())
            whole.append(step.mean())
    nan = float("nan")
    return found, (float(np.mean(torso)) if torso else nan), (float(np.mean(whole)) if whole else nan)


def measure(tmp, frames):
    """Runs every case; returns [(label, people, frames, found, torso, all 33)] with motions in thousandths."""
    person, pair = sitting_people()
    rows = []
    for people, picture, seed in [(2, pair, 2), (1, person, 1)]:
        path = os.path.join(tmp, f"still{people}.mp4")
        write_video(still_frames(picture, frames, seed), path)
        theirs = decoded(path)
        cases = ([("ours --num-poses 2 (no smoothing)", ours(path, 2, False)),
                  ("ours --num-poses 2 --smooth-all-poses", ours(path, 2, True)),
                  ("MediaPipe num_poses=2 (no smoothing)", mediapipe(theirs, 2))] if people == 2 else
                 [("ours --num-poses 1 (smoothed)", ours(path, 1, False)),
                  ("MediaPipe num_poses=1 (smoothed)", mediapipe(theirs, 1))])
        for label, per_frame in cases:
            found, torso, whole = motion(per_frame, people)
            rows.append((label, people, len(per_frame), found, torso * 1e3, whole * 1e3))
    return rows


def print_rows(rows):
    """The table: one line per case."""
    print(f"mean frame-to-frame landmark motion of people holding still, 1280x720 with noise sigma {NOISE_SIGMA:g} "
          f"(normalized x, y; thousandths)")
    print(f"{'case':<40} {'people':>6} {'found':>9} {'torso':>7} {'all 33':>7}")
    for label, people, n, found, torso, whole in rows:
        print(f"{label:<40} {people:>6} {found:>4}/{n:<4} {torso:>7.3f} {whole:>7.3f}")


def jitter_rows(table, tmp, quick):
    """bench.py's section pose-jitter: the table printed, then rows of ours against MediaPipe (no goal)."""
    rows = measure(tmp, 30 if quick else 60)
    print_rows(rows)
    by_label = {r[0]: r for r in rows}
    for ours_label, theirs_label in [("ours --num-poses 2 (no smoothing)", "MediaPipe num_poses=2 (no smoothing)"),
                                     ("ours --num-poses 2 --smooth-all-poses", "MediaPipe num_poses=2 (no smoothing)"),
                                     ("ours --num-poses 1 (smoothed)", "MediaPipe num_poses=1 (smoothed)")]:
        mine, theirs = by_label[ours_label], by_label[theirs_label]
        for column, name in [(4, "torso"), (5, "all 33")]:
            table.add(SECTION, f"{ours_label}, {name}", mine[column], theirs[column], "1e-3",
                      reference="MediaPipe")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--frames", type=int, default=60)
    args = p.parse_args()
    if not os.path.exists(CLI):
        sys.exit(f"{CLI} is missing: run swift build -c release --product vision-tasks")
    with tempfile.TemporaryDirectory() as tmp:
        print_rows(measure(tmp, args.frames))


if __name__ == "__main__":
    main()
