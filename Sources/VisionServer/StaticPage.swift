import Foundation

/// The browser app's files (HTML, CSS, JS modules), read once from the package's resources into
/// memory: a request names a file only by looking it up here, so no request path reaches the
/// file system.
struct StaticPage: Sendable {
    /// A file's bytes and its content type.
    struct File: Sendable {
        let data: Data
        let contentType: String
    }

    /// The files by name (`index.html`, `app.js`, …).
    let files: [String: File]

    /// Loads every file of the resources' `Page` folder; throws if the folder is missing.
    init() throws {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw ServerError.invalidConfiguration(
                "the page's resources (Page folder) are missing from the VisionServer bundle")
        }
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            files[name] = File(data: data, contentType: Self.contentType(of: name))
        }
        guard files["index.html"] != nil else {
            throw ServerError.invalidConfiguration("the page's index.html is missing from the VisionServer bundle")
        }
        self.files = files
    }

    private static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        default: return "application/octet-stream"
        }
    }
}
