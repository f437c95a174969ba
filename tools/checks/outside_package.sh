#!/usr/bin/env bash
# Builds and runs a package outside the repository that depends on VisionTasks by path, in Swift 6
# mode (issue 13, "What must show"): an iOS-style NSObject delegate class, an AsyncSequence
# live-stream loop over a video read with VideoIO, and an NV12 frame. `make test` runs it.
# The package lives in $OUTSIDE_DIR (default /tmp/visiontasks-outside-package), kept between runs
# so a second run only relinks; its first debug build compiles VisionTasks' modules again.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${OUTSIDE_DIR:-/tmp/visiontasks-outside-package}
swift=${SWIFT:-swift}
mkdir -p "$dir/Sources/OutsideApp" "$dir/media"

cat > "$dir/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OutsideApp",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "OutsideApp", dependencies: [
            .product(name: "VisionTasks", package: "$(basename "$root")"),
            .product(name: "VideoIO", package: "$(basename "$root")"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT

cat > "$dir/Sources/OutsideApp/main.swift" <<'SWIFT'
import Foundation
import VideoIO
import VisionTasks

/// An iOS-style delegate: a non-final NSObject subclass with plain mutable state.
class FaceResultProcessor: NSObject, FaceDetectorLiveStreamDelegate {
    var timestamps: [Int] = []

    func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
                      timestampInMilliseconds: Int, error: Error?) {
        timestamps.append(timestampInMilliseconds)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 6, let width = Int(arguments[4]), let height = Int(arguments[5]) else {
    print("usage: OutsideApp MODEL VIDEO NV12FILE WIDTH HEIGHT")
    exit(64)
}
let (model, clip, nv12Path) = (arguments[1], arguments[2], arguments[3])

// 1. The delegate class receives live-stream results.
let processor = FaceResultProcessor()
let delegateOptions = FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: model), runningMode: .liveStream)
delegateOptions.faceDetectorLiveStreamDelegate = processor
let delegateDetector = try FaceDetector(options: delegateOptions)
let firstFrame = try VideoReader(contentsOfFile: clip).nextFrame()
if let firstFrame {
    try delegateDetector.detectAsync(image: try firstFrame.image(), timestampInMilliseconds: firstFrame.timestampInMilliseconds)
}
delegateDetector.waitUntilIdle()
print("delegate: \(processor.timestamps.count) result(s)")

// 2. An AsyncSequence live loop over a video read with VideoIO.
let results = LiveStreamResults<FaceDetectorResult>()
let liveOptions = FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: model), runningMode: .liveStream)
liveOptions.faceDetectorLiveStreamDelegate = results
let live = try FaceDetector(options: liveOptions)
let consumer = Task { () -> (count: Int, ordered: Bool, faces: Int) in
    var count = 0, last = Int.min, ordered = true, faces = 0
    for await item in results {
        ordered = ordered && item.timestampInMilliseconds > last
        last = item.timestampInMilliseconds
        faces += (try? item.get().detections.count) ?? 0
        count += 1
    }
    return (count, ordered, faces)
}
let reader = try VideoReader(contentsOfFile: clip)
var sent = 0
while let frame = try reader.nextFrame() {
    try live.detectAsync(image: try frame.image(), timestampInMilliseconds: frame.timestampInMilliseconds)
    sent += 1
}
live.waitUntilIdle()
results.finish()
let summary = await consumer.value
let dropped = live.droppedFrameCount + live.droppedResultCount + results.droppedResultCount
print("async sequence: \(sent) sent, \(summary.count) delivered, \(dropped) dropped, in order: \(summary.ordered), accounted: \(summary.count + dropped == sent), faces: \(summary.faces > 0)")

// 3. An NV12 frame, as a camera hands it out.
let nv12 = try Data(contentsOf: URL(fileURLWithPath: nv12Path))
let still = try FaceDetector(modelPath: model)
let faces = try still.detect(image: try MPImage(pixels: nv12, width: width, height: height, format: .nv12)).detections.count
print("nv12: \(faces) face(s)")
SWIFT

image="$root/Tests/Fixtures/images/astronaut.png"
ffmpeg -hide_banner -loglevel error -nostdin -y -framerate 15 -loop 1 -i "$image" -frames:v 15 \
    -vf scale=256:256 -c:v libx264 -pix_fmt yuv420p "$dir/media/clip.mp4"
ffmpeg -hide_banner -loglevel error -nostdin -y -i "$image" -vf scale=256:256,format=nv12 -f rawvideo "$dir/media/frame.nv12"

start=$(date +%s)
(cd "$dir" && "$swift" build)
echo "outside package: built in $(( $(date +%s) - start )) s"
output=$("$dir/.build/debug/OutsideApp" "$root/models/blaze_face_short_range.tflite" "$dir/media/clip.mp4" \
         "$dir/media/frame.nv12" 256 256)
echo "$output"
grep -qx "delegate: 1 result(s)" <<<"$output"
grep -q "^async sequence: 15 sent, .* in order: true, accounted: true, faces: true$" <<<"$output"
grep -qx "nv12: 1 face(s)" <<<"$output"
echo "outside package: ok"
