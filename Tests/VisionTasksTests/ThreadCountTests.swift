import FixtureSupport
import Foundation
import Testing
import VisionTasks

/// Work split over threads (kernels over channels or rows, the image-to-tensor warp over tensor
/// rows) and two faces or hands looked at on two threads at once (ROILanes; with three, two at once
/// and the third split) compute each value as one thread would: two threads give exactly one
/// thread's results. Tolerance: exact.
@Suite
struct ThreadCountTests {
    /// A region of a fixture photo (x, y, width, height; nil: all of it), alone (`count` 1: one
    /// face or hand, whose landmark model splits its kernels and warp over the threads) or with
    /// copies, two to a row, every second one mirrored (`count` 2, or 3 on two rows).
    private static func picture(
        _ name: String, count: Int,
        crop: (x: Int, y: Int, width: Int, height: Int)? = nil
    ) throws -> MPImage {
        let photo = try MPImage(
            contentsOfFile: Fixture.repositoryRoot.appendingPathComponent("Tests/Fixtures/images/\(name)").path
        )
        .uprightRGB()
        let region = crop ?? (0, 0, photo.width, photo.height)
        let (w, h) = (region.width, region.height)
        let source = photo.withUnsafeBufferBytes { [UInt8]($0) }
        let width = min(count, 2) * w, height = (count + 1) / 2 * h
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    let value = source[((y + region.y) * photo.width + x + region.x) * 3 + c]
                    for copy in 0..<count {
                        let row = copy / 2 * h + y, column = copy % 2 * w + (copy % 2 == 0 ? x : w - 1 - x)
                        pixels[(row * width + column) * 3 + c] = value
                    }
                }
            }
        }
        return try pixels.withUnsafeBytes {
            try MPImage(pixels: $0, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        }
    }

    @Test(arguments: [RunningMode.image, .video], [1, 2, 3])
    func faceLandmarkerGivesTheSameNumbersOnTwoThreads(mode: RunningMode, count: Int) throws {
        // The astronaut's face with a margin: whole, the photo's face is too small for the
        // short-range detector once two sit side by side.
        let image = try Self.picture("astronaut.png", count: count, crop: (125, 30, 200, 200))
        let results = try [1, 2].map { threads in
            let options = FaceLandmarkerOptions()
            options.baseOptions.modelAssetPath = Fixture.modelPath("face_landmarker.task")
            options.baseOptions.numThreads = threads
            options.runningMode = mode
            options.numFaces = count
            options.outputFaceBlendshapes = true
            let landmarker = try FaceLandmarker(options: options)
            // Video: the second frame tracks both faces from the first.
            return try mode == .image
                ? [landmarker.detect(image: image)]
                : [0, 33].map { try landmarker.detect(videoFrame: image, timestampInMilliseconds: $0) }
        }
        #expect(results[0].allSatisfy { $0.faceLandmarks.count == count })
        #expect(results[0] == results[1])
    }

    @Test(arguments: [RunningMode.image, .video], [1, 2, 3])
    func handLandmarkerGivesTheSameNumbersOnTwoThreads(mode: RunningMode, count: Int) throws {
        let image = try Self.picture("hand_thumb_up.jpg", count: count)
        let results = try [1, 2].map { threads in
            var base = BaseOptions(modelAssetPath: Fixture.modelPath("hand_landmarker.task"))
            base.numThreads = threads
            let landmarker = try HandLandmarker(
                options: HandLandmarkerOptions(baseOptions: base, runningMode: mode) {
                    $0.numHands = count
                })
            return try mode == .image
                ? [landmarker.detect(image: image)]
                : [0, 33].map { try landmarker.detect(videoFrame: image, timestampInMilliseconds: $0) }
        }
        #expect(results[0].allSatisfy { $0.landmarks.count == count })
        #expect(results[0] == results[1])
    }

    /// A task whose two faces ran on two cores, let go as the thread that used it ends (a `Thread` releases its
    /// closure, and what that holds, in the thread's teardown): the heap stays whole. With the lanes on Dispatch
    /// (`concurrentPerform` on the calling thread), about one such thread in two corrupted glibc's heap there
    /// (`tcache_thread_shutdown(): unaligned tcache chunk detected`, then an abort), which ended the test process.
    @Test func aTaskLetGoInItsThreadsTeardownAfterTwoFacesLeavesTheHeapWhole() throws {
        let image = try Self.picture("astronaut.png", count: 2, crop: (125, 30, 200, 200))
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = Fixture.modelPath("face_landmarker.task")
        options.baseOptions.numThreads = 2
        options.numFaces = 2
        let found = Found()
        let released = DispatchSemaphore(value: 0)
        for _ in 0..<12 {
            do {
                let held = Held(try FaceLandmarker(options: options), released: released)
                // Held here only to this scope's end: the thread's closure, and the landmarker in it, go last, in
                // the thread's teardown.
                Thread.detachNewThread {
                    found.add((try? held.landmarker.detect(image: image))?.faceLandmarks.count ?? 0)
                }
            }
            #expect(released.wait(timeout: .now() + 60) == .success)
        }
        #expect(found.counts == Array(repeating: 2, count: 12))
    }

    /// A landmarker handed to a thread, whose closure holds it to the thread's end; signals `released` as it goes.
    private final class Held: @unchecked Sendable {
        let landmarker: FaceLandmarker
        private let released: DispatchSemaphore
        init(_ landmarker: FaceLandmarker, released: DispatchSemaphore) {
            self.landmarker = landmarker
            self.released = released
        }
        deinit { released.signal() }
    }

    /// Faces found by each thread, in turn.
    private final class Found: @unchecked Sendable {
        private let lock = NSLock()
        private var found: [Int] = []
        func add(_ count: Int) { lock.withLock { found.append(count) } }
        var counts: [Int] { lock.withLock { found } }
    }
}
