/// A small deterministic random number generator (SplitMix64), so the same seed gives the same split,
/// shuffles, initial weights and dropout masks on every machine and Swift version.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// Starts the sequence of `seed`.
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A float uniform in [0, 1), from the top 24 bits (exact on every platform, unlike `Float.random(in:)`'s
    /// unspecified algorithm).
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }

    /// An index uniform in 0..<count (count > 0), by rejection, so it does not depend on the standard library.
    mutating func index(below count: Int) -> Int {
        let bound = UInt64(count)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = next()
            if value < limit { return Int(value % bound) }
        }
    }

    /// `values` in an order drawn by Fisher–Yates.
    mutating func shuffled<T>(_ values: [T]) -> [T] {
        var values = values
        for i in stride(from: values.count - 1, to: 0, by: -1) {
            values.swapAt(i, index(below: i + 1))
        }
        return values
    }
}
