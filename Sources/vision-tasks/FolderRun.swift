import Foundation
import VisionCore
import VisionRender
import VisionTasks

/// Image mode over image files and folders (each folder's JPEG/PNG files, sub-folders included,
/// sorted by path) or a manifest's lines, on `--jobs` task instances in parallel (by default one per
/// core, the cores shared among them); lines come out in input order, a progress bar and a summary
/// go to stderr. Memory: the instances' models, at most one decoded image per instance, and at most
/// 4 × jobs results waiting behind the line printed next.
enum FolderRun {
    /// One image to process: its path as printed, and where its annotation goes relative to the
    /// `--annotate` folder. `problem`: why it is an error line without being read (a folder given as input that
    /// holds no image, a file whose name is not UTF-8).
    struct Input: Equatable {
        let path: String
        /// Its standardized absolute path (the same string as `path` when they are equal: a list of a million
        /// paths holds each once).
        let absolute: String
        /// How many leading components of `absolute` every input shares.
        var sharedComponents = 0
        var problem: String? = nil

        /// Its path below the deepest folder holding every input, made when asked (only annotations and masks ask).
        var relativePath: String {
            FolderRun.components(absolute).dropFirst(sharedComponents).joined(separator: "/")
        }
    }

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png"]

    /// The image files of the inputs: files as given, folders walked (hidden entries skipped) to
    /// their images sorted by path (a folder without images stays, with its `problem`). Each file's `relativePath` is
    /// its path below the deepest folder holding every input (a single folder input: the path inside it), so
    /// distinct files never share one.
    /// `problems`: why the input at an index cannot be read (a list line that is not UTF-8): it is kept with it,
    /// whatever a file of its shown name is. Each folder is walked once over all the inputs: a folder given is walked
    /// as its own input (not also inside another, by descent or a link), and one given twice once.
    static func expand(_ inputs: [String], problems: [Int: String] = [:]) throws -> [Input] {
        // Each input keeps its absolute path as one string (the input's own when they are equal), and the folders'
        // common prefix is kept as it shrinks: a list of 200,000 paths (13 MB) took 66 MB here, as components.
        var found: [Input] = []
        var common: [Substring]?
        func join(_ root: ArraySlice<Substring>) {
            common = common.map { Array(zip($0, root).prefix { $0 == $1 }.map(\.0)) } ?? Array(root)
        }
        let given: Set<FileIdentity> = Set(
            inputs.indices.compactMap { problems[$0] == nil ? FileIdentity(folder: inputs[$0]) : nil })
        var walked: Set<FileIdentity> = []
        for (index, input) in inputs.enumerated() {
            let standardized = URL(fileURLWithPath: input).standardizedFileURL.path
            let absolute = standardized == input ? input : standardized
            if let problem = problems[index] {
                join(Self.components(absolute).dropLast())
                found.append(Input(path: input, absolute: absolute, problem: "\(input) \(problem)"))
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                if let identity = FileIdentity(path: input), walked.contains(identity) { continue } // given before
                join(Self.components(absolute)[...])
                let images = try imagePaths(in: input, walked: &walked, skipping: given)
                if images.isEmpty {
                    found.append(
                        Input(
                            path: input, absolute: absolute, problem: "\(input) is a folder without JPEG or PNG images")
                    )
                }
                for (sub, problem) in images {
                    let path = (input as NSString).appendingPathComponent(sub)
                    found.append(
                        Input(
                            path: path, absolute: absolute == "/" ? "/" + sub : absolute + "/" + sub,
                            problem: problem.map { "\(path) \($0)" }))
                }
            } else {
                join(Self.components(absolute).dropLast())
                found.append(Input(path: input, absolute: absolute))
            }
        }
        let shared = common?.count ?? 0
        for index in found.indices { found[index].sharedComponents = shared }
        return found
    }

    /// A standardized absolute path's components, as `URL.pathComponents` gives them: "/" first, then each name.
    static func components(_ absolutePath: String) -> [Substring] {
        ["/"] + absolutePath.split(separator: "/")
    }

