#!/usr/bin/env python3
"""How accurate `vision-tasks train-gestures` is on photos held out from training (issues #35, #45).

Builds label folders from a SubhiH/HandsDataset checkout (Apache-2.0; https://github.com/SubhiH/HandsDataset):
its data/train_labels.csv and data/test_labels.csv list a box per hand with its finger count; photos with one
hand are kept, `0-hand` (a fist) becomes the `none` label and 1..5 fingers the labels one..five. Or, with
--folders, from any folder of label folders (one named none), every fifth photo of each label (by name) held out
for testing: e.g. the HaGRIDv2 subset in https://github.com/ninkat/GRModelMaker (sampledata/: none, grabbing,
grip, ok, one, thumb_index, 100 photos each). Then, for each
configuration and seed, it trains on the train photos with the tool and recognizes the test photos with the
tool's gesture-recognizer (custom gestures only: the canned classifier is limited to None; with MediaPipe any
gesture outside the trained labels counts as None), and prints the accuracy over the test photos in which a hand
was found. With --num-hands 2 a photo is scored by its best-scoring hand showing a trained gesture (a person
resting one hand and showing the gesture with the other, whichever the detector ranks first). With --mediapipe,
MediaPipe 1.2.2 recognizes the test photos with the same .task too, so both runtimes' accuracies are shown side by
side.

  python3 tools/bench/gesture_accuracy.py --dataset /path/to/HandsDataset --tool .build/release/vision-tasks \
      --model models/gesture_recognizer.task [--seeds 0,1,2] [--mediapipe] [--configs NAME,...]
  python3 tools/bench/gesture_accuracy.py --folders /path/to/GRModelMaker/sampledata [--per-label N] ...

Each line gives the training's wall time (photos to .task, the tool's whole process) and, when the settings search
ran, its time and the candidate it chose.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

LABELS = {"0-hand": "none", "1-hand": "one", "2-hand": "two", "3-hand": "three", "4-hand": "four", "5-hand": "five"}

# The configurations compared: Model Maker's recipe (its head and options, none of ours), each of our additions
# alone, the defaults before the settings search (search off: issue #35's), and the defaults (no option given).
OFF = ["--search", "off"]
CONFIGS = {
    "model-maker": OFF + ["--augment=false", "--balance-classes=false", "--early-stopping", "0"],
    "+augment": OFF + ["--balance-classes=false", "--early-stopping", "0"],
    "+balance": OFF + ["--augment=false", "--early-stopping", "0"],
    "+early-stopping": OFF + ["--augment=false", "--balance-classes=false"],
    "search-off": OFF,
    "defaults": [],
    # As many training steps as augmentation gives (10 samples per hand), without augmentation: is it the
    # variants or only the steps?
    "model-maker-100-epochs": OFF + ["--augment=false", "--balance-classes=false", "--early-stopping", "0", "--epochs", "100"],
}


def one_hand_photos(dataset, split):
    """{photo: label} for the photos of `split` with exactly one labelled hand."""
    rows = defaultdict(list)
    with open(os.path.join(dataset, "data", f"{split}_labels.csv")) as f:
        for row in csv.DictReader(f):
            rows[row["filename"]].append(row["class"])
    return {name: LABELS[classes[0]] for name, classes in rows.items() if len(classes) == 1 and classes[0] in LABELS}


def make_folders(dataset, root, per_label=None, seed=0, none_factor=1):
    """root/train/<label>/ and root/test/<label>/ of symbolic links to the photos; returns the test labels.
    per_label: at most that many training photos per label, drawn with `seed` (small-data runs); the none label
    gets none_factor times as many (unbalanced labels)."""
    import random
    tests = {}
    for split in ("train", "test"):
        photos = sorted(one_hand_photos(dataset, split).items())
        if split == "train" and per_label:
            chosen = []
            for label in sorted(set(LABELS.values())):
                names = [p for p in photos if p[1] == label]
                random.Random(seed).shuffle(names)
                chosen += names[:per_label * (none_factor if label == "none" else 1)]
            photos = sorted(chosen)
        for name, label in photos:
            folder = os.path.join(root, split, label)
            os.makedirs(folder, exist_ok=True)
            link = os.path.join(folder, name)
            if not os.path.exists(link):
                os.symlink(os.path.abspath(os.path.join(dataset, "images", name)), link)
            if split == "test":
                tests[link] = label
    return tests


def folder_photos(folders, root, per_label=None, seed=0):
    """root/train/<label>/ and root/test/<label>/ of symbolic links to the photos of `folders` (label folders):
    every fifth photo of each label, by name, is a test photo; per_label: at most that many training photos per
    label, drawn with `seed`. Returns the test labels."""
    import random
    tests = {}
    for label in sorted(os.listdir(folders)):
        source = os.path.join(folders, label)
        if not os.path.isdir(source) or label.startswith("."):
            continue
        names = sorted(n for n in os.listdir(source) if n.lower().endswith((".jpg", ".jpeg", ".png")))
        train = [n for i, n in enumerate(names) if i % 5 != 4]
        if per_label:
            random.Random(seed).shuffle(train)
            train = sorted(train[:per_label])
        for split, chosen in (("train", train), ("test", [n for i, n in enumerate(names) if i % 5 == 4])):
            os.makedirs(os.path.join(root, split, label), exist_ok=True)
            for name in chosen:
                link = os.path.join(root, split, label, name)
                if not os.path.exists(link):
                    os.symlink(os.path.abspath(os.path.join(source, name)), link)
                if split == "test":
                    tests[link] = label
    return tests


def train(tool, model, data, output, extra):
    """The report of one training, with its wall time (the whole process) as `wallSeconds`."""
    report = output + ".json"
    start = time.monotonic()
    subprocess.run([tool, "train-gestures", data, "--model", model, "--output", output, "--report", report, "--no-progress"]
                   + extra, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    with open(report) as f:
        result = json.load(f)
    result["wallSeconds"] = wall
    return result


def chosen(report):
    """The search's time and chosen candidate, as text ('' when it did not run)."""
    search = report.get("search")
    if not search:
        return ""
    if search.get("chosen") is None:
        return f"  search: {search.get('skipped')}"
    c = search["candidates"][search["chosen"]]
    settings = " ".join(f"{k}={c['settings'][k]}" for k in sorted(c["settings"]))
    return (f"  search {search['seconds']:.2f} s, {len(search['candidates'])} candidates, chose {settings} "
            f"(CV {c['meanAccuracy']:.3f} ± {c['spread']:.3f})")


