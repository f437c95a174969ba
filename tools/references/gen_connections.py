#!/usr/bin/env python3
"""Generates the landmark connection tables of VisionTasks from MediaPipe's source.

Reads the iOS headers (MPPFaceLandmarksConnections.h, MPPHandLandmarksConnections.h,
MPPPoseLandmarksConnections.h) and, for
the nose (which only the Python API has), mediapipe/tasks/python/vision/face_landmarker.py,
out of the bare MediaPipe mirror, and writes
Sources/VisionTasks/{FaceLandmarker,HandLandmarker,PoseLandmarker}/{Face,Hand,Pose}LandmarksConnections.swift.

With --reference it instead dumps MediaPipe Python's (mediapipe==1.2.2)
FaceLandmarksConnections / HandLandmarksConnections / PoseLandmarksConnections to
Tests/Fixtures/references/connections/connections.json, which the unit test compares with.

    python3 tools/references/gen_connections.py [--mirror PATH]
    python3 tools/references/gen_connections.py --reference
"""
import argparse
import json
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MIRROR = "/work/.mirror/google-ai-edge+mediapipe/repo"
IOS = "mediapipe/tasks/ios/vision"

# (Swift name, iOS constant, doc comment) in the iOS header's order.
FACE = [
    ("lips", "MPPFaceLandmarksLips", "The outer and inner outlines of the lips."),
    ("leftEye", "MPPFaceLandmarksLeftEye", "The outline of the left eye (the subject's left)."),
    ("leftEyebrow", "MPPFaceLandmarksLeftEyebrow", "The left eyebrow."),
    ("leftIris", "MPPFaceLandmarksLeftIris", "The left iris (landmarks 474–477)."),
    ("rightEye", "MPPFaceLandmarksRightEye", "The outline of the right eye (the subject's right)."),
    ("rightEyebrow", "MPPFaceLandmarksRightEyebrow", "The right eyebrow."),
    ("rightIris", "MPPFaceLandmarksRightIris", "The right iris (landmarks 469–472)."),
    ("faceOval", "MPPFaceLandmarksFaceOval", "The oval around the face."),
    ("tesselation", "MPPFaceLandmarksTesselation", "The triangle mesh over the whole face."),
]
HAND = [
    ("palm", "MPPHandPalmConnections", "The palm: wrist to the finger bases and across them."),
    ("thumb", "MPPHandThumbConnections", "The thumb."),
    ("indexFinger", "MPPHandIndexFingerConnections", "The index finger."),
    ("middleFinger", "MPPHandMiddleFingerConnections", "The middle finger."),
    ("ringFinger", "MPPHandRingFingerConnections", "The ring finger."),
    ("pinky", "MPPHandPinkyConnections", "The little finger."),
]


def git_show(mirror, path):
    return subprocess.run(["git", "-C", mirror, "show", "HEAD:" + path],
                          check=True, capture_output=True, text=True).stdout


def ios_table(header, name):
    """The (start, end) pairs of one `NSArray<MPPConnection *> *const NAME = @[ ... ];` table."""
    m = re.search(r"\*const\s+" + name + r"\s*=\s*@\[(.*?)\];", header, re.S)
    if not m:
        raise SystemExit(f"gen_connections: {name} not found in the iOS header")
    return [(int(a), int(b)) for a, b in re.findall(r"initWithStart:(\d+)\s+end:(\d+)", m.group(1))]


def python_table(source, name):
    m = re.search(name + r"\s*:\s*List\[Connection\]\s*=\s*\[(.*?)\]", source, re.S)
    if not m:
        raise SystemExit(f"gen_connections: {name} not found in face_landmarker.py")
    return [(int(a), int(b)) for a, b in re.findall(r"Connection\((\d+),\s*(\d+)\)", m.group(1))]


def chains_of(pairs):
    """The pairs as landmark chains, in order: a pair starting where the one before ended extends
    that chain (a→b, b→c is the chain [a, b, c])."""
    chains = []
    for a, b in pairs:
        if chains and chains[-1][-1] == a:
            chains[-1].append(b)
        else:
            chains.append([a, b])
    return chains


def wrap(prefix, items, suffix, indent="        ", width=120):
    """`prefix` + the items joined by ", " + `suffix`, on one line when it fits in `width`, else
    the items packed onto the following lines at `indent`."""
    one_line = prefix + ", ".join(items) + suffix
    if len(one_line) <= width:
        return one_line
    lines, line = [], ""
    for item in items:
        if line and len(indent + line + ", " + item + ",") > width:
            lines.append(indent + line + ",")
            line = item
        else:
            line = line + ", " + item if line else item
    lines.append(indent + line + suffix)
    return prefix.rstrip() + "\n" + "\n".join(lines)


def swift_table(name, pairs):
    """`public static let name: [Connection] = ...`: the pairs as `Connection.chains` (on as few
    lines as fit), or as `Connection.triangles`, seven a line, when they run three by three around
    triangles (the tesselation)."""
    prefix = f"    public static let {name}: [Connection] = "
    triangles = len(pairs) % 3 == 0 and all(
        pairs[i][1] == pairs[i + 1][0] and pairs[i + 1][1] == pairs[i + 2][0] and pairs[i + 2][1] == pairs[i][0]
        for i in range(0, len(pairs), 3))
    if triangles:
        corners = [str(a) for a, _ in pairs]
        lines = [", ".join(corners[i:i + 21]) for i in range(0, len(corners), 21)]   # 7 triangles a line
        return prefix + "Connection.triangles([\n" + ",\n".join("        " + line for line in lines) + "])"
    items = []
    for chain in chains_of(pairs):
        numbers = [str(n) for n in chain]
        if len("[" + ", ".join(numbers) + "],") > 112:   # too long for a line: its numbers wrap
            items += ["[" + numbers[0]] + numbers[1:-1] + [numbers[-1] + "]"]
        else:
            items.append("[" + ", ".join(numbers) + "]")
    return wrap(prefix + "Connection.chains(", items, ")")


