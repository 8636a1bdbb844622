/* The generic object protocol: repr/str, comparison, attribute access,
   hashing, truth, dir(), allocation of plain objects, deallocation, the
   reference-count debugging hooks, and the None / NotImplemented /
   Ellipsis singletons.

   Attribute lookup follows the descriptor protocol (Doc/object-model.md):
   a data descriptor on the type wins, then the instance __dict__, then a
   non-data descriptor or plain class attribute. */
#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_call.h"
#include "pycore_ceval.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"

/* An interned identifier, made on first use. */

/* ---- Reference-count debugging ------------------------------------------- */

#ifdef Py_REF_DEBUG
Py_ssize_t _Py_RefTotal;

void
_Py_NegativeRefcount(const char *filename, int lineno, PyObject *op)
{
    fprintf(stderr, "%s:%d: object at %p of type %s has negative refcount %zd\n",
            filename, lineno, (void *)op, Py_TYPE(op)->tp_name, Py_REFCNT(op));
    _Py_FatalErrorFunc(__func__, "negative reference count");
}
#endif

Py_ssize_t
_Py_GetRefTotal(void)
{
#ifdef Py_REF_DEBUG
    return _Py_RefTotal;
#else
    return 0;
#endif
}

void
_Py_Dealloc(PyObject *op)
{
    destructor dealloc = Py_TYPE(op)->tp_dealloc;
#ifdef Py_DEBUG
    if (op->ob_refcnt != 0) {
        fprintf(stderr, "_Py_Dealloc: %s object at %p has refcount %zd\n",
                Py_TYPE(op)->tp_name, (void *)op, op->ob_refcnt);
        _Py_FatalErrorFunc(__func__, "deallocating a live object");
    }
#endif
    if (_PyObject_IS_GC(op)) {
        /* Containers can nest arbitrarily deep: bound the recursion. */
        _PyGC_DeallocWithTrashcan(op, dealloc);
    }
    else {
        dealloc(op);
    }
}

/* ---- Allocation of plain objects ------------------------------------------ */

PyObject *
PyObject_Init(PyObject *op, PyTypeObject *tp)
{
    if (op == NULL) {
        return PyErr_NoMemory();
    }
    _PyObject_Init(op, tp);
    return op;
}

PyVarObject *
PyObject_InitVar(PyVarObject *op, PyTypeObject *tp, Py_ssize_t size)
{
    if (op == NULL) {
        return (PyVarObject *)PyErr_NoMemory();
    }
    _PyObject_InitVar(op, tp, size);
    return op;
}

PyObject *
_PyObject_New(PyTypeObject *tp)
{
    PyObject *op = (PyObject *)PyObject_Malloc((size_t)tp->tp_basicsize);
    if (op == NULL) {
        return PyErr_NoMemory();
    }
    _PyObject_Init(op, tp);
    return op;
}

PyVarObject *
_PyObject_NewVar(PyTypeObject *tp, Py_ssize_t nitems)
{
    if (nitems < 0 ||
        (tp->tp_itemsize != 0 && (size_t)nitems > (PY_SSIZE_T_MAX - (size_t)tp->tp_basicsize) /
                                                      (size_t)tp->tp_itemsize)) {
        return (PyVarObject *)PyErr_NoMemory();
    }
    size_t size = _PyObject_VAR_SIZE(tp, nitems);
    PyVarObject *op = (PyVarObject *)PyObject_Malloc(size);
    if (op == NULL) {
        return (PyVarObject *)PyErr_NoMemory();
    }
    _PyObject_InitVar(op, tp, nitems);
    return op;
}

/* ---- Reference counts as functions ------------------------------------------ */

void
Py_IncRef(PyObject *op)
{
    Py_XINCREF(op);
}

void
Py_DecRef(PyObject *op)
{
    Py_XDECREF(op);
}

/* ---- Finalizers ----------------------------------------------------------- */

void
PyObject_CallFinalizer(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (tp->tp_finalize == NULL) {
        return;
    }
    /* PEP 442: a container's finalizer runs at most once, even if the
       collector ran it and the object is later freed normally. */
    if (_PyObject_IS_GC(self)) {
        if (_PyGC_IsFinalized(self)) {
            return;
        }
        _PyGC_SetFinalized(self);
    }
    tp->tp_finalize(self);
}

