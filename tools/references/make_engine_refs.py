#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/engine/: inputs and LiteRT outputs for the engine's parity tests.

For each of the nine models, runs Google's LiteRT (ai-edge-litert==2.3.0, 1 thread, default XNNPACK
delegate) on two committed inputs: a seeded random tensor in the model's natural range, and a real input
(an image crop from Tests/Fixtures/images, or landmarks MediaPipe 1.2.2 computes on those images).
Writes raw little-endian float32 files and manifest.json. Run from the repository root: make models first.
With `face_detection_full_range_sparse` as the argument, only that model is regenerated (from its own seeded
generator) and the manifest keeps the other entries; the other models' inputs come from one run over them all,
so they are regenerated only together (no argument).
"""
import io
import json
import os
import sys
import zipfile

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "models")
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "engine")

# Landmarks the blendshapes model reads, in order (MediaPipe's face_blendshapes_graph.cc).
BLENDSHAPE_SUBSET = [
    0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54, 55, 58, 61, 63, 65, 66, 67, 70, 78,
    80, 81, 82, 84, 87, 88, 91, 93, 95, 103, 105, 107, 109, 127, 132, 133, 136, 144, 145, 146, 148, 149, 150, 152,
    153, 154, 155, 157, 158, 159, 160, 161, 162, 163, 168, 172, 173, 176, 178, 181, 185, 191, 195, 197, 234, 246,
    249, 251, 263, 267, 269, 270, 276, 282, 283, 284, 285, 288, 291, 293, 295, 296, 297, 300, 308, 310, 311, 312,
    314, 317, 318, 321, 323, 324, 332, 334, 336, 338, 356, 361, 362, 365, 373, 374, 375, 377, 378, 379, 380, 381,
    382, 384, 385, 386, 387, 388, 389, 390, 397, 398, 400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471, 472,
    473, 474, 475, 476, 477]

# model name -> path inside models/: the bundle file, then nested entries (or a lone .tflite file).
SOURCES = {
    "face_detection_full_range_sparse": ["face_detection_full_range_sparse.tflite"],
    "face_detector": ["face_landmarker.task", "face_detector.tflite"],
    "face_landmarks_detector": ["face_landmarker.task", "face_landmarks_detector.tflite"],
    "face_blendshapes": ["face_landmarker.task", "face_blendshapes.tflite"],
    "hand_detector": ["hand_landmarker.task", "hand_detector.tflite"],
    "hand_landmarks_detector": ["hand_landmarker.task", "hand_landmarks_detector.tflite"],
    "gesture_embedder": ["operations.task", "hand_gesture_recognizer.task", "gesture_embedder.tflite"],
    "canned_gesture_classifier": ["operations.task", "hand_gesture_recognizer.task", "canned_gesture_classifier.tflite"],
    "custom_gesture_classifier": ["operations.task", "hand_gesture_recognizer.task", "custom_gesture_classifier.tflite"],
}


def model_bytes(path):
    data = open(os.path.join(MODELS, path[0]), "rb").read()
    for entry in path[1:]:
        data = zipfile.ZipFile(io.BytesIO(data)).read(entry)
    return data


def run_litert(name, inputs):
    it = Interpreter(model_content=model_bytes(SOURCES[name]), num_threads=1)
    it.allocate_tensors()
    for detail, value in zip(it.get_input_details(), inputs):
        it.set_tensor(detail["index"], value.reshape(detail["shape"]).astype(np.float32))
    it.invoke()
    return [(d["name"], it.get_tensor(d["index"]).copy()) for d in it.get_output_details()], it.get_input_details()


def load_rgb(name):
    bgr = cv2.imread(os.path.join(IMAGES, name), cv2.IMREAD_COLOR)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def letterbox(rgb, size):
    h, w = rgb.shape[:2]
    s = size / max(h, w)
    nh, nw = round(h * s), round(w * s)
    resized = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((size, size, 3), np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    out[top:top + nh, left:left + nw] = resized
    return out


def square_crop(rgb, points_px, scale, size):
    """A square crop around points (pixels), enlarged by `scale`, resized to size×size (zero outside)."""
    x0, y0 = points_px.min(axis=0)
    x1, y1 = points_px.max(axis=0)
    cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) * scale / 2
    m = cv2.getAffineTransform(np.float32([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]]),
                               np.float32([[0, 0], [size, 0], [0, size]]))
    return cv2.warpAffine(rgb, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def mediapipe_landmarks():
    """Face and hand landmarks from MediaPipe 1.2.2's Python tasks on the fixture photos."""
    import mediapipe as mp
    from mediapipe.tasks.python import vision
    from mediapipe.tasks.python.core.base_options import BaseOptions

    face_image = mp.Image.create_from_file(os.path.join(IMAGES, "astronaut.png"))
    with vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=os.path.join(MODELS, "face_landmarker.task")))) as fl:
        face = fl.detect(face_image).face_landmarks[0]
    face_px = np.array([[p.x * face_image.width, p.y * face_image.height] for p in face], np.float32)

    hand_image = mp.Image.create_from_file(os.path.join(IMAGES, "hand_thumb_up.jpg"))
    with vision.HandLandmarker.create_from_options(vision.HandLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=os.path.join(MODELS, "hand_landmarker.task")))) as hl:
        r = hl.detect(hand_image)
    hand = np.array([[p.x, p.y, p.z] for p in r.hand_landmarks[0]], np.float32)
    world = np.array([[p.x, p.y, p.z] for p in r.hand_world_landmarks[0]], np.float32)
    handedness = np.float32(r.handedness[0][0].score if r.handedness[0][0].category_name == "Right"
                            else 1 - r.handedness[0][0].score)
    hand_px = hand[:, :2] * np.float32([hand_image.width, hand_image.height])
    return face_px, hand, world, handedness, hand_px


