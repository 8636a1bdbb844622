/* The _operator module: Python's operators as functions, plus the
   itemgetter, attrgetter and methodcaller callables.  operator.py imports
   all of it over its pure-Python definitions and adds the __dunder__
   aliases itself. */

#include "Python.h"
#include "pycore_object.h"

/* ---- Functions for the operators --------------------------------------------------------
   The one- and two-operand operators are stamped out from one table each:
   every entry becomes a METH_O or METH_FASTCALL function calling the
   abstract-object API function named in it. */

#define OPERATOR_UNARY(X)                                                                \
    X(abs, PyNumber_Absolute, "Same as abs(a).")                                         \
    X(inv, PyNumber_Invert, "Same as ~a.")                                               \
    X(invert, PyNumber_Invert, "Same as ~a.")                                            \
    X(neg, PyNumber_Negative, "Same as -a.")                                             \
    X(pos, PyNumber_Positive, "Same as +a.")                                             \
    X(index, PyNumber_Index, "Same as a.__index__().")

#define OPERATOR_BINARY(X)                                                               \
    X(add, PyNumber_Add, "Same as a + b.")                                               \
    X(sub, PyNumber_Subtract, "Same as a - b.")                                          \
    X(mul, PyNumber_Multiply, "Same as a * b.")                                          \
    X(matmul, PyNumber_MatrixMultiply, "Same as a @ b.")                                 \
    X(floordiv, PyNumber_FloorDivide, "Same as a // b.")                                 \
    X(truediv, PyNumber_TrueDivide, "Same as a / b.")                                    \
    X(mod, PyNumber_Remainder, "Same as a % b.")                                         \
    X(lshift, PyNumber_Lshift, "Same as a << b.")                                        \
    X(rshift, PyNumber_Rshift, "Same as a >> b.")                                        \
    X(and_, PyNumber_And, "Same as a & b.")                                              \
    X(xor, PyNumber_Xor, "Same as a ^ b.")                                               \
    X(or_, PyNumber_Or, "Same as a | b.")                                                \
    X(pow, power2, "Same as a ** b.")                                                    \
    X(iadd, PyNumber_InPlaceAdd, "Same as a += b.")                                      \
    X(isub, PyNumber_InPlaceSubtract, "Same as a -= b.")                                 \
    X(imul, PyNumber_InPlaceMultiply, "Same as a *= b.")                                 \
    X(imatmul, PyNumber_InPlaceMatrixMultiply, "Same as a @= b.")                        \
    X(ifloordiv, PyNumber_InPlaceFloorDivide, "Same as a //= b.")                        \
    X(itruediv, PyNumber_InPlaceTrueDivide, "Same as a /= b.")                           \
    X(imod, PyNumber_InPlaceRemainder, "Same as a %= b.")                                \
    X(ilshift, PyNumber_InPlaceLshift, "Same as a <<= b.")                               \
    X(irshift, PyNumber_InPlaceRshift, "Same as a >>= b.")                               \
    X(iand, PyNumber_InPlaceAnd, "Same as a &= b.")                                      \
    X(ixor, PyNumber_InPlaceXor, "Same as a ^= b.")                                      \
    X(ior, PyNumber_InPlaceOr, "Same as a |= b.")                                        \
    X(ipow, ipower2, "Same as a **= b.")                                                 \
    X(concat, concat2, "Same as a + b, for a and b sequences.")                          \
    X(iconcat, iconcat2, "Same as a += b, for a and b sequences.")                       \
    X(getitem, PyObject_GetItem, "Same as a[b].")                                        \
    X(lt, lt2, "Same as a < b.")                                                         \
    X(le, le2, "Same as a <= b.")                                                        \
    X(eq, eq2, "Same as a == b.")                                                        \
    X(ne, ne2, "Same as a != b.")                                                        \
    X(gt, gt2, "Same as a > b.")                                                         \
    X(ge, ge2, "Same as a >= b.")                                                        \
    X(is_, is2, "Same as a is b.")                                                       \
    X(is_not, isnot2, "Same as a is not b.")                                             \
    X(contains, contains2, "Same as b in a (note the reversed operands).")               \
    X(countOf, count_of, "How many items of a equal b.")                                 \
    X(indexOf, index_of, "Position of the first item of a that equals b.")

