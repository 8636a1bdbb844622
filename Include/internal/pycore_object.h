/* Internal object helpers. */
#ifndef Py_INTERNAL_OBJECT_H
#define Py_INTERNAL_OBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_gc.h"

/* Initialise the header of freshly allocated memory. */
static inline void
_PyObject_Init(PyObject *op, PyTypeObject *typeobj)
{
    op->ob_type = typeobj;
    if (PyType_HasFeature(typeobj, Py_TPFLAGS_HEAPTYPE)) {
        Py_INCREF(typeobj);
    }
    op->ob_refcnt = 1;
    _Py_INC_REFTOTAL();
}

static inline void
_PyObject_InitVar(PyVarObject *op, PyTypeObject *typeobj, Py_ssize_t size)
{
    _PyObject_Init((PyObject *)op, typeobj);
    Py_SET_SIZE(op, size);
}

/* Make an object immortal (static singletons made at run time, interned
   strings).  Removes it from the reference total. */
static inline void
_Py_SetImmortal(PyObject *op)
{
#ifdef Py_REF_DEBUG
    if (!_Py_IsImmortal(op)) {
        _Py_RefTotal -= op->ob_refcnt;
    }
#endif
    op->ob_refcnt = _Py_IMMORTAL_INITIAL_REFCNT;
}

/* Decref an object known not to hit zero here. */
static inline void
_Py_DECREF_NO_DEALLOC(PyObject *op)
{
    if (_Py_IsImmortal(op)) {
        return;
    }
    _Py_DEC_REFTOTAL();
    op->ob_refcnt--;
    assert(op->ob_refcnt > 0);
}

static inline void
_PyObject_GC_TRACK(PyObject *op)
{
    PyObject_GC_Track(op);
}

static inline void
_PyObject_GC_UNTRACK(PyObject *op)
{
    PyObject_GC_UnTrack(op);
}

static inline int
_PyType_HasFeature(PyTypeObject *type, unsigned long feature)
{
    return (type->tp_flags & feature) != 0;
}

static inline int
_PyObject_IS_GC(PyObject *obj)
{
    PyTypeObject *type = Py_TYPE(obj);
    return _PyType_HasFeature(type, Py_TPFLAGS_HAVE_GC) &&
           (type->tp_is_gc == NULL || type->tp_is_gc(obj));
}

/* Called by Python/pylifecycle.c to ready every static type. */
PyAPI_FUNC(int) _PyTypes_InitTypes(PyInterpreterState *interp);
/* Static types that were readied, for lists like PyUnstable_ExecutableKinds */
PyAPI_FUNC(int) _PyStaticType_InitBuiltin(PyTypeObject *type);

/* Objects/object.c: the reference total for sys.gettotalrefcount(). */
PyAPI_FUNC(Py_ssize_t) _Py_GetRefTotal(void);

/* Call a special method looked up on the type, bypassing the instance
   dict (used for __len__, __iter__, __repr__, ... on heap types). */
PyAPI_FUNC(PyObject *) _PyObject_LookupSpecial(PyObject *self, PyObject *attr);
PyAPI_FUNC(int) _PyObject_LookupAttr(PyObject *v, PyObject *name, PyObject **result);
PyAPI_FUNC(PyObject *) _PyObject_FunctionStr(PyObject *x);
PyAPI_FUNC(PyObject *) _PyObject_GenericGetAttrWithDict(PyObject *obj, PyObject *name,
                                                        PyObject *dict, int suppress);
PyAPI_FUNC(int) _PyObject_GenericSetAttrWithDict(PyObject *obj, PyObject *name,
                                                 PyObject *value, PyObject *dict);

#endif /* !Py_INTERNAL_OBJECT_H */