def tiny_model(path, op_code, options_type=0, options=None, out_type=0):
    """A one-operator float model [1, 4] -> [1, 4] (input 0, output 1), written with LiteRT's own schema."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as S

    def tensor(name, ttype):
        t = S.TensorT()
        t.name, t.shape, t.type, t.buffer = name, [1, 4], ttype, 0
        return t
    op = S.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0], [1]
    op.builtinOptionsType, op.builtinOptions = options_type, options
    sg = S.SubGraphT()
    sg.tensors = [tensor("x", S.TensorType.FLOAT32), tensor("y", out_type)]
    sg.inputs, sg.outputs, sg.operators = [0], [1], [op]
    code = S.OperatorCodeT()
    code.builtinCode, code.deprecatedBuiltinCode, code.version = op_code, min(op_code, 127), 1
    m = S.ModelT()
    m.version, m.operatorCodes, m.subgraphs, m.buffers = 3, [code], [sg], [S.BufferT()]
    b = flatbuffers.Builder(256)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    with open(path, "wb") as f:
        f.write(b.Output())


def two_missing_operators_model(path):
    """TANH, then a CUSTOM operator the engine lacks ('TransformLandmarks'): [1, 4] -> [1, 4] -> [1, 4]."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as S

    def tensor(name):
        t = S.TensorT()
        t.name, t.shape, t.type, t.buffer = name, [1, 4], S.TensorType.FLOAT32, 0
        return t
    ops = []
    for index, (inputs, outputs) in enumerate([([0], [1]), ([1], [2])]):
        op = S.OperatorT()
        op.opcodeIndex, op.inputs, op.outputs = index, inputs, outputs
        ops.append(op)
    tanh, custom = S.OperatorCodeT(), S.OperatorCodeT()
    tanh.builtinCode, tanh.deprecatedBuiltinCode, tanh.version = S.BuiltinOperator.TANH, S.BuiltinOperator.TANH, 1
    custom.builtinCode, custom.deprecatedBuiltinCode, custom.version = S.BuiltinOperator.CUSTOM, 32, 1
    custom.customCode = "TransformLandmarks"
    sg = S.SubGraphT()
    sg.tensors = [tensor("x"), tensor("y"), tensor("z")]
    sg.inputs, sg.outputs, sg.operators = [0], [2], ops
    m = S.ModelT()
    m.version, m.operatorCodes, m.subgraphs, m.buffers = 3, [tanh, custom], [sg], [S.BufferT()]
    b = flatbuffers.Builder(256)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    with open(path, "wb") as f:
        f.write(b.Output())


def synthetic_models():
    """Tiny models the engine must refuse with a clear error (tests check the messages)."""
    from ai_edge_litert import schema_py_generated as S
    folder = os.path.join(OUT, "synthetic")
    os.makedirs(folder, exist_ok=True)
    tiny_model(os.path.join(folder, "tanh.tflite"), S.BuiltinOperator.TANH)
    tiny_model(os.path.join(folder, "logistic_float64_output.tflite"), S.BuiltinOperator.LOGISTIC,
               out_type=S.TensorType.FLOAT64)
    tiny_model(os.path.join(folder, "logistic.tflite"), S.BuiltinOperator.LOGISTIC)
    two_missing_operators_model(os.path.join(folder, "tanh_then_custom.tflite"))


def full_range_cases(astronaut, to_signed):
    """The full-range face detector (192×192, inputs in [-1, 1]), from its own seeded generator."""
    rng = np.random.default_rng(20261126)
    return {
        "random": [rng.uniform(-1, 1, (1, 192, 192, 3))],
        "astronaut": [to_signed(letterbox(astronaut, 192))[None]],
    }