def write_swift(name, lines):
    """Writes `lines` as `name` in its task's folder (FaceLandmarksConnections.swift in
    Sources/VisionTasks/FaceLandmarker/), then formats it with swift-format (the toolchain's `swift format`,
    configured by the repository's .swift-format) as `make format-check` wants."""
    task = name.replace("LandmarksConnections.swift", "Landmarker")
    path = os.path.join(ROOT, "Sources/VisionTasks", task, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run([os.environ.get("SWIFT", "swift"), "format", "format", "--in-place", path], cwd=ROOT, check=True)


HEADER = """// Generated by tools/references/gen_connections.py from MediaPipe's {source}.
// Landmark indices are MediaPipe's; do not edit by hand, run the script.
"""


def write_face(mirror):
    header = git_show(mirror, f"{IOS}/face_landmarker/sources/MPPFaceLandmarksConnections.h")
    py = git_show(mirror, "mediapipe/tasks/python/vision/face_landmarker.py")
    out = [HEADER.format(source="MPPFaceLandmarksConnections.h (nose: face_landmarker.py)")]
    out.append("/// The connections between the 478 face landmarks that MediaPipe draws, as in its\n"
               "/// `FaceLandmarksConnections` (iOS: `FaceLandmarker.lipsConnections()` and so on).")
    out.append("public enum FaceLandmarksConnections {")
    for swift, ios, doc in FACE:
        out.append(f"    /// {doc}")
        out.append(swift_table(swift, ios_table(header, ios)) + "\n")
    out.append("    /// The nose bridge and nostrils (MediaPipe's Python API has it; iOS does not).")
    out.append(swift_table("nose", python_table(py, "FACE_LANDMARKS_NOSE")) + "\n")
    out.append("    /// The contours: lips, eyes, eyebrows, irises and face oval, in MediaPipe's order.")
    out.append("    public static let contours: [Connection] =\n"
               "        lips + leftEye + leftEyebrow + leftIris + rightEye + rightEyebrow + rightIris + faceOval\n")
    out.append("    /// Everything, as iOS's `faceConnections()`: lips, contours and tesselation.")
    out.append("    public static let face: [Connection] = lips + contours + tesselation")
    out.append("}")
    write_swift("FaceLandmarksConnections.swift", out)


def write_hand(mirror):
    header = git_show(mirror, f"{IOS}/hand_landmarker/sources/MPPHandLandmarksConnections.h")
    out = [HEADER.format(source="MPPHandLandmarksConnections.h")]
    out.append("/// The connections between the 21 hand landmarks, as in MediaPipe's `HandLandmarksConnections`\n"
               "/// (iOS: `HandLandmarker.handPalmConnections()` and so on).")
    out.append("public enum HandLandmarksConnections {")
    for swift, ios, doc in HAND:
        out.append(f"    /// {doc}")
        out.append(swift_table(swift, ios_table(header, ios)) + "\n")
    out.append("    /// The whole hand skeleton: palm, then thumb to little finger, in MediaPipe's order.")
    out.append("    public static let hand: [Connection] =\n"
               "        palm + thumb + indexFinger + middleFinger + ringFinger + pinky")
    out.append("}")
    write_swift("HandLandmarksConnections.swift", out)


def write_pose(mirror):
    header = git_show(mirror, f"{IOS}/pose_landmarker/sources/MPPPoseLandmarksConnections.h")
    out = [HEADER.format(source="MPPPoseLandmarksConnections.h")]
    out.append("/// The connections between the 33 pose landmarks, as in MediaPipe's `PoseLandmarksConnections`\n"
               "/// (iOS: `PoseLandmarker.poseLandmarks`).")
    out.append("public enum PoseLandmarksConnections {")
    out.append("    /// The whole body skeleton: face, arms and hands, trunk, legs and feet, in MediaPipe's order.")
    out.append(swift_table("pose", ios_table(header, "MPPPoseLandmarksConnections")))
    out.append("}")
    write_swift("PoseLandmarksConnections.swift", out)


def write_reference():
    from mediapipe.tasks.python.vision import FaceLandmarksConnections as F
    from mediapipe.tasks.python.vision import HandLandmarksConnections as H
    from mediapipe.tasks.python.vision import PoseLandmarksConnections as P
    import mediapipe

    def pairs(table):
        return [[c.start, c.end] for c in table]

    ref = {
        "mediapipe": mediapipe.__version__,
        "face": {n[len("FACE_LANDMARKS_"):].lower(): pairs(getattr(F, n))
                 for n in dir(F) if n.startswith("FACE_LANDMARKS_")},
        "hand": {n[len("HAND_"):].lower(): pairs(getattr(H, n))
                 for n in dir(H) if n.startswith("HAND_")},
        "pose": {"pose": pairs(P.POSE_LANDMARKS)},
    }
    path = os.path.join(ROOT, "Tests/Fixtures/references/connections/connections.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(ref, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirror", default=MIRROR, help="bare git mirror of google-ai-edge/mediapipe")
    ap.add_argument("--reference", action="store_true", help="dump MediaPipe Python's tables as JSON")
    args = ap.parse_args()
    if args.reference:
        write_reference()
    else:
        write_face(args.mirror)
        write_hand(args.mirror)
        write_pose(args.mirror)
        print("wrote the connection tables in Sources/VisionTasks/{Face,Hand,Pose}Landmarker/")
