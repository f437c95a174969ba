import TFLite

extension ModelBundle {
    /// Requires every one of `entries`, the files a `kind` bundle holds ("hand landmarker"). Throws
    /// `invalidBundle` naming the bundle (`name`), the first missing entry, and the files it has.
    func requireEntries(_ entries: [String], kind: String, name: String) throws {
        for entry in entries where !contains(entry) {
            throw VisionTasksError.invalidBundle(
                "\(name) has no \(entry); a \(kind) bundle holds \(entries.joined(separator: " and ")) (has: \(fileNames.joined(separator: ", ")))")
        }
    }
}
