/* Sequence types and builtin value types used by the generated AST
   declarations in pycore_ast.h.

   Every sequence starts with the same header (size, untyped element
   pointer) followed by an array of its element type, so a typed sequence
   can be read through the untyped accessors as well. */

#ifndef Py_INTERNAL_ASDL_H
#define Py_INTERNAL_ASDL_H
#ifdef __cplusplus
extern "C" {
#endif

#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_pyarena.h"

/* Builtin ASDL value types: all are Python objects owned by the arena. */
typedef PyObject *identifier;
typedef PyObject *string;
typedef PyObject *constant;

/* `elements` points at the typed array that follows the header. */
#define _ASDL_SEQ_HEAD \
    Py_ssize_t size; \
    void **elements;

typedef struct {
    _ASDL_SEQ_HEAD
} asdl_seq;

typedef struct {
    _ASDL_SEQ_HEAD
    void *typed_elements[1];
} asdl_generic_seq;

typedef struct {
    _ASDL_SEQ_HEAD
    PyObject *typed_elements[1];
} asdl_identifier_seq;

typedef struct {
    _ASDL_SEQ_HEAD
    int typed_elements[1];
} asdl_int_seq;

/* Allocate a sequence of `size` elements of `elem_size` bytes whose array
   starts `header_size` bytes into the block.  Elements are zeroed. */
extern void *_Py_asdl_seq_alloc(Py_ssize_t size, size_t header_size,
                                size_t elem_size, PyArena *arena);

extern asdl_generic_seq *_Py_asdl_generic_seq_new(Py_ssize_t size,
                                                  PyArena *arena);
extern asdl_identifier_seq *_Py_asdl_identifier_seq_new(Py_ssize_t size,
                                                        PyArena *arena);
extern asdl_int_seq *_Py_asdl_int_seq_new(Py_ssize_t size, PyArena *arena);

/* Number of elements; a NULL sequence is empty. */
#define asdl_seq_LEN(S) ((S) == NULL ? 0 : (S)->size)

/* Typed element access. */
#define asdl_seq_GET(S, I) ((S)->typed_elements[(I)])
#define asdl_seq_SET(S, I, V) ((S)->typed_elements[(I)] = (V))

/* Untyped access, for code that handles any pointer sequence. */
#define asdl_seq_GET_UNTYPED(S, I) ((S)->elements[(I)])
#define asdl_seq_SET_UNTYPED(S, I, V) ((S)->elements[(I)] = (V))

#ifdef __cplusplus
}
#endif
#endif /* !Py_INTERNAL_ASDL_H */
