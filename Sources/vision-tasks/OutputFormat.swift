import ArgumentParser

/// `--format`: how results are written.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// One JSON object per image or frame (the default).
    case jsonl
    /// One CSV table, a row per face or hand per image or frame (`CSVTable`).
    case csv
}