int
PyObject_CallFinalizerFromDealloc(PyObject *self)
{
    if (Py_TYPE(self)->tp_finalize == NULL) {
        return 0;
    }
    /* Revive the object for the duration of the call, so that the
       finalizer sees a live object; any reference it stores away keeps it
       alive afterwards. */
    assert(self->ob_refcnt == 0);
    self->ob_refcnt = 1;
    _Py_INC_REFTOTAL();
    PyObject *exc = PyErr_GetRaisedException();
    PyObject_CallFinalizer(self);
    PyErr_SetRaisedException(exc);
    assert(self->ob_refcnt > 0);
    _Py_DEC_REFTOTAL();
    if (--self->ob_refcnt == 0) {
        return 0;
    }
    return -1; /* resurrected */
}

/* ---- repr, str, ascii, bytes ------------------------------------------------ */

static PyObject *
default_repr(PyObject *v)
{
    return PyUnicode_FromFormat("<%s object at %p>", Py_TYPE(v)->tp_name, (void *)v);
}

PyObject *
PyObject_Repr(PyObject *v)
{
    if (PyErr_CheckSignals()) {
        return NULL;
    }
    if (v == NULL) {
        return PyUnicode_FromString("<NULL>");
    }
    if (Py_TYPE(v)->tp_repr == NULL) {
        return default_repr(v);
    }
    PyThreadState *tstate = _PyThreadState_GET();
    if (_Py_EnterRecursiveCallTstate(tstate, " while getting the repr of an object")) {
        return NULL;
    }
    PyObject *res = Py_TYPE(v)->tp_repr(v);
    _Py_LeaveRecursiveCallTstate(tstate);
    if (res == NULL) {
        return NULL;
    }
    if (!PyUnicode_Check(res)) {
        PyErr_Format(PyExc_TypeError, "__repr__ returned non-string (type %.200s)",
                     Py_TYPE(res)->tp_name);
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

PyObject *
PyObject_Str(PyObject *v)
{
    if (PyErr_CheckSignals()) {
        return NULL;
    }
    if (v == NULL) {
        return PyUnicode_FromString("<NULL>");
    }
    if (PyUnicode_CheckExact(v)) {
        return Py_NewRef(v);
    }
    if (Py_TYPE(v)->tp_str == NULL) {
        return PyObject_Repr(v);
    }
    PyThreadState *tstate = _PyThreadState_GET();
    if (_Py_EnterRecursiveCallTstate(tstate, " while getting the str of an object")) {
        return NULL;
    }
    PyObject *res = Py_TYPE(v)->tp_str(v);
    _Py_LeaveRecursiveCallTstate(tstate);
    if (res == NULL) {
        return NULL;
    }
    if (!PyUnicode_Check(res)) {
        PyErr_Format(PyExc_TypeError, "__str__ returned non-string (type %.200s)",
                     Py_TYPE(res)->tp_name);
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

PyObject *
PyObject_ASCII(PyObject *v)
{
    PyObject *repr = PyObject_Repr(v);
    if (repr == NULL) {
        return NULL;
    }
    if (PyUnicode_IS_ASCII(repr)) {
        return repr;
    }
    PyObject *res = _PyUnicode_ToASCIIRepr(repr);
    Py_DECREF(repr);
    return res;
}

PyObject *
PyObject_Bytes(PyObject *v)
{
    if (v == NULL) {
        return PyBytes_FromString("<NULL>");
    }
    if (PyBytes_CheckExact(v)) {
        return Py_NewRef(v);
    }
    PyObject *func = _PyObject_LookupSpecial(v, _Py_ID(__bytes__));
    if (func != NULL) {
        PyObject *res = _PyObject_CallNoArgs(func);
        Py_DECREF(func);
        if (res != NULL && !PyBytes_Check(res)) {
            PyErr_Format(PyExc_TypeError, "__bytes__ returned non-bytes (type %.200s)",
                         Py_TYPE(res)->tp_name);
            Py_CLEAR(res);
        }
        return res;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    return PyBytes_FromObject(v);
}

int
PyObject_Print(PyObject *op, FILE *fp, int flags)
{
    if (PyErr_CheckSignals()) {
        return -1;
    }
    clearerr(fp);
    if (op == NULL) {
        fputs("<nil>", fp);
        return ferror(fp) ? -1 : 0;
    }
    if (Py_REFCNT(op) <= 0) {
        fprintf(fp, "<refcnt %zd at %p>", Py_REFCNT(op), (void *)op);
        return ferror(fp) ? -1 : 0;
    }
    PyObject *s = (flags & Py_PRINT_RAW) ? PyObject_Str(op) : PyObject_Repr(op);
    if (s == NULL) {
        return -1;
    }
    Py_ssize_t len;
    const char *text = PyUnicode_AsUTF8AndSize(s, &len);
    if (text == NULL) {
        Py_DECREF(s);
        return -1;
    }
    fwrite(text, 1, (size_t)len, fp);
    Py_DECREF(s);
    if (ferror(fp)) {
        PyErr_SetFromErrno(PyExc_OSError);
        clearerr(fp);
        return -1;
    }
    return 0;
}

/* ---- Recursive repr guard ----------------------------------------------------

   Containers call Py_ReprEnter before printing their items so that a
   container holding itself prints as [...] instead of recursing forever.
   The objects being printed live in a list in the thread's dict. */

static PyObject *
repr_list(int create)
{
    PyObject *dict = PyThreadState_GetDict();
    if (dict == NULL) {
        return NULL;
    }
    PyObject *list;
    if (PyDict_GetItemRef(dict, _Py_ID(Py_Repr), &list) < 0) {
        return NULL;
    }
    if (list == NULL && create) {
        list = PyList_New(0);
        if (list == NULL) {
            return NULL;
        }
        if (PyDict_SetItem(dict, _Py_ID(Py_Repr), list) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    return list;
}

int
Py_ReprEnter(PyObject *obj)
{
    PyObject *list = repr_list(1);
    if (list == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(list) - 1; i >= 0; i--) {
        if (PyList_GET_ITEM(list, i) == obj) {
            Py_DECREF(list);
            return 1;
        }
    }
    int res = PyList_Append(list, obj);
    Py_DECREF(list);
    return res < 0 ? -1 : 0;
}

void
Py_ReprLeave(PyObject *obj)
{
    /* Runs during error propagation too: keep the pending exception. */
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *list = repr_list(0);
    if (list != NULL) {
        for (Py_ssize_t i = PyList_GET_SIZE(list) - 1; i >= 0; i--) {
            if (PyList_GET_ITEM(list, i) == obj) {
                PyList_SetSlice(list, i, i + 1, NULL);
                break;
            }
        }
        Py_DECREF(list);
    }
    PyErr_SetRaisedException(exc);
}

/* ---- Rich comparison ---------------------------------------------------------- */

static const int swapped_op[] = {Py_GT, Py_GE, Py_EQ, Py_NE, Py_LT, Py_LE};
static const char *const opstrings[] = {"<", "<=", "==", "!=", ">", ">="};

/* The reflected-operation protocol: a proper subclass of the left
   operand's type gets the first try with the swapped operation, so that
   subclasses can override comparisons with their base class. */
static PyObject *
do_richcompare(PyObject *v, PyObject *w, int op)
{
    PyTypeObject *vt = Py_TYPE(v), *wt = Py_TYPE(w);
    int checked_reverse = 0;
    PyObject *res;

    if (vt != wt && wt->tp_richcompare != NULL && PyType_IsSubtype(wt, vt)) {
        checked_reverse = 1;
        res = wt->tp_richcompare(w, v, swapped_op[op]);
        if (res != Py_NotImplemented) {
            return res;
        }
        Py_DECREF(res);
    }
    if (vt->tp_richcompare != NULL) {
        res = vt->tp_richcompare(v, w, op);
        if (res != Py_NotImplemented) {
            return res;
        }
        Py_DECREF(res);
    }
    if (!checked_reverse && wt->tp_richcompare != NULL) {
        res = wt->tp_richcompare(w, v, swapped_op[op]);
        if (res != Py_NotImplemented) {
            return res;
        }
        Py_DECREF(res);
    }
    switch (op) {
    case Py_EQ:
        return Py_NewRef(v == w ? Py_True : Py_False);
    case Py_NE:
        return Py_NewRef(v != w ? Py_True : Py_False);
    default:
        PyErr_Format(PyExc_TypeError,
                     "'%s' not supported between instances of '%.100s' and '%.100s'",
                     opstrings[op], vt->tp_name, wt->tp_name);
        return NULL;
    }
}

PyObject *
PyObject_RichCompare(PyObject *v, PyObject *w, int op)
{
    assert(Py_LT <= op && op <= Py_GE);
    if (v == NULL || w == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_BadInternalCall();
        }
        return NULL;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    if (_Py_EnterRecursiveCallTstate(tstate, " in comparison")) {
        return NULL;
    }
    PyObject *res = do_richcompare(v, w, op);
    _Py_LeaveRecursiveCallTstate(tstate);
    return res;
}

int
PyObject_RichCompareBool(PyObject *v, PyObject *w, int op)
{
    /* Identity implies equality here, as containers assume. */
    if (v == w) {
        if (op == Py_EQ) {
            return 1;
        }
        if (op == Py_NE) {
            return 0;
        }
    }
    PyObject *res = PyObject_RichCompare(v, w, op);
    if (res == NULL) {
        return -1;
    }
    int ok;
    if (PyBool_Check(res)) {
        ok = (res == Py_True);
    }
    else {
        ok = PyObject_IsTrue(res);
    }
    Py_DECREF(res);
    return ok;
}

/* ---- Hashing ---------------------------------------------------------------------- */

Py_hash_t
PyObject_HashNotImplemented(PyObject *v)
{
    PyErr_Format(PyExc_TypeError, "unhashable type: '%.200s'", Py_TYPE(v)->tp_name);
    return -1;
}

Py_hash_t
PyObject_GenericHash(PyObject *v)
{
    return _Py_HashPointer(v);
}

Py_hash_t
PyObject_Hash(PyObject *v)
{
    PyTypeObject *tp = Py_TYPE(v);
    if (tp->tp_hash != NULL) {
        return tp->tp_hash(v);
    }
    /* A static type that was never readied has not inherited tp_hash. */
    if (!PyType_HasFeature(tp, Py_TPFLAGS_READY)) {
        if (PyType_Ready(tp) < 0) {
            return -1;
        }
        if (tp->tp_hash != NULL) {
            return tp->tp_hash(v);
        }
    }
    return PyObject_HashNotImplemented(v);
}

/* ---- Truth -------------------------------------------------------------------------- */

int
PyObject_IsTrue(PyObject *v)
{
    if (v == Py_True) {
        return 1;
    }
    if (v == Py_False || v == Py_None) {
        return 0;
    }
    PyTypeObject *tp = Py_TYPE(v);
    Py_ssize_t res;
    if (tp->tp_as_number != NULL && tp->tp_as_number->nb_bool != NULL) {
        return tp->tp_as_number->nb_bool(v);
    }
    if (tp->tp_as_mapping != NULL && tp->tp_as_mapping->mp_length != NULL) {
        res = tp->tp_as_mapping->mp_length(v);
    }
    else if (tp->tp_as_sequence != NULL && tp->tp_as_sequence->sq_length != NULL) {
        res = tp->tp_as_sequence->sq_length(v);
    }
    else {
        return 1;
    }
    return res > 0 ? 1 : (int)res;
}

int
PyObject_Not(PyObject *v)
{
    int res = PyObject_IsTrue(v);
    if (res < 0) {
        return res;
    }
    return res == 0;
}

int
PyCallable_Check(PyObject *x)
{
    return x != NULL && Py_TYPE(x)->tp_call != NULL;
}

PyObject *
PyObject_SelfIter(PyObject *obj)
{
    return Py_NewRef(obj);
}

/* ---- Attribute access --------------------------------------------------------------- */

/* Record name and obj on a freshly raised AttributeError, for the
   "Did you mean" suggestions of the traceback printer. */
static void
set_attribute_error_context(PyObject *v, PyObject *name)
{
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    if (PyErr_GivenExceptionMatches(exc, PyExc_AttributeError)) {
        PyAttributeErrorObject *err = (PyAttributeErrorObject *)exc;
        int unset = (err->name == NULL || err->name == Py_None) &&
                    (err->obj == NULL || err->obj == Py_None);
        if (unset) {
            Py_XSETREF(err->name, Py_NewRef(name));
            Py_XSETREF(err->obj, Py_NewRef(v));
        }
    }
    PyErr_SetRaisedException(exc);
}

static int
check_attr_name(PyObject *name)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "attribute name must be string, not '%.200s'",
                     Py_TYPE(name)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
getattr_via_legacy_slot(PyObject *v, PyObject *name)
{
    const char *s = PyUnicode_AsUTF8(name);
    if (s == NULL) {
        return NULL;
    }
    return Py_TYPE(v)->tp_getattr(v, (char *)s);
}

PyObject *
PyObject_GetAttr(PyObject *v, PyObject *name)
{
    if (check_attr_name(name) < 0) {
        return NULL;
    }
    PyTypeObject *tp = Py_TYPE(v);
    PyObject *res;
    if (tp->tp_getattro != NULL) {
        res = tp->tp_getattro(v, name);
    }
    else if (tp->tp_getattr != NULL) {
        res = getattr_via_legacy_slot(v, name);
    }
    else {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%U'",
                     tp->tp_name, name);
        res = NULL;
    }
    if (res == NULL) {
        set_attribute_error_context(v, name);
    }
    return res;
}

PyObject *
PyObject_GetAttrString(PyObject *v, const char *name)
{
    if (Py_TYPE(v)->tp_getattr != NULL && Py_TYPE(v)->tp_getattro == NULL) {
        return Py_TYPE(v)->tp_getattr(v, (char *)name);
    }
    PyObject *w = PyUnicode_FromString(name);
    if (w == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_GetAttr(v, w);
    Py_DECREF(w);
    return res;
}

int
PyObject_GetOptionalAttr(PyObject *v, PyObject *name, PyObject **result)
{
    PyTypeObject *tp = Py_TYPE(v);
    if (!PyUnicode_Check(name)) {
        *result = NULL;
        return check_attr_name(name);
    }
    /* The generic and type lookups can skip making the final "no
       attribute" error; a descriptor may still raise AttributeError
       itself, which counts as absent too. */
    if (tp->tp_getattro == PyObject_GenericGetAttr) {
        *result = _PyObject_GenericGetAttrWithDict(v, name, NULL, 1);
    }
    else if (tp->tp_getattro == _Py_type_getattro) {
        *result = _Py_type_getattro_impl((PyTypeObject *)v, name, 1);
    }
    else {
        *result = PyObject_GetAttr(v, name);
    }
    if (*result != NULL) {
        return 1;
    }
    if (!PyErr_Occurred()) {
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
        return -1;
    }
    PyErr_Clear();
    return 0;
}

int
PyObject_GetOptionalAttrString(PyObject *v, const char *name, PyObject **result)
{
    PyObject *w = PyUnicode_FromString(name);
    if (w == NULL) {
        *result = NULL;
        return -1;
    }
    int rc = PyObject_GetOptionalAttr(v, w, result);
    Py_DECREF(w);
    return rc;
}

int
_PyObject_LookupAttr(PyObject *v, PyObject *name, PyObject **result)
{
    return PyObject_GetOptionalAttr(v, name, result);
}

int
PyObject_HasAttrWithError(PyObject *v, PyObject *name)
{
    PyObject *res;
    int rc = PyObject_GetOptionalAttr(v, name, &res);
    Py_XDECREF(res);
    return rc;
}

int
PyObject_HasAttr(PyObject *v, PyObject *name)
{
    int rc = PyObject_HasAttrWithError(v, name);
    if (rc < 0) {
        PyErr_Clear();
        return 0;
    }
    return rc;
}

int
PyObject_HasAttrStringWithError(PyObject *v, const char *name)
{
    PyObject *res;
    int rc = PyObject_GetOptionalAttrString(v, name, &res);
    Py_XDECREF(res);
    return rc;
}

int
PyObject_HasAttrString(PyObject *v, const char *name)
{
    int rc = PyObject_HasAttrStringWithError(v, name);
    if (rc < 0) {
        PyErr_Clear();
        return 0;
    }
    return rc;
}

static int
setattr_error(PyObject *v, PyObject *name, PyObject *value)
{
    PyTypeObject *tp = Py_TYPE(v);
    int has_get = tp->tp_getattr != NULL || tp->tp_getattro != NULL;
    if (has_get) {
        PyErr_Format(PyExc_TypeError, "'%.100s' object has only read-only attributes (%s .%U)",
                     tp->tp_name, value == NULL ? "del" : "assign to", name);
    }
    else {
        PyErr_Format(PyExc_TypeError, "'%.100s' object has no attributes (%s .%U)",
                     tp->tp_name, value == NULL ? "del" : "assign to", name);
    }
    return -1;
}

int
PyObject_SetAttr(PyObject *v, PyObject *name, PyObject *value)
{
    if (check_attr_name(name) < 0) {
        return -1;
    }
    PyTypeObject *tp = Py_TYPE(v);
    Py_INCREF(name);
    PyUnicode_InternInPlace(&name);
    int err;
    if (tp->tp_setattro != NULL) {
        err = tp->tp_setattro(v, name, value);
    }
    else if (tp->tp_setattr != NULL) {
        const char *s = PyUnicode_AsUTF8(name);
        err = s == NULL ? -1 : tp->tp_setattr(v, (char *)s, value);
    }
    else {
        err = setattr_error(v, name, value);
    }
    Py_DECREF(name);
    return err;
}

int
PyObject_SetAttrString(PyObject *v, const char *name, PyObject *w)
{
    PyObject *s = PyUnicode_InternFromString(name);
    if (s == NULL) {
        return -1;
    }
    int res = PyObject_SetAttr(v, s, w);
    Py_DECREF(s);
    return res;
}

int
PyObject_DelAttr(PyObject *v, PyObject *name)
{
    return PyObject_SetAttr(v, name, NULL);
}

int
PyObject_DelAttrString(PyObject *v, const char *name)
{
    return PyObject_SetAttrString(v, name, NULL);
}

/* ---- Instance dicts -----------------------------------------------------------

   tp_dictoffset is the offset of the dict pointer from the object: after
   the C fields for most types, or negative, in the pre-header in front of
   the GC header (Py_TPFLAGS_MANAGED_DICT, see typeobject.c). */

PyObject **
_PyObject_GetDictPtr(PyObject *obj)
{
    Py_ssize_t offset = Py_TYPE(obj)->tp_dictoffset;
    if (offset == 0) {
        return NULL;
    }
    return (PyObject **)((char *)obj + offset);
}

PyObject *
PyObject_GenericGetDict(PyObject *obj, void *context)
{
    PyObject **dictptr = _PyObject_GetDictPtr(obj);
    if (dictptr == NULL) {
        PyErr_SetString(PyExc_AttributeError, "This object has no __dict__");
        return NULL;
    }
    if (*dictptr == NULL) {
        *dictptr = PyDict_New();
        if (*dictptr == NULL) {
            return NULL;
        }
    }
    return Py_NewRef(*dictptr);
}

int
PyObject_GenericSetDict(PyObject *obj, PyObject *value, void *context)
{
    PyObject **dictptr = _PyObject_GetDictPtr(obj);
    if (dictptr == NULL) {
        PyErr_SetString(PyExc_AttributeError, "This object has no __dict__");
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot delete __dict__");
        return -1;
    }
    if (!PyDict_Check(value)) {
        PyErr_Format(PyExc_TypeError, "__dict__ must be set to a dictionary, not a '%.200s'",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_XSETREF(*dictptr, Py_NewRef(value));
    return 0;
}

/* ---- Generic getattr/setattr -------------------------------------------------- */

static void
raise_no_attribute(PyObject *obj, PyObject *name)
{
    PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%U'",
                 Py_TYPE(obj)->tp_name, name);
    set_attribute_error_context(obj, name);
}

PyObject *
_PyObject_GenericGetAttrWithDict(PyObject *obj, PyObject *name, PyObject *dict, int suppress)
{
    PyTypeObject *tp = Py_TYPE(obj);
    PyObject *res = NULL;

    if (!PyUnicode_Check(name)) {
        check_attr_name(name);
        return NULL;
    }
    if (tp->tp_dict == NULL && PyType_Ready(tp) < 0) {
        return NULL;
    }
    PyObject *descr = _PyType_LookupRef(tp, name);
    descrgetfunc f = NULL;
    if (descr != NULL) {
        f = Py_TYPE(descr)->tp_descr_get;
        if (f != NULL && PyDescr_IsData(descr)) {
            res = f(descr, obj, (PyObject *)tp);
            goto done_descr;
        }
    }
    if (dict == NULL) {
        PyObject **dictptr = _PyObject_GetDictPtr(obj);
        if (dictptr != NULL) {
            dict = *dictptr;
        }
    }
    if (dict != NULL) {
        Py_INCREF(dict);
        int rc = PyDict_GetItemRef(dict, name, &res);
        Py_DECREF(dict);
        if (rc != 0) {
            Py_XDECREF(descr);
            return res; /* found, or error */
        }
    }
    if (f != NULL) {
        res = f(descr, obj, (PyObject *)tp);
        goto done_descr;
    }
    if (descr != NULL) {
        return descr;
    }
    if (!suppress) {
        raise_no_attribute(obj, name);
    }
    return NULL;

done_descr:
    Py_DECREF(descr);
    if (res == NULL && suppress && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
    }
    return res;
}

PyObject *
PyObject_GenericGetAttr(PyObject *obj, PyObject *name)
{
    return _PyObject_GenericGetAttrWithDict(obj, name, NULL, 0);
}

static int
generic_set_in_dict(PyObject *obj, PyObject **dictptr, PyObject *name, PyObject *value)
{
    if (*dictptr == NULL) {
        if (value == NULL) {
            raise_no_attribute(obj, name);
            return -1;
        }
        *dictptr = PyDict_New();
        if (*dictptr == NULL) {
            return -1;
        }
    }
    PyObject *dict = Py_NewRef(*dictptr);
    int res;
    if (value == NULL) {
        res = PyDict_DelItem(dict, name);
        if (res < 0 && PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            raise_no_attribute(obj, name);
        }
    }
    else {
        res = PyDict_SetItem(dict, name, value);
    }
    Py_DECREF(dict);
    return res;
}

int
_PyObject_GenericSetAttrWithDict(PyObject *obj, PyObject *name, PyObject *value,
                                 PyObject *dict)
{
    PyTypeObject *tp = Py_TYPE(obj);
    if (check_attr_name(name) < 0) {
        return -1;
    }
    if (tp->tp_dict == NULL && PyType_Ready(tp) < 0) {
        return -1;
    }
    int res = -1;
    Py_INCREF(name);
    PyObject *descr = _PyType_LookupRef(tp, name);
    if (descr != NULL) {
        descrsetfunc f = Py_TYPE(descr)->tp_descr_set;
        if (f != NULL) {
            res = f(descr, obj, value);
            goto done;
        }
    }
    if (dict != NULL) {
        PyObject *d = dict;
        res = generic_set_in_dict(obj, &d, name, value);
        goto done;
    }
    PyObject **dictptr = _PyObject_GetDictPtr(obj);
    if (dictptr != NULL) {
        res = generic_set_in_dict(obj, dictptr, name, value);
        goto done;
    }
    if (descr == NULL) {
        PyErr_Format(PyExc_AttributeError,
                     "'%.100s' object has no attribute '%U' and no __dict__ for setting new "
                     "attributes",
                     tp->tp_name, name);
        set_attribute_error_context(obj, name);
    }
    else {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object attribute '%U' is read-only",
                     tp->tp_name, name);
    }
done:
    Py_XDECREF(descr);
    Py_DECREF(name);
    return res;
}

int
PyObject_GenericSetAttr(PyObject *obj, PyObject *name, PyObject *value)
{
    return _PyObject_GenericSetAttrWithDict(obj, name, value, NULL);
}

/* ---- Method lookup for calls --------------------------------------------------- */

static int
is_unbound_method(PyObject *descr)
{
    return PyFunction_Check(descr) ||
           PyType_HasFeature(Py_TYPE(descr), Py_TPFLAGS_METHOD_DESCRIPTOR);
}

int
_PyObject_GetMethod(PyObject *obj, PyObject *name, PyObject **method)
{
    PyTypeObject *tp = Py_TYPE(obj);
    *method = NULL;
    if (tp->tp_getattro != PyObject_GenericGetAttr || !PyUnicode_CheckExact(name)) {
        *method = PyObject_GetAttr(obj, name);
        return 0;
    }
    if (tp->tp_dict == NULL && PyType_Ready(tp) < 0) {
        return 0;
    }
    PyObject *descr = _PyType_LookupRef(tp, name);
    descrgetfunc f = NULL;
    int meth_found = 0;
    if (descr != NULL) {
        if (is_unbound_method(descr)) {
            meth_found = 1;
        }
        else {
            f = Py_TYPE(descr)->tp_descr_get;
            if (f != NULL && PyDescr_IsData(descr)) {
                *method = f(descr, obj, (PyObject *)tp);
                Py_DECREF(descr);
                return 0;
            }
        }
    }
    PyObject **dictptr = _PyObject_GetDictPtr(obj);
    if (dictptr != NULL && *dictptr != NULL) {
        PyObject *dict = Py_NewRef(*dictptr);
        PyObject *attr;
        int rc = PyDict_GetItemRef(dict, name, &attr);
        Py_DECREF(dict);
        if (rc != 0) {
            Py_XDECREF(descr);
            *method = attr;
            return 0;
        }
    }
    if (meth_found) {
        *method = descr;
        return 1;
    }
    if (f != NULL) {
        *method = f(descr, obj, (PyObject *)tp);
        Py_DECREF(descr);
        return 0;
    }
    if (descr != NULL) {
        *method = descr;
        return 0;
    }
    raise_no_attribute(obj, name);
    return 0;
}

/* ---- Special method lookup ----------------------------------------------------- */

PyObject *
_PyObject_LookupSpecial(PyObject *self, PyObject *attr)
{
    PyObject *res = _PyType_LookupRef(Py_TYPE(self), attr);
    if (res == NULL) {
        return NULL;
    }
    descrgetfunc f = Py_TYPE(res)->tp_descr_get;
    if (f != NULL) {
        Py_SETREF(res, f(res, self, (PyObject *)Py_TYPE(self)));
    }
    return res;
}

PyObject *
_PyObject_FunctionStr(PyObject *x)
{
    PyObject *qualname;
    int rc = PyObject_GetOptionalAttr(x, _Py_ID(__qualname__), &qualname);
    if (rc <= 0) {
        return rc < 0 ? NULL : PyObject_Str(x);
    }
    PyObject *module, *result = NULL;
    rc = PyObject_GetOptionalAttr(x, _Py_ID(__module__), &module);
    if (rc < 0) {
        goto done;
    }
    if (module != NULL && module != Py_None && PyUnicode_Check(module) &&
        !_PyUnicode_EqualToASCIIString(module, "builtins")) {
        result = PyUnicode_FromFormat("%S.%S()", module, qualname);
    }
    else {
        result = PyUnicode_FromFormat("%S()", qualname);
    }
    Py_XDECREF(module);
done:
    Py_DECREF(qualname);
    return result;
}

/* ---- dir() ------------------------------------------------------------------------ */

static PyObject *
dir_locals(void)
{
    PyObject *locals = PyEval_GetFrameLocals();
    if (locals == NULL) {
        return NULL;
    }
    PyObject *names = PyMapping_Keys(locals);
    Py_DECREF(locals);
    if (names == NULL) {
        return NULL;
    }
    if (!PyList_Check(names)) {
        PyErr_Format(PyExc_TypeError, "dir(): expected keys() of locals to be a list, not '%.200s'",
                     Py_TYPE(names)->tp_name);
        Py_DECREF(names);
        return NULL;
    }
    if (PyList_Sort(names) < 0) {
        Py_DECREF(names);
        return NULL;
    }
    return names;
}

static PyObject *
dir_object(PyObject *obj)
{
    PyObject *dirfunc = _PyObject_LookupSpecial(obj, _Py_ID(__dir__));
    if (dirfunc == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "object does not provide __dir__");
        }
        return NULL;
    }
    PyObject *result = _PyObject_CallNoArgs(dirfunc);
    Py_DECREF(dirfunc);
    if (result == NULL) {
        return NULL;
    }
    PyObject *sorted = PySequence_List(result);
    Py_DECREF(result);
    if (sorted == NULL) {
        return NULL;
    }
    if (PyList_Sort(sorted) < 0) {
        Py_DECREF(sorted);
        return NULL;
    }
    return sorted;
}

PyObject *
PyObject_Dir(PyObject *obj)
{
    return obj == NULL ? dir_locals() : dir_object(obj);
}

/* ---- None ---------------------------------------------------------------------------- */

static PyObject *
none_repr(PyObject *op)
{
    return PyUnicode_FromString("None");
}

static PyObject *
none_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) || (kwargs != NULL && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError, "NoneType takes no arguments");
        return NULL;
    }
    Py_RETURN_NONE;
}

static int
none_bool(PyObject *v)
{
    return 0;
}

static Py_hash_t
none_hash(PyObject *v)
{
    /* A fixed value (as upstream since 3.12) so that hashes of structures
       holding None do not change from run to run. */
    return (Py_hash_t)0xFCA86420;
}

static PyNumberMethods none_as_number = {
    .nb_bool = none_bool,
};

PyTypeObject _PyNone_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "NoneType",
    .tp_basicsize = sizeof(PyObject),
    .tp_repr = none_repr,
    .tp_as_number = &none_as_number,
    .tp_hash = none_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The type of the None singleton.",
    .tp_new = none_new,
};

PyObject _Py_NoneStruct = {_Py_IMMORTAL_INITIAL_REFCNT, &_PyNone_Type};

/* ---- NotImplemented ---------------------------------------------------------------------- */

static PyObject *
notimplemented_repr(PyObject *op)
{
    return PyUnicode_FromString("NotImplemented");
}

static PyObject *
notimplemented_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyUnicode_FromString("NotImplemented");
}

