#!/usr/bin/env python3
"""Regenerates the Pose Landmarker references under Tests/Fixtures/references/pose/ with Google's
MediaPipe 1.2.2 (and LiteRT 2.3.0 for the detector's raw outputs).

What it writes:
  images/*.png        composed test pictures: two people (woman_sitting beside its mirror image),
                      woman_sitting mirrored, woman_sitting turned a quarter turn clockwise
  video/<seq>/NN.png  short frame sequences warped from woman_sitting: `pan` (one person, panning,
                      zooming and turning a little) and `pair` (two people, each drifting on its own)
  image_refs.json     IMAGE-mode PoseLandmarker results (output_segmentation_masks=True, other options
                      at their defaults) for every picture (the two fixture photos woman_sitting.jpg
                      and astronaut.png, then the composed ones) with num_poses 1 and 2
  video_refs.json     VIDEO-mode results over every sequence (timestamps 0, 33, 66, ... ms), num_poses
                      1 for `pan` and 2 for `pair`
  masks/*.png         the segmentation masks, one per pose, each the input image's size, as 16-bit
                      grayscale PNGs holding round(65535 p) for MediaPipe's float p in [0, 1]: reading
                      one back as value / 65535 is within 0.5/65535 (7.6e-6) of MediaPipe's mask. A mask
                      whose PNG bytes equal one already written (num_poses 1 and 2 often give the same
                      result) names that file instead of writing a copy.
  detector_debug.json the pose detector alone on woman_sitting.jpg, computed by this script with LiteRT
                      following MediaPipe's PoseDetectorGraph (not a MediaPipe output): the 224x224
                      letterboxed input (keep aspect ratio, zero border, [0, 255] -> [-1, 1], as
                      ImageToTensorCalculator's OpenCV path makes it), the top-scoring anchor's raw
                      values and their decoding against the SSD anchors, every anchor above the 0.5
                      score threshold, the weighted non-max suppression result, the letterbox removal,
                      and the pose rect (AlignmentPointsRects) and expanded ROI (x1.25, square long side).

Every float is rounded to 7 significant digits. Per case `poseCount` is how many poses MediaPipe
returned. Landmarks are [x, y, z, visibility, presence] lists (33 per pose, normalized for
`landmarks`, metres around the hips for `worldLandmarks`).

Usage: python3 tools/references/make_pose_refs.py  (from the repository root; needs models/ fetched)
"""
import argparse
import hashlib
import json
import math
import os
import sys
import zipfile

import cv2
import numpy as np
import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core import base_options as base_options_lib
from ai_edge_litert.interpreter import Interpreter
from reference_pictures import FIXTURES, ROOT, fit, load, rel, significant

OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "pose")
MODELS = os.path.join(ROOT, "models")
POSE_TASK = os.path.join(MODELS, "pose_landmarker_full.task")
FRAME_STEP_MS = 33
GENERATOR = "mediapipe 1.2.2, tools/references/make_pose_refs.py"
# The pose detector's graph settings (mediapipe/tasks/cc/vision/pose_detector/pose_detector_graph.cc).
DETECTOR_SIZE = 224
MIN_DETECTION_CONFIDENCE = 0.5
MIN_SUPPRESSION_THRESHOLD = 0.5


def r7(v):
    """Rounds to 7 significant digits."""
    return significant(v, 7)


def person():
    """woman_sitting cut to the columns the sitting woman fills (780x640)."""
    return load("woman_sitting.jpg")[:, 100:880]


