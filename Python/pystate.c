/* Interpreter and thread state, and the per-thread data stack that
   interpreter frames are allocated on. */

#include "Python.h"
#include <sys/resource.h>
#include "pycore_frame.h"
#include "pycore_pystate.h"

__thread PyThreadState *_Py_tss_tstate = NULL;

static PyInterpreterState *main_interpreter = NULL;

PyInterpreterState *
_PyInterpreterState_New(void)
{
    PyInterpreterState *interp = PyMem_RawCalloc(1, sizeof(PyInterpreterState));
    if (interp == NULL) {
        return NULL;
    }
    interp->recursion_limit = Py_DEFAULT_RECURSION_LIMIT;
    interp->func_version_next = 1;
    interp->type_version_next = 1;
    _PyGC_InitState(&interp->gc);
    if (main_interpreter == NULL) {
        main_interpreter = interp;
    }
    return interp;
}

void
_PyInterpreterState_Delete(PyInterpreterState *interp)
{
    if (interp == main_interpreter) {
        main_interpreter = NULL;
    }
    PyMem_RawFree(interp);
}

PyInterpreterState *
_PyInterpreterState_Main(void)
{
    return main_interpreter;
}

PyThreadState *
_PyThreadState_New(PyInterpreterState *interp)
{
    PyThreadState *tstate = PyMem_RawCalloc(1, sizeof(PyThreadState));
    if (tstate == NULL) {
        return NULL;
    }
    tstate->interp = interp;
    tstate->py_recursion_limit = interp->recursion_limit;
    tstate->py_recursion_remaining = interp->recursion_limit;
    tstate->c_recursion_remaining = Py_C_RECURSION_LIMIT;
    tstate->exc_info = &tstate->exc_state;
    tstate->next = interp->threads_head;
    if (interp->threads_head) {
        interp->threads_head->prev = tstate;
    }
    interp->threads_head = tstate;
    return tstate;
}

static void
free_data_stack(PyThreadState *tstate)
{
    _PyStackChunk *chunk = tstate->datastack_chunk;
    while (chunk != NULL) {
        _PyStackChunk *prev = chunk->previous;
        PyMem_RawFree(chunk);
        chunk = prev;
    }
    tstate->datastack_chunk = NULL;
    tstate->datastack_top = NULL;
    tstate->datastack_limit = NULL;
}

void
_PyThreadState_Delete(PyThreadState *tstate)
{
    PyInterpreterState *interp = tstate->interp;
    if (tstate->prev) {
        tstate->prev->next = tstate->next;
    }
    else {
        interp->threads_head = tstate->next;
    }
    if (tstate->next) {
        tstate->next->prev = tstate->prev;
    }
    Py_CLEAR(tstate->dict);
    Py_CLEAR(tstate->context);
    Py_CLEAR(tstate->current_exception);
    Py_CLEAR(tstate->exc_state.exc_value);
    free_data_stack(tstate);
    if (_Py_tss_tstate == tstate) {
        _Py_tss_tstate = NULL;
    }
    PyMem_RawFree(tstate);
}

/* Limits for the C stack, measured from where the thread binds its
   state (near the top of its stack): RecursionError below the soft limit,
   leaving room to build and report it; a fatal error past the hard one. */
static void
set_stack_limits(PyThreadState *tstate)
{
    char here;
    size_t size = 8 * 1024 * 1024;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < ((rlim_t)1 << 30)) {
        size = (size_t)rl.rlim_cur;
    }
    uintptr_t top = (uintptr_t)&here;
    size_t soft_margin = size / 8 > 1024 * 1024 ? 1024 * 1024 : size / 8;
    tstate->c_stack_soft_limit = top - size + soft_margin;
    tstate->c_stack_hard_limit = top - size + soft_margin / 4;
}

void
_PyThreadState_Bind(PyThreadState *tstate)
{
    _Py_tss_tstate = tstate;
    set_stack_limits(tstate);
}

