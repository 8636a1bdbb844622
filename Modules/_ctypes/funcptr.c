/* _ctypes: function pointers and foreign calls.

   PyCFuncPtrType reads `_argtypes_`, `_restype_` and `_flags_` (what
   CFUNCTYPE and CDLL put in their generated classes).  A CFuncPtr instance
   holds a code address: from an integer, from `(name, dll)` through dlsym,
   or from a Python callable (callback.c).  Calling one converts each
   argument (argtypes' from_param, else the default conversions for int,
   bytes, str and None) into a libffi slot, calls through ffi_call with the
   GIL released, and turns the result into a Python object by restype. */

#include "ctypes.h"
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

/* ---- Type information --------------------------------------------------------------- */

ffi_type *
_PyCtypes_FFIType(PyObject *type)
{
    TypeInfo *info = type == Py_None ? NULL : _PyCtypes_Info(type);
    if (info == NULL) {
        return type == Py_None ? &ffi_type_void : &ffi_type_sint;
    }
    if (info->kind == CT_POINTER || info->kind == CT_FUNCPTR) {
        return &ffi_type_pointer;
    }
    return &info->ffi;
}

/* The from_param callables of a sequence of argument types. */
PyObject *
_PyCtypes_Converters(PyObject *argtypes)
{
    Py_ssize_t n = PyTuple_GET_SIZE(argtypes);
    PyObject *conv = PyTuple_New(n);
    if (conv == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(argtypes, i);
        PyObject *fp = PyObject_GetAttrString(t, "from_param");
        if (fp == NULL) {
            Py_DECREF(conv);
            PyErr_Format(PyExc_TypeError, "item %zd in _argtypes_ has no from_param method",
                         i + 1);
            return NULL;
        }
        PyTuple_SET_ITEM(conv, i, fp);
    }
    return conv;
}

static int
set_argtypes(PyObject **argtypes, PyObject **converters, PyObject *value)
{
    if (value == NULL || value == Py_None) {
        Py_CLEAR(*argtypes);
        Py_CLEAR(*converters);
        return 0;
    }
    if (!PySequence_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_argtypes_ must be a sequence of types");
        return -1;
    }
    PyObject *t = PySequence_Tuple(value);
    if (t == NULL) {
        return -1;
    }
    if (PyTuple_GET_SIZE(t) > CT_MAX_ARGS) {
        PyErr_Format(_PyCtypes_ArgumentError, "_argtypes_ has too many arguments (%zi), "
                     "maximum is %i", PyTuple_GET_SIZE(t), CT_MAX_ARGS);
        Py_DECREF(t);
        return -1;
    }
    PyObject *c = _PyCtypes_Converters(t);
    if (c == NULL) {
        Py_DECREF(t);
        return -1;
    }
    Py_XSETREF(*argtypes, t);
    Py_XSETREF(*converters, c);
    return 0;
}

/* A result type is None, a ctypes type other than an array, or a
   callable; `what` names the attribute in the complaint. */
static int
check_restype(PyObject *value, const char *what)
{
    int ok = value == Py_None || _PyCtypes_IsCType(value) || PyCallable_Check(value);
    TypeInfo *info = ok && value != Py_None ? _PyCtypes_Info(value) : NULL;
    if (!ok || (info != NULL && info->kind == CT_ARRAY)) {
        PyErr_Format(PyExc_TypeError, "%s must be a type, a callable, or None", what);
        return -1;
    }
    return 0;
}

static PyObject *
funcptr_meta_new(PyTypeObject *meta, PyObject *args, PyObject *kwds)
{
    PyObject *type = PyType_Type.tp_new(meta, args, kwds);
    if (type == NULL) {
        return NULL;
    }
    TypeInfo *info = _PyCtypes_NewInfo(type, CT_FUNCPTR);
    if (info == NULL) {
        goto error;
    }
    info->size = sizeof(void *);
    info->align = _PyCtypes_FindFormat('P')->align;
    info->ffi = ffi_type_pointer;
    if (_PyCtypes_SetFormat(info, "X{}") < 0) {
        goto error;
    }
    PyObject *v = _PyCtypes_TypeGet(type, "_flags_");
    if (v == NULL || !PyLong_Check(v)) {
        Py_XDECREF(v);
        if (v != NULL || !PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "class must define _flags_ which must be an integer");
        }
        goto error;
    }
    info->flags = PyLong_AsInt(v);
    Py_DECREF(v);
    if (info->flags == -1 && PyErr_Occurred()) {
        goto error;
    }
    v = _PyCtypes_TypeGet(type, "_argtypes_");
    if (v != NULL) {
        int rc = set_argtypes(&info->argtypes, &info->converters, v);
        Py_DECREF(v);
        if (rc < 0) {
            goto error;
        }
    }
    else if (PyErr_Occurred()) {
        goto error;
    }
    v = _PyCtypes_TypeGet(type, "_restype_");
    if (v != NULL) {
        if (check_restype(v, "_restype_") < 0) {
            Py_DECREF(v);
            goto error;
        }
        info->restype = v;
    }
    else if (PyErr_Occurred()) {
        goto error;
    }
    return type;
