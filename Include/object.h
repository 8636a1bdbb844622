/* The object header, type objects and reference counting.

   Every Python object starts with PyObject: a reference count and a pointer
   to its type.  Variable-size objects (int, tuple, bytes) add ob_size.

   Immortal objects (None, True, False, small ints, interned strings, static
   types) carry a reference count at or above _Py_IMMORTAL_REFCNT; Py_INCREF
   and Py_DECREF leave such counts alone, so these objects never die and can
   be shared freely (the JIT and LOAD_FAST_BORROW rely on that). */
#ifndef Py_OBJECT_H
#define Py_OBJECT_H

#include "pyport.h"
#include <assert.h>

typedef struct _typeobject PyTypeObject;

typedef struct _object {
    Py_ssize_t ob_refcnt;
    PyTypeObject *ob_type;
} PyObject;

typedef struct {
    PyObject ob_base;
    Py_ssize_t ob_size; /* number of items in the variable part */
} PyVarObject;

#define PyObject_HEAD PyObject ob_base;
#define PyObject_VAR_HEAD PyVarObject ob_base;

/* Counts at or above this are immortal.  Chosen so that a long run of
   unbalanced increfs cannot overflow into it by accident, and so that a
   decref of an immortal can never reach zero. */
#define _Py_IMMORTAL_REFCNT ((Py_ssize_t)1 << 60)
#define _Py_IMMORTAL_INITIAL_REFCNT (_Py_IMMORTAL_REFCNT + ((Py_ssize_t)1 << 59))

#define PyObject_HEAD_INIT(type) {_Py_IMMORTAL_INITIAL_REFCNT, (type)},
#define PyVarObject_HEAD_INIT(type, size) {PyObject_HEAD_INIT(type)(size)},

#define _PyObject_CAST(op) ((PyObject *)(op))
#define _PyVarObject_CAST(op) ((PyVarObject *)(op))

static inline PyTypeObject *
Py_TYPE(PyObject *ob)
{
    return ob->ob_type;
}
#define Py_TYPE(ob) Py_TYPE(_PyObject_CAST(ob))

static inline Py_ssize_t
Py_SIZE(PyObject *ob)
{
    return ((PyVarObject *)ob)->ob_size;
}
#define Py_SIZE(ob) Py_SIZE(_PyObject_CAST(ob))

static inline Py_ssize_t
Py_REFCNT(PyObject *ob)
{
    return ob->ob_refcnt;
}
#define Py_REFCNT(ob) Py_REFCNT(_PyObject_CAST(ob))

static inline int
Py_IS_TYPE(PyObject *ob, PyTypeObject *type)
{
    return Py_TYPE(ob) == type;
}
#define Py_IS_TYPE(ob, type) Py_IS_TYPE(_PyObject_CAST(ob), (type))

static inline void
Py_SET_TYPE(PyObject *ob, PyTypeObject *type)
{
    ob->ob_type = type;
}
#define Py_SET_TYPE(ob, type) Py_SET_TYPE(_PyObject_CAST(ob), (type))

static inline void
Py_SET_SIZE(PyVarObject *ob, Py_ssize_t size)
{
    ob->ob_size = size;
}
#define Py_SET_SIZE(ob, size) Py_SET_SIZE(_PyVarObject_CAST(ob), (size))

static inline int
_Py_IsImmortal(PyObject *op)
{
    return op->ob_refcnt >= _Py_IMMORTAL_REFCNT;
}
#define _Py_IsImmortal(op) _Py_IsImmortal(_PyObject_CAST(op))
#define Py_IsImmortal(op) _Py_IsImmortal(op)

static inline void
Py_SET_REFCNT(PyObject *ob, Py_ssize_t refcnt)
{
    if (_Py_IsImmortal(ob)) {
        return;
    }
    ob->ob_refcnt = refcnt;
}
#define Py_SET_REFCNT(ob, refcnt) Py_SET_REFCNT(_PyObject_CAST(ob), (refcnt))

/* ---- Slot function types ------------------------------------------------ */

