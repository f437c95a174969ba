#!/usr/bin/env python3
"""Regenerates the Hand Landmarker / Gesture Recognizer references under
Tests/Fixtures/references/hands/ with Google's MediaPipe 1.2.2 (and LiteRT 2.3.0).

What it writes:
  images/*.png      composed test pictures (several hands, a rotated hand)
  video/<seq>/NN.png short frame sequences built from the fixture photos (pan, zoom+rotate, a hand entering)
  image_refs.json   IMAGE-mode results of HandLandmarker and GestureRecognizer on every picture
  video_refs.json   VIDEO-mode results over every frame sequence
  options_refs.json classifier-option cases (score threshold, max results, allow/deny lists)
  rotation_refs.json image orientation: photos (IMAGE mode) and the pan sequence (VIDEO mode) with
                    their pixels stored turned k quarter turns counterclockwise (numpy.rot90) and
                    given with ImageProcessingOptions(rotation_degrees=90 k), which turns them upright
                    (an MPImage with orientation .right for k=1, .down for k=2, .left for k=3, as
                    MediaPipe for iOS maps UIImage orientations)

Under rotation_degrees MediaPipe answers in the stored frame; rotation_refs.json holds its results
moved to the upright image, the frame our results are in: landmark x and y turned with the picture,
z rescaled from the stored width to the upright width (MediaPipe scales it by the crop's width
normalized to the image width), world landmarks' x and y turned with the picture (MediaPipe rotates
them by the crop's rotation in the stored frame). Handedness and gestures are unchanged: MediaPipe's
LandmarksToMatrixCalculator turns the landmarks' x and y upright (by the frame's rotation) before the
gesture embedder, but leaves z as the stored frame scaled it (relative to the stored width), so for
a quarter turn the canned-classifier check below feeds the upright x, y with the stored-frame z; it
must reproduce MediaPipe's score, which confirms the frame change.

The canned classifier inside gesture_recognizer.task carries no label metadata, so MediaPipe reports
its gestures with an empty name. For those cases the script also runs Google's LiteRT on the
gesture embedder and canned classifier with the landmarks MediaPipe produced (prepared as
MediaPipe's LandmarksToMatrix/HandednessToMatrix calculators prepare them), checks that the winning
score equals MediaPipe's, and records the winning index and its name from the documented label list.

Usage: python3 tools/references/make_hand_refs.py  (from the repository root; needs models/ fetched)
"""
import argparse
import json
import math
import os
import sys
import zipfile
from types import SimpleNamespace

import cv2
import numpy as np
import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core import base_options as base_options_lib
from mediapipe.tasks.python.components.processors import classifier_options as co
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions
from ai_edge_litert.interpreter import Interpreter
from reference_pictures import FIXTURES, ROOT, fit, load, rel, significant

OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "hands")
MODELS = os.path.join(ROOT, "models")
HAND_TASK = os.path.join(MODELS, "hand_landmarker.task")
GESTURE_TASK = os.path.join(MODELS, "gesture_recognizer.task")
OPERATIONS_TASK = os.path.join(MODELS, "operations.task")
CANNED_LABELS = ["None", "Closed_Fist", "Open_Palm", "Pointing_Up", "Thumb_Down",
                 "Thumb_Up", "Victory", "ILoveYou"]
FRAME_STEP_MS = 33
SEVERAL_HANDS = ("woman_sitting.jpg", "hands_pair.png")
# Orientation cases: (photo, numHands, quarter turns CCW of the stored pixels).
ROTATION_PICTURES = [("hand_thumb_up.jpg", 1, 1), ("hand_thumb_up.jpg", 1, 2), ("hand_thumb_up.jpg", 1, 3),
                     ("two_thumbs_up.jpg", 2, 1), ("two_thumbs_up.jpg", 2, 3)]
ROTATION_VIDEO = ("pan", 1)  # the sequence and its quarter turns


def r6(v):
    """Rounds to 6 significant digits."""
    return significant(v, 6)