static PyMethodDef notimplemented_methods[] = {
    {"__reduce__", notimplemented_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyObject *
notimplemented_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) || (kwargs != NULL && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError, "NotImplementedType takes no arguments");
        return NULL;
    }
    Py_RETURN_NOTIMPLEMENTED;
}

static int
notimplemented_bool(PyObject *v)
{
    PyErr_SetString(PyExc_TypeError, "NotImplemented should not be used in a boolean context");
    return -1;
}

static PyNumberMethods notimplemented_as_number = {
    .nb_bool = notimplemented_bool,
};

PyTypeObject _PyNotImplemented_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "NotImplementedType",
    .tp_basicsize = sizeof(PyObject),
    .tp_repr = notimplemented_repr,
    .tp_as_number = &notimplemented_as_number,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The type of the NotImplemented singleton.",
    .tp_methods = notimplemented_methods,
    .tp_new = notimplemented_new,
};

PyObject _Py_NotImplementedStruct = {_Py_IMMORTAL_INITIAL_REFCNT, &_PyNotImplemented_Type};

/* ---- Ellipsis ----------------------------------------------------------------------------- */

static PyObject *
ellipsis_repr(PyObject *op)
{
    return PyUnicode_FromString("Ellipsis");
}

static PyObject *
ellipsis_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) || (kwargs != NULL && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError, "EllipsisType takes no arguments");
        return NULL;
    }
    return Py_Ellipsis;
}

static PyObject *
ellipsis_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyUnicode_FromString("Ellipsis");
}

static PyMethodDef ellipsis_methods[] = {
    {"__reduce__", ellipsis_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyEllipsis_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "ellipsis",
    .tp_basicsize = sizeof(PyObject),
    .tp_repr = ellipsis_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The type of the Ellipsis singleton.",
    .tp_methods = ellipsis_methods,
    .tp_new = ellipsis_new,
};

PyObject _Py_EllipsisObject = {_Py_IMMORTAL_INITIAL_REFCNT, &PyEllipsis_Type};