error:
    Py_DECREF(type);
    return NULL;
}

/* A function pointer argument: one of this type, None (NULL), or an
   address given as an int. */
static PyObject *
funcptr_meta_from_param(PyObject *type, PyObject *value)
{
    int ok = value == Py_None || (PyLong_Check(value) && _PyCtypes_Info(type) != NULL) ||
             PyObject_TypeCheck(value, (PyTypeObject *)type);
    if (!ok) {
        PyObject *converted;
        int retried = _PyCtypes_RetryAsParameter(type, value, funcptr_meta_from_param, &converted);
        if (retried != 0) {
            return retried < 0 ? NULL : converted;
        }
        PyErr_Format(PyExc_TypeError, "expected %s instance instead of %s",
                     ((PyTypeObject *)type)->tp_name, Py_TYPE(value)->tp_name);
        return NULL;
    }
    if (PyLong_Check(value)) {
        return _PyCtypes_VoidPFromParam(type, value);
    }
    return Py_NewRef(value);
}

static PyMethodDef funcptr_meta_methods[] = {
    {"from_param", funcptr_meta_from_param, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyCFuncPtrType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.PyCFuncPtrType",
    .tp_basicsize = sizeof(CTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_TYPE_SUBCLASS,
    .tp_new = funcptr_meta_new,
    .tp_methods = funcptr_meta_methods,
    .tp_doc = "metatype for C function pointers",
};

/* ---- Argument conversion ---------------------------------------------------------------- */

typedef struct {
    ffi_type *ffi;
    void *where;                /* the value libffi reads */
    ArgValue value;             /* storage when not in an object */
    PyObject *keep;             /* owns `where`, released after the call */
} ArgSlot;

static int
fill_slot(ArgSlot *s, PyObject *obj, Py_ssize_t argno)
{
    s->where = &s->value;
    if (PyObject_TypeCheck(obj, &PyCArg_Type)) {
        PyCArgObject *a = (PyCArgObject *)obj;
        s->ffi = a->ffi;
        s->where = &a->value;
        s->keep = Py_NewRef(obj);
        return 0;
    }
    if (_PyCtypes_IsCData(obj)) {
        TypeInfo *info = _PyCtypes_InfoOfObject(obj);
        s->keep = Py_NewRef(obj);
        if (info != NULL && info->kind == CT_ARRAY) {
            s->ffi = &ffi_type_pointer;
            s->value.p = CDATA(obj)->ptr;
            return 0;
        }
        s->ffi = info ? _PyCtypes_FFIType((PyObject *)Py_TYPE(obj)) : &ffi_type_pointer;
        s->where = CDATA(obj)->ptr;
        return 0;
    }
    if (obj == Py_None) {
        s->ffi = &ffi_type_pointer;
        s->value.p = NULL;
        return 0;
    }
    if (PyLong_Check(obj)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (overflow || v > 0xFFFFFFFFLL || v < -0x80000000LL) {
            PyErr_SetString(PyExc_OverflowError, "int too long to convert");
            return -1;
        }
        s->ffi = &ffi_type_sint;
        s->value.i = (int)v;
        return 0;
    }
    if (PyBytes_Check(obj)) {
        s->ffi = &ffi_type_pointer;
        s->value.p = PyBytes_AS_STRING(obj);
        s->keep = Py_NewRef(obj);
        return 0;
    }
    if (PyUnicode_Check(obj)) {
        PyObject *arg = _PyCtypes_VoidPFromParam(NULL, obj);
        if (arg == NULL) {
            return -1;
        }
        return fill_slot(s, arg, argno) < 0 ? (Py_DECREF(arg), -1) : (Py_DECREF(arg), 0);
    }
    PyObject *as;
    if (PyObject_GetOptionalAttrString(obj, "_as_parameter_", &as) < 0) {
        return -1;
    }
    if (as != NULL) {
        int rc = -1;
        if (Py_EnterRecursiveCall(" while processing _as_parameter_") == 0) {
            rc = fill_slot(s, as, argno);
            Py_LeaveRecursiveCall();
        }
        Py_DECREF(as);
        return rc;
    }
    PyErr_Format(PyExc_TypeError, "Don't know how to convert parameter %zd", argno);
    return -1;
}

/* Re-raise the pending exception as ArgumentError("argument N: Type: msg"). */
static void
raise_argument_error(Py_ssize_t argno)
{
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *msg = PyObject_Str(exc);
    if (msg == NULL) {
        Py_DECREF(exc);
        return;
    }
    PyObject *text = PyUnicode_FromFormat("argument %zd: %s: %U", argno,
                                          Py_TYPE(exc)->tp_name, msg);
    Py_DECREF(msg);
    if (text != NULL) {
        PyErr_SetObject(_PyCtypes_ArgumentError, text);
        Py_DECREF(text);
        PyObject *ae = PyErr_GetRaisedException();
        PyException_SetCause(ae, exc);
        PyErr_SetRaisedException(ae);
        return;
    }
    Py_DECREF(exc);
}

/* ---- Results -------------------------------------------------------------------- */

/* A restype's _check_retval_ sees (and replaces) the result. */
static PyObject *
check_retval(PyObject *restype, PyObject *v)
{
    PyObject *check = _PyCtypes_TypeGet(restype, "_check_retval_");
    if (check == NULL) {
        return PyErr_Occurred() ? (Py_DECREF(v), NULL) : v;
    }
    PyObject *r = PyObject_CallOneArg(check, v);
    Py_DECREF(check);
    Py_DECREF(v);
    return r;
}

static PyObject *
make_result(PyObject *restype, void *buf, int flags)
{
    if (restype == Py_None) {
        Py_RETURN_NONE;
    }
    TypeInfo *info = restype ? _PyCtypes_Info(restype) : NULL;
    if (restype == NULL || info == NULL) {
        PyObject *v = PyLong_FromLong(*(int *)buf);
        if (restype == NULL || v == NULL) {
            return v;
        }
        PyObject *r = PyObject_CallOneArg(restype, v);
        Py_DECREF(v);
        return r;
    }
    if (info->kind == CT_SIMPLE && _PyCtypes_IsFundamental(restype)) {
        if (info->fmt->code == 'O') {
            /* A PyObject * result is a new reference: take it over. */
            PyObject *o = *(PyObject **)buf;
            if (o == NULL && !PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "PyObject is NULL");
            }
            return o;
        }
        PyObject *v = info->fmt->get(buf, info->size);
        return v == NULL ? NULL : check_retval(restype, v);
    }
    PyObject *res = _PyCtypes_NewOwned((PyTypeObject *)restype);
    if (res == NULL) {
        return NULL;
    }
    memcpy(CDATA(res)->ptr, buf, (size_t)info->size);
    return info->kind == CT_SIMPLE ? check_retval(restype, res) : res;
}

PyObject *
_PyCtypes_CallFunction(void *addr, PyObject *args, PyObject *argtypes, PyObject *converters,
                       PyObject *restype, int flags, int has_restype)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    Py_ssize_t nconv = converters ? PyTuple_GET_SIZE(converters) : 0;
    if (nargs > CT_MAX_ARGS) {
        PyErr_Format(_PyCtypes_ArgumentError, "too many arguments (%zi), maximum is %i",
                     nargs, CT_MAX_ARGS);
        return NULL;
    }
    if (nargs < nconv) {
        PyErr_Format(PyExc_TypeError, "this function takes at least %zd argument%s (%zd given)",
                     nconv, nconv == 1 ? "" : "s", nargs);
        return NULL;
    }
    if (addr == NULL) {
        PyErr_SetString(PyExc_ValueError, "NULL function pointer");
        return NULL;
    }
    ArgSlot *slots = PyMem_Calloc((size_t)nargs + 1, sizeof(ArgSlot));
    ffi_type **types = PyMem_Calloc((size_t)nargs + 1, sizeof(ffi_type *));
    void **values = PyMem_Calloc((size_t)nargs + 1, sizeof(void *));
    PyObject *result = NULL;
    char *rbuf = NULL;
    if (slots == NULL || types == NULL || values == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *obj = PyTuple_GET_ITEM(args, i);
        PyObject *conv = NULL;
        if (i < nconv) {
            conv = PyObject_CallOneArg(PyTuple_GET_ITEM(converters, i), obj);
            if (conv == NULL) {
                raise_argument_error(i + 1);
                goto done;
            }
            obj = conv;
        }
        int rc = fill_slot(&slots[i], obj, i + 1);
        Py_XDECREF(conv);
        if (rc < 0) {
            raise_argument_error(i + 1);
            goto done;
        }
        types[i] = slots[i].ffi;
        values[i] = slots[i].where;
    }
    ffi_type *rtype = restype ? _PyCtypes_FFIType(restype) : &ffi_type_sint;
    TypeInfo *rinfo = restype && restype != Py_None ? _PyCtypes_Info(restype) : NULL;
    size_t rsize = rinfo ? (size_t)rinfo->size : 0;
    rbuf = PyMem_Calloc(1, (rsize > sizeof(ArgValue) ? rsize : sizeof(ArgValue)) + 16);
    if (rbuf == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    ffi_cif cif;
    ffi_status st;
    if (nargs > nconv && converters != NULL) {
        st = ffi_prep_cif_var(&cif, FFI_DEFAULT_ABI, (unsigned)nconv, (unsigned)nargs, rtype,
                              types);
    }
    else {
        st = ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)nargs, rtype, types);
    }
    if (st != FFI_OK) {
        PyErr_SetString(PyExc_RuntimeError, "ffi_prep_cif failed");
        goto done;
    }
    int *saved = _PyCtypes_ErrnoSlot();
    if (flags & CT_FLAG_PYTHONAPI) {
        ffi_call(&cif, FFI_FN(addr), rbuf, values);
        if (PyErr_Occurred()) {
            if (rinfo != NULL && rinfo->kind == CT_SIMPLE && rinfo->fmt->code == 'O') {
                Py_XDECREF(*(PyObject **)rbuf);
            }
            goto done;
        }
    }
    else {
        Py_BEGIN_ALLOW_THREADS
        int keep_errno = 0;
        if (flags & CT_FLAG_USE_ERRNO) {
            keep_errno = errno;
            errno = *saved;
        }
        ffi_call(&cif, FFI_FN(addr), rbuf, values);
        if (flags & CT_FLAG_USE_ERRNO) {
            *saved = errno;
            errno = keep_errno;
        }
        Py_END_ALLOW_THREADS
        if (PyErr_Occurred()) {
            goto done;          /* a callback raised and could not report */
        }
    }
    result = make_result(restype, rbuf, flags);
