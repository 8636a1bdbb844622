/* Descriptors made by PyType_Ready for C types, and property.

   method_descriptor        list.append            (tp_methods)
   classmethod_descriptor   dict.fromkeys          (METH_CLASS)
   member_descriptor        property.fget          (tp_members, __slots__)
   getset_descriptor        int.real               (tp_getset)
   wrapper_descriptor       int.__add__            (C slots, see typeslots.c)
   method-wrapper           (1).__add__            (a slot wrapper bound to an object)
   mappingproxy             C.__dict__             (read-only view of a mapping)
   property

   Also PyMember_GetOne/SetOne, which read and write C struct fields
   described by a PyMemberDef. */
#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_call.h"
#include "pycore_ceval.h"
#include "pycore_descrobject.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"

/* ---- Common descriptor parts --------------------------------------------------- */

static void
descr_dealloc(PyObject *self)
{
    PyDescrObject *descr = (PyDescrObject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(descr->d_type);
    Py_XDECREF(descr->d_name);
    Py_XDECREF(descr->d_qualname);
    PyObject_GC_Del(self);
}

static int
descr_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(PyDescr_TYPE(self));
    return 0;
}

static PyObject *
descr_repr(PyDescrObject *descr, const char *kind)
{
    return PyUnicode_FromFormat("<%s '%U' of '%s' objects>", kind, descr->d_name,
                                descr->d_type->tp_name);
}

int
_PyDescr_CheckSelf(PyDescrObject *descr, PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, descr->d_type)) {
        PyErr_Format(PyExc_TypeError,
                     "descriptor '%U' for '%.100s' objects doesn't apply to a '%.100s' object",
                     descr->d_name, descr->d_type->tp_name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* "Owner.name" as a new reference, made on first use and kept in the
   descriptor.  The descriptors of static types live forever (immortal),
   and so does what they keep: the cached string is made immortal too, or
   it would count as a leak. */
static PyObject *
descr_get_qualname(PyObject *self, void *context)
{
    PyDescrObject *descr = (PyDescrObject *)self;
    if (descr->d_qualname != NULL) {
        return Py_NewRef(descr->d_qualname);
    }
    PyObject *owner = PyObject_GetAttr((PyObject *)descr->d_type, _Py_ID(__qualname__));
    if (owner != NULL && !PyUnicode_Check(owner)) {
        PyErr_SetString(PyExc_TypeError,
                        "<descriptor>.__objclass__.__qualname__ is not a unicode object");
        Py_CLEAR(owner);
    }
    if (owner == NULL) {
        return NULL;
    }
    PyObject *made = PyUnicode_FromFormat("%U.%U", owner, descr->d_name);
    Py_DECREF(owner);
    if (made != NULL) {
        if (_Py_IsImmortal(self)) {
            _Py_SetImmortal(made);
        }
        descr->d_qualname = Py_NewRef(made);
    }
    return made;
}

static PyObject *
descr_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *getattr = PyEval_GetBuiltins() != NULL
                            ? PyDict_GetItemWithError(PyEval_GetBuiltins(), _Py_ID(getattr))
                            : NULL;
    if (getattr == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "builtins.getattr is missing");
        }
        return NULL;
    }
    return Py_BuildValue("O(OO)", getattr, PyDescr_TYPE(self), PyDescr_NAME(self));
}

static PyMemberDef descr_members[] = {
    {"__objclass__", _Py_T_OBJECT, offsetof(PyDescrObject, d_type), Py_READONLY, NULL},
    {"__name__", _Py_T_OBJECT, offsetof(PyDescrObject, d_name), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

/* Builtin docs may start with a signature line, "name(sig)\n--\n\n": the
   signature goes to __text_signature__, the rest to __doc__. */
static const char *
find_signature_end(const char *name, const char *doc)
{
    if (doc == NULL || name == NULL) {
        return NULL;
    }
    const char *dot = strrchr(name, '.');
    if (dot != NULL) {
        name = dot + 1;
    }
    size_t len = strlen(name);
    if (strncmp(doc, name, len) != 0 || doc[len] != '(') {
        return NULL;
    }
    return strstr(doc, ")\n--\n\n");
}

PyObject *
_PyDescr_DocFromInternalDoc(const char *name, const char *doc)
{
    if (doc == NULL) {
        Py_RETURN_NONE;
    }
    const char *end = find_signature_end(name, doc);
    if (end != NULL) {
        doc = end + 6;
    }
    if (*doc == '\0') {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(doc);
}

PyObject *
_PyDescr_SignatureFromInternalDoc(const char *name, const char *doc)
{
    const char *end = find_signature_end(name, doc);
    if (end == NULL) {
        Py_RETURN_NONE;
    }
    const char *start = strchr(doc, '(');
    return PyUnicode_FromStringAndSize(start, end - start + 1);
}

static PyDescrObject *
descr_new(PyTypeObject *descrtype, PyTypeObject *type, const char *name)
{
    PyDescrObject *descr = (PyDescrObject *)PyType_GenericAlloc(descrtype, 0);
    if (descr == NULL) {
        return NULL;
    }
    descr->d_type = (PyTypeObject *)Py_XNewRef(type);
    descr->d_name = PyUnicode_InternFromString(name);
    if (descr->d_name == NULL) {
        Py_DECREF(descr);
        return NULL;
    }
    descr->d_qualname = NULL;
    return descr;
}

/* ---- method_descriptor -------------------------------------------------------------- */

static PyObject *
method_repr(PyObject *self)
{
    return descr_repr((PyDescrObject *)self, "method");
}

static PyObject *
method_get(PyObject *self, PyObject *obj, PyObject *type)
{
    PyMethodDescrObject *descr = (PyMethodDescrObject *)self;
    if (obj == NULL) {
        return Py_NewRef(self);
    }
    if (_PyDescr_CheckSelf((PyDescrObject *)descr, obj) < 0) {
        return NULL;
    }
    if (descr->d_method->ml_flags & METH_METHOD) {
        return PyCMethod_New(descr->d_method, obj, NULL, descr->d_common.d_type);
    }
    return PyCFunction_NewEx(descr->d_method, obj, NULL);
}

/* Argument checks shared by the vectorcall entries: self must be there
   and of the right type; kwnames only where the flags allow them. */
static int
method_check_args(PyObject *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs < 1) {
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            PyErr_Format(PyExc_TypeError, "unbound method %U needs an argument", funcstr);
            Py_DECREF(funcstr);
        }
        return -1;
    }
    if (_PyDescr_CheckSelf((PyDescrObject *)func, args[0]) < 0) {
        return -1;
    }
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames)) {
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            PyErr_Format(PyExc_TypeError, "%U takes no keyword arguments", funcstr);
            Py_DECREF(funcstr);
        }
        return -1;
    }
    return 0;
}

static void *
method_enter_call(PyThreadState *tstate, PyObject *func)
{
    if (_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
        return NULL;
    }
    return (void *)((PyMethodDescrObject *)func)->d_method->ml_meth;
}

