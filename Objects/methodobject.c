/* Built-in functions and methods implemented in C: `len`, `[].append`.

   A PyCFunctionObject pairs a PyMethodDef with the object it is bound to
   (a module for module-level functions, an instance for methods).  Each
   calling convention (METH_NOARGS, METH_O, METH_FASTCALL, ...) has its
   own vectorcall entry so that calls never build an argument tuple unless
   the C function wants one (METH_VARARGS, which goes through tp_call). */
#include "Python.h"
#include "pycore_call.h"
#include "pycore_ceval.h"
#include "pycore_descrobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"

#define CALL_FLAGS(ml) \
    ((ml)->ml_flags & (METH_VARARGS | METH_FASTCALL | METH_NOARGS | METH_O | METH_KEYWORDS | METH_METHOD))

static PyObject *cfunction_vectorcall_FASTCALL(PyObject *, PyObject *const *, size_t, PyObject *);
static PyObject *cfunction_vectorcall_FASTCALL_KEYWORDS(PyObject *, PyObject *const *, size_t,
                                                        PyObject *);
static PyObject *cfunction_vectorcall_FASTCALL_KEYWORDS_METHOD(PyObject *, PyObject *const *,
                                                               size_t, PyObject *);
static PyObject *cfunction_vectorcall_NOARGS(PyObject *, PyObject *const *, size_t, PyObject *);
static PyObject *cfunction_vectorcall_O(PyObject *, PyObject *const *, size_t, PyObject *);

/* ---- Construction --------------------------------------------------------------- */

static int
pick_vectorcall(PyMethodDef *ml, vectorcallfunc *out)
{
    switch (CALL_FLAGS(ml)) {
    case METH_VARARGS:
    case METH_VARARGS | METH_KEYWORDS:
        *out = NULL; /* tp_call builds the tuple */
        return 0;
    case METH_FASTCALL:
        *out = cfunction_vectorcall_FASTCALL;
        return 0;
    case METH_FASTCALL | METH_KEYWORDS:
        *out = cfunction_vectorcall_FASTCALL_KEYWORDS;
        return 0;
    case METH_NOARGS:
        *out = cfunction_vectorcall_NOARGS;
        return 0;
    case METH_O:
        *out = cfunction_vectorcall_O;
        return 0;
    case METH_METHOD | METH_FASTCALL | METH_KEYWORDS:
        *out = cfunction_vectorcall_FASTCALL_KEYWORDS_METHOD;
        return 0;
    default:
        PyErr_Format(PyExc_SystemError, "%s() method: bad call flags", ml->ml_name);
        return -1;
    }
}

PyObject *
PyCMethod_New(PyMethodDef *ml, PyObject *self, PyObject *module, PyTypeObject *cls)
{
    vectorcallfunc vectorcall;
    if (pick_vectorcall(ml, &vectorcall) < 0) {
        return NULL;
    }
    PyCFunctionObject *op;
    if (ml->ml_flags & METH_METHOD) {
        if (cls == NULL) {
            PyErr_SetString(PyExc_SystemError,
                            "attempting to create PyCMethod with a METH_METHOD flag but no class");
            return NULL;
        }
        PyCMethodObject *om = PyObject_GC_New(PyCMethodObject, &PyCMethod_Type);
        if (om == NULL) {
            return NULL;
        }
        om->mm_class = (PyTypeObject *)Py_NewRef(cls);
        op = (PyCFunctionObject *)om;
    }
    else {
        if (cls != NULL) {
            PyErr_SetString(PyExc_SystemError,
                            "attempting to create PyCFunction with class but no METH_METHOD flag");
            return NULL;
        }
        op = PyObject_GC_New(PyCFunctionObject, &PyCFunction_Type);
        if (op == NULL) {
            return NULL;
        }
    }
    op->m_weakreflist = NULL;
    op->m_ml = ml;
    op->m_self = Py_XNewRef(self);
    op->m_module = Py_XNewRef(module);
    op->vectorcall = vectorcall;
    PyObject_GC_Track(op);
    return (PyObject *)op;
}

PyObject *
PyCFunction_NewEx(PyMethodDef *ml, PyObject *self, PyObject *module)
{
    return PyCMethod_New(ml, self, module, NULL);
}

PyObject *
PyCFunction_New(PyMethodDef *ml, PyObject *self)
{
    return PyCFunction_NewEx(ml, self, NULL);
}

PyCFunction
PyCFunction_GetFunction(PyObject *op)
{
    if (!PyCFunction_Check(op)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return PyCFunction_GET_FUNCTION(op);
}

PyObject *
PyCFunction_GetSelf(PyObject *op)
{
    if (!PyCFunction_Check(op)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return PyCFunction_GET_SELF(op);
}

/* ---- Calls -------------------------------------------------------------------------- */

static inline PyObject *
cfunc_self(PyObject *func)
{
    return PyCFunction_GET_SELF(func);
}

static int
cfunction_check_kwargs(PyThreadState *tstate, PyObject *func, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames)) {
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError, "%U takes no keyword arguments", funcstr);
            Py_DECREF(funcstr);
        }
        return -1;
    }
    return 0;
}

