/* The two-way bridge between dunder methods and C slots.

   C to Python: a static type that fills nb_add gets an `__add__` "slot
   wrapper" in its dict, so int.__add__ and (1).__add__ exist.  The table
   below says which wrapper function turns the Python call into a call of
   the slot.

   Python to C: a class statement that defines __add__ gets nb_add set to
   slot_nb_add, which looks __add__ up on the type and calls it.  When a
   class merely inherits a builtin's wrapper, the builtin's C function is
   used directly instead (see update_one_slot).

   Entries that feed the same slot (__add__ and __radd__ both feed nb_add;
   the six comparisons feed tp_richcompare) are adjacent in the table. */
#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_call.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"

typedef struct wrapperbase slotdef;

/* ---- Wrappers: calling a C slot from Python ------------------------------------ */

static int
check_num_args(PyObject *args, Py_ssize_t n)
{
    if (!PyTuple_CheckExact(args)) {
        PyErr_SetString(PyExc_SystemError, "PyArg_UnpackTuple() argument list is not a tuple");
        return 0;
    }
    if (n == PyTuple_GET_SIZE(args)) {
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "expected %zd argument%s, got %zd", n, n == 1 ? "" : "s",
                 PyTuple_GET_SIZE(args));
    return 0;
}

static PyObject *
wrap_lenfunc(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 0)) {
        return NULL;
    }
    Py_ssize_t res = ((lenfunc)wrapped)(self);
    if (res == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromSsize_t(res);
}

static PyObject *
wrap_inquirypred(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 0)) {
        return NULL;
    }
    int res = ((inquiry)wrapped)(self);
    if (res == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyBool_FromLong(res);
}

static PyObject *
wrap_binaryfunc(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 1)) {
        return NULL;
    }
    return ((binaryfunc)wrapped)(self, PyTuple_GET_ITEM(args, 0));
}

/* The left-operand form of a numeric operator (__add__). */
static PyObject *
wrap_binaryfunc_l(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 1)) {
        return NULL;
    }
    PyObject *other = PyTuple_GET_ITEM(args, 0);
    return ((binaryfunc)wrapped)(self, other);
}

/* The reflected form (__radd__): the operands swap places. */
static PyObject *
wrap_binaryfunc_r(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 1)) {
        return NULL;
    }
    PyObject *other = PyTuple_GET_ITEM(args, 0);
    return ((binaryfunc)wrapped)(other, self);
}

static PyObject *
wrap_ternaryfunc(PyObject *self, PyObject *args, void *wrapped)
{
    PyObject *other, *third = Py_None;
    if (!PyArg_UnpackTuple(args, "", 1, 2, &other, &third)) {
        return NULL;
    }
    return ((ternaryfunc)wrapped)(self, other, third);
}

static PyObject *
wrap_ternaryfunc_r(PyObject *self, PyObject *args, void *wrapped)
{
    PyObject *other, *third = Py_None;
    if (!PyArg_UnpackTuple(args, "", 1, 2, &other, &third)) {
        return NULL;
    }
    return ((ternaryfunc)wrapped)(other, self, third);
}

static PyObject *
wrap_unaryfunc(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 0)) {
        return NULL;
    }
    return ((unaryfunc)wrapped)(self);
}

static PyObject *
wrap_indexargfunc(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 1)) {
        return NULL;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(PyTuple_GET_ITEM(args, 0), PyExc_OverflowError);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return ((ssizeargfunc)wrapped)(self, i);
}

/* A sequence index as sq_item sees it: negative values count from the
   end. */
static Py_ssize_t
getindex(PyObject *self, PyObject *arg)
{
    Py_ssize_t i = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (i == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (i < 0) {
        PySequenceMethods *sq = Py_TYPE(self)->tp_as_sequence;
        if (sq != NULL && sq->sq_length != NULL) {
            Py_ssize_t n = sq->sq_length(self);
            if (n < 0) {
                return -1;
            }
            i += n;
        }
    }
    return i;
}

static PyObject *
wrap_sq_item(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 1)) {
        return NULL;
    }
    Py_ssize_t i = getindex(self, PyTuple_GET_ITEM(args, 0));
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return ((ssizeargfunc)wrapped)(self, i);
}

/* sq_ass_item stores with two arguments and deletes (value NULL) with
   one; both wrappers share it. */
static PyObject *
call_sq_ass_item(PyObject *self, PyObject *args, ssizeobjargproc func, Py_ssize_t nargs)
{
    if (!check_num_args(args, nargs)) {
        return NULL;
    }
    Py_ssize_t i = getindex(self, PyTuple_GET_ITEM(args, 0));
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *value = nargs == 2 ? PyTuple_GET_ITEM(args, 1) : NULL;
    if (func(self, i, value) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
wrap_sq_setitem(PyObject *self, PyObject *args, void *wrapped)
{
    return call_sq_ass_item(self, args, (ssizeobjargproc)wrapped, 2);
}

static PyObject *
wrap_sq_delitem(PyObject *self, PyObject *args, void *wrapped)
{
    return call_sq_ass_item(self, args, (ssizeobjargproc)wrapped, 1);
}

static PyObject *
wrap_objobjproc(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 1)) {
        return NULL;
    }
    int res = ((objobjproc)wrapped)(self, PyTuple_GET_ITEM(args, 0));
    if (res == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyBool_FromLong(res);
}

/* Shared by the set and delete wrappers of every (self, key, value)
   slot (mp_ass_subscript, tp_setattro, tp_descr_set): two arguments
   store, one argument deletes by passing NULL as the value. */
static PyObject *
call_objobjarg(PyObject *self, PyObject *args, objobjargproc func, Py_ssize_t nargs)
{
    if (!check_num_args(args, nargs)) {
        return NULL;
    }
    PyObject *value = nargs == 2 ? PyTuple_GET_ITEM(args, 1) : NULL;
    if (func(self, PyTuple_GET_ITEM(args, 0), value) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
wrap_objobjargproc(PyObject *self, PyObject *args, void *wrapped)
{
    return call_objobjarg(self, args, (objobjargproc)wrapped, 2);
}

static PyObject *
wrap_delitem(PyObject *self, PyObject *args, void *wrapped)
{
    return call_objobjarg(self, args, (objobjargproc)wrapped, 1);
}

/* object.__setattr__(x, ...) must not bypass a C type's own setattro
   (e.g. to write into a type object's dict behind its back). */
static int
hackcheck(PyObject *self, setattrofunc func, const char *what)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject *mro = type->tp_mro;
    if (mro == NULL) {
        return 1;
    }
    /* The first type in the MRO that is not a heap type with slot_tp_setattro
       decides. */
    PyTypeObject *defining = type;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (!PyType_HasFeature(base, Py_TPFLAGS_HEAPTYPE)) {
            defining = base;
            break;
        }
    }
    if (defining->tp_setattro != func) {
        PyErr_Format(PyExc_TypeError, "can't apply this %s to %s object", what, type->tp_name);
        return 0;
    }
    return 1;
}

/* The argument count is checked before hackcheck so that a wrong call
   reports the count, not the type mismatch. */
static PyObject *
call_setattr(PyObject *self, PyObject *args, setattrofunc func, Py_ssize_t nargs,
             const char *what)
{
    if (!check_num_args(args, nargs)) {
        return NULL;
    }
    if (!hackcheck(self, func, what)) {
        return NULL;
    }
    return call_objobjarg(self, args, func, nargs);
}

static PyObject *
wrap_setattr(PyObject *self, PyObject *args, void *wrapped)
{
    return call_setattr(self, args, (setattrofunc)wrapped, 2, "__setattr__");
}

static PyObject *
wrap_delattr(PyObject *self, PyObject *args, void *wrapped)
{
    return call_setattr(self, args, (setattrofunc)wrapped, 1, "__delattr__");
}

static PyObject *
wrap_hashfunc(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 0)) {
        return NULL;
    }
    Py_hash_t res = ((hashfunc)wrapped)(self);
    if (res == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromSsize_t(res);
}

