import Foundation
import Testing
import VisionCore

/// Writing the files a training is told to write: atomically when they are regular files, into them when they are
/// not (a pipe here; `/dev/null` alike), through links.
@Suite struct OutputFileTests {
    @Test func aPathThatIsNoRegularFileIsWrittenIntoNotReplaced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A pipe with a reader: the bytes go down it, and it stays a pipe (a rename made it a regular file).
        let pipe = folder.appendingPathComponent("pipe").path
        try #require(mkfifo(pipe, 0o600) == 0)
        let reader = open(pipe, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        try OutputFile.write(Data("report".utf8), to: pipe, what: "the report")
        var bytes = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &bytes, 16) == 6 && bytes.prefix(6).elementsEqual("report".utf8))
        var info = stat()
        #expect(stat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        // A link to a regular file: the file gets the new bytes, and the link stays a link.
        let file = folder.appendingPathComponent("real.json").path, link = folder.appendingPathComponent("link").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        try OutputFile.write(Data("new".utf8), to: link, what: "the report")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "new")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == file)
        // A regular file is replaced whole through `<path>.partial-<pid>`, which is gone after, keeping its
        // permissions; a new file is made; a missing folder is named.
        try #require(chmod(file, 0o640) == 0)
        try OutputFile.write(Data("newer".utf8), to: file, what: "the report")
        try OutputFile.write(Data("made".utf8), to: folder.appendingPathComponent("made.task").path, what: "the model")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "newer")
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o640)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["link", "made.task", "pipe", "real.json"])
        let missing = folder.appendingPathComponent("no/such/out.task").path
        #expect { try OutputFile.write(Data(), to: missing, what: "the model") } throws: {
            "\($0)" == "Cannot write file \(missing): No such file or directory (writing the model)"
        }
        // A folder is no file to write: the error names the path and what was being written.
        #expect { try OutputFile.write(Data(), to: folder.path, what: "the model") } throws: {
            "\($0)".hasPrefix("Cannot write file \(folder.path): ") && "\($0)".hasSuffix("(writing the model)")
        }
    }

    @Test func aParentAfterALinkIsTheLinkTargetsParent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)")
        let deep = folder.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // `link/..` is the folder above the link's target (a/), as the kernel and a shell's `cat` find it, not the
        // folder holding the link (Foundation's `resolvingSymlinksInPath` drops `..` as text first).
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: deep.path)
        try OutputFile.write(Data("x".utf8), to: link.path + "/../made.json")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/made.json").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("made.json").path))
        #expect(OutputFile.target(of: link.path + "/../made.json") == folder.appendingPathComponent("a/made.json").path)
    }

    /// A process's descriptor (`/dev/stdout` redirected, `/proc/self/fd/N`) is written into, at its end: the partial
    /// file was renamed over a redirected output's file (its earlier lines lost), and a pipe's link was taken for a
    /// file named "pipe:[N]" ("No such file or directory"). A loop of links is an error, not replaced by a file.
    @Test func descriptorsAreWrittenIntoAndLoopsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = Pipe()
        try OutputFile.write(Data("report".utf8), to: "/proc/self/fd/\(pipe.fileHandleForWriting.fileDescriptor)")
        try pipe.fileHandleForWriting.close()
        #expect(pipe.fileHandleForReading.readDataToEndOfFile() == Data("report".utf8))
        let redirected = folder.appendingPathComponent("stdout.txt").path
        let fd = open(redirected, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(Glibc.write(fd, "summary\n", 8) == 8)
        try OutputFile.write(Data("report".utf8), to: "/proc/self/fd/\(fd)")
        #expect(try String(contentsOfFile: redirected, encoding: .utf8) == "summary\nreport")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["stdout.txt"])
        let (a, b) = (folder.appendingPathComponent("loop-a").path, folder.appendingPathComponent("loop-b").path)
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
        #expect { try OutputFile.write(Data("x".utf8), to: a) } throws: {
            "\($0)" == "Cannot write file \(a): Too many levels of symbolic links"
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: a) == b)
    }

    /// Two writes to one file at once in this process get partial files of their own (they shared one: the second's
    /// truncation emptied the first's, and the first's end forgot the second's).
    @Test func writesToOneFileAtOnceGetPartialFilesOfTheirOwn() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString).png").path
        let first = OutputFile.beginPartial(for: path), second = OutputFile.beginPartial(for: path)
        defer { for partial in [first, second] { OutputFile.endPartial(partial.file) } }
        #expect(first.file == path + ".partial-\(getpid())" && second.file == path + ".partial-\(getpid())-2")
        #expect(first.target == path && second.target == path)
    }
}
