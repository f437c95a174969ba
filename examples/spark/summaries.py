"""Per-input summaries of vision-tasks result lines, shared by the Spark job and its local test.

A result line is the tool's JSON line with the task added: {"task": "face-landmarker", "input": ...,
"result" | "error" | "video": ..., ["frame": n]}. One summary per input gathers its lines of both tasks.
"""

import csv
import json

# The tool reads images in these formats only; every other input is given to it as a video (ffmpeg reads
# .ts, .y4m, .mpg, .flv, ... which a list of video extensions would have sent to the image path).
IMAGE_EXTENSIONS = {".jpg", ".jpeg", ".png"}

# The columns of the Parquet table, in order, with their Spark SQL types.
SCHEMA = "input string, kind string, frames int, faces int, hands int, gestures array<string>, top_blendshapes array<string>, errors int"


def kind_of(path):
    """'image' for a JPEG or PNG path (by its extension), else 'video'."""
    dot = path.rfind(".")
    return "image" if dot >= 0 and path[dot:].lower() in IMAGE_EXTENSIONS else "video"


def tag(task, line):
    """The tool's line `line` with `"task": task` added (None for a line that is not a JSON object)."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict) or "input" not in obj:
        return None
    obj["task"] = task
    return obj


def is_final(obj):
    """Whether a line closes its input for its task: an image's line, a video's summary or error line."""
    return "frame" not in obj


def summarize(path, objs):
    """The summary row of one input from all its tagged lines (both tasks, any order)."""
    frames = faces = hands = errors = 0
    gestures = set()
    blend_sum, blend_count = {}, 0
    for obj in objs:
        if "error" in obj:
            errors += 1
            continue
        result = obj.get("result")
        if result is None:
            continue
        if obj["task"] == "face-landmarker":
            frames += 1
            faces = max(faces, len(result.get("faceLandmarks", [])))
            shapes = result.get("faceBlendshapes") or []
            if shapes:
                blend_count += 1
                for category in shapes[0]["categories"]:
                    name = category["categoryName"]
                    blend_sum[name] = blend_sum.get(name, 0.0) + category["score"]
        else:
            hands = max(hands, len(result.get("landmarks", [])))
            for per_hand in result.get("gestures", []):
                if per_hand:
                    gestures.add(per_hand[0]["categoryName"])
    # The three blendshapes with the highest mean score over the frames with a face (ties by name).
    top = sorted(blend_sum, key=lambda name: (-blend_sum[name] / blend_count, name))[:3] if blend_count else []
    return {"input": path, "kind": kind_of(path), "frames": frames, "faces": faces, "hands": hands,
            "gestures": sorted(gestures), "top_blendshapes": top, "errors": errors}


def summarize_all(objs):
    """Summary rows of every input in `objs`, sorted by input."""
    by_input = {}
    for obj in objs:
        by_input.setdefault(obj["input"], []).append(obj)
    return [summarize(path, by_input[path]) for path in sorted(by_input)]


# The columns of the per-face table (faces.parquet) the job keeps from the tool's CSV (--format csv):
# where and when, the face's tracking id, its head pose and its blendshapes (the landmark columns,
# x0 ... z477, stay in the CSV). Empty cells (no face, an output not asked for) become nulls.
FACE_ID_COLUMNS = ["input", "frame", "timestamp_ms", "success", "error", "index", "id"]
FACE_POSE_COLUMNS = ["yaw", "pitch", "roll"]
FACE_INT_COLUMNS = {"frame", "timestamp_ms", "success", "index", "id"}


def csv_rows(lines):
    """The rows of the tool's CSV output lines (one header per worker, skipped), as dicts by column."""
    header, rows = None, []
    for cells in csv.reader(lines):
        if cells and cells[0] == "input" and cells[:2] == ["input", "frame"]:
            header = cells
            continue
        if header is not None and len(cells) == len(header):
            rows.append(dict(zip(header, cells)))
    return rows


def face_columns(header_names):
    """The kept columns, in order: ids, pose, then the blendshapes the header names (not the landmarks x0 ... z477
    nor the matrix's matrix0 ... matrix15, which stay in the CSV)."""
    blendshapes = [name for name in header_names if name not in FACE_ID_COLUMNS + FACE_POSE_COLUMNS
                   and not (name[:1] in "xyz" and name[1:].isdigit())
                   and not (name.startswith("matrix") and name[6:].isdigit())]
    return FACE_ID_COLUMNS + FACE_POSE_COLUMNS + blendshapes


def face_row(row, columns):
    """One CSV row as typed values of `columns`: ints, floats and strings, "" as None."""
    def value(name):
        cell = row.get(name, "")
        if cell == "":
            return None
        if name in FACE_INT_COLUMNS:
            return int(cell)
        if name in ("input", "error"):
            return cell
        return float(cell)
    return [value(name) for name in columns]


def face_schema(columns):
    """The Spark SQL schema of the face table."""
    def kind(name):
        return "int" if name in FACE_INT_COLUMNS else "string" if name in ("input", "error") else "double"
    return ", ".join(f"`{name}` {kind(name)}" for name in columns)
