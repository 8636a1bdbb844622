/* PyArena: a region allocator for parser and compiler data.

   Everything the parser builds (AST nodes, sequences, token copies) is
   carved out of one arena and released in a single _PyArena_Free() call.
   Python objects referenced from the AST (names, constants) are handed to
   the arena with _PyArena_AddPyObject(), which steals the reference; the
   arena drops those references when it is freed. */

#ifndef Py_INTERNAL_PYARENA_H
#define Py_INTERNAL_PYARENA_H
#ifdef __cplusplus
extern "C" {
#endif

#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

typedef struct _arena PyArena;

/* Create an empty arena; NULL with MemoryError set on failure. */
extern PyArena *_PyArena_New(void);

/* Release all memory of the arena and DECREF its registered objects. */
extern void _PyArena_Free(PyArena *arena);

/* Allocate size bytes, aligned for any C type.  The memory is not zeroed.
   Returns NULL with MemoryError set on failure. */
extern void *_PyArena_Malloc(PyArena *arena, size_t size);

/* Transfer one reference to obj into the arena.  Returns 0 on success,
   -1 (MemoryError set) on failure; the reference is not stolen then. */
extern int _PyArena_AddPyObject(PyArena *arena, PyObject *obj);

#ifdef __cplusplus
}
#endif
#endif /* !Py_INTERNAL_PYARENA_H */
