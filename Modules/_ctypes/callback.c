/* _ctypes: Python callables as C function pointers.

   CFUNCTYPE(restype, *argtypes)(callable) allocates a libffi closure whose
   handler takes the GIL, turns each C argument into a Python object
   (fundamental simple types give their value, other types a view of the
   argument's memory), calls the callable and stores its result by
   restype.  An exception inside the callable cannot cross the C frames that
   called us: it is reported as unraisable and the result is zero. */

#include "ctypes.h"
#include "pycore_pyerrors.h"     /* _PyErr_WriteUnraisableMsg */
#include <string.h>

static PyObject *
callback_arg(PyObject *type, void *where)
{
    TypeInfo *info = _PyCtypes_Info(type);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "invalid callback argument type");
        return NULL;
    }
    if (info->kind == CT_SIMPLE && _PyCtypes_IsFundamental(type)) {
        return info->fmt->get(where, info->size);
    }
    PyObject *res = _PyCtypes_NewOwned((PyTypeObject *)type);
    if (res != NULL) {
        memcpy(CDATA(res)->ptr, where, (size_t)info->size);
    }
    return res;
}

static void
report_callback_error(PyObject *callable, int converting)
{
    _PyErr_WriteUnraisableMsg(converting ? "Exception ignored on converting result of "
                                           "ctypes callback function"
                                         : "Exception ignored on calling ctypes callback "
                                           "function", callable);
}

static void
closure_handler(ffi_cif *cif, void *ret, void **args, void *userdata)
{
    CFuncPtrObject *self = (CFuncPtrObject *)userdata;
    PyGILState_STATE gs = PyGILState_Ensure();
    TypeInfo *info = _PyCtypes_InfoOfObject((PyObject *)self);
    PyObject *argtypes = info->argtypes;
    PyObject *restype = info->restype;
    Py_ssize_t n = argtypes ? PyTuple_GET_SIZE(argtypes) : 0;
    if (cif->rtype->size) {
        memset(ret, 0, cif->rtype->size < sizeof(ffi_arg) ? sizeof(ffi_arg)
                                                           : cif->rtype->size);
    }
    PyObject *pyargs = PyTuple_New(n);
    PyObject *result = NULL;
    int converting = 0;
    if (pyargs == NULL) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = callback_arg(PyTuple_GET_ITEM(argtypes, i), args[i]);
        if (v == NULL) {
            goto error;
        }
        PyTuple_SET_ITEM(pyargs, i, v);
    }
    result = PyObject_Call(self->callable, pyargs, NULL);
    if (result == NULL) {
        goto error;
    }
    converting = 1;
    if (restype != NULL && restype != Py_None) {
        TypeInfo *ri = _PyCtypes_Info(restype);
        if (ri != NULL && ri->kind == CT_SIMPLE) {
            if (ri->fmt->code == 'O') {
                /* A PyObject * result is a new reference for the caller. */
                *(PyObject **)ret = Py_NewRef(result);
            }
            else {
                PyObject *keep = ri->fmt->set(ret, result, ri->size);
                if (keep == NULL) {
                    goto error;
                }
                if (keep != Py_None) {
                    PyErr_WarnEx(PyExc_RuntimeWarning, "memory leak in callback function.",
                                 1);
                    if (PyErr_Occurred()) {
                        Py_DECREF(keep);
                        goto error;
                    }
                    /* The caller may use the memory: keep it for good. */
                }
                else {
                    Py_DECREF(keep);
                }
            }
            /* Small integers come back widened to a full register. */
            if (ri->fmt->is_int && ri->size < (Py_ssize_t)sizeof(ffi_arg)) {
                ffi_arg wide = 0;
                unsigned long long bits = 0;
                memcpy(&bits, ret, (size_t)ri->size);
                if (ri->fmt->is_signed) {
                    int shift = (int)(64 - ri->size * 8);
                    wide = (ffi_arg)(((long long)(bits << shift)) >> shift);
                }
                else {
                    wide = (ffi_arg)bits;
                }
                *(ffi_arg *)ret = wide;
            }
        }
        else if (ri != NULL && PyObject_TypeCheck(result, (PyTypeObject *)restype)) {
            memcpy(ret, CDATA(result)->ptr, (size_t)ri->size);
        }
        else if (ri != NULL && ri->kind == CT_POINTER && result == Py_None) {
            *(void **)ret = NULL;
        }
        else {
            PyErr_Format(PyExc_TypeError, "cannot convert callback result to %s",
                         ((PyTypeObject *)restype)->tp_name);
            goto error;
        }
    }
    else if (restype == NULL && result != Py_None) {
        PyObject *keep = _PyCtypes_FindFormat('i')->set(ret, result, sizeof(int));
        if (keep == NULL) {
            goto error;
        }
        Py_DECREF(keep);
        *(ffi_arg *)ret = (ffi_arg)(long long)*(int *)ret;
    }
    Py_DECREF(result);
    Py_DECREF(pyargs);
    PyGILState_Release(gs);
    return;
