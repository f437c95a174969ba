#!/usr/bin/env python3
"""A MediaPipe 1.2.2 HTTP server written the way its users write one: the benchmark peer of
`vision-tasks serve` (tools/checks/load_test.py --bench --peer), not shipped.

Flask (threaded) receives `POST /api/v1/face-landmarker` with a JPEG or PNG body and hands the bytes
to a pool of worker processes (one per core by default), each holding its own FaceLandmarker made
once; a worker decodes the image with OpenCV (cv2.imdecode, as the MediaPipe samples do), detects,
and returns the landmarks as JSON. `GET /healthz` answers when the pool is ready.

Usage: tools/bench/mediapipe_server.py --port PORT [--workers N] [--model models/face_landmarker.task]
"""
import argparse
import logging
import multiprocessing
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
landmarker = None  # one per worker process


def start_worker(model):
    global landmarker
    import mediapipe as mp
    from mediapipe.tasks import python as mp_tasks
    from mediapipe.tasks.python import vision
    options = vision.FaceLandmarkerOptions(base_options=mp_tasks.BaseOptions(model_asset_path=model),
                                           running_mode=vision.RunningMode.IMAGE,
                                           output_face_blendshapes=False, num_faces=1)
    landmarker = vision.FaceLandmarker.create_from_options(options)
    globals()["mp"] = mp


def detect(body):
    """(status, payload) for one request body."""
    import cv2
    import numpy as np
    bgr = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    if bgr is None:
        return 415, {"error": "the body is not a JPEG or PNG image"}
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb))
    faces = [[{"x": p.x, "y": p.y, "z": p.z} for p in face] for face in result.face_landmarks]
    return 200, {"faceLandmarks": faces}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--model", default=os.path.join(ROOT, "models", "face_landmarker.task"))
    args = parser.parse_args()

    from flask import Flask, jsonify, request
    pool = multiprocessing.get_context("spawn").Pool(args.workers, initializer=start_worker, initargs=(args.model,))
    pool.map(int, range(args.workers))  # the pool answers before /healthz does (load_test.py warms every worker)
    app = Flask("mediapipe-server")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request (the bench reads no log)

    @app.get("/healthz")
    def healthz():
        return "ok"

    @app.post("/api/v1/face-landmarker")
    def face_landmarker():
        status, payload = pool.apply(detect, (request.get_data(),))
        return jsonify(payload), status

    app.run(host="127.0.0.1", port=args.port, threaded=True)


if __name__ == "__main__":
    main()
