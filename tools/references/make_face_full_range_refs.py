#!/usr/bin/env python3
"""Regenerates the full-range face detection references with legacy MediaPipe (mediapipe==0.10.21).

Writes Tests/Fixtures/references/face_detector/full_range.json: what
`mp.solutions.face_detection.FaceDetection(model_selection=1)` finds on every photo in Tests/Fixtures/images and on the far-face composites below
(`faces`), and on the composites what its short-range model (`model_selection=0`) finds
(`shortRangeFaces`, for the recall table of tools/bench/far_face_recall.py).

The legacy full-range graph decodes with the min_score_thresh of face_detection_full_range_common.pbtxt,
0.6, whatever min_detection_confidence says (checked: 0.1 to 0.9 give the same faces), and the
weighted suppression averages every candidate above it; so our Face Detector matches it with
minDetectionConfidence 0.6 (at its default 0.5 more candidates join the average, which moves boxes
by a few pixels and can add faces scoring 0.5-0.6).

The legacy API's output: per face a score, a bounding box relative to the image (xmin, ymin, width,
height, fractions of its size) and six relative keypoints (right eye, left eye, nose tip, mouth
centre, right and left ear tragion). MediaPipe's Tasks turn such a box into pixels with
DetectionTransformationCalculator: each of left, top, width and height scaled by the image size in
float32 and truncated toward zero; `pixelBox` below does the same, so the references also carry the
box a Tasks Face Detector would report.

Composites (rebuilt by the Swift tests from the fixtures, integer arithmetic only, so both sides
have the same pixels): a 1280x720 frame whose background is plain grey (128, 128, 128) or
woman_sitting.jpg scaled (a street scene with a larger face), with a
head-and-shoulders photo, the 200x200 square of astronaut.png at (124, 30) (the face is about half
its height), scaled to a side of `side` pixels and pasted with its left edge at 800 - side // 2 and
its top at (720 - side) // 2. Sides: 5% to 90% of the frame's height. Scaling averages boxes: output
pixel i of n from m source pixels covers source pixels [(i * m) // n, max(that + 1, ((i + 1) * m) // n)),
in both axes, and each channel is (sum + count // 2) // count.

Photos are loaded with mp.Image.create_from_file (stb_image), whose pixels our decoder reproduces.

Usage (legacy MediaPipe needs numpy < 2, so it lives in a virtual environment of its own; `make bench`
makes the same one, $MEDIAPIPE_LEGACY_VENV or .venv-mediapipe-0.10.21, for tools/bench/bench_far_faces.py):
  python3 -m venv .venv-mediapipe-0.10.21 && .venv-mediapipe-0.10.21/bin/pip install mediapipe==0.10.21
  .venv-mediapipe-0.10.21/bin/python tools/references/make_face_full_range_refs.py
"""
import argparse
import json
import os

import numpy as np
import mediapipe as mp

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "face_detector", "full_range.json")
PHOTOS = ["astronaut.png", "hand_thumb_up.jpg", "two_thumbs_up.jpg", "woman_sitting.jpg"]
FRAME = (1280, 720)
BACKGROUNDS = ["plain", "woman_sitting.jpg"]
# The head-and-shoulders square cut from astronaut.png: left, top, side.
FACE_CROP = (124, 30, 200)
# The pasted photo's side in pixels: 5, 7.5, 10, 15, 20, 30, 45, 60, 75 and 90% of the frame's height.
SIDES = [36, 54, 72, 108, 144, 216, 324, 432, 540, 648]


def load_rgb(name):
    image = mp.Image.create_from_file(os.path.join(IMAGES, name))
    return np.array(image.numpy_view())[..., :3].copy()


def box_bounds(out_size, in_size):
    """Source range [start, end) of each output pixel: start = (i * in) // out, at least one pixel."""
    i = np.arange(out_size)
    start = (i * in_size) // out_size
    end = np.maximum(start + 1, ((i + 1) * in_size) // out_size)
    return start, end


def scaled(photo, width, height):
    """photo scaled to width x height by box averaging in integers: each output pixel is the mean of
    its source box, (sum + count // 2) // count (nearest neighbour when enlarging)."""
    integral = np.zeros((photo.shape[0] + 1, photo.shape[1] + 1, 3), dtype=np.int64)
    integral[1:, 1:] = photo.astype(np.int64).cumsum(0).cumsum(1)
    y0, y1 = box_bounds(height, photo.shape[0])
    x0, x1 = box_bounds(width, photo.shape[1])
    total = (integral[y1][:, x1] - integral[y0][:, x1] - integral[y1][:, x0] + integral[y0][:, x0])
    count = ((y1 - y0)[:, None] * (x1 - x0)[None, :])[..., None]
    return ((total + count // 2) // count).astype(np.uint8)


def composite(side, background, face):
    """The composite with the face photo of `side` pixels on `background` (None: plain grey), and
    the pasted photo's left and top."""
    width, height = FRAME
    frame = scaled(background, width, height) if background is not None else np.full((height, width, 3), 128, np.uint8)
    left, top = 800 - side // 2, (height - side) // 2
    x, y, crop = FACE_CROP
    frame[top:top + side, left:left + side] = scaled(face[y:y + crop, x:x + crop], side, side)
    return np.ascontiguousarray(frame), (left, top)


def pixel_box(box, width, height):
    f = np.float32
    return {"originX": int(f(box.xmin) * f(width)), "originY": int(f(box.ymin) * f(height)),
            "width": int(f(box.width) * f(width)), "height": int(f(box.height) * f(height))}


def faces(detector, rgb):
    result = detector.process(rgb)
    height, width = rgb.shape[:2]
    found = []
    for d in result.detections or []:
        box = d.location_data.relative_bounding_box
        found.append({
            "score": float(d.score[0]),
            "relativeBox": [float(box.xmin), float(box.ymin), float(box.width), float(box.height)],
            "boundingBox": pixel_box(box, width, height),
            "keypoints": [[float(k.x), float(k.y)] for k in d.location_data.relative_keypoints],
        })
    return found


def main():
    detector = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)
    short_range = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    photos = [{"image": name, "faces": faces(detector, load_rgb(name))} for name in PHOTOS]
    face = load_rgb("astronaut.png")
    composites = []
    for background in BACKGROUNDS:
        pixels = load_rgb(background) if background != "plain" else None
        for side in SIDES:
            rgb, (left, top) = composite(side, pixels, face)
            composites.append({"background": background, "side": side, "left": left, "top": top,
                               "faces": faces(detector, rgb), "shortRangeFaces": faces(short_range, rgb)})
    out = {
        "source": "mediapipe==0.10.21 mp.solutions.face_detection.FaceDetection(model_selection=1), which decodes at 0.6",
        "minDetectionConfidence": 0.6,
        "frame": list(FRAME), "face": "astronaut.png", "faceCrop": list(FACE_CROP),
        "photos": photos, "composites": composites,
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for c in composites:
        print("%s side %3d: %d faces %s, short range %d" % (c["background"], c["side"], len(c["faces"]),
              [round(x["score"], 3) for x in c["faces"]], len(c["shortRangeFaces"])))
    for p in photos:
        print("%s: %d faces" % (p["image"], len(p["faces"])))


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
