#!/usr/bin/env python3
"""Faces found against face size, BlazeFace short range beside full range: our Face Detector
(`vision-tasks face-detector`) and legacy MediaPipe 0.10.21 (from the references), on the far-face
composites of tools/references/make_face_full_range_refs.py (a head-and-shoulders photo at 5-90% of a 1280x720
frame's height, on a plain grey frame or on a street photo).

A composite's pasted face counts as found when a detection's box centre lies inside the pasted
photo. The face's height is the photo's side times the ratio of face box to photo in the largest
composite (legacy full range's box). Ours runs at the default minDetectionConfidence 0.5 and, for
full range, also at 0.6, the threshold the legacy full-range graph always uses. Prints a Markdown table.

Usage: python3 tools/bench/far_face_recall.py [VISION_TASKS_BINARY]   (default .build/debug/vision-tasks)
"""
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "references"))
import make_face_full_range_refs as recipe  # noqa: E402

ROOT = recipe.ROOT
RUNS = {"short": ("models/blaze_face_short_range.tflite", "0.5"),
        "full": ("models/face_detection_full_range_sparse.tflite", "0.5"),
        "full 0.6": ("models/face_detection_full_range_sparse.tflite", "0.6")}
# The table's columns: who found the pasted face (MediaPipe's from the references).
COLUMNS = ["ours short", "MediaPipe short", "ours full", "ours full at 0.6", "MediaPipe full"]
REFERENCES = os.path.join(ROOT, "Tests", "Fixtures", "references", "face_detector", "full_range.json")


def found(faces, c):
    left, top, side = c["left"], c["top"], c["side"]
    for f in faces:
        box = f["boundingBox"]
        x, y = box["originX"] + box["width"] / 2, box["originY"] + box["height"] / 2
        if left <= x < left + side and top <= y < top + side:
            return box["height"]
    return None


def composite_name(background, side):
    """The file name of the composite of `side` on `background` ("plain" or a fixture photo's name)."""
    return "%s-%03d.png" % (background.split(".")[0], side)


def recall(binary, folder):
    """One record per composite, in the references' order: its background, the pasted photo's side
    as a percentage of the frame's height, the face box's height in pixels and in percent, and
    whether each of COLUMNS found the pasted face (ours: `binary` run now; MediaPipe: the references).
    The composites are written to the empty folder `folder`, named by composite_name."""
    with open(REFERENCES) as f:
        composites = json.load(f)["composites"]
    face = recipe.load_rgb("astronaut.png")
    names = []
    for c in composites:
        pixels = recipe.load_rgb(c["background"]) if c["background"] != "plain" else None
        rgb, _ = recipe.composite(c["side"], pixels, face)
        names.append(composite_name(c["background"], c["side"]))
        Image.fromarray(rgb).save(os.path.join(folder, names[-1]))
    ours = {}
    for key, (model, confidence) in RUNS.items():
        out = subprocess.run([binary, "face-detector", "--model", os.path.join(ROOT, model), "--threads", "1",
                              "--min-detection-confidence", confidence, folder],
                             check=True, capture_output=True, text=True).stdout
        by_name = {}
        for line in out.splitlines():
            record = json.loads(line)
            by_name[os.path.basename(record["input"])] = [{"boundingBox": d["boundingBox"]}
                                                         for d in record["result"]["detections"]]
        ours[key] = by_name
    if not composites or any(set(ours[key]) != set(names) for key in RUNS):
        raise SystemExit(f"far_face_recall: {binary} answered for {[len(ours[k]) for k in RUNS]} of the "
                         f"{len(names)} composites of {REFERENCES} (none answered, or files other than those)")
    largest = max(composites, key=lambda c: c["side"])
    ratio = found(largest["faces"], largest) / largest["side"]
    records = []
    for c, name in zip(composites, names):
        height = ratio * c["side"]
        hits = {"ours short": ours["short"][name], "MediaPipe short": c["shortRangeFaces"],
                "ours full": ours["full"][name], "ours full at 0.6": ours["full 0.6"][name], "MediaPipe full": c["faces"]}
        records.append({"background": c["background"], "side": c["side"], "photoPercent": 100 * c["side"] / 720,
                        "faceBoxPx": round(height), "facePercent": 100 * height / 720,
                        "found": {key: found(faces, c) is not None for key, faces in hits.items()}})
    return records


def markdown(records):
    """The records as a Markdown table, one row per composite."""
    lines = ["| background | photo, % of height | face box px (% of height) | " + " | ".join(COLUMNS) + " |",
             "|---|---|---|" + "---|" * len(COLUMNS)]
    for r in records:
        lines.append("| %s | %.1f | %d (%.1f%%) | %s |" % (
            r["background"], r["photoPercent"], r["faceBoxPx"], r["facePercent"],
            " | ".join("yes" if r["found"][key] else "no" for key in COLUMNS)))
    return "\n".join(lines)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "vision-tasks")
    with tempfile.TemporaryDirectory() as folder:
        print(markdown(recall(binary, folder)))


if __name__ == "__main__":
    main()
