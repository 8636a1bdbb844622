/* Internal interface of type objects (Objects/typeobject.c,
   typecreate.c, typeslots.c and baseobject.c).  See Doc/object-model.md. */
#ifndef Py_INTERNAL_TYPEOBJECT_H
#define Py_INTERNAL_TYPEOBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_gc.h"

/* ---- Used by the interpreter and other parts of the runtime ----------- */

/* The metaclass a class statement must use: the most derived of
   `metatype` and the metaclasses of `bases` (TypeError "metaclass
   conflict: ..." if there is none).  Borrowed reference. */
PyAPI_FUNC(PyTypeObject *) _PyType_CalculateMetaclass(PyTypeObject *metatype, PyObject *bases);

/* super(type, obj).name, as LOAD_SUPER_ATTR needs it.  With meth_found
   non-NULL, a method that may be called unbound is returned as is and
   *meth_found is set to 1 (the caller passes obj as the first argument);
   otherwise the attribute is bound and *meth_found is 0.  New reference,
   or NULL with an exception set. */
PyAPI_FUNC(PyObject *) _PySuper_Lookup(PyTypeObject *type, PyObject *obj, PyObject *name,
                                       int *meth_found);

/* A special method for `with`, `async with`, ... looked up on the type
   only.  Returns a new reference, or NULL: with an exception set on error,
   without one when the type lacks the attribute.  If *unbound is set to 1
   the result is an unbound function that wants `self` as first argument;
   otherwise it is already bound. */
PyAPI_FUNC(PyObject *) _PyObject_LookupSpecialMethod(PyObject *self, PyObject *name, int *unbound);

/* Give the type a valid tp_version_tag (and set
   Py_TPFLAGS_VALID_VERSION_TAG).  Returns 0 when tags are exhausted.
   The tag changes whenever the type or one of its bases is modified
   (PyType_Modified), so the specializer can guard on it. */
PyAPI_FUNC(int) _PyType_AssignVersionTag(PyTypeObject *type);

/* The type's dict (borrowed). */
PyAPI_FUNC(PyObject *) _PyType_GetDict(PyTypeObject *type);
/* __module__ of the type as a new reference (a str for static types). */
PyAPI_FUNC(PyObject *) _PyType_GetModuleName(PyTypeObject *type);
/* list of the direct subclasses still alive. */
PyAPI_FUNC(PyObject *) _PyType_GetSubclasses(PyTypeObject *type);
/* Fully qualified "module.qualname" (just qualname for builtins). */
PyAPI_FUNC(PyObject *) _PyType_GetFullyQualifiedName(PyTypeObject *type, char sep);

/* type.__getattribute__; with suppress != 0 a missing attribute returns
   NULL without an exception (PyObject_GetOptionalAttr's fast path). */
PyAPI_FUNC(PyObject *) _Py_type_getattro(PyObject *type, PyObject *name);
PyAPI_FUNC(PyObject *) _Py_type_getattro_impl(PyTypeObject *type, PyObject *name, int suppress);
/* The tp_getattro of classes that define __getattr__ or __getattribute__
   (the specializer recognises it). */
PyAPI_FUNC(PyObject *) _Py_slot_tp_getattr_hook(PyObject *self, PyObject *name);
PyAPI_FUNC(PyObject *) _Py_slot_tp_getattro(PyObject *self, PyObject *name);

/* type.__or__: `int | str`.  Objects/typeobject.c has a weak default that
   returns NotImplemented; the union type's file provides the real one. */
PyAPI_FUNC(PyObject *) _Py_union_type_or(PyObject *self, PyObject *other);

/* object.__getstate__() for pickle and copy. */
PyAPI_FUNC(PyObject *) _PyObject_GetState(PyObject *obj);
/* object.__reduce_ex__ as the pickle module's C accelerator calls it. */
PyAPI_FUNC(PyObject *) _PyObject_ReduceEx(PyObject *obj, int protocol);

/* The `__class__` cell and first argument of the running function, as
   zero-argument super() finds them.  0 ok, -1 with RuntimeError. */
PyAPI_FUNC(int) _PySuper_GetFrameArgs(PyThreadState *tstate, PyTypeObject **type, PyObject **obj);

/* ---- Shared between typeobject.c, typecreate.c, typeslots.c and
        baseobject.c ----------------------------------------------------- */

/* type.__new__ (Objects/typecreate.c). */
PyAPI_FUNC(PyObject *) _PyType_New(PyTypeObject *metatype, PyObject *args, PyObject *kwds);
/* The base whose instance layout a class with these bases must extend
   (TypeError "multiple bases have instance lay-out conflict"). */
PyAPI_FUNC(PyTypeObject *) _PyType_BestBase(PyObject *bases);

/* Pre-headers: instances of Py_TPFLAGS_MANAGED_DICT / _MANAGED_WEAKREF
   types carry two pointer slots in front of their GC header (weaklist,
   then dict); these offsets locate them from the object. */