static PyObject *
method_vectorcall_VARARGS(PyObject *func, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (method_check_args(func, args, nargs, kwnames) < 0) {
        return NULL;
    }
    PyObject *argstuple = _PyTuple_FromArray(args + 1, nargs - 1);
    if (argstuple == NULL) {
        return NULL;
    }
    PyCFunction meth = (PyCFunction)method_enter_call(tstate, func);
    if (meth == NULL) {
        Py_DECREF(argstuple);
        return NULL;
    }
    PyObject *result = meth(args[0], argstuple);
    Py_DECREF(argstuple);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
method_vectorcall_VARARGS_KEYWORDS(PyObject *func, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (method_check_args(func, args, nargs, NULL) < 0) {
        return NULL;
    }
    PyObject *argstuple = _PyTuple_FromArray(args + 1, nargs - 1);
    if (argstuple == NULL) {
        return NULL;
    }
    PyObject *result = NULL, *kwdict = NULL;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        kwdict = _PyStack_AsDict(args + nargs, kwnames);
        if (kwdict == NULL) {
            goto exit;
        }
    }
    PyCFunctionWithKeywords meth = (PyCFunctionWithKeywords)method_enter_call(tstate, func);
    if (meth == NULL) {
        goto exit;
    }
    result = meth(args[0], argstuple, kwdict);
    _Py_LeaveRecursiveCallTstate(tstate);
exit:
    Py_DECREF(argstuple);
    Py_XDECREF(kwdict);
    return result;
}

