// Test support: counts heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc,
// memalign, valloc) made on the current thread while counting is on. Linking this target into a
// test binary replaces those functions process-wide with counting forwarders to glibc's own, except
// in a sanitizer build, where the sanitizer's allocator stays in place and the counter is off.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when the counting forwarders are in this binary, 0 in a sanitizer build (nothing is counted).
int allocation_counter_available(void);
/// Starts counting this thread's allocations from zero.
void allocation_counter_start(void);
/// Stops counting on this thread and returns how many allocations it made since the start
/// (-1 when the counter is off).
long allocation_counter_stop(void);
/// Allocates 64 bytes with malloc (free them with free) where no optimizer can drop the call: the
/// counter's own test, whose Swift-side malloc/free pair a release build removes.
void *allocation_counter_probe(void);

#ifdef __cplusplus
}
#endif