static PyObject *
wrap_call(PyObject *self, PyObject *args, void *wrapped, PyObject *kwds)
{
    return ((ternaryfunc)wrapped)(self, args, kwds);
}

static PyObject *
wrap_del(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 0)) {
        return NULL;
    }
    ((destructor)wrapped)(self);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
richcmp_call(PyObject *self, PyObject *args, void *wrapped, int op)
{
    if (!check_num_args(args, 1)) {
        return NULL;
    }
    return ((richcmpfunc)wrapped)(self, PyTuple_GET_ITEM(args, 0), op);
}

#define RICHCMP_WRAPPER(NAME, OP)                                     \
    static PyObject *richcmp_##NAME(PyObject *self, PyObject *args, \
                                    void *wrapped)                  \
    {                                                               \
        return richcmp_call(self, args, wrapped, OP);               \
    }
RICHCMP_WRAPPER(lt, Py_LT)
RICHCMP_WRAPPER(le, Py_LE)
RICHCMP_WRAPPER(eq, Py_EQ)
RICHCMP_WRAPPER(ne, Py_NE)
RICHCMP_WRAPPER(gt, Py_GT)
RICHCMP_WRAPPER(ge, Py_GE)
#undef RICHCMP_WRAPPER

static PyObject *
wrap_next(PyObject *self, PyObject *args, void *wrapped)
{
    if (!check_num_args(args, 0)) {
        return NULL;
    }
    PyObject *res = ((unaryfunc)wrapped)(self);
    if (res == NULL && !PyErr_Occurred()) {
        PyErr_SetNone(PyExc_StopIteration);
    }
    return res;
}

static PyObject *
wrap_descr_get(PyObject *self, PyObject *args, void *wrapped)
{
    PyObject *obj, *type = NULL;
    if (!PyArg_UnpackTuple(args, "", 1, 2, &obj, &type)) {
        return NULL;
    }
    if (obj == Py_None) {
        obj = NULL;
    }
    if (type == Py_None) {
        type = NULL;
    }
    if (type == NULL && obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "__get__(None, None) is invalid");
        return NULL;
    }
    return ((descrgetfunc)wrapped)(self, obj, type);
}

static PyObject *
wrap_descr_set(PyObject *self, PyObject *args, void *wrapped)
{
    return call_objobjarg(self, args, (descrsetfunc)wrapped, 2);
}

static PyObject *
wrap_descr_delete(PyObject *self, PyObject *args, void *wrapped)
{
    return call_objobjarg(self, args, (descrsetfunc)wrapped, 1);
}

