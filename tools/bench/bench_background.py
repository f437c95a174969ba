#!/usr/bin/env python3
"""`vision-tasks background` measured (issue 44): speed against the usual way, flicker, and mask reuse.

Videos (1280x720, 30 fps, H.264 CRF 18, made here with ffmpeg from Tests/Fixtures/images/woman_sitting.jpg):
  still   the photo scaled to 1280 wide and cut to 720 rows, with fresh temporal noise in every frame
          (ffmpeg noise=alls=6:allf=t): a stand-in for a person sitting still before a camera;
  moving  a slow zoom with a sinusoidal pan over the photo (ffmpeg zoompan): the person moves in the frame.

Rows:
  speed     `background --blur 7` on the still video, whole process (our process plus its ffmpeg decoder
            and encoder, MP4 ultrafast): frames per second and CPU seconds per frame, with default mask
            reuse and with reuse off; against the usual way, as Linux-Fake-Background-Webcam does it, in
            one Python process: OpenCV decodes, MediaPipe 1.2.2's ImageSegmenter (VIDEO mode, the frame
            at full size) segments, OpenCV dilates the mask (5x5) and box-blurs it (10x10), blurs the
            frame (GaussianBlur 21x21, sigma 7: the same sigma as ours), blends with numpy and writes an
            MP4 (mp4v). Goals: CPU per frame <= 0.5 of theirs; >= 60 frames/s.
  flicker   `--stats` runs (reuse off): on the still video the mean frame-to-frame change of the mask
            used (smoothed) against the model's own masks (goal <= 0.5); on the moving video the IoU at
            0.5 of each smoothed mask with that frame's model mask, mean and minimum (goal >= 0.97).
  reuse     on the still video with default reuse: the share of frames reusing a mask, and the IoU of
            each reused mask with the fresh one (mean and minimum).

Needs opencv-python-headless (installed here with pip when missing) and mediapipe==1.2.2.
Usage: python3 tools/bench/bench_background.py [--binary .build/release/vision-tasks] [--frames 300] [--rounds 3]
tools/bench/bench.py runs it as its section background.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import CLI, IMAGES, ROOT

MODEL = os.path.join(ROOT, "models", "selfie_segmenter.tflite")
WIDTH, HEIGHT, FPS = 1280, 720, 30
SIGMA = 7  # ours --blur 7; theirs GaussianBlur((21, 21), 7), Linux-Fake-Background-Webcam's 21 with sigma 21/3
SECTION = "background"


def cv2_module():
    """OpenCV, installed (headless) with pip when it is missing."""
    try:
        import cv2
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "opencv-python-headless"], check=True)
        import cv2
    return cv2


def make_videos(folder, frames):
    """The still and the moving video (see the docstring); their paths."""
    photo = os.path.join(IMAGES, "woman_sitting.jpg")
    filters = {
        "still": "scale=1280:-2,crop=1280:720:0:(ih-720)/2,noise=alls=6:allf=t,format=yuv420p",
        "moving": "scale=1600:-2,crop=1600:900,zoompan=z='1.15+0.001*on':x='(iw-iw/zoom)/2+90*sin(on/15)'"
                  ":y='(ih-ih/zoom)/2+30*cos(on/11)':d=1:s=1280x720:fps=30,format=yuv420p",
    }
    paths = {}
    for name, chain in filters.items():
        paths[name] = os.path.join(folder, f"{name}.mp4")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-framerate", str(FPS),
                        "-loop", "1", "-i", photo, "-vf", chain, "-frames:v", str(frames), "-c:v", "libx264",
                        "-preset", "veryfast", "-crf", "18", paths[name]], check=True)
    return paths


def ours(binary, video, folder, extra):
    """One `background --blur` run: its summary line, with the wall seconds and the CPU seconds of the
    whole process tree (our process and its ffmpeg children, all waited for) per frame."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([binary, "background", "--model", MODEL, "--video", video, "--blur", str(SIGMA),
                          "--output", os.path.join(folder, "ours.mp4"), *extra],
                         check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = json.loads(out.strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary["wallFramesPerSecond"] = summary["frames"] / wall
    summary["treeCpuSecondsPerFrame"] = cpu / summary["frames"]
    return summary


def theirs(video, folder):
    """The usual way in this process (see the docstring): (frames per second, CPU seconds per frame)."""
    cv2 = cv2_module()
    import numpy as np
    os.environ.setdefault("GLOG_minloglevel", "2")
    import mediapipe as mp
    from mediapipe.tasks.python import BaseOptions, vision
    options = vision.ImageSegmenterOptions(base_options=BaseOptions(model_asset_path=MODEL),
                                           running_mode=vision.RunningMode.VIDEO, output_confidence_masks=True)
    kernel = np.ones((5, 5), np.uint8)
    with vision.ImageSegmenter.create_from_options(options) as segmenter:
        capture = cv2.VideoCapture(video)
        writer = cv2.VideoWriter(os.path.join(folder, "theirs.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), FPS,
                                 (WIDTH, HEIGHT))
        frames = 0
        cpu_start, start = time.process_time(), time.perf_counter()
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
            result = segmenter.segment_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb),
                                                 frames * 1000 // FPS)
            mask = result.confidence_masks[0].numpy_view()
            mask = cv2.blur(cv2.dilate(mask, kernel, iterations=1), (10, 10))[..., None]
            background = cv2.GaussianBlur(frame, (21, 21), SIGMA)
            writer.write((frame * mask + background * (1 - mask)).astype(np.uint8))
            frames += 1
        writer.release()
        capture.release()
    return frames / (time.perf_counter() - start), (time.process_time() - cpu_start) / frames


def measure(binary, folder, frames, rounds):
    """Every figure of the rows (medians over `rounds` alternating runs for the timings)."""
    videos = make_videos(folder, frames)
    runs = {"reuse": [], "noReuse": [], "theirs": []}
    for _ in range(rounds):
        runs["reuse"].append(ours(binary, videos["still"], folder, []))
        runs["noReuse"].append(ours(binary, videos["still"], folder, ["--reuse-threshold", "0"]))
        runs["theirs"].append(theirs(videos["still"], folder))
    med = lambda values: statistics.median(values)  # noqa: E731
    figures = {
        "fps": med([r["wallFramesPerSecond"] for r in runs["reuse"]]),
        "cpu": med([r["treeCpuSecondsPerFrame"] for r in runs["reuse"]]),
        "fpsNoReuse": med([r["wallFramesPerSecond"] for r in runs["noReuse"]]),
        "cpuNoReuse": med([r["treeCpuSecondsPerFrame"] for r in runs["noReuse"]]),
        "theirsFps": med([r[0] for r in runs["theirs"]]),
        "theirsCpu": med([r[1] for r in runs["theirs"]]),
        "reusedShare": runs["reuse"][0]["reused"] / runs["reuse"][0]["frames"],
    }
    still = ours(binary, videos["still"], folder, ["--stats", "--reuse-threshold", "0"])
    moving = ours(binary, videos["moving"], folder, ["--stats", "--reuse-threshold", "0"])
    reuse = ours(binary, videos["still"], folder, ["--stats"])
    figures.update({
        "flickerRaw": still["flickerRaw"], "flickerSmoothed": still["flickerSmoothed"],
        "iouMean": moving["iouUsedVsFreshMean"], "iouMin": moving["iouUsedVsFreshMin"],
        "reuseIouMean": reuse.get("iouReusedVsFreshMean", float("nan")),
        "reuseIouMin": reuse.get("iouReusedVsFreshMin", float("nan")),
        "reusedShareStats": reuse["reused"] / reuse["frames"],
    })
    return figures


def background_rows(table, tmp, quick):
    """bench.py's section background: its rows, ours against the usual way or against the raw masks."""
    folder = os.path.join(tmp, "background")
    os.makedirs(folder, exist_ok=True)
    f = measure(CLI, folder, 90 if quick else 300, 1 if quick else 3)
    table.add(SECTION, "blur 720p, CPU s/frame (whole process)", f["cpu"], f["theirsCpu"], "s", goal=0.5,
              reference="MediaPipe+OpenCV")
    table.add(SECTION, "blur 720p, CPU s/frame, reuse off", f["cpuNoReuse"], f["theirsCpu"], "s", goal=0.5,
              reference="MediaPipe+OpenCV")
    table.add(SECTION, "blur 720p, frames/s (whole process)", f["fps"], 60.0, "fps", goal=1.0,
              higher_is_better=True, reference="goal 60 fps")
    table.add(SECTION, "flicker still: smoothed vs model's masks", f["flickerSmoothed"], f["flickerRaw"], "",
              goal=0.5, reference="raw masks")
    table.add(SECTION, "moving: IoU smoothed vs model's (min)", f["iouMin"], 1.0, "", goal=0.97,
              higher_is_better=True, reference="raw masks")
    table.add(SECTION, "still: reused mask IoU vs fresh (min)", f["reuseIouMin"], 1.0, "", reference="fresh masks")
    print(f"  {SECTION}: {json.dumps(f)}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default=CLI)
    p.add_argument("--frames", type=int, default=300)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary} is missing: run swift build -c release --product vision-tasks")
    with tempfile.TemporaryDirectory() as tmp:
        figures = measure(args.binary, tmp, args.frames, args.rounds)
    figures["cpuRatio"] = figures["cpu"] / figures["theirsCpu"]
    figures["cpuRatioNoReuse"] = figures["cpuNoReuse"] / figures["theirsCpu"]
    figures["flickerRatio"] = figures["flickerSmoothed"] / figures["flickerRaw"]
    figures["loadAverage"] = os.getloadavg()
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
