#!/usr/bin/env python3
"""MediaPipe's usual Python video loop, timed: OpenCV VideoCapture -> detect_for_video ->
(with --annotate) drawing_utils on the frame -> cv2.VideoWriter. Imports and task creation are
not timed (the loop is). Prints one JSON object: {"frames", "loopSeconds", "fps"} (tools/bench/bench.py
samples the process's memory from outside).

Usage: python3 tools/bench/bench_mediapipe_video.py face-landmarker|hand-landmarker|pose-landmarker MODEL VIDEO [--annotate OUT.mp4]
(tools/bench/bench.py runs it next to `vision-tasks ... --video`.)
"""
import argparse
import json
import time

import cv2
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
from mediapipe.tasks.python.vision import drawing_styles, drawing_utils


def make_task(name, model):
    """The task in VIDEO mode with the options `vision-tasks ... --video` gets from bench.py: one face,
    two hands, one person."""
    base = BaseOptions(model_asset_path=model)
    video = vision.RunningMode.VIDEO
    if name == "face-landmarker":
        return vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(base_options=base, running_mode=video))
    if name == "pose-landmarker":
        return vision.PoseLandmarker.create_from_options(vision.PoseLandmarkerOptions(base_options=base, running_mode=video))
    return vision.HandLandmarker.create_from_options(vision.HandLandmarkerOptions(
        base_options=base, running_mode=video, num_hands=2))


def draw(name, frame, result):
    """The drawing the MediaPipe samples do: face mesh tesselation + contours + irises, hand skeletons, or
    pose skeletons."""
    if name == "face-landmarker":
        for face in result.face_landmarks:
            C = vision.FaceLandmarksConnections
            drawing_utils.draw_landmarks(frame, face, C.FACE_LANDMARKS_TESSELATION, None,
                                         drawing_styles.get_default_face_mesh_tesselation_style())
            drawing_utils.draw_landmarks(frame, face, C.FACE_LANDMARKS_CONTOURS, None,
                                         drawing_styles.get_default_face_mesh_contours_style())
            drawing_utils.draw_landmarks(frame, face, C.FACE_LANDMARKS_LEFT_IRIS, None,
                                         drawing_styles.get_default_face_mesh_iris_connections_style())
            drawing_utils.draw_landmarks(frame, face, C.FACE_LANDMARKS_RIGHT_IRIS, None,
                                         drawing_styles.get_default_face_mesh_iris_connections_style())
    elif name == "pose-landmarker":
        for pose in result.pose_landmarks:
            drawing_utils.draw_landmarks(frame, pose, vision.PoseLandmarksConnections.POSE_LANDMARKS,
                                         drawing_styles.get_default_pose_landmarks_style())
    else:
        for hand in result.hand_landmarks:
            drawing_utils.draw_landmarks(frame, hand, vision.HandLandmarksConnections.HAND_CONNECTIONS,
                                         drawing_styles.get_default_hand_landmarks_style(),
                                         drawing_styles.get_default_hand_connections_style())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("task", choices=["face-landmarker", "hand-landmarker", "pose-landmarker"])
    p.add_argument("model")
    p.add_argument("video")
    p.add_argument("--annotate")
    args = p.parse_args()
    task = make_task(args.task, args.model)
    start = time.perf_counter()
    capture = cv2.VideoCapture(args.video)
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    writer, frames = None, 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
        result = task.detect_for_video(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb), int(frames * 1000 / fps))
        if args.annotate:
            draw(args.task, frame, result)
            if writer is None:
                h, w = frame.shape[:2]
                writer = cv2.VideoWriter(args.annotate, cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
            writer.write(frame)
        frames += 1
    if writer is not None:
        writer.release()
    capture.release()
    seconds = time.perf_counter() - start
    task.close()
    print(json.dumps({"frames": frames, "loopSeconds": seconds, "fps": frames / seconds}))


if __name__ == "__main__":
    main()
