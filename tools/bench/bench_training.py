"""The `training` rows of `make bench` (issue #35): `vision-tasks train-gestures` on 400 photos, the whole process
from photos to .task (hands found, embedded, trained, exported), wall time against MediaPipe Model Maker's.

Model Maker cannot run on these machines: it downloads its gesture embedder and hand models from
storage.googleapis.com at run time, which these machines cannot reach (measured 2026-11-27: curl fails to
resolve it). Its row therefore holds the figure issue #35 measured for it on the same kind of 2-core machine,
36-40 s for 400 photos (install not counted), as the midpoint 38 s, and says so; the ratio's goal is a quarter.

The 400 photos are the 80 fixture photos (Tests/Fixtures/gestures, from SubhiH/HandsDataset) five times each,
under other names. With HANDSDATASET set to a SubhiH/HandsDataset checkout, it also trains on its train split
and prints the accuracy on its test split (tools/bench/gesture_accuracy.py; no goal row: accuracy is not a ratio).
"""
import os
import shutil
import statistics
import subprocess
import time

from bench_common import CLI, ROOT

PHOTOS = os.path.join(ROOT, "Tests", "Fixtures", "gestures")
MODEL = os.path.join(ROOT, "models", "gesture_recognizer.task")
MODEL_MAKER_SECONDS = 38.0


def four_hundred_photos(folder):
    """folder/<label>/ holding the fixture photos five times each: 400 photos."""
    count = 0
    for label in sorted(os.listdir(PHOTOS)):
        source = os.path.join(PHOTOS, label)
        if not os.path.isdir(source):
            continue
        os.makedirs(os.path.join(folder, label))
        for name in sorted(os.listdir(source)):
            for copy in range(5):
                shutil.copyfile(os.path.join(source, name), os.path.join(folder, label, f"{copy}-{name}"))
                count += 1
    return count


def training_rows(table, tmp, args):
    data = os.path.join(tmp, "training-photos")
    count = four_hundred_photos(data)
    output = os.path.join(tmp, "trained.task")
    times = []
    for _ in range(1 if args.quick else 3):
        start = time.perf_counter()
        subprocess.run([CLI, "train-gestures", data, "--model", MODEL, "--output", output, "--no-progress"],
                       check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    table.add("training", f"train-gestures, {count} photos to .task, wall", statistics.median(times), MODEL_MAKER_SECONDS,
              "s", goal=0.25, reference="Model Maker (issue #35's 36-40 s; cannot run here)")
    dataset = os.environ.get("HANDSDATASET")
    if dataset:
        subprocess.run(["python3", os.path.join(ROOT, "tools", "bench", "gesture_accuracy.py"), "--dataset", dataset, "--tool", CLI,
                        "--model", MODEL, "--seeds", "0", "--configs", "model-maker,defaults",
                        "--work", os.path.join(tmp, "gesture-accuracy")], check=True)