typedef PyObject *(*unaryfunc)(PyObject *);
typedef PyObject *(*binaryfunc)(PyObject *, PyObject *);
typedef PyObject *(*ternaryfunc)(PyObject *, PyObject *, PyObject *);
typedef int (*inquiry)(PyObject *);
typedef Py_ssize_t (*lenfunc)(PyObject *);
typedef PyObject *(*ssizeargfunc)(PyObject *, Py_ssize_t);
typedef PyObject *(*ssizessizeargfunc)(PyObject *, Py_ssize_t, Py_ssize_t);
typedef int (*ssizeobjargproc)(PyObject *, Py_ssize_t, PyObject *);
typedef int (*ssizessizeobjargproc)(PyObject *, Py_ssize_t, Py_ssize_t, PyObject *);
typedef int (*objobjargproc)(PyObject *, PyObject *, PyObject *);
typedef int (*objobjproc)(PyObject *, PyObject *);
typedef int (*visitproc)(PyObject *, void *);
typedef int (*traverseproc)(PyObject *, visitproc, void *);
typedef void (*freefunc)(void *);
typedef void (*destructor)(PyObject *);
typedef PyObject *(*getattrfunc)(PyObject *, char *);
typedef PyObject *(*getattrofunc)(PyObject *, PyObject *);
typedef int (*setattrfunc)(PyObject *, char *, PyObject *);
typedef int (*setattrofunc)(PyObject *, PyObject *, PyObject *);
typedef PyObject *(*reprfunc)(PyObject *);
typedef Py_hash_t (*hashfunc)(PyObject *);
typedef PyObject *(*richcmpfunc)(PyObject *, PyObject *, int);
typedef PyObject *(*getiterfunc)(PyObject *);
typedef PyObject *(*iternextfunc)(PyObject *);
typedef PyObject *(*descrgetfunc)(PyObject *, PyObject *, PyObject *);
typedef int (*descrsetfunc)(PyObject *, PyObject *, PyObject *);
typedef int (*initproc)(PyObject *, PyObject *, PyObject *);
typedef PyObject *(*newfunc)(PyTypeObject *, PyObject *, PyObject *);
typedef PyObject *(*allocfunc)(PyTypeObject *, Py_ssize_t);
typedef PyObject *(*vectorcallfunc)(PyObject *callable, PyObject *const *args,
                                    size_t nargsf, PyObject *kwnames);

/* Virtual iteration (see Doc/virtual-iterators.md once it exists): given an
   iterable and an index, store the item at that index in *item (a new
   reference) and the index to use next in *next_index.  Returns 1 when an
   item was produced, 0 at the end, -1 with an exception set on error.
   Lets `for x in some_list` run without allocating an iterator. */
typedef int (*iteritemfunc)(PyObject *iterable, Py_ssize_t index,
                            PyObject **item, Py_ssize_t *next_index);

typedef struct bufferinfo {
    void *buf;
    PyObject *obj;
    Py_ssize_t len;
    Py_ssize_t itemsize;
    int readonly;
    int ndim;
    char *format;
    Py_ssize_t *shape;
    Py_ssize_t *strides;
    Py_ssize_t *suboffsets;
    void *internal;
} Py_buffer;
typedef int (*getbufferproc)(PyObject *, Py_buffer *, int);
typedef void (*releasebufferproc)(PyObject *, Py_buffer *);

#define PyBUF_SIMPLE 0
#define PyBUF_WRITABLE 0x0001
#define PyBUF_FORMAT 0x0004
#define PyBUF_ND 0x0008
#define PyBUF_STRIDES (0x0010 | PyBUF_ND)
#define PyBUF_WRITEABLE PyBUF_WRITABLE
#define PyBUF_C_CONTIGUOUS (0x0020 | PyBUF_STRIDES)
#define PyBUF_F_CONTIGUOUS (0x0040 | PyBUF_STRIDES)
#define PyBUF_ANY_CONTIGUOUS (0x0080 | PyBUF_STRIDES)
#define PyBUF_INDIRECT (0x0100 | PyBUF_STRIDES)
#define PyBUF_CONTIG (PyBUF_ND | PyBUF_WRITABLE)
#define PyBUF_CONTIG_RO (PyBUF_ND)
#define PyBUF_STRIDED (PyBUF_STRIDES | PyBUF_WRITABLE)
#define PyBUF_STRIDED_RO (PyBUF_STRIDES)
#define PyBUF_RECORDS (PyBUF_STRIDES | PyBUF_WRITABLE | PyBUF_FORMAT)
#define PyBUF_RECORDS_RO (PyBUF_STRIDES | PyBUF_FORMAT)
#define PyBUF_FULL (PyBUF_INDIRECT | PyBUF_WRITABLE | PyBUF_FORMAT)
#define PyBUF_FULL_RO (PyBUF_INDIRECT | PyBUF_FORMAT)
#define PyBUF_READ 0x100
#define PyBUF_WRITE 0x200

