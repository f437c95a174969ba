#!/usr/bin/env python3
"""`make bench`: every speed and memory comparison of VisionTasks against Google's LiteRT and
MediaPipe, run side by side in one go on this machine, printed as one table of ratios.

Rows (ratio = VisionTasks / reference; below 1 means we take less time or memory):
  engine      each model's invoke() (the pose models included) at 1 and 2 threads against LiteRT
              2.3.0 (XNNPACK), the CPU time per call at 2 threads against 1, our 1->2 thread
              speed-up (also from the rounds at near cores only, by the round trip `model benchmark` measures)
              and that speed-up against what two cores gave at all meanwhile (twice the two-core
              share `model benchmark` probes: a core whose other hyperthread is busy computes less), and
              the 2-thread ratio with a nice-19 CPU hog beside both engines against the
              quiet one; the two selfie segmenters too, both engines running them cut before MediaPipe's
              custom Convolution2DTransposeBias, which LiteRT lacks (tools/bench/compare_engines)
  task        the five tasks per image and per video frame, one and two faces/hands/people, at 1
              and 2 threads, against MediaPipe 1.2.2's Python API (its graph runs on one thread),
              and the CPU time per call at 2 threads; the Image Segmenter (selfie_segmenter, confidence
              mask) on a 720p frame of one person, per image, the same way
  video       `vision-tasks ... --video` (whole process: JSON lines, or --annotate to H.264) against
              MediaPipe's usual OpenCV loop (tools/bench/bench_mediapipe_video.py), at 720p and 1080p for
              faces and hands, 720p JSON for one person; time and peak memory
  folder      100 photos with --jobs 2 against a 2-process MediaPipe pool; time and peak memory; 800
              photos with --jobs 2 against two of our processes splitting them with --shard, and the
              serial fraction of --jobs 2 from a scheduler trace (perf) with Amdahl's 16-core projection
  cold start  one image from a cold process (imports included for both); time and peak memory
  photos      a folder of 100 photos (PNG and JPEG, 2 MP and 12 MP; and for the Pose Landmarker,
              woman_sitting at its own 0.6 MP and at 2 MP, JPEG) with default flags against
              MediaPipe's Python loop (create_from_file + detect, model load included, import
              excluded); wall time, CPU time, peak memory
  server      POST /api/v1/face-landmarker at 8 clients (tools/checks/load_test.py --bench --peer) against
              MediaPipe under Flask with a worker process per core (tools/bench/mediapipe_server.py)
  scale       per video frame at 480p..2160p, and per image with 1..4 faces or hands
  far-faces   BlazeFace full range beside short range (tools/bench/bench_far_faces.py): faces found against
              face size on far-face composites, ours against legacy MediaPipe 0.10.21 (references);
              time per 720p image of each detector (short range against MediaPipe 1.2.2, full range
              against legacy MediaPipe 0.10.21 in a virtual environment of its own, made on first
              use) and of the Face Landmarker with each (no MediaPipe API runs it with full range:
              against ours with short range and MediaPipe 1.2.2's, which runs short range)
  training    `vision-tasks train-gestures` on 400 photos, photos to .task, against Model Maker's wall time
              (tools/bench/bench_training.py: Model Maker cannot run here, so its figure is issue #35's); with
              HANDSDATASET set, the accuracy on SubhiH/HandsDataset's test split too
  pose-jitter the landmarks' frame-to-frame motion on videos of people holding still (tools/bench/pose_jitter.py):
              two people, ours unsmoothed and with --smooth-all-poses against MediaPipe's
              (unsmoothed), and one person, both smoothed; no goal
  background  `vision-tasks background --blur` on 720p videos (tools/bench/bench_background.py): CPU per frame of
              the whole process against MediaPipe's segmenter + OpenCV blur and blend (goal 0.5), frames per
              second (goal 60), the mask's flicker on a still person smoothed against raw (goal 0.5), each
              smoothed mask's IoU with the raw one on a moving video (goal 0.97), the reused masks' IoU
Each timing is a median of many calls, the two sides alternating round by round; the load
average is printed with the table (other work on the machine slows both sides alike only roughly).

Build first (`make bench` does): swift build -c release --product vision-tasks --product vision-tasks-bench
Usage: python3 tools/bench/bench.py [--quick] [--json] [--sections engine,task,...] [--tasks pose-landmarker,...]
(e.g. --sections far-faces; --tasks pose-landmarker runs only the pose rows of every section;
--tasks image-segmenter runs the segmenter's rows and the section background, whose rows are all its)
"""
import argparse
import glob
import resource
import importlib.machinery
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageOps

os.environ.setdefault("GLOG_minloglevel", "2")  # MediaPipe's start-up warnings, before it loads
import mediapipe as mp  # noqa: E402
from mediapipe.tasks.python import BaseOptions, vision  # noqa: E402

import bench_background
import bench_far_faces
import bench_training
import pose_jitter
from bench_common import BENCH, CLI, IMAGES, ROOT, sitting_people, time_calls

TOOLS = os.path.join(ROOT, "tools", "bench")
CHECKS = os.path.join(ROOT, "tools", "checks")
MODELS = os.path.join(ROOT, "models")


