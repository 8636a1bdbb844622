/* Test modules for loading C extensions from shared objects
   (Python/importdl.c): the same file is built twice, once per kind of
   initialization, and Lib/test/test_extension_loading.py imports both.

   Built with -DTEST_SINGLE_PHASE: _testsinglephase, whose PyInit_ returns
   a finished module.  Otherwise: _testmultiphase, whose PyInit_ returns a
   PyModuleDef with an exec slot and per-module state (PEP 489). */

#include "Python.h"

static PyObject *
answer(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(42);
}

#ifdef TEST_SINGLE_PHASE

static int init_calls;

static PyObject *
get_init_calls(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(init_calls);
}

static PyMethodDef single_methods[] = {
    {"answer", answer, METH_NOARGS, "Return 42."},
    {"init_calls", get_init_calls, METH_NOARGS, "How many times PyInit_ ran."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef single_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_testsinglephase",
    .m_doc = "A single-phase extension module for the loader's tests.",
    .m_size = -1,
    .m_methods = single_methods,
};

PyMODINIT_FUNC
PyInit__testsinglephase(void)
{
    init_calls++;
    return PyModule_Create(&single_def);
}

#else

typedef struct {
    long exec_calls;
} multi_state;

static PyObject *
get_exec_calls(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    multi_state *st = PyModule_GetState(module);
    return PyLong_FromLong(st->exec_calls);
}

static int
multi_exec(PyObject *module)
{
    multi_state *st = PyModule_GetState(module);
    st->exec_calls++;
    return PyModule_AddStringConstant(module, "made_by", "exec slot");
}

static PyMethodDef multi_methods[] = {
    {"answer", answer, METH_NOARGS, "Return 42."},
    {"exec_calls", get_exec_calls, METH_NOARGS, "How many times the exec slot ran on this module."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot multi_slots[] = {
    {Py_mod_exec, multi_exec},
    {0, NULL},
};

static struct PyModuleDef multi_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_testmultiphase",
    .m_doc = "A multi-phase extension module for the loader's tests.",
    .m_size = sizeof(multi_state),
    .m_methods = multi_methods,
    .m_slots = multi_slots,
};

PyMODINIT_FUNC
PyInit__testmultiphase(void)
{
    return PyModuleDef_Init(&multi_def);
}

#endif