typedef enum {
    PYGEN_RETURN = 0,
    PYGEN_ERROR = -1,
    PYGEN_NEXT = 1,
} PySendResult;
typedef PySendResult (*sendfunc)(PyObject *iter, PyObject *value, PyObject **result);

typedef struct {
    binaryfunc nb_add;
    binaryfunc nb_subtract;
    binaryfunc nb_multiply;
    binaryfunc nb_remainder;
    binaryfunc nb_divmod;
    ternaryfunc nb_power;
    unaryfunc nb_negative;
    unaryfunc nb_positive;
    unaryfunc nb_absolute;
    inquiry nb_bool;
    unaryfunc nb_invert;
    binaryfunc nb_lshift;
    binaryfunc nb_rshift;
    binaryfunc nb_and;
    binaryfunc nb_xor;
    binaryfunc nb_or;
    unaryfunc nb_int;
    void *nb_reserved;
    unaryfunc nb_float;
    binaryfunc nb_inplace_add;
    binaryfunc nb_inplace_subtract;
    binaryfunc nb_inplace_multiply;
    binaryfunc nb_inplace_remainder;
    ternaryfunc nb_inplace_power;
    binaryfunc nb_inplace_lshift;
    binaryfunc nb_inplace_rshift;
    binaryfunc nb_inplace_and;
    binaryfunc nb_inplace_xor;
    binaryfunc nb_inplace_or;
    binaryfunc nb_floor_divide;
    binaryfunc nb_true_divide;
    binaryfunc nb_inplace_floor_divide;
    binaryfunc nb_inplace_true_divide;
    unaryfunc nb_index;
    binaryfunc nb_matrix_multiply;
    binaryfunc nb_inplace_matrix_multiply;
} PyNumberMethods;

typedef struct {
    lenfunc sq_length;
    binaryfunc sq_concat;
    ssizeargfunc sq_repeat;
    ssizeargfunc sq_item;
    void *was_sq_slice;
    ssizeobjargproc sq_ass_item;
    void *was_sq_ass_slice;
    objobjproc sq_contains;
    binaryfunc sq_inplace_concat;
    ssizeargfunc sq_inplace_repeat;
} PySequenceMethods;

typedef struct {
    lenfunc mp_length;
    binaryfunc mp_subscript;
    objobjargproc mp_ass_subscript;
} PyMappingMethods;

typedef struct {
    unaryfunc am_await;
    unaryfunc am_aiter;
    unaryfunc am_anext;
    sendfunc am_send;
} PyAsyncMethods;

typedef struct {
    getbufferproc bf_getbuffer;
    releasebufferproc bf_releasebuffer;
} PyBufferProcs;

struct PyMethodDef;
struct PyMemberDef;
struct PyGetSetDef;

struct _typeobject {
    PyObject_VAR_HEAD
    const char *tp_name; /* "module.name" for printing */
    Py_ssize_t tp_basicsize, tp_itemsize;

    destructor tp_dealloc;
    Py_ssize_t tp_vectorcall_offset;
    getattrfunc tp_getattr;
    setattrfunc tp_setattr;
    PyAsyncMethods *tp_as_async;
    reprfunc tp_repr;

    PyNumberMethods *tp_as_number;
    PySequenceMethods *tp_as_sequence;
    PyMappingMethods *tp_as_mapping;

    hashfunc tp_hash;
    ternaryfunc tp_call;
    reprfunc tp_str;
    getattrofunc tp_getattro;
    setattrofunc tp_setattro;

    PyBufferProcs *tp_as_buffer;
    unsigned long tp_flags;
    const char *tp_doc;

    traverseproc tp_traverse;
    inquiry tp_clear;
    richcmpfunc tp_richcompare;
    Py_ssize_t tp_weaklistoffset;

    getiterfunc tp_iter;
    iternextfunc tp_iternext;

