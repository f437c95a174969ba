"""Runs the Spark job in local mode (local[2]) on the fixture images, a short video made with ffmpeg
and a missing file, and checks its lines and its Parquet summaries equal a single-process run of
the same tool on the same manifest. Prints both times. Part of `make test` (the Makefile runs it).

    python3 examples/spark/test_local.py [--tool .build/debug/vision-tasks] [--models models]
"""

import argparse
import contextlib
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import summaries  # noqa: E402
import vision_job  # noqa: E402


def tool_outputs(tool, models, manifest, threads, tasks, csv=False):
    """(task, standard output) of the tool run once per task and kind, in one process each, on the manifest."""
    paths = vision_job.read_manifest(manifest)
    for kind in ("image", "video"):
        selected = [p for p in paths if summaries.kind_of(p) == kind]
        if not selected:
            continue
        for task in tasks:
            command = vision_job.tool_command(tool, models, task, kind, threads, csv=csv)
            run = subprocess.run(command, shell=True, input="\n".join(selected) + "\n", capture_output=True, text=True)
            if run.returncode not in (0, 1) or "summary:" not in run.stderr:
                raise SystemExit(f"single-process run failed ({run.returncode}): {command}\n{run.stderr}")
            yield task, run.stdout


def single_process(tool, models, manifest, threads):
    """The tagged lines of the tool run once per task and kind, in one process each, on the manifest."""
    return [summaries.tag(task, line) for task, stdout in tool_outputs(tool, models, manifest, threads, vision_job.TASKS)
            for line in stdout.splitlines()]


