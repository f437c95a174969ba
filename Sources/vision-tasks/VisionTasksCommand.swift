import ArgumentParser

/// The `vision-tasks` command-line tool: MediaPipe's vision tasks on images, videos and live sources.
@main
struct VisionTasksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vision-tasks",
        abstract: "Face detection, face landmarks and hand gestures, as MediaPipe computes them.",
        subcommands: [ModelCommand.self, FaceDetectorCommand.self, FaceLandmarkerCommand.self,
                      HandLandmarkerCommand.self, GestureRecognizerCommand.self]
    )
}
