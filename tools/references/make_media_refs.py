#!/usr/bin/env python3
"""Regenerates the VIDEO-mode references of the media tests with Google's MediaPipe (1.2.2).

The test videos are made with ffmpeg from the fixture photos (pan and zoom) by the recipe in
Tests/Fixtures/references/media/recipes.json, which the Swift tests follow too; this script
writes that file, makes each video, decodes it with ffmpeg exactly as VisionTasks' VideoReader
does (rgb24, -copyts, showinfo presentation timestamps), feeds every frame to MediaPipe's tasks
in VIDEO mode with the frame's timestamp in ms, and writes
Tests/Fixtures/references/media/<video>.json:
  {"frames": [{"index", "timestampMs", "byteSum" (sum of the RGB frame's bytes)}],
   "faceDetector": [[{"box": [x, y, w, h], "score", "keypoints": [[x, y], ...]}] per frame],
   "faceLandmarker": [[[[x, y, z] * 478] per face] per frame],
   "handLandmarker": [[{"landmarks": [[x, y, z] * 21], "handedness": [name, score]}] per frame],
   "gestureRecognizer": [[{"landmarks", "handedness", "gesture": [name, score, index]}] per frame],
   "imageSegmenter": [{"confidenceMask", "categoryMask"} per frame]}
(only the tasks the recipe names). Numbers are rounded to 6 decimals. The Image Segmenter's masks
(selfie_segmenter.tflite, both masks asked for) are 8-bit PNGs beside the JSON, <video>/NN.confidence.png
holding round(255·p) and <video>/NN.category.png, named in the JSON by their path under media/.

Usage: python3 tools/references/make_media_refs.py [--models models] [--videos face_pan,...]
"""
import argparse
import json
import os
import re
import subprocess
import tempfile

import numpy as np

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "media")

# Each video: a photo, zoomed in from 1 to 1 + 0.01 n while panning left to right, at `rate`.
RECIPES = {
    "face_pan": {"photo": "astronaut.png", "frames": 30, "rate": "15", "size": "384x384",
                 "tasks": ["faceDetector", "faceLandmarker"]},
    "hand_pan": {"photo": "hand_thumb_up.jpg", "frames": 30, "rate": "15", "size": "480x384",
                 "tasks": ["handLandmarker", "gestureRecognizer"]},
    "person_pan": {"photo": "woman_sitting.jpg", "frames": 12, "rate": "10", "size": "320x224",
                   "tasks": ["imageSegmenter"]},
}


def ffmpeg_args(recipe, photo_path, out_path):
    """The ffmpeg command line (after `ffmpeg`) that makes a recipe's video; the Swift tests build the same."""
    n, rate, size = recipe["frames"], recipe["rate"], recipe["size"]
    return ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-framerate", rate, "-loop", "1", "-i", photo_path,
            "-vf", f"zoompan=z='1+0.01*on':x='(iw-iw/zoom)*on/{n}':y='(ih-ih/zoom)/2':d=1:s={size}:fps={rate}",
            "-frames:v", str(n), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-threads", "1", out_path]


def decode(path):
    """(frames as HxWx3 uint8, timestamps in ms) the way VideoReader decodes."""
    w, h = (int(v) for v in subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
         "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout.strip().split(","))
    p = subprocess.run(["ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "info", "-i", path,
                        "-map", "0:v:0", "-copyts", "-fps_mode", "passthrough", "-vf", "showinfo@frames",
                        "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], check=True, capture_output=True)
    log = p.stderr.decode()
    num, den = (int(v) for v in re.search(r"\[showinfo@frames @ [^\]]*\] config in time_base: (\d+)/(\d+)", log).groups())
    pts = [int(v) for v in re.findall(r"\[showinfo@frames @ [^\]]*\] n:\s*\d+ pts:\s*(-?\d+)", log)]
    frames = np.frombuffer(p.stdout, np.uint8).reshape(-1, h, w, 3)
    assert len(frames) == len(pts), (len(frames), len(pts))
    # Round half away from zero, as Swift's .rounded() does.
    stamps = [int(np.floor(abs(t * num * 1000 / den) + 0.5) * np.sign(t)) for t in pts]
    return frames, stamps


def r(v):
    return round(float(v), 6)


def run_face_detector(models, frames, stamps):
    opts = vision.FaceDetectorOptions(base_options=BaseOptions(model_asset_path=f"{models}/blaze_face_short_range.tflite"),
                                      running_mode=vision.RunningMode.VIDEO)
    out = []
    with vision.FaceDetector.create_from_options(opts) as task:
        for f, t in zip(frames, stamps):
            res = task.detect_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(f)), t)
            out.append([{"box": [d.bounding_box.origin_x, d.bounding_box.origin_y, d.bounding_box.width, d.bounding_box.height],
                         "score": r(d.categories[0].score),
                         "keypoints": [[r(k.x), r(k.y)] for k in d.keypoints]} for d in res.detections])
    return out


def run_face_landmarker(models, frames, stamps):
    opts = vision.FaceLandmarkerOptions(base_options=BaseOptions(model_asset_path=f"{models}/face_landmarker.task"),
                                        running_mode=vision.RunningMode.VIDEO)
    out = []
    with vision.FaceLandmarker.create_from_options(opts) as task:
        for f, t in zip(frames, stamps):
            res = task.detect_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(f)), t)
            out.append([[[r(p.x), r(p.y), r(p.z)] for p in face] for face in res.face_landmarks])
    return out