static PyObject *
power2(PyObject *a, PyObject *b)
{
    return PyNumber_Power(a, b, Py_None);
}

static PyObject *
ipower2(PyObject *a, PyObject *b)
{
    return PyNumber_InPlacePower(a, b, Py_None);
}

/* Only sequences concatenate: a number's + is not accepted here. */
static int
check_concatenable(PyObject *a)
{
    PySequenceMethods *sq = Py_TYPE(a)->tp_as_sequence;
    if (sq == NULL || sq->sq_item == NULL) {
        if (!PyObject_HasAttrString(a, "__getitem__")) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object can't be concatenated", Py_TYPE(a)->tp_name);
            return 0;
        }
    }
    return 1;
}

static PyObject *
concat2(PyObject *a, PyObject *b)
{
    return check_concatenable(a) ? PyNumber_Add(a, b) : NULL;
}

static PyObject *
iconcat2(PyObject *a, PyObject *b)
{
    return check_concatenable(a) ? PyNumber_InPlaceAdd(a, b) : NULL;
}

#define RICH(NAME, OP)                          \
    static PyObject *NAME(PyObject *a, PyObject *b) \
    {                                           \
        return PyObject_RichCompare(a, b, OP);  \
    }
RICH(lt2, Py_LT)
RICH(le2, Py_LE)
RICH(eq2, Py_EQ)
RICH(ne2, Py_NE)
RICH(gt2, Py_GT)
RICH(ge2, Py_GE)
#undef RICH

static PyObject *
is2(PyObject *a, PyObject *b)
{
    return PyBool_FromLong(a == b);
}

static PyObject *
isnot2(PyObject *a, PyObject *b)
{
    return PyBool_FromLong(a != b);
}

