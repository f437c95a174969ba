import Testing

@testable import VisionServer

/// The training limits are checked with the others when the server is made, each named by its flag.
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
        ]
        #expect(cases.count == 6)
        for (change, message) in cases {
            var configuration = ServerConfiguration()
            change(&configuration)
            #expect { try configuration.validate() } throws: { "\($0)".hasPrefix("invalid configuration: \(message)") }
        }
    }
}
