#!/usr/bin/env bash
# The demo: runs the tool on the sample images and says where the output is.
set -euo pipefail
cd "$(dirname "$0")/.."
out=demo-output
mkdir -p "$out"
bin=$(swift build -c release --show-bin-path)/vision-tasks
"$bin" model info models/face_landmarker.task --entry face_landmarks_detector.tflite > "$out/face_landmarks_detector.info.txt"
echo "demo: wrote $out/"