static PyObject *
wrap_init(PyObject *self, PyObject *args, void *wrapped, PyObject *kwds)
{
    if (((initproc)wrapped)(self, args, kwds) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Slot functions: calling dunder methods from C --------------------------------

   lookup_maybe_method finds `name` on the type (never the instance, as
   the language reference says for special methods).  Plain functions
   and method descriptors come back unbound (*unbound = 1) so the call
   can pass self in the argument array instead of allocating a bound
   method. */

static PyObject *
lookup_maybe_method(PyObject *self, PyObject *name, int *unbound)
{
    PyObject *res = _PyType_LookupRef(Py_TYPE(self), name);
    if (res == NULL) {
        return NULL;
    }
    if (PyFunction_Check(res) || PyType_HasFeature(Py_TYPE(res), Py_TPFLAGS_METHOD_DESCRIPTOR)) {
        *unbound = 1;
        return res;
    }
    *unbound = 0;
    descrgetfunc f = Py_TYPE(res)->tp_descr_get;
    if (f != NULL) {
        Py_SETREF(res, f(res, self, (PyObject *)Py_TYPE(self)));
    }
    return res;
}

/* func(*args) when unbound, else func(*args[1:]); args[0] is self. */
static PyObject *
vectorcall_unbound(PyThreadState *tstate, int unbound, PyObject *func, PyObject **args,
                   Py_ssize_t nargs)
{
    size_t nargsf = (size_t)nargs;
    if (!unbound) {
        args++;
        nargsf = (nargsf - 1) | PY_VECTORCALL_ARGUMENTS_OFFSET;
    }
    return _PyObject_VectorcallTstate(tstate, func, args, nargsf, NULL);
}

/* args[0].name(*args[1:]).  When the type lacks the method: with
   `maybe` set, NotImplemented (binary operators then try the other
   operand); otherwise AttributeError.  Inlined into the two wrappers
   below, so the flag costs nothing on these hot paths. */
static inline PyObject *
vectorcall_lookup(PyObject *name, PyObject **args, Py_ssize_t nargs, int maybe)
{
    PyThreadState *tstate = _PyThreadState_GET();
    int unbound;
    PyObject *func = lookup_maybe_method(args[0], name, &unbound);
    if (func == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        if (maybe) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        PyErr_SetObject(PyExc_AttributeError, name);
        return NULL;
    }
    PyObject *res = vectorcall_unbound(tstate, unbound, func, args, nargs);
    Py_DECREF(func);
    return res;
}

static PyObject *
vectorcall_method(PyObject *name, PyObject **args, Py_ssize_t nargs)
{
    return vectorcall_lookup(name, args, nargs, 0);
}

static PyObject *
vectorcall_maybe(PyObject *name, PyObject **args, Py_ssize_t nargs)
{
    return vectorcall_lookup(name, args, nargs, 1);
}

/* The set/delete pair behind one slot (__setitem__/__delitem__,
   __setattr__/__delattr__, __set__/__delete__): a NULL value deletes. */
static int
call_set_or_delete(PyObject *self, PyObject *key, PyObject *value, PyObject *setname,
                   PyObject *delname)
{
    PyObject *stack[3] = {self, key, value};
    PyObject *res;
    if (value == NULL) {
        res = vectorcall_method(delname, stack, 2);
    }
    else {
        res = vectorcall_method(setname, stack, 3);
    }
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

static PyObject *
call_method_noarg(PyObject *self, PyObject *name)
{
    PyObject *stack[1] = {self};
    return vectorcall_method(name, stack, 1);
}

/* ---- Numeric slot functions ---------------------------------------------------------

   For a binary operator the C slot is called with the operands in source
   order, whichever of them brought the slot.  Python semantics: if the
   right operand's type is a proper subclass of the left's and overrides
   the reflected method, that goes first; then the left's method; then the
   right's reflected method. */

#define NB_SLOT(nb, offset) (*(binaryfunc *)((char *)(nb) + (offset)))

static int
method_is_overloaded(PyObject *left, PyObject *right, PyObject *name)
{
    PyObject *a = _PyType_Lookup(Py_TYPE(right), name);
    if (a == NULL) {
        return 0;
    }
    PyObject *b = _PyType_Lookup(Py_TYPE(left), name);
    return b == NULL || a != b;
}

static PyObject *
binary_slot(PyObject *self, PyObject *other, size_t offset, binaryfunc testfunc, PyObject *name,
            PyObject *rname)
{
    PyNumberMethods *snb = Py_TYPE(self)->tp_as_number;
    PyNumberMethods *onb = Py_TYPE(other)->tp_as_number;
    int do_other = !Py_IS_TYPE(self, Py_TYPE(other)) && onb != NULL &&
                   NB_SLOT(onb, offset) == testfunc;
    PyObject *stack[2], *r;
    if (snb != NULL && NB_SLOT(snb, offset) == testfunc) {
        if (do_other && PyType_IsSubtype(Py_TYPE(other), Py_TYPE(self)) &&
            method_is_overloaded(self, other, rname)) {
            stack[0] = other;
            stack[1] = self;
            r = vectorcall_maybe(rname, stack, 2);
            if (r != Py_NotImplemented) {
                return r;
            }
            Py_DECREF(r);
            do_other = 0;
        }
        stack[0] = self;
        stack[1] = other;
        r = vectorcall_maybe(name, stack, 2);
        if (r != Py_NotImplemented || Py_IS_TYPE(other, Py_TYPE(self))) {
            return r;
        }
        Py_DECREF(r);
    }
    if (do_other) {
        stack[0] = other;
        stack[1] = self;
        return vectorcall_maybe(rname, stack, 2);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

#define SLOT_BINARY(FUNC, SLOT, DUNDER, RDUNDER)                                  \
    static PyObject *FUNC(PyObject *self, PyObject *other)                       \
    {                                                                            \
        return binary_slot(self, other, offsetof(PyNumberMethods, SLOT), FUNC,   \
                           _Py_ID(DUNDER), _Py_ID(RDUNDER));                             \
    }

SLOT_BINARY(slot_nb_add, nb_add, __add__, __radd__)
SLOT_BINARY(slot_nb_subtract, nb_subtract, __sub__, __rsub__)
SLOT_BINARY(slot_nb_multiply, nb_multiply, __mul__, __rmul__)
SLOT_BINARY(slot_nb_matrix_multiply, nb_matrix_multiply, __matmul__, __rmatmul__)
SLOT_BINARY(slot_nb_remainder, nb_remainder, __mod__, __rmod__)
SLOT_BINARY(slot_nb_divmod, nb_divmod, __divmod__, __rdivmod__)
SLOT_BINARY(slot_nb_lshift, nb_lshift, __lshift__, __rlshift__)
SLOT_BINARY(slot_nb_rshift, nb_rshift, __rshift__, __rrshift__)
SLOT_BINARY(slot_nb_and, nb_and, __and__, __rand__)
SLOT_BINARY(slot_nb_xor, nb_xor, __xor__, __rxor__)
SLOT_BINARY(slot_nb_or, nb_or, __or__, __ror__)
SLOT_BINARY(slot_nb_floor_divide, nb_floor_divide, __floordiv__, __rfloordiv__)
SLOT_BINARY(slot_nb_true_divide, nb_true_divide, __truediv__, __rtruediv__)
#undef SLOT_BINARY

static PyObject *slot_nb_power(PyObject *self, PyObject *other, PyObject *modulus);

/* pow() with two arguments dispatches like the other binary operators.
   binary_slot only compares the slot pointer with testfunc, never calls
   it, so the ternary slot function can stand in (cast through the
   generic function type, which GCC accepts without a warning). */
static PyObject *
slot_nb_power_binary(PyObject *self, PyObject *other)
{
    return binary_slot(self, other, offsetof(PyNumberMethods, nb_power),
                       (binaryfunc)(void (*)(void))slot_nb_power, _Py_ID(__pow__), _Py_ID(__rpow__));
}

static PyObject *
slot_nb_power(PyObject *self, PyObject *other, PyObject *modulus)
{
    if (modulus == Py_None) {
        return slot_nb_power_binary(self, other);
    }
    /* Three-argument pow() never tries __rpow__. */
    PyNumberMethods *snb = Py_TYPE(self)->tp_as_number;
    if (snb != NULL && snb->nb_power == slot_nb_power) {
        PyObject *stack[3] = {self, other, modulus};
        return vectorcall_method(_Py_ID(__pow__), stack, 3);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

#define SLOT_INPLACE(FUNC, DUNDER)                           \
    static PyObject *FUNC(PyObject *self, PyObject *other)  \
    {                                                       \
        PyObject *stack[2] = {self, other};                 \
        return vectorcall_maybe(_Py_ID(DUNDER), stack, 2);      \
    }

SLOT_INPLACE(slot_nb_inplace_add, __iadd__)
SLOT_INPLACE(slot_nb_inplace_subtract, __isub__)
SLOT_INPLACE(slot_nb_inplace_multiply, __imul__)
SLOT_INPLACE(slot_nb_inplace_matrix_multiply, __imatmul__)
SLOT_INPLACE(slot_nb_inplace_remainder, __imod__)
SLOT_INPLACE(slot_nb_inplace_lshift, __ilshift__)
SLOT_INPLACE(slot_nb_inplace_rshift, __irshift__)
SLOT_INPLACE(slot_nb_inplace_and, __iand__)
SLOT_INPLACE(slot_nb_inplace_xor, __ixor__)
SLOT_INPLACE(slot_nb_inplace_or, __ior__)
SLOT_INPLACE(slot_nb_inplace_floor_divide, __ifloordiv__)
SLOT_INPLACE(slot_nb_inplace_true_divide, __itruediv__)
#undef SLOT_INPLACE

static PyObject *
slot_nb_inplace_power(PyObject *self, PyObject *other, PyObject *modulus)
{
    PyObject *stack[2] = {self, other};
    return vectorcall_maybe(_Py_ID(__ipow__), stack, 2);
}

#define SLOT_UNARY(FUNC, DUNDER)                      \
    static PyObject *FUNC(PyObject *self)            \
    {                                                \
        return call_method_noarg(self, _Py_ID(DUNDER));  \
    }

SLOT_UNARY(slot_nb_negative, __neg__)
SLOT_UNARY(slot_nb_positive, __pos__)
SLOT_UNARY(slot_nb_absolute, __abs__)
SLOT_UNARY(slot_nb_invert, __invert__)
SLOT_UNARY(slot_nb_int, __int__)
SLOT_UNARY(slot_nb_float, __float__)
SLOT_UNARY(slot_nb_index, __index__)
SLOT_UNARY(slot_tp_str, __str__)
SLOT_UNARY(slot_tp_iternext, __next__)
#undef SLOT_UNARY

static int
slot_nb_bool(PyObject *self)
{
    int unbound, using_len = 0;
    PyObject *func = lookup_maybe_method(self, _Py_ID(__bool__), &unbound);
    if (func == NULL) {
        if (PyErr_Occurred()) {
            return -1;
        }
        func = lookup_maybe_method(self, _Py_ID(__len__), &unbound);
        if (func == NULL) {
            return PyErr_Occurred() ? -1 : 1;
        }
        using_len = 1;
    }
    PyObject *stack[1] = {self};
    PyObject *value = vectorcall_unbound(_PyThreadState_GET(), unbound, func, stack, 1);
    Py_DECREF(func);
    if (value == NULL) {
        return -1;
    }
    int result;
    if (using_len || PyBool_Check(value)) {
        result = PyObject_IsTrue(value);
    }
    else {
        PyErr_Format(PyExc_TypeError, "__bool__ should return bool, returned %s",
                     Py_TYPE(value)->tp_name);
        result = -1;
    }
    Py_DECREF(value);
    return result;
}

/* ---- Container slot functions ------------------------------------------------------ */

static Py_ssize_t
slot_sq_length(PyObject *self)
{
    PyObject *res = call_method_noarg(self, _Py_ID(__len__));
    if (res == NULL) {
        return -1;
    }
    Py_SETREF(res, PyNumber_Index(res));
    if (res == NULL) {
        return -1;
    }
    if (_PyLong_Sign(res) < 0) {
        Py_DECREF(res);
        PyErr_SetString(PyExc_ValueError, "__len__() should return >= 0");
        return -1;
    }
    Py_ssize_t len = PyNumber_AsSsize_t(res, PyExc_OverflowError);
    Py_DECREF(res);
    return len;
}

static PyObject *
slot_sq_item(PyObject *self, Py_ssize_t i)
{
    PyObject *ival = PyLong_FromSsize_t(i);
    if (ival == NULL) {
        return NULL;
    }
    PyObject *stack[2] = {self, ival};
    PyObject *res = vectorcall_method(_Py_ID(__getitem__), stack, 2);
    Py_DECREF(ival);
    return res;
}

static int
slot_sq_ass_item(PyObject *self, Py_ssize_t index, PyObject *value)
{
    PyObject *ival = PyLong_FromSsize_t(index);
    if (ival == NULL) {
        return -1;
    }
    int res = call_set_or_delete(self, ival, value, _Py_ID(__setitem__), _Py_ID(__delitem__));
    Py_DECREF(ival);
    return res;
}

static int
slot_sq_contains(PyObject *self, PyObject *value)
{
    int unbound;
    PyObject *func = lookup_maybe_method(self, _Py_ID(__contains__), &unbound);
    if (func == Py_None) {
        Py_DECREF(func);
        PyErr_Format(PyExc_TypeError, "'%.200s' object is not a container",
                     Py_TYPE(self)->tp_name);
        return -1;
    }
    if (func == NULL) {
        if (PyErr_Occurred()) {
            return -1;
        }
        /* No __contains__: search what iteration produces. */
        Py_ssize_t r = _PySequence_IterSearch(self, value, PY_ITERSEARCH_CONTAINS);
        return r < 0 ? -1 : (int)r;
    }
    PyObject *stack[2] = {self, value};
    PyObject *res = vectorcall_unbound(_PyThreadState_GET(), unbound, func, stack, 2);
    Py_DECREF(func);
    if (res == NULL) {
        return -1;
    }
    int result = PyObject_IsTrue(res);
    Py_DECREF(res);
    return result;
}

static PyObject *
slot_mp_subscript(PyObject *self, PyObject *key)
{
    PyObject *stack[2] = {self, key};
    return vectorcall_method(_Py_ID(__getitem__), stack, 2);
}

static int
slot_mp_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    return call_set_or_delete(self, key, value, _Py_ID(__setitem__), _Py_ID(__delitem__));
}

/* ---- Other type slot functions --------------------------------------------------- */

static PyObject *
slot_tp_repr(PyObject *self)
{
    int unbound;
    PyObject *func = lookup_maybe_method(self, _Py_ID(__repr__), &unbound);
    if (func != NULL) {
        PyObject *stack[1] = {self};
        PyObject *res = vectorcall_unbound(_PyThreadState_GET(), unbound, func, stack, 1);
        Py_DECREF(func);
        return res;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    return PyUnicode_FromFormat("<%s object at %p>", Py_TYPE(self)->tp_name, (void *)self);
}

static Py_hash_t
slot_tp_hash(PyObject *self)
{
    int unbound;
    PyObject *func = lookup_maybe_method(self, _Py_ID(__hash__), &unbound);
    if (func == Py_None) {
        Py_CLEAR(func);
    }
    if (func == NULL) {
        return PyErr_Occurred() ? -1 : PyObject_HashNotImplemented(self);
    }
    PyObject *stack[1] = {self};
    PyObject *res = vectorcall_unbound(_PyThreadState_GET(), unbound, func, stack, 1);
    Py_DECREF(func);
    if (res == NULL) {
        return -1;
    }
    if (!PyLong_Check(res)) {
        PyErr_SetString(PyExc_TypeError, "__hash__ method should return an integer");
        Py_DECREF(res);
        return -1;
    }
    /* A big result is reduced the way hash() reduces ints, so that the
       value stays stable. */
    Py_hash_t h = PyLong_AsSsize_t(res);
    if (h == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        h = PyLong_Type.tp_hash(res);
    }
    Py_DECREF(res);
    if (h == -1 && !PyErr_Occurred()) {
        h = -2;
    }
    return h;
}

static PyObject *
slot_tp_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyThreadState *tstate = _PyThreadState_GET();
    int unbound;
    PyObject *meth = lookup_maybe_method(self, _Py_ID(__call__), &unbound);
    if (meth == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object is not callable",
                         Py_TYPE(self)->tp_name);
        }
        return NULL;
    }
    PyObject *res;
    if (unbound) {
        res = _PyObject_Call_Prepend(tstate, meth, self, args, kwds);
    }
    else {
        res = _PyObject_Call(tstate, meth, args, kwds);
    }
    Py_DECREF(meth);
    return res;
}

/* Call an attribute found on the type (a function or any descriptor)
   for `self` with one argument. */
static PyObject *
call_attribute(PyObject *self, PyObject *attr, PyObject *name)
{
    PyObject *res;
    descrgetfunc f = Py_TYPE(attr)->tp_descr_get;
    if (f == NULL) {
        Py_INCREF(attr);
    }
    else {
        attr = f(attr, self, (PyObject *)Py_TYPE(self));
        if (attr == NULL) {
            return NULL;
        }
    }
    res = PyObject_CallOneArg(attr, name);
    Py_DECREF(attr);
    return res;
}

PyObject *
_Py_slot_tp_getattro(PyObject *self, PyObject *name)
{
    PyObject *stack[2] = {self, name};
    return vectorcall_method(_Py_ID(__getattribute__), stack, 2);
}

static int
is_generic_getattribute(PyObject *descr)
{
    return Py_IS_TYPE(descr, &PyWrapperDescr_Type) &&
           ((PyWrapperDescrObject *)descr)->d_wrapped == (void *)PyObject_GenericGetAttr;
}

/* __getattr__ runs when __getattribute__ raises AttributeError. */
PyObject *
_Py_slot_tp_getattr_hook(PyObject *self, PyObject *name)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject *getattr = _PyType_LookupRef(tp, _Py_ID(__getattr__));
    if (getattr == NULL) {
        /* No __getattr__ after all: switch to the simpler dispatcher. */
        tp->tp_getattro = _Py_slot_tp_getattro;
        return _Py_slot_tp_getattro(self, name);
    }
    PyObject *getattribute = _PyType_LookupRef(tp, _Py_ID(__getattribute__));
    PyObject *res;
    if (getattribute == NULL || is_generic_getattribute(getattribute)) {
        res = _PyObject_GenericGetAttrWithDict(self, name, NULL, 1);
        if (res == NULL && !PyErr_Occurred()) {
            res = call_attribute(self, getattr, name);
        }
    }
    else {
        res = call_attribute(self, getattribute, name);
        if (res == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            res = call_attribute(self, getattr, name);
        }
    }
    Py_XDECREF(getattribute);
    Py_DECREF(getattr);
    return res;
}

static int
slot_tp_setattro(PyObject *self, PyObject *name, PyObject *value)
{
    return call_set_or_delete(self, name, value, _Py_ID(__setattr__), _Py_ID(__delattr__));
}

static PyObject *
slot_tp_richcompare(PyObject *self, PyObject *other, int op)
{
    static const char *const names[] = {"__lt__", "__le__", "__eq__",
                                        "__ne__", "__gt__", "__ge__"};
    static PyObject *name_op[6];
    if (name_op[op] == NULL) {
        name_op[op] = _PyUnicode_InternImmortal(names[op]);
    }
    int unbound;
    PyObject *func = lookup_maybe_method(self, name_op[op], &unbound);
    if (func == NULL) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *stack[2] = {self, other};
    PyObject *res = vectorcall_unbound(_PyThreadState_GET(), unbound, func, stack, 2);
    Py_DECREF(func);
    return res;
}

static PyObject *
slot_tp_iter(PyObject *self)
{
    int unbound;
    PyObject *func = lookup_maybe_method(self, _Py_ID(__iter__), &unbound);
    if (func == Py_None) {
        Py_DECREF(func);
        PyErr_Format(PyExc_TypeError, "'%.200s' object is not iterable", Py_TYPE(self)->tp_name);
        return NULL;
    }
    if (func != NULL) {
        PyObject *stack[1] = {self};
        PyObject *res = vectorcall_unbound(_PyThreadState_GET(), unbound, func, stack, 1);
        Py_DECREF(func);
        return res;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    /* The old sequence protocol: __getitem__ with 0, 1, 2, ... */
    func = lookup_maybe_method(self, _Py_ID(__getitem__), &unbound);
    if (func == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object is not iterable",
                         Py_TYPE(self)->tp_name);
        }
        return NULL;
    }
    Py_DECREF(func);
    return PySeqIter_New(self);
}

static PyObject *
slot_tp_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    PyObject *get = _PyType_LookupRef(Py_TYPE(self), _Py_ID(__get__));
    if (get == NULL) {
        return Py_NewRef(self);
    }
    if (obj == NULL) {
        obj = Py_None;
    }
    if (type == NULL) {
        type = Py_None;
    }
    PyObject *res = PyObject_CallFunctionObjArgs(get, self, obj, type, NULL);
    Py_DECREF(get);
    return res;
}

static int
slot_tp_descr_set(PyObject *self, PyObject *target, PyObject *value)
{
    return call_set_or_delete(self, target, value, _Py_ID(__set__), _Py_ID(__delete__));
}

static int
slot_tp_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyThreadState *tstate = _PyThreadState_GET();
    int unbound;
    PyObject *meth = lookup_maybe_method(self, _Py_ID(__init__), &unbound);
    if (meth == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject(PyExc_AttributeError, _Py_ID(__init__));
        }
        return -1;
    }
    PyObject *res;
    if (unbound) {
        res = _PyObject_Call_Prepend(tstate, meth, self, args, kwds);
    }
    else {
        res = _PyObject_Call(tstate, meth, args, kwds);
    }
    Py_DECREF(meth);
    if (res == NULL) {
        return -1;
    }
    if (res != Py_None) {
        PyErr_Format(PyExc_TypeError, "__init__() should return None, not '%.200s'",
                     Py_TYPE(res)->tp_name);
        Py_DECREF(res);
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

static PyObject *
slot_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *func = PyObject_GetAttr((PyObject *)type, _Py_ID(__new__));
    if (func == NULL) {
        return NULL;
    }
    PyObject *result = _PyObject_Call_Prepend(tstate, func, (PyObject *)type, args, kwds);
    Py_DECREF(func);
    return result;
}