def compose_pictures():
    os.makedirs(os.path.join(OUT, "images"), exist_ok=True)
    thumb = load("hand_thumb_up.jpg")
    two = load("two_thumbs_up.jpg")
    pictures = {}
    # The thumbs-up hand beside its mirror image: a left and a right hand.
    a = fit(thumb, 320, 300)
    pair = np.concatenate([a, cv2.flip(a, 1)], axis=1)
    pictures["hands_pair.png"] = pair
    # The thumbs-up photo turned a quarter turn clockwise: a hand lying sideways.
    pictures["thumb_rotated.png"] = cv2.rotate(fit(thumb, 400, 400), cv2.ROTATE_90_CLOCKWISE)
    # Two photos stacked: three hands, more than numHands=2 can hold.
    b = fit(two, 400, 320)
    c = fit(thumb, 400, 320)
    w = max(b.shape[1], c.shape[1])
    canvas = np.zeros((b.shape[0] + c.shape[0], w, 3), np.uint8)
    canvas[:b.shape[0], :b.shape[1]] = b
    canvas[b.shape[0]:, :c.shape[1]] = c
    pictures["hands_stacked.png"] = canvas
    paths = []
    for name, img in pictures.items():
        p = os.path.join(OUT, "images", name)
        cv2.imwrite(p, img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        paths.append(p)
    return paths


def warp(img, out_w, out_h, cx, cy, scale, angle_deg):
    """The view of `img` centred at (cx, cy), zoomed by `scale`, turned by angle_deg."""
    m = cv2.getRotationMatrix2D((cx, cy), angle_deg, scale)
    m[0, 2] += out_w / 2 - cx
    m[1, 2] += out_h / 2 - cy
    return cv2.warpAffine(img, m, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def make_sequences():
    thumb = fit(load("hand_thumb_up.jpg"), 480, 400)
    seqs = {}
    n = 8
    # pan: the single hand drifts across the frame.
    h, w = thumb.shape[:2]
    seqs["pan"] = (1, [warp(thumb, 360, 300, w * (0.35 + 0.03 * i), h * (0.55 - 0.01 * i), 0.8, 0)
                       for i in range(n)])
    # zoom_rotate: two hands (the thumbs-up hand and its mirror image), zooming in and turning.
    a = fit(load("hand_thumb_up.jpg"), 240, 240)
    pair = np.concatenate([a, cv2.flip(a, 1)], axis=1)
    h, w = pair.shape[:2]
    seqs["zoom_rotate"] = (2, [warp(pair, 400, 240, w / 2, h / 2, 0.8 + 0.025 * i, -8 + 2 * i) for i in range(n)])
    # enter: one hand, then a second (mirrored) hand slides in from the right.
    a = fit(load("hand_thumb_up.jpg"), 220, 220)
    frames = []
    for i in range(n):
        canvas = np.full((260, 480, 3), 40, np.uint8)
        canvas[20:20 + a.shape[0], 10:10 + a.shape[1]] = a
        m = cv2.flip(a, 1)
        x = 480 - int(a.shape[1] * min(1.0, i / (n - 3)))
        vis = 480 - x
        if vis > 0:
            canvas[20:20 + m.shape[0], x:480] = m[:, :vis]
        frames.append(canvas)
    seqs["enter"] = (2, frames)
    out = {}
    for name, (num_hands, frames) in seqs.items():
        d = os.path.join(OUT, "video", name)
        os.makedirs(d, exist_ok=True)
        paths = []
        for i, f in enumerate(frames):
            p = os.path.join(d, f"{i:02d}.png")
            cv2.imwrite(p, f, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            paths.append(p)
        out[name] = (num_hands, paths)
    return out


# ---------------------------------------------------------------- MediaPipe runs

def cat(c):
    return {"index": c.index, "score": r6(c.score), "categoryName": c.category_name or "",
            "displayName": c.display_name or ""}


def lms(lst):
    return [[r6(p.x), r6(p.y), r6(p.z)] for p in lst]


def hand_result(r):
    return {"handedness": [[cat(c) for c in h] for h in r.handedness],
            "landmarks": [lms(h) for h in r.hand_landmarks],
            "worldLandmarks": [lms(h) for h in r.hand_world_landmarks]}


class CannedOracle:
    """LiteRT run of the gesture embedder and canned classifier on MediaPipe's own landmarks."""

    def __init__(self):
        with zipfile.ZipFile(GESTURE_TASK) as z:
            inner = zipfile.ZipFile(__import__("io").BytesIO(z.read("hand_gesture_recognizer.task")))
        self.embedder = Interpreter(model_content=inner.read("gesture_embedder.tflite"))
        self.canned = Interpreter(model_content=inner.read("canned_gesture_classifier.tflite"))
        self.embedder.allocate_tensors()
        self.canned.allocate_tensors()

    @staticmethod
    def _matrix(points, width, height):
        p = np.array(points, np.float32)
        if width is not None:
            m = max(width, height)
            p[:, 0] = (p[:, 0] - 0.5) * (width / m) + 0.5
            p[:, 1] = (p[:, 1] - 0.5) * (height / m) + 0.5
        p = p - p[0]
        scale = max(p[:, 0].max() - p[:, 0].min(), p[:, 1].max() - p[:, 1].min()) + 1e-5
        return (p / scale).astype(np.float32)

    def scores(self, landmarks, world, handedness, width, height):
        top = max(handedness, key=lambda c: c.score)
        right = top.score if top.category_name == "Right" else 1.0 - top.score
        ins = {d["name"]: d["index"] for d in self.embedder.get_input_details()}
        self.embedder.set_tensor(ins["hand"], self._matrix([[p.x, p.y, p.z] for p in landmarks], width, height)[None])
        self.embedder.set_tensor(ins["handedness"], np.array([[right]], np.float32))
        self.embedder.set_tensor(ins["world_hand"], self._matrix([[p.x, p.y, p.z] for p in world], None, None)[None])
        self.embedder.invoke()
        emb = self.embedder.get_tensor(self.embedder.get_output_details()[0]["index"])
        self.canned.set_tensor(self.canned.get_input_details()[0]["index"], emb)
        self.canned.invoke()
        return self.canned.get_tensor(self.canned.get_output_details()[0]["index"])[0]


def gesture_result(r, oracle=None, size=None, embedder_z_scale=1.0):
    """The result as JSON; with `oracle`, the canned winner on its landmarks in a `size` frame, their z
    multiplied by `embedder_z_scale` (the upright-to-stored width ratio MediaPipe's embedder input keeps)."""
    out = hand_result(r)
    out["gestures"] = [[cat(c) for c in g] for g in r.gestures]
    if oracle is not None:
        canned = []
        for i in range(len(r.hand_landmarks)):
            points = [SimpleNamespace(x=p.x, y=p.y, z=p.z * embedder_z_scale) for p in r.hand_landmarks[i]]
            s = oracle.scores(points, r.hand_world_landmarks[i], r.handedness[i], *size)
            k = int(np.argmax(s))
            if r.gestures and r.gestures[i]:
                mp_score = r.gestures[i][0].score
                if abs(mp_score - float(s[k])) > 2e-3:
                    sys.exit(f"LiteRT canned score {s[k]} differs from MediaPipe's {mp_score}")
            canned.append({"index": k, "categoryName": CANNED_LABELS[k], "scores": [r6(v) for v in s]})
        out["cannedWinner"] = canned
    return out


def hand_landmarker(num_hands, mode=vision.RunningMode.IMAGE, **kw):
    o = vision.HandLandmarkerOptions(base_options=base_options_lib.BaseOptions(model_asset_path=HAND_TASK),
                                     running_mode=mode, num_hands=num_hands, **kw)
    return vision.HandLandmarker.create_from_options(o)


def gesture_recognizer(task, num_hands, mode=vision.RunningMode.IMAGE, **kw):
    o = vision.GestureRecognizerOptions(base_options=base_options_lib.BaseOptions(model_asset_path=task),
                                        running_mode=mode, num_hands=num_hands, **kw)
    return vision.GestureRecognizer.create_from_options(o)


def image_size(path):
    h, w = cv2.imread(path).shape[:2]
    return w, h


def main():
    for m in (HAND_TASK, GESTURE_TASK, OPERATIONS_TASK):
        if not os.path.exists(m):
            sys.exit(f"missing {m}: run `make models` first")
    os.makedirs(OUT, exist_ok=True)
    oracle = CannedOracle()
    pictures = [os.path.join(FIXTURES, n) for n in ("hand_thumb_up.jpg", "two_thumbs_up.jpg", "woman_sitting.jpg")]
    pictures += compose_pictures()

    # IMAGE mode.
    image_cases = []
    for path in pictures:
        img = mp.Image.create_from_file(path)
        size = image_size(path)
        # numHands 1 too where the picture holds two hands, to check the clipping.
        for num_hands in ((1, 2) if os.path.basename(path) in SEVERAL_HANDS else (2,)):
            case = {"image": rel(path), "numHands": num_hands}
            with hand_landmarker(num_hands) as t:
                case["handLandmarker"] = hand_result(t.detect(img))
            with gesture_recognizer(GESTURE_TASK, num_hands) as t:
                plain = t.recognize(img)
                case["gestureRecognizer"] = gesture_result(plain, oracle, size)
            with gesture_recognizer(OPERATIONS_TASK, num_hands) as t:
                case["operations"] = gesture_result(t.recognize(img))
            image_cases.append(case)
    write("image_refs.json", {"generator": "mediapipe 1.2.2, tools/references/make_hand_refs.py", "cases": image_cases})

    # Classifier options (IMAGE mode, numHands 2).
    option_cases = []
    opts = [
        ("operations", {"custom": {"category_allowlist": ["add", "plus"]}}),
        ("operations", {"custom": {"category_denylist": ["divide", "0"]}}),
        ("operations", {"custom": {"score_threshold": 0.9}}),
        ("operations", {"custom": {"max_results": 1}}),
        ("operations", {"custom": {"category_allowlist": ["no_such_gesture"]}}),
        ("gestureRecognizer", {"canned": {"score_threshold": 0.95}}),
        ("gestureRecognizer", {"canned": {"max_results": 2}}),
    ]
    for path in (pictures[0], pictures[2]):
        img = mp.Image.create_from_file(path)
        for bundle, o in opts:
            kw = {}
            if "custom" in o:
                kw["custom_gesture_classifier_options"] = co.ClassifierOptions(**o["custom"])
            if "canned" in o:
                kw["canned_gesture_classifier_options"] = co.ClassifierOptions(**o["canned"])
            task = OPERATIONS_TASK if bundle == "operations" else GESTURE_TASK
            with gesture_recognizer(task, 2, **kw) as t:
                res = gesture_result(t.recognize(img))
            option_cases.append({"image": rel(path), "bundle": bundle, "options": o, "result": res})
    write("options_refs.json", {"generator": "mediapipe 1.2.2, tools/references/make_hand_refs.py", "cases": option_cases})

    # VIDEO mode.
    video_cases = []
    for name, (num_hands, paths) in make_sequences().items():
        size = image_size(paths[0])
        case = {"sequence": name, "numHands": num_hands, "frameStepMs": FRAME_STEP_MS,
                "frames": [rel(p) for p in paths]}
        with hand_landmarker(num_hands, vision.RunningMode.VIDEO) as t:
            case["handLandmarker"] = [hand_result(t.detect_for_video(mp.Image.create_from_file(p), i * FRAME_STEP_MS))
                                      for i, p in enumerate(paths)]
        plain = []
        with gesture_recognizer(GESTURE_TASK, num_hands, vision.RunningMode.VIDEO) as t:
            for i, p in enumerate(paths):
                plain.append(t.recognize_for_video(mp.Image.create_from_file(p), i * FRAME_STEP_MS))
        case["gestureRecognizer"] = [gesture_result(r, oracle, size) for r in plain]
        video_cases.append(case)
    write("video_refs.json", {"generator": "mediapipe 1.2.2, tools/references/make_hand_refs.py", "cases": video_cases})
    rotation_refs(oracle)


def stored_image(path, turns):
    """The picture MediaPipe's loader gives, stored turned `turns` quarter turns CCW, and the
    rotation_degrees that turns it upright again."""
    loaded = mp.Image.create_from_file(path)
    upright = np.array(loaded.numpy_view())  # a copy while `loaded` holds the pixels
    stored = np.ascontiguousarray(np.rot90(upright, turns))
    return (mp.Image(image_format=mp.ImageFormat.SRGB, data=stored),
            ImageProcessingOptions(rotation_degrees=90 * turns))


def upright_result(r, turns, stored_w, stored_h):
    """A result MediaPipe gave for pixels stored `turns` quarter turns CCW, in the upright image."""
    upright_w = stored_h if turns % 2 else stored_w
    z_scale = stored_w / upright_w

    def point(p):
        x, y = p.x, p.y
        for _ in range(turns):
            x, y = 1 - y, x
        return SimpleNamespace(x=x, y=y, z=p.z * z_scale)

    def world(p):
        x, y = p.x, p.y
        for _ in range(turns):
            x, y = -y, x
        return SimpleNamespace(x=x, y=y, z=p.z)

    return SimpleNamespace(handedness=r.handedness, gestures=getattr(r, "gestures", []),
                           hand_landmarks=[[point(p) for p in h] for h in r.hand_landmarks],
                           hand_world_landmarks=[[world(p) for p in h] for h in r.hand_world_landmarks])


def rotation_refs(oracle):
    """IMAGE-mode photos and one VIDEO-mode sequence fed turned, with rotation_degrees."""
    def size_after(path, turns):
        w, h = image_size(path)
        return (h, w) if turns % 2 else (w, h)

    image_cases = []
    for name, num_hands, turns in ROTATION_PICTURES:
        path = os.path.join(FIXTURES, name)
        img, options = stored_image(path, turns)
        sw, sh = size_after(path, turns)
        case = {"image": rel(path), "numHands": num_hands, "quarterTurnsCCW": turns, "rotationDegrees": 90 * turns}
        with hand_landmarker(num_hands) as t:
            case["handLandmarker"] = hand_result(upright_result(t.detect(img, options), turns, sw, sh))
        with gesture_recognizer(GESTURE_TASK, num_hands) as t:
            r = upright_result(t.recognize(img, options), turns, sw, sh)
            case["gestureRecognizer"] = gesture_result(r, oracle, image_size(path), sh / sw if turns % 2 else 1.0)
        image_cases.append(case)
    sequence, turns = ROTATION_VIDEO
    d = os.path.join(OUT, "video", sequence)
    paths = [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".png")]
    sw, sh = size_after(paths[0], turns)
    video = {"sequence": sequence, "numHands": 1, "frameStepMs": FRAME_STEP_MS, "frames": [rel(p) for p in paths],
             "quarterTurnsCCW": turns, "rotationDegrees": 90 * turns, "handLandmarker": [], "gestureRecognizer": []}
    with hand_landmarker(1, vision.RunningMode.VIDEO) as hl, \
            gesture_recognizer(GESTURE_TASK, 1, vision.RunningMode.VIDEO) as gr:
        for i, p in enumerate(paths):
            img, options = stored_image(p, turns)
            t = i * FRAME_STEP_MS
            video["handLandmarker"].append(hand_result(upright_result(hl.detect_for_video(img, t, options), turns, sw, sh)))
            r = upright_result(gr.recognize_for_video(img, t, options), turns, sw, sh)
            video["gestureRecognizer"].append(gesture_result(r, oracle, image_size(p), sh / sw if turns % 2 else 1.0))
    write("rotation_refs.json", {"generator": "mediapipe 1.2.2, tools/references/make_hand_refs.py",
                                 "cases": image_cases, "video": video})


def write(name, obj):
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(obj, f, separators=(",", ":"))
    print("wrote", os.path.join(OUT, name))


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
