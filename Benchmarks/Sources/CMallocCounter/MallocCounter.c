// Interposes the allocation functions of glibc to count calls per thread. The executable's
// definitions win over libc's for every shared library (libswiftCore included) because the
// linker exports them; each forwards to glibc's own entry points.
#include "MallocCounter.h"

#include <errno.h>
#include <malloc.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread uint64_t allocation_count;

uint64_t switchboard_allocation_count(void) { return allocation_count; }

size_t switchboard_heap_in_use(void) { return mallinfo2().uordblks; }

void *malloc(size_t size) {
    allocation_count++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocation_count++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocation_count++;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    allocation_count++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocation_count++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    allocation_count++;
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