done:
    if (slots != NULL) {
        for (Py_ssize_t i = 0; i < nargs; i++) {
            Py_XDECREF(slots[i].keep);
        }
    }
    PyMem_Free(slots);
    PyMem_Free(types);
    PyMem_Free(values);
    PyMem_Free(rbuf);
    return result;
}

/* ---- CFuncPtr instances -------------------------------------------------------------- */

#define FP(o) ((CFuncPtrObject *)(o))

static void **
fp_addr(PyObject *self)
{
    return (void **)CDATA(self)->ptr;
}

static int
resolve_symbol(PyObject *self, PyObject *spec)
{
    PyObject *name, *dll;
    if (!PyArg_ParseTuple(spec, "OO;illegal func_spec argument", &name, &dll)) {
        return -1;
    }
    PyObject *h = PyObject_GetAttrString(dll, "_handle");
    if (h == NULL) {
        return -1;
    }
    if (!PyLong_Check(h)) {
        Py_DECREF(h);
        PyErr_SetString(PyExc_TypeError, "the _handle attribute of the second argument must "
                        "be an integer");
        return -1;
    }
    void *handle = PyLong_AsVoidPtr(h);
    Py_DECREF(h);
    if (handle == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (PyLong_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "function ordinals are only supported on Windows");
        return -1;
    }
    const char *cname = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (cname == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "function name must be a string");
        }
        return -1;
    }
    if (PySys_Audit("ctypes.dlsym", "OO", dll, name) < 0) {
        return -1;
    }
    dlerror();
    void *addr = dlsym(handle, cname);
    if (addr == NULL) {
        _PyCtypes_SetDlError(PyExc_AttributeError, "symbol not found");
        return -1;
    }
    *fp_addr(self) = addr;
    FP(self)->name = Py_NewRef(name);
    return 0;
}

