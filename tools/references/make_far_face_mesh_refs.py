#!/usr/bin/env python3
"""Regenerates the far-face mesh references with MediaPipe 1.2.2's own Face Landmarker.

Writes Tests/Fixtures/references/face_landmarker/far_faces.json. For each far-face composite below
(built by tools/references/make_face_full_range_refs.py's recipe) and each face legacy MediaPipe's full-range
detector finds there (from Tests/Fixtures/references/face_detector/full_range.json): a square crop
three times the face box's side, centred on the box and shifted to stay inside the frame, enlarged
to 480x480 (PIL bicubic) so the face is large enough for the short-range detector of
face_landmarker.task; MediaPipe 1.2.2's FaceLandmarker (IMAGE mode, one face) on that crop; its 478
landmarks mapped back to fractions of the composite (x, y; z is left out: it depends on the crop's
scale). The Swift test runs our Face Landmarker with the full-range detector on the whole composite
and compares.

Usage (system Python with mediapipe==1.2.2, after `make models`):
  python3 tools/references/make_far_face_mesh_refs.py
"""
import argparse
import json
import os
import sys

import numpy as np
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_face_full_range_refs as recipe  # noqa: E402

ROOT = recipe.ROOT
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "face_landmarker", "far_faces.json")
DETECTIONS = os.path.join(ROOT, "Tests", "Fixtures", "references", "face_detector", "full_range.json")
CASES = [("plain", 144), ("woman_sitting.jpg", 216)]
CROP_FACTOR = 3
ENLARGED = 480


def main():
    with open(DETECTIONS) as f:
        composites = {(c["background"], c["side"]): c for c in json.load(f)["composites"]}
    options = vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=os.path.join(ROOT, "models", "face_landmarker.task")), num_faces=1)
    landmarker = vision.FaceLandmarker.create_from_options(options)
    face = recipe.load_rgb("astronaut.png")
    width, height = recipe.FRAME
    cases = []
    for background, side in CASES:
        pixels = recipe.load_rgb(background) if background != "plain" else None
        rgb, _ = recipe.composite(side, pixels, face)
        faces = []
        for detection in composites[(background, side)]["faces"]:
            box = detection["boundingBox"]
            crop = CROP_FACTOR * max(box["width"], box["height"])
            cx, cy = box["originX"] + box["width"] // 2, box["originY"] + box["height"] // 2
            left = min(max(cx - crop // 2, 0), width - crop)
            top = min(max(cy - crop // 2, 0), height - crop)
            enlarged = Image.fromarray(rgb[top:top + crop, left:left + crop]).resize((ENLARGED, ENLARGED), Image.BICUBIC)
            result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.asarray(enlarged)))
            if len(result.face_landmarks) != 1:
                raise SystemExit("MediaPipe found %d faces in the crop of %s side %d at %s"
                                 % (len(result.face_landmarks), background, side, box))
            landmarks = [[round((left + p.x * crop) / width, 6), round((top + p.y * crop) / height, 6)]
                         for p in result.face_landmarks[0]]
            faces.append({"detection": box, "crop": [left, top, crop], "landmarks": landmarks})
        cases.append({"background": background, "side": side, "faces": faces})
        print("%s side %d: %d faces" % (background, side, len(faces)))
    out = {"source": "mediapipe==1.2.2 FaceLandmarker (face_landmarker.task, IMAGE mode, num_faces=1) on each crop",
           "cropFactor": CROP_FACTOR, "enlargedTo": ENLARGED, "cases": cases}
    with open(OUT, "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
