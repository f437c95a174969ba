import Dispatch
import Foundation
import VisionCore

/// How the server decodes posted images and live frames: within `ServerConfiguration.maxImagePixels`, and at most
/// `workers` at once across all tasks and sockets, since a decode can take far more memory than its bytes (a
/// 64-megapixel progressive JPEG of a few hundred KB: about 770 MB). Others wait their turn.
final class ImageDecoder: Sendable {
    private let options: ImageDecodingOptions
    private let slots: DispatchSemaphore

    /// A decoder with `configuration`'s pixel limit and `workers` slots.
    init(configuration: ServerConfiguration) {
        options = ImageDecodingOptions(maxPixelCount: configuration.maxImagePixels)
        slots = DispatchSemaphore(value: configuration.workers)
    }

    /// Decodes `data` once a slot is free, blocking the calling thread (a Dispatch thread, never Swift's
    /// cooperative pool) meanwhile.
    /// - Parameters:
    ///   - data: A JPEG or PNG file's bytes.
    ///   - name: What error messages call the image.
    /// - Throws: `VisionTasksError.invalidImage` as `MPImage(encodedData:name:decodingOptions:)` does.
    func decode(_ data: Data, name: String) throws -> MPImage {
        try whileHeld { try MPImage(encodedData: data, name: name, decodingOptions: options) }
    }

    /// Runs `body` holding one of the slots.
    func whileHeld<T>(_ body: () throws -> T) rethrows -> T {
        slots.wait()
        defer { slots.signal() }
        return try body()
    }
}
