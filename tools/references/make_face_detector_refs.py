#!/usr/bin/env python3
"""Regenerates the Face Detector parity references with Google's MediaPipe (mediapipe==1.2.2).

Writes Tests/Fixtures/references/face_detector/:
  images.json   MediaPipe's IMAGE-mode results for every case below
  video.json    MediaPipe's VIDEO-mode results for the frame sequence in video/
  composite.png a three-face picture composed from the fixtures
  video/*.png   a short pan/zoom sequence built from the fixtures (320x240)

Cases (each photo in Tests/Fixtures/images plus composite.png):
  - the photo turned `quarterTurnsCCW` x 90 degrees counterclockwise (numpy.rot90), two ways:
    "feed": "rotatedPixels": MediaPipe is given the turned pixels; the Swift tests give the same
      turned pixels with orientation .up.
    "feed": "orientation": MediaPipe is given the unturned pixels with
      ImageProcessingOptions(rotation_degrees = (360 - 90 k) % 360), which is how MediaPipe for iOS
      runs an MPImage whose orientation is .left (k=1), .down (k=2) or .right (k=3); the Swift tests
      give the unturned pixels with that orientation. MediaPipe answers in the unturned frame; the
      reference converts to the upright (turned) image, where our results are: keypoints exactly,
      pixel boxes by turning MediaPipe's integer box (which adds up to 2 px of truncation).
  - raw frames: RGBA (alpha 128, which MediaPipe ignores), BGRA (MediaPipe's Python API has no BGRA
    format, so it gets the same pixels as RGBA; our side swaps nothing and must read BGRA right),
    and gray (MediaPipe's graph rejects GRAY8 for this 3-channel model, so gray frames are defined
    as the gray value in all three channels; the reference feeds that RGB image).
    Gray is computed as (299 R + 587 G + 114 B + 500) // 1000, which the tests recompute.
  - a lower detection threshold (0.3) and another suppression threshold (0.5) on some photos.

Photos are loaded with mp.Image.create_from_file, MediaPipe's own loader (stb_image), whose
pixels our MPImage decoder reproduces exactly. Keypoint scores: MediaPipe's Python API reports 0.0 for keypoints without a score;
the C++/iOS API leaves them unset, and the references write null as the iOS API does.

Usage: python3 tools/references/make_face_detector_refs.py [--models models]
"""
import argparse
import json
import os

import numpy as np
from PIL import Image

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "references", "face_detector")
PHOTOS = ["astronaut.png", "hand_thumb_up.jpg", "two_thumbs_up.jpg", "woman_sitting.jpg"]
VIDEO_SIZE = (320, 240)


def load_rgb(path):
    """The pixels MediaPipe's file loader gives (a copy: the view dies with the image)."""
    image = mp.Image.create_from_file(path)  # held while the view is copied: the view dies with it
    return np.array(image.numpy_view())


def gray_of(rgb):
    r, g, b = (rgb[..., i].astype(np.int32) for i in range(3))
    return ((299 * r + 587 * g + 114 * b + 500) // 1000).astype(np.uint8)


def to_json(result, timestamp=0):
    detections = []
    for d in result.detections:
        box = d.bounding_box
        detections.append({
            "categories": [{"index": c.index, "score": c.score, "categoryName": c.category_name,
                            "displayName": c.display_name} for c in d.categories],
            "boundingBox": {"originX": box.origin_x, "originY": box.origin_y,
                            "width": box.width, "height": box.height},
            "keypoints": [{"x": k.x, "y": k.y, "label": k.label, "score": None}
                          for k in (d.keypoints or [])],
        })
    return {"detections": detections, "timestampInMilliseconds": timestamp}


def upright(result, turns, width, height):
    """A result in the unturned frame (width x height) moved to the frame turned `turns` x 90 CCW."""
    for d in result["detections"]:
        for k in d["keypoints"]:
            x, y = k["x"], k["y"]
            k["x"], k["y"] = [(x, y), (y, 1 - x), (1 - x, 1 - y), (1 - y, x)][turns]
        b = d["boundingBox"]
        x0, y0, w, h = b["originX"], b["originY"], b["width"], b["height"]
        b["originX"], b["originY"], b["width"], b["height"] = [
            (x0, y0, w, h), (y0, width - x0 - w, h, w), (width - x0 - w, height - y0 - h, w, h),
            (height - y0 - h, x0, h, w)][turns]
    return result


def detector(model, mode=vision.RunningMode.IMAGE, confidence=0.5, suppression=0.3):
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(model_asset_path=model), running_mode=mode,
        min_detection_confidence=confidence, min_suppression_threshold=suppression)
    return vision.FaceDetector.create_from_options(options)


