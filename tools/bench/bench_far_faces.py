#!/usr/bin/env python3
"""The far-face rows of `make bench` (its section `far-faces`, issue 26): BlazeFace full range
beside short range, in recall and in time.

Recall by size: tools/bench/far_face_recall.py's table, printed as it is (faces found against face size on
the far-face composites of tools/references/make_face_full_range_refs.py: a head-and-shoulders photo at 5-90% of
a 1280x720 frame's height, on grey or on a street photo; ours run now with the release build, legacy
MediaPipe 0.10.21 from the committed references Tests/Fixtures/references/face_detector/full_range.json),
then rows: for each face size and detector, the faces found on the two backgrounds, ours against
legacy MediaPipe's (short range at minDetectionConfidence 0.5; full range at 0.6, the threshold the
legacy full-range graph always uses; the ratio is 1 where both find none), and totals over the 20
composites (goal: ours finds every face legacy MediaPipe finds), full range at our default 0.5
included, and ours full range against ours short range.

Time per image (IMAGE mode, decoded outside the timing, median of many calls, the sides alternating
round by round through bench_common.time_calls), on the composite with the photo at 60% of the
frame's height on grey (face box 33%), where every side finds exactly that one face (checked first):
  - the Face Detector with short range, ours at 1 and 2 threads against MediaPipe 1.2.2's Tasks
    FaceDetector (bench.py's task-row reference);
  - the Face Detector with full range, ours at 1 and 2 threads and our CPU per call against legacy
    MediaPipe 0.10.21's `mp.solutions.face_detection.FaceDetection(model_selection=1)`; and what full
    range costs beside short range (our CPU per call, one thread);
  - the Face Landmarker with the full-range detector (faceDetectorModelAssetPath), which no MediaPipe
    API runs: against ours with the bundle's short-range detector (one thread) and against MediaPipe
    1.2.2's Face Landmarker, which runs short range (the rows say so).
No row has a time goal; the engine section times the full-range model itself against LiteRT.

Legacy MediaPipe needs numpy < 2, so it lives in a virtual environment of its own, $MEDIAPIPE_LEGACY_VENV
(default: .venv-mediapipe-0.10.21 in the repository, ignored by git), made on first use with
`python3 -m venv` and `pip install mediapipe==0.10.21` (wheels for CPython 3.9-3.12 on x86-64 and
aarch64 Linux). When it cannot be made or run, the legacy rows stay, with the reference `nan` and
"MediaPipe 0.10.21 unavailable: <why>", and the reason is printed.

Usage: python3 tools/bench/bench.py --sections far-faces [--quick]
In the legacy environment, bench runs this file to time the legacy detector on one image, printing
one JSON line {"medianMs", "cpuMsPerCall", "faces", "version"}:
  VENV/bin/python tools/bench/bench_far_faces.py IMAGE --runs N --warmup N
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

import far_face_recall
from bench_common import CLI, ROOT, ours, time_calls

SECTION = "far-faces"
SHORT_RANGE = os.path.join(ROOT, far_face_recall.RUNS["short"][0])
FULL_RANGE = os.path.join(ROOT, far_face_recall.RUNS["full"][0])
LEGACY_VERSION = "0.10.21"
LEGACY_VENV = os.environ.get("MEDIAPIPE_LEGACY_VENV", os.path.join(ROOT, ".venv-mediapipe-" + LEGACY_VERSION))
LEGACY = f"MediaPipe {LEGACY_VERSION}"
# The composite the timings run on: the photo at 60% of the frame's height on grey.
TIMED = ("plain", 432)


# ------------------------------------------------------------------ recall by size

def recall_rows(table, folder):
    """Prints far_face_recall's table of the composites (written to the empty `folder`) and adds its rows."""
    records = far_face_recall.recall(CLI, folder)
    print(far_face_recall.markdown(records), flush=True)

    def counted(key, side=None):
        return sum(r["found"][key] for r in records if side is None or r["side"] == side)

    def same_or_ratio(ours_found, theirs_found):
        return ours_found / theirs_found if theirs_found else (1.0 if ours_found == 0 else float("inf"))

    pairs = [("short range", "ours short", "MediaPipe short"), ("full range at 0.6", "ours full at 0.6", "MediaPipe full")]
    for label, ours_key, theirs_key in pairs:
        for side in sorted({r["side"] for r in records}):
            at = [r for r in records if r["side"] == side]
            a, b = counted(ours_key, side), counted(theirs_key, side)
            table.add(SECTION, f"{label}: found, face {at[0]['facePercent']:.1f}% of height (of {len(at)})", a, b,
                      "faces", reference=LEGACY, ratio=same_or_ratio(a, b))
    everywhere = f"found on {len(records)} composites"
    for label, ours_key, theirs_key in pairs:
        table.add(SECTION, f"{label}: {everywhere}", counted(ours_key), counted(theirs_key), "faces", goal=1.0,
                  higher_is_better=True, reference=LEGACY)
    table.add(SECTION, f"full range at 0.5 (default): {everywhere}", counted("ours full"), counted("MediaPipe full"),
              "faces", higher_is_better=True, reference=LEGACY + " at 0.6")
    table.add(SECTION, f"full range vs short range, ours: {everywhere}", counted("ours full"), counted("ours short"),
              "faces", higher_is_better=True, reference="ours short range")


