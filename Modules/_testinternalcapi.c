/* _testinternalcapi: white-box checks of runtime internals, run from
   Lib/test.  Each check returns None or raises AssertionError naming what
   went wrong, so a golden test can call them one by one. */

#include "Python.h"
#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_object.h"
#include "pycore_opcode_utils.h"
#include "pycore_pystate.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"

extern Py_ssize_t _Py_frame_objects_created;
extern Py_ssize_t _Py_frame_reifications;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            PyErr_Format(PyExc_AssertionError, "%s:%d: check failed: %s",        \
                         __func__, __LINE__, #cond);                              \
            return NULL;                                                         \
        }                                                                        \
    } while (0)

/* Stack refs: tags survive round trips and closing borrowed refs is free. */
static PyObject *
test_stackref(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *obj = PyList_New(0);
    if (obj == NULL) {
        return NULL;
    }
    Py_ssize_t before = Py_REFCNT(obj);
    _PyStackRef owned = PyStackRef_FromPyObjectNew(obj);
    CHECK(Py_REFCNT(obj) == before + 1);
    CHECK(PyStackRef_AsPyObjectBorrow(owned) == obj);
    _PyStackRef borrowed = PyStackRef_FromPyObjectBorrow(obj);
    CHECK(PyStackRef_IsBorrowed(borrowed));
    CHECK(PyStackRef_AsPyObjectBorrow(borrowed) == obj);
    PyStackRef_CLOSE(borrowed);
    CHECK(Py_REFCNT(obj) == before + 1);
    _PyStackRef safe = PyStackRef_MakeHeapSafe(borrowed);
    CHECK(!PyStackRef_IsBorrowed(safe));
    CHECK(Py_REFCNT(obj) == before + 2);
    PyStackRef_CLOSE(safe);
    PyStackRef_CLOSE(owned);
    CHECK(Py_REFCNT(obj) == before);
    for (Py_ssize_t i = -3; i < 1000000; i += 99991) {
        _PyStackRef t = PyStackRef_TagInt(i);
        CHECK(PyStackRef_IsTaggedInt(t));
        CHECK(PyStackRef_UntagInt(t) == i);
        PyStackRef_XCLOSE(t); /* tagged ints are not objects: a no-op */
    }
    CHECK(PyStackRef_IsNull(PyStackRef_NULL));
    Py_DECREF(obj);
    Py_RETURN_NONE;
}

/* Immortal objects ignore reference counting. */
static PyObject *
test_immortal(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *objs[] = {Py_None, Py_True, Py_False, PyLong_FromLong(5)};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(objs); i++) {
        CHECK(_Py_IsImmortal(objs[i]));
        Py_ssize_t rc = Py_REFCNT(objs[i]);
        Py_INCREF(objs[i]);
        Py_DECREF(objs[i]);
        Py_DECREF(objs[i]);
        CHECK(Py_REFCNT(objs[i]) == rc);
    }
    CHECK(PyLong_FromLong(200) == PyLong_FromLong(200));
    Py_RETURN_NONE;
}

/* Frames are bump-allocated; crossing a chunk boundary and popping back
   must restore the previous chunk. */
static PyObject *
test_data_stack(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyThreadState *tstate = _PyThreadState_GET();
    enum { N = 64 };
    _PyInterpreterFrame *frames[N];
    PyObject **top_before = tstate->datastack_top;
    for (int i = 0; i < N; i++) {
        frames[i] = _PyThreadState_PushFrame(tstate, 1000);
        if (frames[i] == NULL) {
            return NULL;
        }
        if (i > 0) {
            CHECK(frames[i] != frames[i - 1]);
        }
    }
    for (int i = N - 1; i >= 0; i--) {
        _PyThreadState_PopFrame(tstate, frames[i]);
    }
    CHECK(tstate->datastack_top == top_before);
    Py_RETURN_NONE;
}

/* The generated metadata agrees with the encodings the compiler uses. */
static PyObject *
test_opcode_metadata(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK(_PyOpcode_Caches[BINARY_OP] == 5);
    CHECK(_PyOpcode_Caches[CALL] == 3);
    CHECK(_PyOpcode_Caches[LOAD_ATTR] == 9);
    CHECK(_PyOpcode_Caches[LOAD_GLOBAL] == 4);
    CHECK(_PyOpcode_num_popped(GET_ITER, 0) == 1);
    CHECK(_PyOpcode_num_pushed(GET_ITER, 0) == 2);
    CHECK(_PyOpcode_num_popped(POP_ITER, 0) == 2);
    CHECK(_PyOpcode_num_popped(CALL, 3) == 5);
    CHECK(_PyOpcode_num_pushed(LOAD_GLOBAL, 1) == 2);
    CHECK(_PyOpcode_num_pushed(LOAD_GLOBAL, 0) == 1);
    CHECK(OPCODE_HAS_JUMP(FOR_ITER));
    CHECK(!OPCODE_HAS_ARG(NOP));
    CHECK(CACHE == 0 && RESUME == 128);
    Py_RETURN_NONE;
}

static PyObject *
frame_counters(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("(nn)", _Py_frame_objects_created, _Py_frame_reifications);
}

static PyMethodDef module_methods[] = {
    {"test_stackref", test_stackref, METH_NOARGS, NULL},
    {"test_immortal", test_immortal, METH_NOARGS, NULL},
    {"test_data_stack", test_data_stack, METH_NOARGS, NULL},
    {"test_opcode_metadata", test_opcode_metadata, METH_NOARGS, NULL},
    {"frame_counters", frame_counters, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_testinternalcapi",
    .m_doc = "White-box checks of the runtime's internals.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyObject *
PyInit__testinternalcapi(void)
{
    return PyModule_Create(&module_def);
}
