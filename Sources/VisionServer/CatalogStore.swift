import Foundation
import NIOCore
import Synchronization
import VisionTasks

/// The catalog a server offers now and its `GET /api/v1/models` JSON, swapped together under a lock when a
/// trained model is added: a request reads one consistent snapshot (the catalog it checks its model
/// against is the one whose paths it uses), and the JSON is encoded once per change, not per request.
final class CatalogStore: Sendable {
    private let state: Mutex<(catalog: ModelCatalog, json: ByteBuffer)>

    /// Starts with `catalog`; throws if its JSON cannot be encoded.
    init(_ catalog: ModelCatalog) throws {
        state = Mutex((catalog, try Self.json(catalog)))
    }

    /// The catalog now.
    var catalog: ModelCatalog { state.withLock { $0.catalog } }

    /// `GET /api/v1/models` now: `{"task": ["model", …], …}`.
    var json: ByteBuffer { state.withLock { $0.json } }

    /// Offers model file `name` (already in the models folder) to `tasks` from now on; throws if the new
    /// JSON cannot be encoded, leaving the catalog as it was.
    func add(_ name: String, for tasks: [TaskKind]) throws {
        try state.withLock { state in
            let catalog = state.catalog.adding(name, for: tasks)
            state = (catalog, try Self.json(catalog))
        }
    }

    private static func json(_ catalog: ModelCatalog) throws -> ByteBuffer {
        ByteBuffer(
            bytes: try ResultJSON.encode(
                Dictionary(uniqueKeysWithValues: catalog.models.map { ($0.key.rawValue, $0.value) })))
    }
}
