#!/usr/bin/env python3
"""Regenerates the Face Landmarker references under Tests/Fixtures/references/face_landmarker/.

Runs Google's MediaPipe 1.2.2 Python FaceLandmarker (blendshapes and transformation matrices on)
on the fixture photos and on scenes composed from two sprites cut from them (pasted at integer
offsets on a flat canvas, so the Swift tests rebuild exactly the same pixels), in IMAGE mode and
in VIDEO mode over short frame sequences (faces moving, appearing and leaving).

Writes sprite PNGs and one JSON file per case; floats are rounded to 6 significant digits.
Usage: python3 tools/make_face_landmarker_refs.py [--model models/face_landmarker.task]
"""
import argparse
import json
import os

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.tasks.python import BaseOptions, vision

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
OUT = os.path.join(FIXTURES, "references", "face_landmarker")
BACKGROUND = [96, 104, 112]


def make_sprites():
    """Cuts the sprites from the fixture photos and saves them as RGB PNGs."""
    astronaut = cv2.imread(os.path.join(FIXTURES, "images", "astronaut.png"))
    woman = cv2.imread(os.path.join(FIXTURES, "images", "woman_sitting.jpg"))
    sprites = {
        "astronaut_face_280": astronaut[0:280, 85:365].copy(),
        "woman_face_240": woman[0:240, 225:465].copy(),
    }
    rgb = {}
    for name, bgr in sprites.items():
        cv2.imwrite(os.path.join(OUT, name + ".png"), bgr)
        # Read back what the tests will read.
        rgb[name] = cv2.imread(os.path.join(OUT, name + ".png"))[:, :, ::-1].copy()
    return rgb


def compose(scene_frame, canvas, sprites):
    """Pastes the frame's sprites (optionally mirrored) at integer offsets, clipped to the canvas."""
    w, h = canvas
    out = np.empty((h, w, 3), np.uint8)
    out[:, :] = BACKGROUND
    for s in scene_frame["sprites"]:
        img = sprites[s["name"]]
        if s.get("flip", False):
            img = img[:, ::-1]
        sh, sw = img.shape[:2]
        x, y = s["x"], s["y"]
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + sw, w), min(y + sh, h)
        if x0 < x1 and y0 < y1:
            out[y0:y1, x0:x1] = img[y0 - y:y1 - y, x0 - x:x1 - x]
    return np.ascontiguousarray(out)


def sig(v):
    return float(f"{float(v):.6g}")


def result_json(result):
    faces = []
    for i, lms in enumerate(result.face_landmarks):
        face = {"landmarks": [sig(c) for p in lms for c in (p.x, p.y, p.z)]}
        if result.face_blendshapes:
            cats = result.face_blendshapes[i]
            face["blendshapes"] = [sig(c.score) for c in cats]
            face["blendshapeNames"] = [c.category_name for c in cats]
        if result.facial_transformation_matrixes:
            face["matrix"] = [sig(v) for v in np.asarray(result.facial_transformation_matrixes[i]).reshape(-1)]
        faces.append(face)
    return faces


def landmarker(model, mode, num_faces):
    opts = vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=model), running_mode=mode, num_faces=num_faces,
        output_face_blendshapes=True, output_facial_transformation_matrixes=True)
    return vision.FaceLandmarker.create_from_options(opts)


def sprite(name, x, y, flip=False):
    return {"name": name, "x": x, "y": y, "flip": flip}


def cases():
    A, W = "astronaut_face_280", "woman_face_240"
    yield {"name": "astronaut", "mode": "image", "numFaces": 1, "image": "images/astronaut.png"}
    yield {"name": "woman_sitting", "mode": "image", "numFaces": 1, "image": "images/woman_sitting.jpg"}
    yield {"name": "two_faces", "mode": "image", "numFaces": 2,
           "scene": {"canvas": [640, 360], "frames": [{"timestampMs": 0, "sprites": [sprite(A, 40, 50), sprite(W, 370, 70)]}]}}
    yield {"name": "four_faces_two_kept", "mode": "image", "numFaces": 2,
           "scene": {"canvas": [560, 520], "frames": [{"timestampMs": 0, "sprites": [
               sprite(A, 0, 0), sprite(W, 290, 10), sprite(W, 20, 270, True), sprite(A, 290, 260, True)]}]}}
    # One face moving right and down, then leaving; smoothing is on (numFaces 1).
    frames = []
    for i in range(12):
        x = 10 + 24 * i if i < 9 else 290 + 60 * (i - 9)
        frames.append({"timestampMs": 33 * i, "sprites": [sprite(A, x, 20 + 6 * i)]})
    yield {"name": "video_one_face_moving", "mode": "video", "numFaces": 1, "scene": {"canvas": [480, 360], "frames": frames}}
    # Two faces: one drifting left and leaving, another entering from the right (numFaces 2).
    frames = []
    for i in range(12):
        sprites = [sprite(A, 100 - 22 * i, 40)]
        if i >= 3:
            sprites.append(sprite(W, 500 - 40 * (i - 3), 70 + 3 * i, True))
        frames.append({"timestampMs": 40 * i, "sprites": sprites})
    yield {"name": "video_two_faces_enter_leave", "mode": "video", "numFaces": 2, "scene": {"canvas": [560, 340], "frames": frames}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=os.path.join(ROOT, "models", "face_landmarker.task"))
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    sprites = make_sprites()
    for case in cases():
        mode = vision.RunningMode.IMAGE if case["mode"] == "image" else vision.RunningMode.VIDEO
        task = landmarker(args.model, mode, case["numFaces"])
        results = []
        if "image" in case:
            img = mp.Image.create_from_file(os.path.join(FIXTURES, case["image"]))
            results.append({"timestampMs": 0, "faces": result_json(task.detect(img))})
        else:
            scene = case["scene"]
            for frame in scene["frames"]:
                img = mp.Image(image_format=mp.ImageFormat.SRGB, data=compose(frame, scene["canvas"], sprites))
                if mode == vision.RunningMode.IMAGE:
                    r = task.detect(img)
                else:
                    r = task.detect_for_video(img, frame["timestampMs"])
                results.append({"timestampMs": frame["timestampMs"], "faces": result_json(r)})
        task.close()
        case["background"] = BACKGROUND
        case["results"] = results
        with open(os.path.join(OUT, case["name"] + ".json"), "w") as f:
            json.dump(case, f, separators=(",", ":"))
        print(case["name"], [len(r["faces"]) for r in results])


if __name__ == "__main__":
    main()