def save_png(path, img):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    cv2.imwrite(path, img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return path


def compose_pictures():
    ws = load("woman_sitting.jpg")
    pictures = {}
    # Two people: the sitting woman beside her mirror image (MediaPipe finds both with num_poses 2).
    a = fit(person(), 280, 400)
    pictures["two_people.png"] = np.concatenate([a, cv2.flip(a, 1)], axis=1)
    # The photo mirrored: left and right joints swap sides (for a left/right joint-angle test).
    pictures["woman_sitting_mirrored.png"] = cv2.flip(fit(ws, 432, 432), 1)
    # The photo turned a quarter turn clockwise: the detector's rotation has to carry the ROI.
    pictures["woman_sitting_turned.png"] = cv2.rotate(fit(ws, 432, 432), cv2.ROTATE_90_CLOCKWISE)
    return [save_png(os.path.join(OUT, "images", name), img) for name, img in pictures.items()]


def warp(img, out_w, out_h, cx, cy, scale, angle_deg):
    """The view of `img` centred at (cx, cy), zoomed by `scale`, turned by angle_deg."""
    m = cv2.getRotationMatrix2D((cx, cy), angle_deg, scale)
    m[0, 2] += out_w / 2 - cx
    m[1, 2] += out_h / 2 - cy
    return cv2.warpAffine(img, m, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def make_sequences():
    n = 10
    seqs = {}
    # pan: one person, the view drifting right and up while zooming in and turning a little.
    ws = fit(load("woman_sitting.jpg"), 480, 480)
    h, w = ws.shape[:2]
    seqs["pan"] = (1, [warp(ws, 320, 240, w * (0.46 + 0.008 * i), h * (0.52 - 0.006 * i),
                            0.68 + 0.025 * i, -4 + 0.9 * i) for i in range(n)])
    # pair: two people side by side, the left one drifting right and growing, the right one
    # (mirrored) drifting down and turning.
    a = fit(person(), 260, 260)
    b = cv2.flip(a, 1)
    ah, aw = a.shape[:2]
    frames = []
    for i in range(n):
        left = warp(a, 220, 200, aw * (0.52 - 0.01 * i), ah * 0.5, 0.72 + 0.015 * i, 0)
        right = warp(b, 220, 200, aw * 0.5, ah * (0.5 - 0.008 * i), 0.76, 0.8 * i)
        frames.append(np.concatenate([left, right], axis=1))
    seqs["pair"] = (2, frames)
    out = {}
    for name, (num_poses, frames) in seqs.items():
        d = os.path.join(OUT, "video", name)
        out[name] = (num_poses, [save_png(os.path.join(d, f"{i:02d}.png"), f) for i, f in enumerate(frames)])
    return out


# ---------------------------------------------------------------- MediaPipe runs

class Masks:
    """Writes masks as 16-bit PNGs under masks/, naming an identical earlier file instead of a copy."""

    def __init__(self):
        self.by_digest = {}
        self.dir = os.path.join(OUT, "masks")
        os.makedirs(self.dir, exist_ok=True)
        for name in os.listdir(self.dir):
            if name.endswith(".png"):
                os.remove(os.path.join(self.dir, name))

    def save(self, image, stem):
        p = np.asarray(image.numpy_view(), dtype=np.float64)
        if p.ndim == 3:
            p = p[:, :, 0]
        q = np.round(np.clip(p, 0.0, 1.0) * 65535.0).astype(np.uint16)
        ok, png = cv2.imencode(".png", q, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if not ok:
            sys.exit(f"cannot encode mask {stem}")
        data = png.tobytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest not in self.by_digest:
            path = os.path.join(self.dir, stem + ".png")
            with open(path, "wb") as f:
                f.write(data)
            self.by_digest[digest] = rel(path)
        return self.by_digest[digest], {"width": int(q.shape[1]), "height": int(q.shape[0])}


def landmarks(points):
    return [[r7(p.x), r7(p.y), r7(p.z), r7(p.visibility), r7(p.presence)] for p in points]


def pose_result(r, masks, stem):
    poses = []
    for i in range(len(r.pose_landmarks)):
        pose = {"landmarks": landmarks(r.pose_landmarks[i]),
                "worldLandmarks": landmarks(r.pose_world_landmarks[i])}
        if r.segmentation_masks:
            path, size = masks.save(r.segmentation_masks[i], f"{stem}-{i}")
            pose["mask"] = path
            pose["maskWidth"], pose["maskHeight"] = size["width"], size["height"]
        poses.append(pose)
    return {"poseCount": len(poses), "poses": poses}


def pose_landmarker(num_poses, mode=vision.RunningMode.IMAGE):
    o = vision.PoseLandmarkerOptions(base_options=base_options_lib.BaseOptions(model_asset_path=POSE_TASK),
                                     running_mode=mode, num_poses=num_poses, output_segmentation_masks=True)
    return vision.PoseLandmarker.create_from_options(o)


def image_size(path):
    h, w = cv2.imread(path).shape[:2]
    return w, h


def stem_of(path):
    return os.path.splitext(os.path.basename(path))[0]


# ---------------------------------------------------------------- the detector alone

def ssd_anchors():
    """SsdAnchorsCalculator with the pose detector's options: 5 layers, strides 8 16 32 32 32, aspect
    ratio 1 plus the interpolated one, fixed anchor size (w = h = 1), offsets 0.5. Layers sharing a
    stride share a grid; 2254 anchors."""
    strides = [8, 16, 32, 32, 32]
    anchors = []
    layer = 0
    while layer < len(strides):
        count = 0
        last = layer
        while last < len(strides) and strides[last] == strides[layer]:
            count += 2  # aspect ratio 1.0 and the interpolated scale
            last += 1
        size = math.ceil(DETECTOR_SIZE / strides[layer])
        for y in range(size):
            for x in range(size):
                for _ in range(count):
                    anchors.append(((x + 0.5) / size, (y + 0.5) / size))
        layer = last
    return np.array(anchors, np.float64)


def letterboxed_input(rgb):
    """ImageToTensorCalculator (OpenCV path): the whole image as a rect padded to a square, mapped by
    warpPerspective (bilinear, constant 0 border) onto 224x224, then v * 2/255 - 1."""
    h, w = rgb.shape[:2]
    side = max(w, h)
    box = cv2.boxPoints(((w / 2, h / 2), (side, side), 0.0)).astype(np.float32)
    s = float(DETECTOR_SIZE)
    dst = np.array([[0, s], [0, 0], [s, 0], [s, s]], np.float32)
    m = cv2.getPerspectiveTransform(box, dst)
    warped = cv2.warpPerspective(rgb, m, (DETECTOR_SIZE, DETECTOR_SIZE), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT)
    tensor = warped.astype(np.float32) * np.float32(2.0 / 255.0) + np.float32(-1.0)
    pad_x = (1.0 - w / side) / 2.0
    pad_y = (1.0 - h / side) / 2.0
    return tensor, (pad_x, pad_y)


def decode(raw, anchor):
    """TensorsToDetectionsCalculator, reverse_output_order, scales 224, fixed anchor size: the box
    (xmin, ymin, width, height) and 4 keypoints in the letterboxed input's [0, 1] frame."""
    ax, ay = anchor
    xc = raw[0] / DETECTOR_SIZE + ax
    yc = raw[1] / DETECTOR_SIZE + ay
    bw = raw[2] / DETECTOR_SIZE
    bh = raw[3] / DETECTOR_SIZE
    kps = [[raw[4 + 2 * k] / DETECTOR_SIZE + ax, raw[5 + 2 * k] / DETECTOR_SIZE + ay] for k in range(4)]
    return [xc - bw / 2, yc - bh / 2, bw, bh], kps


def iou(a, b):
    ax0, ay0, ax1, ay1 = a[0], a[1], a[0] + a[2], a[1] + a[3]
    bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
    iw = min(ax1, bx1) - max(ax0, bx0)
    ih = min(ay1, by1) - max(ay0, by0)
    if iw < 0 or ih < 0:
        return 0.0
    inter = iw * ih
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def weighted_nms(dets):
    """NonMaxSuppressionCalculator, WEIGHTED, INTERSECTION_OVER_UNION, threshold 0.5."""
    remained = sorted(dets, key=lambda d: -d["score"])
    out = []
    while remained:
        top = remained[0]
        cands = [d for d in remained if iou(d["box"], top["box"]) > MIN_SUPPRESSION_THRESHOLD]
        remained = [d for d in remained if iou(d["box"], top["box"]) <= MIN_SUPPRESSION_THRESHOLD]
        total = sum(d["score"] for d in cands)
        x0 = sum(d["box"][0] * d["score"] for d in cands) / total
        y0 = sum(d["box"][1] * d["score"] for d in cands) / total
        x1 = sum((d["box"][0] + d["box"][2]) * d["score"] for d in cands) / total
        y1 = sum((d["box"][1] + d["box"][3]) * d["score"] for d in cands) / total
        kps = [[sum(d["keypoints"][k][j] * d["score"] for d in cands) / total for j in range(2)] for k in range(4)]
        out.append({"score": top["score"], "anchor": top["anchor"], "mergedAnchors": [d["anchor"] for d in cands],
                    "box": [x0, y0, x1 - x0, y1 - y0], "keypoints": kps})
    return out


def remove_letterbox(det, pad):
    px, py = pad
    sx, sy = 1.0 - 2 * px, 1.0 - 2 * py
    b = det["box"]
    return {"box": [(b[0] - px) / sx, (b[1] - py) / sy, b[2] / sx, b[3] / sy],
            "keypoints": [[(x - px) / sx, (y - py) / sy] for x, y in det["keypoints"]]}


def pose_rects(det, w, h):
    """AlignmentPointsRectsCalculator (keypoint 0 centre, keypoint 1 scale point, target angle 90)
    then RectTransformationCalculator (square long side, scale 1.25)."""
    (x0, y0), (x1, y1) = det["keypoints"][0], det["keypoints"][1]
    size = math.hypot((x1 - x0) * w, (y1 - y0) * h) * 2.0
    angle = math.pi / 2 - math.atan2(-(y1 - y0) * h, (x1 - x0) * w)
    rotation = angle - 2 * math.pi * math.floor((angle + math.pi) / (2 * math.pi))
    rect = {"xCenter": x0, "yCenter": y0, "width": size / w, "height": size / h, "rotation": rotation}
    long_side = max(rect["width"] * w, rect["height"] * h)
    expanded = dict(rect, width=long_side / w * 1.25, height=long_side / h * 1.25)
    return rect, expanded


def rounded(obj):
    if isinstance(obj, dict):
        return {k: rounded(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [rounded(v) for v in obj]
    if isinstance(obj, (float, np.floating)):
        return r7(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    return obj


def detector_debug(path):
    with zipfile.ZipFile(POSE_TASK) as z:
        it = Interpreter(model_content=z.read("pose_detector.tflite"))
    it.allocate_tensors()
    rgb = cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    tensor, pad = letterboxed_input(rgb)
    it.set_tensor(it.get_input_details()[0]["index"], tensor[None])
    it.invoke()
    outs = {tuple(d["shape"]): it.get_tensor(d["index"])[0] for d in it.get_output_details()}
    boxes = outs[(1, 2254, 12)].astype(np.float64)
    logits = outs[(1, 2254, 1)][:, 0].astype(np.float64)
    scores = 1.0 / (1.0 + np.exp(-np.clip(logits, -100.0, 100.0)))
    anchors = ssd_anchors()
    assert len(anchors) == 2254
    dets = []
    for i in np.nonzero(scores >= MIN_DETECTION_CONFIDENCE)[0]:
        box, kps = decode(boxes[i], anchors[i])
        dets.append({"anchor": int(i), "score": float(scores[i]), "box": box, "keypoints": kps})
    top = int(np.argmax(scores))
    top_box, top_kps = decode(boxes[top], anchors[top])
    nms = weighted_nms(dets)
    final = []
    for d in nms:
        unboxed = remove_letterbox(d, pad)
        rect, expanded = pose_rects(unboxed, w, h)
        final.append({"score": d["score"], "anchor": d["anchor"], "mergedAnchors": d["mergedAnchors"],
                      "letterboxed": {"box": d["box"], "keypoints": d["keypoints"]},
                      "image": unboxed, "poseRect": rect, "expandedPoseRect": expanded})
    # A few input values to check the letterboxing against (row, column -> RGB in [-1, 1]).
    probes = [[y, x, tensor[y, x].tolist()] for y, x in ((0, 0), (37, 112), (38, 112), (112, 112), (150, 60),
                                                          (186, 112), (187, 112))]
    return rounded({
        "generator": "tools/references/make_pose_refs.py with ai-edge-litert 2.3.0 (not a MediaPipe output)",
        "image": rel(path), "width": w, "height": h,
        "input": {"size": DETECTOR_SIZE, "letterboxPadding": {"left": pad[0], "top": pad[1], "right": pad[0],
                                                              "bottom": pad[1]},
                  "channelMeans": tensor.reshape(-1, 3).mean(axis=0).tolist(),
                  "probes": probes},
        "anchors": {"count": len(anchors), "first": anchors[0].tolist(), "last": anchors[-1].tolist(),
                    "layout": "strides 8 (28x28 x2), 16 (14x14 x2), 32 (7x7 x6); w = h = 1"},
        "decoding": "x = raw / 224 + anchor (centres and keypoints), w, h = raw / 224; "
                    "score = sigmoid(clip(logit, -100, 100)); outputs Identity (2254x12) and Identity_1 (2254x1)",
        "top": {"anchor": top, "anchorCenter": anchors[top].tolist(), "logit": logits[top], "score": scores[top],
                "raw": boxes[top].tolist(), "box": top_box, "keypoints": top_kps},
        "aboveThreshold": dets,
        "nms": final,
    })


# ---------------------------------------------------------------- main

def main():
    if not os.path.exists(POSE_TASK):
        sys.exit(f"missing {POSE_TASK}: run `make models` first")
    os.makedirs(OUT, exist_ok=True)
    masks = Masks()
    pictures = [os.path.join(FIXTURES, n) for n in ("woman_sitting.jpg", "astronaut.png")]
    pictures += compose_pictures()

    image_cases = []
    for path in pictures:
        img = mp.Image.create_from_file(path)
        w, h = image_size(path)
        for num_poses in (1, 2):
            name = f"{stem_of(path)}-n{num_poses}"
            case = {"name": name, "image": rel(path), "width": w, "height": h, "numPoses": num_poses}
            with pose_landmarker(num_poses) as t:
                case.update(pose_result(t.detect(img), masks, name))
            print(f"{name}: {case['poseCount']} pose(s)")
            image_cases.append(case)
    write("image_refs.json", {"generator": GENERATOR, "cases": image_cases})

    video_cases = []
    for seq, (num_poses, paths) in make_sequences().items():
        w, h = image_size(paths[0])
        case = {"sequence": seq, "numPoses": num_poses, "frameStepMs": FRAME_STEP_MS, "width": w, "height": h,
                "frames": []}
        with pose_landmarker(num_poses, vision.RunningMode.VIDEO) as t:
            for i, p in enumerate(paths):
                r = t.detect_for_video(mp.Image.create_from_file(p), i * FRAME_STEP_MS)
                frame = {"image": rel(p), "timestampMs": i * FRAME_STEP_MS}
                frame.update(pose_result(r, masks, f"{seq}-{i:02d}"))
                case["frames"].append(frame)
        print(f"{seq}: pose counts {[f['poseCount'] for f in case['frames']]}")
        video_cases.append(case)
    write("video_refs.json", {"generator": GENERATOR, "cases": video_cases})

    write("detector_debug.json", detector_debug(os.path.join(FIXTURES, "woman_sitting.jpg")))


def write(name, obj):
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(obj, f, separators=(",", ":"))
    print("wrote", os.path.join(OUT, name))


if __name__ == "__main__":
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
