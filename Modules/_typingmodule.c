/* _typing: the C half of typing.py.  It only exports the objects that live
   in Objects/typevarobject.c and Objects/unionobject.c, plus _idfunc, the
   identity function typing.NewType uses for its instances. */

#include "Python.h"
#include "pycore_typing.h"

static PyObject *
typing_idfunc(PyObject *module, PyObject *x)
{
    return Py_NewRef(x);
}

static PyMethodDef typing_methods[] = {
    {"_idfunc", typing_idfunc, METH_O, "Return the argument unchanged."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef typingmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_typing",
    .m_doc = "The typing objects written in C, for typing.py to import.",
    .m_size = -1,
    .m_methods = typing_methods,
};

static int
add_exports(PyObject *m)
{
    struct {
        const char *name;
        PyObject *obj;
    } exports[] = {
        {"TypeVar", (PyObject *)&_PyTypeVar_Type},
        {"ParamSpec", (PyObject *)&_PyParamSpec_Type},
        {"TypeVarTuple", (PyObject *)&_PyTypeVarTuple_Type},
        {"ParamSpecArgs", (PyObject *)&_PyParamSpecArgs_Type},
        {"ParamSpecKwargs", (PyObject *)&_PyParamSpecKwargs_Type},
        {"TypeAliasType", (PyObject *)&_PyTypeAlias_Type},
        {"Generic", _PyTyping_GetGeneric()},
        {"Union", (PyObject *)&_PyUnion_Type},
        {"NoDefault", _Py_NoDefault},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(exports); i++) {
        if (PyModule_AddObjectRef(m, exports[i].name, exports[i].obj) < 0) {
            return -1;
        }
    }
    return 0;
}

PyObject *
PyInit__typing(void)
{
    PyObject *m = PyModule_Create(&typingmodule);
    if (m != NULL && add_exports(m) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
