// image-bench: times VisionCore's image steps on one photo (decode, letterbox, rotated crops) and
// prints median milliseconds, each step with the photo in cache and with it evicted (as after a
// model run, which leaves it in memory). Usage: image-bench IMAGE [RUNS]   (build with -c release)
import Foundation
import VisionCore

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: image-bench IMAGE [RUNS]\n".utf8))
    exit(2)
}
let path = arguments[1]
let runs = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 50) : 50

/// The median time of `body` over `runs` runs, `before` run untimed ahead of each.
func median(before: () -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        before()
        times.append(try Timing.milliseconds(body))
    }
    return Timing.median(times)
}

do {
    let image = try MPImage(contentsOfFile: path)
    print("image \(path): \(image.width)x\(image.height) \(image.bufferFormat)")
    print(String(format: "decode file: %.3f ms", try median { _ = try MPImage(contentsOfFile: path) }))
    let cases: [(String, Int, Bool, BorderMode, NormalizedRect?)] = [
        ("letterbox 128x128 (face detector)", 128, true, .zero, nil),
        ("letterbox 192x192 (palm detector)", 192, true, .zero, nil),
        (
            "rotated crop 256x256 (face landmarks)", 256, false, .replicate,
            NormalizedRect(xCenter: 0.5, yCenter: 0.4, width: 0.3, height: 0.45, rotation: 0.3)
        ),
        (
            "rotated crop 224x224 (hand landmarks)", 224, false, .replicate,
            NormalizedRect(xCenter: 0.3, yCenter: 0.6, width: 0.25, height: 0.37, rotation: -1.2)
        ),
        (
            "rotated crop 224x224 past the edges (tracked hand)", 224, false, .replicate,
            NormalizedRect(xCenter: 0.39, yCenter: 0.49, width: 1.14, height: 0.97, rotation: 0.94)
        ),
    ]
    // Writing one byte per line of 64 MiB (more than the last-level cache) evicts the photo.
    var junk = [UInt8](repeating: 1, count: 64 << 20)
    let evict = { for i in stride(from: 0, to: junk.count, by: 64) { junk[i] &+= 1 } }
    for (name, size, keep, border, roi) in cases {
        let options = try ImageToTensorOptions(
            outputWidth: size, outputHeight: size, keepAspectRatio: keep,
            outputRange: -1...1, borderMode: border)
        var tensor = [Float](repeating: 0, count: options.elementCount)
        let (warm, cold) = try tensor.withUnsafeMutableBufferPointer { buffer in
            let convert = { _ = try ImageToTensor.convert(image, roi: roi, options: options, into: buffer) }
            return (try median(convert), try median(before: evict, convert))
        }
        print(String(format: "%@: %.3f ms, %.3f ms evicted", name, warm, cold))
    }
} catch {
    FileHandle.standardError.write(Data("image-bench: \(error)\n".utf8))
    exit(1)
}
