import ArgumentParser
import Foundation

/// `--jobs`: how many images are processed in parallel, each by its own task instance: a number, or
/// `auto` (the default), which fits the work to the machine's cores.
enum JobCount: Equatable, ExpressibleByArgument {
    case auto
    case count(Int)

    /// The most instances `auto` makes: each holds its own models and buffers (tens of MB).
    static let autoLimit = 16
    /// The instances a number may ask for: each is a task of tens of MB and a thread of its own.
    static let countRange = 1...256

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let count = Int(argument) {
            self = .count(count)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { "auto" }

    /// How a run over `images` images is split on `cores` cores: `jobs` task instances, each given at
    /// most `threadsAtMost` inference threads (nil: `--threads` as given). `auto`: one instance per
    /// core (at most `autoLimit` and the number of images), the cores divided among the instances;
    /// a single image keeps every core for its one instance. A number: that many instances (at most
    /// one per image), `--threads` each where it was given (`threadsGiven`), else the cores divided
    /// among them as for `auto` (two instances of two threads each on two cores ran 1.3x slower).
    func plan(images: Int, cores: Int, threadsGiven: Bool) -> (jobs: Int, threadsAtMost: Int?) {
        let jobs: Int
        switch self {
        case .count(let count):
            jobs = max(1, min(count, images))
            if threadsGiven { return (jobs, nil) }
        case .auto:
            jobs = max(1, min(images, cores, Self.autoLimit))
        }
        return (jobs, max(1, cores / jobs))
    }
}
