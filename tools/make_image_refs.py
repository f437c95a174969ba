#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/image/: what MediaPipe 1.2.2 decodes from the fixture
photos, and the input tensors its ImageToTensorCalculator (CPU, OpenCV converter) makes from them.

Decoding: MediaPipe's own loader (mp.Image.create_from_file: stb_image + EXIF orientation) at a
fixed sample of pixel positions, with libjpeg-turbo's decoding (PIL) at the same positions.

Tensors: computed with cv2 (OpenCV 5, as linked into MediaPipe 1.2.2) step by step as
image_to_tensor_converter_opencv.cc does: ROI from the NormalizedRect, PadRoi, cv2.boxPoints,
getPerspectiveTransform to the tensor corners, warpPerspective INTER_LINEAR with the border mode,
RGBA->RGB, then the value-range scale and offset. Source pixels are the libjpeg-turbo (PIL)
decode, which VisionCore reproduces exactly, so the tensors test the warp alone. One case is
cross-checked against MediaPipe itself (see crosscheck in the output JSON, written by
tools/crosscheck_image_to_tensor.py when run).

Usage: python3 tools/make_image_refs.py   (needs mediapipe==1.2.2, opencv-python, numpy, pillow)
"""
import json
import math
import os

import cv2
import mediapipe as mp
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "image")
F32 = np.float32


def pil_rgb(path):
    """libjpeg-turbo / libpng decode, EXIF orientation applied as MediaPipe applies it."""
    from PIL import ImageOps
    image = ImageOps.exif_transpose(Image.open(path))
    if image.mode in ("L", "RGB", "RGBA"):
        return np.array(image)
    return np.array(image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB"))


def mediapipe_tensor(pixels, rect, out_w, out_h, keep_aspect, range_min, range_max, border):
    """MediaPipe's CPU ImageToTensor, step by step. rect = (x_center, y_center, width, height, rotation)."""
    h, w = pixels.shape[:2]
    xc, yc, rw, rh, rot = [F32(v) for v in rect]
    roi = [xc * F32(w), yc * F32(h), rw * F32(w), rh * F32(h), rot]
    padding = [0.0, 0.0, 0.0, 0.0]
    if keep_aspect:
        tensor_aspect = F32(out_h) / F32(out_w)
        roi_aspect = roi[3] / roi[2]
        if tensor_aspect > roi_aspect:
            vertical = (F32(1) - roi_aspect / tensor_aspect) / F32(2)
            roi[3] = roi[2] * tensor_aspect
            padding = [0.0, float(vertical), 0.0, float(vertical)]
        else:
            horizontal = (F32(1) - tensor_aspect / roi_aspect) / F32(2)
            roi[2] = roi[3] / tensor_aspect
            padding = [float(horizontal), 0.0, float(horizontal), 0.0]
    angle = float(roi[4] * F32(180)) / math.pi
    src = cv2.boxPoints(((float(roi[0]), float(roi[1])), (float(roi[2]), float(roi[3])), angle))
    dst = np.array([[0, out_h], [0, 0], [out_w, 0], [out_w, out_h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    border_mode = cv2.BORDER_CONSTANT if border == "zero" else cv2.BORDER_REPLICATE
    warped = cv2.warpPerspective(pixels, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=border_mode)
    if warped.ndim == 2:  # gray: MediaPipe makes a 1-channel tensor; VisionCore repeats it as RGB
        warped = np.repeat(warped[:, :, None], 3, axis=2)
    if warped.shape[2] == 4:
        warped = cv2.cvtColor(warped, cv2.COLOR_RGBA2RGB)
    scale = (F32(range_max) - F32(range_min)) / F32(255)
    tensor = warped.astype(np.float32) * scale + F32(range_min)
    return tensor.astype(np.float32), padding


def decode_references():
    rng = np.random.default_rng(20261122)
    out = {}
    for name in sorted(os.listdir(IMAGES)):
        if not name.endswith((".jpg", ".png")):
            continue
        path = os.path.join(IMAGES, name)
        mp_image = mp.Image.create_from_file(path)
        mp_pixels = np.array(mp_image.numpy_view())  # a copy: the view dies with the image
        if mp_pixels.ndim == 2:
            mp_pixels = mp_pixels[:, :, None]
        ours = pil_rgb(path)
        if ours.ndim == 2:
            ours = ours[:, :, None]
        h, w, c = mp_pixels.shape
        ys = rng.integers(0, h, 2000)
        xs = rng.integers(0, w, 2000)
        out[name] = {
            "width": int(w), "height": int(h), "channels": int(c),
            "x": xs.tolist(), "y": ys.tolist(),
            "mediapipe": mp_pixels[ys, xs].astype(int).tolist(),
            "libjpeg": ours[ys, xs].astype(int).tolist(),
            "meanAbsDiff": float(np.abs(mp_pixels.astype(int) - ours.astype(int)).mean()),
            "maxAbsDiff": int(np.abs(mp_pixels.astype(int) - ours.astype(int)).max()),
        }
    with open(os.path.join(OUT, "decode.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
    for name, entry in out.items():
        print(f"decode {name}: {entry['width']}x{entry['height']}x{entry['channels']}, stb vs libjpeg-turbo mean "
              f"{entry['meanAbsDiff']:.3f} max {entry['maxAbsDiff']}")


# (name, image, transform of the stored pixels, orientation of the MPImage, rect in the stored
#  pixels' coordinates as MediaPipe is given it, rect in upright coordinates as VisionCore is
#  given it, width, height, keep_aspect, range, border)
HALF_PI = math.pi / 2
CASES = [
    ("astronaut_letterbox_128", "astronaut.png", None, "up",
     (0.5, 0.5, 1, 1, 0), 128, 128, True, (-1, 1), "zero"),
    ("woman_letterbox_192", "woman_sitting.jpg", None, "up",
     (0.5, 0.5, 1, 1, 0), 192, 192, True, (0, 1), "zero"),
    ("thumbs_rot30_224", "two_thumbs_up.jpg", None, "up",
     (0.45, 0.55, 0.5, 0.6, math.radians(30)), 224, 224, False, (0, 1), "replicate"),
    ("hand_rotm100_outside_128", "hand_thumb_up.jpg", None, "up",
     (0.8, 0.2, 0.7, 0.6, math.radians(-100)), 128, 128, False, (-1, 1), "replicate"),
    ("astronaut_outside_zero_96x128", "astronaut.png", None, "up",
     (0.15, 0.9, 0.5, 0.4, 0.3), 96, 128, True, (-1, 1), "zero"),
    ("woman_face_256", "woman_sitting.jpg", None, "up",
     (0.52, 0.23, 0.12, 0.18, -0.2), 256, 256, False, (0, 1), "replicate"),
    ("woman_stretch_64x48", "woman_sitting.jpg", None, "up",
     (0.5, 0.5, 1, 1, 0), 64, 48, False, (0, 1), "replicate"),
    ("astronaut_gray_rot45_64", "astronaut.png", "gray", "up",
     (0.5, 0.4, 0.6, 0.6, math.radians(45)), 64, 64, False, (-1, 1), "zero"),
    # Orientations: the stored frame is the upright photo turned; MediaPipe is given the rotation
    # as ImageProcessingOptions.rotation_degrees would (rotation -deg, width/height swapped).
    ("thumbs_right_128", "two_thumbs_up.jpg", "rot_ccw", "right",
     (0.5, 0.5, 640 / 427, 427 / 640, -HALF_PI), 128, 128, True, (-1, 1), "zero"),
    ("thumbs_left_128", "two_thumbs_up.jpg", "rot_cw", "left",
     (0.5, 0.5, 640 / 427, 427 / 640, HALF_PI), 128, 128, True, (-1, 1), "zero"),
    ("thumbs_down_128", "two_thumbs_up.jpg", "rot_180", "down",
     (0.5, 0.5, 1, 1, math.pi), 128, 128, True, (-1, 1), "zero"),
]


def stored_pixels(image, transform):
    if transform is None:
        return image
    if transform == "gray":
        return np.ascontiguousarray(image[:, :, 1])  # the green channel as a gray frame
    if transform == "rot_ccw":  # upright = stored turned 90° clockwise  -> orientation .right
        return np.ascontiguousarray(np.rot90(image, 1))
    if transform == "rot_cw":  # upright = stored turned 90° counterclockwise -> orientation .left
        return np.ascontiguousarray(np.rot90(image, -1))
    if transform == "rot_180":
        return np.ascontiguousarray(np.rot90(image, 2))
    raise ValueError(transform)


def tensor_references():
    manifest = []
    for name, image_name, transform, orientation, rect, w, h, keep, value_range, border in CASES:
        pixels = stored_pixels(pil_rgb(os.path.join(IMAGES, image_name)), transform)
        tensor, padding = mediapipe_tensor(pixels, rect, w, h, keep, value_range[0], value_range[1], border)
        tensor.astype("<f4").tofile(os.path.join(OUT, f"{name}.f32"))
        manifest.append({
            "name": name, "image": image_name, "transform": transform, "orientation": orientation,
            "bufferRect": list(rect), "width": w, "height": h, "keepAspectRatio": keep,
            "range": list(value_range), "border": border, "padding": padding,
        })
        print(f"tensor {name}: {w}x{h}, padding {np.round(padding, 4).tolist()}")
    with open(os.path.join(OUT, "tensors.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    decode_references()
    tensor_references()
