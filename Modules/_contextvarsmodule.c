/* The _contextvars module: the types of Python/context.c and
   copy_context(). */
#include "Python.h"
#include "pycore_context.h"

static PyObject *
contextvars_copy_context(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyContext_CopyCurrent();
}

static PyMethodDef contextvars_functions[] = {
    {"copy_context", contextvars_copy_context, METH_NOARGS,
     "A copy of the current Context."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef contextvars_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_contextvars",
    .m_doc = "Context variables (see the contextvars module).",
    .m_size = -1,
    .m_methods = contextvars_functions,
};

PyObject *
PyInit__contextvars(void)
{
    if (_PyContext_InitTypes() < 0) {
        return NULL;
    }
    PyObject *mod = PyModule_Create(&contextvars_module);
    if (mod == NULL) {
        return NULL;
    }
    if (PyModule_AddType(mod, &PyContext_Type) < 0 ||
        PyModule_AddType(mod, &PyContextVar_Type) < 0 ||
        PyModule_AddType(mod, &PyContextToken_Type) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
