import Foundation
import Testing

@testable import VisionTasks

/// The task catalog (`TaskDescription`): one declaration per option, which the options classes,
/// the CLI, the server and the page all read, so their defaults cannot drift apart.
@Suite struct TaskCatalogTests {
    @Test func everyTaskIsDescribedOnceWithUniqueNames() {
        #expect(
            TaskDescription.all.map(\.name) == [
                "face-detector", "face-landmarker", "hand-landmarker", "gesture-recognizer",
                "pose-landmarker", "image-segmenter",
            ])
        for task in TaskDescription.all {
            let names = task.options.map(\.name) + TaskDescription.baseOptions.map(\.name)
            #expect(Set(names).count == names.count, "\(task.name): \(names)")
            for name in names {
                #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name) is not kebab case")
            }
        }
    }

    /// The options classes' initializers give the declared defaults, and a front end that sets
    /// nothing (the CLI and the server start from `init(baseOptions:runningMode:)`) gets the same.
    @Test func theOptionsClassesDefaultsAreTheDeclaredOnes() throws {
        let classes: [(String, VisionTaskOptions)] = [
            ("face-detector", FaceDetectorOptions()), ("face-landmarker", FaceLandmarkerOptions()),
            ("hand-landmarker", HandLandmarkerOptions()), ("gesture-recognizer", GestureRecognizerOptions()),
            ("pose-landmarker", PoseLandmarkerOptions()), ("image-segmenter", ImageSegmenterOptions()),
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

    /// Every option's `property` (camel case of its name unless given), which errors name, is the
    /// stored property the option sets (those held in a classifier's options aside) (seen by reflection: the one stored value that changes), and
    /// each task's live-stream delegate is set at the property errors name.
    @Test func optionsNameThePropertiesTheySet() throws {
        for task in describedTasks {
            try checkProperties(task)
        }
    }

    private func checkProperties<Task: DescribedTask>(_ task: Task.Type) throws {
        let description = Task.taskDescription
        var checked = 0
        for option in description.options + TaskDescription.baseOptions where !option.property.contains(".") {
            let options = try Task.options(baseOptions: BaseOptions(), runningMode: .image, values: [])
            let before = Self.storedValues(options)
            try option.apply(text: Self.otherValue(option), to: options)
            let changed = Self.storedValues(options).filter { before[$0.key] != $0.value }.map(\.key)
            #expect(
                changed.map { $0.split(separator: ".").last.map(String.init) } == [option.property],
                "\(description.name) --\(option.name) set \(changed), not \(option.property)")
            checked += 1
        }
        #expect(checked >= 5, "\(description.name): \(checked) options checked")
        let options = try Task.options(baseOptions: BaseOptions(), runningMode: .liveStream, values: [])
        let before = Self.storedValues(options)
        let handler = LiveStreamHandler<Task.TaskResult> { _ in }
        Task.setLiveStreamHandler(handler, of: options)
        let changed = Self.storedValues(options).filter { before[$0.key] != $0.value }.map(\.key)
        #expect(changed == [type(of: Task.liveStream).property], "\(description.name): \(changed)")
    }

    /// A well-formed value of `option` other than its default.
    private static func otherValue(_ option: TaskOption) -> String {
        switch option.type {
        case .int: return "3"
        case .float: return "0.25"
        case .bool: return option.defaultValue == .bool(true) ? "false" : "true"
        case .string, .list: return "other"
        }
    }

    /// Every stored property of `object` and of the structs it holds, by path (`baseOptions.numThreads`).
    private static func storedValues(_ object: Any) -> [String: String] {
        var values: [String: String] = [:]
        func walk(_ mirror: Mirror?, _ prefix: String) {
            guard let mirror else { return }
            for child in mirror.children {
                let path = prefix + (child.label ?? "?")
                let inner = Mirror(reflecting: child.value)
                if inner.displayStyle == .struct && !inner.children.isEmpty {
                    walk(inner, path + ".")
                } else {
                    values[path] = String(describing: child.value)
                }
            }
            walk(mirror.superclassMirror, prefix)
        }
        walk(Mirror(reflecting: object), "")
        return values
    }

    /// Only the Face Landmarker's detector option names a model file, of the Face Detector, so the
    /// server maps it to a model it offers and the page offers a choice of those.
    @Test func modelFileOptionsNameTheirTask() {
        let modelOptions = TaskDescription.all.flatMap { task in
            task.options.filter { $0.modelOf != nil }.map { (task.name, $0) }
        }
        #expect(
            modelOptions.map { "\($0.0) --\($0.1.name) → \($0.1.modelOf ?? "")" } == [
                "face-landmarker --face-detector-model → face-detector"
            ])
        #expect(modelOptions.allSatisfy { TaskDescription.named($0.1.modelOf ?? "") != nil })
    }

    @Test func valuesAreSetFromTheirTextAndRangesChecked() throws {
        let options = try GestureRecognizer.options(
            baseOptions: BaseOptions(), runningMode: .video,
            values: [
                ("num-hands", "2"), ("canned-gestures-allowlist", " Thumb_Up, Victory ,"),
                ("custom-gestures-score-threshold", "0.25"), ("display-names-locale", "fr"),
            ])
        #expect(options.numHands == 2)
        #expect(options.runningMode == .video)
        #expect(options.cannedGesturesClassifierOptions?.categoryAllowlist == ["Thumb_Up", "Victory"])
        #expect(options.customGesturesClassifierOptions?.scoreThreshold == 0.25)
        #expect(options.cannedGesturesClassifierOptions?.displayNamesLocale == "fr")
        #expect(options.customGesturesClassifierOptions?.displayNamesLocale == "fr")

        #expect(
            throws: VisionTasksError.invalidOption(
                name: "num-face",
                reason:
                    "is not an option of face-landmarker (known: num-faces, min-face-detection-confidence, min-face-presence-confidence, min-tracking-confidence, output-face-blendshapes, output-facial-transformation-matrixes, output-head-poses, face-detector-model)"
            )
        ) {
            _ = try FaceLandmarker.options(baseOptions: BaseOptions(), runningMode: .image, values: [("num-face", "2")])
        }
        #expect(
            throws: VisionTasksError.invalidOption(name: "num-faces", reason: "must be a whole number, got \"two\"")
        ) {
            _ = try FaceLandmarker.options(
                baseOptions: BaseOptions(), runningMode: .image, values: [("num-faces", "two")])
        }
        let description = FaceLandmarkerOptions.taskDescription
        #expect(throws: VisionTasksError.invalidOption(name: "numFaces", reason: "must be at least 1, got 0")) {
            try description.validate(
                FaceLandmarkerOptions {
                    $0.numFaces = 0
                })
        }
        #expect(
            throws: VisionTasksError.invalidOption(
                name: "minFacePresenceConfidence", reason: "must be in [0, 1], got nan")
        ) {
            try description.validate(
                FaceLandmarkerOptions {
                    $0.minFacePresenceConfidence = .nan
                })
        }
        #expect(
            throws: VisionTasksError.invalidOption(
                name: "cannedGesturesClassifierOptions.scoreThreshold", reason: "must be in [0, 1], got 1.5")
        ) {
            try GestureRecognizerOptions.taskDescription.validate(
                GestureRecognizerOptions {
                    $0.cannedGesturesClassifierOptions = ClassifierOptions(scoreThreshold: 1.5)
                })
        }
        #expect(description.option(forProperty: "numThreads")?.name == "threads")
        #expect(
            GestureRecognizerOptions.taskDescription.option(
                forProperty: "customGesturesClassifierOptions.displayNamesLocale")?.name
                == "display-names-locale")
    }

    /// A task's declared outputs are its result JSON's fields (besides the timestamp), with every
    /// optional output there (tracking ids: video mode; head poses, masks, joint angles: when asked for;
    /// the segmenter's confidence and category masks).
    @Test func outputsAreTheResultFields() throws {
        let results: [(String, any Encodable)] = [
            ("face-detector", FaceDetectorResult(detections: [], trackingIds: [], timestampInMilliseconds: 0)),
            (
                "face-landmarker",
                FaceLandmarkerResult(
                    faceLandmarks: [], faceBlendshapes: [], facialTransformationMatrixes: [],
                    headPoses: [], trackingIds: [], timestampInMilliseconds: 0)
            ),
            (
                "hand-landmarker",
                HandLandmarkerResult(
                    landmarks: [], worldLandmarks: [], handedness: [], trackingIds: [],
                    timestampInMilliseconds: 0)
            ),
            (
                "gesture-recognizer",
                GestureRecognizerResult(
                    gestures: [], handedness: [], landmarks: [], worldLandmarks: [],
                    trackingIds: [], timestampInMilliseconds: 0)
            ),
            (
                "pose-landmarker",
                PoseLandmarkerResult(
                    landmarks: [], worldLandmarks: [], segmentationMasks: [], jointAngles: [],
                    trackingIds: [], timestampInMilliseconds: 0)
            ),
            (
                "image-segmenter",
                ImageSegmenterResult(
                    confidenceMasks: [], categoryMask: try Mask(width: 1, height: 1, uint8Data: [0]),
                    qualityScores: [1], timestampInMilliseconds: 0)
            ),
        ]
        #expect(results.count == TaskDescription.all.count)
        for (name, result) in results {
            let object = try #require(
                try JSONSerialization.jsonObject(with: try ResultJSON.encode(result)) as? [String: Any])
            let task = try #require(TaskDescription.named(name))
            #expect(Set(object.keys).subtracting(["timestampInMilliseconds"]) == Set(task.outputs), "\(name)")
        }
    }
}
