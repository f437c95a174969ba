import Foundation
import VisionTasks

// Runs each guide's snippets: `ios-guide-snippets [MODELS_DIR] [FACE_IMAGE] [HAND_IMAGE] [BODY_IMAGE]`.
let arguments = CommandLine.arguments.dropFirst()
let models = arguments.first ?? "models"
let faceImage = arguments.dropFirst().first ?? "Tests/Fixtures/images/astronaut.png"
let handImage = arguments.dropFirst(2).first ?? "Tests/Fixtures/images/hand_thumb_up.jpg"
let bodyImage = arguments.dropFirst(3).first ?? "Tests/Fixtures/images/woman_sitting.jpg"
do {
    print(try FaceDetectorGuide.run(models: models, imagePath: faceImage))
    print(try FaceLandmarkerGuide.run(models: models, imagePath: faceImage))
    print(try HandLandmarkerGuide.run(models: models, imagePath: handImage))
    print(try GestureRecognizerGuide.run(models: models, imagePath: handImage))
    print(try PoseLandmarkerGuide.run(models: models, imagePath: bodyImage))
    print(try ImageSegmenterGuide.run(models: models, imagePath: bodyImage))
} catch {
    let ns = error as NSError
    FileHandle.standardError.write(Data("error: \(error) (\(ns.domain) \(ns.code))\n".utf8))
    exit(1)
}
