import Foundation
import Testing
@testable import VisionTasks

/// The task catalog (`TaskDescription`): one declaration per option, which the options classes,
/// the CLI, the server and the page all read, so their defaults cannot drift apart.
@Suite struct TaskCatalogTests {
    @Test func everyTaskIsDescribedOnceWithUniqueNames() {
        #expect(TaskDescription.all.map(\.name) == ["face-detector", "face-landmarker", "hand-landmarker", "gesture-recognizer"])
        for task in TaskDescription.all {
            let names = task.options.map(\.name) + TaskDescription.baseOptions.map(\.name)
            #expect(Set(names).count == names.count, "\(task.name): \(names)")
            for name in names {
                #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name) is not kebab case")
            }
        }
    }

    /// The options classes' initializers give the declared defaults, and a front end that sets
    /// nothing (the CLI and the server start from `defaultOptions`) gets the same.
    @Test func theOptionsClassesDefaultsAreTheDeclaredOnes() throws {
        let classes: [(String, VisionTaskOptions)] = [
            ("face-detector", FaceDetectorOptions()), ("face-landmarker", FaceLandmarkerOptions()),
            ("hand-landmarker", HandLandmarkerOptions()), ("gesture-recognizer", GestureRecognizerOptions()),
        ]
        #expect(classes.count == describedTasks.count)
        for (name, options) in classes {
            let task = try #require(TaskDescription.named(name))
            #expect(!task.options.isEmpty)
            for option in task.options + TaskDescription.baseOptions {
                #expect(option.value(in: options) == option.defaultValue, "\(name) --\(option.name)")
            }
        }
        for task in describedTasks {
            try checkFrontEndDefaults(task)
        }
        #expect(ClassifierOptions().maxResults == ClassifierOptions.Declared.maxResults.defaultValue)
        #expect(ClassifierOptions().scoreThreshold == nil)
    }

    private func checkFrontEndDefaults<Task: DescribedTask>(_ task: Task.Type) throws {
        let options = try Task.options(baseOptions: BaseOptions(), runningMode: .image, values: [])
        for option in Task.taskDescription.options {
            #expect(option.value(in: options) == option.defaultValue, "\(Task.taskDescription.name) --\(option.name)")
        }
    }

    /// Only the Face Landmarker's detector option names a model file, of the Face Detector, so the
    /// server maps it to a model it offers and the page offers a choice of those.
    @Test func modelFileOptionsNameTheirTask() {
        let modelOptions = TaskDescription.all.flatMap { task in task.options.filter { $0.modelOf != nil }.map { (task.name, $0) } }
        #expect(modelOptions.map { "\($0.0) --\($0.1.name) → \($0.1.modelOf ?? "")" } == ["face-landmarker --face-detector-model → face-detector"])
        #expect(modelOptions.allSatisfy { TaskDescription.named($0.1.modelOf ?? "") != nil })
    }

    @Test func valuesAreSetFromTheirTextAndRangesChecked() throws {
        let options = try GestureRecognizer.options(
            baseOptions: BaseOptions(), runningMode: .video,
            values: [("num-hands", "2"), ("canned-gestures-allowlist", " Thumb_Up, Victory ,"),
                     ("custom-gestures-score-threshold", "0.25"), ("display-names-locale", "fr")])
        #expect(options.numHands == 2)
        #expect(options.runningMode == .video)
        #expect(options.cannedGesturesClassifierOptions?.categoryAllowlist == ["Thumb_Up", "Victory"])
        #expect(options.customGesturesClassifierOptions?.scoreThreshold == 0.25)
        #expect(options.cannedGesturesClassifierOptions?.displayNamesLocale == "fr")
        #expect(options.customGesturesClassifierOptions?.displayNamesLocale == "fr")

        #expect(throws: VisionTasksError.invalidOption(name: "num-face", reason: "is not an option of face-landmarker (known: num-faces, min-face-detection-confidence, min-face-presence-confidence, min-tracking-confidence, output-face-blendshapes, output-facial-transformation-matrixes, output-head-poses, face-detector-model)")) {
            _ = try FaceLandmarker.options(baseOptions: BaseOptions(), runningMode: .image, values: [("num-face", "2")])
        }
        #expect(throws: VisionTasksError.invalidOption(name: "num-faces", reason: "must be a whole number, got \"two\"")) {
            _ = try FaceLandmarker.options(baseOptions: BaseOptions(), runningMode: .image, values: [("num-faces", "two")])
        }
        let description = FaceLandmarkerOptions.taskDescription
        #expect(throws: VisionTasksError.invalidOption(name: "numFaces", reason: "must be at least 1, got 0")) {
            try description.validate(FaceLandmarkerOptions(numFaces: 0))
        }
        #expect(throws: VisionTasksError.invalidOption(name: "minFacePresenceConfidence", reason: "must be in [0, 1], got nan")) {
            try description.validate(FaceLandmarkerOptions(minFacePresenceConfidence: .nan))
        }
        #expect(throws: VisionTasksError.invalidOption(name: "cannedGesturesClassifierOptions.scoreThreshold", reason: "must be in [0, 1], got 1.5")) {
            try GestureRecognizerOptions.taskDescription.validate(
                GestureRecognizerOptions(cannedGesturesClassifierOptions: ClassifierOptions(scoreThreshold: 1.5)))
        }
        #expect(description.option(forProperty: "numThreads")?.name == "threads")
        #expect(GestureRecognizerOptions.taskDescription.option(forProperty: "customGesturesClassifierOptions.displayNamesLocale")?.name
                == "display-names-locale")
    }

    /// A task's declared outputs are its result JSON's fields (besides the timestamp), with every
    /// optional output there (tracking ids: video mode; head poses: when asked for).
    @Test func outputsAreTheResultFields() throws {
        let results: [(String, any Encodable)] = [
            ("face-detector", FaceDetectorResult(detections: [], trackingIds: [], timestampInMilliseconds: 0)),
            ("face-landmarker", FaceLandmarkerResult(faceLandmarks: [], faceBlendshapes: [], facialTransformationMatrixes: [],
                                                     headPoses: [], trackingIds: [], timestampInMilliseconds: 0)),
            ("hand-landmarker", HandLandmarkerResult(landmarks: [], worldLandmarks: [], handedness: [], trackingIds: [],
                                                     timestampInMilliseconds: 0)),
            ("gesture-recognizer", GestureRecognizerResult(gestures: [], handedness: [], landmarks: [], worldLandmarks: [],
                                                           trackingIds: [], timestampInMilliseconds: 0)),
        ]
        #expect(results.count == TaskDescription.all.count)
        for (name, result) in results {
            let object = try #require(try JSONSerialization.jsonObject(with: try ResultJSON.encode(result)) as? [String: Any])
            let task = try #require(TaskDescription.named(name))
            #expect(Set(object.keys).subtracting(["timestampInMilliseconds"]) == Set(task.outputs), "\(name)")
        }
    }
}
