"""Helpers the reference makers share (tools/references/make_hand_refs.py, tools/references/make_pose_refs.py): rounding to
significant digits, paths relative to Tests/Fixtures, and loading and fitting the fixture photos."""
import math
import os
import sys

import cv2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "images")


def significant(v, digits):
    """`v` rounded to `digits` significant digits (None, 0 and non-finite values unchanged)."""
    if v is None:
        return None
    v = float(v)
    if v == 0 or not math.isfinite(v):
        return v
    return float(f"{v:.{digits}g}")


def rel(path):
    """`path` relative to Tests/Fixtures, as the references name files."""
    return os.path.relpath(path, os.path.join(ROOT, "Tests", "Fixtures"))


def load(name):
    """A fixture photo (BGR); exits naming it when it cannot be read."""
    img = cv2.imread(os.path.join(FIXTURES, name), cv2.IMREAD_COLOR)
    if img is None:
        sys.exit(f"cannot read fixture {name}")
    return img


def fit(img, max_w, max_h):
    """`img` shrunk (never enlarged) to fit `max_w`×`max_h`, with area averaging."""
    h, w = img.shape[:2]
    s = min(max_w / w, max_h / h, 1.0)
    return cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