/* ---- paramflags: named, defaulted and output parameters ------------------------------- */

#define PARAM_IN 1
#define PARAM_OUT 2
#define PARAM_DEFAULT_ZERO 4

static int
check_paramflags(PyObject *flags, TypeInfo *info)
{
    if (!PyTuple_Check(flags)) {
        PyErr_SetString(PyExc_TypeError, "paramflags must be a tuple or None");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(flags);
    if (info->argtypes == NULL || PyTuple_GET_SIZE(info->argtypes) != n) {
        PyErr_SetString(PyExc_ValueError, "paramflags must have the same length as argtypes");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(flags, i);
        int flag;
        PyObject *name = Py_None, *dflt = NULL;
        if (!PyTuple_Check(item) ||
            !PyArg_ParseTuple(item, "i|OO;paramflags must be a sequence of (int [,string "
                              "[,value]]) tuples", &flag, &name, &dflt)) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "paramflags must be a sequence of (int "
                                "[,string [,value]]) tuples");
            }
            return -1;
        }
        if (name != Py_None && !PyUnicode_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "paramflags names must be strings");
            return -1;
        }
        /* 'zero default' only qualifies a pure input; other bits above
           the three known ones are ignored. */
        int known = flag & (PARAM_IN | PARAM_OUT | PARAM_DEFAULT_ZERO);
        if (known == PARAM_DEFAULT_ZERO || known == (PARAM_OUT | PARAM_DEFAULT_ZERO) ||
            known == (PARAM_IN | PARAM_OUT | PARAM_DEFAULT_ZERO)) {
            PyErr_Format(PyExc_TypeError, "paramflag value %d not supported", flag);
            return -1;
        }
        int dir = flag & (PARAM_IN | PARAM_OUT);
        if (dir == PARAM_OUT) {
            TypeInfo *ai = _PyCtypes_Info(PyTuple_GET_ITEM(info->argtypes, i));
            if (ai == NULL || ai->kind != CT_POINTER || ai->proto == NULL) {
                PyObject *t = PyTuple_GET_ITEM(info->argtypes, i);
                PyErr_Format(PyExc_TypeError, "'out' parameter %zd must be a pointer type, "
                             "not %s", i + 1,
                             PyType_Check(t) ? ((PyTypeObject *)t)->tp_name
                                             : Py_TYPE(t)->tp_name);
                return -1;
            }
        }
    }
    return 0;
}

