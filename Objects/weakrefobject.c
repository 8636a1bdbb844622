/* Weak references: weakref.ref and the proxy types.

   An object that supports weak references has a slot (at
   tp_weaklistoffset) holding the head of a doubly linked list of the
   weak references to it.  When the object dies, its tp_dealloc calls
   PyObject_ClearWeakRefs, which points every reference at None and then
   runs their callbacks.

   A plain weakref.ref(obj) without callback is shared: it is kept at the
   head of the list and handed out again. */
#include "Python.h"
#include "pycore_call.h"
#include "pycore_object.h"
#include "pycore_typeobject.h"

#define GET_WEAKREFS_LISTPTR(o) \
    ((PyWeakReference **)((char *)(o) + Py_TYPE(o)->tp_weaklistoffset))

static int
supports_weakrefs(PyObject *ob)
{
    return Py_TYPE(ob)->tp_weaklistoffset != 0;
}

Py_ssize_t
_PyWeakref_GetWeakrefCount(PyObject *ob)
{
    if (!supports_weakrefs(ob)) {
        return 0;
    }
    Py_ssize_t count = 0;
    for (PyWeakReference *ref = *GET_WEAKREFS_LISTPTR(ob); ref != NULL; ref = ref->wr_next) {
        count++;
    }
    return count;
}

/* The referent while it is alive, else NULL (borrowed). */
static PyObject *
referent(PyWeakReference *ref)
{
    PyObject *obj = ref->wr_object;
    if (obj == Py_None || Py_REFCNT(obj) == 0) {
        return NULL;
    }
    return obj;
}

/* Unlink the reference from its referent's list; it then refers to None. */
static void
clear_weakref(PyWeakReference *self)
{
    PyObject *obj = self->wr_object;
    if (obj != Py_None) {
        PyWeakReference **list = GET_WEAKREFS_LISTPTR(obj);
        if (*list == self) {
            *list = self->wr_next;
        }
        self->wr_object = Py_None;
        if (self->wr_prev != NULL) {
            self->wr_prev->wr_next = self->wr_next;
        }
        if (self->wr_next != NULL) {
            self->wr_next->wr_prev = self->wr_prev;
        }
        self->wr_prev = NULL;
        self->wr_next = NULL;
    }
}

static void
insert_head(PyWeakReference *newref, PyWeakReference **list)
{
    PyWeakReference *next = *list;
    newref->wr_prev = NULL;
    newref->wr_next = next;
    if (next != NULL) {
        next->wr_prev = newref;
    }
    *list = newref;
}

static void
insert_after(PyWeakReference *newref, PyWeakReference *prev)
{
    newref->wr_prev = prev;
    newref->wr_next = prev->wr_next;
    if (prev->wr_next != NULL) {
        prev->wr_next->wr_prev = newref;
    }
    prev->wr_next = newref;
}

/* ---- weakref.ref ------------------------------------------------------------------- */

static PyObject *
weakref_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (!_PyArg_NoKwnames("weakref", kwnames)) {
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (!_PyArg_CheckPositional("weakref", nargs, 0, 0)) {
        return NULL;
    }
    PyObject *obj = referent((PyWeakReference *)self);
    return Py_NewRef(obj == NULL ? Py_None : obj);
}

static void
init_weakref(PyWeakReference *self, PyObject *ob, PyObject *callback)
{
    self->hash = -1;
    self->wr_object = ob;
    self->wr_prev = NULL;
    self->wr_next = NULL;
    self->wr_callback = Py_XNewRef(callback);
    self->vectorcall = weakref_vectorcall;
}

static int
check_weakrefable(PyObject *ob)
{
    if (!supports_weakrefs(ob)) {
        PyErr_Format(PyExc_TypeError, "cannot create weak reference to '%s' object",
                     Py_TYPE(ob)->tp_name);
        return -1;
    }
    return 0;
}

/* The shared plain ref and proxy sit at the head of the list. */
static void
get_basic_refs(PyWeakReference *head, PyWeakReference **refp, PyWeakReference **proxyp)
{
    *refp = NULL;
    *proxyp = NULL;
    if (head != NULL && head->wr_callback == NULL && PyWeakref_CheckRefExact(head)) {
        *refp = head;
        head = head->wr_next;
    }
    if (head != NULL && head->wr_callback == NULL && PyWeakref_CheckProxy(head)) {
        *proxyp = head;
    }
}