static void
slot_tp_finalize(PyObject *self)
{
    PyObject *exc = PyErr_GetRaisedException();
    int unbound;
    PyObject *del = lookup_maybe_method(self, _Py_ID(__del__), &unbound);
    if (del != NULL) {
        PyObject *stack[1] = {self};
        PyObject *res = vectorcall_unbound(_PyThreadState_GET(), unbound, del, stack, 1);
        if (res == NULL) {
            PyErr_WriteUnraisable(del);
        }
        else {
            Py_DECREF(res);
        }
        Py_DECREF(del);
    }
    else {
        PyErr_Clear();
    }
    PyErr_SetRaisedException(exc);
}

static PyObject *
slot_am_generic(PyObject *self, PyObject *name)
{
    int unbound;
    PyObject *func = lookup_maybe_method(self, name, &unbound);
    if (func == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_AttributeError, "object %.50s does not have %U method",
                         Py_TYPE(self)->tp_name, name);
        }
        return NULL;
    }
    PyObject *stack[1] = {self};
    PyObject *res = vectorcall_unbound(_PyThreadState_GET(), unbound, func, stack, 1);
    Py_DECREF(func);
    return res;
}

static PyObject *
slot_am_await(PyObject *self)
{
    return slot_am_generic(self, _Py_ID(__await__));
}

