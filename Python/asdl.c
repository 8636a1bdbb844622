/* Allocation of ASDL sequences (see pycore_asdl.h) inside a PyArena. */

#include "Python.h"
#include "pycore_asdl.h"

#include <stddef.h>
#include <string.h>

void *
_Py_asdl_seq_alloc(Py_ssize_t size, size_t header_size, size_t elem_size,
                   PyArena *arena)
{
    char *block;
    size_t total;

    if (size < 0) {
        PyErr_BadInternalCall();
        return NULL;
    }
    /* Guard the multiplication and the addition against overflow. */
    if (size > 0 && (size_t)size > (SIZE_MAX - header_size) / elem_size) {
        PyErr_NoMemory();
        return NULL;
    }
    total = header_size + (size_t)size * elem_size;
    if (total < sizeof(asdl_generic_seq)) {
        total = sizeof(asdl_generic_seq);
    }
    block = (char *)_PyArena_Malloc(arena, total);
    if (block == NULL) {
        return NULL;
    }
    memset(block, 0, total);
    ((asdl_seq *)block)->size = size;
    ((asdl_seq *)block)->elements = (void **)(block + header_size);
    return block;
}

asdl_generic_seq *
_Py_asdl_generic_seq_new(Py_ssize_t size, PyArena *arena)
{
    return (asdl_generic_seq *)_Py_asdl_seq_alloc(
        size, offsetof(asdl_generic_seq, typed_elements), sizeof(void *),
        arena);
}

asdl_identifier_seq *
_Py_asdl_identifier_seq_new(Py_ssize_t size, PyArena *arena)
{
    return (asdl_identifier_seq *)_Py_asdl_seq_alloc(
        size, offsetof(asdl_identifier_seq, typed_elements),
        sizeof(PyObject *), arena);
}

asdl_int_seq *
_Py_asdl_int_seq_new(Py_ssize_t size, PyArena *arena)
{
    return (asdl_int_seq *)_Py_asdl_seq_alloc(
        size, offsetof(asdl_int_seq, typed_elements), sizeof(int), arena);
}