static PyObject *
contains2(PyObject *a, PyObject *b)
{
    int r = PySequence_Contains(a, b);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

/* Walk iter(a) comparing with b (identity first, like `in`): the count of
   matches, or with stop_at_first the index of the first; -1 when none,
   -2 on error. */
static Py_ssize_t
scan_for(PyObject *a, PyObject *b, int stop_at_first)
{
    PyObject *it = PyObject_GetIter(a);
    if (it == NULL) {
        return -2;
    }
    Py_ssize_t pos = 0, hits = 0;
    PyObject *item;
    int r;
    while ((r = PyIter_NextItem(it, &item)) > 0) {
        int eq = item == b ? 1 : PyObject_RichCompareBool(item, b, Py_EQ);
        Py_DECREF(item);
        if (eq < 0) {
            r = -1;
            break;
        }
        if (eq && stop_at_first) {
            Py_DECREF(it);
            return pos;
        }
        hits += eq;
        pos++;
    }
    Py_DECREF(it);
    if (r < 0) {
        return -2;
    }
    return stop_at_first ? -1 : hits;
}

static PyObject *
count_of(PyObject *a, PyObject *b)
{
    Py_ssize_t n = scan_for(a, b, 0);
    return n == -2 ? NULL : PyLong_FromSsize_t(n);
}

static PyObject *
index_of(PyObject *a, PyObject *b)
{
    Py_ssize_t n = scan_for(a, b, 1);
    if (n == -1) {
        PyErr_SetString(PyExc_ValueError, "sequence.index(x): x not in sequence");
        return NULL;
    }
    return n == -2 ? NULL : PyLong_FromSsize_t(n);
}

#define MAKE_UNARY(NAME, FUNC, DOC)                                                      \
    static PyObject *op_##NAME(PyObject *m, PyObject *a)                                 \
    {                                                                                    \
        return FUNC(a);                                                                  \
    }
#define MAKE_BINARY(NAME, FUNC, DOC)                                                     \
    static PyObject *op_##NAME(PyObject *m, PyObject *const *args, Py_ssize_t nargs)     \
    {                                                                                    \
        if (!_PyArg_CheckPositional(#NAME, nargs, 2, 2)) {                               \
            return NULL;                                                                 \
        }                                                                                \
        return FUNC(args[0], args[1]);                                                   \
    }
OPERATOR_UNARY(MAKE_UNARY)
OPERATOR_BINARY(MAKE_BINARY)
#undef MAKE_UNARY
#undef MAKE_BINARY

static PyObject *
op_not_(PyObject *m, PyObject *a)
{
    int r = PyObject_Not(a);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *
op_truth(PyObject *m, PyObject *a)
{
    int r = PyObject_IsTrue(a);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *
op_is_none(PyObject *m, PyObject *a)
{
    return PyBool_FromLong(a == Py_None);
}

static PyObject *
op_is_not_none(PyObject *m, PyObject *a)
{
    return PyBool_FromLong(a != Py_None);
}

static PyObject *
op_setitem(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("setitem", nargs, 3, 3) || PyObject_SetItem(args[0], args[1], args[2]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
op_delitem(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("delitem", nargs, 2, 2) || PyObject_DelItem(args[0], args[1]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
op_call(PyObject *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "call() missing required argument 'obj' (pos 1)");
        return NULL;
    }
    return PyObject_Vectorcall(args[0], args + 1, nargs - 1, kwnames);
}

/* __length_hint__ protocol: len() if there is one, else the hint. */
static PyObject *
op_length_hint(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("length_hint", nargs, 1, 2)) {
        return NULL;
    }
    Py_ssize_t dflt = 0;
    if (nargs == 2) {
        if (!PyLong_Check(args[1])) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer",
                         Py_TYPE(args[1])->tp_name);
            return NULL;
        }
        dflt = PyLong_AsSsize_t(args[1]);
        if (dflt == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_ssize_t n = PyObject_LengthHint(args[0], dflt);
    return n == -1 && PyErr_Occurred() ? NULL : PyLong_FromSsize_t(n);
}

/* Bytes of a str (ASCII only) or of a buffer, for _compare_digest. */
static int
digest_view(PyObject *o, int as_text, Py_buffer *view, const char **data, Py_ssize_t *len)
{
    if (as_text) {
        view->obj = NULL;
        *data = PyUnicode_AsUTF8AndSize(o, len);
        return *data ? 0 : -1;
    }
    if (PyObject_GetBuffer(o, view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    *data = view->buf;
    *len = view->len;
    return 0;
}

static int
all_ascii(const char *s, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if ((unsigned char)s[i] >= 128) {
            return 0;
        }
    }
    return 1;
}

/* Equal-or-not in time that depends only on the length of b. */
static int
timing_safe_equal(const char *a, Py_ssize_t la, const char *b, Py_ssize_t lb)
{
    const volatile unsigned char *left = (const unsigned char *)(la == lb ? a : b);
    const volatile unsigned char *right = (const unsigned char *)b;
    unsigned char diff = la == lb ? 0 : 1;
    for (Py_ssize_t i = 0; i < lb; i++) {
        diff |= left[i] ^ right[i];
    }
    return diff == 0;
}

static PyObject *
op_compare_digest(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_compare_digest", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *a = args[0], *b = args[1];
    int strs = PyUnicode_Check(a) + PyUnicode_Check(b);
    if (strs < 2 && !PyObject_CheckBuffer(a) && !PyObject_CheckBuffer(b)) {
        PyErr_Format(PyExc_TypeError, "unsupported operand types(s) or combination of types: '%.100s' and '%.100s'",
                     Py_TYPE(a)->tp_name, Py_TYPE(b)->tp_name);
        return NULL;
    }
    Py_buffer va, vb;
    const char *da, *db;
    Py_ssize_t la, lb;
    if (digest_view(a, strs == 2, &va, &da, &la) < 0) {
        return NULL;
    }
    if (digest_view(b, strs == 2, &vb, &db, &lb) < 0) {
        if (va.obj) {
            PyBuffer_Release(&va);
        }
        return NULL;
    }
    PyObject *res = NULL;
    if (strs == 2 && (!all_ascii(da, la) || !all_ascii(db, lb))) {
        PyErr_SetString(PyExc_TypeError, "comparing strings with non-ASCII characters is not supported");
    }
    else {
        res = PyBool_FromLong(timing_safe_equal(da, la, db, lb));
    }
    if (va.obj) {
        PyBuffer_Release(&va);
    }
    if (vb.obj) {
        PyBuffer_Release(&vb);
    }
    return res;
}

/* ---- itemgetter, attrgetter, methodcaller ----------------------------------------------
   All three keep their arguments in a tuple `spec` (for attrgetter, each
   name pre-split at the dots into a tuple of interned parts) plus, for
   methodcaller, the keyword arguments. */

typedef struct {
    PyObject_HEAD
    PyObject *spec;   /* the items / split names / (name, *args) */
    PyObject *given;  /* attrgetter: the names as passed, for repr and pickling */
    PyObject *kwargs; /* methodcaller only; may be NULL */
    vectorcallfunc vectorcall;
} getterobject;

#define GT(op) ((getterobject *)(op))

static PyTypeObject itemgetter_type;
static PyTypeObject attrgetter_type;
static PyTypeObject methodcaller_type;

static getterobject *
getter_alloc(PyTypeObject *type, PyObject *spec)
{
    getterobject *g = PyObject_GC_New(getterobject, type);
    if (g == NULL) {
        Py_DECREF(spec);
        return NULL;
    }
    g->spec = spec;
    g->given = NULL;
    g->kwargs = NULL;
    g->vectorcall = NULL;
    PyObject_GC_Track((PyObject *)g);
    return g;
}

static void
getter_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_XDECREF(GT(self)->spec);
    Py_XDECREF(GT(self)->given);
    Py_XDECREF(GT(self)->kwargs);
    PyObject_GC_Del(self);
}

static int
getter_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(GT(self)->spec);
    Py_VISIT(GT(self)->given);
    Py_VISIT(GT(self)->kwargs);
    return 0;
}

/* Exactly one positional argument `obj` for the getters' calls. */
static PyObject *
single_arg(const char *who, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (!_PyArg_NoKwnames(who, kwnames) || !_PyArg_CheckPositional(who, nargs, 1, 1)) {
        return NULL;
    }
    return args[0];
}

/* "operator.NAME(arg, arg, ...)" from the reprs of a tuple's items. */
static PyObject *
repr_call(PyObject *self, PyObject *items, PyObject *kwargs)
{
    int busy = Py_ReprEnter(self);
    if (busy != 0) {
        return busy > 0 ? PyUnicode_FromFormat("%s(...)", Py_TYPE(self)->tp_name) : NULL;
    }
    PyObject *parts = PyList_New(0);
    PyObject *res = NULL;
    if (parts == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
        PyObject *r = PyObject_Repr(PyTuple_GET_ITEM(items, i));
        if (r == NULL || PyList_Append(parts, r) < 0) {
            Py_XDECREF(r);
            goto done;
        }
        Py_DECREF(r);
    }
    if (kwargs != NULL) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(kwargs, &pos, &k, &v)) {
            PyObject *r = PyUnicode_FromFormat("%U=%R", k, v);
            if (r == NULL || PyList_Append(parts, r) < 0) {
                Py_XDECREF(r);
                goto done;
            }
            Py_DECREF(r);
        }
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    if (joined != NULL) {
        res = PyUnicode_FromFormat("%s(%U)", Py_TYPE(self)->tp_name, joined);
        Py_DECREF(joined);
    }
done:
    Py_XDECREF(parts);
    Py_ReprLeave(self);
    return res;
}

/* itemgetter(item, /, *items) */

static PyObject *
itemgetter_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *obj = single_arg("itemgetter", args, nargsf, kwnames);
    if (obj == NULL) {
        return NULL;
    }
    PyObject *spec = GT(self)->spec;
    Py_ssize_t n = PyTuple_GET_SIZE(spec);
    if (n == 1) {
        return PyObject_GetItem(obj, PyTuple_GET_ITEM(spec, 0));
    }
    PyObject *res = PyTuple_New(n);
    for (Py_ssize_t i = 0; res != NULL && i < n; i++) {
        PyObject *v = PyObject_GetItem(obj, PyTuple_GET_ITEM(spec, i));
        if (v == NULL) {
            Py_CLEAR(res);
            break;
        }
        PyTuple_SET_ITEM(res, i, v);
    }
    return res;
}

static PyObject *
itemgetter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (!_PyArg_NoKeywords("itemgetter", kwds)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) == 0) {
        PyErr_SetString(PyExc_TypeError, "itemgetter expected 1 argument, got 0");
        return NULL;
    }
    getterobject *g = getter_alloc(type, Py_NewRef(args));
    if (g != NULL) {
        g->vectorcall = itemgetter_vectorcall;
    }
    return (PyObject *)g;
}

