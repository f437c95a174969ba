// Pixel buffers (see ic_pixels_alloc in image_codecs.h). A decoded photo is written once, front to
// back, into memory the process has never touched: in 4 KiB pages that is a page fault and a
// zeroed page per 4 KiB (9,000 for a 12 MP RGB picture, a fifth of its decoding time), and as many
// pages unmapped again when the image is freed. Blocks of IC_PIXELS_LARGE bytes or more are
// therefore mapped on their own and marked for transparent huge pages (2 MiB: 18 faults; a
// mapping of their own keeps that mark off the heap, which malloc reuses for everything else), and
// the last few freed are kept for the next pictures of about their size (a folder of photos, a
// video's frames), which then touch no new page at all: at most CACHE_BLOCKS blocks and CACHE_BYTES
// bytes, the oldest unmapped when a newer one is kept and the smaller ones when a block fits none,
// so what is kept follows the sizes in use (one block per role: a file read, a picture). A kept
// block is cleared when reused unless its new user writes it in full first
// (ic_pixels_alloc_overwritten); memory perhaps never touched (ic_pixels_alloc_untouched) is never
// taken from or given to the kept blocks, whose pages are all resident.
// Smaller blocks come from malloc, and every block in AddressSanitizer builds (`make sanitize`,
// the fuzzer), whose malloc checks each byte's bounds. Each block starts with a header saying which.
#include "image_codecs.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/// The 16 bytes before every block: its usable size, and the size of its own mapping (0: malloc).
typedef struct {
    size_t size;
    size_t mapped;
} block_header;

#define HEADER sizeof(block_header)
_Static_assert(sizeof(block_header) == 16, "blocks stay 16-byte aligned");

static block_header *header_of(void *pointer) { return (block_header *)((unsigned char *)pointer - HEADER); }

#if defined(__SANITIZE_ADDRESS__)
#define MAP_LARGE_BLOCKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAP_LARGE_BLOCKS 0
#endif
#endif
#ifndef MAP_LARGE_BLOCKS
#define MAP_LARGE_BLOCKS 1
#endif

enum { CACHE_BLOCKS = 4 };
#define CACHE_BYTES ((size_t)128 << 20)

/// A freed mapped block, and when it was freed (monotonic seconds).
typedef struct {
    block_header *block;
    double kept_at;
} kept_block;

/// Freed mapped blocks, oldest first.
static struct {
    pthread_mutex_t lock;
    kept_block kept[CACHE_BLOCKS];
    int count;
    size_t bytes;
} cache = {PTHREAD_MUTEX_INITIALIZER, {{NULL, 0}}, 0, 0};

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/// Removes kept block `i` from the list. Called with the lock held.
static block_header *remove_cached(int i) {
    block_header *block = cache.kept[i].block;
    memmove(&cache.kept[i], &cache.kept[i + 1], sizeof(kept_block) * (size_t)(cache.count - i - 1));
    cache.count -= 1;
    cache.bytes -= block->mapped;
    return block;
}

/// Unmaps the `count` blocks taken from the kept ones (called without the lock).
static void unmap_blocks(block_header *const *blocks, int count) {
    for (int i = 0; i < count; i++) munmap(blocks[i], blocks[i]->mapped);
}

/// Takes the kept block whose mapping holds `needed` bytes and at most a quarter more (the smallest
/// such: a file read must not take a picture's block). When none fits, the kept blocks smaller than `needed` go into `drop` (a bigger picture than
/// before has come: they would otherwise stay beside its new block) and it returns NULL. Called with
/// the lock held.
static block_header *take_cached(size_t needed, block_header *drop[CACHE_BLOCKS], int *dropped) {
    int best = -1;
    for (int i = 0; i < cache.count; i++) {
        size_t mapped = cache.kept[i].block->mapped;
        if (mapped >= needed && mapped - needed <= needed / 4 && (best < 0 || mapped < cache.kept[best].block->mapped)) best = i;
    }
    if (best >= 0) return remove_cached(best);
    for (int i = cache.count - 1; i >= 0; i--) {
        if (cache.kept[i].block->mapped < needed) drop[(*dropped)++] = remove_cached(i);
    }
    return NULL;
}

/// What a block's first user does with it, which decides whether a kept block must be cleared and
/// whether a mapping may be kept.
typedef enum {
    BLOCK_CLEARED,      // read before (or without) being written in full: zeroed
    BLOCK_OVERWRITTEN,  // written in full before anything reads it: a kept block as it is
    BLOCK_UNTOUCHED,    // perhaps never touched: a fresh small-page mapping, not kept when freed
} block_use;

