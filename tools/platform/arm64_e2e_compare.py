#!/usr/bin/env python3
"""Holds the aarch64 run of tools/platform/arm64_e2e.sh to the x86-64 one (`make test-arm64`).

Usage: tools/platform/arm64_e2e_compare.py X86_DIR ARM_DIR

Both folders come from tools/platform/arm64_e2e.sh with the same commit, the same commands and the same inputs
(the video is the x86-64 run's file). Every result is compared within the tolerances the parity tests
hold the tasks to against MediaPipe (Tests/VisionTasksTests):
  face detector     same faces in the same order; box within 1 px, score and keypoints within 1e-3
  face landmarker   same face count; landmark x, y mean |d| <= 5e-4, max <= 5e-3; blendshapes (same
                    names) within 1e-2; matrix rotation/scale entries within 1e-2, translation 0.5 cm
  hands, gestures   same hand count; landmark mean |dx|, |dy| <= 1e-3, max <= 1e-2; world <= 5e-3 m;
                    handedness and top gesture: same name and index, score within 1e-2
  pose              same pose count; landmarks (x, y, z) mean <= 2.5e-4, max <= 1.5e-3; world max
                    <= 1.5e-3 m; visibility and presence within 2e-3; mask (the 8-bit PNG) mean |d|
                    <= 1/255 and IoU at 0.5 >= 0.99; joint angles within 0.5 degrees
Video frames are held to the image tolerances, frame by frame, and to the same timestamps; on the H.264
video, whose frames each side converts to RGB with its own libswscale, the face blendshapes are only
reported. The x86-64 side must have found
something in each check (a check of nothing passes nothing), the aarch64 side must say `aarch64`,
every command must have ended as its x86-64 twin did (exit status, HTTP 200), and an input that
failed must have failed on both sides with the same error. Prints a PASS or FAIL line per check with
its counts and worst differences, then the totals; exits 1 on any failure.
"""
import base64
import json
import os
import struct
import sys
import zlib

class Mismatch(Exception):
    pass


def require(condition, message):
    if not condition:
        raise Mismatch(message)


class Worst:
    """The largest difference seen per measure, for the PASS line."""

    def __init__(self):
        self.values = {}

    def add(self, name, value):
        self.values[name] = max(self.values.get(name, 0.0), value)

    def __str__(self):
        return ", ".join(f"{name} {value:.3g}" for name, value in self.values.items()) or "nothing to compare"


def gray_png(data):
    """(width, height, bytes) of an 8-bit grayscale, non-interlaced PNG (the masks the tool writes)."""
    require(data[:8] == b"\x89PNG\r\n\x1a\n", "a mask is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    require(header is not None, "a mask PNG has no IHDR")
    width, height, depth, color, _, _, interlace = header
    require(depth == 8 and color == 0 and interlace == 0, f"a mask PNG is not 8-bit gray (depth {depth}, colour {color})")
    raw = zlib.decompress(idat)
    out = bytearray(width * height)
    previous = bytearray(width)
    for y in range(height):
        kind, line = raw[y * (width + 1)], bytearray(raw[y * (width + 1) + 1:(y + 1) * (width + 1)])
        for x in range(width):
            a = line[x - 1] if x else 0
            b = previous[x]
            c = previous[x - 1] if x else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * width:(y + 1) * width] = line
        previous = line
    return width, height, bytes(out)


def mask_pixels(mask):
    if "png" in mask:
        return gray_png(base64.b64decode(mask["png"]))
    raise Mismatch(f"a mask without an embedded PNG: {sorted(mask)}")


def compare_face_detector(arm, x86, worst, label):
    a, b = arm["detections"], x86["detections"]
    require(len(a) == len(b), f"{label}: {len(a)} faces, x86-64 {len(b)}")
    for i, (p, q) in enumerate(zip(a, b)):
        box = max(abs(p["boundingBox"][k] - q["boundingBox"][k]) for k in ("originX", "originY", "width", "height"))
        score = abs(p["categories"][0]["score"] - q["categories"][0]["score"])
        require(len(p["keypoints"]) == len(q["keypoints"]), f"{label} face {i}: keypoint count")
        keypoint = max((max(abs(k["x"] - l["x"]), abs(k["y"] - l["y"])) for k, l in zip(p["keypoints"], q["keypoints"])), default=0)
        worst.add("box px", box), worst.add("score", score), worst.add("keypoint", keypoint)
        require(box <= 1 and score <= 1e-3 and keypoint <= 1e-3,
                f"{label} face {i}: box {box} px, score {score:.3g}, keypoint {keypoint:.3g}")
    return len(b)


