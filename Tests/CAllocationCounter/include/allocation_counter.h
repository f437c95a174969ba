// Test support: counts heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc,
// memalign, valloc) made on the current thread while counting is on. Linking this target into a
// test binary replaces those functions process-wide with counting forwarders to glibc's own.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Starts counting this thread's allocations from zero.
void allocation_counter_start(void);
/// Stops counting on this thread and returns how many allocations it made since the start.
long allocation_counter_stop(void);

#ifdef __cplusplus
}
#endif
