#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/gestures/training_refs.json: what MediaPipe 1.2.2 recognizes with a
gesture_recognizer.task that `vision-tasks train-gestures` trained (issue #35), so TrainingTests can check,
without Python, that MediaPipe loads our bundle and that both runtimes give the same gestures.

It trains on Tests/Fixtures/gestures (80 photos from SubhiH/HandsDataset: none, one, two, five) with the tool
(release build) at seed 0 with the default settings and their search off (`--search off`, as the Swift tests train:
the search picks other settings), keeps the trained custom_gesture_classifier.tflite beside
the references (3 KB; TrainingTests packs it with the base bundle's models into the very bundle MediaPipe ran),
then runs MediaPipe's GestureRecognizer (IMAGE mode, min_hand_detection_confidence 0.7 as the training's hand
search) on every photo twice:
  custom_only  canned classifier's score threshold 1 (MediaPipe refuses an allowlist on Google's canned classifier,
               which has no labels): the custom classifier's gesture, or None; the Swift test limits ours to
               the canned "None" instead, which gives the same results;
  fallback     default options: where the custom classifier says None, MediaPipe falls back to the canned
               classifier (whose bundle carries no label names, so MediaPipe names its gestures "").
It also records the .task's sha256 and CRC-32 (which the Swift test checks) and the custom classifier's labels as its appended labels.txt gives them.

Usage: python3 tools/references/make_gesture_training_refs.py [--tool .build/release/vision-tasks]  (repository root;
needs models/ and `pip install mediapipe==1.2.2`)
       python3 tools/references/make_gesture_training_refs.py --fixtures-from HANDSDATASET  rebuilds the photos first
       (the first 20 one-hand photos by name of the 0-, 1-, 2- and 5-finger classes of its train split, halved).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
import zlib
import io

from reference_pictures import ROOT, significant

PHOTOS = os.path.join(ROOT, "Tests", "Fixtures", "gestures")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "gestures", "training_refs.json")
CLASSIFIER = os.path.join(os.path.dirname(OUT), "custom_gesture_classifier.tflite")
FIXTURE_LABELS = {"none": "0-hand", "one": "1-hand", "two": "2-hand", "five": "5-hand"}
PER_LABEL = 20


def make_fixtures(dataset):
    """Rebuilds Tests/Fixtures/gestures from a SubhiH/HandsDataset checkout."""
    import csv
    import shutil
    from collections import defaultdict
    from PIL import Image
    rows = defaultdict(list)
    with open(os.path.join(dataset, "data", "train_labels.csv")) as f:
        for row in csv.DictReader(f):
            rows[row["filename"]].append(row["class"])
    for label, cls in FIXTURE_LABELS.items():
        folder = os.path.join(PHOTOS, label)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name in sorted(n for n, c in rows.items() if c == [cls])[:PER_LABEL]:
            image = Image.open(os.path.join(dataset, "images", name)).convert("RGB")
            image.resize((image.width // 2, image.height // 2), Image.LANCZOS).save(os.path.join(folder, name), quality=88)
SEED = 0
MIN_DETECTION = 0.7


def recognize(task, photos, custom_only):
    import mediapipe as mp
    from mediapipe.tasks.python import vision
    from mediapipe.tasks.python.components.processors import classifier_options
    canned = classifier_options.ClassifierOptions(score_threshold=1.0) if custom_only else classifier_options.ClassifierOptions()
    options = vision.GestureRecognizerOptions(base_options=mp.tasks.BaseOptions(model_asset_path=task),
                                              min_hand_detection_confidence=MIN_DETECTION,
                                              canned_gesture_classifier_options=canned)
    out = []
    with vision.GestureRecognizer.create_from_options(options) as recognizer:
        for photo in photos:
            result = recognizer.recognize(mp.Image.create_from_file(photo))
            g = result.gestures[0][0] if result.gestures else None
            out.append({"photo": os.path.relpath(photo, os.path.join(ROOT, "Tests", "Fixtures")),
                        "hands": len(result.hand_landmarks),
                        # A canned gesture of Google's bundle has no name in MediaPipe (None): written "".
                        "gesture": None if g is None else (g.category_name or ""),
                        "score": None if g is None else significant(g.score, 7)})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "vision-tasks"))
    parser.add_argument("--fixtures-from", metavar="HANDSDATASET", help="rebuild the photos from this checkout first")
    args = parser.parse_args()
    if args.fixtures_from:
        make_fixtures(args.fixtures_from)
    import mediapipe
    if mediapipe.__version__ != "1.2.2":
        sys.exit(f"needs mediapipe 1.2.2, found {mediapipe.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        task = os.path.join(tmp, "trained.task")
        subprocess.run([args.tool, "train-gestures", PHOTOS, "--model", os.path.join(ROOT, "models", "gesture_recognizer.task"),
                        "--output", task, "--seed", str(SEED), "--search", "off", "--no-progress"], check=True, stdout=subprocess.DEVNULL)
        data = open(task, "rb").read()
        inner = zipfile.ZipFile(io.BytesIO(zipfile.ZipFile(io.BytesIO(data)).read("hand_gesture_recognizer.task")))
        classifier = inner.read("custom_gesture_classifier.tflite")
        os.makedirs(os.path.dirname(OUT), exist_ok=True)
        with open(CLASSIFIER, "wb") as f:
            f.write(classifier)
        # The metadata's associated files are a zip appended to the FlatBuffer (tflite-support's layout).
        labels = zipfile.ZipFile(io.BytesIO(classifier)).read("labels.txt").decode().split("\n")
        photos = sorted(os.path.join(PHOTOS, label, name) for label in os.listdir(PHOTOS)
                        if os.path.isdir(os.path.join(PHOTOS, label)) for name in os.listdir(os.path.join(PHOTOS, label)))
        refs = {"mediapipe": mediapipe.__version__, "seed": SEED, "minHandDetectionConfidence": MIN_DETECTION,
                "taskSha256": hashlib.sha256(data).hexdigest(), "taskCRC32": zlib.crc32(data), "labels": [l for l in labels if l],
                "customOnly": recognize(task, photos, True), "fallback": recognize(task, photos, False)}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}: labels {refs['labels']}, {sum(1 for r in refs['customOnly'] if r['hands'])} photos with a hand")


if __name__ == "__main__":
    main()
