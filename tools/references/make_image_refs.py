#!/usr/bin/env python3
"""Regenerates Tests/Fixtures/references/image/: what MediaPipe 1.2.2 decodes from the fixture
photos, and the input tensors its ImageToTensorCalculator (CPU, OpenCV converter) makes from them.

Decoding: MediaPipe's own loader (mp.Image.create_from_file: stb_image + EXIF orientation) at a
fixed sample of pixel positions, which VisionCore's decoder must give exactly.

Tensors, two sets:
- mediapipe_*.f32: MediaPipe itself. An ImageEmbedder is given a one-operator model (CAST of a
  uint8 RGB input to float32) so the "embedding" is exactly the tensor MediaPipe's
  ImageToTensorCalculator made (levels 0...255: uint8 input, no normalisation). Regions and
  rotations are those ImageProcessingOptions can express (axis-aligned crops, 90° steps).
- the other .f32 files: arbitrary rotated crops, letterboxes and zero borders, computed step by
  step as image_to_tensor_converter_opencv.cc does: ROI from the NormalizedRect, PadRoi,
  cv2.boxPoints, getPerspectiveTransform to the tensor corners and its inverse, then OpenCV's
  fixed-point warpPerspective INTER_LINEAR (1/32-pixel positions, 15-bit weights; emulated below
  because MediaPipe's build uses it while opencv-python 5 does not; the emulation equals
  MediaPipe's output on every mediapipe_* case), RGBA->RGB, value-range scale and offset.
Source pixels are MediaPipe's loader's, which VisionCore reproduces exactly, so the tensors test
the warp alone.

Usage: python3 tools/references/make_image_refs.py   (needs mediapipe==1.2.2, opencv-python, numpy, pillow)
"""
import argparse
import json
import math
import os

import cv2
import mediapipe as mp
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "image")
F32 = np.float32


def loaded_rgb(path):
    """The pixels MediaPipe's own file loader gives (stb_image, EXIF orientation applied)."""
    image = mp.Image.create_from_file(path)
    return np.array(image.numpy_view())  # a copy: the view dies with the image


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
    _, inverse = cv2.invert(matrix)
    warped = fixed_point_warp(pixels, inverse, out_w, out_h, border)
    if warped.ndim == 2:  # gray: MediaPipe makes a 1-channel tensor; VisionCore repeats it as RGB
        warped = np.repeat(warped[:, :, None], 3, axis=2)
    if warped.shape[2] == 4:
        warped = cv2.cvtColor(warped, cv2.COLOR_RGBA2RGB)
    scale = (F32(range_max) - F32(range_min)) / F32(255)
    tensor = warped.astype(np.float32) * scale + F32(range_min)
    return tensor.astype(np.float32), padding


