import Foundation
import Testing

@testable import VisionServer

/// The catalog a server offers can take trained models while requests read it: every reader sees a whole
/// catalog and its JSON, and no addition is lost.
@Suite struct CatalogStoreTests {
    private static func task(_ name: String) throws -> TaskKind { try #require(TaskKind(rawValue: name)) }

    @Test func anAddedModelIsOfferedInTheScansOrderAndInTheJSON() throws {
        let gestures = try Self.task("gesture-recognizer"), hands = try Self.task("hand-landmarker")
        let store = try CatalogStore(
            ModelCatalog(
                directory: "/models",
                models: [
                    gestures: ["gesture_recognizer.task", "operations.task"], hands: ["hand_landmarker.task"],
                ]))
        try store.add("b_trained.task", for: [gestures])
        try store.add("a_trained.task", for: [gestures])
        try store.add("a_trained.task", for: [gestures]) // twice: listed once
        // The task's preferred model stays first (the default); the others by name.
        #expect(
            store.catalog.models[gestures] == [
                "gesture_recognizer.task", "a_trained.task", "b_trained.task", "operations.task",
            ])
        #expect(store.catalog.models[hands] == ["hand_landmarker.task"])
        #expect(try store.catalog.model(named: "a_trained.task", for: gestures) == "a_trained.task")
        #expect(store.catalog.path(of: "a_trained.task") == "/models/a_trained.task")
        let json = try JSONDecoder().decode([String: [String]].self, from: Data(store.json.readableBytesView))
        #expect(json["gesture-recognizer"] == store.catalog.models[gestures])
        #expect(json["hand-landmarker"] == ["hand_landmarker.task"])
    }

    @Test func concurrentAdditionsAreAllKeptAndReadersSeeConsistentSnapshots() async throws {
        let gestures = try Self.task("gesture-recognizer")
        let store = try CatalogStore(
            ModelCatalog(directory: "/models", models: [gestures: ["gesture_recognizer.task"]]))
        let names = (0..<64).map { String(format: "model_%02d.task", $0) }
        let torn = try await withThrowingTaskGroup(of: Int.self) { group in
            for name in names {
                group.addTask {
                    try store.add(name, for: [gestures])
                    return 0
                }
            }
            for _ in 0..<8 {
                group.addTask {
                    // A reader's catalog and JSON, each whole: the JSON lists what the catalog
                    // could have had (the default first, the rest sorted, none twice).
                    var bad = 0
                    for _ in 0..<200 {
                        let json = try JSONDecoder().decode(
                            [String: [String]].self, from: Data(store.json.readableBytesView))
                        let listed = json["gesture-recognizer"] ?? []
                        if listed.first != "gesture_recognizer.task"
                            || Array(listed.dropFirst()) != listed.dropFirst().sorted()
                            || Set(listed).count != listed.count
                        {
                            bad += 1
                        }
                        let offered = store.catalog.models[gestures] ?? []
                        if offered.first != "gesture_recognizer.task" || Set(offered).count != offered.count {
                            bad += 1
                        }
                    }
                    return bad
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(torn == 0)
        #expect(store.catalog.models[gestures] == ["gesture_recognizer.task"] + names)
        let json = try JSONDecoder().decode([String: [String]].self, from: Data(store.json.readableBytesView))
        #expect(json["gesture-recognizer"] == ["gesture_recognizer.task"] + names)
    }
}
