/* PyArena implementation: bump allocation out of a chain of large blocks.

   Parsing allocates many small nodes that all die together, so individual
   frees are never needed.  Requests larger than a block get a block of
   their own.  Objects registered with _PyArena_AddPyObject() are kept in a
   growable array and DECREF'd when the arena is freed. */

#include "Python.h"
#include "pycore_pyarena.h"

#include <stddef.h>
#include <stdint.h>

#define BLOCK_SIZE (8 * 1024)
#define ALIGNMENT 16

typedef struct block {
    struct block *next;
    size_t size;    /* usable bytes in data */
    size_t used;
    /* The data follows, aligned to ALIGNMENT. */
} block;

struct _arena {
    block *head;            /* block currently being filled */
    PyObject **objects;     /* references owned by the arena */
    size_t nobjects;
    size_t objects_cap;
};

#define BLOCK_HEADER \
    ((sizeof(block) + ALIGNMENT - 1) & ~(size_t)(ALIGNMENT - 1))

static block *
block_new(size_t size)
{
    block *b = (block *)PyMem_Malloc(BLOCK_HEADER + size);
    if (b == NULL) {
        return NULL;
    }
    b->next = NULL;
    b->size = size;
    b->used = 0;
    return b;
}

PyArena *
_PyArena_New(void)
{
    PyArena *arena = (PyArena *)PyMem_Malloc(sizeof(PyArena));
    if (arena == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    arena->head = block_new(BLOCK_SIZE);
    if (arena->head == NULL) {
        PyMem_Free(arena);
        PyErr_NoMemory();
        return NULL;
    }
    arena->objects = NULL;
    arena->nobjects = 0;
    arena->objects_cap = 0;
    return arena;
}

void
_PyArena_Free(PyArena *arena)
{
    block *b;
    size_t i;

    if (arena == NULL) {
        return;
    }
    b = arena->head;
    while (b != NULL) {
        block *next = b->next;
        PyMem_Free(b);
        b = next;
    }
    /* Objects may refer to each other; release in reverse order of
       registration so later (derived) objects go first. */
    for (i = arena->nobjects; i > 0; i--) {
        Py_DECREF(arena->objects[i - 1]);
    }
    PyMem_Free(arena->objects);
    PyMem_Free(arena);
}

void *
_PyArena_Malloc(PyArena *arena, size_t size)
{
    block *b = arena->head;
    size_t need;
    void *result;

    if (size > SIZE_MAX - ALIGNMENT - BLOCK_HEADER) {
        PyErr_NoMemory();
        return NULL;
    }
    need = (size + ALIGNMENT - 1) & ~(size_t)(ALIGNMENT - 1);
    if (need == 0) {
        need = ALIGNMENT;
    }
    if (b->size - b->used < need) {
        block *nb = block_new(need > BLOCK_SIZE ? need : BLOCK_SIZE);
        if (nb == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        nb->next = b;
        arena->head = nb;
        b = nb;
    }
    result = (char *)b + BLOCK_HEADER + b->used;
    b->used += need;
    return result;
}

int
_PyArena_AddPyObject(PyArena *arena, PyObject *obj)
{
    if (arena->nobjects == arena->objects_cap) {
        size_t cap = arena->objects_cap ? arena->objects_cap * 2 : 64;
        PyObject **grown;
        if (cap > SIZE_MAX / sizeof(PyObject *)) {
            PyErr_NoMemory();
            return -1;
        }
        grown = (PyObject **)PyMem_Realloc(arena->objects,
                                           cap * sizeof(PyObject *));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        arena->objects = grown;
        arena->objects_cap = cap;
    }
    arena->objects[arena->nobjects++] = obj;
    return 0;
}