static PyObject *
slot_am_aiter(PyObject *self)
{
    return slot_am_generic(self, _Py_ID(__aiter__));
}

static PyObject *
slot_am_anext(PyObject *self)
{
    return slot_am_generic(self, _Py_ID(__anext__));
}

/* ---- The table ------------------------------------------------------------------------ */

#define SIG_SELF(NAME) NAME "($self, /)\n--\n\n"
#define SIG_VALUE(NAME) NAME "($self, value, /)\n--\n\n"

#define TPSLOT(NAME, SLOT, FUNCTION, WRAPPER, DOC) \
    {NAME, offsetof(PyTypeObject, SLOT), (void *)(FUNCTION), WRAPPER, DOC, 0, NULL}
#define FLSLOT(NAME, SLOT, FUNCTION, WRAPPER, DOC, FLAGS) \
    {NAME, offsetof(PyTypeObject, SLOT), (void *)(FUNCTION), (wrapperfunc)(void (*)(void))(WRAPPER), DOC, FLAGS, NULL}
#define ETSLOT(NAME, SLOT, FUNCTION, WRAPPER, DOC) \
    {NAME, offsetof(PyHeapTypeObject, SLOT), (void *)(FUNCTION), WRAPPER, DOC, 0, NULL}
#define AMSLOT(NAME, SLOT, FUNCTION, WRAPPER, DOC) ETSLOT(NAME, as_async.SLOT, FUNCTION, WRAPPER, DOC)
#define SQSLOT(NAME, SLOT, FUNCTION, WRAPPER, DOC) ETSLOT(NAME, as_sequence.SLOT, FUNCTION, WRAPPER, DOC)
#define MPSLOT(NAME, SLOT, FUNCTION, WRAPPER, DOC) ETSLOT(NAME, as_mapping.SLOT, FUNCTION, WRAPPER, DOC)
#define NBSLOT(NAME, SLOT, FUNCTION, WRAPPER, DOC) ETSLOT(NAME, as_number.SLOT, FUNCTION, WRAPPER, DOC)
#define UNSLOT(NAME, SLOT, FUNCTION, DOC) \
    NBSLOT(NAME, SLOT, FUNCTION, wrap_unaryfunc, SIG_SELF(NAME) DOC)