    struct PyMethodDef *tp_methods;
    struct PyMemberDef *tp_members;
    struct PyGetSetDef *tp_getset;
    PyTypeObject *tp_base;
    PyObject *tp_dict;
    descrgetfunc tp_descr_get;
    descrsetfunc tp_descr_set;
    Py_ssize_t tp_dictoffset;
    initproc tp_init;
    allocfunc tp_alloc;
    newfunc tp_new;
    freefunc tp_free;
    inquiry tp_is_gc;
    PyObject *tp_bases;
    PyObject *tp_mro;
    PyObject *tp_cache;
    void *tp_subclasses;
    PyObject *tp_weaklist;
    destructor tp_del;
    unsigned int tp_version_tag;
    destructor tp_finalize;
    vectorcallfunc tp_vectorcall;
    unsigned char tp_watched;

    /* Ours: virtual iteration without an iterator object (see iteritemfunc).
       NULL means "use tp_iter". */
    iteritemfunc _tp_iteritem;
};

/* Heap types (class statements, PyType_FromSpec) embed their slot tables. */
typedef struct _heaptypeobject {
    PyTypeObject ht_type;
    PyAsyncMethods as_async;
    PyNumberMethods as_number;
    PyMappingMethods as_mapping;
    PySequenceMethods as_sequence;
    PyBufferProcs as_buffer;
    PyObject *ht_name, *ht_slots, *ht_qualname;
    PyObject *ht_module;
    char *_ht_tpname;
    /* CALL_ALLOC_AND_ENTER_INIT (Python/specialize.c): the __init__ function
       seen when a call of this class was specialised and its func_version.
       Borrowed: only read after a tp_version_tag guard, which fails once
       the class (and so its __init__) changes. */
    PyObject *_spec_init;
    uint32_t _spec_init_version;
} PyHeapTypeObject;

/* tp_flags */
/* Instances keep their __weakref__ list (MANAGED_WEAKREF) and/or __dict__
   (MANAGED_DICT) in a pre-header in front of the GC header; the negative
   tp_weaklistoffset / tp_dictoffset locate them from the object.  Used by
   subclasses of variable-size types (int, str, tuple, bytes). */
#define Py_TPFLAGS_MANAGED_WEAKREF (1UL << 3)
#define Py_TPFLAGS_MANAGED_DICT (1UL << 4)
#define Py_TPFLAGS_SEQUENCE (1UL << 5)
#define Py_TPFLAGS_MAPPING (1UL << 6)
#define Py_TPFLAGS_DISALLOW_INSTANTIATION (1UL << 7)
#define Py_TPFLAGS_IMMUTABLETYPE (1UL << 8)
#define Py_TPFLAGS_HEAPTYPE (1UL << 9)
#define Py_TPFLAGS_BASETYPE (1UL << 10)
#define Py_TPFLAGS_HAVE_VECTORCALL (1UL << 11)
#define Py_TPFLAGS_READY (1UL << 12)
#define Py_TPFLAGS_READYING (1UL << 13)
#define Py_TPFLAGS_HAVE_GC (1UL << 14)
#define Py_TPFLAGS_METHOD_DESCRIPTOR (1UL << 17)
#define Py_TPFLAGS_VALID_VERSION_TAG (1UL << 19)
#define Py_TPFLAGS_IS_ABSTRACT (1UL << 20)
#define Py_TPFLAGS_LONG_SUBCLASS (1UL << 24)
#define Py_TPFLAGS_LIST_SUBCLASS (1UL << 25)
#define Py_TPFLAGS_TUPLE_SUBCLASS (1UL << 26)
#define Py_TPFLAGS_BYTES_SUBCLASS (1UL << 27)
#define Py_TPFLAGS_UNICODE_SUBCLASS (1UL << 28)
#define Py_TPFLAGS_DICT_SUBCLASS (1UL << 29)
#define Py_TPFLAGS_BASE_EXC_SUBCLASS (1UL << 30)
#define Py_TPFLAGS_TYPE_SUBCLASS (1UL << 31)
#define Py_TPFLAGS_DEFAULT 0UL

static inline int
PyType_HasFeature(PyTypeObject *type, unsigned long feature)
{
    return (type->tp_flags & feature) != 0;
}
#define PyType_FastSubclass(type, flag) PyType_HasFeature((type), (flag))

