import Testing

@testable import VisionServer

/// The training, body and pixel limits are checked with the others when the server is made, each named by its flag.
@Suite struct ServerConfigurationTests {
    @Test func trainingLimitsOutOfRangeAreRefusedByTheirFlags() throws {
        try ServerConfiguration().validate()
        let cases: [(change: (inout ServerConfiguration) -> Void, message: String)] = [
            ({ $0.maxTrainingPhotos = 10_001 }, "--max-training-photos must be 2...10000, got 10001"),
            ({ $0.maxTrainingPhotos = 1 }, "--max-training-photos must be 2...10000, got 1"),
            ({ $0.maxTrainingBodyBytes = 1000 }, "--max-training-body must be at least 1 KB"),
            ({ $0.maxTrainingUnpackedBytes = 0 }, "--max-training-unpacked must be at least 1 KB"),
            ({ $0.trainingThreads = 0 }, "--training-threads must be 1...64, got 0"),
            ({ $0.trainingThreads = 65 }, "--training-threads must be 1...64, got 65"),
            ({ $0.maxHeldBodyBytes = 19_999_999 }, "--max-held-bodies must be at least --max-body (20000000 bytes)"),
            (
                { $0.maxHeldBodyBytes = 99_999_999 },
                "--max-held-bodies must be at least --max-training-body (100000000 bytes)"
            ),
            ({ $0.minBodyBytesPerSecond = 0 }, "the least body rate must be 1...1000000000 bytes per second, got 0"),
            ({ $0.idleTimeout = .seconds(86_401) }, "the idle timeout must be 0...1 day"),
            ({ $0.maxVideoFrames = 0 }, "--max-video-frames must be 1...4447999631970, got 0"),
            ({ $0.maxLivePixels = 63_999_999 }, "--max-live-pixels must be at least --max-image-pixels (64000000)"),
            ({ $0.maxImagePixels = Int.max }, "--max-image-pixels must be 1...4611686018427387903"),
            ({ $0.maxTrainingSeconds = 0 }, "--max-training-time must be 1...86400 s, got 0"),
            ({ $0.maxModelsFolderBytes = 999_999 }, "--max-models-folder must be at least 1 MB"),
        ]
        #expect(cases.count == 15)
        // Unless given, the live frames' budget is two of the largest frames.
        var small = ServerConfiguration()
        small.maxImagePixels = 1_000
        #expect(small.heldLivePixels == 2_000 && ServerConfiguration().heldLivePixels == 128_000_000)
        // Unless given, the held bodies' budget grows with --max-body and --max-training-body.
        var large = ServerConfiguration()
        large.maxBodyBytes = 300_000_000
        try large.validate()
        #expect(large.heldBodyBytes == 300_000_000 && ServerConfiguration().heldBodyBytes == 200_000_000)
        large = ServerConfiguration()
        large.maxTrainingBodyBytes = 250_000_000
        try large.validate()
        #expect(large.heldBodyBytes == 250_000_000)
        for (change, message) in cases {
            var configuration = ServerConfiguration()
            change(&configuration)
            #expect { try configuration.validate() } throws: { "\($0)".hasPrefix("invalid configuration: \(message)") }
        }
    }
}