def single_process_faces(tool, models, manifest, threads):
    """The face table's columns and rows from the tool run once per kind with --format csv, typed as the job types them."""
    rows = [row for _, stdout in tool_outputs(tool, models, manifest, threads, ["face-landmarker"], csv=True)
            for row in summaries.csv_rows(stdout.splitlines())]
    columns = summaries.face_columns(list(rows[0]) if rows else summaries.FACE_ID_COLUMNS)
    return columns, [summaries.face_row(row, columns) for row in rows]


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "debug", "vision-tasks"))
    parser.add_argument("--models", default=os.path.join(ROOT, "models"))
    args = parser.parse_args()
    failures = []

    with tempfile.TemporaryDirectory(prefix="spark-test-") as scratch, contextlib.ExitStack() as cleanup:
        video = os.path.join(scratch, "clip.mp4")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-framerate", "5", "-loop", "1",
                        "-i", os.path.join(ROOT, "Tests/Fixtures/images/two_thumbs_up.jpg"),
                        "-vf", "scale=320:-2", "-frames:v", "3", "-c:v", "libx264", "-pix_fmt", "yuv420p", video], check=True)
        images = [os.path.join(ROOT, "Tests/Fixtures/images", name)
                  for name in ("astronaut.png", "hand_thumb_up.jpg", "woman_sitting.jpg")]
        missing = os.path.join(scratch, "missing.jpg")
        manifest = os.path.join(scratch, "manifest.txt")
        with open(manifest, "w") as f:
            f.write("\n".join(images + [video, missing]) + "\n")
        inputs = len(images) + 2

        started = time.time()
        expected = single_process(args.tool, args.models, manifest, threads=1)
        single_seconds = time.time() - started

        out = os.path.join(scratch, "out")
        spark_submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
        if not os.path.exists(spark_submit):
            spark_submit = "spark-submit"

        # A worker that dies in the face table's pass (here: after its header) must fail the job, naming the inputs:
        # the JSON passes were checked, this one was not, and faces.parquet came out short with exit 0. Its job runs
        # beside the main one (each JVM's start is most of its time), and is checked after it.
        dying = os.path.join(scratch, "dying-tool.sh")
        with open(dying, "w") as f:
            f.write('#!/bin/sh\ncase " $* " in *" csv "*) "$0.real" "$@" | head -n 1; exit 137;; esac\n'
                    'exec "$0.real" "$@"\n')
        os.chmod(dying, 0o755)
        os.symlink(os.path.abspath(args.tool), dying + ".real")
        short = os.path.join(scratch, "short.txt")
        with open(short, "w") as f:
            f.write(images[0] + "\n")
        died_log = os.path.join(scratch, "died.log")
        with open(died_log, "w") as log:
            died = subprocess.Popen([spark_submit, "--master", "local[1]", "--conf", "spark.ui.enabled=false",
                                     os.path.join(HERE, "vision_job.py"), "--manifest", short, "--tool", dying,
                                     "--models", args.models, "--out", os.path.join(scratch, "out-died"),
                                     "--partitions", "1"],
                                    stdout=log, stderr=subprocess.STDOUT, cwd=scratch,
                                    env=dict(os.environ, PYSPARK_PYTHON=sys.executable))
        cleanup.callback(lambda: died.poll() is None and (died.kill(), died.wait()))  # before scratch goes

        started = time.time()
        job = subprocess.run([spark_submit, "--master", "local[2]", "--conf", "spark.ui.enabled=false",
                              os.path.join(HERE, "vision_job.py"), "--manifest", manifest, "--tool", args.tool,
                              "--models", args.models, "--out", out, "--partitions", "2"],
                             capture_output=True, text=True, cwd=scratch, env=dict(os.environ, PYSPARK_PYTHON=sys.executable))
        spark_seconds = time.time() - started
        if job.returncode != 0:
            raise SystemExit(f"spark job failed ({job.returncode}):\n{job.stderr[-4000:]}")

        got = []
        for part in sorted(glob.glob(os.path.join(out, "lines", "part-*"))):
            with open(part) as f:
                got += [json.loads(line) for line in f if line.strip()]
        if sorted(map(canonical, got)) != sorted(map(canonical, expected)):
            failures.append(f"spark lines differ from the single-process run: {len(got)} vs {len(expected)} lines")
        if not any("error" in obj and obj["input"] == missing for obj in got):
            failures.append("the missing file has no error line")
        frames = [obj for obj in got if obj["input"] == video and obj["task"] == "face-landmarker" and "frame" in obj]
        if len(frames) != 3:
            failures.append(f"the video gave {len(frames)} face-landmarker frame lines, not 3")

        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
                 .config("spark.sql.warehouse.dir", os.path.join(scratch, "warehouse")).getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        table = [row.asDict() for row in spark.read.parquet(os.path.join(out, "summary.parquet")).orderBy("input").collect()]
        face_table = [list(row) for row in spark.read.parquet(os.path.join(out, "faces.parquet")).collect()]
        spark.stop()
        columns, face_want = single_process_faces(args.tool, args.models, manifest, threads=1)
        key = lambda row: (row[0], -1 if row[1] is None else row[1], -1 if row[5] is None else row[5], row[4] or "")
        if sorted(face_table, key=key) != sorted(face_want, key=key):
            failures.append(f"faces.parquet differs from the tool's CSV: {len(face_table)} vs {len(face_want)} rows")
        video_faces = [row for row in face_table if row[0] == video and row[1] is not None]
        if len(video_faces) != 3 or any(row[columns.index("yaw")] is None for row in face_table if row[3] == 1):
            failures.append(f"faces.parquet: the video does not have 3 frame rows, or a face has no pose: {video_faces}")
        want = summaries.summarize_all(expected)
        if table != want:
            failures.append(f"parquet summaries differ:\n{table}\nexpected:\n{want}")
        if len(table) != inputs:
            failures.append(f"{len(table)} summary rows for {inputs} inputs")
        by_input = {row["input"]: row for row in table}
        if by_input.get(images[0], {}).get("faces") != 1 or by_input.get(images[1], {}).get("gestures") != ["Thumb_Up"]:
            failures.append(f"summaries: astronaut not 1 face or hand_thumb_up not Thumb_Up: {table}")
        if by_input.get(video, {}).get("frames") != 3 or by_input.get(missing, {}).get("errors") != 2:
            failures.append(f"summaries: the video not 3 frames or the missing file not 2 errors: {table}")

        try:
            died.wait(timeout=600)
        except subprocess.TimeoutExpired:
            died.kill()
            died.wait()
        with open(died_log) as f:
            said = f.read()  # spark-submit passes the driver's stderr to its stdout
        if died.returncode != 1 or f"error: no final face-landmarker CSV line for {images[0]}" not in said:
            failures.append(f"a worker dying in the CSV pass: exit {died.returncode}, not 1 naming the input:\n"
                            f"{said[-2000:]}")

    print(f"spark local[2]: {inputs} inputs, 2 partitions, {spark_seconds:.1f} s; single process: {single_seconds:.1f} s")
    for failure in failures:
        print("FAIL:", failure)
    print("spark local test:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