error:
    report_callback_error(self->callable, converting);
    Py_XDECREF(result);
    Py_XDECREF(pyargs);
    PyGILState_Release(gs);
}

int
_PyCtypes_MakeCallback(CFuncPtrObject *self, PyObject *callable, PyObject *argtypes,
                       PyObject *restype, int flags)
{
    Py_ssize_t n = argtypes ? PyTuple_GET_SIZE(argtypes) : 0;
    if (restype != NULL && restype != Py_None) {
        TypeInfo *ri = _PyCtypes_Info(restype);
        if (ri == NULL || ri->kind != CT_SIMPLE) {
            PyErr_SetString(PyExc_TypeError, "invalid result type for callback function");
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (_PyCtypes_Info(PyTuple_GET_ITEM(argtypes, i)) == NULL) {
            PyErr_Format(PyExc_TypeError, "invalid argument type %zd for callback function",
                         i + 1);
            return -1;
        }
    }
    self->cif = PyMem_Calloc(1, sizeof(ffi_cif));
    self->cif_types = PyMem_Calloc((size_t)n + 1, sizeof(ffi_type *));
    if (self->cif == NULL || self->cif_types == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        self->cif_types[i] = _PyCtypes_FFIType(PyTuple_GET_ITEM(argtypes, i));
    }
    ffi_type *rtype = restype ? _PyCtypes_FFIType(restype) : &ffi_type_sint;
    if (ffi_prep_cif(self->cif, FFI_DEFAULT_ABI, (unsigned)n, rtype, self->cif_types) !=
        FFI_OK) {
        PyErr_SetString(PyExc_RuntimeError, "ffi_prep_cif failed");
        return -1;
    }
    self->closure = ffi_closure_alloc(sizeof(ffi_closure), &self->code);
    if (self->closure == NULL) {
        PyErr_SetString(PyExc_MemoryError, "ffi_closure_alloc failed");
        return -1;
    }
    if (ffi_prep_closure_loc(self->closure, self->cif, closure_handler, self, self->code) !=
        FFI_OK) {
        PyErr_SetString(PyExc_RuntimeError, "ffi_prep_closure failed");
        return -1;
    }
    self->callable = Py_NewRef(callable);
    *(void **)self->cdata.ptr = self->code;
    return 0;
}

void
_PyCtypes_FreeCallback(CFuncPtrObject *self)
{
    if (self->closure != NULL) {
        ffi_closure_free(self->closure);
        self->closure = NULL;
    }
    PyMem_Free(self->cif);
    self->cif = NULL;
    PyMem_Free(self->cif_types);
    self->cif_types = NULL;
    Py_CLEAR(self->callable);
    Py_CLEAR(self->argtypes);
    Py_CLEAR(self->converters);
    Py_CLEAR(self->restype);
    Py_CLEAR(self->errcheck);
    Py_CLEAR(self->name);
    Py_CLEAR(self->paramflags);
}