def load_compare_engines():
    loader = importlib.machinery.SourceFileLoader("compare_engines", os.path.join(TOOLS, "compare_engines"))
    spec = importlib.util.spec_from_loader("compare_engines", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Table:
    """The rows of the one table: comparison, ours, reference, ratio, goal (ratio <= goal, or >= for speed-ups)."""

    def __init__(self):
        self.rows = []

    def add(self, section, name, ours, theirs, unit, goal=None, higher_is_better=False, reference="", ratio=None):
        if ratio is None:
            ratio = ours / theirs if theirs else float("nan")
        met = None
        if goal is not None:
            met = ratio >= goal if higher_is_better else ratio <= goal
        row = {"section": section, "name": name, "ours": ours, "theirs": theirs, "unit": unit, "ratio": ratio,
               "goal": goal, "goalIsMinimum": higher_is_better, "met": met, "reference": reference}
        self.rows.append(row)
        print(f"  {section:<10} {name:<44} {self.fmt(ours)} {self.fmt(theirs)} {unit:<5} ratio {ratio:6.2f}", flush=True)

    @staticmethod
    def fmt(v):
        return f"{v:9.3f}" if isinstance(v, float) else f"{v!s:>9}"

    def print(self, load):
        print()
        print(f"| section | comparison | VisionTasks | reference | unit | ratio | goal | met |")
        print(f"|---|---|---:|---:|---|---:|---|---|")
        for r in self.rows:
            goal = "" if r["goal"] is None else (">= " if r["goalIsMinimum"] else "<= ") + f"{r['goal']:g}"
            met = "" if r["met"] is None else ("yes" if r["met"] else "**no**")
            ours, ref = (f"{v:.3f}" if isinstance(v, float) else str(v) for v in (r["ours"], r["theirs"]))
            print(f"| {r['section']} | {r['name']} | {ours} | {ref} {r['reference']} | {r['unit']} | "
                  f"{r['ratio']:.2f} | {goal} | {met} |")
        goals = [r for r in self.rows if r["met"] is not None]
        print(f"\n{sum(r['met'] for r in goals)} of {len(goals)} goals met; load average {load[0]:.2f} "
              f"{load[1]:.2f} {load[2]:.2f}; {cpu_description()}")


def cpu_description():
    """The CPU the figures come from: model name, family and model numbers, CPU count and CPU 0's
    caches, e.g. "AMD EPYC 7B13 (family 25 model 1), 2 CPUs; L1d 32K, L1i 32K, L2 512K, L3 32768K"
    (what `vision-tasks model profile` prints too)."""
    fields = {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    out = fields.get("model name", "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        out += f" (family {fields['cpu family']} model {fields['model']})"
    out += f", {os.cpu_count()} CPUs"
    caches = []
    for index in range(8):
        folder = f"/sys/devices/system/cpu/cpu0/cache/index{index}/"
        try:
            level, size = (open(folder + name).read().strip() for name in ("level", "size"))
        except OSError:
            continue
        try:
            kind = {"Data": "d", "Instruction": "i"}.get(open(folder + "type").read().strip(), "")
        except OSError:
            kind = ""
        caches.append(f"L{level}{kind} {size}")
    return out + ("; " + ", ".join(caches) if caches else "")


def tree_rss_mb(pid):
    """Resident memory of process `pid` and all its descendants, in MB (0 once it is gone)."""
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                stack += [int(c) for c in open(f"/proc/{p}/task/{task}/children").read().split()]
        except (OSError, ValueError):
            pass
    return total / 1024


def run_with_rss(command, capture=False):
    """Runs `command`; returns (wall seconds, peak resident MB of the process and its children together,
    sampled every 10 ms) and, with `capture`, its standard output (else discarded). The rusage of a
    child is no use here: a child forked from this Python process (MediaPipe loaded) starts with this
    process's high-water mark."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        p = subprocess.Popen(command, stdout=out if capture else subprocess.DEVNULL, stderr=err)
        peak = 0.0
        while p.poll() is None:
            peak = max(peak, tree_rss_mb(p.pid))
            time.sleep(0.01)
        wall = time.perf_counter() - start
        if p.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(command)} failed ({p.returncode}): {err.read().decode(errors='replace')[-2000:]}")
        out.seek(0)
        return (wall, peak, out.read().decode()) if capture else (wall, peak)


# ------------------------------------------------------------------ inputs

def make_inputs(tmp):
    """Pictures and videos the comparisons share, made from the fixture photos."""
    faces = Image.open(os.path.join(IMAGES, "astronaut.png")).convert("RGB")
    one_hand = Image.open(os.path.join(IMAGES, "hand_thumb_up.jpg")).convert("RGB")
    paths = {}

    def save(name, picture):
        paths[name] = os.path.join(tmp, name + ".png")
        picture.save(paths[name])

    # The astronaut's face (its box is 95 px at (177, 82)) with a margin: whole, the photo's face
    # is too small in a 2x2 grid or a wide frame for the short-range detector, and both sides would
    # time a detector finding nothing (check_found refuses that).
    face = faces.crop((125, 30, 325, 230))
    save("face", face)
    # 1..4 faces: the face in the cells of a 2x2 grid, grey where there is none.
    for n in range(1, 5):
        grid = Image.new("RGB", (1024, 1024), (128, 128, 128))
        for i in range(n):
            grid.paste(face.resize((512, 512)), ((i % 2) * 512, (i // 2) * 512))
        save(f"faces{n}", grid)
    # 1..4 hands: the one-hand photo's hand (cropped) in the cells of a 1x1, 2x1 or 2x2 grid, grey
    # where there is none, mirrored in the right column: with the whole photos, or unmirrored copies,
    # both sides find fewer hands than are there (check_found refuses that).
    hand = one_hand.crop((100, 0, 540, 521))
    w, h = hand.size
    for n in range(1, 5):
        columns, rows = (1, 1) if n == 1 else (2, 1) if n == 2 else (2, 2)
        grid = Image.new("RGB", (columns * w, rows * h), (128, 128, 128))
        for i in range(n):
            grid.paste(hand if i % 2 == 0 else ImageOps.mirror(hand), ((i % columns) * w, (i // columns) * h))
        save(f"hands{n}", grid)
    # 1 and 2 people: woman_sitting whole, and the woman beside her mirror image.
    sitting = Image.open(os.path.join(IMAGES, "woman_sitting.jpg")).convert("RGB")
    save("people1", sitting)
    # The Image Segmenter's 720p frame: woman_sitting the frame's height, centred on grey.
    person = sitting.resize((sitting.width * 720 // sitting.height, 720), Image.LANCZOS)
    frame = Image.new("RGB", (1280, 720), (128, 128, 128))
    frame.paste(person, ((1280 - person.width) // 2, 0))
    save("person720p", frame)
    save("people2", sitting_people()[1])
    # Frames of 480p..2160p: the face crop the frame's height, centred on grey.
    for height in (480, 720, 1080, 2160):
        width = height * 16 // 9
        frame = Image.new("RGB", (width, height), (128, 128, 128))
        frame.paste(face.resize((height, height)), ((width - height) // 2, 0))
        save(f"frame{height}p", frame)
    return paths


def make_video(photo, height, frames, path):
    """A 30 fps H.264 video of `photo` scaled to fit `height` (whole subject visible), slowly zooming."""
    width = height * 16 // 9
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-framerate", "30", "-loop", "1",
                    "-i", photo, "-vf",
                    f"scale={width}:{height}:force_original_aspect_ratio=decrease,"
                    f"pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:gray,"
                    f"zoompan=z='1+0.0005*on':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=1:s={width}x{height}:fps=30",
                    "-frames:v", str(frames), "-c:v", "libx264", "-pix_fmt", "yuv420p", path], check=True)


# ------------------------------------------------------------------ engine

# Each model timed, with the tasks that run it (for --tasks).
ENGINE_MODELS = {
    "face_detector": ("face-detector", "face-landmarker"),
    "face_landmarks_detector": ("face-landmarker",),
    "face_blendshapes": ("face-landmarker",),
    "hand_detector": ("hand-landmarker", "gesture-recognizer"),
    "hand_landmarks_detector": ("hand-landmarker", "gesture-recognizer"),
    "gesture_embedder": ("gesture-recognizer",),
    "face_detection_full_range_sparse": ("face-detector", "face-landmarker"),
    "pose_detector": ("pose-landmarker",),
    "pose_landmarks_detector": ("pose-landmarker",),
    "selfie_segmenter": ("image-segmenter",),
    "selfie_segmentation_landscape": ("image-segmenter",),
}
# Each model's goal for ours/LiteRT: 0.8, but 1.0 for the full-range face detector (issue 26) and the
# two pose models (issue 37).
ENGINE_GOALS = {"face_detection_full_range_sparse": 1.0, "pose_detector": 1.0, "pose_landmarks_detector": 1.0}
# The round trips (ns) of a cache line between the two vCPUs that count as whole, near cores: this VM's usual
# placement (~60 ns), between its hyperthread one (~27 ns) and its far one (~300-330 ns).
NEAR_TRIP_NS = (40, 150)
# The models whose 2-thread speed-up has a goal (x1.8, issue 37): above 100 M MACs, and the pose models.
SPEEDUP_MODELS = {"face_landmarks_detector", "hand_detector", "hand_landmarks_detector", "pose_detector",
                  "pose_landmarks_detector"}


class CPUHog:
    """One CPU-bound process beside the benchmark at the lowest priority, as a batch job of another
    user would be: nice 19 in a session (and so an autogroup) of its own, set to nice 19 too where the
    kernel groups sessions (sched_autogroup_enabled), since nice alone weighs only inside a group."""

    def __enter__(self):
        self.process = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True,
                                        preexec_fn=lambda: os.nice(19), stdout=subprocess.DEVNULL)
        try:
            with open(f"/proc/{self.process.pid}/autogroup", "w") as group:
                group.write("19")
        except OSError:
            pass  # no autogroups: nice 19 is the whole story
        time.sleep(0.2)
        return self

    def __exit__(self, *exc):
        self.process.kill()
        self.process.wait()


def engine(table, args):
    """Each model at 1 and 2 threads, ours against LiteRT, quiet; at 2 threads also contended (a
    CPUHog beside both engines), each round's quiet and contended runs one after the other."""
    ce = load_compare_engines()
    cuts = tempfile.TemporaryDirectory()
    for name in (m for m, used_by in ENGINE_MODELS.items() if args.tasks & set(used_by)):
        data = ce.model_bytes(*ce.SOURCES[name])
        # A model with a custom operator runs in both engines cut before it (compare_engines.same_graph).
        bundle, entry = ce.same_graph(name, *ce.SOURCES[name], data, cuts.name)
        litert = "LiteRT" if (bundle, entry) == ce.SOURCES[name] else "LiteRT, both cut before CUSTOM"
        figures = {}
        contended = ([], [])
        ours_runs = []
        for threads in (1, 2):
            theirs, ours = [], []
            for _ in range(args.engine_rounds):
                theirs.append(ce.litert_latency(data, threads, args.runs, args.warmup))
                ours.append(ce.ours_latency(CLI, bundle, entry, threads, args.runs, args.warmup))
                if threads == 2:
                    with CPUHog():
                        contended[0].append(ce.litert_latency(data, threads, args.runs, args.warmup)[0])
                        contended[1].append(ce.ours_latency(CLI, bundle, entry, threads, args.runs, args.warmup)[0])
            lm, lc = statistics.median(r[0] for r in theirs), statistics.median(r[2] for r in theirs)
            om, oc = statistics.median(r[0] for r in ours), statistics.median(r[2] for r in ours)
            figures[threads] = (om, oc, lm, lc)
            ours_runs += ours
            if threads == 2:
                # Each 2-thread round tagged by the round trip our run measured right after LiteRT's and its own.
                near = [(t[0], o[0]) for t, o in zip(theirs, ours) if NEAR_TRIP_NS[0] <= o[4] < NEAR_TRIP_NS[1]]
            table.add("engine", f"{name} {threads} thread(s)", om, lm, "ms", goal=ENGINE_GOALS.get(name, 0.8), reference=litert)
        (o1, c1, l1, _), (o2, c2, l2, _) = figures[1], figures[2]
        table.add("engine", f"{name} CPU/call 2 threads vs 1", c2, c1, "ms", goal=1.15, reference="ours 1T")
        table.add("engine", f"{name} speed-up 1->2 threads", o1 / o2, l1 / l2, "x",
                  goal=1.8 if name in SPEEDUP_MODELS else None, higher_is_better=True, reference=litert + "'s",
                  ratio=o1 / o2)
        # What two cores gave at all meanwhile (vision-tasks model benchmark probes it after each run): where a
        # core's other hyperthread is busy, ours or another tenant's, no engine's second thread can gain x2.
        # The cache line's round trip between the cores too: at ~330 ns (far cores) rather than ~60, both engines'
        # second threads gain far less though each core's arithmetic is whole (issue 46's note).
        shares = [r[3] for r in ours_runs if r[3] == r[3] and r[3] > 0]
        trips = [r[4] for r in ours_runs if r[4] == r[4] and r[4] > 0]
        if shares:
            ceiling = 2 * statistics.median(shares)
            trip = f"; round trip {statistics.median(trips):.0f} ns, {min(trips):.0f}-{max(trips):.0f}" if trips else ""
            table.add("engine", f"{name} speed-up / host's two-core ceiling", o1 / o2, ceiling, "x",
                      reference=f"ceiling (2 x two-core share, {2 * min(shares):.2f}-{2 * max(shares):.2f} in the runs{trip})")
        # The same speed-up from the 2-thread rounds at whole, near cores only (the VM's usual placement; a round
        # at ~27 ns or ~330 ns is the host's moment, not the engine's), when there were any.
        if near:
            near_o2, near_l2 = statistics.median(o for _, o in near), statistics.median(t for t, _ in near)
            table.add("engine", f"{name} speed-up 1->2 threads, near rounds only", o1 / near_o2, l1 / near_l2, "x",
                      higher_is_better=True, reference=f"{litert}'s ({len(near)} of {args.engine_rounds} rounds "
                      f"at {NEAR_TRIP_NS[0]}-{NEAR_TRIP_NS[1]} ns)", ratio=o1 / near_o2)
        busy = statistics.median(contended[1]) / statistics.median(contended[0])
        table.add("engine", f"{name} 2 threads contended: ours/LiteRT", busy, o2 / l2, "ratio", goal=1.1,
                  reference="quiet ours/LiteRT")


# ------------------------------------------------------------------ tasks

TASKS = {
    # name: (model, MediaPipe class, options class, count option, still method, video method, what it finds)
    "face-detector": ("face_landmarker.task", None, None, None, "detect", "detect_for_video", "faces"),
    "face-landmarker": ("face_landmarker.task", vision.FaceLandmarker, vision.FaceLandmarkerOptions, "num_faces",
                        "detect", "detect_for_video", "faces"),
    "hand-landmarker": ("hand_landmarker.task", vision.HandLandmarker, vision.HandLandmarkerOptions, "num_hands",
                        "detect", "detect_for_video", "hands"),
    "gesture-recognizer": ("gesture_recognizer.task", vision.GestureRecognizer, vision.GestureRecognizerOptions,
                           "num_hands", "recognize", "recognize_for_video", "hands"),
    "pose-landmarker": ("pose_landmarker_full.task", vision.PoseLandmarker, vision.PoseLandmarkerOptions, "num_poses",
                        "detect", "detect_for_video", "people"),
}
# Every task a row can be of (--tasks): the five above and the Image Segmenter (its own rows, `segmenter`).
TASK_NAMES = list(TASKS) + ["image-segmenter"]
OUR_COUNT_OPTION = {"face-landmarker": "--num-faces", "hand-landmarker": "--num-hands",
                    "gesture-recognizer": "--num-hands", "pose-landmarker": "--num-poses"}


def task_model(name):
    if name == "face-detector":
        return os.path.join(MODELS, "blaze_face_short_range.tflite")
    return os.path.join(MODELS, TASKS[name][0])


def mediapipe_task(name, video, count):
    model, cls, options_cls, count_option, *_ = TASKS[name]
    mode = vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE
    if name == "face-detector":
        return vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(
            base_options=BaseOptions(model_asset_path=task_model(name)), running_mode=mode))
    return cls.create_from_options(options_cls(base_options=BaseOptions(model_asset_path=task_model(name)),
                                               running_mode=mode, **{count_option: count}))


# Where each side's result lists what it found: our CLI's JSON key, MediaPipe's attribute.
FOUND = {"face-detector": ("detections", "detections"), "face-landmarker": ("faceLandmarks", "face_landmarks"),
         "hand-landmarker": ("landmarks", "hand_landmarks"), "gesture-recognizer": ("landmarks", "hand_landmarks"),
         "pose-landmarker": ("landmarks", "pose_landmarks")}
checked = set()


def check_found(name, image_path, count):
    """Stops the run unless both sides find exactly `count` faces, hands or people in the picture (image mode):
    a timing of a task that finds nothing measures only its detector."""
    if (name, image_path, count) in checked:
        return
    ours_key, theirs_attribute = FOUND[name]
    command = [CLI, name, "--model", task_model(name), image_path]
    if name in OUR_COUNT_OPTION:
        command += [OUR_COUNT_OPTION[name], str(count)]
    line = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()[0]
    ours = len(json.loads(line)["result"][ours_key])
    task = mediapipe_task(name, False, count)
    theirs = len(getattr(getattr(task, TASKS[name][4])(mp.Image.create_from_file(image_path)), theirs_attribute))
    task.close()
    if ours != count or theirs != count:
        sys.exit(f"bench: {name} on {os.path.basename(image_path)} finds {ours} (VisionTasks) and {theirs} "
                 f"(MediaPipe), expected {count}: the timing would not measure what it says")
    checked.add((name, image_path, count))


def mediapipe_call_ms(name, image_path, video, count, runs, warmup):
    task = mediapipe_task(name, video, count)
    image = mp.Image.create_from_file(image_path)
    still, moving = TASKS[name][4], TASKS[name][5]
    timestamp = 0

    def call():
        nonlocal timestamp
        timestamp += 33
        return getattr(task, moving)(image, timestamp) if video else getattr(task, still)(image)

    median, cpu = time_calls(call, runs, warmup)
    task.close()
    return median, cpu


def ours_call_ms(name, image_path, video, count, threads, runs, warmup):
    check_found(name, image_path, count)
    command = [BENCH, name, "--model", task_model(name), image_path, "--runs", str(runs), "--warmup", str(warmup),
               "--threads", str(threads)]
    if name in OUR_COUNT_OPTION:
        command += [OUR_COUNT_OPTION[name], str(count)]
    if video:
        command.append("--video")
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    report = json.loads(out.strip().splitlines()[-1])
    return report["medianMs"], report["cpuMsPerCall"]


def segmenter(table, inputs, args):
    """The Image Segmenter on a 720p frame of one person (IMAGE mode, confidence mask, model load and
    decoding outside the timing), ours at 1 and 2 threads against MediaPipe 1.2.2's `segment()` with
    its defaults (the same options), rounds alternating."""
    model = os.path.join(MODELS, "selfie_segmenter.tflite")
    image = inputs["person720p"]
    theirs, ours = [], {1: [], 2: []}
    for _ in range(args.rounds):
        task = vision.ImageSegmenter.create_from_options(vision.ImageSegmenterOptions(
            base_options=BaseOptions(model_asset_path=model), output_confidence_masks=True))
        picture = mp.Image.create_from_file(image)
        theirs.append(time_calls(lambda: task.segment(picture), args.runs, args.warmup))
        task.close()
        for threads in (1, 2):
            command = [BENCH, "image-segmenter", "--model", model, image, "--runs", str(args.runs), "--warmup",
                       str(args.warmup), "--threads", str(threads)]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            report = json.loads(out.strip().splitlines()[-1])
            ours[threads].append((report["medianMs"], report["cpuMsPerCall"]))
    tm, tc = statistics.median(r[0] for r in theirs), statistics.median(r[1] for r in theirs)
    for threads in (1, 2):
        table.add("task", f"image-segmenter per 720p image, whole task, {threads}T",
                  statistics.median(r[0] for r in ours[threads]), tm, "ms", goal=0.5 if threads == 2 else 0.8,
                  reference="MediaPipe")
    table.add("task", "image-segmenter per 720p image, CPU/call 2T", statistics.median(r[1] for r in ours[2]), tc,
              "ms", goal=1.0, reference="MediaPipe")


def tasks(table, inputs, args):
    for name, spec in ((n, s) for n, s in TASKS.items() if n in args.tasks):
        kind = spec[6]
        for count in (1, 2):
            image = inputs[f"{kind}{count}"]
            for video in (False, True):
                per = "video frame" if video else "image"
                theirs, ours = {1: [], 2: []}, {1: [], 2: []}
                for _ in range(args.rounds):
                    mp_ms = mediapipe_call_ms(name, image, video, count, args.runs, args.warmup)
                    for threads in (1, 2):
                        theirs[threads].append(mp_ms)
                        ours[threads].append(ours_call_ms(name, image, video, count, threads, args.runs, args.warmup))
                for threads in (1, 2):
                    om = statistics.median(r[0] for r in ours[threads])
                    tm = statistics.median(r[0] for r in theirs[threads])
                    table.add("task", f"{name} per {per}, {count} {kind}, {threads}T", om, tm, "ms",
                              goal=0.5 if threads == 2 else 0.8, reference="MediaPipe")
                oc = statistics.median(r[1] for r in ours[2])
                tc = statistics.median(r[1] for r in theirs[2])
                table.add("task", f"{name} per {per}, {count} {kind}, CPU/call 2T", oc, tc, "ms", goal=1.0,
                          reference="MediaPipe")


# ------------------------------------------------------------------ video, folder, cold start

# (what the video shows, its picture, task, how many it holds, heights, annotated too?); the counts
# are the ones tools/bench/bench_mediapipe_video.py's MediaPipe loop asks for.
VIDEO_CASES = [("face", "face", "face-landmarker", 1, (720, 1080), True),
               ("hands", "hands2", "hand-landmarker", 2, (720, 1080), True),
               ("pose", "people1", "pose-landmarker", 1, (720,), False)]


def video(table, inputs, tmp, args):
    for kind, picture, sub, count, heights, annotated in VIDEO_CASES:
        if sub not in args.tasks:
            continue
        photo = inputs[picture]
        extra = [OUR_COUNT_OPTION[sub], str(count)]
        for height in heights:
            path = os.path.join(tmp, f"{kind}{height}.mp4")
            make_video(photo, height, args.frames, path)
            first = os.path.join(tmp, f"{kind}{height}-first.png")
            subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", path,
                            "-frames:v", "1", first], check=True)
            check_found(sub, first, count)
            model = task_model(sub)
            for annotate in (False, True) if annotated else (False,):
                label = f"{kind} {height}p {'annotated' if annotate else 'JSON'} ({args.frames} frames)"
                ours_runs, theirs_runs = [], []
                for _ in range(args.video_rounds):
                    out = os.path.join(tmp, "ours.mp4")
                    command = [CLI, sub, "--model", model, "--video", path, "--no-progress"] + extra
                    if annotate:
                        command += ["--annotate", out]
                    ours_runs.append(run_with_rss(command))
                    command = [sys.executable, os.path.join(TOOLS, "bench_mediapipe_video.py"), sub, model, path]
                    if annotate:
                        command += ["--annotate", os.path.join(tmp, "theirs.mp4")]
                    _, peak, stdout = run_with_rss(command, capture=True)
                    theirs_runs.append((json.loads(stdout.strip().splitlines()[-1])["loopSeconds"], peak))
                ours_s = statistics.median(r[0] for r in ours_runs)
                theirs_s = statistics.median(r[0] for r in theirs_runs)
                # frames per second ours / theirs = time theirs / time ours
                table.add("video", f"{label} fps", args.frames / ours_s, args.frames / theirs_s, "fps",
                          goal=1.5 if annotate else 2.0, higher_is_better=True, reference="MediaPipe loop")
                table.add("video", f"{label} peak memory", max(r[1] for r in ours_runs),
                          max(r[1] for r in theirs_runs), "MB", goal=0.5, reference="MediaPipe")