def compare_face_landmarker(arm, x86, worst, label, hold_blendshapes=True):
    a, b = arm["faceLandmarks"], x86["faceLandmarks"]
    require(len(a) == len(b), f"{label}: {len(a)} faces, x86-64 {len(b)}")
    for key in ("faceBlendshapes", "facialTransformationMatrixes"):
        require(len(arm.get(key) or []) == len(x86.get(key) or []), f"{label}: {key} counts differ")
    for f, (p, q) in enumerate(zip(a, b)):
        require(len(p) == len(q) == 478, f"{label} face {f}: {len(p)} landmarks, x86-64 {len(q)}")
        d = [abs(k[c] - l[c]) for k, l in zip(p, q) for c in ("x", "y")]
        mean, top = sum(d) / len(d), max(d)
        worst.add("landmark mean", mean), worst.add("landmark max", top)
        require(mean <= 5e-4 and top <= 5e-3, f"{label} face {f}: landmark mean {mean:.3g}, max {top:.3g}")
    for f, (p, q) in enumerate(zip(arm.get("faceBlendshapes") or [], x86.get("faceBlendshapes") or [])):
        require([c["categoryName"] for c in p["categories"]] == [c["categoryName"] for c in q["categories"]],
                f"{label} face {f}: blendshape names differ")
        d = max(abs(c["score"] - e["score"]) for c, e in zip(p["categories"], q["categories"]))
        worst.add("blendshape", d)
        require(d <= 1e-2 or not hold_blendshapes, f"{label} face {f}: blendshape {d:.3g}")
    for f, (p, q) in enumerate(zip(arm.get("facialTransformationMatrixes") or [], x86.get("facialTransformationMatrixes") or [])):
        require(len(p["data"]) == len(q["data"]) == 16, f"{label} face {f}: matrix size")
        rotation = max(abs(p["data"][i] - q["data"][i]) for i in range(16) if i not in (3, 7, 11))
        translation = max(abs(p["data"][i] - q["data"][i]) for i in (3, 7, 11))
        worst.add("matrix rotation", rotation), worst.add("translation cm", translation)
        require(rotation <= 1e-2 and translation <= 0.5, f"{label} face {f}: matrix rotation {rotation:.3g}, translation {translation:.3g}")
    return len(b)


def compare_hands(arm, x86, worst, label, gestures=False):
    a, b = arm["landmarks"], x86["landmarks"]
    require(len(a) == len(b), f"{label}: {len(a)} hands, x86-64 {len(b)}")
    for h, (p, q) in enumerate(zip(a, b)):
        require(len(p) == len(q) == 21, f"{label} hand {h}: {len(p)} landmarks, x86-64 {len(q)}")
        dx, dy = [abs(k["x"] - l["x"]) for k, l in zip(p, q)], [abs(k["y"] - l["y"]) for k, l in zip(p, q)]
        mean, top = max(sum(dx) / 21, sum(dy) / 21), max(dx + dy)
        worst.add("landmark mean", mean), worst.add("landmark max", top)
        require(mean <= 1e-3 and top <= 1e-2, f"{label} hand {h}: landmark mean {mean:.3g}, max {top:.3g}")
    require(len(arm["worldLandmarks"]) == len(x86["worldLandmarks"]), f"{label}: world landmark counts differ")
    for h, (p, q) in enumerate(zip(arm["worldLandmarks"], x86["worldLandmarks"])):
        d = max(abs(k[c] - l[c]) for k, l in zip(p, q) for c in ("x", "y", "z"))
        worst.add("world m", d)
        require(d <= 5e-3, f"{label} hand {h}: world landmarks {d:.3g} m")
    categories = [("handedness", arm["handedness"], x86["handedness"])]
    if gestures:
        categories.append(("gesture", arm["gestures"], x86["gestures"]))
    for name, ours, theirs in categories:
        require(len(ours) == len(theirs), f"{label}: {name} counts differ")
        for h, (p, q) in enumerate(zip(ours, theirs)):
            require(p and q, f"{label} hand {h}: empty {name}")
            require((p[0]["categoryName"], p[0]["index"]) == (q[0]["categoryName"], q[0]["index"]),
                    f"{label} hand {h}: {name} {p[0]['categoryName']} vs {q[0]['categoryName']}")
            d = abs(p[0]["score"] - q[0]["score"])
            worst.add(f"{name} score", d)
            require(d <= 1e-2, f"{label} hand {h}: {name} score {d:.3g}")
    return len(b)


