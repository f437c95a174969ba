"""Apache Spark job: vision-tasks over a manifest of images and videos, as a worker of Spark.

    spark-submit --master local[2] examples/spark/vision_job.py \
        --manifest inputs.txt --tool .build/release/vision-tasks --models models --out out/

The manifest holds one path per line (images, and videos by extension). Its lines are split into
partitions; each partition is piped (RDD.pipe) into `vision-tasks <task> --input-list -` (images) or
`--video-list -` (videos) on an executor, for the Face Landmarker (with blendshapes) and the Gesture
Recognizer. Spark never sees a picture: the tool reads the files, so the paths must be readable
where the executors run (a shared file system, or paths the container image holds).

Writes OUT/lines/ (the tool's JSON lines, each with "task" added; Spark text part files),
OUT/summary.parquet (one row per input: frames, faces, hands, gestures, top blendshapes, errors) and
OUT/faces.parquet: one row per face per image or frame (and one with success 0 where there is none),
read from the tool's CSV output (`--format csv --output-head-poses`): input, frame, timestamp, the
face's tracking id (videos), yaw/pitch/roll and the 52 blendshapes.
Exits 1 if an input has no final line for a task, or no row without a frame in the face table (a worker
died or was killed), naming them.
"""

import argparse
import json
import os
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summaries  # noqa: E402  (shipped beside this file; --py-files on a cluster)

TASKS = ("face-landmarker", "gesture-recognizer")


def tool_command(tool, models, task, kind, threads, csv=False):
    """The worker's command line for one task and kind of input (the manifest comes on stdin); `csv`:
    the face table (--format csv, with head poses)."""
    model = {"face-landmarker": "face_landmarker.task", "gesture-recognizer": "gesture_recognizer.task"}[task]
    # One task instance a worker: Spark runs a worker per core already (the tool's own --jobs auto would start one
    # per core in each, oversubscribing the executor's cores and memory).
    args = [tool, task, "--model", os.path.join(models, model), "--threads", str(threads), "--jobs", "1", "--no-progress"]
    args += ["--output-face-blendshapes"] if task == "face-landmarker" else ["--num-hands", "2"]
    args += ["--format", "csv", "--output-head-poses"] if csv else []
    args += ["--input-list", "-"] if kind == "image" else ["--video-list", "-"]
    return shlex.join(args)


def read_manifest(path):
    """The manifest's paths in order, blank lines skipped (as the tool reads them: lines end at a newline, a CR
    before it dropped, a CR elsewhere part of the path). The manifest must be UTF-8 (the tool also takes a line that
    is not, as an error line; here the job stops on it)."""
    def path_of(line):
        line = line[:-1] if line.endswith("\n") else line
        line = line[:-1] if line.endswith("\r") else line
        return line[1:] if line.startswith("\ufeff") else line  # as Foundation reads a line, a leading BOM dropped
    with open(path, encoding="utf-8", newline="\n") as f:
        return [path_of(line) for line in f if path_of(line).strip(" \t")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manifest", required=True, help="one image or video path per line")
    parser.add_argument("--tool", required=True, help="the vision-tasks executable, as the executors see it")
    parser.add_argument("--models", required=True, help="folder holding face_landmarker.task and gesture_recognizer.task")
    parser.add_argument("--out", required=True, help="output folder (lines/ and summary.parquet are replaced)")
    parser.add_argument("--partitions", type=int, default=0, help="partitions of the manifest (default: Spark's parallelism)")
    parser.add_argument("--threads", type=int, default=1, help="inference threads per worker")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("vision-tasks").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    sc.addPyFile(summaries.__file__)  # the executors' Python workers import it too
    started = time.time()
    paths = read_manifest(args.manifest)
    partitions = args.partitions or sc.defaultParallelism
    tagged, face_tables = [], []
    for kind in ("image", "video"):
        selected = [p for p in paths if summaries.kind_of(p) == kind]
        if not selected:
            continue
        rdd = sc.parallelize(selected, min(partitions, len(selected)))
        for task in TASKS:
            lines = rdd.pipe(tool_command(args.tool, args.models, task, kind, args.threads))
            tagged.append(lines.map(lambda line, task=task: summaries.tag(task, line)).filter(lambda obj: obj is not None))
        # The face table: each partition's CSV (its own header first) parsed where it was made.
        csv_lines = rdd.pipe(tool_command(args.tool, args.models, "face-landmarker", kind, args.threads, csv=True))
        face_tables.append(csv_lines.mapPartitions(lambda part: summaries.csv_rows(list(part))))
    objs = sc.union(tagged).cache()

    # Every input must have one final line per task, or the worker running it died.
    closed = set(objs.filter(summaries.is_final).map(lambda obj: (obj["task"], obj["input"])).collect())
    missing = [(task, p) for p in paths for task in TASKS if (task, p) not in closed]

    objs.map(lambda obj: json.dumps(obj, sort_keys=True, separators=(",", ":"))).saveAsTextFile(os.path.join(args.out, "lines"))
    rows = objs.keyBy(lambda obj: obj["input"]).groupByKey().map(lambda kv: summaries.summarize(kv[0], list(kv[1])))
    table = spark.createDataFrame(rows, summaries.SCHEMA).orderBy("input")
    table.write.mode("overwrite").parquet(os.path.join(args.out, "summary.parquet"))
    face_rows = sc.union(face_tables).cache()
    # The face table's pass too: every input has a row without a frame (an image's, a video's closing row), or the
    # worker writing it died and the table is short.
    tabled = set(face_rows.filter(lambda row: row.get("frame", "") == "").map(lambda row: row["input"]).collect())
    missing += [("face-landmarker CSV", p) for p in paths if p not in tabled]
    first = face_rows.take(1)
    columns = summaries.face_columns(list(first[0]) if first else summaries.FACE_ID_COLUMNS)
    faces = spark.createDataFrame(face_rows.map(lambda row: summaries.face_row(row, columns)), summaries.face_schema(columns))
    faces.orderBy("input", "frame", "index").write.mode("overwrite").parquet(os.path.join(args.out, "faces.parquet"))
    count = objs.count()
    seconds = time.time() - started
    print(f"vision-tasks on spark: {len(paths)} inputs, {partitions} partitions, {count} lines, {seconds:.1f} s", file=sys.stderr)
    spark.stop()
    if missing:
        for task, p in missing:
            print(f"error: no final {task} line for {p}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
