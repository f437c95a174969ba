// Counting forwarders for glibc's allocator (see allocation_counter.h). Defined in the test
// executable, these symbols take precedence over libc's for every library in the process.
// A sanitizer build (swift test --sanitize=address|thread, which compiles C targets with
// -fsanitize too) leaves them out: the sanitizer must own malloc (TSan's start-up crashed in
// these forwarders, and under ASan they bypassed its allocator), and the counter reports itself off.
#include "allocation_counter.h"
#include <errno.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ALLOCATION_COUNTER_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ALLOCATION_COUNTER_OFF 1
#endif

#include <stdlib.h>

void *allocation_counter_probe(void) {
    void *(*volatile allocate)(size_t) = malloc;
    return allocate(64);
}

#ifdef ALLOCATION_COUNTER_OFF

int allocation_counter_available(void) { return 0; }
void allocation_counter_start(void) {}
long allocation_counter_stop(void) { return -1; }

#else

int allocation_counter_available(void) { return 1; }

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

static __thread int counting;
static __thread long counted;

static inline void note(void) {
    if (counting) counted++;
}

void allocation_counter_start(void) {
    counted = 0;
    counting = 1;
}

long allocation_counter_stop(void) {
    counting = 0;
    return counted;
}

void *malloc(size_t size) {
    note();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    note();
    return __libc_valloc(size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    note();
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

#endif
