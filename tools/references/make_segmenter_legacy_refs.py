#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/segmenter/legacy/: the legacy selfie segmentation solution of
mediapipe==0.10.21, `mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=1)` (the
landscape model, 256x144), on the fixture photos and on the segmenter references' picture with no person,
for the Image Segmenter's landscape parity test (Tests/VisionTasksTests/ImageSegmenterParityTests.swift).

The legacy graph (selfie_segmentation_cpu) stretches the whole picture to the model's input in [0, 1]
(no letterbox, border zero), runs the model and resizes its one channel to the picture's size with
OpenCV's bilinear resize (activation NONE); it gives only that float mask, no category mask. For each
photo: the mask as an 8-bit grayscale PNG, round(255·p) (quantisation error ≤ 0.5/255; a level ≥ 128 is
exactly p ≥ 0.5 but for p = 0.5 itself), listed in manifest.json with the picture's size, by its path under
references/segmenter/: a mask whose PNG bytes equal a Tasks reference's there (MediaPipe 1.2.2 running the same
model: equal on both photos they share) names that file instead of writing a copy. Photos are
decoded with mp.Image.create_from_file, MediaPipe's own decoder, as make_segmenter_refs.py does.

Legacy MediaPipe needs numpy < 2, so it runs in a virtual environment of its own (the one
tools/bench/bench_far_faces.py makes). From the repository root, after `make models` and
make_segmenter_refs.py (which writes no_person.png):
  python3 -m venv .venv-mediapipe-0.10.21 && .venv-mediapipe-0.10.21/bin/pip install mediapipe==0.10.21
  .venv-mediapipe-0.10.21/bin/python tools/references/make_segmenter_legacy_refs.py
"""
import argparse
import json
import os

import cv2
import mediapipe as mp
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
SEGMENTER = os.path.join(FIXTURES, "references", "segmenter")
OUT = os.path.join(SEGMENTER, "legacy")
PICTURES = ["images/woman_sitting.jpg", "images/two_thumbs_up.jpg", "images/astronaut.png",
            "images/hand_thumb_up.jpg", "references/segmenter/no_person.png"]


def main():
    if mp.__version__ != "0.10.21":
        raise SystemExit(f"mediapipe {mp.__version__} is running; this needs mediapipe==0.10.21 (see the docstring)")
    os.makedirs(OUT, exist_ok=True)
    manifest = {"mediapipe": mp.__version__,
                "solution": "mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=1)",
                "model": "selfie_segmentation_landscape.tflite", "cases": []}
    for picture in PICTURES:
        rgb = np.ascontiguousarray(mp.Image.create_from_file(os.path.join(FIXTURES, picture)).numpy_view()[..., :3])
        # A fresh graph per picture: each is segmented as a still.
        with mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=1) as solution:
            mask = np.array(solution.process(rgb).segmentation_mask, dtype=np.float32)
        if mask.shape != rgb.shape[:2]:
            raise SystemExit(f"{picture}: the legacy mask is {mask.shape}, the picture {rgb.shape[:2]}")
        png = cv2.imencode(".png", np.round(np.clip(mask, 0, 1) * 255).astype(np.uint8))[1].tobytes()
        name = next((f for f in sorted(os.listdir(SEGMENTER))
                     if f.endswith(".png") and open(os.path.join(SEGMENTER, f), "rb").read() == png), None)
        if name is None:
            name = "legacy/" + os.path.splitext(os.path.basename(picture))[0] + ".confidence.png"
            with open(os.path.join(SEGMENTER, name), "wb") as f:
                f.write(png)
        manifest["cases"].append({"image": picture, "width": int(mask.shape[1]), "height": int(mask.shape[0]),
                                  "confidenceMask": name, "personFraction": float((mask > 0.5).mean())})
        print("%s: %dx%d, person %.3f" % (picture, mask.shape[1], mask.shape[0], (mask > 0.5).mean()))
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