PyAPI_DATA(PyTypeObject) PyType_Type;
PyAPI_DATA(PyTypeObject) PyBaseObject_Type;
PyAPI_DATA(PyTypeObject) PySuper_Type;

#define PyType_Check(op) PyType_FastSubclass(Py_TYPE(op), Py_TPFLAGS_TYPE_SUBCLASS)
#define PyType_CheckExact(op) Py_IS_TYPE((op), &PyType_Type)

PyAPI_FUNC(int) PyType_IsSubtype(PyTypeObject *a, PyTypeObject *b);
#define PyObject_TypeCheck(ob, type) \
    (Py_IS_TYPE((ob), (type)) || PyType_IsSubtype(Py_TYPE(ob), (type)))
PyAPI_FUNC(int) PyType_Ready(PyTypeObject *type);
PyAPI_FUNC(PyObject *) PyType_GenericAlloc(PyTypeObject *type, Py_ssize_t nitems);
PyAPI_FUNC(PyObject *) PyType_GenericNew(PyTypeObject *type, PyObject *args, PyObject *kwds);
PyAPI_FUNC(PyObject *) _PyType_Lookup(PyTypeObject *type, PyObject *name);
PyAPI_FUNC(PyObject *) _PyType_LookupRef(PyTypeObject *type, PyObject *name);
PyAPI_FUNC(PyObject *) PyType_GetName(PyTypeObject *type);
PyAPI_FUNC(PyObject *) PyType_GetQualName(PyTypeObject *type);
PyAPI_FUNC(const char *) _PyType_Name(PyTypeObject *type); /* after the last dot */
PyAPI_FUNC(unsigned int) PyType_ClearCache(void);
PyAPI_FUNC(void) PyType_Modified(PyTypeObject *type);

/* ---- Generic object protocol (Objects/object.c) ------------------------- */

PyAPI_FUNC(PyObject *) PyObject_Repr(PyObject *);
PyAPI_FUNC(PyObject *) PyObject_Str(PyObject *);
PyAPI_FUNC(PyObject *) PyObject_ASCII(PyObject *);
PyAPI_FUNC(PyObject *) PyObject_Bytes(PyObject *);
PyAPI_FUNC(PyObject *) PyObject_RichCompare(PyObject *, PyObject *, int);
PyAPI_FUNC(int) PyObject_RichCompareBool(PyObject *, PyObject *, int);
PyAPI_FUNC(PyObject *) PyObject_GetAttrString(PyObject *, const char *);
PyAPI_FUNC(int) PyObject_SetAttrString(PyObject *, const char *, PyObject *);
PyAPI_FUNC(int) PyObject_HasAttrString(PyObject *, const char *);
PyAPI_FUNC(PyObject *) PyObject_GetAttr(PyObject *, PyObject *);
PyAPI_FUNC(int) PyObject_GetOptionalAttr(PyObject *, PyObject *, PyObject **);
PyAPI_FUNC(int) PyObject_GetOptionalAttrString(PyObject *, const char *, PyObject **);
PyAPI_FUNC(int) PyObject_SetAttr(PyObject *, PyObject *, PyObject *);
PyAPI_FUNC(int) PyObject_DelAttr(PyObject *, PyObject *);
PyAPI_FUNC(int) PyObject_HasAttrWithError(PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) PyObject_GenericGetAttr(PyObject *, PyObject *);
PyAPI_FUNC(int) PyObject_GenericSetAttr(PyObject *, PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) PyObject_GenericGetDict(PyObject *, void *);
PyAPI_FUNC(int) PyObject_GenericSetDict(PyObject *, PyObject *, void *);
PyAPI_FUNC(PyObject **) _PyObject_GetDictPtr(PyObject *);
/* Look up a method for a call: returns 1 and a plain function in *method
   when `obj.name(...)` may be called as `function(obj, ...)` (unbound),
   0 and a bound/other attribute in *method otherwise.  On error: 0 with
   *method set to NULL and an exception set (as upstream, so that
   `if (is_meth)` never mistakes an error for a method). */
