// vision-fuzz: the fuzz targets under libFuzzer's own main (built only by tools/fuzz/fuzz.sh, with
// `--sanitize=fuzzer --sanitize=address`).
//   vision-fuzz TARGET [libFuzzer flags] [corpus folders]   fuzz one target (tflite, bundle, image, geometry, task)
//   vision-fuzz seeds DIR                                   write the run-time seeds from models/ and the fixtures
import Foundation
import FuzzTargets

/// The target libFuzzer runs (set once by `LLVMFuzzerInitialize`, before any input).
nonisolated(unsafe) var selected: FuzzTargets.Target?

/// Prints `message` on stderr and exits with `status`.
func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

/// libFuzzer calls this first with its command line: the first argument picks the target (or writes the
/// seeds) and is removed, the rest stays for libFuzzer (flags and corpus folders).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
    guard argc.pointee >= 2, let vector = argv.pointee, let first = vector[1] else {
        fail("usage: vision-fuzz TARGET [libFuzzer flags] [corpus...] | vision-fuzz seeds DIR (targets: \(names))", 64)
    }
    let name = String(cString: first)
    if name == "seeds" {
        guard argc.pointee == 3, let directory = vector[2] else { fail("usage: vision-fuzz seeds DIR", 64) }
        do {
            try FuzzTargets.writeSeeds(to: String(cString: directory))
            exit(0)
        } catch {
            fail("vision-fuzz: cannot write seeds: \(error)", 1)
        }
    }
    guard let target = FuzzTargets.named(name) else { fail("vision-fuzz: no target \(name) (targets: \(names))", 64) }
    selected = target
    for index in 1..<Int(argc.pointee) { vector[index] = vector[index + 1] } // argv[argc] is NULL
    argc.pointee -= 1
    return 0
}

/// libFuzzer's callback: one input through the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = selected?.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}
