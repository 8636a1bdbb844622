/* _PyStackRef: what the value stack and fast locals hold.

   A stack ref is a tagged word.  The low two bits say what it is:
     00  an owned (strong) reference to a PyObject
     01  a borrowed reference: someone else keeps the object alive
         (LOAD_FAST_BORROW, immortal objects); closing it does nothing
     11  a tagged integer (virtual iterator indexes), not an object
   PyStackRef_NULL is the all-zero word.  Objects are at least 8-byte
   aligned, so the tag bits are free. */
#ifndef Py_INTERNAL_STACKREF_H
#define Py_INTERNAL_STACKREF_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

typedef union _PyStackRef {
    uintptr_t bits;
} _PyStackRef;

#define Py_TAG_BITS ((uintptr_t)3)
#define Py_TAG_BORROWED ((uintptr_t)1)
#define Py_TAG_INT ((uintptr_t)3)

static const _PyStackRef PyStackRef_NULL = {.bits = 0};
#define PyStackRef_NULL_BITS 0

static inline Py_ALWAYS_INLINE int
PyStackRef_IsNull(_PyStackRef ref)
{
    return ref.bits == 0;
}

static inline Py_ALWAYS_INLINE int
PyStackRef_IsTaggedInt(_PyStackRef ref)
{
    return (ref.bits & Py_TAG_BITS) == Py_TAG_INT;
}

static inline Py_ALWAYS_INLINE int
PyStackRef_IsBorrowed(_PyStackRef ref)
{
    return (ref.bits & Py_TAG_BITS) == Py_TAG_BORROWED;
}

static inline Py_ALWAYS_INLINE PyObject *
PyStackRef_AsPyObjectBorrow(_PyStackRef ref)
{
    assert(!PyStackRef_IsTaggedInt(ref));
    return (PyObject *)(ref.bits & ~Py_TAG_BITS);
}

static inline Py_ALWAYS_INLINE _PyStackRef
PyStackRef_FromPyObjectSteal(PyObject *obj)
{
    assert(obj != NULL);
    assert(((uintptr_t)obj & Py_TAG_BITS) == 0);
    return (_PyStackRef){.bits = (uintptr_t)obj};
}

static inline Py_ALWAYS_INLINE _PyStackRef
PyStackRef_FromPyObjectNew(PyObject *obj)
{
    assert(obj != NULL);
    Py_INCREF(obj);
    return (_PyStackRef){.bits = (uintptr_t)obj};
}

/* A reference that does not own the object: the caller guarantees the
   object outlives the stack slot. */
static inline Py_ALWAYS_INLINE _PyStackRef
PyStackRef_FromPyObjectBorrow(PyObject *obj)
{
    assert(obj != NULL);
    return (_PyStackRef){.bits = (uintptr_t)obj | Py_TAG_BORROWED};
}

/* Immortal objects need no counting: a borrowed ref is as good as owned. */
static inline Py_ALWAYS_INLINE _PyStackRef
PyStackRef_FromPyObjectImmortal(PyObject *obj)
{
    assert(_Py_IsImmortal(obj));
    return PyStackRef_FromPyObjectBorrow(obj);
}

#define PyStackRef_None PyStackRef_FromPyObjectImmortal(Py_None)
#define PyStackRef_True PyStackRef_FromPyObjectImmortal(Py_True)
#define PyStackRef_False PyStackRef_FromPyObjectImmortal(Py_False)

/* Turn the ref into an owned PyObject reference (increfs a borrowed one). */
static inline Py_ALWAYS_INLINE PyObject *
PyStackRef_AsPyObjectSteal(_PyStackRef ref)
{
    PyObject *obj = PyStackRef_AsPyObjectBorrow(ref);
    if (PyStackRef_IsBorrowed(ref)) {
        Py_INCREF(obj);
    }
    return obj;
}

/* A new owned PyObject reference; the stack ref stays valid. */
static inline Py_ALWAYS_INLINE PyObject *
PyStackRef_AsPyObjectNew(_PyStackRef ref)
{
    return Py_NewRef(PyStackRef_AsPyObjectBorrow(ref));
}