static PyObject *
itemgetter_repr(PyObject *self)
{
    return repr_call(self, GT(self)->spec, NULL);
}

static PyObject *
getter_reduce(PyObject *self, PyObject *unused)
{
    PyObject *args = GT(self)->given ? GT(self)->given : GT(self)->spec;
    return PyTuple_Pack(2, (PyObject *)Py_TYPE(self), args);
}

static PyMethodDef getter_methods[] = {
    {"__reduce__", getter_reduce, METH_NOARGS, "Pickle support."},
    {NULL, NULL},
};

#define GETTER_TYPE_COMMON                                                               \
    .tp_basicsize = sizeof(getterobject), .tp_dealloc = getter_dealloc,                  \
    .tp_vectorcall_offset = offsetof(getterobject, vectorcall), .tp_call = PyVectorcall_Call, \
    .tp_getattro = PyObject_GenericGetAttr,                                              \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,     \
    .tp_traverse = getter_traverse, .tp_free = PyObject_GC_Del

static PyTypeObject itemgetter_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "operator.itemgetter",
    GETTER_TYPE_COMMON,
    .tp_repr = itemgetter_repr,
    .tp_doc = "itemgetter(item, /, *items)\n--\n\n"
              "A callable returning obj[item], or a tuple of obj[i] for several items.",
    .tp_methods = getter_methods,
    .tp_new = itemgetter_new,
};

