import Foundation
import VisionTasks

/// The landmark connection sets the tasks declare (`TaskDescription.connections`) as the JSON
/// `GET /api/v1/connections` serves, so the page draws from the library's constants.
enum ConnectionsJSON {
    /// `{"face": {"tesselation": [{"start":…,"end":…}, …], …}, "hand": {…}, "pose": {"pose": […]}}`: each
    /// group once (the Hand Landmarker and the Gesture Recognizer declare the same `hand` sets).
    static func encode() throws -> Data {
        var groups: [String: [String: [Connection]]] = [:]
        for sets in TaskDescription.all.compactMap(\.connections) {
            groups[sets.group, default: [:]].merge(sets.sets) { first, _ in first }
        }
        return try ResultJSON.encode(groups)
    }
}
