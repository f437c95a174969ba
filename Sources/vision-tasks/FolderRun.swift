import Foundation
import VisionRender
import VisionTasks

/// Image mode over image files and folders (each folder's JPEG/PNG files, sub-folders included,
/// sorted by path), on `--jobs` task instances in parallel; lines come out in input order, a
/// progress bar and a summary go to stderr.
enum FolderRun {
    /// One image to process: its path as printed, and where its annotation goes relative to the
    /// `--annotate` folder.
    struct Input: Equatable {
        let path: String
        let relativePath: String
    }

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png"]

    /// The image files of the inputs: files as given, folders walked (hidden entries skipped) to
    /// their images sorted by path. Each file's `relativePath` is its path below the deepest folder
    /// holding every input (a single folder input: the path inside it), so distinct files never share one.
    static func expand(_ inputs: [String]) throws -> [Input] {
        var found: [(path: String, absolute: [String])] = []
        var roots: [[String]] = []
        for input in inputs {
            let absolute = URL(fileURLWithPath: input).standardizedFileURL.pathComponents
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                roots.append(absolute)
                for sub in try imagePaths(in: input) {
                    found.append(((input as NSString).appendingPathComponent(sub), absolute + sub.split(separator: "/").map(String.init)))
                }
            } else {
                roots.append(Array(absolute.dropLast()))
                found.append((input, absolute))
            }
        }
        let common = roots.dropFirst().reduce(roots.first ?? []) { prefix, next in
            Array(zip(prefix, next).prefix { $0 == $1 }.map(\.0))
        }
        return found.map { Input(path: $0.path, relativePath: $0.absolute.dropFirst(common.count).joined(separator: "/")) }
    }

    /// The JPEG/PNG files below `folder` as paths relative to it, sorted; hidden files and folders skipped.
    static func imagePaths(in folder: String) throws -> [String] {
        let manager = FileManager.default
        var paths: [String] = []
        var pending = [""]
        while let sub = pending.popLast() {
            let directory = sub.isEmpty ? folder : (folder as NSString).appendingPathComponent(sub)
            for name in try manager.contentsOfDirectory(atPath: directory) where !name.hasPrefix(".") {
                let relative = sub.isEmpty ? name : sub + "/" + name
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: (folder as NSString).appendingPathComponent(relative), isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    pending.append(relative)
                } else if imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                    paths.append(relative)
                }
            }
        }
        return paths.sorted()
    }

    /// Where the annotated picture of `input` goes: `annotate` itself for a single image given
    /// with an image extension, else its relative path inside the folder `annotate` (".png" added
    /// when the input is not a PNG or JPEG).
    static func annotationPath(for input: Input, annotate: String, single: Bool) -> String {
        if single, imageExtensions.contains((annotate as NSString).pathExtension.lowercased()) { return annotate }
        let keep = imageExtensions.contains((input.relativePath as NSString).pathExtension.lowercased())
        return (annotate as NSString).appendingPathComponent(keep ? input.relativePath : input.relativePath + ".png")
    }

    static func run<Task: MediaTask>(_ inputs: [String], options: MediaOptions, factory: MediaTaskFactory<Task>) throws -> Bool {
        let files = try expand(inputs)
        let single = inputs.count == 1 && files.count == 1 && files[0].path == inputs[0]
        if let annotate = options.annotate {
            let folders = Set(files.map { (annotationPath(for: $0, annotate: annotate, single: single) as NSString).deletingLastPathComponent })
            try folders.sorted().forEach(createFolder)
        }
        let workers = min(options.jobs, max(1, files.count))
        let tasks = try (0..<workers).map { _ in try factory.make(.image, nil) }
        let board = Board<Task.Result>(count: files.count)
        let started = Date()
        for task in tasks {
            let worker = Worker(task: task)
            Thread.detachNewThread {
                while let i = board.claim() {
                    let path = files[i].path
                    let outcome = Swift.Result<Task.Result, any Error> {
                        let image = try MPImage(contentsOfFile: path)
                        let result = try worker.task.detect(image: image)
                        if let annotate = options.annotate {
                            let annotation = try Annotation(image: image)
                            Task.draw(result, on: annotation)
                            let out = annotationPath(for: files[i], annotate: annotate, single: single)
                            try annotation.image().write(to: URL(fileURLWithPath: out))
                        }
                        return result
                    }
                    board.finish(i, outcome)
                }
            }
        }
        let output = JSONLines()
        let bar = options.showProgress ? ProgressBar(total: files.count, unit: "images") : nil
        var found = 0
        for (i, file) in files.enumerated() {
            let outcome = board.wait(for: i)
            if case .success(let result) = outcome { found += Task.found(in: result) }
            output.process(input: file.path) { try outcome.get() }
            bar?.update(done: i + 1)
        }
        bar?.clear()
        let seconds = Date().timeIntervalSince(started)
        let rate = seconds > 0 ? Double(files.count) / seconds : 0
        Console.error(String(
            format: "summary: %d files, %d %@ found, %d failed, %.1f images/s\n",
            files.count, found, Task.foundNoun, output.failures, rate))
        return !output.anyFailed
    }
}

/// Creates `folder` and its parents if missing; throws naming it if that fails.
private func createFolder(_ folder: String) throws {
    guard !folder.isEmpty else { return }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
        throw VisionTasksError.invalidOption(name: "--annotate", reason: "cannot create the folder \(folder): \(error.localizedDescription)")
    }
}

/// Hands a task instance to its worker thread (each instance is used by one thread only).
private final class Worker<Task: MediaTask>: @unchecked Sendable {
    let task: Task
    init(task: Task) { self.task = task }
}

/// Work distribution and results in input order: workers claim indices and post outcomes; the
/// printing thread waits for each index in turn.
private final class Board<R>: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private let count: Int
    private var outcomes: [Int: Swift.Result<R, any Error>] = [:]

    init(count: Int) { self.count = count }

    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    func finish(_ index: Int, _ outcome: Swift.Result<R, any Error>) {
        condition.lock()
        outcomes[index] = outcome
        condition.broadcast()
        condition.unlock()
    }

    func wait(for index: Int) -> Swift.Result<R, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome = outcomes.removeValue(forKey: index) { return outcome }
            condition.wait()
        }
    }
}
