#!/usr/bin/env python3
"""Regenerates the Face Landmarker references under Tests/Fixtures/references/face_landmarker/.

Runs Google's MediaPipe 1.2.2 Python FaceLandmarker (blendshapes and transformation matrices on)
on the fixture photos and on scenes composed from two sprites cut from them (pasted at integer
offsets on a flat canvas, so the Swift tests rebuild exactly the same pixels), in IMAGE mode and
in VIDEO mode over short frame sequences (faces moving, appearing and leaving).

Writes sprite PNGs and one JSON file per case; floats are rounded to 6 significant digits.

rotation.json holds the image-orientation cases (IMAGE mode, and one VIDEO-mode sequence with faces
entering and leaving): a picture's pixels stored turned k quarter turns
counterclockwise (numpy.rot90), given to MediaPipe with ImageProcessingOptions(rotation_degrees=90 k),
which turns them upright again (an MPImage with orientation .right for k=1, .down for k=2, .left
for k=3, as MediaPipe for iOS maps UIImage orientations). MediaPipe answers in the stored frame:
  - landmarks: normalized to the stored pixels; the reference moves x and y to the upright image
    (the frame our results are in). z needs no change: MediaPipe scales it by the length of the
    crop's unit x segment in normalized image coordinates, the same in both frames.
  - blendshapes: MediaPipe feeds the blendshapes model the stored-frame landmarks in stored-frame
    pixels (a sideways face for odd k, upside down for k=2), so its scores differ from the upright
    face's. Ours are computed for the upright image; the reference is Google's LiteRT running
    face_blendshapes.tflite on MediaPipe's landmarks moved upright, prepared as MediaPipe's
    LandmarksToTensorCalculator prepares them. The script checks that the same run on the
    stored-frame landmarks reproduces MediaPipe's own scores ("mediapipeBlendshapes").
  - transformation matrix: MediaPipe's camera sees the stored frame ("bufferMatrix"). For k=2 the
    upright camera's matrix is that one with its first two rows negated ("matrix"); for odd k the
    virtual camera's 63° vertical field of view spans the other image side, so no frame change gives
    the upright matrix and "matrix" is null.
Usage: python3 tools/references/make_face_landmarker_refs.py [--model models/face_landmarker.task]
"""
import argparse
import json
import os

import cv2
import mediapipe as mp
import numpy as np
from ai_edge_litert.interpreter import Interpreter
from mediapipe.tasks.python import BaseOptions, vision
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

from make_engine_refs import BLENDSHAPE_SUBSET, model_bytes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
OUT = os.path.join(FIXTURES, "references", "face_landmarker")
BACKGROUND = [96, 104, 112]


def make_sprites():
    """Cuts the sprites from the fixture photos and saves them as RGB PNGs."""
    astronaut = cv2.imread(os.path.join(FIXTURES, "images", "astronaut.png"))
    woman = cv2.imread(os.path.join(FIXTURES, "images", "woman_sitting.jpg"))
    sprites = {
        "astronaut_face_280": astronaut[0:280, 85:365].copy(),
        "woman_face_240": woman[0:240, 225:465].copy(),
    }
    rgb = {}
    for name, bgr in sprites.items():
        cv2.imwrite(os.path.join(OUT, name + ".png"), bgr)
        # Read back what the tests will read.
        rgb[name] = cv2.imread(os.path.join(OUT, name + ".png"))[:, :, ::-1].copy()
    return rgb


def compose(scene_frame, canvas, sprites):
    """Pastes the frame's sprites (optionally mirrored) at integer offsets, clipped to the canvas."""
    w, h = canvas
    out = np.empty((h, w, 3), np.uint8)
    out[:, :] = BACKGROUND
    for s in scene_frame["sprites"]:
        img = sprites[s["name"]]
        if s.get("flip", False):
            img = img[:, ::-1]
        sh, sw = img.shape[:2]
        x, y = s["x"], s["y"]
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + sw, w), min(y + sh, h)
        if x0 < x1 and y0 < y1:
            out[y0:y1, x0:x1] = img[y0 - y:y1 - y, x0 - x:x1 - x]
    return np.ascontiguousarray(out)


def sig(v):
    return float(f"{float(v):.6g}")


