import Testing
import VisionErrors

@Suite struct VisionTasksErrorTests {
    @Test func messagesNameTheProblem() {
        #expect(VisionTasksError.fileNotFound(path: "/x/y.task").description == "File not found: /x/y.task")
        #expect(
            VisionTasksError.invalidOption(name: "numFaces", reason: "must be at least 1, got 0").description
                == "Invalid option numFaces: must be at least 1, got 0")
        #expect(VisionTasksError.invalidModel("truncated").localizedDescription == "Invalid model: truncated")
    }
}