def fixed_point_warp(pixels, inverse, out_w, out_h, border):
    """OpenCV 3.4/4.x warpPerspective INTER_LINEAR on 8-bit pixels, as MediaPipe 1.2.2 computes it:
    per 16-row x 64-column block, coordinates in double rounded half-even to 1/32 pixel, weights
    (32-fx)(32-fy)*32..., sum + 2^14 >> 15; remap's border rules."""
    h, w = pixels.shape[:2]
    image = pixels if pixels.ndim == 3 else pixels[:, :, None]
    out = np.zeros((out_h, out_w, image.shape[2]), np.uint8)
    m = inverse.astype(np.float64)
    block_rows = min(16, out_h)
    block_cols = min(1024 // block_rows, out_w)
    starts = (np.arange(out_w) // block_cols * block_cols).astype(np.float64)
    offsets = np.arange(out_w) % block_cols
    offsets = offsets.astype(np.float64)
    for y in range(out_h):
        x0 = m[0, 0] * starts + m[0, 1] * y + m[0, 2]
        y0 = m[1, 0] * starts + m[1, 1] * y + m[1, 2]
        w0 = m[2, 0] * starts + m[2, 1] * y + m[2, 2]
        ww = w0 + m[2, 0] * offsets
        with np.errstate(divide="ignore"):
            ww = np.where(ww != 0, 32.0 / ww, 0.0)
        fx = np.clip((x0 + m[0, 0] * offsets) * ww, -2**31, 2**31 - 1)
        fy = np.clip((y0 + m[1, 0] * offsets) * ww, -2**31, 2**31 - 1)
        X = np.rint(fx).astype(np.int64)
        Y = np.rint(fy).astype(np.int64)
        ix = np.clip(X >> 5, -32768, 32767)
        iy = np.clip(Y >> 5, -32768, 32767)
        ax = X & 31
        ay = Y & 31

        def fetch(xx, yy):
            inside = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
            v = image[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)].astype(np.int64)
            if border == "zero":
                v[~inside] = 0
            return v

        weights = [((32 - ax) * (32 - ay) * 32), (ax * (32 - ay) * 32), ((32 - ax) * ay * 32), (ax * ay * 32)]
        total = (weights[0][:, None] * fetch(ix, iy) + weights[1][:, None] * fetch(ix + 1, iy)
                 + weights[2][:, None] * fetch(ix, iy + 1) + weights[3][:, None] * fetch(ix + 1, iy + 1))
        row = np.clip((total + (1 << 14)) >> 15, 0, 255)
        if border == "zero":
            outside = (ix >= w) | (ix + 1 < 0) | (iy >= h) | (iy + 1 < 0)
            row[outside] = 0
        out[y] = row
    return out if pixels.ndim == 3 else out[:, :, 0]


def identity_model(width, height, path):
    """A .tflite whose only operator casts a uint8 [1,h,w,3] image to float32: run by an
    ImageEmbedder, its embedding is MediaPipe's input tensor itself."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as schema
    model = schema.ModelT()
    model.version = 3
    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.CAST
    code.version = 1
    model.operatorCodes = [code]
    tensors = []
    for index, (name, kind) in enumerate([(b"image", schema.TensorType.UINT8), (b"pixels", schema.TensorType.FLOAT32)]):
        tensor = schema.TensorT()
        tensor.shape, tensor.type, tensor.buffer, tensor.name = [1, height, width, 3], kind, index + 1, name
        tensors.append(tensor)
    op = schema.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0], [1]
    op.builtinOptionsType = schema.BuiltinOptions.CastOptions
    op.builtinOptions = schema.CastOptionsT()
    op.builtinOptions.inDataType, op.builtinOptions.outDataType = schema.TensorType.UINT8, schema.TensorType.FLOAT32
    graph = schema.SubGraphT()
    graph.tensors, graph.inputs, graph.outputs, graph.operators, graph.name = tensors, [0], [1], [op], b"main"
    model.subgraphs = [graph]
    model.buffers = [schema.BufferT() for _ in range(3)]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    with open(path, "wb") as f:
        f.write(builder.Output())


def mediapipe_levels(pixels, width, height, roi, degrees, scratch):
    """MediaPipe's own ImageToTensor output (levels 0...255) through an ImageEmbedder."""
    from mediapipe.tasks.python import vision, BaseOptions
    from mediapipe.tasks.python.components.containers.rect import RectF
    from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions
    path = os.path.join(scratch, f"identity_{width}x{height}.tflite")
    identity_model(width, height, path)
    embedder = vision.ImageEmbedder.create_from_options(
        vision.ImageEmbedderOptions(base_options=BaseOptions(model_asset_path=path)))
    image = mp.Image(mp.ImageFormat.SRGB, np.ascontiguousarray(pixels))
    rect = None if roi is None else RectF(left=roi[0], top=roi[1], right=roi[2], bottom=roi[3])
    options = ImageProcessingOptions(region_of_interest=rect, rotation_degrees=degrees)
    values = np.asarray(embedder.embed(image, options).embeddings[0].embedding, dtype=np.float32)
    embedder.close()
    return values.reshape(height, width, 3)


def normalized_rect(roi, degrees, width, height):
    """MediaPipe's ConvertToNormalizedRect (base_vision_task_api.h) for ImageProcessingOptions, in
    its single-precision arithmetic (the RectF and NormalizedRect fields are floats)."""
    left, top, right, bottom = [F32(v) for v in (roi if roi is not None else (0, 0, 1, 1))]
    x_center = F32((float(left + right)) / 2.0)
    y_center = F32((float(top + bottom)) / 2.0)
    rect_w, rect_h = F32(right - left), F32(bottom - top)
    if degrees % 180:
        rect_w, rect_h = F32(rect_h * F32(height)) / F32(width), F32(rect_w * F32(width)) / F32(height)
    rotation = F32(-degrees * math.pi / 180.0)
    return tuple(float(v) for v in (x_center, y_center, rect_w, rect_h, rotation))


# (name, image, crop [left, top, right, bottom] or None, rotation_degrees, width, height)
MEDIAPIPE_CASES = [
    ("mediapipe_woman_stretch_64x48", "woman_sitting.jpg", None, 0, 64, 48),
    ("mediapipe_thumbs_crop_128", "two_thumbs_up.jpg", (0.1, 0.2, 0.7, 0.9), 0, 128, 128),
    ("mediapipe_hand_crop_rot90_96x64", "hand_thumb_up.jpg", (0.3, 0.05, 0.95, 0.6), 90, 96, 64),
    ("mediapipe_woman_rot270_80", "woman_sitting.jpg", None, 270, 80, 80),
    ("mediapipe_thumbs_crop_rot180_100x70", "two_thumbs_up.jpg", (0.0, 0.3, 0.5, 1.0), 180, 100, 70),
    ("mediapipe_astronaut_zoom_128", "astronaut.png", (0.4, 0.35, 0.5, 0.47), 0, 128, 128),
    ("mediapipe_thumbs_strip_200x10", "two_thumbs_up.jpg", (0.05, 0.4, 0.95, 0.55), 0, 200, 10),
    # 587 rows onto 192: every sixth row's source position falls exactly between two 1/32 steps,
    # so the last bit of the perspective solve decides its rounding.
    ("mediapipe_stacked_587_to_192", "../references/hands/images/hands_stacked.png", None, 0, 192, 192),
]


def mediapipe_references():
    import tempfile
    manifest = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, image_name, roi, degrees, w, h in MEDIAPIPE_CASES:
            pixels = loaded_rgb(os.path.join(IMAGES, image_name))
            got = mediapipe_levels(pixels, w, h, roi, degrees, scratch)
            rect = normalized_rect(roi, degrees, pixels.shape[1], pixels.shape[0])
            emulated, _ = mediapipe_tensor(pixels, rect, w, h, False, 0, 255, "replicate")
            diff = np.abs(got - emulated)
            got.astype("<f4").tofile(os.path.join(OUT, f"{name}.f32"))
            manifest.append({"name": name, "image": image_name, "crop": roi, "rotationDegrees": degrees,
                             "bufferRect": list(rect), "width": w, "height": h,
                             "emulationMaxDiff": float(diff.max()), "emulationMismatches": int((diff > 0).sum())})
            print(f"mediapipe {name}: {w}x{h}; fixed-point emulation max diff {diff.max()}, "
                  f"{int((diff > 0).sum())}/{diff.size} differ")
    with open(os.path.join(OUT, "mediapipe_tensors.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def write_png(path, samples, color_type, bit_depth, palette=None, trns=None, interlace=False):
    """A PNG written by hand (any colour type, bit depth, tRNS, Adam7), so every variant libpng
    and stb_image read can be made. `samples` is rows x columns x channels of raw sample values."""
    import struct
    import zlib
    h, w = samples.shape[:2]
    channels = samples.shape[2]

    def pack_rows(block):
        rows = []
        for row in block:
            if bit_depth == 16:
                data = b"".join(int(v).to_bytes(2, "big") for v in row.reshape(-1))
            elif bit_depth == 8:
                data = bytes(int(v) for v in row.reshape(-1))
            else:
                bits = "".join(format(int(v), f"0{bit_depth}b") for v in row.reshape(-1))
                bits += "0" * (-len(bits) % 8)
                data = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
            rows.append(b"\x00" + data)
        return b"".join(rows)

    if interlace:
        raw = b""
        for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
            sub = samples[y0::dy, x0::dx]
            if sub.size:
                raw += pack_rows(sub)
    else:
        raw = pack_rows(samples)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bit_depth, color_type, 0, 0, int(interlace)))
    if palette is not None:
        out += chunk(b"PLTE", bytes(int(v) for v in np.asarray(palette).reshape(-1)))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    out += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    assert channels == {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    with open(path, "wb") as f:
        f.write(out)


def png_variants():
    """Small PNGs of every colour type and bit depth, with what MediaPipe decodes from each."""
    import struct
    folder = os.path.join(IMAGES, "png-variants")
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(7)
    h, w = 7, 13

    def rand(bits, channels):
        return rng.integers(0, 2 ** bits, (h, w, channels))

    palette = rng.integers(0, 256, (256, 3))
    variants = []
    for bits in (1, 2, 4, 8, 16):
        variants.append((f"gray{bits}", rand(bits, 1), 0, bits, None, None, False))
    gray8 = rand(8, 1)
    gray8[0, :3] = 77
    variants.append(("gray8_trns", gray8, 0, 8, None, struct.pack(">H", 77), False))
    variants.append(("gray4_interlaced", rand(4, 1), 0, 4, None, None, True))
    variants.append(("gray_alpha8", rand(8, 2), 4, 8, None, None, False))
    variants.append(("gray_alpha16", rand(16, 2), 4, 16, None, None, False))
    for bits in (1, 2, 4, 8):
        variants.append((f"palette{bits}", rand(bits, 1), 3, bits, palette[:2 ** bits], None, False))
    variants.append(("palette8_trns", rand(8, 1), 3, 8, palette, bytes(int(v) for v in rng.integers(0, 256, 40)), False))
    variants.append(("rgb8", rand(8, 3), 2, 8, None, None, False))
    variants.append(("rgb16", rand(16, 3), 2, 16, None, None, False))
    rgb8 = rand(8, 3)
    rgb8[2, 4:7] = (10, 20, 30)
    variants.append(("rgb8_trns", rgb8, 2, 8, None, struct.pack(">HHH", 10, 20, 30), False))
    variants.append(("rgb8_interlaced", rand(8, 3), 2, 8, None, None, True))
    variants.append(("rgba8", rand(8, 4), 6, 8, None, None, False))
    variants.append(("rgba16", rand(16, 4), 6, 16, None, None, False))

    manifest = {}
    for name, samples, color_type, bits, pal, trns, interlace in variants:
        path = os.path.join(folder, f"{name}.png")
        write_png(path, samples, color_type, bits, pal, trns, interlace)
        entry = {}
        try:
            image = mp.Image.create_from_file(path)
            pixels = np.array(image.numpy_view())
            entry["mediapipe"] = pixels.reshape(h, w, -1).astype(int).tolist()
        except Exception as error:  # MediaPipe refuses 2-channel (gray + alpha) images
            entry["mediapipeError"] = str(error)
            # VisionCore gives RGBA, the gray level in R, G and B: libpng's 8-bit gray and alpha, as PIL gives them.
            entry["expectedGrayAlpha"] = np.array(Image.open(path).convert("LA")).astype(int).tolist()
        manifest[name] = entry
        print(f"png {name}: " + (f"{len(entry['mediapipe'][0][0])} channels" if "mediapipe" in entry
                                 else "MediaPipe: " + entry["mediapipeError"]))
    with open(os.path.join(OUT, "png_variants.json"), "w") as f:
        json.dump(manifest, f, separators=(",", ":"))


def jpeg_variants():
    """Small JPEGs of the kinds cameras and encoders write (sequential and progressive; 4:4:4, 4:2:2
    and 4:2:0 sampling; gray; CMYK; restart markers; sizes not a multiple of the block),
    written with Pillow's encoder, with every pixel MediaPipe's loader decodes from each."""
    folder = os.path.join(IMAGES, "jpeg-variants")
    os.makedirs(folder, exist_ok=True)
    photo = Image.open(os.path.join(IMAGES, "woman_sitting.jpg")).convert("RGB").crop((300, 60, 300 + 37, 60 + 29))
    variants = [
        ("ycc444", photo, dict(quality=90, subsampling=0)),
        ("ycc422", photo, dict(quality=85, subsampling=1)),
        ("ycc420", photo, dict(quality=80, subsampling=2)),
        ("progressive420", photo, dict(quality=75, subsampling=2, progressive=True)),
        ("progressive444", photo, dict(quality=75, subsampling=0, progressive=True)),
        ("restart420", photo, dict(quality=80, subsampling=2, restart_marker_blocks=2)),
        ("gray", photo.convert("L"), dict(quality=90)),
        ("gray_progressive", photo.convert("L"), dict(quality=90, progressive=True)),
        ("cmyk", photo.convert("CMYK"), dict(quality=90)),
        ("tiny", photo.resize((5, 3)), dict(quality=95)),
    ]
    manifest = {}
    for name, image, options in variants:
        path = os.path.join(folder, f"{name}.jpg")
        image.save(path, **options)
        pixels = loaded_rgb(path)
        if pixels.ndim == 2:
            pixels = pixels[:, :, None]
        manifest[name] = {"mediapipe": pixels.astype(int).tolist()}
        print(f"jpeg {name}: {pixels.shape[1]}x{pixels.shape[0]}x{pixels.shape[2]}, {os.path.getsize(path)} bytes")
    with open(os.path.join(OUT, "jpeg_variants.json"), "w") as f:
        json.dump(manifest, f, separators=(",", ":"))


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
        h, w, c = mp_pixels.shape
        ys = rng.integers(0, h, 2000)
        xs = rng.integers(0, w, 2000)
        out[name] = {
            "width": int(w), "height": int(h), "channels": int(c),
            "x": xs.tolist(), "y": ys.tolist(),
            "mediapipe": mp_pixels[ys, xs].astype(int).tolist(),
        }
    with open(os.path.join(OUT, "decode.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
    for name, entry in out.items():
        print(f"decode {name}: {entry['width']}x{entry['height']}x{entry['channels']}")


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
        pixels = stored_pixels(loaded_rgb(os.path.join(IMAGES, image_name)), transform)
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
    # Takes no arguments: `--help` prints what it does instead of running it (it writes committed files).
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    os.makedirs(OUT, exist_ok=True)
    decode_references()
    png_variants()
    jpeg_variants()
    mediapipe_references()
    tensor_references()