PyAPI_FUNC(int) _PyObject_GetMethod(PyObject *obj, PyObject *name, PyObject **method);
PyAPI_FUNC(Py_hash_t) PyObject_Hash(PyObject *);
PyAPI_FUNC(Py_hash_t) PyObject_HashNotImplemented(PyObject *);
PyAPI_FUNC(int) PyObject_IsTrue(PyObject *);
PyAPI_FUNC(int) PyObject_Not(PyObject *);
PyAPI_FUNC(int) PyCallable_Check(PyObject *);
PyAPI_FUNC(PyObject *) PyObject_Dir(PyObject *);
PyAPI_FUNC(PyObject *) PyObject_SelfIter(PyObject *);
PyAPI_FUNC(int) PyObject_Print(PyObject *, FILE *, int);
PyAPI_FUNC(void) _Py_Dealloc(PyObject *);
PyAPI_FUNC(int) Py_ReprEnter(PyObject *);
PyAPI_FUNC(void) Py_ReprLeave(PyObject *);

PyAPI_FUNC(int) PyObject_HasAttr(PyObject *, PyObject *);
PyAPI_FUNC(int) PyObject_HasAttrStringWithError(PyObject *, const char *);
PyAPI_FUNC(int) PyObject_DelAttrString(PyObject *, const char *);
PyAPI_FUNC(Py_hash_t) PyObject_GenericHash(PyObject *);
/* Called by tp_dealloc of types with a tp_weaklistoffset: clears the weak
   references to the object and runs their callbacks
   (Objects/weakrefobject.c). */
PyAPI_FUNC(void) PyObject_ClearWeakRefs(PyObject *);
/* Run tp_finalize (__del__).  The FromDealloc form is for tp_dealloc: it
   returns -1 if the finalizer resurrected the object (the dealloc must
   then stop), 0 otherwise. */
PyAPI_FUNC(void) PyObject_CallFinalizer(PyObject *);
PyAPI_FUNC(int) PyObject_CallFinalizerFromDealloc(PyObject *);
PyAPI_FUNC(unsigned long) PyType_GetFlags(PyTypeObject *);
PyAPI_FUNC(PyObject *) PyType_GetModuleName(PyTypeObject *);
PyAPI_FUNC(PyObject *) PyType_GetDict(PyTypeObject *);
#define PyType_IS_GC(t) PyType_HasFeature((t), Py_TPFLAGS_HAVE_GC)

#define Py_PRINT_RAW 1

/* Rich comparison opcodes */
#define Py_LT 0
#define Py_LE 1
#define Py_EQ 2
#define Py_NE 3
#define Py_GT 4
#define Py_GE 5

/* ---- Reference counting --------------------------------------------------- */

#ifdef Py_REF_DEBUG
/* Sum of all reference counts of mortal objects, for leak detection in debug
   builds (sys.gettotalrefcount()). */
PyAPI_DATA(Py_ssize_t) _Py_RefTotal;
PyAPI_FUNC(void) _Py_NegativeRefcount(const char *filename, int lineno, PyObject *op);
#define _Py_INC_REFTOTAL() (_Py_RefTotal++)
#define _Py_DEC_REFTOTAL() (_Py_RefTotal--)
#else
#define _Py_INC_REFTOTAL() ((void)0)
#define _Py_DEC_REFTOTAL() ((void)0)
#endif

static inline Py_ALWAYS_INLINE void
Py_INCREF(PyObject *op)
{
    if (_Py_IsImmortal(op)) {
        return;
    }
    op->ob_refcnt++;
    _Py_INC_REFTOTAL();
}
#define Py_INCREF(op) Py_INCREF(_PyObject_CAST(op))

static inline Py_ALWAYS_INLINE void
Py_DECREF(PyObject *op)
{
    if (_Py_IsImmortal(op)) {
        return;
    }
    _Py_DEC_REFTOTAL();
    if (--op->ob_refcnt == 0) {
        _Py_Dealloc(op);
    }
#ifdef Py_REF_DEBUG
    else if (op->ob_refcnt < 0) {
        _Py_NegativeRefcount(__FILE__, __LINE__, op);
    }
#endif
}
#define Py_DECREF(op) Py_DECREF(_PyObject_CAST(op))

static inline Py_ALWAYS_INLINE void
Py_XINCREF(PyObject *op)
{
    if (op != NULL) {
        Py_INCREF(op);
    }
}
#define Py_XINCREF(op) Py_XINCREF(_PyObject_CAST(op))

