#!/usr/bin/env bash
# Writes the JSON lines of the six tasks over every fixture image (Tests/Fixtures/images, its variant
# folders included), with every output option on, at 1 and 2 threads, in IMAGE mode and as a VIDEO of
# the photos, into OUT/<task>-<threads>t.jsonl. A refactoring that must leave results unchanged is
# checked by running it before and after and comparing the folders byte for byte:
#   tools/checks/fixture_json.sh .build/debug/vision-tasks /tmp/before   # on the old commit
#   tools/checks/fixture_json.sh .build/debug/vision-tasks /tmp/after    # on the new one
#   diff -r /tmp/before /tmp/after
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:?usage: tools/checks/fixture_json.sh VISION_TASKS_BINARY OUT_DIR}
OUT=${2:?usage: tools/checks/fixture_json.sh VISION_TASKS_BINARY OUT_DIR}
IMAGES=Tests/Fixtures/images
mkdir -p "$OUT"
for threads in 1 2; do
    "$BIN" face-detector --model models/blaze_face_short_range.tflite --threads "$threads" "$IMAGES" \
        > "$OUT/face-detector-${threads}t.jsonl"
    "$BIN" face-landmarker --model models/face_landmarker.task --threads "$threads" --num-faces 4 \
        --output-face-blendshapes --output-facial-transformation-matrixes --output-head-poses "$IMAGES" \
        > "$OUT/face-landmarker-${threads}t.jsonl"
    "$BIN" hand-landmarker --model models/hand_landmarker.task --threads "$threads" --num-hands 4 "$IMAGES" \
        > "$OUT/hand-landmarker-${threads}t.jsonl"
    "$BIN" gesture-recognizer --model models/gesture_recognizer.task --threads "$threads" --num-hands 4 "$IMAGES" \
        > "$OUT/gesture-recognizer-${threads}t.jsonl"
    "$BIN" gesture-recognizer --model models/operations.task --threads "$threads" --num-hands 2 \
        --display-names-locale fr "$IMAGES" > "$OUT/gesture-custom-${threads}t.jsonl"
    "$BIN" pose-landmarker --model models/pose_landmarker_full.task --threads "$threads" --num-poses 2 \
        --output-segmentation-masks --output-joint-angles "$IMAGES" > "$OUT/pose-landmarker-${threads}t.jsonl"
    for model in selfie_segmenter selfie_segmentation_landscape; do
        "$BIN" image-segmenter --model "models/$model.tflite" --threads "$threads" --output-category-mask "$IMAGES" \
            > "$OUT/image-segmenter-$model-${threads}t.jsonl"
    done
done
# VIDEO mode (tracking): a 2-second pan over each of two photos, made once per run with x264 on one
# thread, at a fixed path so that the lines' "input" is the same in every run.
VIDEOS=/tmp/fixture-json-videos
mkdir -p "$VIDEOS"
for photo in astronaut.png two_thumbs_up.jpg; do
    video="$VIDEOS/${photo%.*}-pan.mp4"
    ffmpeg -loglevel error -y -loop 1 -i "$IMAGES/$photo" -t 2 -r 15 -threads 1 \
        -vf "scale=640:-2,crop=480:ih:'(iw-480)*t/2':0" -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$video"
    "$BIN" face-landmarker --model models/face_landmarker.task --num-faces 2 --output-face-blendshapes \
        --video "$video" > "$OUT/video-face-landmarker-${photo%.*}.jsonl"
    "$BIN" face-detector --model models/blaze_face_short_range.tflite --video "$video" \
        > "$OUT/video-face-detector-${photo%.*}.jsonl"
    "$BIN" gesture-recognizer --model models/gesture_recognizer.task --num-hands 2 --video "$video" \
        > "$OUT/video-gesture-recognizer-${photo%.*}.jsonl"
    "$BIN" hand-landmarker --model models/hand_landmarker.task --num-hands 2 --video "$video" \
        > "$OUT/video-hand-landmarker-${photo%.*}.jsonl"
    "$BIN" pose-landmarker --model models/pose_landmarker_full.task --num-poses 2 --output-joint-angles --video "$video" \
        > "$OUT/video-pose-landmarker-${photo%.*}.jsonl"
    "$BIN" image-segmenter --model models/selfie_segmenter.tflite --output-category-mask --video "$video" \
        > "$OUT/video-image-segmenter-${photo%.*}.jsonl"
    rm "$video"
done
echo "fixture_json: wrote $(ls "$OUT" | wc -l) files to $OUT"