static PyObject *
weakref___new__(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *ob, *callback = NULL;
    if (!PyArg_UnpackTuple(args, "__new__", 1, 2, &ob, &callback)) {
        return NULL;
    }
    if (check_weakrefable(ob) < 0) {
        return NULL;
    }
    if (callback == Py_None) {
        callback = NULL;
    }
    PyWeakReference **list = GET_WEAKREFS_LISTPTR(ob);
    PyWeakReference *ref, *proxy;
    get_basic_refs(*list, &ref, &proxy);
    if (callback == NULL && type == &_PyWeakref_RefType && ref != NULL) {
        return Py_NewRef(ref);
    }
    PyWeakReference *self = (PyWeakReference *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    init_weakref(self, ob, callback);
    if (callback == NULL && type == &_PyWeakref_RefType) {
        insert_head(self, list);
    }
    else {
        PyWeakReference *prev = proxy == NULL ? ref : proxy;
        if (prev == NULL) {
            insert_head(self, list);
        }
        else {
            insert_after(self, prev);
        }
    }
    return (PyObject *)self;
}

static int
weakref___init__(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *tmp;
    if (!_PyArg_NoKeywords("ref", kwargs)) {
        return -1;
    }
    if (!PyArg_UnpackTuple(args, "__init__", 1, 2, &tmp, &tmp)) {
        return -1;
    }
    return 0;
}

static void
weakref_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    clear_weakref((PyWeakReference *)self);
    Py_CLEAR(((PyWeakReference *)self)->wr_callback);
    Py_TYPE(self)->tp_free(self);
}

static int
gc_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((PyWeakReference *)self)->wr_callback);
    return 0;
}

static int
gc_clear(PyObject *self)
{
    clear_weakref((PyWeakReference *)self);
    Py_CLEAR(((PyWeakReference *)self)->wr_callback);
    return 0;
}

static Py_hash_t
weakref_hash(PyObject *op)
{
    PyWeakReference *self = (PyWeakReference *)op;
    if (self->hash != -1) {
        return self->hash;
    }
    PyObject *obj = referent(self);
    if (obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "weak object has gone away");
        return -1;
    }
    Py_INCREF(obj);
    self->hash = PyObject_Hash(obj);
    Py_DECREF(obj);
    return self->hash;
}

static PyObject *
weakref_repr(PyObject *op)
{
    PyObject *obj = referent((PyWeakReference *)op);
    if (obj == NULL) {
        return PyUnicode_FromFormat("<weakref at %p; dead>", (void *)op);
    }
    return PyUnicode_FromFormat("<weakref at %p; to '%s' at %p>", (void *)op,
                                Py_TYPE(obj)->tp_name, (void *)obj);
}