# ------------------------------------------------------------------ legacy MediaPipe

class LegacyUnavailable(Exception):
    """Why legacy MediaPipe 0.10.21 cannot run here."""


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no message"


def legacy_import_error(python):
    """None when `python` imports legacy MediaPipe with its solutions API, else what went wrong."""
    if not os.path.exists(python):
        return f"{python} does not exist"
    probe = subprocess.run([python, "-c", "import mediapipe as mp; mp.solutions.face_detection; print(mp.__version__)"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return f"mediapipe does not import in {python}: {last_line(probe.stderr)}"
    if probe.stdout.strip() != LEGACY_VERSION:
        return f"{python} has mediapipe {probe.stdout.strip()}, not {LEGACY_VERSION}"
    return None


def legacy_python():
    """The Python of the legacy environment, made first if it is missing; raises LegacyUnavailable."""
    python = os.path.join(LEGACY_VENV, "bin", "python")
    if legacy_import_error(python) is None:
        return python
    print(f"bench: making {LEGACY_VENV} with mediapipe=={LEGACY_VERSION} (it needs numpy < 2)", file=sys.stderr, flush=True)
    for step in ([sys.executable, "-m", "venv", LEGACY_VENV],
                 [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", f"mediapipe=={LEGACY_VERSION}"]):
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            raise LegacyUnavailable(f"`{' '.join(step)}` failed: {last_line(done.stderr)}")
    error = legacy_import_error(python)
    if error:
        raise LegacyUnavailable(error)
    return python


def legacy_call_ms(python, image, runs, warmup):
    """(median ms, CPU ms per call, faces found) of legacy full range on `image`, timed in `python`."""
    done = subprocess.run([python, os.path.abspath(__file__), image, "--runs", str(runs), "--warmup", str(warmup)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise LegacyUnavailable(f"its timing failed: {last_line(done.stderr)}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["medianMs"], report["cpuMsPerCall"], report["faces"]


def time_legacy_full_range():
    """This file run in the legacy environment: times FaceDetection(model_selection=1).process."""
    parser = argparse.ArgumentParser(description="Times legacy MediaPipe's full-range face detection on one image.")
    parser.add_argument("image")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    args = parser.parse_args()
    import numpy as np
    import mediapipe as mp
    rgb = np.array(mp.Image.create_from_file(args.image).numpy_view())[..., :3].copy()
    with mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5) as detector:
        median, cpu = time_calls(lambda: detector.process(rgb), args.runs, args.warmup)
        faces = len(detector.process(rgb).detections or [])
    print(json.dumps({"medianMs": median, "cpuMsPerCall": cpu, "faces": faces, "version": mp.__version__}))


# ------------------------------------------------------------------ time per image

def faces_found(command):
    """How many faces one run of our CLI on one image reports."""
    line = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()[0]
    result = json.loads(line)["result"]
    return len(result.get("detections", result.get("faceLandmarks", [])))


# Ours, timed by vision-tasks-bench: key -> its arguments before the image.
OURS = {"detector short": ["face-detector", "--model", SHORT_RANGE],
        "detector full": ["face-detector", "--model", FULL_RANGE],
        "landmarker short": ["face-landmarker", "--model", os.path.join(ROOT, "models", "face_landmarker.task")],
        "landmarker full": ["face-landmarker", "--model", os.path.join(ROOT, "models", "face_landmarker.task"),
                            "--face-detector-model", FULL_RANGE]}


def timing_rows(table, image, args, mediapipe_call_ms, check_found):
    """Adds the time rows; `mediapipe_call_ms` and `check_found` are bench.py's (MediaPipe 1.2.2)."""
    check_found("face-detector", image, 1)
    check_found("face-landmarker", image, 1)
    for key in ("detector full", "landmarker full"):
        count = faces_found([CLI, *OURS[key], image])
        if count != 1:
            sys.exit(f"bench: ours ({key}) finds {count} faces on {os.path.basename(image)}, expected 1")
    try:
        python, missing = legacy_python(), None
    except LegacyUnavailable as why:
        python, missing = None, str(why)
    mp_detector, mp_landmarker, legacy, mine = [], [], [], {}
    for _ in range(args.rounds):
        mp_detector.append(mediapipe_call_ms("face-detector", image, False, 1, args.runs, args.warmup))
        if python:
            try:
                median, cpu, faces = legacy_call_ms(python, image, args.runs, args.warmup)
                if faces != 1:
                    raise LegacyUnavailable(f"it finds {faces} faces on {os.path.basename(image)}, expected 1")
                legacy.append((median, cpu))
            except LegacyUnavailable as why:
                python, missing, legacy = None, str(why), []
        mp_landmarker.append(mediapipe_call_ms("face-landmarker", image, False, 1, args.runs, args.warmup))
        for key in OURS:
            for threads in ((1,) if key == "landmarker short" else (1, 2)):
                shared = argparse.Namespace(runs=args.runs, warmup=args.warmup, threads=threads)
                report = ours([*OURS[key], image], shared)
                mine.setdefault((key, threads), []).append((report["medianMs"], report["cpuMsPerCall"]))
    if missing:
        print(f"bench: {LEGACY} (full range) unavailable, its rows say so: {missing}", file=sys.stderr, flush=True)

    def median(runs, cpu=False):
        return statistics.median(r[1 if cpu else 0] for r in runs) if runs else float("nan")

    legacy_reference = LEGACY + (f" unavailable: {missing}" if missing else " full range")
    per = "per 720p image"
    for threads in (1, 2):
        table.add(SECTION, f"face-detector short range {per}, {threads}T", median(mine[("detector short", threads)]),
                  median(mp_detector), "ms", reference="MediaPipe 1.2.2")
    for threads in (1, 2):
        table.add(SECTION, f"face-detector full range {per}, {threads}T", median(mine[("detector full", threads)]),
                  median(legacy), "ms", reference=legacy_reference)
    table.add(SECTION, f"face-detector full range {per}, CPU/call 1T", median(mine[("detector full", 1)], cpu=True),
              median(legacy, cpu=True), "ms", reference=legacy_reference)
    table.add(SECTION, f"face-detector full vs short range {per}, CPU/call 1T",
              median(mine[("detector full", 1)], cpu=True), median(mine[("detector short", 1)], cpu=True), "ms",
              reference="ours short range")
    table.add(SECTION, f"face-landmarker + full range {per}, 1T", median(mine[("landmarker full", 1)]),
              median(mine[("landmarker short", 1)]), "ms", reference="ours short range")
    for threads in (1, 2):
        table.add(SECTION, f"face-landmarker + full range {per}, {threads}T", median(mine[("landmarker full", threads)]),
                  median(mp_landmarker), "ms", reference="MediaPipe 1.2.2 (short range)")


def far_faces(table, folder, args, mediapipe_call_ms, check_found):
    """The section: recall rows on the composites written to the empty `folder`, then time rows."""
    recall_rows(table, folder)
    timing_rows(table, os.path.join(folder, far_face_recall.composite_name(*TIMED)), args, mediapipe_call_ms,
                check_found)


if __name__ == "__main__":
    time_legacy_full_range()