def compare_pose(arm, x86, worst, label):
    a, b = arm["landmarks"], x86["landmarks"]
    require(len(a) == len(b), f"{label}: {len(a)} poses, x86-64 {len(b)}")
    for key, limit_mean, limit_max in (("landmarks", 2.5e-4, 1.5e-3), ("worldLandmarks", None, 1.5e-3)):
        require(len(arm[key]) == len(x86[key]), f"{label}: {key} counts differ")
        d, scores = [], []
        for p, q in zip(arm[key], x86[key]):
            require(len(p) == len(q) == 33, f"{label}: {len(p)} {key}, x86-64 {len(q)}")
            d += [abs(k[c] - l[c]) for k, l in zip(p, q) for c in ("x", "y", "z")]
            scores += [abs(k[c] - l[c]) for k, l in zip(p, q) for c in ("visibility", "presence")]
        if not d:
            continue
        mean, top, score = sum(d) / len(d), max(d), max(scores)
        name = "world" if key == "worldLandmarks" else "landmark"
        if limit_mean is not None:
            worst.add(f"{name} mean", mean)
            require(mean <= limit_mean, f"{label}: {key} mean {mean:.3g}")
        worst.add(f"{name} max", top), worst.add("visibility/presence", score)
        require(top <= limit_max and score <= 2e-3, f"{label}: {key} max {top:.3g}, visibility/presence {score:.3g}")
    masks_a, masks_b = arm.get("segmentationMasks") or [], x86.get("segmentationMasks") or []
    require(len(masks_a) == len(masks_b), f"{label}: {len(masks_a)} masks, x86-64 {len(masks_b)}")
    for i, (p, q) in enumerate(zip(masks_a, masks_b)):
        (w, h, u), (w2, h2, v) = mask_pixels(p), mask_pixels(q)
        require((w, h) == (w2, h2), f"{label} mask {i}: {w}x{h} vs {w2}x{h2}")
        mean = sum(abs(s - t) for s, t in zip(u, v)) / len(u) / 255
        both = sum(1 for s, t in zip(u, v) if s >= 128 and t >= 128)
        either = sum(1 for s, t in zip(u, v) if s >= 128 or t >= 128)
        iou = both / either if either else 1.0
        worst.add("mask mean", mean), worst.add("mask 1-IoU", 1 - iou)
        require(mean <= 1 / 255 and iou >= 0.99, f"{label} mask {i}: mean {mean:.3g}, IoU {iou:.4f}")
    angles_a, angles_b = arm.get("jointAngles") or [], x86.get("jointAngles") or []
    require(len(angles_a) == len(angles_b), f"{label}: joint angle counts differ")
    for i, (p, q) in enumerate(zip(angles_a, angles_b)):
        require(set(p) == set(q), f"{label} pose {i}: joints differ")
        d = max((abs(p[j] - q[j]) for j in q), default=0)
        worst.add("joint angle deg", d)
        require(d <= 0.5, f"{label} pose {i}: joint angle {d:.3g} degrees")
    return len(b)


COMPARE = {"face-detector": compare_face_detector, "face-landmarker": compare_face_landmarker,
           "hand-landmarker": compare_hands, "gesture-recognizer": lambda a, b, w, l: compare_hands(a, b, w, l, gestures=True),
           "pose-landmarker": compare_pose}
FOUND = {"face-detector": "faces", "face-landmarker": "faces", "hand-landmarker": "hands", "gesture-recognizer": "hands",
         "pose-landmarker": "poses"}


def read_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def read_text(path):
    with open(path) as f:
        return f.read().strip()


