/* The allocators behind PyMem_Raw*, PyMem_* and PyObject_*.

   One underlying allocator for all three domains: mimalloc when the build
   found it (fast, and thread-safe for the raw domain), else the C library.
   AddressSanitizer builds always use the C library so every allocation is
   checked.  A zero-byte request returns a unique pointer, as CPython's do. */

#include "Python.h"
#include "pycore_stress.h"

#if defined(__linux__)
#  include <sys/sysinfo.h>
#endif
#include <unistd.h>

#ifdef WITH_MIMALLOC
#  include <mimalloc.h>
#  define RAW_MALLOC(n) mi_malloc(n)
#  define RAW_CALLOC(n, s) mi_calloc((n), (s))
#  define RAW_REALLOC(p, n) mi_realloc((p), (n))
#  define RAW_FREE(p) mi_free(p)
#else
#  define RAW_MALLOC(n) malloc(n)
#  define RAW_CALLOC(n, s) calloc((n), (s))
#  define RAW_REALLOC(p, n) realloc((p), (n))
#  define RAW_FREE(p) free(p)
#endif

/* Requests above PY_SSIZE_T_MAX can only come from overflowed size
   arithmetic; refusing them turns such bugs into MemoryError.

   Requests larger than the machine's RAM and swap together can never be
   met either, yet mimalloc maps huge blocks with MAP_NORESERVE, so the
   kernel grants them and the process is killed when it writes the pages
   ('x' * 2**40).  Those are refused too: the limit is computed the first
   time a request of a GiB or more comes in. */
#define HUGE_REQUEST ((size_t)1 << 30)

static size_t
memory_ceiling(void)
{
    static size_t ceiling = 0;
    if (ceiling == 0) {
        size_t total = (size_t)PY_SSIZE_T_MAX;
#if defined(__linux__)
        struct sysinfo si;
        if (sysinfo(&si) == 0 && si.mem_unit > 0) {
            total = ((size_t)si.totalram + (size_t)si.totalswap) * si.mem_unit;
        }
#elif defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
        long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
        if (pages > 0 && psize > 0) {
            total = (size_t)pages * (size_t)psize;
        }
#endif
        ceiling = total < HUGE_REQUEST ? HUGE_REQUEST : total;
    }
    return ceiling;
}

static inline int
too_big(size_t size)
{
    return size > (size_t)PY_SSIZE_T_MAX || (size >= HUGE_REQUEST && size > memory_ceiling());
}

/* Live-block counting for sys.getallocatedblocks(), which refleak runs
   (Tools/scripts/run_refleak.py) watch.  Counting costs an atomic add per
   allocation, so it is on only when PYTHONCOUNTBLOCKS is set in the
   environment, read once at the first allocation (so every block is
   counted from the start); otherwise the count stays 0, the documented
   answer of an allocator that cannot tell. */
static int count_mode = -1; /* -1: not read yet, 0: off, 1: on */
static Py_ssize_t live_blocks;

static inline int
counting(void)
{
    if (count_mode < 0) {
        const char *v = getenv("PYTHONCOUNTBLOCKS");
        count_mode = v != NULL && v[0] != '\0';
    }
    return count_mode;
}

static inline void *
counted(void *p, int delta)
{
    if (p != NULL && counting()) {
        __atomic_fetch_add(&live_blocks, delta, __ATOMIC_RELAXED);
    }
    return p;
}

Py_ssize_t
_PyMem_AllocatedBlocks(void)
{
    return __atomic_load_n(&live_blocks, __ATOMIC_RELAXED);
}

/* Failure injection (pycore_stress.h): a window of allocation numbers
   that fail.  The flag keeps the disarmed cost to one predictable load. */
static int nomem_armed;
static Py_ssize_t nomem_count, nomem_start, nomem_stop;

void
_PyMem_SetNoMemory(Py_ssize_t start, Py_ssize_t stop)
{
    nomem_start = start;
    nomem_stop = stop;
    __atomic_store_n(&nomem_count, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&nomem_armed, 1, __ATOMIC_RELEASE);
}

void
_PyMem_ClearNoMemory(void)
{
    __atomic_store_n(&nomem_armed, 0, __ATOMIC_RELEASE);
}

static inline int
injected_failure(void)
{
    if (__builtin_expect(!__atomic_load_n(&nomem_armed, __ATOMIC_ACQUIRE), 1)) {
        return 0;
    }
    Py_ssize_t k = __atomic_add_fetch(&nomem_count, 1, __ATOMIC_RELAXED);
    return k > nomem_start && (nomem_stop == 0 || k <= nomem_stop);
}

static inline int
refused(size_t size)
{
    return too_big(size) || injected_failure();
}

void *
PyMem_RawMalloc(size_t size)
{
    if (refused(size)) {
        return NULL;
    }
    return counted(RAW_MALLOC(size ? size : 1), 1);
}

void *
PyMem_RawCalloc(size_t nelem, size_t elsize)
{
    size_t total;
    if (__builtin_mul_overflow(nelem, elsize, &total) || refused(total)) {
        return NULL;
    }
    /* An empty request still gets a block of its own. */
    void *block = total != 0 ? RAW_CALLOC(nelem, elsize) : RAW_CALLOC(1, 1);
    return counted(block, 1);
}

void *
PyMem_RawRealloc(void *ptr, size_t new_size)
{
    if (refused(new_size)) {
        return NULL;
    }
    return counted(RAW_REALLOC(ptr, new_size ? new_size : 1), ptr == NULL);
}

void
PyMem_RawFree(void *ptr)
{
    counted(ptr, -1);
    RAW_FREE(ptr);
}

void *
PyMem_Malloc(size_t size)
{
    return PyMem_RawMalloc(size);
}

void *
PyMem_Calloc(size_t nelem, size_t elsize)
{
    return PyMem_RawCalloc(nelem, elsize);
}

void *
PyMem_Realloc(void *ptr, size_t new_size)
{
    return PyMem_RawRealloc(ptr, new_size);
}

void
PyMem_Free(void *ptr)
{
    PyMem_RawFree(ptr);
}

void *
PyObject_Malloc(size_t size)
{
    return PyMem_RawMalloc(size);
}

void *
PyObject_Calloc(size_t nelem, size_t elsize)
{
    return PyMem_RawCalloc(nelem, elsize);
}

void *
PyObject_Realloc(void *ptr, size_t new_size)
{
    return PyMem_RawRealloc(ptr, new_size);
}

void
PyObject_Free(void *ptr)
{
    PyMem_RawFree(ptr);
}

char *
_PyMem_RawStrdup(const char *str)
{
    size_t size = strlen(str) + 1;
    char *copy = PyMem_RawMalloc(size);
    if (copy != NULL) {
        memcpy(copy, str, size);
    }
    return copy;
}

char *
_PyMem_Strdup(const char *str)
{
    return _PyMem_RawStrdup(str);
}