#define IBSLOT(NAME, SLOT, FUNCTION, DOC) \
    NBSLOT(NAME, SLOT, FUNCTION, wrap_binaryfunc, SIG_VALUE(NAME) DOC)
#define BINSLOT(NAME, SLOT, FUNCTION, DOC) \
    NBSLOT(NAME, SLOT, FUNCTION, wrap_binaryfunc_l, SIG_VALUE(NAME) DOC)
#define RBINSLOT(NAME, SLOT, FUNCTION, DOC) \
    NBSLOT(NAME, SLOT, FUNCTION, wrap_binaryfunc_r, SIG_VALUE(NAME) DOC)

static slotdef slotdefs[] = {
    TPSLOT("__repr__", tp_repr, slot_tp_repr, wrap_unaryfunc, SIG_SELF("__repr__") "repr(self)"),
    TPSLOT("__hash__", tp_hash, slot_tp_hash, wrap_hashfunc, SIG_SELF("__hash__") "hash(self)"),
    FLSLOT("__call__", tp_call, slot_tp_call, wrap_call,
           "__call__($self, /, *args, **kwargs)\n--\n\nself(*args, **kwargs)",
           PyWrapperFlag_KEYWORDS),
    TPSLOT("__str__", tp_str, slot_tp_str, wrap_unaryfunc, SIG_SELF("__str__") "str(self)"),
    TPSLOT("__getattribute__", tp_getattro, _Py_slot_tp_getattr_hook, wrap_binaryfunc,
           "__getattribute__($self, name, /)\n--\n\ngetattr(self, name)"),
    TPSLOT("__getattr__", tp_getattro, _Py_slot_tp_getattr_hook, NULL, ""),
    TPSLOT("__setattr__", tp_setattro, slot_tp_setattro, wrap_setattr,
           "__setattr__($self, name, value, /)\n--\n\nself.name = value"),
    TPSLOT("__delattr__", tp_setattro, slot_tp_setattro, wrap_delattr,
           "__delattr__($self, name, /)\n--\n\ndel self.name"),
    TPSLOT("__lt__", tp_richcompare, slot_tp_richcompare, richcmp_lt,
           SIG_VALUE("__lt__") "self < value"),
    TPSLOT("__le__", tp_richcompare, slot_tp_richcompare, richcmp_le,
           SIG_VALUE("__le__") "self <= value"),
    TPSLOT("__eq__", tp_richcompare, slot_tp_richcompare, richcmp_eq,
           SIG_VALUE("__eq__") "self == value"),
    TPSLOT("__ne__", tp_richcompare, slot_tp_richcompare, richcmp_ne,
           SIG_VALUE("__ne__") "self != value"),
    TPSLOT("__gt__", tp_richcompare, slot_tp_richcompare, richcmp_gt,
           SIG_VALUE("__gt__") "self > value"),
    TPSLOT("__ge__", tp_richcompare, slot_tp_richcompare, richcmp_ge,
           SIG_VALUE("__ge__") "self >= value"),
    TPSLOT("__iter__", tp_iter, slot_tp_iter, wrap_unaryfunc, SIG_SELF("__iter__") "iter(self)"),
    TPSLOT("__next__", tp_iternext, slot_tp_iternext, wrap_next,
           SIG_SELF("__next__") "next(self)"),
    TPSLOT("__get__", tp_descr_get, slot_tp_descr_get, wrap_descr_get,
           "__get__($self, instance, owner=None, /)\n--\n\nBind the attribute to instance."),
    TPSLOT("__set__", tp_descr_set, slot_tp_descr_set, wrap_descr_set,
           "__set__($self, instance, value, /)\n--\n\nSet the attribute of instance."),
    TPSLOT("__delete__", tp_descr_set, slot_tp_descr_set, wrap_descr_delete,
           "__delete__($self, instance, /)\n--\n\nDelete the attribute of instance."),
    FLSLOT("__init__", tp_init, slot_tp_init, wrap_init,
           "__init__($self, /, *args, **kwargs)\n--\n\nInitialize self; see help(type(self)).",
           PyWrapperFlag_KEYWORDS),
    TPSLOT("__new__", tp_new, slot_tp_new, NULL,
           "__new__(type, /, *args, **kwargs)\n--\n\nCreate a new instance of type."),
    TPSLOT("__del__", tp_finalize, slot_tp_finalize, wrap_del,
           "__del__($self, /)\n--\n\nCalled when the instance is about to be destroyed."),

    AMSLOT("__await__", am_await, slot_am_await, wrap_unaryfunc,
           SIG_SELF("__await__") "An iterator to be used in await expressions."),
    AMSLOT("__aiter__", am_aiter, slot_am_aiter, wrap_unaryfunc,
           SIG_SELF("__aiter__") "An asynchronous iterator."),
    AMSLOT("__anext__", am_anext, slot_am_anext, wrap_unaryfunc,
           SIG_SELF("__anext__") "The next value of an asynchronous iterator."),

    BINSLOT("__add__", nb_add, slot_nb_add, "self + value"),
    RBINSLOT("__radd__", nb_add, slot_nb_add, "value + self"),
    BINSLOT("__sub__", nb_subtract, slot_nb_subtract, "self - value"),
    RBINSLOT("__rsub__", nb_subtract, slot_nb_subtract, "value - self"),
    BINSLOT("__mul__", nb_multiply, slot_nb_multiply, "self * value"),
    RBINSLOT("__rmul__", nb_multiply, slot_nb_multiply, "value * self"),
    BINSLOT("__mod__", nb_remainder, slot_nb_remainder, "self % value"),
    RBINSLOT("__rmod__", nb_remainder, slot_nb_remainder, "value % self"),
    BINSLOT("__divmod__", nb_divmod, slot_nb_divmod, "divmod(self, value)"),
    RBINSLOT("__rdivmod__", nb_divmod, slot_nb_divmod, "divmod(value, self)"),
    NBSLOT("__pow__", nb_power, slot_nb_power, wrap_ternaryfunc,
           "__pow__($self, value, mod=None, /)\n--\n\npow(self, value, mod)"),
    NBSLOT("__rpow__", nb_power, slot_nb_power, wrap_ternaryfunc_r,
           "__rpow__($self, value, mod=None, /)\n--\n\npow(value, self, mod)"),
    UNSLOT("__neg__", nb_negative, slot_nb_negative, "-self"),
    UNSLOT("__pos__", nb_positive, slot_nb_positive, "+self"),
    UNSLOT("__abs__", nb_absolute, slot_nb_absolute, "abs(self)"),
    NBSLOT("__bool__", nb_bool, slot_nb_bool, wrap_inquirypred,
           SIG_SELF("__bool__") "True if self else False"),
    UNSLOT("__invert__", nb_invert, slot_nb_invert, "~self"),
    BINSLOT("__lshift__", nb_lshift, slot_nb_lshift, "self << value"),
    RBINSLOT("__rlshift__", nb_lshift, slot_nb_lshift, "value << self"),
    BINSLOT("__rshift__", nb_rshift, slot_nb_rshift, "self >> value"),
    RBINSLOT("__rrshift__", nb_rshift, slot_nb_rshift, "value >> self"),
    BINSLOT("__and__", nb_and, slot_nb_and, "self & value"),
    RBINSLOT("__rand__", nb_and, slot_nb_and, "value & self"),
    BINSLOT("__xor__", nb_xor, slot_nb_xor, "self ^ value"),
    RBINSLOT("__rxor__", nb_xor, slot_nb_xor, "value ^ self"),
    BINSLOT("__or__", nb_or, slot_nb_or, "self | value"),
    RBINSLOT("__ror__", nb_or, slot_nb_or, "value | self"),
    UNSLOT("__int__", nb_int, slot_nb_int, "int(self)"),
    UNSLOT("__float__", nb_float, slot_nb_float, "float(self)"),
    IBSLOT("__iadd__", nb_inplace_add, slot_nb_inplace_add, "self += value"),
    IBSLOT("__isub__", nb_inplace_subtract, slot_nb_inplace_subtract, "self -= value"),
    IBSLOT("__imul__", nb_inplace_multiply, slot_nb_inplace_multiply, "self *= value"),
    IBSLOT("__imod__", nb_inplace_remainder, slot_nb_inplace_remainder, "self %= value"),
    IBSLOT("__ipow__", nb_inplace_power, slot_nb_inplace_power, "self **= value"),
    IBSLOT("__ilshift__", nb_inplace_lshift, slot_nb_inplace_lshift, "self <<= value"),
    IBSLOT("__irshift__", nb_inplace_rshift, slot_nb_inplace_rshift, "self >>= value"),
    IBSLOT("__iand__", nb_inplace_and, slot_nb_inplace_and, "self &= value"),
    IBSLOT("__ixor__", nb_inplace_xor, slot_nb_inplace_xor, "self ^= value"),
    IBSLOT("__ior__", nb_inplace_or, slot_nb_inplace_or, "self |= value"),
    BINSLOT("__floordiv__", nb_floor_divide, slot_nb_floor_divide, "self // value"),
    RBINSLOT("__rfloordiv__", nb_floor_divide, slot_nb_floor_divide, "value // self"),
    BINSLOT("__truediv__", nb_true_divide, slot_nb_true_divide, "self / value"),
    RBINSLOT("__rtruediv__", nb_true_divide, slot_nb_true_divide, "value / self"),
    IBSLOT("__ifloordiv__", nb_inplace_floor_divide, slot_nb_inplace_floor_divide,
           "self //= value"),
    IBSLOT("__itruediv__", nb_inplace_true_divide, slot_nb_inplace_true_divide,
           "self /= value"),
    NBSLOT("__index__", nb_index, slot_nb_index, wrap_unaryfunc,
           SIG_SELF("__index__") "self as an integer, for slicing and indexing"),
    BINSLOT("__matmul__", nb_matrix_multiply, slot_nb_matrix_multiply, "self @ value"),
    RBINSLOT("__rmatmul__", nb_matrix_multiply, slot_nb_matrix_multiply, "value @ self"),
    IBSLOT("__imatmul__", nb_inplace_matrix_multiply, slot_nb_inplace_matrix_multiply,
           "self @= value"),

    MPSLOT("__len__", mp_length, slot_sq_length, wrap_lenfunc, SIG_SELF("__len__") "len(self)"),
    MPSLOT("__getitem__", mp_subscript, slot_mp_subscript, wrap_binaryfunc,
           "__getitem__($self, key, /)\n--\n\nself[key]"),
    MPSLOT("__setitem__", mp_ass_subscript, slot_mp_ass_subscript, wrap_objobjargproc,
           "__setitem__($self, key, value, /)\n--\n\nself[key] = value"),
    MPSLOT("__delitem__", mp_ass_subscript, slot_mp_ass_subscript, wrap_delitem,
           "__delitem__($self, key, /)\n--\n\ndel self[key]"),

    SQSLOT("__len__", sq_length, slot_sq_length, wrap_lenfunc, SIG_SELF("__len__") "len(self)"),
    /* Heap types implement + and * through the number slots; these entries
       only expose static types' sequence slots. */
    SQSLOT("__add__", sq_concat, NULL, wrap_binaryfunc, SIG_VALUE("__add__") "self + value"),
    SQSLOT("__mul__", sq_repeat, NULL, wrap_indexargfunc, SIG_VALUE("__mul__") "self * value"),
    SQSLOT("__rmul__", sq_repeat, NULL, wrap_indexargfunc, SIG_VALUE("__rmul__") "value * self"),
    SQSLOT("__getitem__", sq_item, slot_sq_item, wrap_sq_item,
           "__getitem__($self, key, /)\n--\n\nself[key]"),
    SQSLOT("__setitem__", sq_ass_item, slot_sq_ass_item, wrap_sq_setitem,
           "__setitem__($self, key, value, /)\n--\n\nself[key] = value"),
    SQSLOT("__delitem__", sq_ass_item, slot_sq_ass_item, wrap_sq_delitem,
           "__delitem__($self, key, /)\n--\n\ndel self[key]"),
    SQSLOT("__contains__", sq_contains, slot_sq_contains, wrap_objobjproc,
           "__contains__($self, key, /)\n--\n\nkey in self"),
    SQSLOT("__iadd__", sq_inplace_concat, NULL, wrap_binaryfunc,
           SIG_VALUE("__iadd__") "self += value"),
    SQSLOT("__imul__", sq_inplace_repeat, NULL, wrap_indexargfunc,
           SIG_VALUE("__imul__") "self *= value"),

    {NULL, 0, NULL, NULL, NULL, 0, NULL},
};

