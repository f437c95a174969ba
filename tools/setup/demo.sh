#!/usr/bin/env bash
# The demo: runs every task of the vision-tasks tool on the sample photos and on a short video
# made from them with ffmpeg (pan and zoom), writing the JSON lines, annotated pictures and
# annotated H.264 videos under demo-output/, and says where they are.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=demo-output
rm -rf "$out"
mkdir -p "$out"
bin=$(swift build -c release --show-bin-path)/vision-tasks
photos=Tests/Fixtures/images

"$bin" model info models/face_landmarker.task --entry face_landmarks_detector.tflite > "$out/face_landmarks_detector.info.txt"

# Two short videos from the photos: a face and hands, zooming in while panning (15 fps, 4 s).
make_video() { # photo size output
    ffmpeg -hide_banner -loglevel error -nostdin -y -framerate 15 -loop 1 -i "$1" \
        -vf "zoompan=z='1+0.005*on':x='(iw-iw/zoom)*on/60':y='(ih-ih/zoom)/2':d=1:s=$2:fps=15" \
        -frames:v 60 -c:v libx264 -pix_fmt yuv420p "$3"
}
make_video "$photos/astronaut.png" 512x512 "$out/face_video.mp4"
make_video "$photos/two_thumbs_up.jpg" 640x426 "$out/hands_video.mp4"

# run TASK MODEL VIDEO [task options...]: the sample photos (not the codec test pictures in the
# sub-folders) and the video, annotated.
run() {
    local task=$1 model=$2 video=$3
    shift 3
    echo "demo: $task on the photos and on $video"
    "$bin" "$task" --model "$model" "$@" "$photos"/*.jpg "$photos"/*.png --annotate "$out/$task" --no-progress > "$out/$task.jsonl" \
        || echo "demo: $task reported failures on the photos; see $out/$task.jsonl" >&2
    "$bin" "$task" --model "$model" "$@" --video "$out/$video" --annotate "$out/$task-video.mp4" --no-progress \
        > "$out/$task-video.jsonl" || echo "demo: $task reported failures on $video; see $out/$task-video.jsonl" >&2
}
run face-detector models/blaze_face_short_range.tflite face_video.mp4
run face-landmarker models/face_landmarker.task face_video.mp4 --num-faces 2
run hand-landmarker models/hand_landmarker.task hands_video.mp4 --num-hands 2
run gesture-recognizer models/gesture_recognizer.task hands_video.mp4 --num-hands 2

echo "demo: wrote $out/:"
echo "  <task>.jsonl            results on the photos, one JSON line per photo"
echo "  <task>/                 the photos with the results drawn"
echo "  <task>-video.jsonl      results on the video, one JSON line per frame"
echo "  <task>-video.mp4        the video with the results drawn (H.264)"
ls "$out"
echo
echo "demo: to see the tasks live in a browser (camera and library views), start the server:"
echo "  $bin serve --models models    # then open http://127.0.0.1:8080/"