static void *
cfunction_enter_call(PyThreadState *tstate, PyObject *func)
{
    if (_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
        return NULL;
    }
    return (void *)PyCFunction_GET_FUNCTION(func);
}

static PyObject *
cfunction_vectorcall_FASTCALL(PyObject *func, PyObject *const *args, size_t nargsf,
                              PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (cfunction_check_kwargs(tstate, func, kwnames) < 0) {
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyCFunctionFast meth = (PyCFunctionFast)cfunction_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(cfunc_self(func), args, nargs);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
cfunction_vectorcall_FASTCALL_KEYWORDS(PyObject *func, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyCFunctionFastWithKeywords meth =
        (PyCFunctionFastWithKeywords)cfunction_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(cfunc_self(func), args, nargs, kwnames);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
cfunction_vectorcall_FASTCALL_KEYWORDS_METHOD(PyObject *func, PyObject *const *args,
                                              size_t nargsf, PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyTypeObject *cls = ((PyCMethodObject *)func)->mm_class;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyCMethod meth = (PyCMethod)cfunction_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(cfunc_self(func), cls, args, (size_t)nargs, kwnames);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
cfunction_vectorcall_NOARGS(PyObject *func, PyObject *const *args, size_t nargsf,
                            PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (cfunction_check_kwargs(tstate, func, kwnames) < 0) {
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 0) {
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError, "%U takes no arguments (%zd given)", funcstr,
                          nargs);
            Py_DECREF(funcstr);
        }
        return NULL;
    }
    PyCFunction meth = (PyCFunction)cfunction_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(cfunc_self(func), NULL);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
cfunction_vectorcall_O(PyObject *func, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (cfunction_check_kwargs(tstate, func, kwnames) < 0) {
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 1) {
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError, "%U takes exactly one argument (%zd given)",
                          funcstr, nargs);
            Py_DECREF(funcstr);
        }
        return NULL;
    }
    PyCFunction meth = (PyCFunction)cfunction_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(cfunc_self(func), args[0]);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

/* tp_call: METH_VARARGS functions get the tuple as is; the others go
   through their vectorcall entry. */
static PyObject *
cfunction_call(PyObject *func, PyObject *args, PyObject *kwargs)
{
    PyThreadState *tstate = _PyThreadState_GET();
    int flags = PyCFunction_GET_FLAGS(func);
    if (!(flags & METH_VARARGS)) {
        return PyVectorcall_Call(func, args, kwargs);
    }
    PyCFunction meth = PyCFunction_GET_FUNCTION(func);
    PyObject *self = cfunc_self(func);
    if (_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
        return NULL;
    }
    PyObject *result;
    if (flags & METH_KEYWORDS) {
        result = ((PyCFunctionWithKeywords)(void (*)(void))meth)(self, args, kwargs);
    }
    else if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        _PyErr_Format(tstate, PyExc_TypeError, "%.200s() takes no keyword arguments",
                      ((PyCFunctionObject *)func)->m_ml->ml_name);
        result = NULL;
    }
    else {
        result = meth(self, args);
    }
    _Py_LeaveRecursiveCallTstate(tstate);
    return _Py_CheckFunctionResult(tstate, func, result, NULL);
}

/* ---- Attributes ---------------------------------------------------------------------- */

static int
bound_to_module(PyCFunctionObject *m)
{
    return m->m_self == NULL || PyModule_Check(m->m_self);
}

static PyObject *
meth_get_doc(PyObject *self, void *context)
{
    PyMethodDef *ml = ((PyCFunctionObject *)self)->m_ml;
    return _PyDescr_DocFromInternalDoc(ml->ml_name, ml->ml_doc);
}

static PyObject *
meth_get_text_signature(PyObject *self, void *context)
{
    PyMethodDef *ml = ((PyCFunctionObject *)self)->m_ml;
    return _PyDescr_SignatureFromInternalDoc(ml->ml_name, ml->ml_doc);
}

static PyObject *
meth_get_name(PyObject *self, void *context)
{
    return PyUnicode_FromString(((PyCFunctionObject *)self)->m_ml->ml_name);
}

static PyObject *
meth_get_qualname(PyObject *self, void *context)
{
    PyCFunctionObject *m = (PyCFunctionObject *)self;
    if (bound_to_module(m)) {
        return PyUnicode_FromString(m->m_ml->ml_name);
    }
    PyObject *type = PyType_Check(m->m_self) ? m->m_self : (PyObject *)Py_TYPE(m->m_self);
    PyObject *type_qualname = PyObject_GetAttr(type, _Py_ID(__qualname__));
    if (type_qualname == NULL) {
        return NULL;
    }
    if (!PyUnicode_Check(type_qualname)) {
        PyErr_SetString(PyExc_TypeError,
                        "<method>.__class__.__qualname__ is not a unicode object");
        Py_DECREF(type_qualname);
        return NULL;
    }
    PyObject *res = PyUnicode_FromFormat("%S.%s", type_qualname, m->m_ml->ml_name);
    Py_DECREF(type_qualname);
    return res;
}

static PyObject *
meth_get_self(PyObject *self, void *context)
{
    PyObject *s = PyCFunction_GET_SELF(self);
    return Py_NewRef(s == NULL ? Py_None : s);
}

static PyGetSetDef meth_getsets[] = {
    {"__doc__", meth_get_doc, NULL, NULL, NULL},
    {"__name__", meth_get_name, NULL, NULL, NULL},
    {"__qualname__", meth_get_qualname, NULL, NULL, NULL},
    {"__self__", meth_get_self, NULL, NULL, NULL},
    {"__text_signature__", meth_get_text_signature, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef meth_members[] = {
    {"__module__", _Py_T_OBJECT, offsetof(PyCFunctionObject, m_module), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyObject *
meth_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyCFunctionObject *m = (PyCFunctionObject *)self;
    if (bound_to_module(m)) {
        return PyUnicode_FromString(m->m_ml->ml_name);
    }
    PyObject *builtins = PyEval_GetBuiltins();
    PyObject *getattr = builtins != NULL ? PyDict_GetItemWithError(builtins, _Py_ID(getattr)) : NULL;
    if (getattr == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "builtins.getattr is missing");
        }
        return NULL;
    }
    return Py_BuildValue("O(Os)", getattr, m->m_self, m->m_ml->ml_name);
}

static PyMethodDef meth_methods[] = {
    {"__reduce__", meth_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyObject *
meth_repr(PyObject *self)
{
    PyCFunctionObject *m = (PyCFunctionObject *)self;
    if (bound_to_module(m)) {
        return PyUnicode_FromFormat("<built-in function %s>", m->m_ml->ml_name);
    }
    return PyUnicode_FromFormat("<built-in method %s of %s object at %p>", m->m_ml->ml_name,
                                Py_TYPE(m->m_self)->tp_name, (void *)m->m_self);
}

static PyObject *
meth_richcompare(PyObject *self, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyCFunction_Check(self) || !PyCFunction_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyCFunctionObject *a = (PyCFunctionObject *)self, *b = (PyCFunctionObject *)other;
    int eq = a->m_self == b->m_self && a->m_ml->ml_meth == b->m_ml->ml_meth;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t
meth_hash(PyObject *self)
{
    PyCFunctionObject *a = (PyCFunctionObject *)self;
    Py_hash_t x = _Py_HashPointer(a->m_self);
    Py_hash_t y = _Py_HashPointer((void *)a->m_ml->ml_meth);
    x ^= y;
    return x == -1 ? -2 : x;
}

/* ---- Lifetime ---------------------------------------------------------------------------- */

static void
meth_dealloc(PyObject *self)
{
    PyCFunctionObject *m = (PyCFunctionObject *)self;
    PyObject_GC_UnTrack(self);
    if (m->m_weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    if (Py_IS_TYPE(self, &PyCMethod_Type)) {
        Py_XDECREF(((PyCMethodObject *)self)->mm_class);
    }
    Py_XDECREF(m->m_self);
    Py_XDECREF(m->m_module);
    PyObject_GC_Del(self);
}

static int
meth_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyCFunctionObject *m = (PyCFunctionObject *)self;
    if (Py_IS_TYPE(self, &PyCMethod_Type)) {
        Py_VISIT(((PyCMethodObject *)self)->mm_class);
    }
    Py_VISIT(m->m_self);
    Py_VISIT(m->m_module);
    return 0;
}

PyTypeObject PyCFunction_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "builtin_function_or_method",
    .tp_basicsize = sizeof(PyCFunctionObject),
    .tp_dealloc = meth_dealloc,
    .tp_vectorcall_offset = offsetof(PyCFunctionObject, vectorcall),
    .tp_repr = meth_repr,
    .tp_hash = meth_hash,
    .tp_call = cfunction_call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_traverse = meth_traverse,
    .tp_richcompare = meth_richcompare,
    .tp_weaklistoffset = offsetof(PyCFunctionObject, m_weakreflist),
    .tp_methods = meth_methods,
    .tp_members = meth_members,
    .tp_getset = meth_getsets,
};

PyTypeObject PyCMethod_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "builtin_method",
    .tp_basicsize = sizeof(PyCMethodObject),
    .tp_dealloc = meth_dealloc,
    .tp_vectorcall_offset = offsetof(PyCFunctionObject, vectorcall),
    .tp_call = cfunction_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_traverse = meth_traverse,
    .tp_base = &PyCFunction_Type,
};