static int slotdefs_ready;

static int
init_slotdefs(void)
{
    if (slotdefs_ready) {
        return 0;
    }
    for (slotdef *p = slotdefs; p->name != NULL; p++) {
        p->name_strobj = _PyUnicode_InternImmortal(p->name);
        if (p->name_strobj == NULL) {
            return -1;
        }
    }
    slotdefs_ready = 1;
    return 0;
}

/* Where a slot lives for this type: in the type object itself, or in one
   of its method tables (which a static type may not have). */
static void **
slotptr(PyTypeObject *type, int ioffset)
{
    size_t offset = (size_t)ioffset;
    char *ptr;
    if (offset >= offsetof(PyHeapTypeObject, as_buffer)) {
        ptr = (char *)type->tp_as_buffer;
        offset -= offsetof(PyHeapTypeObject, as_buffer);
    }
    else if (offset >= offsetof(PyHeapTypeObject, as_sequence)) {
        ptr = (char *)type->tp_as_sequence;
        offset -= offsetof(PyHeapTypeObject, as_sequence);
    }
    else if (offset >= offsetof(PyHeapTypeObject, as_mapping)) {
        ptr = (char *)type->tp_as_mapping;
        offset -= offsetof(PyHeapTypeObject, as_mapping);
    }
    else if (offset >= offsetof(PyHeapTypeObject, as_number)) {
        ptr = (char *)type->tp_as_number;
        offset -= offsetof(PyHeapTypeObject, as_number);
    }
    else if (offset >= offsetof(PyHeapTypeObject, as_async)) {
        ptr = (char *)type->tp_as_async;
        offset -= offsetof(PyHeapTypeObject, as_async);
    }
    else {
        ptr = (char *)type;
    }
    if (ptr != NULL) {
        ptr += offset;
    }
    return (void **)ptr;
}