/* Live references compare by their referents; dead ones by identity. */
static PyObject *
weakref_richcompare(PyObject *self, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyWeakref_CheckRef(self) || !PyWeakref_CheckRef(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *obj = referent((PyWeakReference *)self);
    PyObject *other_obj = referent((PyWeakReference *)other);
    if (obj == NULL || other_obj == NULL) {
        int res = (self == other);
        if (op == Py_NE) {
            res = !res;
        }
        return Py_NewRef(res ? Py_True : Py_False);
    }
    Py_INCREF(obj);
    Py_INCREF(other_obj);
    PyObject *res = PyObject_RichCompare(obj, other_obj, op);
    Py_DECREF(obj);
    Py_DECREF(other_obj);
    return res;
}

static PyObject *
weakref_class_getitem(PyObject *cls, PyObject *item)
{
    return Py_NewRef(cls);
}

static PyMemberDef weakref_members[] = {
    {"__callback__", _Py_T_OBJECT, offsetof(PyWeakReference, wr_callback), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef weakref_methods[] = {
    {"__class_getitem__", weakref_class_getitem, METH_O | METH_CLASS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyWeakref_RefType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "weakref.ReferenceType",
    .tp_basicsize = sizeof(PyWeakReference),
    .tp_dealloc = weakref_dealloc,
    .tp_vectorcall_offset = offsetof(PyWeakReference, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = weakref_repr,
    .tp_hash = weakref_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_BASETYPE,
    .tp_traverse = gc_traverse,
    .tp_clear = gc_clear,
    .tp_richcompare = weakref_richcompare,
    .tp_methods = weakref_methods,
    .tp_members = weakref_members,
    .tp_init = weakref___init__,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = weakref___new__,
    .tp_free = PyObject_GC_Del,
};

PyObject *
PyWeakref_NewRef(PyObject *ob, PyObject *callback)
{
    PyObject *args = PyTuple_Pack(callback == NULL ? 1 : 2, ob, callback);
    if (args == NULL) {
        return NULL;
    }
    PyObject *res = weakref___new__(&_PyWeakref_RefType, args, NULL);
    Py_DECREF(args);
    return res;
}

int
PyWeakref_GetRef(PyObject *ref, PyObject **pobj)
{
    if (ref == NULL || !PyWeakref_Check(ref)) {
        *pobj = NULL;
        PyErr_SetString(PyExc_TypeError, "expected a weakref");
        return -1;
    }
    PyObject *obj = referent((PyWeakReference *)ref);
    *pobj = Py_XNewRef(obj);
    return obj != NULL;
}

PyObject *
PyWeakref_GetObject(PyObject *ref)
{
    if (ref == NULL || !PyWeakref_Check(ref)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyObject *obj = referent((PyWeakReference *)ref);
    return obj == NULL ? Py_None : obj;
}

/* ---- Proxies ------------------------------------------------------------------------

   A proxy forwards operations to its referent and raises ReferenceError
   once the referent is gone. */

static PyObject *
proxy_target(PyObject *proxy)
{
    PyObject *obj = referent((PyWeakReference *)proxy);
    if (obj == NULL) {
        PyErr_SetString(PyExc_ReferenceError, "weakly-referenced object no longer exists");
        return NULL;
    }
    return Py_NewRef(obj);
}

/* Operands that are proxies are replaced by their referents. */
static int
unwrap(PyObject **o)
{
    if (PyWeakref_CheckProxy(*o)) {
        *o = proxy_target(*o);
        return *o == NULL ? -1 : 0;
    }
    Py_INCREF(*o);
    return 0;
}

/* Both operands of a binary operation at once: on failure neither
   holds a new reference. */
static int
unwrap_pair(PyObject **x, PyObject **y)
{
    if (unwrap(x) < 0) {
        return -1;
    }
    if (unwrap(y) < 0) {
        Py_DECREF(*x);
        return -1;
    }
    return 0;
}

#define WRAP_UNARY(NAME, FUNC)                       \
    static PyObject *NAME(PyObject *proxy)           \
    {                                                \
        PyObject *o = proxy_target(proxy);           \
        if (o == NULL) {                             \
            return NULL;                             \
        }                                            \
        PyObject *res = FUNC(o);                     \
        Py_DECREF(o);                                \
        return res;                                  \
    }

#define WRAP_BINARY(NAME, FUNC)                                  \
    static PyObject *NAME(PyObject *x, PyObject *y)              \
    {                                                            \
        if (unwrap_pair(&x, &y) < 0) {                           \
            return NULL;                                         \
        }                                                        \
        PyObject *res = FUNC(x, y);                              \
        Py_DECREF(x);                                            \
        Py_DECREF(y);                                            \
        return res;                                              \
    }

WRAP_UNARY(proxy_str, PyObject_Str)
WRAP_UNARY(proxy_neg, PyNumber_Negative)
WRAP_UNARY(proxy_pos, PyNumber_Positive)
WRAP_UNARY(proxy_abs, PyNumber_Absolute)
WRAP_UNARY(proxy_invert, PyNumber_Invert)
WRAP_UNARY(proxy_int, PyNumber_Long)
WRAP_UNARY(proxy_float, PyNumber_Float)
WRAP_UNARY(proxy_index, PyNumber_Index)
WRAP_UNARY(proxy_iter, PyObject_GetIter)
WRAP_BINARY(proxy_getattr, PyObject_GetAttr)
WRAP_BINARY(proxy_add, PyNumber_Add)
WRAP_BINARY(proxy_sub, PyNumber_Subtract)
WRAP_BINARY(proxy_mul, PyNumber_Multiply)
WRAP_BINARY(proxy_floor_div, PyNumber_FloorDivide)
WRAP_BINARY(proxy_true_div, PyNumber_TrueDivide)
WRAP_BINARY(proxy_mod, PyNumber_Remainder)
WRAP_BINARY(proxy_divmod, PyNumber_Divmod)
WRAP_BINARY(proxy_lshift, PyNumber_Lshift)
WRAP_BINARY(proxy_rshift, PyNumber_Rshift)
WRAP_BINARY(proxy_and, PyNumber_And)
WRAP_BINARY(proxy_xor, PyNumber_Xor)
WRAP_BINARY(proxy_or, PyNumber_Or)
WRAP_BINARY(proxy_matmul, PyNumber_MatrixMultiply)
WRAP_BINARY(proxy_getitem, PyObject_GetItem)
WRAP_BINARY(proxy_iadd, PyNumber_InPlaceAdd)
WRAP_BINARY(proxy_isub, PyNumber_InPlaceSubtract)
WRAP_BINARY(proxy_imul, PyNumber_InPlaceMultiply)
WRAP_BINARY(proxy_ifloor_div, PyNumber_InPlaceFloorDivide)
WRAP_BINARY(proxy_itrue_div, PyNumber_InPlaceTrueDivide)
WRAP_BINARY(proxy_imod, PyNumber_InPlaceRemainder)
WRAP_BINARY(proxy_ilshift, PyNumber_InPlaceLshift)
WRAP_BINARY(proxy_irshift, PyNumber_InPlaceRshift)
WRAP_BINARY(proxy_iand, PyNumber_InPlaceAnd)
WRAP_BINARY(proxy_ixor, PyNumber_InPlaceXor)
WRAP_BINARY(proxy_ior, PyNumber_InPlaceOr)
WRAP_BINARY(proxy_imatmul, PyNumber_InPlaceMatrixMultiply)
#undef WRAP_UNARY
#undef WRAP_BINARY

static PyObject *
proxy_pow(PyObject *x, PyObject *y, PyObject *z)
{
    if (unwrap_pair(&x, &y) < 0) {
        return NULL;
    }
    PyObject *res = PyNumber_Power(x, y, z);
    Py_DECREF(x);
    Py_DECREF(y);
    return res;
}

static PyObject *
proxy_ipow(PyObject *x, PyObject *y, PyObject *z)
{
    if (unwrap_pair(&x, &y) < 0) {
        return NULL;
    }
    PyObject *res = PyNumber_InPlacePower(x, y, z);
    Py_DECREF(x);
    Py_DECREF(y);
    return res;
}

/* bytes(p) and reversed(p) go through methods, not slots: forward them
   by calling the builtins on the referent. */
static PyObject *
proxy_call_builtin(PyObject *proxy, PyObject *func)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallOneArg(func, o);
    Py_DECREF(o);
    return res;
}

static PyObject *
proxy_bytes(PyObject *proxy, PyObject *Py_UNUSED(ignored))
{
    return proxy_call_builtin(proxy, (PyObject *)&PyBytes_Type);
}

static PyObject *
proxy_reversed(PyObject *proxy, PyObject *Py_UNUSED(ignored))
{
    return proxy_call_builtin(proxy, (PyObject *)&PyReversed_Type);
}

static PyMethodDef proxy_methods[] = {
    {"__bytes__", proxy_bytes, METH_NOARGS, NULL},
    {"__reversed__", proxy_reversed, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static int
proxy_bool(PyObject *proxy)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return -1;
    }
    int res = PyObject_IsTrue(o);
    Py_DECREF(o);
    return res;
}

static Py_ssize_t
proxy_length(PyObject *proxy)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return -1;
    }
    Py_ssize_t res = PyObject_Size(o);
    Py_DECREF(o);
    return res;
}

static int
proxy_contains(PyObject *proxy, PyObject *value)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return -1;
    }
    int res = PySequence_Contains(o, value);
    Py_DECREF(o);
    return res;
}

static int
proxy_setitem(PyObject *proxy, PyObject *key, PyObject *value)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return -1;
    }
    int res = value == NULL ? PyObject_DelItem(o, key) : PyObject_SetItem(o, key, value);
    Py_DECREF(o);
    return res;
}

