#!/usr/bin/env bash
# The `vision-tasks` tool end to end, for `make test-arm64`: run once on the host with its x86-64 build
# (the references) and once in the arm64 root with the aarch64 build, the same commands on the same
# inputs; tools/platform/arm64_e2e_compare.py then holds the two folders to the parity tolerances.
#   tools/platform/arm64_e2e.sh BINARY OUT [VIDEOS]
# Writes into OUT (emptied first): `machine` (uname -m); for each task, the CLI's JSON lines over every
# fixture image (Tests/Fixtures/images and its variant folders) as cli-<task>.jsonl; the face
# landmarker in VIDEO mode over the two videos below, as video-face-landmarker.jsonl (RGB frames) and
# video-h264-face-landmarker.jsonl (VIDEOS: the folder holding them, the host's run's OUT; without
# it they are made into OUT); then `vision-tasks serve` on a free loopback port, one image request per
# task (serve-<task>.json, and its HTTP status), the RGB video to /api/v1/face-landmarker/video and
# GET /api/v1/tasks, and the server stopped. Each command's exit status is in <name>.status and its
# standard error in <name>.stderr. Exits non-zero when a step could not run at all (no binary, no
# ffmpeg, the server never answered); the results themselves are judged by the compare script.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:?usage: tools/platform/arm64_e2e.sh BINARY OUT [VIDEOS]}
OUT=${2:?usage: tools/platform/arm64_e2e.sh BINARY OUT [VIDEOS]}
VIDEOS=${3:-}
IMAGES=Tests/Fixtures/images
[ -x "$BIN" ] || { echo "e2e: FAIL: no binary $BIN" >&2; exit 1; }
[ -d models ] || { echo "e2e: FAIL: no models/ (make models)" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
uname -m > "$OUT/machine"
echo "e2e: $(uname -m), $BIN"

# Runs a command with its output in OUT/NAME.jsonl, its status in OUT/NAME.status; prints a line with both.
run() {
    local name=$1 start=$SECONDS status
    shift
    "$@" > "$OUT/$name.jsonl" 2> "$OUT/$name.stderr"
    status=$?
    echo "$status" > "$OUT/$name.status"
    echo "e2e: $name: exit $status, $(wc -l < "$OUT/$name.jsonl") lines, $((SECONDS - start)) s"
}

run cli-face-detector "$BIN" face-detector --no-progress --model models/blaze_face_short_range.tflite "$IMAGES"
run cli-face-landmarker "$BIN" face-landmarker --no-progress --model models/face_landmarker.task --num-faces 2 \
    --output-face-blendshapes --output-facial-transformation-matrixes "$IMAGES"
run cli-hand-landmarker "$BIN" hand-landmarker --no-progress --model models/hand_landmarker.task --num-hands 2 "$IMAGES"
run cli-gesture-recognizer "$BIN" gesture-recognizer --no-progress --model models/gesture_recognizer.task --num-hands 2 "$IMAGES"
run cli-pose-landmarker "$BIN" pose-landmarker --no-progress --model models/pose_landmarker_full.task --num-poses 2 \
    --output-segmentation-masks --output-joint-angles "$IMAGES"

# Two videos of a 2-second pan over astronaut.png, made once with ffmpeg (the root is given the host's
# files, so both sides read the same bytes): pan-rgb.mkv holds lossless RGB frames (PNG), which ffmpeg
# hands over as they are, so both sides see the same pixels; pan-h264.mp4 is H.264 in yuv420p, whose
# frames each side turns into RGB with its own libswscale (whose fast paths round differently from
# one build to another: docs/ARM.md).
if [ -z "$VIDEOS" ]; then
    VIDEOS=$OUT
    command -v ffmpeg >/dev/null || { echo "e2e: FAIL: no ffmpeg to make the videos" >&2; exit 1; }
    pan=(-loglevel error -nostdin -y -loop 1 -i "$IMAGES/astronaut.png" -t 2 -r 15 -threads 1
         -vf "scale=480:-2,crop=360:ih:'(iw-360)*t/2':0")
    ffmpeg "${pan[@]}" -c:v png -pix_fmt rgb24 "$OUT/pan-rgb.mkv" \
        && ffmpeg "${pan[@]}" -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$OUT/pan-h264.mp4" \
        || { echo "e2e: FAIL: ffmpeg could not make the videos" >&2; exit 1; }
fi
for video in pan-rgb.mkv pan-h264.mp4; do
    [ -f "$VIDEOS/$video" ] || { echo "e2e: FAIL: no video $VIDEOS/$video" >&2; exit 1; }
done
run video-face-landmarker "$BIN" face-landmarker --no-progress --model models/face_landmarker.task --num-faces 1 \
    --output-face-blendshapes --video "$VIDEOS/pan-rgb.mkv"
run video-h264-face-landmarker "$BIN" face-landmarker --no-progress --model models/face_landmarker.task --num-faces 1 \
    --output-face-blendshapes --video "$VIDEOS/pan-h264.mp4"

# The server: a loopback port nothing listens on (from a random start), answered /healthz within 10 minutes.
port=$((20000 + RANDOM % 20000))
while (: > "/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
url=http://127.0.0.1:$port
start=$SECONDS
"$BIN" serve --port "$port" --models models --workers 1 > "$OUT/serve.log" 2>&1 &
server=$!
stop_server() { kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; }
trap stop_server EXIT
until curl -fsS -o /dev/null "$url/healthz" 2>/dev/null; do
    if ! kill -0 "$server" 2>/dev/null; then
        echo "e2e: FAIL: the server exited:" >&2; cat "$OUT/serve.log" >&2; exit 1
    fi
    if [ $((SECONDS - start)) -gt 600 ]; then echo "e2e: FAIL: the server did not answer /healthz in 600 s" >&2; exit 1; fi
    sleep 1
done
echo "e2e: serve: answering on $url after $((SECONDS - start)) s"

# POSTs FILE to PATH; the body in OUT/NAME.json (or .jsonl), the HTTP status in OUT/NAME.status.
post() {
    local name=$1 file=$2 path=$3 start=$SECONDS
    curl -sS -o "$OUT/$name" -w '%{http_code}\n' -H 'Content-Type: application/octet-stream' \
        --data-binary "@$file" "$url$path" > "$OUT/${name%.*}.status" 2> "$OUT/${name%.*}.stderr"
    echo "e2e: $name: HTTP $(cat "$OUT/${name%.*}.status"), $(wc -c < "$OUT/$name") bytes, $((SECONDS - start)) s"
}
post serve-face-detector.json "$IMAGES/astronaut.png" /api/v1/face-detector
post serve-face-landmarker.json "$IMAGES/astronaut.png" \
    '/api/v1/face-landmarker?num-faces=2&output-face-blendshapes=true&output-facial-transformation-matrixes=true'
post serve-hand-landmarker.json "$IMAGES/woman_sitting.jpg" '/api/v1/hand-landmarker?num-hands=2'
post serve-gesture-recognizer.json "$IMAGES/hand_thumb_up.jpg" '/api/v1/gesture-recognizer?num-hands=2'
post serve-pose-landmarker.json "$IMAGES/woman_sitting.jpg" \
    '/api/v1/pose-landmarker?num-poses=2&output-segmentation-masks=true&output-joint-angles=true'
post serve-video-face-landmarker.jsonl "$VIDEOS/pan-rgb.mkv" '/api/v1/face-landmarker/video?num-faces=1&output-face-blendshapes=true'
curl -sS -o "$OUT/serve-tasks.json" -w '%{http_code}\n' "$url/api/v1/tasks" > "$OUT/serve-tasks.status" 2>&1
stop_server
trap - EXIT
echo "e2e: serve: stopped after $((SECONDS - start)) s"