def result_json(result):
    faces = []
    for i, lms in enumerate(result.face_landmarks):
        face = {"landmarks": [sig(c) for p in lms for c in (p.x, p.y, p.z)]}
        if result.face_blendshapes:
            cats = result.face_blendshapes[i]
            face["blendshapes"] = [sig(c.score) for c in cats]
            face["blendshapeNames"] = [c.category_name for c in cats]
        if result.facial_transformation_matrixes:
            face["matrix"] = [sig(v) for v in np.asarray(result.facial_transformation_matrixes[i]).reshape(-1)]
        faces.append(face)
    return faces


def landmarker(model, mode, num_faces):
    opts = vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=model), running_mode=mode, num_faces=num_faces,
        output_face_blendshapes=True, output_facial_transformation_matrixes=True)
    return vision.FaceLandmarker.create_from_options(opts)


def sprite(name, x, y, flip=False):
    return {"name": name, "x": x, "y": y, "flip": flip}


def cases():
    A, W = "astronaut_face_280", "woman_face_240"
    yield {"name": "astronaut", "mode": "image", "numFaces": 1, "image": "images/astronaut.png"}
    yield {"name": "woman_sitting", "mode": "image", "numFaces": 1, "image": "images/woman_sitting.jpg"}
    yield {"name": "two_faces", "mode": "image", "numFaces": 2,
           "scene": {"canvas": [640, 360], "frames": [{"timestampMs": 0, "sprites": [sprite(A, 40, 50), sprite(W, 370, 70)]}]}}
    yield {"name": "four_faces_two_kept", "mode": "image", "numFaces": 2,
           "scene": {"canvas": [560, 520], "frames": [{"timestampMs": 0, "sprites": [
               sprite(A, 0, 0), sprite(W, 290, 10), sprite(W, 20, 270, True), sprite(A, 290, 260, True)]}]}}
    # One face moving right and down, then leaving; smoothing is on (numFaces 1).
    frames = []
    for i in range(12):
        x = 10 + 24 * i if i < 9 else 290 + 60 * (i - 9)
        frames.append({"timestampMs": 33 * i, "sprites": [sprite(A, x, 20 + 6 * i)]})
    yield {"name": "video_one_face_moving", "mode": "video", "numFaces": 1, "scene": {"canvas": [480, 360], "frames": frames}}
    # Two faces: one drifting left and leaving, another entering from the right (numFaces 2).
    frames = []
    for i in range(12):
        sprites = [sprite(A, 100 - 22 * i, 40)]
        if i >= 3:
            sprites.append(sprite(W, 500 - 40 * (i - 3), 70 + 3 * i, True))
        frames.append({"timestampMs": 40 * i, "sprites": sprites})
    yield {"name": "video_two_faces_enter_leave", "mode": "video", "numFaces": 2, "scene": {"canvas": [560, 340], "frames": frames}}


ROTATION_CASES = [
    # name, picture (file, or a case whose scene frame 0 is composed), numFaces, quarter turns CCW stored
    ("astronaut_rot90", "astronaut", 1, 1),
    ("astronaut_rot180", "astronaut", 1, 2),
    ("astronaut_rot270", "astronaut", 1, 3),
    ("two_faces_rot90", "two_faces", 2, 1),
    ("two_faces_rot180", "two_faces", 2, 2),
    ("two_faces_rot270", "two_faces", 2, 3),
    ("video_two_faces_enter_leave_rot90", "video_two_faces_enter_leave", 2, 1),
]


def upright_xy(x, y, turns):
    """A point normalized to pixels stored `turns` quarter turns CCW, in the upright image."""
    for _ in range(turns):
        x, y = 1 - y, x
    return x, y


class BlendshapeOracle:
    """Google's LiteRT running face_blendshapes.tflite on given landmarks, prepared as MediaPipe's
    face blendshapes graph prepares them (146 landmarks, x and y in pixels of the frame)."""

    def __init__(self):
        self.it = Interpreter(model_content=model_bytes(["face_landmarker.task", "face_blendshapes.tflite"]), num_threads=1)
        self.it.allocate_tensors()

    def scores(self, points, width, height):
        px = np.array(points, np.float32)[BLENDSHAPE_SUBSET, :2] * np.array([width, height], np.float32)
        self.it.set_tensor(self.it.get_input_details()[0]["index"], px[None].astype(np.float32))
        self.it.invoke()
        return self.it.get_tensor(self.it.get_output_details()[0]["index"]).reshape(-1)