static inline Py_ALWAYS_INLINE void
Py_XDECREF(PyObject *op)
{
    if (op != NULL) {
        Py_DECREF(op);
    }
}
#define Py_XDECREF(op) Py_XDECREF(_PyObject_CAST(op))

static inline Py_ALWAYS_INLINE PyObject *
_Py_NewRef(PyObject *obj)
{
    Py_INCREF(obj);
    return obj;
}
static inline Py_ALWAYS_INLINE PyObject *
_Py_XNewRef(PyObject *obj)
{
    Py_XINCREF(obj);
    return obj;
}
#define Py_NewRef(obj) _Py_NewRef(_PyObject_CAST(obj))
#define Py_XNewRef(obj) _Py_XNewRef(_PyObject_CAST(obj))

/* Function forms of Py_XINCREF/Py_XDECREF, for callers that cannot use the
   inline ones (ctypes.pythonapi, other languages' FFIs). */
PyAPI_FUNC(void) Py_IncRef(PyObject *);
PyAPI_FUNC(void) Py_DecRef(PyObject *);

/* Py_CLEAR, Py_SETREF, Py_XSETREF: drop the old value only after the slot
   holds its new one, because the destructor may look at the slot. */
#define Py_CLEAR(op)                                   \
    do {                                               \
        PyObject **_py_clear_ptr = (PyObject **)&(op); \
        PyObject *_py_clear_tmp = *_py_clear_ptr;      \
        if (_py_clear_tmp != NULL) {                   \
            *_py_clear_ptr = NULL;                     \
            Py_DECREF(_py_clear_tmp);                  \
        }                                              \
    } while (0)

#define Py_SETREF(dst, src)                          \
    do {                                             \
        PyObject **_py_tmp_ptr = (PyObject **)&(dst); \
        PyObject *_py_tmp_old = *_py_tmp_ptr;        \
        *_py_tmp_ptr = _PyObject_CAST(src);          \
        Py_DECREF(_py_tmp_old);                      \
    } while (0)

#define Py_XSETREF(dst, src)                         \
    do {                                             \
        PyObject **_py_tmp_ptr = (PyObject **)&(dst); \
        PyObject *_py_tmp_old = *_py_tmp_ptr;        \
        *_py_tmp_ptr = _PyObject_CAST(src);          \
        Py_XDECREF(_py_tmp_old);                     \
    } while (0)

/* ---- Singletons ----------------------------------------------------------- */

PyAPI_DATA(PyObject) _Py_NoneStruct;
PyAPI_DATA(PyObject) _Py_NotImplementedStruct;
PyAPI_DATA(PyObject) _Py_EllipsisObject;
PyAPI_DATA(PyTypeObject) _PyNone_Type;
PyAPI_DATA(PyTypeObject) _PyNotImplemented_Type;
PyAPI_DATA(PyTypeObject) PyEllipsis_Type;

#define Py_None (&_Py_NoneStruct)
#define Py_NotImplemented (&_Py_NotImplementedStruct)
#define Py_Ellipsis (&_Py_EllipsisObject)
#define Py_IsNone(x) ((x) == Py_None)
#define Py_RETURN_NONE return Py_None
#define Py_RETURN_NOTIMPLEMENTED return Py_NotImplemented

#define Py_RETURN_RICHCOMPARE(val1, val2, op)                \
    do {                                                     \
        switch (op) {                                        \
        case Py_EQ: if ((val1) == (val2)) Py_RETURN_TRUE; Py_RETURN_FALSE; \
        case Py_NE: if ((val1) != (val2)) Py_RETURN_TRUE; Py_RETURN_FALSE; \
        case Py_LT: if ((val1) < (val2)) Py_RETURN_TRUE; Py_RETURN_FALSE;  \
        case Py_GT: if ((val1) > (val2)) Py_RETURN_TRUE; Py_RETURN_FALSE;  \
        case Py_LE: if ((val1) <= (val2)) Py_RETURN_TRUE; Py_RETURN_FALSE; \
        case Py_GE: if ((val1) >= (val2)) Py_RETURN_TRUE; Py_RETURN_FALSE; \
        default: Py_UNREACHABLE();                           \
        }                                                    \
    } while (0)

#define Py_Is(x, y) ((x) == (y))

#endif /* !Py_OBJECT_H */