static PyObject *
method_vectorcall_FASTCALL(PyObject *func, PyObject *const *args, size_t nargsf,
                           PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (method_check_args(func, args, nargs, kwnames) < 0) {
        return NULL;
    }
    PyCFunctionFast meth = (PyCFunctionFast)method_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(args[0], args + 1, nargs - 1);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
method_vectorcall_FASTCALL_KEYWORDS(PyObject *func, PyObject *const *args, size_t nargsf,
                                    PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (method_check_args(func, args, nargs, NULL) < 0) {
        return NULL;
    }
    PyCFunctionFastWithKeywords meth = (PyCFunctionFastWithKeywords)method_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(args[0], args + 1, nargs - 1, kwnames);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
method_vectorcall_FASTCALL_KEYWORDS_METHOD(PyObject *func, PyObject *const *args, size_t nargsf,
                                           PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (method_check_args(func, args, nargs, NULL) < 0) {
        return NULL;
    }
    PyCMethod meth = (PyCMethod)method_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(args[0], ((PyDescrObject *)func)->d_type, args + 1,
                            (size_t)(nargs - 1), kwnames);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
method_vectorcall_NOARGS(PyObject *func, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (method_check_args(func, args, nargs, kwnames) < 0) {
        return NULL;
    }
    if (nargs != 1) {
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            PyErr_Format(PyExc_TypeError, "%U takes no arguments (%zd given)", funcstr,
                         nargs - 1);
            Py_DECREF(funcstr);
        }
        return NULL;
    }
    PyCFunction meth = (PyCFunction)method_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(args[0], NULL);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static PyObject *
method_vectorcall_O(PyObject *func, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (method_check_args(func, args, nargs, kwnames) < 0) {
        return NULL;
    }
    if (nargs != 2) {
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            PyErr_Format(PyExc_TypeError, "%U takes exactly one argument (%zd given)", funcstr,
                         nargs - 1);
            Py_DECREF(funcstr);
        }
        return NULL;
    }
    PyCFunction meth = (PyCFunction)method_enter_call(tstate, func);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *result = meth(args[0], args[1]);
    _Py_LeaveRecursiveCallTstate(tstate);
    return result;
}

static vectorcallfunc
method_vectorcall_for(PyMethodDef *method)
{
    switch (method->ml_flags & (METH_VARARGS | METH_FASTCALL | METH_NOARGS | METH_O |
                                METH_KEYWORDS | METH_METHOD)) {
    case METH_VARARGS:
        return method_vectorcall_VARARGS;
    case METH_VARARGS | METH_KEYWORDS:
        return method_vectorcall_VARARGS_KEYWORDS;
    case METH_FASTCALL:
        return method_vectorcall_FASTCALL;
    case METH_FASTCALL | METH_KEYWORDS:
        return method_vectorcall_FASTCALL_KEYWORDS;
    case METH_METHOD | METH_FASTCALL | METH_KEYWORDS:
        return method_vectorcall_FASTCALL_KEYWORDS_METHOD;
    case METH_NOARGS:
        return method_vectorcall_NOARGS;
    case METH_O:
        return method_vectorcall_O;
    default:
        return NULL;
    }
}

PyObject *
PyDescr_NewMethod(PyTypeObject *type, PyMethodDef *method)
{
    vectorcallfunc vectorcall = method_vectorcall_for(method);
    if (vectorcall == NULL) {
        PyErr_Format(PyExc_SystemError, "%s() method: bad call flags", method->ml_name);
        return NULL;
    }
    PyMethodDescrObject *descr =
        (PyMethodDescrObject *)descr_new(&PyMethodDescr_Type, type, method->ml_name);
    if (descr != NULL) {
        descr->d_method = method;
        descr->vectorcall = vectorcall;
    }
    return (PyObject *)descr;
}

static PyObject *
method_get_doc(PyObject *self, void *context)
{
    PyMethodDef *ml = ((PyMethodDescrObject *)self)->d_method;
    return _PyDescr_DocFromInternalDoc(ml->ml_name, ml->ml_doc);
}

static PyObject *
method_get_text_signature(PyObject *self, void *context)
{
    PyMethodDef *ml = ((PyMethodDescrObject *)self)->d_method;
    return _PyDescr_SignatureFromInternalDoc(ml->ml_name, ml->ml_doc);
}

static PyMethodDef descr_methods[] = {
    {"__reduce__", descr_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef method_getset[] = {
    {"__doc__", method_get_doc, NULL, NULL, NULL},
    {"__qualname__", descr_get_qualname, NULL, NULL, NULL},
    {"__text_signature__", method_get_text_signature, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PyMethodDescr_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "method_descriptor",
    .tp_basicsize = sizeof(PyMethodDescrObject),
    .tp_dealloc = descr_dealloc,
    .tp_vectorcall_offset = offsetof(PyMethodDescrObject, vectorcall),
    .tp_repr = method_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_traverse = descr_traverse,
    .tp_methods = descr_methods,
    .tp_members = descr_members,
    .tp_getset = method_getset,
    .tp_descr_get = method_get,
};

/* ---- classmethod_descriptor ------------------------------------------------------------ */

static PyObject *
classmethod_get(PyObject *self, PyObject *obj, PyObject *type)
{
    PyMethodDescrObject *descr = (PyMethodDescrObject *)self;
    if (type == NULL) {
        if (obj == NULL) {
            PyErr_Format(PyExc_TypeError,
                         "descriptor '%U' for type '%.100s' needs either an object or a type",
                         PyDescr_NAME(descr), PyDescr_TYPE(descr)->tp_name);
            return NULL;
        }
        type = (PyObject *)Py_TYPE(obj);
    }
    if (!PyType_Check(type)) {
        PyErr_Format(PyExc_TypeError,
                     "descriptor '%U' for type '%.100s' needs a type, not a '%.100s' as arg 2",
                     PyDescr_NAME(descr), PyDescr_TYPE(descr)->tp_name, Py_TYPE(type)->tp_name);
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)type, PyDescr_TYPE(descr))) {
        PyErr_Format(PyExc_TypeError,
                     "descriptor '%U' requires a subtype of '%.100s' but received '%.100s'",
                     PyDescr_NAME(descr), PyDescr_TYPE(descr)->tp_name,
                     ((PyTypeObject *)type)->tp_name);
        return NULL;
    }
    PyTypeObject *cls = NULL;
    if (descr->d_method->ml_flags & METH_METHOD) {
        cls = descr->d_common.d_type;
    }
    return PyCMethod_New(descr->d_method, type, NULL, cls);
}

static PyObject *
classmethoddescr_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyDescrObject *descr = (PyDescrObject *)self;
    Py_ssize_t argc = PyTuple_GET_SIZE(args);
    if (argc < 1) {
        PyErr_Format(PyExc_TypeError, "descriptor '%U' of '%.100s' object needs an argument",
                     descr->d_name, descr->d_type->tp_name);
        return NULL;
    }
    PyObject *bound = classmethod_get(self, NULL, PyTuple_GET_ITEM(args, 0));
    if (bound == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_VectorcallDict(bound, _PyTuple_ITEMS(args) + 1, (size_t)(argc - 1),
                                            kwds);
    Py_DECREF(bound);
    return res;
}

static PyObject *
classmethod_repr(PyObject *self)
{
    return descr_repr((PyDescrObject *)self, "method");
}

PyTypeObject PyClassMethodDescr_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "classmethod_descriptor",
    .tp_basicsize = sizeof(PyMethodDescrObject),
    .tp_dealloc = descr_dealloc,
    .tp_repr = classmethod_repr,
    .tp_call = classmethoddescr_call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = descr_traverse,
    .tp_members = descr_members,
    .tp_getset = method_getset,
    .tp_descr_get = classmethod_get,
};

PyObject *
PyDescr_NewClassMethod(PyTypeObject *type, PyMethodDef *method)
{
    PyMethodDescrObject *descr =
        (PyMethodDescrObject *)descr_new(&PyClassMethodDescr_Type, type, method->ml_name);
    if (descr != NULL) {
        descr->d_method = method;
        descr->vectorcall = NULL;
    }
    return (PyObject *)descr;
}

/* ---- member_descriptor ------------------------------------------------------------------ */

static PyObject *
member_repr(PyObject *self)
{
    return descr_repr((PyDescrObject *)self, "member");
}

static PyObject *
member_get(PyObject *self, PyObject *obj, PyObject *type)
{
    PyMemberDescrObject *descr = (PyMemberDescrObject *)self;
    if (obj == NULL) {
        return Py_NewRef(self);
    }
    if (_PyDescr_CheckSelf((PyDescrObject *)descr, obj) < 0) {
        return NULL;
    }
    return PyMember_GetOne((const char *)obj, descr->d_member);
}

static int
member_set(PyObject *self, PyObject *obj, PyObject *value)
{
    PyMemberDescrObject *descr = (PyMemberDescrObject *)self;
    if (_PyDescr_CheckSelf((PyDescrObject *)descr, obj) < 0) {
        return -1;
    }
    return PyMember_SetOne((char *)obj, descr->d_member, value);
}

/* Member and getset docstrings carry no embedded signature, so unlike
   _PyDescr_DocFromInternalDoc the text is used as it is. */
static PyObject *
plain_doc(const char *doc)
{
    if (doc == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(doc);
}

static PyObject *
member_get_doc(PyObject *self, void *context)
{
    return plain_doc(((PyMemberDescrObject *)self)->d_member->doc);
}

static PyGetSetDef member_getset[] = {
    {"__doc__", member_get_doc, NULL, NULL, NULL},
    {"__qualname__", descr_get_qualname, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PyMemberDescr_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "member_descriptor",
    .tp_basicsize = sizeof(PyMemberDescrObject),
    .tp_dealloc = descr_dealloc,
    .tp_repr = member_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = descr_traverse,
    .tp_methods = descr_methods,
    .tp_members = descr_members,
    .tp_getset = member_getset,
    .tp_descr_get = member_get,
    .tp_descr_set = member_set,
};

PyObject *
PyDescr_NewMember(PyTypeObject *type, PyMemberDef *member)
{
    if (member->flags & Py_RELATIVE_OFFSET) {
        PyErr_SetString(PyExc_SystemError,
                        "PyDescr_NewMember used with Py_RELATIVE_OFFSET");
        return NULL;
    }
    PyMemberDescrObject *descr =
        (PyMemberDescrObject *)descr_new(&PyMemberDescr_Type, type, member->name);
    if (descr != NULL) {
        descr->d_member = member;
    }
    return (PyObject *)descr;
}

/* ---- getset_descriptor --------------------------------------------------------------------- */

static PyObject *
getset_repr(PyObject *self)
{
    return descr_repr((PyDescrObject *)self, "attribute");
}

static PyObject *
getset_get(PyObject *self, PyObject *obj, PyObject *type)
{
    PyGetSetDescrObject *descr = (PyGetSetDescrObject *)self;
    if (obj == NULL) {
        return Py_NewRef(self);
    }
    if (_PyDescr_CheckSelf((PyDescrObject *)descr, obj) < 0) {
        return NULL;
    }
    if (descr->d_getset->get != NULL) {
        return descr->d_getset->get(obj, descr->d_getset->closure);
    }
    PyErr_Format(PyExc_AttributeError, "attribute '%U' of '%.100s' objects is not readable",
                 PyDescr_NAME(descr), PyDescr_TYPE(descr)->tp_name);
    return NULL;
}

static int
getset_set(PyObject *self, PyObject *obj, PyObject *value)
{
    PyGetSetDescrObject *descr = (PyGetSetDescrObject *)self;
    if (_PyDescr_CheckSelf((PyDescrObject *)descr, obj) < 0) {
        return -1;
    }
    if (descr->d_getset->set != NULL) {
        return descr->d_getset->set(obj, value, descr->d_getset->closure);
    }
    PyErr_Format(PyExc_AttributeError, "attribute '%U' of '%.100s' objects is not writable",
                 PyDescr_NAME(descr), PyDescr_TYPE(descr)->tp_name);
    return -1;
}

static PyObject *
getset_get_doc(PyObject *self, void *context)
{
    return plain_doc(((PyGetSetDescrObject *)self)->d_getset->doc);
}

static PyGetSetDef getset_getset[] = {
    {"__doc__", getset_get_doc, NULL, NULL, NULL},
    {"__qualname__", descr_get_qualname, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PyGetSetDescr_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "getset_descriptor",
    .tp_basicsize = sizeof(PyGetSetDescrObject),
    .tp_dealloc = descr_dealloc,
    .tp_repr = getset_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = descr_traverse,
    .tp_members = descr_members,
    .tp_getset = getset_getset,
    .tp_descr_get = getset_get,
    .tp_descr_set = getset_set,
};

PyObject *
PyDescr_NewGetSet(PyTypeObject *type, PyGetSetDef *getset)
{
    PyGetSetDescrObject *descr =
        (PyGetSetDescrObject *)descr_new(&PyGetSetDescr_Type, type, getset->name);
    if (descr != NULL) {
        descr->d_getset = getset;
    }
    return (PyObject *)descr;
}

/* ---- wrapper_descriptor and method-wrapper ---------------------------------------------- */

static PyObject *
wrapperdescr_raw_call(PyWrapperDescrObject *descr, PyObject *self, PyObject *args,
                      PyObject *kwds)
{
    wrapperfunc wrapper = descr->d_base->wrapper;
    if (descr->d_base->flags & PyWrapperFlag_KEYWORDS) {
        wrapperfunc_kwds wk = (wrapperfunc_kwds)(void (*)(void))wrapper;
        return wk(self, args, descr->d_wrapped, kwds);
    }
    if (kwds != NULL && (!PyDict_Check(kwds) || PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_Format(PyExc_TypeError, "wrapper %s() takes no keyword arguments",
                     descr->d_base->name);
        return NULL;
    }
    return wrapper(self, args, descr->d_wrapped);
}

static PyObject *
wrapperdescr_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyWrapperDescrObject *descr = (PyWrapperDescrObject *)self;
    Py_ssize_t argc = PyTuple_GET_SIZE(args);
    if (argc < 1) {
        PyErr_Format(PyExc_TypeError, "descriptor '%U' of '%.100s' object needs an argument",
                     PyDescr_NAME(descr), PyDescr_TYPE(descr)->tp_name);
        return NULL;
    }
    PyObject *obj = PyTuple_GET_ITEM(args, 0);
    if (!PyObject_TypeCheck(obj, PyDescr_TYPE(descr))) {
        PyErr_Format(PyExc_TypeError,
                     "descriptor '%U' requires a '%.100s' object but received a '%.100s'",
                     PyDescr_NAME(descr), PyDescr_TYPE(descr)->tp_name, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyObject *rest = PyTuple_GetSlice(args, 1, argc);
    if (rest == NULL) {
        return NULL;
    }
    PyObject *result = wrapperdescr_raw_call(descr, obj, rest, kwds);
    Py_DECREF(rest);
    return result;
}

static PyObject *
wrapperdescr_repr(PyObject *self)
{
    return descr_repr((PyDescrObject *)self, "slot wrapper");
}

static PyObject *
wrapperdescr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL) {
        return Py_NewRef(self);
    }
    if (_PyDescr_CheckSelf((PyDescrObject *)self, obj) < 0) {
        return NULL;
    }
    return PyWrapper_New(self, obj);
}

static PyObject *
wrapperdescr_get_doc(PyObject *self, void *context)
{
    struct wrapperbase *base = ((PyWrapperDescrObject *)self)->d_base;
    return _PyDescr_DocFromInternalDoc(base->name, base->doc);
}

static PyObject *
wrapperdescr_get_text_signature(PyObject *self, void *context)
{
    struct wrapperbase *base = ((PyWrapperDescrObject *)self)->d_base;
    return _PyDescr_SignatureFromInternalDoc(base->name, base->doc);
}

static PyGetSetDef wrapperdescr_getset[] = {
    {"__doc__", wrapperdescr_get_doc, NULL, NULL, NULL},
    {"__qualname__", descr_get_qualname, NULL, NULL, NULL},
    {"__text_signature__", wrapperdescr_get_text_signature, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PyWrapperDescr_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "wrapper_descriptor",
    .tp_basicsize = sizeof(PyWrapperDescrObject),
    .tp_dealloc = descr_dealloc,
    .tp_repr = wrapperdescr_repr,
    .tp_call = wrapperdescr_call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_traverse = descr_traverse,
    .tp_methods = descr_methods,
    .tp_members = descr_members,
    .tp_getset = wrapperdescr_getset,
    .tp_descr_get = wrapperdescr_get,
};

PyObject *
PyDescr_NewWrapper(PyTypeObject *type, struct wrapperbase *base, void *wrapped)
{
    PyWrapperDescrObject *descr =
        (PyWrapperDescrObject *)descr_new(&PyWrapperDescr_Type, type, base->name);
    if (descr != NULL) {
        descr->d_base = base;
        descr->d_wrapped = wrapped;
    }
    return (PyObject *)descr;
}

typedef _PyMethodWrapperObject wrapperobject;

static void
wrapper_dealloc(PyObject *self)
{
    wrapperobject *wp = (wrapperobject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(wp->descr);
    Py_XDECREF(wp->self);
    PyObject_GC_Del(self);
}

static PyObject *
wrapper_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !Py_IS_TYPE(a, &_PyMethodWrapper_Type) ||
        !Py_IS_TYPE(b, &_PyMethodWrapper_Type)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    wrapperobject *wa = (wrapperobject *)a, *wb = (wrapperobject *)b;
    int eq = wa->descr == wb->descr && wa->self == wb->self;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t
wrapper_hash(PyObject *self)
{
    wrapperobject *wp = (wrapperobject *)self;
    Py_hash_t x = PyObject_GenericHash(wp->self);
    Py_hash_t y = _Py_HashPointer(wp->descr);
    x = x ^ y;
    return x == -1 ? -2 : x;
}

static PyObject *
wrapper_repr(PyObject *self)
{
    wrapperobject *wp = (wrapperobject *)self;
    return PyUnicode_FromFormat("<method-wrapper '%s' of %s object at %p>", wp->descr->d_base->name,
                                Py_TYPE(wp->self)->tp_name, (void *)wp->self);
}

static PyObject *
wrapper_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    wrapperobject *wp = (wrapperobject *)self;
    PyObject *builtins = PyEval_GetBuiltins();
    PyObject *getattr = builtins != NULL ? PyDict_GetItemWithError(builtins, _Py_ID(getattr)) : NULL;
    if (getattr == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "builtins.getattr is missing");
        }
        return NULL;
    }
    return Py_BuildValue("O(OO)", getattr, wp->self, PyDescr_NAME(wp->descr));
}

static PyMethodDef wrapper_methods[] = {
    {"__reduce__", wrapper_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef wrapper_members[] = {
    {"__self__", _Py_T_OBJECT, offsetof(wrapperobject, self), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyObject *
wrapper_objclass(PyObject *self, void *context)
{
    return Py_NewRef(PyDescr_TYPE(((wrapperobject *)self)->descr));
}

static PyObject *
wrapper_name(PyObject *self, void *context)
{
    return Py_NewRef(PyDescr_NAME(((wrapperobject *)self)->descr));
}

static PyObject *
wrapper_qualname(PyObject *self, void *context)
{
    return descr_get_qualname((PyObject *)((wrapperobject *)self)->descr, NULL);
}

static PyObject *
wrapper_doc(PyObject *self, void *context)
{
    return wrapperdescr_get_doc((PyObject *)((wrapperobject *)self)->descr, NULL);
}

static PyObject *
wrapper_text_signature(PyObject *self, void *context)
{
    return wrapperdescr_get_text_signature((PyObject *)((wrapperobject *)self)->descr, NULL);
}

static PyGetSetDef wrapper_getsets[] = {
    {"__objclass__", wrapper_objclass, NULL, NULL, NULL},
    {"__name__", wrapper_name, NULL, NULL, NULL},
    {"__qualname__", wrapper_qualname, NULL, NULL, NULL},
    {"__doc__", wrapper_doc, NULL, NULL, NULL},
    {"__text_signature__", wrapper_text_signature, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *
wrapper_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    wrapperobject *wp = (wrapperobject *)self;
    return wrapperdescr_raw_call(wp->descr, wp->self, args, kwds);
}

static int
wrapper_traverse(PyObject *self, visitproc visit, void *arg)
{
    wrapperobject *wp = (wrapperobject *)self;
    Py_VISIT(wp->descr);
    Py_VISIT(wp->self);
    return 0;
}

PyTypeObject _PyMethodWrapper_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "method-wrapper",
    .tp_basicsize = sizeof(wrapperobject),
    .tp_dealloc = wrapper_dealloc,
    .tp_repr = wrapper_repr,
    .tp_hash = wrapper_hash,
    .tp_call = wrapper_call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = wrapper_traverse,
    .tp_richcompare = wrapper_richcompare,
    .tp_methods = wrapper_methods,
    .tp_members = wrapper_members,
    .tp_getset = wrapper_getsets,
};

PyObject *
PyWrapper_New(PyObject *d, PyObject *self)
{
    PyWrapperDescrObject *descr = (PyWrapperDescrObject *)d;
    assert(PyObject_TypeCheck(self, PyDescr_TYPE(descr)));
    wrapperobject *wp = PyObject_GC_New(wrapperobject, &_PyMethodWrapper_Type);
    if (wp == NULL) {
        return NULL;
    }
    wp->descr = (PyWrapperDescrObject *)Py_NewRef(descr);
    wp->self = Py_NewRef(self);
    PyObject_GC_Track(wp);
    return (PyObject *)wp;
}

/* ---- mappingproxy -------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *mapping;
} mappingproxyobject;

static Py_ssize_t
mappingproxy_len(PyObject *self)
{
    return PyObject_Size(((mappingproxyobject *)self)->mapping);
}

static PyObject *
mappingproxy_getitem(PyObject *self, PyObject *key)
{
    return PyObject_GetItem(((mappingproxyobject *)self)->mapping, key);
}

static int
mappingproxy_contains(PyObject *self, PyObject *key)
{
    PyObject *mapping = ((mappingproxyobject *)self)->mapping;
    if (PyDict_CheckExact(mapping)) {
        return PyDict_Contains(mapping, key);
    }
    return PySequence_Contains(mapping, key);
}

static PyObject *
mappingproxy_or(PyObject *left, PyObject *right)
{
    if (PyObject_TypeCheck(left, &PyDictProxy_Type)) {
        left = ((mappingproxyobject *)left)->mapping;
    }
    if (PyObject_TypeCheck(right, &PyDictProxy_Type)) {
        right = ((mappingproxyobject *)right)->mapping;
    }
    return PyNumber_Or(left, right);
}

static PyObject *
mappingproxy_ior(PyObject *self, PyObject *other)
{
    return PyErr_Format(PyExc_TypeError, "'|=' is not supported by %s; use '|' instead",
                        Py_TYPE(self)->tp_name);
}

static PyNumberMethods mappingproxy_as_number = {
    .nb_or = mappingproxy_or,
    .nb_inplace_or = mappingproxy_ior,
};

static PyMappingMethods mappingproxy_as_mapping = {
    .mp_length = mappingproxy_len,
    .mp_subscript = mappingproxy_getitem,
};

static PySequenceMethods mappingproxy_as_sequence = {
    .sq_contains = mappingproxy_contains,
};

static PyObject *
mappingproxy_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("get", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *newargs[3] = {((mappingproxyobject *)self)->mapping, args[0],
                            nargs == 2 ? args[1] : Py_None};
    return PyObject_VectorcallMethod(_Py_ID(get), newargs, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

#define PROXY_METHOD(NAME)                                                            \
    static PyObject *mappingproxy_##NAME(PyObject *self, PyObject *Py_UNUSED(ignored)) \
    {                                                                                 \
        return PyObject_CallMethodNoArgs(((mappingproxyobject *)self)->mapping, _Py_ID(NAME)); \
    }
PROXY_METHOD(keys)
PROXY_METHOD(values)
PROXY_METHOD(items)
PROXY_METHOD(copy)
#undef PROXY_METHOD

static PyObject *
mappingproxy_reversed(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *mapping = ((mappingproxyobject *)self)->mapping;
    return PyObject_CallMethodNoArgs(mapping, _Py_ID(__reversed__));
}

static PyMethodDef mappingproxy_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"get", _PyCFunction_CAST(mappingproxy_get), METH_FASTCALL,
     "get(key, default=None): the value for key, or default."},
    {"keys", mappingproxy_keys, METH_NOARGS, "A set-like view of the underlying keys."},
    {"values", mappingproxy_values, METH_NOARGS, "A view of the underlying values."},
    {"items", mappingproxy_items, METH_NOARGS, "A set-like view of the underlying items."},
    {"copy", mappingproxy_copy, METH_NOARGS, "A shallow copy of the underlying mapping."},
    {"__reversed__", mappingproxy_reversed, METH_NOARGS,
     "Iterate over the keys in reverse."},
    {NULL, NULL, 0, NULL},
};

static void
mappingproxy_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_DECREF(((mappingproxyobject *)self)->mapping);
    PyObject_GC_Del(self);
}

static PyObject *
mappingproxy_getiter(PyObject *self)
{
    return PyObject_GetIter(((mappingproxyobject *)self)->mapping);
}

static Py_hash_t
mappingproxy_hash(PyObject *self)
{
    return PyObject_Hash(((mappingproxyobject *)self)->mapping);
}

static PyObject *
mappingproxy_str(PyObject *self)
{
    return PyObject_Str(((mappingproxyobject *)self)->mapping);
}

static PyObject *
mappingproxy_repr(PyObject *self)
{
    return PyUnicode_FromFormat("mappingproxy(%R)", ((mappingproxyobject *)self)->mapping);
}

static int
mappingproxy_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((mappingproxyobject *)self)->mapping);
    return 0;
}

static PyObject *
mappingproxy_richcompare(PyObject *self, PyObject *w, int op)
{
    return PyObject_RichCompare(((mappingproxyobject *)self)->mapping, w, op);
}

static int
mappingproxy_check_mapping(PyObject *mapping)
{
    if (!PyMapping_Check(mapping) || PyList_Check(mapping) || PyTuple_Check(mapping)) {
        PyErr_Format(PyExc_TypeError, "mappingproxy() argument must be a mapping, not %s",
                     Py_TYPE(mapping)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
mappingproxy_new_impl(PyObject *mapping)
{
    mappingproxyobject *pp = PyObject_GC_New(mappingproxyobject, &PyDictProxy_Type);
    if (pp == NULL) {
        return NULL;
    }
    pp->mapping = Py_NewRef(mapping);
    PyObject_GC_Track(pp);
    return (PyObject *)pp;
}

static PyObject *
mappingproxy_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const kwlist[] = {"mapping", NULL};
    PyObject *mapping;
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwds, "mappingproxy", kwlist, 1, 1, 0,
                                           &mapping)) {
        return NULL;
    }
    if (mappingproxy_check_mapping(mapping) < 0) {
        return NULL;
    }
    return mappingproxy_new_impl(mapping);
}

PyObject *
PyDictProxy_New(PyObject *mapping)
{
    if (mappingproxy_check_mapping(mapping) < 0) {
        return NULL;
    }
    return mappingproxy_new_impl(mapping);
}

PyTypeObject PyDictProxy_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "mappingproxy",
    .tp_basicsize = sizeof(mappingproxyobject),
    .tp_dealloc = mappingproxy_dealloc,
    .tp_repr = mappingproxy_repr,
    .tp_as_number = &mappingproxy_as_number,
    .tp_as_sequence = &mappingproxy_as_sequence,
    .tp_as_mapping = &mappingproxy_as_mapping,
    .tp_hash = mappingproxy_hash,
    .tp_str = mappingproxy_str,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_MAPPING,
    .tp_doc = "mappingproxy(mapping)\n--\n\nRead-only proxy of a mapping.",
    .tp_traverse = mappingproxy_traverse,
    .tp_richcompare = mappingproxy_richcompare,
    .tp_iter = mappingproxy_getiter,
    .tp_methods = mappingproxy_methods,
    .tp_new = mappingproxy_new,
};

/* ---- property ----------------------------------------------------------------------------------- */

typedef _PyPropertyObject propertyobject;

static PyMemberDef property_members[] = {
    {"fget", _Py_T_OBJECT, offsetof(propertyobject, prop_get), Py_READONLY, NULL},
    {"fset", _Py_T_OBJECT, offsetof(propertyobject, prop_set), Py_READONLY, NULL},
    {"fdel", _Py_T_OBJECT, offsetof(propertyobject, prop_del), Py_READONLY, NULL},
    {"__doc__", _Py_T_OBJECT, offsetof(propertyobject, prop_doc), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

/* The name errors mention: set by __set_name__, else fget.__name__. */
static int
property_name(propertyobject *prop, PyObject **name)
{
    if (prop->prop_name != NULL) {
        *name = Py_NewRef(prop->prop_name);
        return 1;
    }
    if (prop->prop_get == NULL || prop->prop_get == Py_None) {
        *name = NULL;
        return 0;
    }
    if (PyObject_GetOptionalAttr(prop->prop_get, _Py_ID(__name__), name) < 0) {
        return -1;
    }
    return *name != NULL;
}

static void
property_error(propertyobject *prop, PyObject *obj, const char *what)
{
    PyObject *name;
    if (property_name(prop, &name) < 0) {
        return;
    }
    PyObject *qualname = PyType_GetQualName(Py_TYPE(obj));
    if (qualname == NULL) {
        Py_XDECREF(name);
        return;
    }
    if (name != NULL) {
        PyErr_Format(PyExc_AttributeError, "property %R of %R object has no %s", name, qualname,
                     what);
    }
    else {
        PyErr_Format(PyExc_AttributeError, "property of %R object has no %s", qualname, what);
    }
    Py_XDECREF(name);
    Py_DECREF(qualname);
}

static PyObject *
property_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    propertyobject *gs = (propertyobject *)self;
    if (gs->prop_get == NULL || gs->prop_get == Py_None) {
        property_error(gs, obj, "getter");
        return NULL;
    }
    return PyObject_CallOneArg(gs->prop_get, obj);
}

static int
property_descr_set(PyObject *self, PyObject *obj, PyObject *value)
{
    propertyobject *gs = (propertyobject *)self;
    PyObject *func = value == NULL ? gs->prop_del : gs->prop_set;
    if (func == NULL || func == Py_None) {
        property_error(gs, obj, value == NULL ? "deleter" : "setter");
        return -1;
    }
    PyObject *res;
    if (value == NULL) {
        res = PyObject_CallOneArg(func, obj);
    }
    else {
        PyObject *args[2] = {obj, value};
        res = PyObject_Vectorcall(func, args, 2, NULL);
    }
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

/* getter/setter/deleter: a copy of the property with one function
   replaced, made through type(self) so subclasses survive. */
static PyObject *
property_copy(PyObject *old, PyObject *get, PyObject *set, PyObject *del)
{
    propertyobject *pold = (propertyobject *)old;
    if (get == NULL || get == Py_None) {
        get = pold->prop_get ? pold->prop_get : Py_None;
    }
    if (set == NULL || set == Py_None) {
        set = pold->prop_set ? pold->prop_set : Py_None;
    }
    if (del == NULL || del == Py_None) {
        del = pold->prop_del ? pold->prop_del : Py_None;
    }
    PyObject *doc;
    if (pold->getter_doc && get != Py_None) {
        /* The doc came from the old getter: let the new one provide it. */
        doc = Py_None;
    }
    else {
        doc = pold->prop_doc ? pold->prop_doc : Py_None;
    }
    PyObject *new = PyObject_CallFunctionObjArgs((PyObject *)Py_TYPE(old), get, set, del, doc,
                                                 NULL);
    if (new == NULL) {
        return NULL;
    }
    if (PyObject_TypeCheck(new, &PyProperty_Type)) {
        Py_XSETREF(((propertyobject *)new)->prop_name, Py_XNewRef(pold->prop_name));
    }
    return new;
}

static PyObject *
property_getter(PyObject *self, PyObject *getter)
{
    return property_copy(self, getter, NULL, NULL);
}

static PyObject *
property_setter(PyObject *self, PyObject *setter)
{
    return property_copy(self, NULL, setter, NULL);
}

static PyObject *
property_deleter(PyObject *self, PyObject *deleter)
{
    return property_copy(self, NULL, NULL, deleter);
}

static PyObject *
property_set_name(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError,
                     "__set_name__() takes 2 positional arguments but %zd were given", nargs);
        return NULL;
    }
    Py_XSETREF(((propertyobject *)self)->prop_name, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

static PyMethodDef property_methods[] = {
    {"getter", property_getter, METH_O, "Return a copy of the property with fget replaced."},
    {"setter", property_setter, METH_O, "Return a copy of the property with fset replaced."},
    {"deleter", property_deleter, METH_O, "Return a copy of the property with fdel replaced."},
    {"__set_name__", _PyCFunction_CAST(property_set_name), METH_FASTCALL,
     "Remember the attribute name the property is bound to."},
    {NULL, NULL, 0, NULL},
};

static int
property_copy_getter_doc(propertyobject *prop, PyObject *self)
{
    PyObject *get_doc;
    int rc = PyObject_GetOptionalAttr(prop->prop_get, _Py_ID(__doc__), &get_doc);
    if (rc <= 0) {
        return rc;
    }
    if (get_doc == Py_None) {
        Py_DECREF(get_doc);
        return 0;
    }
    if (Py_IS_TYPE(self, &PyProperty_Type)) {
        Py_XSETREF(prop->prop_doc, get_doc);
    }
    else {
        /* A subclass instance keeps the doc in its __dict__, where it is
           not shadowed by the subclass's own __doc__. */
        int err = PyObject_SetAttr(self, _Py_ID(__doc__), get_doc);
        Py_DECREF(get_doc);
        if (err < 0) {
            if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
                return -1;
            }
            PyErr_Clear();
            return 0;
        }
    }
    prop->getter_doc = 1;
    return 0;
}

static int
property_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static const char *const kwlist[] = {"fget", "fset", "fdel", "doc", NULL};
    PyObject *argv[4];
    propertyobject *prop = (propertyobject *)self;
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwds, "property", kwlist, 0, 4, 0, argv)) {
        return -1;
    }
    PyObject *fget = argv[0], *fset = argv[1], *fdel = argv[2], *doc = argv[3];
    if (fget == Py_None) {
        fget = NULL;
    }
    if (fset == Py_None) {
        fset = NULL;
    }
    if (fdel == Py_None) {
        fdel = NULL;
    }
    Py_XSETREF(prop->prop_get, Py_XNewRef(fget));
    Py_XSETREF(prop->prop_set, Py_XNewRef(fset));
    Py_XSETREF(prop->prop_del, Py_XNewRef(fdel));
    Py_XSETREF(prop->prop_doc, NULL);
    Py_XSETREF(prop->prop_name, NULL);
    prop->getter_doc = 0;
    if (doc != NULL && doc != Py_None) {
        prop->prop_doc = Py_NewRef(doc);
        return 0;
    }
    if (fget != NULL) {
        return property_copy_getter_doc(prop, self);
    }
    return 0;
}

static PyObject *
property_get_name(PyObject *self, void *context)
{
    PyObject *name;
    int rc = property_name((propertyobject *)self, &name);
    if (rc < 0) {
        return NULL;
    }
    if (rc == 0) {
        PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute '__name__'",
                     Py_TYPE(self)->tp_name);
        return NULL;
    }
    return name;
}

static int
property_set_name_attr(PyObject *self, PyObject *value, void *context)
{
    Py_XSETREF(((propertyobject *)self)->prop_name, Py_XNewRef(value));
    return 0;
}

static int
func_is_abstract(PyObject *func)
{
    if (func == NULL || func == Py_None) {
        return 0;
    }
    PyObject *flag;
    int rc = PyObject_GetOptionalAttr(func, _Py_ID(__isabstractmethod__), &flag);
    if (rc <= 0) {
        return rc;
    }
    rc = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    return rc;
}

static PyObject *
property_get_isabstract(PyObject *self, void *context)
{
    propertyobject *prop = (propertyobject *)self;
    PyObject *funcs[3] = {prop->prop_get, prop->prop_set, prop->prop_del};
    for (int i = 0; i < 3; i++) {
        int rc = func_is_abstract(funcs[i]);
        if (rc != 0) {
            return rc < 0 ? NULL : Py_NewRef(Py_True);
        }
    }
    Py_RETURN_FALSE;
}

static PyGetSetDef property_getsetlist[] = {
    {"__name__", property_get_name, property_set_name_attr, NULL, NULL},
    {"__isabstractmethod__", property_get_isabstract, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static void
property_dealloc(PyObject *self)
{
    propertyobject *gs = (propertyobject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(gs->prop_get);
    Py_XDECREF(gs->prop_set);
    Py_XDECREF(gs->prop_del);
    Py_XDECREF(gs->prop_doc);
    Py_XDECREF(gs->prop_name);
    Py_TYPE(self)->tp_free(self);
}

static int
property_traverse(PyObject *self, visitproc visit, void *arg)
{
    propertyobject *pp = (propertyobject *)self;
    Py_VISIT(pp->prop_get);
    Py_VISIT(pp->prop_set);
    Py_VISIT(pp->prop_del);
    Py_VISIT(pp->prop_doc);
    Py_VISIT(pp->prop_name);
    return 0;
}

static int
property_clear(PyObject *self)
{
    propertyobject *pp = (propertyobject *)self;
    Py_CLEAR(pp->prop_doc);
    return 0;
}

PyTypeObject PyProperty_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "property",
    .tp_basicsize = sizeof(propertyobject),
    .tp_dealloc = property_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "property(fget=None, fset=None, fdel=None, doc=None)\n--\n\n"
              "A managed attribute: reading, assigning and deleting it call fget,\n"
              "fset and fdel.  doc defaults to fget's docstring.",
    .tp_traverse = property_traverse,
    .tp_clear = property_clear,
    .tp_methods = property_methods,
    .tp_members = property_members,
    .tp_getset = property_getsetlist,
    .tp_descr_get = property_descr_get,
    .tp_descr_set = property_descr_set,
    .tp_init = property_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
};

/* ---- PyMemberDef access ------------------------------------------------------------------ */

static PyObject *
member_get_object(PyObject *v, PyMemberDef *l, const char *obj_addr)
{
    if (v != NULL) {
        return Py_NewRef(v);
    }
    if (l->type == Py_T_OBJECT_EX) {
        PyErr_Format(PyExc_AttributeError, "'%.200s' object has no attribute '%s'",
                     Py_TYPE((PyObject *)obj_addr)->tp_name, l->name);
        return NULL;
    }
    Py_RETURN_NONE;
}

PyObject *
PyMember_GetOne(const char *obj_addr, PyMemberDef *l)
{
    const char *addr = obj_addr + l->offset;
    switch (l->type) {
    case Py_T_BOOL:
        return PyBool_FromLong(*(const char *)addr);
    case Py_T_BYTE:
        return PyLong_FromLong(*(const signed char *)addr);
    case Py_T_UBYTE:
        return PyLong_FromUnsignedLong(*(const unsigned char *)addr);
    case Py_T_SHORT:
        return PyLong_FromLong(*(const short *)addr);
    case Py_T_USHORT:
        return PyLong_FromUnsignedLong(*(const unsigned short *)addr);
    case Py_T_INT:
        return PyLong_FromLong(*(const int *)addr);
    case Py_T_UINT:
        return PyLong_FromUnsignedLong(*(const unsigned int *)addr);
    case Py_T_LONG:
        return PyLong_FromLong(*(const long *)addr);
    case Py_T_ULONG:
        return PyLong_FromUnsignedLong(*(const unsigned long *)addr);
    case Py_T_PYSSIZET:
        return PyLong_FromSsize_t(*(const Py_ssize_t *)addr);
    case Py_T_FLOAT:
        return PyFloat_FromDouble(*(const float *)addr);
    case Py_T_DOUBLE:
        return PyFloat_FromDouble(*(const double *)addr);
    case Py_T_STRING:
        if (*(char *const *)addr == NULL) {
            Py_RETURN_NONE;
        }
        return PyUnicode_FromString(*(char *const *)addr);
    case Py_T_STRING_INPLACE:
        return PyUnicode_FromString(addr);
    case Py_T_CHAR:
        return PyUnicode_FromStringAndSize(addr, 1);
    case _Py_T_OBJECT:
    case Py_T_OBJECT_EX:
        return member_get_object(*(PyObject *const *)addr, l, obj_addr);
    case Py_T_LONGLONG:
        return PyLong_FromLongLong(*(const long long *)addr);
    case Py_T_ULONGLONG:
        return PyLong_FromUnsignedLongLong(*(const unsigned long long *)addr);
    case Py_T_NONE:
        Py_RETURN_NONE;
    default:
        PyErr_SetString(PyExc_SystemError, "bad memberdescr type");
        return NULL;
    }
}

/* Integer members accept ints only; out-of-range values are truncated
   with a RuntimeWarning, as upstream does. */
static int
member_set_long(PyObject *v, long min, long max, long *out)
{
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (x < min || x > max) {
        if (PyErr_WarnEx(PyExc_RuntimeWarning, "Truncation of value to the member's type", 1) < 0) {
            return -1;
        }
    }
    *out = x;
    return 0;
}

static int
member_set_number(char *addr, PyMemberDef *l, PyObject *v)
{
    long x;
    switch (l->type) {
    case Py_T_BYTE:
        if (member_set_long(v, SCHAR_MIN, UCHAR_MAX, &x) < 0) {
            return -1;
        }
        *(signed char *)addr = (signed char)x;
        return 0;
    case Py_T_UBYTE:
        if (member_set_long(v, SCHAR_MIN, UCHAR_MAX, &x) < 0) {
            return -1;
        }
        *(unsigned char *)addr = (unsigned char)x;
        return 0;
    case Py_T_SHORT:
        if (member_set_long(v, SHRT_MIN, USHRT_MAX, &x) < 0) {
            return -1;
        }
        *(short *)addr = (short)x;
        return 0;
    case Py_T_USHORT:
        if (member_set_long(v, SHRT_MIN, USHRT_MAX, &x) < 0) {
            return -1;
        }
        *(unsigned short *)addr = (unsigned short)x;
        return 0;
    case Py_T_INT:
        if (member_set_long(v, INT_MIN, UINT_MAX, &x) < 0) {
            return -1;
        }
        *(int *)addr = (int)x;
        return 0;
    case Py_T_UINT:
        if (member_set_long(v, INT_MIN, UINT_MAX, &x) < 0) {
            return -1;
        }
        *(unsigned int *)addr = (unsigned int)x;
        return 0;
    case Py_T_LONG:
        x = PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) {
            return -1;
        }
        *(long *)addr = x;
        return 0;
    default:
        break;
    }
    PyErr_SetString(PyExc_SystemError, "bad memberdescr type");
    return -1;
}

static int
member_set_wide(char *addr, PyMemberDef *l, PyObject *v)
{
    switch (l->type) {
    case Py_T_ULONG: {
        unsigned long x = PyLong_AsUnsignedLong(v);
        if (x == (unsigned long)-1 && PyErr_Occurred()) {
            return -1;
        }
        *(unsigned long *)addr = x;
        return 0;
    }
    case Py_T_PYSSIZET: {
        Py_ssize_t x = PyLong_AsSsize_t(v);
        if (x == -1 && PyErr_Occurred()) {
            return -1;
        }
        *(Py_ssize_t *)addr = x;
        return 0;
    }
    case Py_T_LONGLONG: {
        long long x = PyLong_AsLongLong(v);
        if (x == -1 && PyErr_Occurred()) {
            return -1;
        }
        *(long long *)addr = x;
        return 0;
    }
    case Py_T_ULONGLONG: {
        unsigned long long x = PyLong_AsUnsignedLongLong(v);
        if (x == (unsigned long long)-1 && PyErr_Occurred()) {
            return -1;
        }
        *(unsigned long long *)addr = x;
        return 0;
    }
    case Py_T_FLOAT:
    case Py_T_DOUBLE: {
        double x = PyFloat_AsDouble(v);
        if (x == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (l->type == Py_T_FLOAT) {
            *(float *)addr = (float)x;
        }
        else {
            *(double *)addr = x;
        }
        return 0;
    }
    default:
        return member_set_number(addr, l, v);
    }
}

static int
member_set_char(char *addr, PyObject *v)
{
    Py_ssize_t len;
    const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, &len) : NULL;
    if (s == NULL || len != 1) {
        if (s != NULL || !PyErr_Occurred()) {
            PyErr_BadArgument();
        }
        return -1;
    }
    *addr = s[0];
    return 0;
}

int
PyMember_SetOne(char *addr, PyMemberDef *l, PyObject *v)
{
    char *obj = addr;
    addr += l->offset;
    if (l->flags & Py_READONLY) {
        PyErr_SetString(PyExc_AttributeError, "readonly attribute");
        return -1;
    }
    if (v == NULL) {
        if (l->type == Py_T_OBJECT_EX) {
            if (*(PyObject **)addr == NULL) {
                PyErr_Format(PyExc_AttributeError, "'%.200s' object has no attribute '%s'",
                             Py_TYPE((PyObject *)obj)->tp_name, l->name);
                return -1;
            }
        }
        else if (l->type != _Py_T_OBJECT) {
            PyErr_SetString(PyExc_TypeError, "can't delete numeric/char attribute");
            return -1;
        }
    }
    switch (l->type) {
    case Py_T_BOOL:
        if (!PyBool_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "attribute value type must be bool");
            return -1;
        }
        *(char *)addr = (char)(v == Py_True);
        return 0;
    case _Py_T_OBJECT:
    case Py_T_OBJECT_EX:
        Py_XSETREF(*(PyObject **)addr, Py_XNewRef(v));
        return 0;
    case Py_T_CHAR:
        return member_set_char(addr, v);
    case Py_T_STRING:
    case Py_T_STRING_INPLACE:
        PyErr_SetString(PyExc_TypeError, "readonly attribute");
        return -1;
    default:
        if (!PyLong_Check(v) && l->type != Py_T_FLOAT && l->type != Py_T_DOUBLE) {
            PyErr_BadArgument();
            return -1;
        }
        return member_set_wide(addr, l, v);
    }
}