/// Set in `mapped` for a block unmapped when freed rather than kept (mappings are whole pages, so
/// the low bit is free).
#define NOT_KEPT ((size_t)1)

static void *alloc_block(size_t size, block_use use) {
    if (size > SIZE_MAX - HEADER - 4096) return NULL;
    block_header *block;
    if (MAP_LARGE_BLOCKS && size + HEADER >= IC_PIXELS_LARGE) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t mapped = (size + HEADER + page - 1) / page * page;
        block = NULL;
        if (use != BLOCK_UNTOUCHED) {
            block_header *drop[CACHE_BLOCKS];
            int dropped = 0;
            pthread_mutex_lock(&cache.lock);
            block = take_cached(mapped, drop, &dropped);
            pthread_mutex_unlock(&cache.lock);
            unmap_blocks(drop, dropped);
        }
        if (block == NULL) {
            void *base = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (base == MAP_FAILED) return NULL;
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
            // Advice only: without THP the block keeps small pages. Small pages for a block perhaps
            // never touched, where writing the header would otherwise fault in a whole 2 MiB page.
            madvise(base, mapped, use == BLOCK_UNTOUCHED ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#endif
            block = (block_header *)base;
            block->mapped = use == BLOCK_UNTOUCHED ? mapped | NOT_KEPT : mapped;
        } else if (use == BLOCK_CLEARED) {
            // A kept block still holds an earlier picture or file: cleared, so no byte of it can reach
            // this one (stb leaves parts of some corrupt JPEGs unwritten; a server's next request
            // must not see the last one's pixels). Fresh mappings are zero already.
            memset((unsigned char *)block + HEADER, 0, size);
        }
    } else {
        // malloc reuses freed memory as it is: cleared for the same reason.
        block = (block_header *)(use == BLOCK_CLEARED ? calloc(1, size + HEADER) : malloc(size + HEADER));
        if (block == NULL) return NULL;
        block->mapped = 0;
    }
    block->size = size;
    return (unsigned char *)block + HEADER;
}

void *ic_pixels_alloc(size_t size) { return alloc_block(size, BLOCK_CLEARED); }

void *ic_pixels_alloc_overwritten(size_t size) { return alloc_block(size, BLOCK_OVERWRITTEN); }

void *ic_pixels_alloc_untouched(size_t size) { return alloc_block(size, BLOCK_UNTOUCHED); }

void *ic_pixels_realloc(void *pointer, size_t size) {
    if (pointer == NULL) return ic_pixels_alloc(size);
    block_header *block = header_of(pointer);
    if (size <= block->size) {
        // Shrinking keeps the block whole (a mapped one then fits the next picture of its first size).
        block->size = size;
        return pointer;
    }
    void *grown = ic_pixels_alloc(size);
    if (grown == NULL) return NULL;
    memcpy(grown, pointer, block->size);
    ic_pixels_free(pointer);
    return grown;
}

void ic_pixels_free(void *pointer) {
    if (pointer == NULL) return;
    block_header *block = header_of(pointer);
    if (block->mapped == 0) {
        free(block);
        return;
    }
    if ((block->mapped & NOT_KEPT) || block->mapped > CACHE_BYTES) {
        munmap(block, block->mapped & ~NOT_KEPT);
        return;
    }
    block_header *drop[CACHE_BLOCKS];
    int dropped = 0;
    double now = monotonic_seconds();
    pthread_mutex_lock(&cache.lock);
    while (cache.count == CACHE_BLOCKS || cache.bytes + block->mapped > CACHE_BYTES) drop[dropped++] = remove_cached(0);
    cache.kept[cache.count++] = (kept_block){block, now};
    cache.bytes += block->mapped;
    pthread_mutex_unlock(&cache.lock);
    unmap_blocks(drop, dropped);
}

int ic_pixels_release_kept(double seconds) {
    block_header *drop[CACHE_BLOCKS];
    int dropped = 0;
    double now = monotonic_seconds();
    pthread_mutex_lock(&cache.lock);
    for (int i = cache.count - 1; i >= 0; i--) {
        if (seconds <= 0 || now - cache.kept[i].kept_at >= seconds) drop[dropped++] = remove_cached(i);
    }
    int left = cache.count;
    pthread_mutex_unlock(&cache.lock);
    unmap_blocks(drop, dropped);
    return left;
}

void ic_trim_heap(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