def rotation_faces(name, result, turns, stored, oracle):
    """One frame's faces moved to the upright frame (see the module docstring)."""
    height, width = (stored.shape[1], stored.shape[0]) if turns % 2 else stored.shape[:2]
    faces = []
    for i, lms in enumerate(result.face_landmarks):
        buffer_points = [(p.x, p.y, p.z) for p in lms]
        points = [(*upright_xy(x, y, turns), z) for x, y, z in buffer_points]
        theirs = np.array([c.score for c in result.face_blendshapes[i]])
        check = oracle.scores(buffer_points, stored.shape[1], stored.shape[0])
        if np.abs(check - theirs).max() > 2e-3:
            raise SystemExit(f"{name}: LiteRT blendshapes on the stored-frame landmarks differ from MediaPipe's by {np.abs(check - theirs).max()}")
        buffer_matrix = np.asarray(result.facial_transformation_matrixes[i], np.float64)
        matrix = None
        if turns == 2:
            matrix = [sig(v) for v in (np.diag([-1.0, -1.0, 1.0, 1.0]) @ buffer_matrix).reshape(-1)]
        faces.append({
            "landmarks": [sig(c) for p in points for c in p],
            "blendshapes": [sig(v) for v in oracle.scores(points, width, height)],
            "blendshapeNames": [c.category_name for c in result.face_blendshapes[i]],
            "mediapipeBlendshapes": [sig(v) for v in theirs],
            "matrix": matrix,
            "bufferMatrix": [sig(v) for v in buffer_matrix.reshape(-1)],
        })
    return faces


def rotation_cases(model, sprites):
    """MediaPipe on turned pixels with rotation_degrees, results moved to the upright frame."""
    oracle = BlendshapeOracle()
    by_name = {c["name"]: c for c in cases()}
    out = []
    for name, source, num_faces, turns in ROTATION_CASES:
        base = by_name[source]
        options = ImageProcessingOptions(rotation_degrees=90 * turns)
        case = {"name": name, "mode": base["mode"], "numFaces": num_faces, "quarterTurnsCCW": turns,
                "rotationDegrees": 90 * turns}
        if "image" in base:
            case["image"] = base["image"]
            loaded = mp.Image.create_from_file(os.path.join(FIXTURES, base["image"]))
            frames = [(0, np.array(loaded.numpy_view()))]  # a copy while `loaded` holds the pixels
        else:
            scene = base["scene"]
            if base["mode"] == "image":
                scene = {"canvas": scene["canvas"], "frames": scene["frames"][:1]}
            case["scene"] = scene
            case["background"] = BACKGROUND
            frames = [(f["timestampMs"], compose(f, scene["canvas"], sprites)) for f in scene["frames"]]
        video = base["mode"] == "video"
        task = landmarker(model, vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE, num_faces)
        results = []
        for timestamp, upright in frames:
            stored = np.ascontiguousarray(np.rot90(upright, turns))
            img = mp.Image(image_format=mp.ImageFormat.SRGB, data=stored)
            result = task.detect_for_video(img, timestamp, options) if video else task.detect(img, options)
            results.append({"timestampMs": timestamp, "faces": rotation_faces(name, result, turns, stored, oracle)})
        task.close()
        case["results"] = results
        out.append(case)
        print(name, [len(r["faces"]) for r in results])
    with open(os.path.join(OUT, "rotation.json"), "w") as f:
        json.dump({"generator": "tools/references/make_face_landmarker_refs.py", "mediapipe": mp.__version__, "cases": out},
                  f, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=os.path.join(ROOT, "models", "face_landmarker.task"))
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    sprites = make_sprites()
    for case in cases():
        mode = vision.RunningMode.IMAGE if case["mode"] == "image" else vision.RunningMode.VIDEO
        task = landmarker(args.model, mode, case["numFaces"])
        results = []
        if "image" in case:
            img = mp.Image.create_from_file(os.path.join(FIXTURES, case["image"]))
            results.append({"timestampMs": 0, "faces": result_json(task.detect(img))})
        else:
            scene = case["scene"]
            for frame in scene["frames"]:
                img = mp.Image(image_format=mp.ImageFormat.SRGB, data=compose(frame, scene["canvas"], sprites))
                if mode == vision.RunningMode.IMAGE:
                    r = task.detect(img)
                else:
                    r = task.detect_for_video(img, frame["timestampMs"])
                results.append({"timestampMs": frame["timestampMs"], "faces": result_json(r)})
        task.close()
        case["background"] = BACKGROUND
        case["results"] = results
        with open(os.path.join(OUT, case["name"] + ".json"), "w") as f:
            json.dump(case, f, separators=(",", ":"))
        print(case["name"], [len(r["faces"]) for r in results])
    rotation_cases(args.model, sprites)


if __name__ == "__main__":
    main()