static inline Py_ALWAYS_INLINE void
PyStackRef_CLOSE(_PyStackRef ref)
{
    assert(!PyStackRef_IsNull(ref));
    if ((ref.bits & Py_TAG_BITS) == 0) {
        Py_DECREF((PyObject *)ref.bits);
    }
}

/* Closing a reference to an exact int, float or str, whose deallocation
   runs nobody's code: the cases generator takes this call as not escaping
   (Tools/cases_generator/escapes.py), so it needs no saved stack pointer
   and, in a trace, no validity check after it. */
static inline Py_ALWAYS_INLINE void
PyStackRef_CLOSE_INERT(_PyStackRef ref)
{
    assert(PyLong_CheckExact(PyStackRef_AsPyObjectBorrow(ref)) ||
           PyFloat_CheckExact(PyStackRef_AsPyObjectBorrow(ref)) ||
           PyUnicode_CheckExact(PyStackRef_AsPyObjectBorrow(ref)));
    PyStackRef_CLOSE(ref);
}

static inline Py_ALWAYS_INLINE void
PyStackRef_XCLOSE(_PyStackRef ref)
{
    if ((ref.bits & Py_TAG_BITS) == 0 && ref.bits != 0) {
        Py_DECREF((PyObject *)ref.bits);
    }
}

#define PyStackRef_CLEAR(REF)              \
    do {                                   \
        _PyStackRef *_tmp_ref = &(REF);    \
        _PyStackRef _tmp_old = *_tmp_ref;  \
        *_tmp_ref = PyStackRef_NULL;       \
        PyStackRef_XCLOSE(_tmp_old);       \
    } while (0)

/* A second reference to the same object: owned if the original was. */
static inline Py_ALWAYS_INLINE _PyStackRef
PyStackRef_DUP(_PyStackRef ref)
{
    assert(!PyStackRef_IsNull(ref));
    if ((ref.bits & Py_TAG_BITS) == 0) {
        Py_INCREF((PyObject *)ref.bits);
    }
    return ref;
}

/* An owned version of ref (a borrowed ref gets its own count). */
static inline Py_ALWAYS_INLINE _PyStackRef
PyStackRef_MakeHeapSafe(_PyStackRef ref)
{
    if (PyStackRef_IsBorrowed(ref)) {
        PyObject *obj = PyStackRef_AsPyObjectBorrow(ref);
        if (!_Py_IsImmortal(obj)) {
            return PyStackRef_FromPyObjectNew(obj);
        }
    }
    return ref;
}

static inline Py_ALWAYS_INLINE _PyStackRef
PyStackRef_TagInt(Py_ssize_t i)
{
    return (_PyStackRef){.bits = ((uintptr_t)i << 2) | Py_TAG_INT};
}

static inline Py_ALWAYS_INLINE Py_ssize_t
PyStackRef_UntagInt(_PyStackRef ref)
{
    assert(PyStackRef_IsTaggedInt(ref));
    return (Py_ssize_t)((intptr_t)ref.bits >> 2);
}

static inline Py_ALWAYS_INLINE int
PyStackRef_Is(_PyStackRef a, _PyStackRef b)
{
    return (a.bits & ~Py_TAG_BITS) == (b.bits & ~Py_TAG_BITS);
}

#define PyStackRef_IsNone(REF) (PyStackRef_AsPyObjectBorrow(REF) == Py_None)
#define PyStackRef_IsTrue(REF) (PyStackRef_AsPyObjectBorrow(REF) == Py_True)
#define PyStackRef_IsFalse(REF) (PyStackRef_AsPyObjectBorrow(REF) == Py_False)
#define PyStackRef_TYPE(REF) Py_TYPE(PyStackRef_AsPyObjectBorrow(REF))

/* Convert an array of stack refs to borrowed PyObject pointers for a
   vectorcall.  Stack refs and PyObject* have the same size, so when no
   element is tagged the array can be reused in place; otherwise copy. */
static inline PyObject **
_PyStackRefs_AsPyObjects(_PyStackRef *refs, Py_ssize_t n, PyObject **scratch)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        scratch[i] = PyStackRef_AsPyObjectBorrow(refs[i]);
    }
    return scratch;
}

#endif /* !Py_INTERNAL_STACKREF_H */