    /// The JPEG/PNG files below `folder` as paths relative to it, sorted, each with the problem that keeps it from
    /// being read (nil for most). Hidden files and folders are skipped; links are followed, but a folder in `walked`
    /// is not walked again (a link back to a folder above would make the walk endless), nor is one below `folder` in
    /// `skipping` (another input's); each folder walked joins `walked`. Kept with their problem, not skipped unseen
    /// or ending the run: an entry whose name is not UTF-8 (it cannot be named), an image name whose link leads
    /// nowhere (missing, a loop), and a folder that cannot be listed ("" for `folder` itself).
    static func imagePaths(
        in folder: String, walked: inout Set<FileIdentity>, skipping: Set<FileIdentity> = []
    ) throws -> [(path: String, problem: String?)] {
        var paths: [(path: String, problem: String?)] = []
        var pending = [""]
        var info = stat()
        while let sub = pending.popLast() {
            let directory = sub.isEmpty ? folder : (folder as NSString).appendingPathComponent(sub)
            guard let identity = FileIdentity(path: directory), sub.isEmpty || !skipping.contains(identity),
                walked.insert(identity).inserted
            else { continue }
            let listing = entries(of: directory)
            if let failure = listing.failure {
                paths.append((sub, "is a folder that cannot be listed (\(failure))"))
            }
            // Depth first in name order, whatever order the folder lists its entries in: a folder two links lead to
            // is walked, and its images named, through the first link by name (it was the first readdir gave, so
            // two copies of one tree named them differently, and a resume after the folder changed redid them).
            var folders: [String] = []
            // By bytes: two names of one text in two Unicode forms (composed, decomposed) are equal to String's `<`.
            let byName = listing.names.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            for (name, isUTF8) in byName where !name.hasPrefix(".") {
                let relative = sub.isEmpty ? name : sub + "/" + name
                guard isUTF8 else {
                    paths.append(
                        (
                            relative,
                            "has a name that is not UTF-8 (its other bytes shown as \\xHH); rename it to read it"
                        ))
                    continue
                }
                let full = (folder as NSString).appendingPathComponent(relative)
                guard stat(full, &info) == 0 else {
                    let reason = String(cString: strerror(errno))
                    if imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                        let isLink = lstat(full, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
                        paths.append(
                            (
                                relative,
                                isLink ? "is a link that leads nowhere (\(reason))" : "cannot be read (\(reason))"
                            ))
                    }
                    continue
                }
                if info.st_mode & S_IFMT == S_IFDIR {
                    folders.append(relative)
                } else if imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                    paths.append((relative, nil))
                }
            }
            pending += folders.reversed()
        }
        return paths.sorted { $0.path < $1.path }
    }

    /// The names in `directory`, each with whether its bytes are UTF-8 (else shown as `Manifest.escaped` shows them:
    /// two such names stay apart), and why listing it failed, if it did (the names read before then are kept).
    private static func entries(of directory: String) -> (names: [(name: String, isUTF8: Bool)], failure: String?) {
        guard let stream = opendir(directory) else { return ([], String(cString: strerror(errno))) }
        defer { closedir(stream) }
        var names: [(String, Bool)] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                return (names, errno == 0 ? nil : String(cString: strerror(errno)))
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes != Array(".".utf8), bytes != Array("..".utf8) else { continue }
            let name = String(validating: bytes, as: UTF8.self)
            names.append((name ?? Manifest.escaped(bytes), name != nil))
        }
    }

    /// Where the annotated picture of `input` goes: `annotate` itself for a single image given
    /// with an image extension, else its relative path inside the folder `annotate` (".png" added
    /// when the input is not a PNG or JPEG).
    static func annotationPath(for input: Input, annotate: String, single: Bool) -> String {
        if single, imageExtensions.contains((annotate as NSString).pathExtension.lowercased()) { return annotate }
        let keep = imageExtensions.contains((input.relativePath as NSString).pathExtension.lowercased())
        return (annotate as NSString).appendingPathComponent(keep ? input.relativePath : input.relativePath + ".png")
    }

    /// Processes `inputs` (paths as given: files or folders) in image mode, keeping `shard`'s share
    /// and leaving out those `output`'s file already finished; returns false if any input failed.
    static func run<Task: DescribedTask>(
        _ inputs: [String], problems: [Int: String] = [:], options: MediaOptions, shard: Shard?, output: JSONLines,
        factory: MediaTaskFactory<Task>
    ) throws -> Bool {
        let expanded = try expand(inputs, problems: problems)
        let single = inputs.count == 1 && expanded.count == 1 && expanded[0].path == inputs[0]
        let mine = shard.map { shard in expanded.filter { shard.contains($0.path) } } ?? expanded
        // One that cannot be read by its name is left out only when the file holds an error line of that name: a
        // finished success of the shown name is another file's (a list line's bytes shown as \xHH are a real name too).
        let files = mine.filter { !output.sink.isFinished($0.path, unreadable: $0.problem != nil) }
        let failedEarlier = mine.filter { output.sink.failedBefore($0.path, unreadable: $0.problem != nil) }.count
        // From every input, not only this shard's: each shard names a mask as the others would.
        let maskStems = options.masks == nil ? [:] : MaskFiles.stems(of: expanded.map(\.relativePath))
        let skipped = mine.count - files.count
        // An annotation or a mask that would land on an input would replace the photo.
        let inputs = OutputFiles.InputFiles(options.annotate == nil && options.masks == nil ? [] : expanded.map(\.path))
        if let annotate = options.annotate {
            for file in files where file.problem == nil {
                try OutputFiles.checkNotAnInput(
                    annotationPath(for: file, annotate: annotate, single: single), option: "--annotate", inputs: inputs)
            }
            let folders = Set(
                files.filter { $0.problem == nil }.map {
                    (annotationPath(for: $0, annotate: annotate, single: single) as NSString).deletingLastPathComponent
                })
            try folders.sorted().forEach(createFolder)
        }
        let plan = options.jobs.plan(
            images: files.count, cores: ProcessInfo.processInfo.activeProcessorCount,
            threadsGiven: factory.threadsGiven)
        let workers = plan.jobs
        let tasks = try makeInParallel(workers) { try factory.make(.image, nil, threadsAtMost: plan.threadsAtMost) }
        ProcessMemory.trimHeap() // loading's buffers (model files, unpacked weights) before the pictures come
        let board = Board<Processed>(count: files.count, window: 4 * workers)
        let renderer = output.renderer
        let started = Date()
        var threads: [PipelineThread] = []
        for task in tasks {
            let worker = Worker(task: task)
            threads += [
                PipelineThread(name: "image-worker") {
                    while let i = board.claim() {
                        let path = files[i].path
                        var found = 0
                        // The line is encoded here, on the worker, so the printing thread only writes.
                        let line = renderer.render(input: path) { () throws -> Task.TaskResult in
                            if let problem = files[i].problem { throw VisionTasksError.invalidArgument(problem) }
                            let image = try MPImage(contentsOfFile: path, decodingOptions: options.imageDecoding)
                            let result = try MaskFiles.writing(try worker.task.processImage(image), to: options.masks) {
                                let mask = MaskFiles.imagePath(
                                    folder: $0, stem: maskStems[files[i].relativePath] ?? "", name: $1)
                                try OutputFiles.checkNotAnInput(mask, option: "--masks", inputs: inputs)
                                return mask
                            }
                            if let annotate = options.annotate {
                                let annotation = try Annotation(image: image)
                                result.draw(on: annotation)
                                let out = annotationPath(for: files[i], annotate: annotate, single: single)
                                try AnnotationFiles.write(annotation.image(), to: out)
                            }
                            found = Task.foundCount(in: result)
                            return result
                        }
                        board.finish(i, Processed(line: line, found: found))
                    }
                }
            ]
        }
        let bar = options.showProgress ? ProgressBar(total: files.count, unit: "images") : nil
        var found = 0
        for i in files.indices {
            let processed = board.wait(for: i)
            found += processed.found
            output.emit(processed.line)
            bar?.update(done: i + 1)
        }
        bar?.clear()
        threads.forEach { $0.join() } // each has let go of its task, on its own thread, before the process ends
        let seconds = Date().timeIntervalSince(started)
        let rate = seconds > 0 ? Double(files.count) / seconds : 0
        Console.error(
            String(
                format:
                    "summary: %d processed, %d skipped%@, %d failed, %d %@ found, %.1f images/s on %d job(s) of %d thread(s)\n",
                files.count, skipped, ResultSink.failedEarlier(failedEarlier), output.failures, found,
                Task.taskDescription.foundNoun, rate, workers,
                min(factory.threads, plan.threadsAtMost ?? factory.threads)))
        return !output.anyFailed && failedEarlier == 0
    }
}