PyThreadState *
PyThreadState_Get(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        Py_FatalError("the function must be called with a thread state");
    }
    return tstate;
}

PyInterpreterState *
PyInterpreterState_Get(void)
{
    return PyThreadState_Get()->interp;
}

PyInterpreterState *
PyThreadState_GetInterpreter(PyThreadState *tstate)
{
    return tstate->interp;
}

PyObject *
PyThreadState_GetDict(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        return NULL;
    }
    if (tstate->dict == NULL) {
        tstate->dict = PyDict_New();
        if (tstate->dict == NULL) {
            PyErr_Clear();
        }
    }
    return tstate->dict;
}

PyFrameObject *
PyThreadState_GetFrame(PyThreadState *tstate)
{
    _PyInterpreterFrame *f = _PyFrame_GetFirstComplete(tstate->current_frame);
    if (f == NULL) {
        return NULL;
    }
    PyFrameObject *frame = _PyFrame_GetFrameObject(f);
    if (frame == NULL) {
        PyErr_Clear();
    }
    return (PyFrameObject *)Py_XNewRef(frame);
}

/* ---- The data stack ----------------------------------------------------------

   Frames are bump-allocated from chunks of memory; a new chunk is linked
   in when the current one is full, and freed again when its first frame is
   popped.  Sizes are in words (PyObject * sized). */

#define DATA_STACK_CHUNK_SIZE (16 * 1024)

static _PyStackChunk *
allocate_chunk(size_t size_in_bytes, _PyStackChunk *previous)
{
    _PyStackChunk *res = PyMem_RawMalloc(size_in_bytes);
    if (res == NULL) {
        return NULL;
    }
    res->previous = previous;
    res->size = size_in_bytes;
    res->top = 0;
    return res;
}

static _PyInterpreterFrame *
push_chunk(PyThreadState *tstate, size_t size)
{
    size_t allocate_size = DATA_STACK_CHUNK_SIZE;
    while (allocate_size < sizeof(PyObject *) * (size + 8)) {
        allocate_size *= 2;
    }
    _PyStackChunk *new = allocate_chunk(allocate_size, tstate->datastack_chunk);
    if (new == NULL) {
        return NULL;
    }
    if (tstate->datastack_chunk) {
        tstate->datastack_chunk->top = (size_t)(tstate->datastack_top - &tstate->datastack_chunk->data[0]);
    }
    tstate->datastack_chunk = new;
    tstate->datastack_limit = (PyObject **)(((char *)new) + allocate_size);
    PyObject **res = &new->data[0];
    tstate->datastack_top = res + size;
    return (_PyInterpreterFrame *)res;
}

_PyInterpreterFrame *
_PyThreadState_PushFrame(PyThreadState *tstate, size_t size)
{
    if (tstate->datastack_top != NULL && size < (size_t)(tstate->datastack_limit - tstate->datastack_top)) {
        _PyInterpreterFrame *res = (_PyInterpreterFrame *)tstate->datastack_top;
        tstate->datastack_top += size;
        return res;
    }
    _PyInterpreterFrame *res = push_chunk(tstate, size);
    if (res == NULL) {
        PyErr_NoMemory();
    }
    return res;
}

void
_PyThreadState_PopFrame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyObject **base = (PyObject **)frame;
    if (base == &tstate->datastack_chunk->data[0]) {
        _PyStackChunk *chunk = tstate->datastack_chunk;
        _PyStackChunk *previous = chunk->previous;
        tstate->datastack_chunk = previous;
        if (previous != NULL) {
            tstate->datastack_top = &previous->data[previous->top];
            tstate->datastack_limit = (PyObject **)(((char *)previous) + previous->size);
        }
        else {
            tstate->datastack_top = NULL;
            tstate->datastack_limit = NULL;
        }
        PyMem_RawFree(chunk);
    }
    else {
        assert(tstate->datastack_top);
        assert(tstate->datastack_top >= base);
        tstate->datastack_top = base;
    }
}
