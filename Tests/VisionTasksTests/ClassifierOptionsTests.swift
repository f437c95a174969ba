import Testing
import VisionTasks

/// The comma-separated category lists the CLI's `--canned-gestures-allowlist` and the server's
/// settings take.
@Suite struct ClassifierOptionsTests {
    @Test func commaSeparatedNamesAreTrimmedAndEmptyOnesDropped() {
        #expect(ClassifierOptions.categoryNames(commaSeparated: " Thumb_Up, Open_Palm ,,Victory,") == ["Thumb_Up", "Open_Palm", "Victory"])
        #expect(ClassifierOptions.categoryNames(commaSeparated: "None") == ["None"])
        #expect(ClassifierOptions.categoryNames(commaSeparated: " , ").isEmpty)
        #expect(ClassifierOptions.categoryNames(commaSeparated: "").isEmpty)
        #expect(ClassifierOptions.categoryNames(commaSeparated: nil).isEmpty)
    }
}