#define _PyType_PREHEADER_SIZE (2 * sizeof(PyObject *))
#define _PyType_MANAGED_DICT_OFFSET (-(Py_ssize_t)(sizeof(PyGC_Head) + sizeof(PyObject *)))
#define _PyType_MANAGED_WEAKREF_OFFSET \
    (-(Py_ssize_t)(sizeof(PyGC_Head) + 2 * sizeof(PyObject *)))
static inline int
_PyType_HasPreHeader(PyTypeObject *type)
{
    return PyType_HasFeature(type, Py_TPFLAGS_MANAGED_DICT | Py_TPFLAGS_MANAGED_WEAKREF);
}
/* tp_free of such types. */
PyAPI_FUNC(void) _PyType_FreeWithPreHeader(void *op);

/* object.__class__ = value, with upstream's layout checks. */
PyAPI_FUNC(int) _PyObject_SetClass(PyObject *self, PyObject *value);
/* Merge aclass.__dict__ and those of its bases into dict (for dir()). */
PyAPI_FUNC(int) _PyType_MergeClassDict(PyObject *dict, PyObject *aclass);

/* Add `__add__`, `__len__`, ... wrappers for the slots `type` defines
   itself (called by PyType_Ready before inheritance). */
PyAPI_FUNC(int) _PyType_AddOperators(PyTypeObject *type);
/* Point the C slots of a new heap type at functions that call the dunder
   methods found on the type (called after PyType_Ready). */
PyAPI_FUNC(void) _PyType_FixupSlotDispatchers(PyTypeObject *type);
/* After `type.name = value`: recompute the slots that `name` feeds, in
   the type and its subclasses.  0 ok, -1 error. */
PyAPI_FUNC(int) _PyType_UpdateSlot(PyTypeObject *type, PyObject *name);
/* Is `name` the name of a dunder that feeds a C slot? */
PyAPI_FUNC(int) _PyType_IsSlotName(PyObject *name);
/* Recompute _tp_iteritem after tp_iter changed (virtual iteration is only
   valid with the tp_iter it was defined with). */
PyAPI_FUNC(void) _PyType_FixIterItem(PyTypeObject *type);
/* MRO lookup with an error flag (no cache): borrowed, or NULL with
   *error set to -1 on failure, 0 when missing. */
PyAPI_FUNC(PyObject *) _PyType_LookupNoCache(PyTypeObject *type, PyObject *name, int *error);
/* Functions the slot machinery compares slots against. */
PyAPI_FUNC(PyObject *) _PyType_NewWrapperCall(PyObject *self, PyObject *args, PyObject *kwds);
PyAPI_FUNC(int) _PyType_IsNewWrapper(PyObject *descr);
PyAPI_FUNC(PyObject *) _PyObject_NewDefault(PyTypeObject *type, PyObject *args, PyObject *kwds);
PyAPI_FUNC(int) _PyObject_InitDefault(PyObject *self, PyObject *args, PyObject *kwds);

/* ---- Weak references (Objects/weakrefobject.c), until the public
        Include/weakrefobject.h exists --------------------------------- */

typedef struct _PyWeakReference PyWeakReference;
struct _PyWeakReference {
    PyObject_HEAD
    PyObject *wr_object;       /* the referent, or Py_None once it died */
    PyObject *wr_callback;     /* may be NULL */
    Py_hash_t hash;            /* -1 until computed */
    PyWeakReference *wr_prev;  /* list of weak references to the referent */
    PyWeakReference *wr_next;
    vectorcallfunc vectorcall;
};

PyAPI_DATA(PyTypeObject) _PyWeakref_RefType;
PyAPI_DATA(PyTypeObject) _PyWeakref_ProxyType;
PyAPI_DATA(PyTypeObject) _PyWeakref_CallableProxyType;
#define PyWeakref_CheckRef(op) PyObject_TypeCheck((op), &_PyWeakref_RefType)
#define PyWeakref_CheckRefExact(op) Py_IS_TYPE((op), &_PyWeakref_RefType)
#define PyWeakref_CheckProxy(op) \
    (Py_IS_TYPE((op), &_PyWeakref_ProxyType) || Py_IS_TYPE((op), &_PyWeakref_CallableProxyType))
#define PyWeakref_Check(op) (PyWeakref_CheckRef(op) || PyWeakref_CheckProxy(op))

PyAPI_FUNC(PyObject *) PyWeakref_NewRef(PyObject *ob, PyObject *callback);
PyAPI_FUNC(PyObject *) PyWeakref_NewProxy(PyObject *ob, PyObject *callback);
/* 1 and a strong reference in *pobj, 0 and NULL if the referent is dead,
   -1 on error. */
PyAPI_FUNC(int) PyWeakref_GetRef(PyObject *ref, PyObject **pobj);
/* Borrowed; None when dead (deprecated upstream, kept for old code). */
PyAPI_FUNC(PyObject *) PyWeakref_GetObject(PyObject *ref);
/* Number of weak references to `ob` (weakref.getweakrefcount). */
PyAPI_FUNC(Py_ssize_t) _PyWeakref_GetWeakrefCount(PyObject *ob);

#endif /* !Py_INTERNAL_TYPEOBJECT_H */