/* One parameter's Python value for a call with paramflags: the next
   positional argument, the keyword naming it, its default, or 0 when the
   flags ask for a zero default.  *used counts the caller's arguments
   consumed.  New reference, or NULL with an exception. */
static PyObject *
param_value(PyObject *item, PyObject *args, Py_ssize_t *pos, PyObject *kwds, Py_ssize_t *used)
{
    int flag = PyLong_AsInt(PyTuple_GET_ITEM(item, 0));
    PyObject *name = PyTuple_GET_SIZE(item) > 1 ? PyTuple_GET_ITEM(item, 1) : Py_None;
    PyObject *dflt = PyTuple_GET_SIZE(item) > 2 ? PyTuple_GET_ITEM(item, 2) : NULL;
    if (*pos < PyTuple_GET_SIZE(args)) {
        ++*used;
        return Py_NewRef(PyTuple_GET_ITEM(args, (*pos)++));
    }
    if (kwds != NULL && name != Py_None) {
        PyObject *v = PyDict_GetItemWithError(kwds, name);
        if (v != NULL) {
            ++*used;
            return Py_NewRef(v);
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    if (dflt != NULL) {
        return Py_NewRef(dflt);
    }
    if (flag & PARAM_DEFAULT_ZERO) {
        return PyLong_FromLong(0);
    }
    if (name != Py_None) {
        PyErr_Format(PyExc_TypeError, "required argument '%U' missing", name);
    }
    else {
        PyErr_SetString(PyExc_TypeError, "not enough arguments");
    }
    return NULL;
}

/* The C arguments of a call with paramflags.  *outs gets one
   (object, convert) pair per output parameter: an 'out' one is made here
   and answered through its __ctypes_from_outparam__, an 'in, out' one is
   the caller's object, answered as it is.  Every argument the caller
   gives must bind to an input parameter. */
static PyObject *
bind_params(CFuncPtrObject *self, TypeInfo *info, PyObject *args, PyObject *kwds,
            PyObject **outs)
{
    PyObject *flags = self->paramflags;
    Py_ssize_t n = PyTuple_GET_SIZE(flags), pos = 0, used = 0;
    PyObject *call = PyTuple_New(n);
    *outs = PyList_New(0);
    if (call == NULL || *outs == NULL) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(flags, i);
        int dir = PyLong_AsInt(PyTuple_GET_ITEM(item, 0)) & (PARAM_IN | PARAM_OUT);
        PyObject *v;
        if (dir == PARAM_OUT) {
            TypeInfo *ai = _PyCtypes_Info(PyTuple_GET_ITEM(info->argtypes, i));
            v = PyObject_CallNoArgs(ai->proto);
        }
        else {
            v = param_value(item, args, &pos, kwds, &used);
        }
        if (v == NULL) {
            goto error;
        }
        PyTuple_SET_ITEM(call, i, v);
        if (dir & PARAM_OUT) {
            PyObject *pair = Py_BuildValue("(OO)", v, dir == PARAM_OUT ? Py_True : Py_False);
            if (pair == NULL || PyList_Append(*outs, pair) < 0) {
                Py_XDECREF(pair);
                goto error;
            }
            Py_DECREF(pair);
        }
    }
    Py_ssize_t given = PyTuple_GET_SIZE(args) + (kwds != NULL ? PyDict_GET_SIZE(kwds) : 0);
    if (used != given) {
        PyErr_Format(PyExc_TypeError, "call takes exactly %zd arguments (%zd given)", used,
                     given);
        goto error;
    }
    return call;
error:
    Py_XDECREF(call);
    Py_CLEAR(*outs);
    return NULL;
}

/* With output parameters the call returns their values (one, or a tuple). */
static PyObject *
output_values(PyObject *outs)
{
    Py_ssize_t n = PyList_GET_SIZE(outs);
    PyObject *res = PyTuple_New(n);
    if (res == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PyList_GET_ITEM(outs, i);
        PyObject *obj = PyTuple_GET_ITEM(pair, 0);
        PyObject *v = PyTuple_GET_ITEM(pair, 1) == Py_True
                          ? PyObject_CallMethod(obj, "__ctypes_from_outparam__", NULL)
                          : Py_NewRef(obj);
        if (v == NULL) {
            Py_DECREF(res);
            return NULL;
        }
        PyTuple_SET_ITEM(res, i, v);
    }
    if (n == 1) {
        Py_SETREF(res, Py_NewRef(PyTuple_GET_ITEM(res, 0)));
    }
    return res;
}

static PyObject *
funcptr_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    TypeInfo *info = _PyCtypes_Info((PyObject *)type);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "abstract class");
        return NULL;
    }
    PyObject *self = _PyCtypes_NewOwned(type);
    if (self == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 0) {
        return self;
    }
    /* The forms: (address), (callable), ((name, dll)[, paramflags]).  The
       COM form (vtable index, name, ...) exists only on Windows. */
    PyObject *a0 = PyTuple_GET_ITEM(args, 0);
    int rc = 0;
    if (PyTuple_Check(a0)) {
        if (n > 2) {
            PyErr_Format(PyExc_TypeError, "function takes at most 2 arguments (%zd given)", n);
            rc = -1;
        }
        else {
            rc = resolve_symbol(self, a0);
        }
        PyObject *flags = n == 2 ? PyTuple_GET_ITEM(args, 1) : Py_None;
        if (rc == 0 && flags != Py_None) {
            rc = check_paramflags(flags, info);
            if (rc == 0) {
                FP(self)->paramflags = Py_NewRef(flags);
            }
        }
    }
    else if (!PyLong_Check(a0) && !PyCallable_Check(a0)) {
        PyErr_SetString(PyExc_TypeError, "argument must be callable or integer function "
                        "address");
        rc = -1;
    }
    else if (n != 1) {
        PyErr_Format(PyExc_TypeError, "function takes exactly 1 argument (%zd given)", n);
        rc = -1;
    }
    else if (PyLong_Check(a0)) {
        *fp_addr(self) = PyLong_AsVoidPtr(a0);
        rc = PyErr_Occurred() ? -1 : 0;
    }
    else {
        rc = _PyCtypes_MakeCallback(FP(self), a0, info->argtypes, info->restype, info->flags);
    }
    if (rc < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static PyObject *
funcptr_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    CFuncPtrObject *f = FP(self);
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    PyObject *outs = NULL;
    if (f->paramflags != NULL) {
        args = bind_params(f, info, args, kwds, &outs);
        if (args == NULL) {
            return NULL;
        }
    }
    else if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyErr_SetString(PyExc_TypeError, "this function takes no keyword arguments");
        return NULL;
    }
    else {
        Py_INCREF(args);
    }
    PyObject *argtypes = f->argtypes ? f->argtypes : info->argtypes;
    PyObject *converters = f->argtypes ? f->converters : info->converters;
    PyObject *restype = f->has_restype ? f->restype : info->restype;
    PyObject *errcheck = f->errcheck;
    (void)argtypes;
    PyObject *res = _PyCtypes_CallFunction(*fp_addr(self), args, argtypes, converters,
                                           restype, info->flags, 1);
    /* With output parameters, an errcheck answering the arguments tuple
       itself lets the call return the outputs; any other answer is the
       call's result. */
    int want_outs = outs != NULL && PyList_GET_SIZE(outs) > 0;
    if (res != NULL && errcheck != NULL) {
        Py_SETREF(res, PyObject_CallFunctionObjArgs(errcheck, res, self, args, NULL));
        want_outs = want_outs && res == args;
    }
    Py_DECREF(args);
    if (res != NULL && want_outs) {
        Py_SETREF(res, output_values(outs));
    }
    Py_XDECREF(outs);
    return res;
}