static int
proxy_setattr(PyObject *proxy, PyObject *name, PyObject *value)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return -1;
    }
    int res = PyObject_SetAttr(o, name, value);
    Py_DECREF(o);
    return res;
}

static PyObject *
proxy_richcompare(PyObject *proxy, PyObject *v, int op)
{
    if (unwrap_pair(&proxy, &v) < 0) {
        return NULL;
    }
    PyObject *res = PyObject_RichCompare(proxy, v, op);
    Py_DECREF(proxy);
    Py_DECREF(v);
    return res;
}

static PyObject *
proxy_iternext(PyObject *proxy)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return NULL;
    }
    if (!PyIter_Check(o)) {
        PyErr_Format(PyExc_TypeError, "Weakref proxy referenced a non-iterator '%.200s' object",
                     Py_TYPE(o)->tp_name);
        Py_DECREF(o);
        return NULL;
    }
    PyObject *res = PyIter_Next(o);
    Py_DECREF(o);
    return res;
}

static PyObject *
proxy_call(PyObject *proxy, PyObject *args, PyObject *kw)
{
    PyObject *o = proxy_target(proxy);
    if (o == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_Call(o, args, kw);
    Py_DECREF(o);
    return res;
}

static PyObject *
proxy_repr(PyObject *proxy)
{
    PyObject *obj = referent((PyWeakReference *)proxy);
    if (obj == NULL) {
        return PyUnicode_FromFormat("<weakproxy at %p; dead>", (void *)proxy);
    }
    return PyUnicode_FromFormat("<weakproxy at %p; to '%s' at %p>", (void *)proxy,
                                Py_TYPE(obj)->tp_name, (void *)obj);
}

static PyNumberMethods proxy_as_number = {
    .nb_add = proxy_add,
    .nb_subtract = proxy_sub,
    .nb_multiply = proxy_mul,
    .nb_remainder = proxy_mod,
    .nb_divmod = proxy_divmod,
    .nb_power = proxy_pow,
    .nb_negative = proxy_neg,
    .nb_positive = proxy_pos,
    .nb_absolute = proxy_abs,
    .nb_bool = proxy_bool,
    .nb_invert = proxy_invert,
    .nb_lshift = proxy_lshift,
    .nb_rshift = proxy_rshift,
    .nb_and = proxy_and,
    .nb_xor = proxy_xor,
    .nb_or = proxy_or,
    .nb_int = proxy_int,
    .nb_float = proxy_float,
    .nb_floor_divide = proxy_floor_div,
    .nb_true_divide = proxy_true_div,
    .nb_index = proxy_index,
    .nb_matrix_multiply = proxy_matmul,
    .nb_inplace_add = proxy_iadd,
    .nb_inplace_subtract = proxy_isub,
    .nb_inplace_multiply = proxy_imul,
    .nb_inplace_remainder = proxy_imod,
    .nb_inplace_power = proxy_ipow,
    .nb_inplace_lshift = proxy_ilshift,
    .nb_inplace_rshift = proxy_irshift,
    .nb_inplace_and = proxy_iand,
    .nb_inplace_xor = proxy_ixor,
    .nb_inplace_or = proxy_ior,
    .nb_inplace_floor_divide = proxy_ifloor_div,
    .nb_inplace_true_divide = proxy_itrue_div,
    .nb_inplace_matrix_multiply = proxy_imatmul,
};

static PySequenceMethods proxy_as_sequence = {
    .sq_length = proxy_length,
    .sq_contains = proxy_contains,
};

static PyMappingMethods proxy_as_mapping = {
    .mp_length = proxy_length,
    .mp_subscript = proxy_getitem,
    .mp_ass_subscript = proxy_setitem,
};

PyTypeObject _PyWeakref_ProxyType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "weakref.ProxyType",
    .tp_basicsize = sizeof(PyWeakReference),
    .tp_dealloc = weakref_dealloc,
    .tp_repr = proxy_repr,
    .tp_as_number = &proxy_as_number,
    .tp_as_sequence = &proxy_as_sequence,
    .tp_as_mapping = &proxy_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_str = proxy_str,
    .tp_getattro = proxy_getattr,
    .tp_setattro = proxy_setattr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = gc_traverse,
    .tp_clear = gc_clear,
    .tp_richcompare = proxy_richcompare,
    .tp_iter = proxy_iter,
    .tp_iternext = proxy_iternext,
    .tp_methods = proxy_methods,
    .tp_free = PyObject_GC_Del,
};

