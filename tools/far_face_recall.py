#!/usr/bin/env python3
"""Faces found against face size, BlazeFace short range beside full range: our Face Detector
(`vision-tasks face-detector`) and legacy MediaPipe 0.10.21 (from the references), on the far-face
composites of tools/make_face_full_range_refs.py (a head-and-shoulders photo at 5-90% of a 1280x720
frame's height, on a plain grey frame or on a street photo).

A composite's pasted face counts as found when a detection's box centre lies inside the pasted
photo. The face's height is the photo's side times the ratio of face box to photo in the largest
composite (legacy full range's box). Ours runs at the default minDetectionConfidence 0.5 and, for
full range, also at 0.6, the threshold the legacy full-range graph always uses. Prints a Markdown table.

Usage: python3 tools/far_face_recall.py [VISION_TASKS_BINARY]   (default .build/debug/vision-tasks)
"""
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_face_full_range_refs as recipe  # noqa: E402

ROOT = recipe.ROOT
RUNS = {"short": ("models/blaze_face_short_range.tflite", "0.5"),
        "full": ("models/face_detection_full_range_sparse.tflite", "0.5"),
        "full 0.6": ("models/face_detection_full_range_sparse.tflite", "0.6")}


def found(faces, c):
    left, top, side = c["left"], c["top"], c["side"]
    for f in faces:
        box = f["boundingBox"]
        x, y = box["originX"] + box["width"] / 2, box["originY"] + box["height"] / 2
        if left <= x < left + side and top <= y < top + side:
            return box["height"]
    return None


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "vision-tasks")
    with open(os.path.join(ROOT, "Tests", "Fixtures", "references", "face_detector", "full_range.json")) as f:
        composites = json.load(f)["composites"]
    face = recipe.load_rgb("astronaut.png")
    ours = {}
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for c in composites:
            pixels = recipe.load_rgb(c["background"]) if c["background"] != "plain" else None
            rgb, _ = recipe.composite(c["side"], pixels, face)
            name = "%s-%03d.png" % (c["background"].split(".")[0], c["side"])
            Image.fromarray(rgb).save(os.path.join(tmp, name))
            names.append(name)
        for key, (model, confidence) in RUNS.items():
            out = subprocess.run([binary, "face-detector", "--model", os.path.join(ROOT, model), "--threads", "1",
                                  "--min-detection-confidence", confidence, tmp],
                                 check=True, capture_output=True, text=True).stdout
            by_name = {}
            for line in out.splitlines():
                record = json.loads(line)
                by_name[os.path.basename(record["input"])] = [{"boundingBox": d["boundingBox"]}
                                                             for d in record["result"]["detections"]]
            ours[key] = by_name
    largest = max(composites, key=lambda c: c["side"])
    ratio = found(largest["faces"], largest) / largest["side"]
    print("| background | photo, % of height | face box px (% of height) | ours short | MediaPipe short "
          "| ours full | ours full at 0.6 | MediaPipe full |")
    print("|---|---|---|---|---|---|---|---|")
    for c, name in zip(composites, names):
        found_in = lambda key: found(ours[key][name], c) is not None
        height = ratio * c["side"]
        print("| %s | %.1f | %d (%.1f%%) | %s |" % (
            c["background"], 100 * c["side"] / 720, round(height), 100 * height / 720, " | ".join(
                "yes" if hit else "no" for hit in [found_in("short"), found(c["shortRangeFaces"], c) is not None,
                                                   found_in("full"), found_in("full 0.6"), found(c["faces"], c) is not None])))

if __name__ == "__main__":
    main()