/* attrgetter(attr, /, *attrs) */

/* ("a", "b", "c") for "a.b.c"; the parts interned, as attribute names. */
static PyObject *
split_dotted(PyObject *name)
{
    PyObject *dot = PyUnicode_FromString(".");
    PyObject *parts = dot ? PyUnicode_Split(name, dot, -1) : NULL;
    Py_XDECREF(dot);
    if (parts == NULL) {
        return NULL;
    }
    PyObject *res = PyList_AsTuple(parts);
    Py_DECREF(parts);
    for (Py_ssize_t i = 0; res != NULL && i < PyTuple_GET_SIZE(res); i++) {
        PyObject *p = PyTuple_GET_ITEM(res, i);
        Py_INCREF(p);
        PyUnicode_InternInPlace(&p);
        Py_SETREF(_PyTuple_ITEMS(res)[i], p);
    }
    return res;
}

static PyObject *
follow_path(PyObject *obj, PyObject *path)
{
    PyObject *cur = Py_NewRef(obj);
    for (Py_ssize_t i = 0; cur != NULL && i < PyTuple_GET_SIZE(path); i++) {
        Py_SETREF(cur, PyObject_GetAttr(cur, PyTuple_GET_ITEM(path, i)));
    }
    return cur;
}

static PyObject *
attrgetter_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *obj = single_arg("attrgetter", args, nargsf, kwnames);
    if (obj == NULL) {
        return NULL;
    }
    PyObject *spec = GT(self)->spec;
    Py_ssize_t n = PyTuple_GET_SIZE(spec);
    if (n == 1) {
        return follow_path(obj, PyTuple_GET_ITEM(spec, 0));
    }
    PyObject *res = PyTuple_New(n);
    for (Py_ssize_t i = 0; res != NULL && i < n; i++) {
        PyObject *v = follow_path(obj, PyTuple_GET_ITEM(spec, i));
        if (v == NULL) {
            Py_CLEAR(res);
            break;
        }
        PyTuple_SET_ITEM(res, i, v);
    }
    return res;
}