PyTypeObject _PyWeakref_CallableProxyType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "weakref.CallableProxyType",
    .tp_basicsize = sizeof(PyWeakReference),
    .tp_dealloc = weakref_dealloc,
    .tp_repr = proxy_repr,
    .tp_as_number = &proxy_as_number,
    .tp_as_sequence = &proxy_as_sequence,
    .tp_as_mapping = &proxy_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_call = proxy_call,
    .tp_str = proxy_str,
    .tp_getattro = proxy_getattr,
    .tp_setattro = proxy_setattr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = gc_traverse,
    .tp_clear = gc_clear,
    .tp_richcompare = proxy_richcompare,
    .tp_iter = proxy_iter,
    .tp_iternext = proxy_iternext,
    .tp_methods = proxy_methods,
    .tp_free = PyObject_GC_Del,
};

PyObject *
PyWeakref_NewProxy(PyObject *ob, PyObject *callback)
{
    if (check_weakrefable(ob) < 0) {
        return NULL;
    }
    if (callback == Py_None) {
        callback = NULL;
    }
    PyWeakReference **list = GET_WEAKREFS_LISTPTR(ob);
    PyWeakReference *ref, *proxy;
    get_basic_refs(*list, &ref, &proxy);
    if (callback == NULL && proxy != NULL) {
        return Py_NewRef(proxy);
    }
    PyTypeObject *type = PyCallable_Check(ob) ? &_PyWeakref_CallableProxyType
                                              : &_PyWeakref_ProxyType;
    PyWeakReference *result = PyObject_GC_New(PyWeakReference, type);
    if (result == NULL) {
        return NULL;
    }
    init_weakref(result, ob, callback);
    result->vectorcall = NULL;
    PyWeakReference *prev = (callback == NULL) ? ref : (proxy != NULL ? proxy : ref);
    if (prev == NULL) {
        insert_head(result, list);
    }
    else {
        insert_after(result, prev);
    }
    PyObject_GC_Track(result);
    return (PyObject *)result;
}

