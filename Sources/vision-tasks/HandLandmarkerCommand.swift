import ArgumentParser
import Foundation
import VisionTasks

/// Options shared by the hand subcommands (the iOS option names in kebab case).
struct HandOptions: ParsableArguments {
    @Option(help: "The most hands to find (at least 1).")
    var numHands: Int = 1

    @Option(help: "Palms scoring below this are not hands (0...1).")
    var minHandDetectionConfidence: Float = 0.5

    @Option(help: "Hands whose presence score is not above this are dropped (0...1).")
    var minHandPresenceConfidence: Float = 0.5

    @Option(help: "IoU above which a new hand is a tracked one (video and live stream; 0...1).")
    var minTrackingConfidence: Float = 0.5

    @Option(help: "Inference threads.")
    var threads: Int = BaseOptions.defaultNumThreads
}

/// `vision-tasks hand-landmarker`: MediaPipe's Hand Landmarker on image files, one JSON line per image.
struct HandLandmarkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hand-landmarker",
        abstract: "Find hands (21 landmarks, world landmarks, handedness) and print one JSON line per image.")

    @Option(help: "The hand landmarker bundle: hand_landmarker.task.")
    var model: String

    @OptionGroup var hands: HandOptions

    @Argument(help: "Image files (JPEG or PNG).")
    var images: [String]

    func run() throws {
        let options = HandLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: model, numThreads: hands.threads), numHands: hands.numHands,
            minHandDetectionConfidence: hands.minHandDetectionConfidence,
            minHandPresenceConfidence: hands.minHandPresenceConfidence, minTrackingConfidence: hands.minTrackingConfidence)
        let landmarker: HandLandmarker
        do {
            landmarker = try HandLandmarker(options: options)
        } catch {
            throw ValidationError(JSONLines.message(error))
        }
        let output = JSONLines()
        for path in images {
            output.process(input: path) { try landmarker.detect(image: try MPImage(contentsOfFile: path)) }
        }
        if output.anyFailed { throw ExitCode(1) }
    }
}
