import Testing
import VisionTasks

/// The comma-separated category lists the CLI's `--canned-gestures-allowlist` and the server's
/// settings take.
@Suite struct ClassifierOptionsTests {
    @Test func commaSeparatedNamesAreTrimmedAndEmptyOnesDropped() {
        #expect([String](optionText: " Thumb_Up, Open_Palm ,,Victory,") == ["Thumb_Up", "Open_Palm", "Victory"])
        #expect([String](optionText: "None") == ["None"])
        #expect([String](optionText: " , ") == [])
        #expect([String](optionText: "") == [])
    }
}