FOLDER_SCRIPT = r"""
import sys, time, resource, multiprocessing
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
MODEL = sys.argv[1]
FILES = sys.argv[2:]
task = None
def init():
    global task
    task = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=MODEL)))
def work(path):
    return len(task.detect(mp.Image.create_from_file(path)).face_landmarks)
if __name__ == "__main__":
    with multiprocessing.Pool(2, initializer=init) as pool:
        found = sum(pool.map(work, FILES, chunksize=4))
    print(found)
"""

COLD_SCRIPT = r"""
import sys
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
task = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
    base_options=BaseOptions(model_asset_path=sys.argv[1])))
print(len(task.detect(mp.Image.create_from_file(sys.argv[2])).face_landmarks))
"""


def folder_and_cold_start(table, tmp, args):
    folder = os.path.join(tmp, "photos")
    os.makedirs(folder, exist_ok=True)
    fixtures = ["astronaut.png", "hand_thumb_up.jpg", "two_thumbs_up.jpg", "woman_sitting.jpg"]
    files = []
    for i in range(100):
        name = fixtures[i % len(fixtures)]
        dst = os.path.join(folder, f"{i:03d}_{name}")
        shutil.copyfile(os.path.join(IMAGES, name), dst)
        files.append(dst)
    model = task_model("face-landmarker")
    folder_script = os.path.join(tmp, "mp_folder.py")
    open(folder_script, "w").write(FOLDER_SCRIPT)
    cold_script = os.path.join(tmp, "mp_cold.py")
    open(cold_script, "w").write(COLD_SCRIPT)
    ours_runs, theirs_runs, ours_cold, theirs_cold = [], [], [], []
    for _ in range(args.rounds):
        ours_runs.append(run_with_rss([CLI, "face-landmarker", "--model", model, "--jobs", "2", "--no-progress", folder]))
        theirs_runs.append(run_with_rss([sys.executable, folder_script, model] + files))
        ours_cold.append(run_with_rss([CLI, "face-landmarker", "--model", model, files[0]]))
        theirs_cold.append(run_with_rss([sys.executable, cold_script, model, files[0]]))
    for label, ours, theirs in [("folder of 100 photos, --jobs 2 vs 2 processes", ours_runs, theirs_runs),
                                ("cold start, one image", ours_cold, theirs_cold)]:
        table.add("batch", f"{label}: time", statistics.median(r[0] for r in ours),
                  statistics.median(r[0] for r in theirs), "s", goal=0.5, reference="MediaPipe")
        table.add("batch", f"{label}: peak memory", max(r[1] for r in ours), max(r[1] for r in theirs), "MB",
                  goal=0.5, reference="MediaPipe")


