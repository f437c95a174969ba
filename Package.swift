// swift-tools-version:6.1
// VisionTasks: MediaPipe Tasks Vision (the tasks of `describedTasks`: Face Detector, Face Landmarker, Hand
// Landmarker, Gesture Recognizer, Pose Landmarker, Image Segmenter) in Swift on Linux, with our own TFLite reader and inference
// engine, a gesture classifier trainer, a command-line tool and a server. Map: docs/ARCHITECTURE.md.
import PackageDescription

let package = Package(
    name: "VisionTasks",
    products: [
        .library(name: "VisionTasks", targets: ["VisionTasks"]),
        .library(name: "VisionRender", targets: ["VisionRender"]),
        .library(name: "VideoIO", targets: ["VideoIO"]),
        .library(name: "Training", targets: ["Training"]),
        .executable(name: "vision-tasks", targets: ["vision-tasks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `make docs`: the DocC catalog in Sources/VisionTasks/VisionTasks.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Without its traits (swift-configuration support, full Foundation), which the server does not use:
        // hummingbird-websocket asks for none, and SwiftPM 6.2.3 loads the graph reliably only when every
        // package that depends on Hummingbird asks for the same traits (docs/ARM.md, "Swift versions").
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Already under Hummingbird; named for the types VisionServer uses directly.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already under Hummingbird; the server tests run and stop a server with its ServiceGroup.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries from Debian, through pkg-config.
        .systemLibrary(
            name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),
        // Debian's built libstb, which VisionCoreTests compare CImageCodecs' own build of stb_image.h
        // (its JPEG part, included as <stb/stb_image.h>, not linked) with.
        .systemLibrary(
            name: "CStb", path: "Sources/CStb", pkgConfig: "stb",
            providers: [.apt(["libstb-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CZlibCRC", path: "Sources/CZlibCRC", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CSwscale", path: "Sources/CSwscale", pkgConfig: "libswscale",
            providers: [.apt(["libswscale-dev"])]),
        // JPEG decoding over stb_image (MediaPipe's decoder, with our vector colour row), JPEG encoding over libjpeg-turbo,
        // PNG over libdeflate (the common 8-bit files) and libpng (every other); errors as return codes.
        .target(name: "CImageCodecs", dependencies: ["CJPEG", "CPNG", "CDeflate"], path: "Sources/CImageCodecs"),
        // Hot inference kernels in C: AVX2/FMA and AVX-512 variants chosen at run time on x86-64, NEON on arm64.
        .target(name: "CKernels", path: "Sources/CKernels"),

        // The one error type of the package: no file format, no dependency, importable by every module.
        .target(name: "VisionErrors"),
        .target(name: "TFLite", dependencies: ["VisionErrors", "CZlibCRC"]),
        .target(
            name: "Inference", dependencies: ["TFLite", "CKernels", "VisionErrors"],
            exclude: ["README.md", "Kernels/README.md"]),
        .target(name: "VisionCore", dependencies: ["VisionErrors", "CImageCodecs"]),
        .target(name: "VisionTasks", dependencies: ["VisionCore", "Inference", "TFLite", "VisionErrors"]),
        // Training: custom gesture classifiers from labelled photos, written as TFLite and packed as a .task;
        // the inference library does not depend on it.
        .target(name: "Training", dependencies: ["VisionTasks", "VisionCore", "TFLite", "VisionErrors"]),
        .target(
            name: "VisionRender", dependencies: ["VisionTasks", "VisionCore", "VisionErrors", "CCairo", "CImageCodecs"]),
        // Video files and live sources through Debian's ffmpeg, driven over pipes (frames cross in the
        // format ffmpeg decoded them to and are turned into RGB here, by the same libswscale).
        .target(name: "VideoIO", dependencies: ["VisionCore", "VisionErrors", "CSwscale"]),
        // `vision-tasks serve`: the HTTP/WebSocket API and the browser app, over the public API; custom gesture
        // models trained from uploaded photos (Training), whose zip is read by TFLite's zip reader.
        .target(
            name: "VisionServer",
            dependencies: [
                "VisionTasks", "VideoIO", "Training", "TFLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ], resources: [.copy("Page")]),
        .executableTarget(
            name: "vision-tasks",
            dependencies: [
                "VisionTasks", "VisionRender", "VideoIO", "Inference", "TFLite", "VisionErrors", "VisionServer",
                "Training",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The fuzz targets of issue 10 (bytes in, a thrown error or an answer out); run under libFuzzer by
        // tools/fuzz/fuzz.sh (`make fuzz`), replayed over the committed inputs by FuzzRegressionTests.
        .target(
            name: "FuzzTargets", dependencies: ["VisionTasks", "VisionCore", "Inference", "TFLite", "VisionErrors"]),
        // The MediaPipe iOS guides' snippets for every task and the three modes, compiled as an
        // example (only the image and model lines changed); VisionTasksCLITests runs it.
        .executableTarget(
            name: "ios-guide-snippets", dependencies: ["VisionTasks"],
            path: "examples/ios-guide-snippets", exclude: ["README.md"]),

        // Prints GFLOP/s of the inference kernels on the models' layer shapes (release builds only).
        .executableTarget(name: "kernel-bench", dependencies: ["Inference"]),
        .executableTarget(name: "image-bench", dependencies: ["VisionCore"]),
        // Times the tasks end to end (decoded image in, result out) for tools/bench/bench.py (`make bench`).
        .executableTarget(
            name: "vision-tasks-bench",
            dependencies: [
                "VisionTasks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // `make soak`: a slow-listener live stream and a video processed 20 times, RSS sampled.
        .executableTarget(name: "vision-tasks-soak", dependencies: ["VisionTasks", "VideoIO"]),

        // Test support: the fixtures' paths and reference loaders that throw (shared by the test targets),
        // and models given localized label files (LabelledModels).
        .target(name: "FixtureSupport", dependencies: ["TFLite", "CDeflate"], path: "Tests/FixtureSupport"),
        .testTarget(name: "VisionErrorsTests", dependencies: ["VisionErrors"]),
        .testTarget(name: "TFLiteTests", dependencies: ["TFLite", "VisionErrors", "FixtureSupport"]),
        .testTarget(
            name: "InferenceTests",
            dependencies: ["Inference", "TFLite", "VisionErrors", "CAllocationCounter", "FixtureSupport"]),
        // Test support: counting malloc forwarders (AllocationTests checks invoke() allocates nothing);
        // compiled out of sanitizer builds, where the sanitizer owns malloc.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .testTarget(
            name: "VisionCoreTests", dependencies: ["VisionCore", "VisionErrors", "FixtureSupport", "CStb", "CDeflate"]),
        .testTarget(name: "VisionTasksTests", dependencies: ["VisionTasks", "TFLite", "FixtureSupport"]),
        .testTarget(
            name: "TrainingTests", dependencies: ["Training", "VisionTasks", "TFLite", "Inference", "FixtureSupport"]),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["FuzzTargets", "TFLite", "Inference", "VisionErrors", "FixtureSupport"]),
        .testTarget(name: "VisionRenderTests", dependencies: ["VisionRender", "VisionTasks", "FixtureSupport"]),
        .testTarget(
            name: "VideoIOTests",
            dependencies: ["VideoIO", "VisionCore", "VisionTasks", "VisionErrors", "FixtureSupport"]),
        // The command-line tool end to end: every test that runs the built vision-tasks (or ios-guide-snippets)
        // is here, so a filtered run builds the tools first; VisionTasks gives the results the tool must print.
        .testTarget(
            name: "VisionTasksCLITests",
            dependencies: ["vision-tasks", "ios-guide-snippets", "VisionTasks", "TFLite", "FixtureSupport"]),
        // The server's parts without a socket (worker pool, live-socket ledger), which `make sanitize` runs under TSan.
        .testTarget(name: "VisionServerUnitTests", dependencies: ["VisionServer", "VisionTasks"]),
        // The server over loopback sockets, with a client of its own on SwiftNIO (Tests/VisionServerTests/
        // LoopbackClient.swift): Hummingbird's test clients would bring AsyncHTTPClient and BoringSSL to build.
        .testTarget(
            name: "VisionServerTests",
            dependencies: [
                "VisionServer", "VisionTasks", "VideoIO", "Training", "TFLite", "FixtureSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// The test targets' own code is compiled unoptimised even where the command line asks for -O: `make test`'s
// TEST_BUILD_FLAGS (-Xswiftc -O) are for the code under test. Optimised, the test targets took 275 s to compile on
// 2 cores, unoptimised 167 s, and the tests ran as fast (issue 43). A frontend flag, since SwiftPM puts -Xswiftc
// after a target's own flags; only test targets carry it, so no product's target has unsafe flags.
for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-Onone"])]
}

// tools/fuzz/fuzz.sh builds with VISION_TASKS_FUZZ=1 in its own scratch path (.build-fuzz), with
// `--sanitize=fuzzer --sanitize=address`: the fuzz targets under libFuzzer's main.
if Context.environment["VISION_TASKS_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(name: "vision-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/vision-fuzz"))
}

// VISION_TASKS_NO_SERVER=1 leaves out the server and what needs it: the VisionServer target, the
// `vision-tasks` tool and their tests (every test that runs the tool is in VisionTasksCLITests), and the Hummingbird,
// swift-nio and swift-log packages, which are then not resolved at all: a build of the library alone (docs/ARM.md).
if Context.environment["VISION_TASKS_NO_SERVER"] != nil {
    let serverPackages = ["hummingbird", "hummingbird-websocket", "swift-nio", "swift-log"]
    let serverTargets: Set<String> = [
        "VisionServer", "vision-tasks", "VisionServerTests", "VisionServerUnitTests",
        "VisionTasksCLITests",
    ]
    package.products.removeAll { $0.name == "vision-tasks" }
    package.targets.removeAll { serverTargets.contains($0.name) }
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
        return serverPackages.contains { location.hasSuffix("/\($0)") }
    }
}

// `make sanitize` keeps only the test targets a sanitizer pass runs (VISION_TASKS_TEST_TARGETS, comma-separated)
// and builds their product alone (`swift build --product VisionTasksPackageTests`), so each sanitized build
// compiles what those tests need and no more. An unknown name stops the manifest.
if let kept = Context.environment["VISION_TASKS_TEST_TARGETS"] {
    let names = Set(kept.split(separator: ",").map(String.init))
    let tests = Set(package.targets.filter { $0.type == .test }.map(\.name))
    precondition(
        names.isSubset(of: tests), "VISION_TASKS_TEST_TARGETS: no test target \(names.subtracting(tests).sorted())")
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}