static PyObject *
funcptr_get_argtypes(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *v = FP(self)->argtypes ? FP(self)->argtypes
                                     : _PyCtypes_InfoOfObject(self)->argtypes;
    return Py_NewRef(v ? v : Py_None);
}

static int
funcptr_set_argtypes(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    if (set_argtypes(&FP(self)->argtypes, &FP(self)->converters, value) < 0) {
        return -1;
    }
    /* The attribute reads back as the object given (a list stays a list). */
    if (FP(self)->argtypes != NULL) {
        Py_SETREF(FP(self)->argtypes, Py_NewRef(value));
    }
    return 0;
}

static PyObject *
funcptr_get_restype(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *v = FP(self)->has_restype ? FP(self)->restype
                                        : _PyCtypes_InfoOfObject(self)->restype;
    return Py_NewRef(v ? v : Py_None);
}

static int
funcptr_set_restype(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    if (value == NULL) {
        Py_CLEAR(FP(self)->restype);
        FP(self)->has_restype = 0;
        return 0;
    }
    if (check_restype(value, "restype") < 0) {
        return -1;
    }
    Py_XSETREF(FP(self)->restype, Py_NewRef(value));
    FP(self)->has_restype = 1;
    return 0;
}

static PyObject *
funcptr_get_errcheck(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *v = FP(self)->errcheck;
    return Py_NewRef(v ? v : Py_None);
}