class Run:
    def __init__(self, x86, arm):
        self.x86, self.arm = x86, arm
        self.passed = self.failed = 0

    def report(self, name, check):
        try:
            line = check()
            self.passed += 1
            print(f"PASS {name}: {line}")
        except (Mismatch, OSError, ValueError, KeyError, TypeError, IndexError) as error:
            self.failed += 1
            detail = error if isinstance(error, Mismatch) else f"{type(error).__name__}: {error}"
            print(f"FAIL {name}: {detail}")

    def status(self, name):
        """The command's exit status (or HTTP status) on both sides; they must be equal."""
        a, b = read_text(os.path.join(self.arm, name + ".status")), read_text(os.path.join(self.x86, name + ".status"))
        require(a == b, f"{name} ended with {a} on aarch64, {b} on x86-64")
        return a

    def lines(self, task, keys, name, ended="exit", compare=None):
        """Compares two JSON-lines files line by line, paired by `keys` (with `compare`, the task's
        comparison unless given); returns the PASS line's text."""
        status = self.status(name)
        a = {tuple(l.get(k) for k in keys): l for l in read_lines(os.path.join(self.arm, name + ".jsonl"))}
        b = {tuple(l.get(k) for k in keys): l for l in read_lines(os.path.join(self.x86, name + ".jsonl"))}
        require(b, f"{name}: the x86-64 run wrote no lines")
        require(set(a) == set(b), f"{name}: inputs differ: only aarch64 {sorted(set(a) - set(b))[:3]}, "
                                  f"only x86-64 {sorted(set(b) - set(a))[:3]}")
        worst, found, errors = Worst(), 0, 0
        for key in sorted(b, key=str):
            p, q = a[key], b[key]
            label = " ".join(f"{k} {v}" if k == "frame" else str(v) for k, v in zip(keys, key))
            if "error" in p or "error" in q:
                require(p.get("error") == q.get("error"), f"{label}: error {p.get('error')!r} vs {q.get('error')!r}")
                errors += 1
                continue
            require(p["result"].get("timestampInMilliseconds") == q["result"].get("timestampInMilliseconds"),
                    f"{label}: timestamp {p['result'].get('timestampInMilliseconds')} vs {q['result'].get('timestampInMilliseconds')}")
            found += (compare or COMPARE[task])(p["result"], q["result"], worst, label)
        require(found > 0, f"{name}: the x86-64 run found nothing to compare")
        return f"{len(b)} lines ({errors} failed inputs on both sides), {found} {FOUND[task]} on both, {ended} {status}; worst {worst}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    x86, arm = sys.argv[1], sys.argv[2]
    run = Run(x86, arm)

    def machines():
        a, b = read_text(os.path.join(arm, "machine")), read_text(os.path.join(x86, "machine"))
        require(a == "aarch64", f"the compared run was on {a}, not aarch64")
        return f"{a} against {b}"
    run.report("machine", machines)
    for task in COMPARE:
        run.report(f"cli {task} (images)", lambda task=task: run.lines(task, ("input",), f"cli-{task}"))
    run.report("cli face-landmarker --video (RGB frames)",
               lambda: run.lines("face-landmarker", ("frame",), "video-face-landmarker"))
    # H.264 frames reach the tool as YUV and each side turns them into RGB with its own libswscale,
    # whose fast paths round differently (docs/ARM.md): the counts, timestamps and landmarks are held
    # to the parity tolerances, the blendshapes (which move most with the pixels) are only reported.
    run.report("cli face-landmarker --video (H.264, each side's libswscale; blendshapes reported, not held)",
               lambda: run.lines("face-landmarker", ("frame",), "video-h264-face-landmarker",
                                 compare=lambda a, b, w, l: compare_face_landmarker(a, b, w, l, hold_blendshapes=False)))

    def served(task, image_line):
        """One image request: HTTP 200 on both sides, the answer within tolerance of x86-64's."""
        status = run.status(f"serve-{task}")
        require(status == "200", f"HTTP {status}")
        with open(os.path.join(arm, f"serve-{task}.json")) as f:
            a = json.load(f)
        with open(os.path.join(x86, f"serve-{task}.json")) as f:
            b = json.load(f)
        worst = Worst()
        found = COMPARE[task](a, b, worst, f"serve {task}")
        require(found > 0, "the x86-64 server found nothing")
        return f"HTTP 200, {found} {FOUND[task]} ({image_line}); worst {worst}"
    for task, photo in (("face-detector", "astronaut.png"), ("face-landmarker", "astronaut.png"),
                        ("hand-landmarker", "woman_sitting.jpg"), ("gesture-recognizer", "hand_thumb_up.jpg"),
                        ("pose-landmarker", "woman_sitting.jpg")):
        run.report(f"serve POST /api/v1/{task}", lambda task=task, photo=photo: served(task, photo))

    def served_video():
        status = run.status("serve-video-face-landmarker")
        require(status == "200", f"HTTP {status}")
        return run.lines("face-landmarker", ("frame",), "serve-video-face-landmarker", ended="HTTP")
    run.report("serve POST /api/v1/face-landmarker/video", served_video)

    def tasks():
        status = run.status("serve-tasks")
        require(status == "200", f"HTTP {status}")
        with open(os.path.join(arm, "serve-tasks.json")) as f:
            a = json.load(f)
        with open(os.path.join(x86, "serve-tasks.json")) as f:
            b = json.load(f)
        names = [t["name"] for t in a["tasks"]]
        require(a == b, "the task catalogs differ")
        require(set(COMPARE) <= set(names), f"tasks served: {names}")
        return f"HTTP 200, {len(names)} tasks, the same catalog as x86-64"
    run.report("serve GET /api/v1/tasks", tasks)

    print(f"arm64 e2e: {run.passed} passed, {run.failed} failed")
    sys.exit(1 if run.failed else 0)


if __name__ == "__main__":
    main()