static PyObject *
attrgetter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (!_PyArg_NoKeywords("attrgetter", kwds)) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 0) {
        PyErr_SetString(PyExc_TypeError, "attrgetter expected 1 argument, got 0");
        return NULL;
    }
    PyObject *paths = PyTuple_New(n);
    if (paths == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(args, i);
        if (!PyUnicode_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "attribute name must be a string");
            Py_DECREF(paths);
            return NULL;
        }
        PyObject *path = split_dotted(name);
        if (path == NULL) {
            Py_DECREF(paths);
            return NULL;
        }
        PyTuple_SET_ITEM(paths, i, path);
    }
    getterobject *g = getter_alloc(type, paths);
    if (g != NULL) {
        g->given = Py_NewRef(args);
        g->vectorcall = attrgetter_vectorcall;
    }
    return (PyObject *)g;
}

static PyObject *
attrgetter_repr(PyObject *self)
{
    return repr_call(self, GT(self)->given, NULL);
}

static PyTypeObject attrgetter_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "operator.attrgetter",
    GETTER_TYPE_COMMON,
    .tp_repr = attrgetter_repr,
    .tp_doc = "attrgetter(attr, /, *attrs)\n--\n\n"
              "A callable returning obj.attr (dotted names follow a chain), "
              "or a tuple of them for several names.",
    .tp_methods = getter_methods,
    .tp_new = attrgetter_new,
};

/* methodcaller(name, /, *args, **kwargs): spec is (name, *args). */

static PyObject *
methodcaller_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *obj = single_arg("methodcaller", args, nargsf, kwnames);
    if (obj == NULL) {
        return NULL;
    }
    PyObject *spec = GT(self)->spec;
    PyObject *meth = PyObject_GetAttr(obj, PyTuple_GET_ITEM(spec, 0));
    if (meth == NULL) {
        return NULL;
    }
    PyObject *callargs = PyTuple_GetSlice(spec, 1, PyTuple_GET_SIZE(spec));
    PyObject *res = callargs ? PyObject_Call(meth, callargs, GT(self)->kwargs) : NULL;
    Py_XDECREF(callargs);
    Py_DECREF(meth);
    return res;
}

static PyObject *
methodcaller_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) < 1) {
        PyErr_SetString(PyExc_TypeError, "methodcaller needs at least one argument, the method name");
        return NULL;
    }
    PyObject *name = PyTuple_GET_ITEM(args, 0);
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "method name must be a string");
        return NULL;
    }
    Py_INCREF(name);
    PyUnicode_InternInPlace(&name);
    PyObject *spec = PyTuple_New(PyTuple_GET_SIZE(args));
    if (spec == NULL) {
        Py_DECREF(name);
        return NULL;
    }
    PyTuple_SET_ITEM(spec, 0, name);
    for (Py_ssize_t i = 1; i < PyTuple_GET_SIZE(args); i++) {
        PyTuple_SET_ITEM(spec, i, Py_NewRef(PyTuple_GET_ITEM(args, i)));
    }
    getterobject *g = getter_alloc(type, spec);
    if (g == NULL) {
        return NULL;
    }
    g->vectorcall = methodcaller_vectorcall;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        g->kwargs = PyDict_Copy(kwds);
        if (g->kwargs == NULL) {
            Py_DECREF(g);
            return NULL;
        }
    }
    return (PyObject *)g;
}

static PyObject *
methodcaller_repr(PyObject *self)
{
    return repr_call(self, GT(self)->spec, GT(self)->kwargs);
}

/* With keyword arguments the pickle goes through functools.partial, as
   methodcaller's own constructor takes them only as keywords. */