static int
funcptr_set_errcheck(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    if (value != NULL && value != Py_None && !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "the errcheck attribute must be callable");
        return -1;
    }
    Py_XSETREF(FP(self)->errcheck, value == Py_None ? NULL : Py_XNewRef(value));
    return 0;
}

static PyGetSetDef funcptr_getset[] = {
    {"argtypes", funcptr_get_argtypes, funcptr_set_argtypes, "specify the argument types",
     NULL},
    {"restype", funcptr_get_restype, funcptr_set_restype, "specify the result type", NULL},
    {"errcheck", funcptr_get_errcheck, funcptr_set_errcheck, "a function to check for "
     "errors", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *
funcptr_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<%s object at %p>", Py_TYPE(self)->tp_name, self);
}

static int
funcptr_bool(PyObject *self)
{
    return *fp_addr(self) != NULL;
}

static PyNumberMethods funcptr_as_number = {
    .nb_bool = funcptr_bool,
};

PyTypeObject PyCFuncPtr_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.CFuncPtr",
    .tp_basicsize = sizeof(CFuncPtrObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = funcptr_new,
    .tp_call = funcptr_call,
    .tp_repr = funcptr_repr,
    .tp_as_number = &funcptr_as_number,
    .tp_getset = funcptr_getset,
    .tp_doc = "Function Pointer",
};
