#!/usr/bin/env bash
# The demo (`make demo`): runs every task of the vision-tasks tool on the sample photos and on a short
# video made from them with ffmpeg (pan and zoom), the Pose Landmarker with its segmentation masks; then
# trains custom gestures for a few seconds from the fixture photos (Tests/Fixtures/gestures) with one
# photo held out, and recognizes that photo with the trained model. Writes the JSON lines, annotated
# pictures, masks, annotated H.264 videos, two background effects (vision-tasks background) and the trained
# .task under demo-output/, and says where they are.
#   VISION_TASKS_BIN   the tool to run (default: the build `make test` tests, .build/debug/vision-tasks, which
#                      `make demo` builds optimised; a release build runs the same)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=demo-output
rm -rf "$out"
mkdir -p "$out"
bin=${VISION_TASKS_BIN:-$(swift build --show-bin-path)/vision-tasks}
[ -x "$bin" ] || { echo "demo: no tool at $bin (make tested-build builds it)" >&2; exit 1; }
photos=Tests/Fixtures/images

"$bin" model info models/face_landmarker.task --entry face_landmarks_detector.tflite > "$out/face_landmarks_detector.info.txt"

# Three short videos from the photos: a face, hands, a person, zooming in while panning (15 fps, 4 s).
make_video() { # photo size output
    ffmpeg -hide_banner -loglevel error -nostdin -y -framerate 15 -loop 1 -i "$1" \
        -vf "zoompan=z='1+0.005*on':x='(iw-iw/zoom)*on/60':y='(ih-ih/zoom)/2':d=1:s=$2:fps=15" \
        -frames:v 60 -c:v libx264 -pix_fmt yuv420p "$3"
}
make_video "$photos/astronaut.png" 512x512 "$out/face_video.mp4"
make_video "$photos/two_thumbs_up.jpg" 640x426 "$out/hands_video.mp4"
make_video "$photos/woman_sitting.jpg" 960x640 "$out/pose_video.mp4"

# run TASK MODEL VIDEO [task options...]: the sample photos (not the codec test pictures in the
# sub-folders) and the video, annotated. With POSE_MASKS=1, the segmentation masks too, as PNG files
# in <task>-masks/ (photos) and <task>-video-masks/ (video frames).
run() {
    local task=$1 model=$2 video=$3 start=$SECONDS
    shift 3
    local photo_masks=() video_masks=()
    if [ "${POSE_MASKS:-0}" = 1 ]; then
        photo_masks=(--output-segmentation-masks --masks "$out/$task-masks")
        video_masks=(--output-segmentation-masks --masks "$out/$task-video-masks")
    fi
    echo "demo: $task on the photos and on $video"
    "$bin" "$task" --model "$model" "$@" "${photo_masks[@]}" "$photos"/*.jpg "$photos"/*.png --annotate "$out/$task" \
        --no-progress > "$out/$task.jsonl" \
        || echo "demo: $task reported failures on the photos; see $out/$task.jsonl" >&2
    "$bin" "$task" --model "$model" "$@" "${video_masks[@]}" --video "$out/$video" --annotate "$out/$task-video.mp4" \
        --no-progress > "$out/$task-video.jsonl" \
        || echo "demo: $task reported failures on $video; see $out/$task-video.jsonl" >&2
    echo "demo: $task done in $((SECONDS - start)) s"
}
run face-detector models/blaze_face_short_range.tflite face_video.mp4
run face-landmarker models/face_landmarker.task face_video.mp4 --num-faces 2
run hand-landmarker models/hand_landmarker.task hands_video.mp4 --num-hands 2
run gesture-recognizer models/gesture_recognizer.task hands_video.mp4 --num-hands 2
POSE_MASKS=1 run pose-landmarker models/pose_landmarker_full.task pose_video.mp4
run image-segmenter models/selfie_segmenter.tflite pose_video.mp4 --output-category-mask

# Background effects on the person's video: blurred, and replaced by another photo.
start=$SECONDS
echo "demo: background (blur, then replace) on pose_video.mp4"
"$bin" background --model models/selfie_segmenter.tflite --video "$out/pose_video.mp4" --blur 12 \
    --output "$out/background-blur.mp4" > "$out/background-blur.json"
"$bin" background --model models/selfie_segmenter.tflite --video "$out/pose_video.mp4" \
    --replace "$photos/astronaut.png" --output "$out/background-replace.mp4" > "$out/background-replace.json"
echo "demo: background done in $((SECONDS - start)) s"

# Custom gestures: every fixture photo but one (the held-out photo, last of its label by name) trains a
# classifier into a new gesture_recognizer.task; that model then recognizes the held-out photo with the
# custom gestures only (the canned ones hidden).
start=$SECONDS
gestures=Tests/Fixtures/gestures
held_label=two
held_out=$(find "$gestures/$held_label" -name '*.jpg' | sort | tail -n 1)
data=$out/training-data
for folder in "$gestures"/*/; do
    label=$(basename "$folder")
    mkdir -p "$data/$label"
    for photo in "$folder"*.jpg; do
        [ "$photo" = "$held_out" ] || ln -s "$PWD/$photo" "$data/$label/"
    done
done
echo "demo: train-gestures on $(find "$data" -name '*.jpg' | wc -l) photos of $gestures (labels:" \
    "$(cd "$data" && echo *)), holding out $held_out"
"$bin" train-gestures "$data" --model models/gesture_recognizer.task --output "$out/custom_gestures.task" \
    --report "$out/training-report.json" --no-progress > "$out/training-report.txt"
"$bin" gesture-recognizer --model "$out/custom_gestures.task" --canned-gestures-allowlist None --no-progress \
    "$held_out" > "$out/custom-gestures-held-out.jsonl"
recognized=$(python3 -c '
import json, sys
line = json.loads(open(sys.argv[1]).readline())
gestures = [hand[0]["categoryName"] + " (score %.2f)" % hand[0]["score"]
            for hand in line.get("result", {}).get("gestures", []) if hand]
print(", ".join(gestures) or "no gesture (" + line.get("error", "no hand found") + ")")
' "$out/custom-gestures-held-out.jsonl")
echo "demo: the trained model recognizes the held-out photo $held_out (label $held_label) as: $recognized"
echo "demo: training and recognition done in $((SECONDS - start)) s"

echo
echo "demo: wrote $out/:"
echo "  <task>.jsonl                results on the photos, one JSON line per photo"
echo "  <task>/                     the photos with the results drawn"
echo "  <task>-video.jsonl          results on the video, one JSON line per frame"
echo "  <task>-video.mp4            the video with the results drawn (H.264)"
echo "  pose-landmarker-masks/      the Pose Landmarker's segmentation masks on the photos (8-bit PNG)"
echo "  pose-landmarker-video-masks/  its masks on each frame of pose_video.mp4"
echo "  image-segmenter/            the person tinted over each photo (its masks are base64 PNGs in the JSON)"
echo "  background-{blur,replace}.mp4  pose_video.mp4 with its background blurred, and replaced by a photo"
echo "  *_video.mp4                 the videos the tasks ran on"
echo "  training-data/              the training photos (links), training-report.txt and .json its report"
echo "  custom_gestures.task        the trained Gesture Recognizer (MediaPipe loads it too)"
echo "  custom-gestures-held-out.jsonl  what it recognizes on the held-out photo"
ls "$out"
echo
echo "demo: to see the tasks live in a browser (camera and library views), start the server:"
echo "  $bin serve --models models    # then open http://127.0.0.1:8080/"
