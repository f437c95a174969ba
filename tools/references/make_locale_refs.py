#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/hands/display_names_locale.json with Google's MediaPipe 1.2.2:
what the Gesture Recognizer reports under ClassifierOptions.display_names_locale.

No published bundle has a localized label file, so this script gives one to the canned classifier of
models/gesture_recognizer.task: it adds TFLite metadata (through the flatbuffers object API of the
schema modules MediaPipe ships; the wheel's metadata writer needs a binding it does not ship) naming
TENSOR_AXIS_LABELS files for the classifier's output, appends them as a zip as tflite-support's
populator does, and repackages the bundle. The Swift tests build the same bundles with their own
writer (Tests/FixtureSupport/LabelledModels.swift) and compare with these results.

Each case lists the label files (name, locale, labels) in metadata order, and for each locale asked
(null: the option unset) either the gestures and handedness of hand_thumb_up.jpg or the error
MediaPipe raises when the task is created.

Usage: python3 tools/references/make_locale_refs.py  (from the repository root; needs models/ fetched)
"""
import argparse
import io
import json
import zipfile

import flatbuffers
import mediapipe as mp
from mediapipe.tasks.metadata import metadata_schema_py_generated as meta
from mediapipe.tasks.metadata import schema_py_generated as schema
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.components.processors import classifier_options
from mediapipe.tasks.python.core import base_options

NAMES = ["None", "Closed_Fist", "Open_Palm", "Pointing_Up", "Thumb_Down", "Thumb_Up", "Victory", "ILoveYou"]
FRENCH = ["Aucun", "Poing_fermé", "Paume_ouverte", "Index_levé", "Pouce_baissé", "Pouce_levé", "Victoire", "Je_t_aime"]
BUNDLE = "models/gesture_recognizer.task"
IMAGE = "Tests/Fixtures/images/hand_thumb_up.jpg"
OUT = "Tests/Fixtures/references/hands/display_names_locale.json"

CASES = [
    {"name": "default_and_fr", "files": [["labels.txt", None, NAMES], ["labels_fr.txt", "fr", FRENCH]],
     "locales": [None, "fr", "de", "", "en"]},
    {"name": "fr_short", "files": [["labels.txt", None, NAMES], ["labels_fr.txt", "fr", FRENCH[:7]]],
     "locales": [None, "fr", "de"]},
    {"name": "fr_first", "files": [["labels_fr.txt", "fr", FRENCH], ["labels.txt", None, NAMES]],
     "locales": [None, "fr"]},
]


def metadata(files):
    model = meta.ModelMetadataT()
    model.name = "labelled canned classifier"
    model.minParserVersion = "1.0.0"
    graph = meta.SubGraphMetadataT()
    embedding = meta.TensorMetadataT()
    embedding.name = "embedding"
    scores = meta.TensorMetadataT()
    scores.name = "scores"
    scores.associatedFiles = []
    for name, locale, _ in files:
        f = meta.AssociatedFileT()
        f.name = name
        f.type = meta.AssociatedFileType.TENSOR_AXIS_LABELS
        f.locale = locale
        scores.associatedFiles.append(f)
    graph.inputTensorMetadata = [embedding]
    graph.outputTensorMetadata = [scores]
    model.subgraphMetadata = [graph]
    b = flatbuffers.Builder(0)
    b.Finish(model.Pack(b), b"M001")
    return bytes(b.Output())


def labelled_model(canned, files):
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(canned, 0))
    buffer = schema.BufferT()
    buffer.data = list(metadata(files))
    model.buffers.append(buffer)
    entry = schema.MetadataT()
    entry.name = "TFLITE_METADATA"
    entry.buffer = len(model.buffers) - 1
    model.metadata = (model.metadata or []) + [entry]
    b = flatbuffers.Builder(0)
    b.Finish(model.Pack(b), b"TFL3")
    out = io.BytesIO(bytes(b.Output()))
    out.seek(0, 2)
    with zipfile.ZipFile(out, "a") as z:
        for name, _, labels in files:
            z.writestr(name, "\n".join(labels) + "\n")
    return out.getvalue()


def replaced(zip_bytes, name, data):
    source = zipfile.ZipFile(io.BytesIO(zip_bytes))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n in source.namelist():
            z.writestr(n, data if n == name else source.read(n))
    return out.getvalue()


def bundle(files):
    outer = open(BUNDLE, "rb").read()
    inner = zipfile.ZipFile(io.BytesIO(outer)).read("hand_gesture_recognizer.task")
    canned = zipfile.ZipFile(io.BytesIO(inner)).read("canned_gesture_classifier.tflite")
    inner = replaced(inner, "canned_gesture_classifier.tflite", labelled_model(canned, files))
    return replaced(outer, "hand_gesture_recognizer.task", inner)


def category(c):
    return {"index": c.index, "score": round(c.score, 6), "categoryName": c.category_name or "",
            "displayName": c.display_name or ""}


def run(bundle_bytes, locale):
    kw = {}
    if locale is not None:
        kw["canned_gesture_classifier_options"] = classifier_options.ClassifierOptions(display_names_locale=locale)
    options = vision.GestureRecognizerOptions(
        base_options=base_options.BaseOptions(model_asset_buffer=bundle_bytes), **kw)
    try:
        recognizer = vision.GestureRecognizer.create_from_options(options)
    except Exception as e:  # MediaPipe raises ValueError/RuntimeError with its status message
        return {"locale": locale, "error": str(e)}
    r = recognizer.recognize(mp.Image.create_from_file(IMAGE))
    return {"locale": locale, "gestures": [[category(c) for c in g] for g in r.gestures],
            "handedness": [[category(c) for c in h] for h in r.handedness]}


def main():
    cases = []
    for case in CASES:
        data = bundle(case["files"])
        cases.append({"name": case["name"], "files": case["files"],
                      "results": [run(data, locale) for locale in case["locales"]]})
    with open(OUT, "w") as f:
        json.dump({"generator": "mediapipe 1.2.2, tools/references/make_locale_refs.py", "image": "images/hand_thumb_up.jpg",
                   "cases": cases}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