def hands(res, gestures=None):
    out = []
    for i, lm in enumerate(res.hand_landmarks):
        h = res.handedness[i][0]
        item = {"landmarks": [[r(p.x), r(p.y), r(p.z)] for p in lm], "handedness": [h.category_name, r(h.score)]}
        if gestures is not None:
            g = gestures[i][0] if gestures[i] else None
            item["gesture"] = [g.category_name, r(g.score), g.index] if g else None
        out.append(item)
    return out


def run_hand_landmarker(models, frames, stamps):
    opts = vision.HandLandmarkerOptions(base_options=BaseOptions(model_asset_path=f"{models}/hand_landmarker.task"),
                                        running_mode=vision.RunningMode.VIDEO)
    with vision.HandLandmarker.create_from_options(opts) as task:
        return [hands(task.detect_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(f)), t))
                for f, t in zip(frames, stamps)]


def run_gesture_recognizer(models, frames, stamps):
    opts = vision.GestureRecognizerOptions(base_options=BaseOptions(model_asset_path=f"{models}/gesture_recognizer.task"),
                                           running_mode=vision.RunningMode.VIDEO)
    out = []
    with vision.GestureRecognizer.create_from_options(opts) as task:
        for f, t in zip(frames, stamps):
            res = task.recognize_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(f)), t)
            out.append(hands(res, res.gestures))
    return out


def run_image_segmenter(models, frames, stamps):
    """The masks of every frame: (confidence as round(255·p) uint8, category) per frame."""
    opts = vision.ImageSegmenterOptions(base_options=BaseOptions(model_asset_path=f"{models}/selfie_segmenter.tflite"),
                                        running_mode=vision.RunningMode.VIDEO, output_confidence_masks=True,
                                        output_category_mask=True)
    out = []
    with vision.ImageSegmenter.create_from_options(opts) as task:
        for f, t in zip(frames, stamps):
            res = task.segment_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(f)), t)
            confidence = np.array(res.confidence_masks[0].numpy_view(), dtype=np.float32)
            out.append((np.round(np.clip(confidence, 0, 1) * 255).astype(np.uint8),
                        np.array(res.category_mask.numpy_view(), dtype=np.uint8)))
    return out


def write_masks(name, masks):
    """Writes each frame's masks as PNGs under media/<name>/; their paths under media/ per frame."""
    import cv2
    os.makedirs(os.path.join(OUT, name), exist_ok=True)
    out = []
    for i, (confidence, category) in enumerate(masks):
        files = {"confidenceMask": f"{name}/{i:02d}.confidence.png", "categoryMask": f"{name}/{i:02d}.category.png"}
        cv2.imwrite(os.path.join(OUT, files["confidenceMask"]), confidence)
        cv2.imwrite(os.path.join(OUT, files["categoryMask"]), category)
        out.append(files)
    return out


RUNNERS = {"faceDetector": run_face_detector, "faceLandmarker": run_face_landmarker,
           "handLandmarker": run_hand_landmarker, "gestureRecognizer": run_gesture_recognizer, "imageSegmenter": run_image_segmenter}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=os.path.join(ROOT, "models"))
    ap.add_argument("--videos", default=",".join(RECIPES), help="regenerate only these videos' references")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    recipes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, recipe in RECIPES.items():
            if name not in args.videos.split(","):
                # Kept as committed: its recipe stays in recipes.json.
                recipes[name] = dict(recipe, ffmpeg=ffmpeg_args(recipe, "{photo}", "{out}"))
                continue
            video = os.path.join(tmp, name + ".mp4")
            cmd = ffmpeg_args(recipe, os.path.join(IMAGES, recipe["photo"]), video)
            subprocess.run(["ffmpeg"] + cmd, check=True)
            recipes[name] = dict(recipe, ffmpeg=ffmpeg_args(recipe, "{photo}", "{out}"))
            frames, stamps = decode(video)
            ref = {"frames": [{"index": i, "timestampMs": t, "byteSum": int(f.astype(np.int64).sum())}
                              for i, (f, t) in enumerate(zip(frames, stamps))]}
            for task in recipe["tasks"]:
                ref[task] = RUNNERS[task](args.models, frames, stamps)
                if task == "imageSegmenter":
                    ref[task] = write_masks(name, ref[task])
            with open(os.path.join(OUT, name + ".json"), "w") as f:
                json.dump(ref, f, separators=(",", ":"))
            print(f"{name}: {len(frames)} frames, tasks {recipe['tasks']}")
    with open(os.path.join(OUT, "recipes.json"), "w") as f:
        json.dump(recipes, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