/* ---- C slots to wrappers ------------------------------------------------------------- */

int
_PyType_AddOperators(PyTypeObject *type)
{
    if (init_slotdefs() < 0) {
        return -1;
    }
    PyObject *dict = type->tp_dict;
    for (slotdef *p = slotdefs; p->name != NULL; p++) {
        if (p->wrapper == NULL) {
            continue;
        }
        void **ptr = slotptr(type, p->offset);
        if (ptr == NULL || *ptr == NULL) {
            continue;
        }
        int rc = PyDict_Contains(dict, p->name_strobj);
        if (rc < 0) {
            return -1;
        }
        if (rc > 0) {
            continue;
        }
        if (*ptr == (void *)PyObject_HashNotImplemented) {
            /* The type says "unhashable": __hash__ = None. */
            rc = PyDict_SetItem(dict, p->name_strobj, Py_None);
        }
        else {
            PyObject *descr = PyDescr_NewWrapper(type, p, *ptr);
            if (descr == NULL) {
                return -1;
            }
            rc = PyDict_SetItem(dict, p->name_strobj, descr);
            Py_DECREF(descr);
        }
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- Dunders to C slots --------------------------------------------------------------- */

/* Of the slots that `name` can feed, the only one this type has filled, or
   NULL if none or several are.  Keeps a dict subclass from growing an
   sq_item (and so becoming a "sequence") just because dict's __getitem__
   feeds mp_subscript. */
static void **
resolve_slotdups(PyTypeObject *type, PyObject *name)
{
    void **res = NULL;
    for (slotdef *p = slotdefs; p->name != NULL; p++) {
        if (p->name_strobj != name) {
            continue;
        }
        void **ptr = slotptr(type, p->offset);
        if (ptr == NULL || *ptr == NULL) {
            continue;
        }
        if (res != NULL) {
            return NULL;
        }
        res = ptr;
    }
    return res;
}

static PyObject *
find_in_mro(PyTypeObject *type, PyObject *name)
{
    int error;
    PyObject *res = _PyType_LookupNoCache(type, name, &error);
    if (error) {
        PyErr_Clear();
        return NULL;
    }
    return res;
}

/* Set one C slot from the dunders that feed it (a group of adjacent table
   entries).  If every dunder found is a wrapper around the same C
   function of a base, use that function directly ("specific"); otherwise
   use the generic slot function that calls the dunder. */
static slotdef *
update_one_slot(PyTypeObject *type, slotdef *p)
{
    void *generic = NULL, *specific = NULL;
    int use_generic = 0;
    int offset = p->offset;
    void **ptr = slotptr(type, offset);
    if (ptr == NULL) {
        do {
            ++p;
        } while (p->offset == offset);
        return p;
    }
    do {
        PyObject *descr = find_in_mro(type, p->name_strobj);
        if (descr == NULL) {
            continue;
        }
        if (Py_IS_TYPE(descr, &PyWrapperDescr_Type) &&
            ((PyWrapperDescrObject *)descr)->d_base->name_strobj == p->name_strobj) {
            PyWrapperDescrObject *d = (PyWrapperDescrObject *)descr;
            void **tptr = resolve_slotdups(type, p->name_strobj);
            if (tptr == NULL || tptr == ptr) {
                generic = p->function;
            }
            if ((specific == NULL || specific == d->d_wrapped) && d->d_base->wrapper == p->wrapper &&
                PyType_IsSubtype(type, PyDescr_TYPE(d))) {
                specific = d->d_wrapped;
            }
            else {
                use_generic = 1;
            }
        }
        else if (ptr == (void **)&type->tp_new && _PyType_IsNewWrapper(descr)) {
            /* A builtin __new__: tp_new was inherited from the right base
               by PyType_Ready. */
            specific = (void *)type->tp_new;
        }
        else if (descr == Py_None && ptr == (void **)&type->tp_hash) {
            specific = (void *)PyObject_HashNotImplemented;
        }
        else {
            use_generic = 1;
            generic = p->function;
        }
    } while ((++p)->offset == offset);
    if (specific != NULL && !use_generic) {
        *ptr = specific;
    }
    else {
        *ptr = generic;
    }
    return p;
}

void
_PyType_FixIterItem(PyTypeObject *type)
{
    PyObject *mro = type->tp_mro;
    type->_tp_iteritem = NULL;
    if (type->tp_iter == NULL || mro == NULL) {
        return;
    }
    for (Py_ssize_t i = 1; i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (base->_tp_iteritem != NULL && base->tp_iter == type->tp_iter) {
            type->_tp_iteritem = base->_tp_iteritem;
            return;
        }
    }
}

void
_PyType_FixupSlotDispatchers(PyTypeObject *type)
{
    if (init_slotdefs() < 0) {
        PyErr_Clear();
        return;
    }
    for (slotdef *p = slotdefs; p->name != NULL;) {
        p = update_one_slot(type, p);
    }
    _PyType_FixIterItem(type);
}

int
_PyType_IsSlotName(PyObject *name)
{
    if (init_slotdefs() < 0) {
        PyErr_Clear();
        return 0;
    }
    if (!PyUnicode_Check(name) || PyUnicode_GET_LENGTH(name) < 5 ||
        PyUnicode_READ_CHAR(name, 0) != '_' || PyUnicode_READ_CHAR(name, 1) != '_') {
        return 0;
    }
    for (slotdef *p = slotdefs; p->name != NULL; p++) {
        if (p->name_strobj == name || PyUnicode_Equal(p->name_strobj, name) == 1) {
            return 1;
        }
    }
    return 0;
}

static slotdef *
first_of_group(int offset)
{
    for (slotdef *p = slotdefs; p->name != NULL; p++) {
        if (p->offset == offset) {
            return p;
        }
    }
    return NULL;
}

static void
update_slot_recursive(PyTypeObject *type, slotdef *group)
{
    if (!PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        return;
    }
    update_one_slot(type, group);
    if (group->offset == (int)offsetof(PyTypeObject, tp_iter)) {
        _PyType_FixIterItem(type);
    }
    PyObject *subclasses = _PyType_GetSubclasses(type);
    if (subclasses == NULL) {
        PyErr_Clear();
        return;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(subclasses); i++) {
        update_slot_recursive((PyTypeObject *)PyList_GET_ITEM(subclasses, i), group);
    }
    Py_DECREF(subclasses);
}

int
_PyType_UpdateSlot(PyTypeObject *type, PyObject *name)
{
    if (init_slotdefs() < 0) {
        return -1;
    }
    for (slotdef *p = slotdefs; p->name != NULL; p++) {
        if (p->name_strobj == name || PyUnicode_Equal(p->name_strobj, name) == 1) {
            update_slot_recursive(type, first_of_group(p->offset));
        }
    }
    return 0;
}