static PyObject *
methodcaller_reduce(PyObject *self, PyObject *unused)
{
    getterobject *g = GT(self);
    if (g->kwargs == NULL || PyDict_GET_SIZE(g->kwargs) == 0) {
        return PyTuple_Pack(2, (PyObject *)Py_TYPE(self), g->spec);
    }
    PyObject *functools = PyImport_ImportModule("functools");
    PyObject *partial = functools ? PyObject_GetAttrString(functools, "partial") : NULL;
    Py_XDECREF(functools);
    if (partial == NULL) {
        return NULL;
    }
    PyObject *pargs = PyTuple_Pack(2, (PyObject *)Py_TYPE(self), PyTuple_GET_ITEM(g->spec, 0));
    PyObject *bound = pargs ? PyObject_Call(partial, pargs, g->kwargs) : NULL;
    Py_XDECREF(pargs);
    Py_DECREF(partial);
    if (bound == NULL) {
        return NULL;
    }
    PyObject *rest = PyTuple_GetSlice(g->spec, 1, PyTuple_GET_SIZE(g->spec));
    PyObject *res = rest ? PyTuple_Pack(2, bound, rest) : NULL;
    Py_XDECREF(rest);
    Py_DECREF(bound);
    return res;
}

static PyMethodDef methodcaller_methods[] = {
    {"__reduce__", methodcaller_reduce, METH_NOARGS, "Pickle support."},
    {NULL, NULL},
};

static PyTypeObject methodcaller_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "operator.methodcaller",
    GETTER_TYPE_COMMON,
    .tp_repr = methodcaller_repr,
    .tp_doc = "methodcaller(name, /, *args, **kwargs)\n--\n\n"
              "A callable that calls obj.name(*args, **kwargs).",
    .tp_methods = methodcaller_methods,
    .tp_new = methodcaller_new,
};

/* ---- The module ------------------------------------------------------------------------- */

#define UNARY_ENTRY(NAME, FUNC, DOC) {#NAME, op_##NAME, METH_O, DOC},
#define BINARY_ENTRY(NAME, FUNC, DOC) {#NAME, (PyCFunction)(void (*)(void))op_##NAME, METH_FASTCALL, DOC},

static PyMethodDef operator_functions[] = {
    OPERATOR_UNARY(UNARY_ENTRY)
    OPERATOR_BINARY(BINARY_ENTRY)
    {"not_", op_not_, METH_O, "Same as not a."},
    {"truth", op_truth, METH_O, "True if a is true, else False."},
    {"is_none", op_is_none, METH_O, "Same as a is None."},
    {"is_not_none", op_is_not_none, METH_O, "Same as a is not None."},
    {"setitem", (PyCFunction)(void (*)(void))op_setitem, METH_FASTCALL, "Same as a[b] = c."},
    {"delitem", (PyCFunction)(void (*)(void))op_delitem, METH_FASTCALL, "Same as del a[b]."},
    {"call", (PyCFunction)(void (*)(void))op_call, METH_FASTCALL | METH_KEYWORDS,
     "call(obj, /, *args, **kwargs)\n--\n\nSame as obj(*args, **kwargs)."},
    {"length_hint", (PyCFunction)(void (*)(void))op_length_hint, METH_FASTCALL,
     "length_hint(obj, default=0, /)\n--\n\nlen(obj) if it has one, else its __length_hint__(), else default."},
    {"_compare_digest", (PyCFunction)(void (*)(void))op_compare_digest, METH_FASTCALL,
     "_compare_digest(a, b, /)\n--\n\nWhether a == b, taking time independent of where they differ."},
    {NULL, NULL},
};

static struct PyModuleDef operator_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_operator",
    .m_doc = "Python's operators as plain functions, and callables that fetch items, "
             "attributes or call methods.",
    .m_size = 0,
    .m_methods = operator_functions,
};

PyMODINIT_FUNC
PyInit__operator(void)
{
    PyTypeObject *types[] = {&itemgetter_type, &attrgetter_type, &methodcaller_type, NULL};
    PyObject *m = PyModule_Create(&operator_module);
    if (m == NULL) {
        return NULL;
    }
    for (PyTypeObject **tp = types; *tp != NULL; tp++) {
        if (_PyStaticType_InitBuiltin(*tp) < 0 || PyModule_AddType(m, *tp) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