def photo_gesture(hands):
    """A photo's gesture from its hands' [(gesture, score)]: the best-scoring hand that shows one of the trained
    gestures (not None), else "None" when a hand was found, else Python's None (no hand). With one hand searched this
    is that hand's gesture; with more, a photo of a person showing a gesture with one hand and resting the other is
    scored by the gesture hand, whichever one the palm detector ranks first."""
    if not hands:
        return None
    shown = [h for h in hands if h[0].lower() != "none"]
    return max(shown, key=lambda h: h[1])[0] if shown else "None"


def ours(tool, task, photos, num_hands=1):
    """{photo: gesture, "None", or None (no hand)} from the tool's gesture-recognizer."""
    out = subprocess.run([tool, "gesture-recognizer", "--model", task, "--canned-gestures-allowlist", "None", "--no-progress",
                          "--num-hands", str(num_hands)] + sorted(photos), check=False, capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        record = json.loads(line)
        gestures = record.get("result", {}).get("gestures") or []
        found[record.get("input")] = photo_gesture([(g[0]["categoryName"], g[0]["score"]) for g in gestures if g])
    return found


def mediapipes(task, photos, labels, num_hands=1):
    """{photo: gesture, "None", or None (no hand)} from MediaPipe 1.2.2 on the same .task. Where the custom
    classifier says None, MediaPipe falls back to its canned gestures, and when none of those passes (a score
    threshold of 1) it drops the hand from the result, landmarks and all: the hand would count as not found. So the
    canned classifier keeps its defaults and any gesture outside the trained `labels` counts as None."""
    import mediapipe as mp
    from mediapipe.tasks.python import vision
    options = vision.GestureRecognizerOptions(base_options=mp.tasks.BaseOptions(model_asset_path=task), num_hands=num_hands)
    found = {}
    with vision.GestureRecognizer.create_from_options(options) as recognizer:
        for photo in sorted(photos):
            result = recognizer.recognize(mp.Image.create_from_file(photo))
            found[photo] = photo_gesture([(g[0].category_name if g[0].category_name in labels else "None", g[0].score)
                                          for g in result.gestures if g])
    return found


def accuracy(found, truth):
    hands = [p for p in truth if found.get(p) is not None]
    right = sum(1 for p in hands if found[p].lower() == truth[p].lower())
    return right / max(1, len(hands)), len(hands)


def confusion(found, truth):
    """Each true label's predictions, as text lines (photos without a hand as 'no hand')."""
    table = defaultdict(Counter)
    for photo, label in truth.items():
        table[label.lower()][(found.get(photo) or "no hand").lower()] += 1
    return "\n".join(f"  {label:12s} " + ", ".join(f"{k} {n}" for k, n in table[label].most_common())
                     for label in sorted(table))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--dataset", help="a SubhiH/HandsDataset checkout (its train and test splits)")
    source.add_argument("--folders", help="a folder of label folders: every fifth photo of each label is a test photo")
    parser.add_argument("--tool", default=".build/release/vision-tasks")
    parser.add_argument("--model", default="models/gesture_recognizer.task")
    parser.add_argument("--work", default=None, help="folder for the label folders and models (default: a temporary one)")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="names among: " + ", ".join(CONFIGS))
    parser.add_argument("--mediapipe", action="store_true", help="also recognize with MediaPipe 1.2.2")
    parser.add_argument("--per-label", type=int, default=None,
                        help="small data: train on this many photos per label, drawn anew for each seed")
    parser.add_argument("--none-factor", type=int, default=1, help="with --per-label: the none label gets this many times more")
    parser.add_argument("--num-hands", type=int, default=1,
                        help="hands recognized per test photo; a photo's gesture is its best-scoring hand's that is not None")
    parser.add_argument("--confusion", action="store_true",
                        help="print each training's confusion (true label: predicted counts) and write its wrong photos "
                             "to <work>/<config>-<seed>.errors.json")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="gesture-accuracy-")
    seeds = [int(s) for s in args.seeds.split(",")]
    folders = {seed: os.path.join(work, f"seed-{seed}" if args.per_label else "all") for seed in seeds}
    for seed, folder in folders.items():
        if args.folders:
            truth = folder_photos(args.folders, folder, args.per_label, seed)
        else:
            truth = make_folders(args.dataset, folder, args.per_label, seed, args.none_factor)
    print(f"test photos with one hand: {len(truth)} ({dict(sorted(Counter(truth.values()).items()))}); "
          f"training photos per label: {args.per_label or 'all'} (none x{args.none_factor}); work folder {work}")
    for name in args.configs.split(","):
        scores, mp_scores = [], []
        for seed in seeds:
            task = os.path.join(work, f"{name}-{seed}.task")
            truth = {os.path.join(folders[seed], "test", label, os.path.basename(p)): label for p, label in truth.items()}
            report = train(args.tool, args.model, os.path.join(folders[seed], "train"), task, CONFIGS[name] + ["--seed", str(seed)])
            found = ours(args.tool, task, truth, args.num_hands)
            score, hands = accuracy(found, truth)
            scores.append(score)
            line = (f"{name:16s} seed {seed}: validation {report.get('validationAccuracy') or 0:.3f}  test {score:.3f} "
                    f"({hands} hands)  {report['wallSeconds']:.2f} s")
            if args.mediapipe:
                labels = {label["exportedName"] for label in report["labels"]}
                theirs = mediapipes(task, truth, labels, args.num_hands)
                mp_score, mp_hands = accuracy(theirs, truth)
                mp_scores.append(mp_score)
                both = [p for p in truth if found.get(p) is not None and theirs.get(p) is not None]
                agree = sum(1 for p in both if found[p] == theirs[p])
                line += f"  MediaPipe test {mp_score:.3f} ({mp_hands} hands; same gesture on {agree} of the {len(both)} both found)"
            print(line + chosen(report), flush=True)
            if args.confusion:
                print(confusion(found, truth), flush=True)
                with open(task + ".errors.json", "w") as f:
                    json.dump({p: {"label": truth[p], "found": found.get(p)} for p in sorted(truth)
                               if found.get(p) is None or found[p].lower() != truth[p].lower()}, f, indent=1)
        summary = f"{name:16s} median test accuracy {statistics.median(scores):.3f} over seeds {args.seeds}"
        if mp_scores:
            summary += f"; MediaPipe {statistics.median(mp_scores):.3f}"
        print(summary, flush=True)


if __name__ == "__main__":
    sys.exit(main())
