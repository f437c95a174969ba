import Foundation
import VisionRender
import VisionTasks

/// Image mode over image files and folders (each folder's JPEG/PNG files, sorted by name), on
/// `--jobs` task instances in parallel; lines come out in input order, a progress bar and a
/// summary go to stderr.
enum FolderRun {
    /// The image files of the inputs: files as given, folders expanded to their sorted images.
    static func expand(_ inputs: [String]) throws -> [String] {
        var files: [String] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: input)
                let images = names.filter { !$0.hasPrefix(".") && ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }
                files += images.sorted().map { (input as NSString).appendingPathComponent($0) }
            } else {
                files.append(input)
            }
        }
        return files
    }

    /// Where the annotated picture of `input` goes: `annotate` itself for a single image given
    /// with an image extension, else a file named like the input inside the folder `annotate`.
    static func annotationPath(for input: String, annotate: String, single: Bool) -> String {
        let ext = (annotate as NSString).pathExtension.lowercased()
        if single, ["png", "jpg", "jpeg"].contains(ext) { return annotate }
        let name = (input as NSString).lastPathComponent
        let inputExt = (name as NSString).pathExtension.lowercased()
        let keep = ["png", "jpg", "jpeg"].contains(inputExt)
        return (annotate as NSString).appendingPathComponent(keep ? name : name + ".png")
    }

    static func run<Task: MediaTask>(_ inputs: [String], options: MediaOptions, factory: MediaTaskFactory<Task>) throws -> Bool {
        let files = try expand(inputs)
        let single = inputs.count == 1 && files.count == 1 && files[0] == inputs[0]
        if let annotate = options.annotate, !(single && ["png", "jpg", "jpeg"].contains((annotate as NSString).pathExtension.lowercased())) {
            try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true)
        }
        let workers = min(options.jobs, max(1, files.count))
        let tasks = try (0..<workers).map { _ in try factory.make(.image, nil) }
        let board = Board<Task.Result>(count: files.count)
        let started = Date()
        for task in tasks {
            let worker = Worker(task: task)
            Thread.detachNewThread {
                while let i = board.claim() {
                    let path = files[i]
                    let outcome = Swift.Result<Task.Result, any Error> {
                        let image = try MPImage(contentsOfFile: path)
                        let result = try worker.task.detect(image: image)
                        if let annotate = options.annotate {
                            let annotation = try Annotation(image: image)
                            Task.draw(result, on: annotation)
                            let out = annotationPath(for: path, annotate: annotate, single: single)
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
        for (i, path) in files.enumerated() {
            let outcome = board.wait(for: i)
            if case .success(let result) = outcome { found += Task.found(in: result) }
            output.process(input: path) { try outcome.get() }
            bar?.update(done: i + 1)
        }
        bar?.clear()
        let seconds = Date().timeIntervalSince(started)
        let rate = seconds > 0 ? Double(files.count) / seconds : 0
        FileHandle.standardError.write(Data(String(
            format: "summary: %d files, %d %@ found, %d failed, %.1f images/s\n",
            files.count, found, Task.foundNoun, output.failures, rate).utf8))
        return !output.anyFailed
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
