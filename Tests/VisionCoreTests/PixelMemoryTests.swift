import CImageCodecs
import Foundation
import Testing

/// `ic_pixels_alloc` (CImageCodecs/pixel_memory.c: malloc below IC_PIXELS_LARGE, mappings of their
/// own on huge pages above it, the last freed ones kept for reuse): blocks are aligned and hold
/// their bytes through `ic_pixels_realloc`, and blocks handed out at once never overlap, however
/// often the kept ones are reused by several threads.
@Suite struct PixelMemoryTests {
    static let large = Int(IC_PIXELS_LARGE)

    /// Fills `count` bytes at `pointer` with a pattern of `seed`.
    static func fill(_ pointer: UnsafeMutableRawPointer, _ count: Int, seed: Int) {
        let bytes = pointer.assumingMemoryBound(to: UInt8.self)
        for i in stride(from: 0, to: count, by: 4093) { bytes[i] = UInt8(truncatingIfNeeded: i &* 31 &+ seed) }
        bytes[count - 1] = UInt8(truncatingIfNeeded: seed)
    }

    /// Whether `count` bytes at `pointer` still hold `fill`'s pattern of `seed`.
    static func holds(_ pointer: UnsafeMutableRawPointer, _ count: Int, seed: Int) -> Bool {
        let bytes = pointer.assumingMemoryBound(to: UInt8.self)
        for i in stride(from: 0, to: count, by: 4093) where bytes[i] != UInt8(truncatingIfNeeded: i &* 31 &+ seed) {
            return false
        }
        return bytes[count - 1] == UInt8(truncatingIfNeeded: seed)
    }

    /// A block handed out again after a free holds none of its earlier bytes (a corrupt picture's
    /// unwritten parts must not show the previous picture): a kept large block, and a small one
    /// from malloc.
    @Test(arguments: [3 * large, 200_000])
    func aReusedBlockIsCleared(size: Int) throws {
        for round in 0..<3 {
            let block = try #require(ic_pixels_alloc(size))
            let bytes = block.assumingMemoryBound(to: UInt8.self)
            #expect((0..<size).allSatisfy { bytes[$0] == 0 }, "round \(round)")
            memset(block, 0xAB, size)
            ic_pixels_free(block)
        }
    }

    /// A block for memory perhaps never touched takes none until written: only the page holding
    /// its header (two at most) is resident, and it is unmapped when freed, never handed out again as a kept
    /// block (whose pages are all resident).
    @Test func anUntouchedBlockTakesNoMemory() throws {
        let size = 12 * Self.large
        let block = try #require(ic_pixels_alloc_untouched(size))
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = UnsafeMutableRawPointer(bitPattern: Int(bitPattern: block) / page * page)!
        let pages = (Int(bitPattern: block) + size - Int(bitPattern: start) + page - 1) / page
        var resident = [UInt8](repeating: 0, count: pages)
        #expect(mincore(start, pages * page, &resident) == 0)
        #expect(resident.filter { $0 & 1 != 0 }.count <= 2)
        ic_pixels_free(block)
        // The kept blocks stay as they were: a block of its size now is a fresh, zeroed mapping.
        let next = try #require(ic_pixels_alloc(size))
        let bytes = next.assumingMemoryBound(to: UInt8.self)
        #expect(stride(from: 0, to: size, by: 4096).allSatisfy { bytes[$0] == 0 })
        ic_pixels_free(next)
    }

    /// A block its user overwrites in full keeps its bytes through realloc like any other, and is
    /// kept for reuse when freed.
    @Test func overwrittenBlocksAreOrdinaryBlocks() throws {
        let size = 3 * Self.large
        let block = try #require(ic_pixels_alloc_overwritten(size))
        Self.fill(block, size - 100, seed: 5)
        let shrunk = try #require(ic_pixels_realloc(block, size - 100))
        #expect(shrunk == block && Self.holds(block, size - 100, seed: 5))
        ic_pixels_free(shrunk)
    }

    /// Kept blocks are released by age: one freed just now stays when only older ones go, and none
    /// stays when all go (other tests' blocks may come and go meanwhile, never old ones).
    @Test func keptBlocksAreReleasedByAge() throws {
        // 100 MiB: no other test asks for a block this size, which would take this one meanwhile.
        let block = try #require(ic_pixels_alloc(100 << 20))
        ic_pixels_free(block)
        #expect(ic_pixels_release_kept(3600) >= 1)
        #expect(ic_pixels_release_kept(0) == 0)
    }

    @Test(arguments: [1, 100, large - 17, large - 16, large, 3 * large + 5, 40 << 20])
    func blocksAreAlignedAndKeepTheirBytes(size: Int) throws {
        let block = try #require(ic_pixels_alloc(size))
        #expect(Int(bitPattern: block) % 16 == 0)
        Self.fill(block, size, seed: size)
        // Growing past the large-block size moves the bytes; shrinking keeps the block.
        let grown = try #require(ic_pixels_realloc(block, size + Self.large))
        #expect(Self.holds(grown, size, seed: size))
        Self.fill(grown, size + Self.large, seed: 7)
        Self.fill(grown, size, seed: 9)
        let shrunk = try #require(ic_pixels_realloc(grown, size))
        #expect(shrunk == grown)
        #expect(Self.holds(shrunk, size, seed: 9))
        ic_pixels_free(shrunk)
        ic_pixels_free(nil)
    }

    @Test func blocksInUseNeverOverlap() async throws {
        // Four threads, each holding two blocks of photo sizes at once and freeing them in turn, so
        // the kept blocks are taken and given back across threads all the time.
        let sizes = [Self.large + 1, 6_480_000, 12_000_000, 36_000_000]
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var failures = 0
                    var held: [(UnsafeMutableRawPointer, Int, Int)] = []
                    for round in 0..<40 {
                        let size = sizes[(round + worker) % sizes.count], seed = worker * 1000 + round
                        guard let block = ic_pixels_alloc(size) else { return failures + 1 }
                        Self.fill(block, size, seed: seed)
                        held.append((block, size, seed))
                        if held.count > 2 {
                            let (old, oldSize, oldSeed) = held.removeFirst()
                            if !Self.holds(old, oldSize, seed: oldSeed) { failures += 1 }
                            ic_pixels_free(old)
                        }
                    }
                    for (block, size, seed) in held {
                        if !Self.holds(block, size, seed: seed) { failures += 1 }
                        ic_pixels_free(block)
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