def jobs_and_shards(table, tmp, args):
    """`--jobs 2` in one process against two processes of one thread given half the list each (`--shard 0/2`,
    `--shard 1/2`), both the Face Landmarker over 800 photos (the four fixtures and the 80 gesture
    photos, linked over and over), rounds alternating; and the serial fraction of the `--jobs 2` run
    from a scheduler trace (tools/bench/serial_fraction.py) with Amdahl's projection to 16 cores."""
    folder = os.path.join(tmp, "photos800")
    os.makedirs(folder, exist_ok=True)
    gestures = sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "gestures", "*", "*.jpg")))
    fixtures = sorted(glob.glob(os.path.join(IMAGES, "*.png")) + glob.glob(os.path.join(IMAGES, "*.jpg")))
    sources = [fixtures[i % len(fixtures)] for i in range(160)] + [gestures[i % len(gestures)] for i in range(640)]
    for i, source in enumerate(sources):
        target = os.path.join(folder, f"{i:03d}{os.path.splitext(source)[1]}")
        # The first use of a photo is a copy (the checkout may be on another file system), the others links to it.
        first = sources.index(source)
        if first == i:
            shutil.copyfile(source, target)
        else:
            os.link(os.path.join(folder, f"{first:03d}{os.path.splitext(source)[1]}"), target)
    model = task_model("face-landmarker")
    command = [CLI, "face-landmarker", "--model", model, "--no-progress"]
    jobs, shards = [], []
    for _ in range(args.rounds):
        jobs.append(run_with_rss(command + ["--jobs", "2", folder])[0])
        start = time.perf_counter()
        halves = [subprocess.Popen(command + ["--jobs", "1", "--threads", "1", "--shard", f"{k}/2", folder],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for k in range(2)]
        if any(h.wait() for h in halves):
            sys.exit("bench: a --shard process failed")
        shards.append(time.perf_counter() - start)
    table.add("batch", "800 photos, --jobs 2 vs 2 processes with --shard", statistics.median(jobs),
              statistics.median(shards), "s", goal=1.05, reference="2 shards")
    traced = subprocess.run([sys.executable, os.path.join(TOOLS, "serial_fraction.py"), "--json", "--"]
                            + command + ["--jobs", "2", folder], capture_output=True, text=True)
    if traced.returncode != 0:
        print(f"  batch      serial fraction not measured: {traced.stderr.strip()}", flush=True)
        return
    figures = json.loads(traced.stdout.strip().splitlines()[-1])
    table.add("batch", "800 photos, --jobs 2: serial fraction", figures["serial_fraction"], 1.0, "share",
              reference="of the work")
    table.add("batch", "Amdahl from it: --jobs 16 on 16 cores vs 1 job", figures["amdahl"]["16"], 1.0, "x",
              goal=12, higher_is_better=True, reference="one job")


# ------------------------------------------------------------------ photos and server

PHOTO_LOOP_SCRIPT = r"""
import sys, time
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
wall, cpu = time.perf_counter(), time.process_time()
if sys.argv[1] == "pose-landmarker":
    task, found_in = vision.PoseLandmarker.create_from_options(vision.PoseLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=sys.argv[2]))), "pose_landmarks"
else:
    task, found_in = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=sys.argv[2]))), "face_landmarks"
found = sum(len(getattr(task.detect(mp.Image.create_from_file(path)), found_in)) for path in sys.argv[3:])
print(time.perf_counter() - wall, time.process_time() - cpu, found)
"""

PHOTO_SIZES = {"0.6 MP": (960, 640), "2 MP": (1800, 1200), "12 MP": (4000, 3000)}
FACE_PHOTOS = ["astronaut.png", "hand_thumb_up.jpg", "two_thumbs_up.jpg", "woman_sitting.jpg"]
# (task, fixture photos, size, format): the face landmarker on the four fixture photos, the pose
# landmarker on woman_sitting alone (960x640 is its own size) and scaled to 2 MP.
PHOTO_CASES = ([("face-landmarker", FACE_PHOTOS, size, ext) for size in ("2 MP", "12 MP") for ext in ("png", "jpg")]
               + [("pose-landmarker", ["woman_sitting.jpg"], size, "jpg") for size in ("0.6 MP", "2 MP")])


def make_photo_folder(tmp, task, photos, size_name, ext):
    """100 photos of `size_name` as `ext` in a folder of their own: four variants of the fixture
    `photos` (taken in turn) scaled with a little noise of their own (a photo's grain, so PNG
    compresses as photos do), each linked 25 times."""
    import numpy as np
    tag = f"{task}-{size_name.replace(' ', '')}-{ext}"
    folder = os.path.join(tmp, f"photos-{tag}")
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(28)
    sources = []
    for i in range(4):
        size = PHOTO_SIZES[size_name]
        picture = Image.open(os.path.join(IMAGES, photos[i % len(photos)])).convert("RGB").resize(size, Image.LANCZOS)
        pixels = np.asarray(picture).astype(np.int16) + rng.integers(-3, 4, (size[1], size[0], 3))
        path = os.path.join(tmp, f"source{i}-{tag}.{ext}")
        Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(path, **({"quality": 90} if ext == "jpg" else {}))
        sources.append(path)
    files = []
    for i in range(100):
        files.append(os.path.join(folder, f"{i:03d}.{ext}"))
        os.link(sources[i % 4], files[-1])
    return folder, files


def run_with_cpu(command, capture=False):
    """`run_with_rss` plus the CPU seconds (user + system) the command's process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    measured = run_with_rss(command, capture)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return measured + ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),)


def photos(table, tmp, args):
    script = os.path.join(tmp, "mp_photo_loop.py")
    open(script, "w").write(PHOTO_LOOP_SCRIPT)
    for task, fixtures, size_name, ext in PHOTO_CASES:
        if task not in args.tasks:
            continue
        model = task_model(task)
        folder, files = make_photo_folder(tmp, task, fixtures, size_name, ext)
        ours, theirs = [], []
        for _ in range(args.rounds):
            wall, peak, out, cpu = run_with_cpu([CLI, task, "--model", model, "--no-progress", folder], capture=True)
            ours.append((wall, peak, cpu))
            _, peak, out_theirs = run_with_rss([sys.executable, script, task, model] + files, capture=True)
            loop_wall, loop_cpu, theirs_found = out_theirs.split()
            theirs.append((float(loop_wall), peak, float(loop_cpu)))
            if task == "pose-landmarker":
                # Every photo shows the one person: where either side finds fewer, it times mostly the detector.
                ours_found = sum(len(json.loads(line)["result"]["landmarks"]) for line in out.splitlines())
                if ours_found != len(files) or int(theirs_found) != len(files):
                    sys.exit(f"bench: {task} finds {ours_found} (VisionTasks) and {theirs_found} (MediaPipe) people "
                             f"in {len(files)} photos of one person")
        task_label = "" if task == "face-landmarker" else f"{task}: "  # the face rows keep their names
        label = f"{task_label}folder of 100 {size_name} {ext.upper()} photos, default flags vs MediaPipe's loop"
        table.add("photos", f"{label}: time", statistics.median(r[0] for r in ours),
                  statistics.median(r[0] for r in theirs), "s", goal=0.5, reference="MediaPipe")
        table.add("photos", f"{label}: CPU time", statistics.median(r[2] for r in ours),
                  statistics.median(r[2] for r in theirs), "s", goal=1.0, reference="MediaPipe")
        table.add("photos", f"{label}: peak memory", max(r[1] for r in ours), max(r[1] for r in theirs), "MB",
                  goal=0.5, reference="MediaPipe")


def server(table, args):
    duration = 5 if args.quick else 20
    out = subprocess.run([sys.executable, os.path.join(CHECKS, "load_test.py"), "--bench", "--peer", "--json",
                          "--duration", str(duration), "--binary", CLI], check=True, capture_output=True, text=True).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    ours, theirs = figures["ours"]["8"], figures["mediapipe"]["8"]
    table.add("server", "face-landmarker requests/s at 8 clients", ours[0], theirs[0], "rps", goal=2.0,
              higher_is_better=True, reference="MediaPipe Flask")
    table.add("server", "face-landmarker p99 latency at 8 clients", ours[2], theirs[2], "ms", goal=1.0,
              reference="MediaPipe Flask")


# ------------------------------------------------------------------ cost growth

def scale(table, inputs, args):
    for height in (480, 720, 1080, 2160) if "face-landmarker" in args.tasks else ():
        image = inputs[f"frame{height}p"]
        om = statistics.median(ours_call_ms("face-landmarker", image, True, 1, 2, args.runs, args.warmup)[0]
                               for _ in range(args.rounds))
        tm = statistics.median(mediapipe_call_ms("face-landmarker", image, True, 1, args.runs, args.warmup)[0]
                               for _ in range(args.rounds))
        table.add("scale", f"face-landmarker per video frame at {height}p, 2T", om, tm, "ms", goal=0.5,
                  reference="MediaPipe")
    for name, kind in [("face-landmarker", "faces"), ("hand-landmarker", "hands")]:
        for count in (1, 2, 3, 4) if name in args.tasks else ():
            image = inputs[f"{kind}{count}"]
            om = statistics.median(ours_call_ms(name, image, False, count, 2, args.runs, args.warmup)[0]
                                   for _ in range(args.rounds))
            tm = statistics.median(mediapipe_call_ms(name, image, False, count, args.runs, args.warmup)[0]
                                   for _ in range(args.rounds))
            table.add("scale", f"{name} per image with {count} {kind}, 2T", om, tm, "ms", goal=0.5,
                      reference="MediaPipe")


SECTIONS = ["engine", "task", "video", "batch", "photos", "server", "scale", "far-faces", "training", "pose-jitter",
            "background"]
# The sections whose rows are of these tasks only (the others hold rows of every task and pick them by --tasks).
SECTION_TASKS = {"batch": {"face-landmarker"}, "server": {"face-landmarker"},
                 "scale": {"face-landmarker", "hand-landmarker"}, "far-faces": {"face-detector", "face-landmarker"},
                 "pose-jitter": {"pose-landmarker"}, "training": {"gesture-recognizer"},
                 "background": {"image-segmenter"}}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer runs and frames (a smoke run, not for figures)")
    p.add_argument("--sections", default=",".join(SECTIONS),
                   help=f"the sections to run, comma-separated (default: all of {','.join(SECTIONS)})")
    p.add_argument("--tasks", default=",".join(TASK_NAMES),
                   help=f"only the rows of these tasks, comma-separated (default: all of {','.join(TASK_NAMES)}); an "
                        "engine row belongs to every task running its model")
    p.add_argument("--json", action="store_true", help="also print the rows as one JSON object")
    args = p.parse_args()
    args.runs, args.warmup, args.rounds = (10, 2, 1) if args.quick else (100, 10, 3)
    # The engine's calls are short and this VM's host moves them by 10-20% from one round to the
    # next (two runs of the same build: a speed-up of x1.50 and x1.93): more rounds, still ~2 minutes.
    args.engine_rounds = 1 if args.quick else 7
    args.frames, args.video_rounds = (30, 1) if args.quick else (300, 3)
    for binary in (CLI, BENCH):
        if not os.path.exists(binary):
            sys.exit(f"{binary} is missing: run swift build -c release --product vision-tasks --product vision-tasks-bench")
    sections = args.sections.split(",")
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        sys.exit(f"bench: unknown section(s) {','.join(unknown)}; the sections are {','.join(SECTIONS)}")
    args.tasks = set(args.tasks.split(","))
    unknown = args.tasks - set(TASK_NAMES)
    if unknown:
        sys.exit(f"bench: unknown task(s) {','.join(sorted(unknown))}; the tasks are {','.join(TASK_NAMES)}")
    kept = [s for s in sections if args.tasks & SECTION_TASKS.get(s, args.tasks)]
    if not kept:
        sys.exit(f"bench: no row of section(s) {','.join(sections)} is of task(s) {','.join(sorted(args.tasks))}")
    sections = kept
    load = os.getloadavg()
    print(f"bench on {cpu_description()}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    table = Table()
    with tempfile.TemporaryDirectory() as tmp:
        inputs = make_inputs(tmp)
        if "engine" in sections:
            engine(table, args)
        if "task" in sections:
            tasks(table, inputs, args)
            if "image-segmenter" in args.tasks:
                segmenter(table, inputs, args)
        if "video" in sections:
            video(table, inputs, tmp, args)
        if "batch" in sections:
            folder_and_cold_start(table, tmp, args)
            jobs_and_shards(table, tmp, args)
        if "photos" in sections:
            photos(table, tmp, args)
        if "server" in sections:
            server(table, args)
        if "scale" in sections:
            scale(table, inputs, args)
        if "far-faces" in sections:
            folder = os.path.join(tmp, "far-faces")
            os.mkdir(folder)
            bench_far_faces.far_faces(table, folder, args, mediapipe_call_ms, check_found)
        if "training" in sections:
            bench_training.training_rows(table, tmp, args)
        if "pose-jitter" in sections:
            pose_jitter.jitter_rows(table, tmp, args.quick)
        if "background" in sections:
            bench_background.background_rows(table, tmp, args.quick)
    load = os.getloadavg()
    table.print(load)
    if args.json:
        print(json.dumps({"rows": table.rows, "loadAverage": load}))


if __name__ == "__main__":
    main()