// MARK: - Outcomes, task instances made in parallel, folders

/// One image's outcome as a worker hands it to the printing thread: its encoded line and what it found.
private struct Processed: Sendable {
    let line: LineRenderer.Line
    let found: Int
}

/// `count` values made by `make` on `count` threads at once (task instances: each loads and unpacks
/// its models, which one after another kept all but one core idle before the first image); the
/// first error thrown, if any, is rethrown. `make` must be safe to call from several threads at once
/// (the task factory is: each call builds its own options and instance).
private func makeInParallel<Value>(_ count: Int, _ make: @escaping () throws -> Value) throws -> [Value] {
    let slots = Slots<Value>(count)
    let maker = UncheckedMaker(make: make)
    DispatchQueue.concurrentPerform(iterations: count) { i in slots.set(i, Swift.Result { try maker.make() }) }
    return try slots.values.map { try $0.get() }
}

/// A maker `makeInParallel` calls from several threads (its caller vouches for that).
private struct UncheckedMaker<Value>: @unchecked Sendable {
    let make: () throws -> Value
}

/// Results written by parallel makers, each slot by one thread.
private final class Slots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Swift.Result<Value, any Error>?]
    init(_ count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ result: Swift.Result<Value, any Error>) { lock.withLock { results[i] = result } }
    /// Every slot (all were set once `concurrentPerform` returned).
    var values: [Swift.Result<Value, any Error>] {
        lock.withLock {
            results.map { $0 ?? .failure(VisionTasksError.processingFailed("a task instance was not made")) }
        }
    }
}