def main():
    if any(arg in ("-h", "--help") for arg in sys.argv[1:]):
        print(__doc__)
        return
    only = sys.argv[1:]
    alone = ["face_detection_full_range_sparse"]  # the models whose cases come from their own generator
    unknown = [n for n in only if n not in alone]
    if unknown:
        sys.exit("make_engine_refs: %s cannot be regenerated alone (only %s can; with no argument, every model is)"
                 % (", ".join(unknown), ", ".join(alone)))
    if only:
        astronaut = load_rgb("astronaut.png")
        to_signed = lambda img: img.astype(np.float32) / 127.5 - 1.0
        cases = {"face_detection_full_range_sparse": full_range_cases(astronaut, to_signed)}
        return write_refs({name: cases[name] for name in only})
    synthetic_models()
    rng = np.random.default_rng(20261121)
    face_px, hand, world, handedness, hand_px = mediapipe_landmarks()
    astronaut = load_rgb("astronaut.png")
    thumb = load_rgb("hand_thumb_up.jpg")
    to_unit = lambda img: img.astype(np.float32) / 255.0
    to_signed = lambda img: img.astype(np.float32) / 127.5 - 1.0

    # Real inputs, as the task graphs feed them.
    embedder_real = [hand.reshape(1, 21, 3), np.full((1, 1), handedness, np.float32), world.reshape(1, 21, 3)]
    embedding = run_litert("gesture_embedder", embedder_real)[0][0][1]
    cases = {
        "face_detector": {
            "random": [rng.uniform(-1, 1, (1, 128, 128, 3))],
            "astronaut": [to_signed(letterbox(astronaut, 128))[None]],
        },
        "face_landmarks_detector": {
            "random": [rng.uniform(0, 1, (1, 256, 256, 3))],
            "astronaut": [to_unit(square_crop(astronaut, face_px, 1.5, 256))[None]],
        },
        "face_blendshapes": {
            "random": [rng.uniform(0, 512, (1, 146, 2))],
            "astronaut": [face_px[BLENDSHAPE_SUBSET][None]],
        },
        "hand_detector": {
            "random": [rng.uniform(0, 1, (1, 192, 192, 3))],
            "thumb_up": [to_unit(letterbox(thumb, 192))[None]],
        },
        "hand_landmarks_detector": {
            "random": [rng.uniform(0, 1, (1, 224, 224, 3))],
            "thumb_up": [to_unit(square_crop(thumb, hand_px, 2.0, 224))[None]],
        },
        "gesture_embedder": {
            "random": [rng.uniform(0, 1, (1, 21, 3)), rng.uniform(0, 1, (1, 1)), rng.uniform(-0.1, 0.1, (1, 21, 3))],
            "thumb_up": embedder_real,
        },
        "canned_gesture_classifier": {
            "random": [rng.normal(0, 1, (1, 128))],
            "thumb_up": [embedding],
        },
        "custom_gesture_classifier": {
            "random": [rng.normal(0, 1, (1, 128))],
            "thumb_up": [embedding],
        },
    }
    cases["face_detection_full_range_sparse"] = full_range_cases(astronaut, to_signed)
    return write_refs(cases, fresh=True)


def write_refs(cases, fresh=False):
    """Runs LiteRT on each model's cases and writes their files; the manifest is rewritten (`fresh`) or
    updated in place, keeping the entries of models not in `cases` and their order."""
    path = os.path.join(OUT, "manifest.json")
    manifest = {"generator": "tools/references/make_engine_refs.py", "reference": "ai-edge-litert 2.3.0, 1 thread", "models": []}
    if not fresh:
        with open(path) as f:
            manifest = json.load(f)
    for name, model_cases in cases.items():
        entry = {"name": name, "path": SOURCES[name], "cases": []}
        for case, inputs in model_cases.items():
            inputs = [np.ascontiguousarray(x, np.float32) for x in inputs]
            outputs, details = run_litert(name, inputs)
            folder = os.path.join(OUT, name, case)
            os.makedirs(folder, exist_ok=True)
            record = {"name": case, "inputs": [], "outputs": []}
            for i, (x, d) in enumerate(zip(inputs, details)):
                x.astype("<f4").tofile(os.path.join(folder, f"input{i}.f32"))
                record["inputs"].append({"file": f"{name}/{case}/input{i}.f32", "name": d["name"],
                                         "shape": [int(v) for v in d["shape"]]})
            for i, (oname, y) in enumerate(outputs):
                y.astype("<f4").tofile(os.path.join(folder, f"output{i}.f32"))
                record["outputs"].append({"file": f"{name}/{case}/output{i}.f32", "name": oname,
                                          "shape": list(y.shape), "maxAbs": float(np.abs(y).max())})
            entry["cases"].append(record)
            print(name, case, [(o[0], o[1].shape) for o in outputs])
        names = [m["name"] for m in manifest["models"]]
        if name in names:
            manifest["models"][names.index(name)] = entry
        else:
            manifest["models"].append(entry)
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
