#ifndef SWITCHBOARD_MALLOC_COUNTER_H
#define SWITCHBOARD_MALLOC_COUNTER_H

#include <stddef.h>
#include <stdint.h>

/// Number of allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign) made by this thread since it started.
uint64_t switchboard_allocation_count(void);

/// Bytes currently allocated from the heap (mallinfo2's uordblks).
size_t switchboard_heap_in_use(void);

#endif