/// Creates `folder` and its parents if missing; throws naming `--annotate` and the reason if that fails.
private func createFolder(_ folder: String) throws {
    guard !folder.isEmpty, let problem = OutputFiles.makeFolder(folder) else { return }
    throw VisionTasksError.invalidOption(name: "--annotate", reason: problem)
}

// MARK: - Workers and the input-order board

/// Hands a task instance to its worker thread (each instance is used by one thread only).
private final class Worker<Task: DescribedTask>: @unchecked Sendable {
    let task: Task
    init(task: Task) { self.task = task }
}

/// Work distribution and results in input order: workers claim indices and post outcomes; the
/// printing thread waits for each index in turn.
/// At most `window` indices are claimed ahead of the one printed next, so finished results waiting
/// behind a slow image stay few however long the input list. Each side wakes only the other: a
/// finished index wakes the printer only when it is the one it waits for, and a printed index wakes
/// one worker waiting for room.
private final class Board<R>: @unchecked Sendable {
    private let lock = NSLock()
    private let room = NSCondition() // workers waiting for the window to move
    private let arrived = NSCondition() // the printer waiting for its index
    private var next = 0
    private var printed = 0
    private var waitingFor = -1
    private let count: Int
    private let window: Int
    private var outcomes: [Int: R] = [:]

    init(count: Int, window: Int) {
        self.count = count
        self.window = max(1, window)
    }

    func claim() -> Int? {
        room.lock()
        defer { room.unlock() }
        while true {
            let (claimable, done) = lock.withLock { (next < count && next < printed + window, next >= count) }
            if done {
                room.broadcast() // nothing is left: every worker waiting for room may stop
                return nil
            }
            if claimable {
                return lock.withLock { () -> Int in
                    next += 1
                    return next - 1
                }
            }
            room.wait()
        }
    }

    func finish(_ index: Int, _ outcome: R) {
        let wake = lock.withLock { () -> Bool in
            outcomes[index] = outcome
            return index == waitingFor
        }
        if wake {
            arrived.lock()
            arrived.signal()
            arrived.unlock()
        }
    }

    func wait(for index: Int) -> R {
        arrived.lock()
        defer { arrived.unlock() }
        while true {
            let outcome = lock.withLock { () -> R? in
                guard let outcome = outcomes.removeValue(forKey: index) else {
                    waitingFor = index
                    return nil
                }
                waitingFor = -1
                printed = index + 1
                return outcome
            }
            if let outcome {
                room.lock()
                room.signal()
                room.unlock()
                return outcome
            }
            arrived.wait()
        }
    }
}
