#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/segmenter/: MediaPipe 1.2.2's ImageSegmenter (IMAGE mode, CPU,
output_confidence_masks=True, output_category_mask=True) on the fixture photos and on a generated picture
with no person, for the Image Segmenter task's parity tests (Tests/VisionTasksTests/ImageSegmenterParityTests.swift).

For each case: the confidence mask as an 8-bit grayscale PNG, round(255·p) (quantisation error ≤ 0.5/255: 16-bit
PNGs took four times the room),
the category mask as an 8-bit PNG (0: the person, 255: background) and the labels, in
manifest.json (MediaPipe's Python result has no quality scores). Photos are read with mp.Image.create_from_file
(MediaPipe's own decoder). Both models run as `make models` fetched them: the landscape model of the
mediapipe==0.10.21 wheel carries Tasks metadata too (normalisation mean 0 / std 255, SEGMENTER_METADATA with
activation NONE, label "selfie"), the same as the square model's.

Run from the repository root after `make models`:
  python3 tools/references/make_segmenter_refs.py
"""
import argparse
import json
import os

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.tasks.python import BaseOptions, vision

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "models")
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "segmenter")
SQUARE = "selfie_segmenter.tflite"
LANDSCAPE = "selfie_segmentation_landscape.tflite"
PHOTOS = ["astronaut.png", "woman_sitting.jpg", "two_thumbs_up.jpg", "hand_thumb_up.jpg"]
NO_PERSON = "no_person.png"


def no_person_picture():
    """A 320x240 picture with no person: colour gradients and a few flat shapes (seeded)."""
    h, w = 240, 320
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    rgb = np.stack([x / w * 200 + 30, y / h * 180 + 40, (x + y) / (w + h) * 120 + 90], axis=-1)
    rng = np.random.default_rng(44)
    for _ in range(6):
        x0, y0 = rng.integers(0, w - 60), rng.integers(0, h - 60)
        rgb[y0:y0 + rng.integers(20, 60), x0:x0 + rng.integers(20, 60)] = rng.integers(0, 256, 3)
    return np.clip(rgb, 0, 255).astype(np.uint8)


def segmenter(model):
    options = vision.ImageSegmenterOptions(
        base_options=BaseOptions(model_asset_buffer=model), running_mode=vision.RunningMode.IMAGE,
        output_confidence_masks=True, output_category_mask=True)
    return vision.ImageSegmenter.create_from_options(options)


def main():
    os.makedirs(OUT, exist_ok=True)
    cv2.imwrite(os.path.join(OUT, NO_PERSON), cv2.cvtColor(no_person_picture(), cv2.COLOR_RGB2BGR))
    models = {"selfie_segmenter": open(os.path.join(MODELS, SQUARE), "rb").read(),
              "selfie_segmentation_landscape": open(os.path.join(MODELS, LANDSCAPE), "rb").read()}
    cases = [("selfie_segmenter", os.path.join(IMAGES, p)) for p in PHOTOS]
    cases.append(("selfie_segmenter", os.path.join(OUT, NO_PERSON)))
    cases += [("selfie_segmentation_landscape", os.path.join(IMAGES, p)) for p in ["woman_sitting.jpg", "two_thumbs_up.jpg"]]
    # A photo stored turned half round (numpy.rot90 twice) with rotation_degrees 180: MediaPipe's mask is then
    # the upright picture's, at the stored size, which a half turn keeps.
    cases.append(("selfie_segmenter", os.path.join(IMAGES, "two_thumbs_up.jpg"), 180))
    manifest = {"mediapipe": mp.__version__, "cases": []}
    for model_name, path, *turn in cases:
        rotation = turn[0] if turn else 0
        image = mp.Image.create_from_file(path)
        if rotation:
            stored = np.ascontiguousarray(np.rot90(image.numpy_view(), rotation // 90))
            image = mp.Image(image_format=mp.ImageFormat.SRGB, data=stored)
        with segmenter(models[model_name]) as task:
            result = task.segment(image, vision.ImageProcessingOptions(rotation_degrees=rotation))
            labels = list(task.labels)
        stem = "%s.%s" % (os.path.splitext(os.path.basename(path))[0], model_name)
        if rotation:
            stem += ".rotated%d" % rotation
        confidence = [np.array(m.numpy_view(), dtype=np.float32) for m in result.confidence_masks]
        category = np.array(result.category_mask.numpy_view(), dtype=np.uint8)
        files = []
        for k, mask in enumerate(confidence):
            name = "%s.confidence%d.png" % (stem, k)
            cv2.imwrite(os.path.join(OUT, name), np.round(np.clip(mask, 0, 1) * 255).astype(np.uint8))
            files.append(name)
        cv2.imwrite(os.path.join(OUT, stem + ".category.png"), category)
        manifest["cases"].append({
            "model": model_name + ".tflite", "image": os.path.relpath(path, os.path.join(ROOT, "Tests", "Fixtures")),
            "rotationDegrees": rotation,
            "width": int(category.shape[1]), "height": int(category.shape[0]), "labels": labels,
            "confidenceMasks": files, "categoryMask": stem + ".category.png",
            "personFraction": float((category == 0).mean())})
        print("%s: %dx%d, person %.3f" % (stem, category.shape[1], category.shape[0], (category == 0).mean()))
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