/* ---- Death of a referent ------------------------------------------------------------------ */

static void
handle_callback(PyWeakReference *ref, PyObject *callback)
{
    PyObject *cbresult = PyObject_CallOneArg(callback, (PyObject *)ref);
    if (cbresult == NULL) {
        PyErr_WriteUnraisable(callback);
    }
    else {
        Py_DECREF(cbresult);
    }
}

void
PyObject_ClearWeakRefs(PyObject *object)
{
    if (object == NULL || !supports_weakrefs(object)) {
        PyErr_BadInternalCall();
        return;
    }
    PyWeakReference **list = GET_WEAKREFS_LISTPTR(object);
    if (*list == NULL) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    /* Detach every reference first, keeping those with callbacks (and
       still alive themselves) to call once the list is consistent. */
    Py_ssize_t count = _PyWeakref_GetWeakrefCount(object);
    PyObject *pending = PyList_New(0);
    for (Py_ssize_t i = 0; i < count && *list != NULL; i++) {
        PyWeakReference *current = *list;
        PyObject *callback = current->wr_callback;
        current->wr_callback = NULL;
        clear_weakref(current);
        if (callback == NULL) {
            continue;
        }
        if (Py_REFCNT(current) > 0 && pending != NULL) {
            PyObject *pair = PyTuple_Pack(2, (PyObject *)current, callback);
            if (pair == NULL || PyList_Append(pending, pair) < 0) {
                PyErr_Clear();
            }
            Py_XDECREF(pair);
        }
        Py_DECREF(callback);
    }
    if (pending != NULL) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(pending); i++) {
            PyObject *pair = PyList_GET_ITEM(pending, i);
            handle_callback((PyWeakReference *)PyTuple_GET_ITEM(pair, 0),
                            PyTuple_GET_ITEM(pair, 1));
        }
        Py_DECREF(pending);
    }
    else {
        PyErr_Clear();
    }
    PyErr_SetRaisedException(exc);
}