def mp_image(array):
    array = np.ascontiguousarray(array)
    fmt = mp.ImageFormat.SRGBA if array.shape[2] == 4 else mp.ImageFormat.SRGB
    return mp.Image(image_format=fmt, data=array)


def compose(out_path):
    """Three faces in a row: the astronaut's face, the sitting woman's face, and the astronaut's face
    mirrored and smaller, cut from the fixtures."""
    astronaut = Image.open(os.path.join(IMAGES, "astronaut.png")).convert("RGB")
    woman = Image.open(os.path.join(IMAGES, "woman_sitting.jpg")).convert("RGB")
    canvas = Image.new("RGB", (480, 200), (40, 40, 40))
    canvas.paste(astronaut.crop((120, 30, 330, 240)).resize((200, 200), Image.BILINEAR), (0, 0))
    canvas.paste(woman.crop((230, 10, 450, 230)).resize((160, 160), Image.BILINEAR), (205, 20))
    small = astronaut.crop((120, 30, 330, 240)).transpose(Image.FLIP_LEFT_RIGHT)
    canvas.paste(small.resize((110, 110), Image.BILINEAR), (370, 60))
    canvas.save(out_path, optimize=True)


def make_video(video_dir):
    """A pan and zoom over woman_sitting.jpg, then a zoom into astronaut.png, as 320x240 PNGs."""
    os.makedirs(video_dir, exist_ok=True)
    woman = Image.open(os.path.join(IMAGES, "woman_sitting.jpg")).convert("RGB")
    astronaut = Image.open(os.path.join(IMAGES, "astronaut.png")).convert("RGB")
    frames = []
    for i in range(6):  # crop windows 640x480 -> 400x300 drifting right over the woman's face
        w = 640 - 48 * i
        h = w * 3 // 4
        x0 = 60 + 30 * i
        y0 = max(0, 10 + 5 * i)
        frames.append(woman.crop((x0, y0, x0 + w, y0 + h)).resize(VIDEO_SIZE, Image.BILINEAR))
    for i in range(4):  # zoom into the astronaut's face
        w = 512 - 64 * i
        h = w * 3 // 4
        x0 = (512 - w) // 2 - 16 * i
        x0 = max(0, x0)
        y0 = max(0, 40 - 10 * i)
        frames.append(astronaut.crop((x0, y0, x0 + w, y0 + h)).resize(VIDEO_SIZE, Image.BILINEAR))
    names = []
    for i, frame in enumerate(frames):
        name = f"frame_{i:02d}.png"
        frame.save(os.path.join(video_dir, name), optimize=True)
        names.append(name)
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=os.path.join(ROOT, "models"))
    args = parser.parse_args()
    model = os.path.join(args.models, "blaze_face_short_range.tflite")
    os.makedirs(OUT, exist_ok=True)
    compose(os.path.join(OUT, "composite.png"))

    cases = []
    sources = [(name, os.path.join(IMAGES, name)) for name in PHOTOS]
    sources.append(("references/face_detector/composite.png", os.path.join(OUT, "composite.png")))
    default = detector(model)
    for name, path in sources:
        rgb = load_rgb(path)
        for turns in range(4):
            result = default.detect(mp_image(np.rot90(rgb, turns)))
            cases.append({"image": name, "quarterTurnsCCW": turns, "feed": "rotatedPixels", "pixelFormat": "rgb8",
                          "minDetectionConfidence": 0.5, "minSuppressionThreshold": 0.3,
                          "result": to_json(result)})
        for turns in range(1, 4):
            options = ImageProcessingOptions(rotation_degrees=(360 - 90 * turns) % 360)
            result = upright(to_json(default.detect(mp_image(rgb), options)), turns, rgb.shape[1], rgb.shape[0])
            cases.append({"image": name, "quarterTurnsCCW": turns, "feed": "orientation", "pixelFormat": "rgb8",
                          "minDetectionConfidence": 0.5, "minSuppressionThreshold": 0.3, "result": result})
    for name in ["astronaut.png", "references/face_detector/composite.png", "woman_sitting.jpg"]:
        path = os.path.join(OUT, "composite.png") if name.startswith("references/") else os.path.join(IMAGES, name)
        rgb = load_rgb(path)
        rgba = np.concatenate([rgb, np.full(rgb.shape[:2] + (1,), 128, np.uint8)], axis=2)
        for fmt in ["rgba8", "bgra8"]:
            cases.append({"image": name, "quarterTurnsCCW": 0, "feed": "rotatedPixels", "pixelFormat": fmt,
                          "minDetectionConfidence": 0.5, "minSuppressionThreshold": 0.3,
                          "result": to_json(default.detect(mp_image(rgba)))})
        gray = np.repeat(gray_of(rgb)[..., None], 3, axis=2)
        cases.append({"image": name, "quarterTurnsCCW": 0, "feed": "rotatedPixels", "pixelFormat": "gray8",
                      "minDetectionConfidence": 0.5, "minSuppressionThreshold": 0.3,
                      "result": to_json(default.detect(mp_image(gray)))})
    for confidence, suppression in [(0.3, 0.3), (0.5, 0.5)]:
        custom = detector(model, confidence=confidence, suppression=suppression)
        for name in ["astronaut.png", "woman_sitting.jpg", "references/face_detector/composite.png"]:
            path = os.path.join(OUT, "composite.png") if name.startswith("references/") else os.path.join(IMAGES, name)
            rgb = load_rgb(path)
            cases.append({"image": name, "quarterTurnsCCW": 0, "feed": "rotatedPixels", "pixelFormat": "rgb8",
                          "minDetectionConfidence": confidence, "minSuppressionThreshold": suppression,
                          "result": to_json(custom.detect(mp_image(rgb)))})
        custom.close()
    default.close()

    video_dir = os.path.join(OUT, "video")
    frames = make_video(video_dir)
    video = detector(model, mode=vision.RunningMode.VIDEO)
    video_frames = []
    for i, name in enumerate(frames):
        timestamp = i * 33
        result = video.detect_for_video(mp_image(load_rgb(os.path.join(video_dir, name))), timestamp)
        video_frames.append({"image": f"references/face_detector/video/{name}",
                             "timestampInMilliseconds": timestamp, "result": to_json(result, timestamp)})
    video.close()

    meta = {"generator": "tools/references/make_face_detector_refs.py", "mediapipe": mp.__version__,
            "model": "blaze_face_short_range.tflite"}
    with open(os.path.join(OUT, "images.json"), "w") as f:
        json.dump({**meta, "cases": cases}, f, indent=1)
    with open(os.path.join(OUT, "video.json"), "w") as f:
        json.dump({**meta, "frames": video_frames}, f, indent=1)
    faces = sum(len(c["result"]["detections"]) for c in cases)
    video_faces = sum(len(f["result"]["detections"]) for f in video_frames)
    print(f"{len(cases)} image cases ({faces} faces), {len(video_frames)} video frames ({video_faces} faces) -> {OUT}")


if __name__ == "__main__":
    main()
