/* Context objects, the current context (a context variable) and
   localcontext's manager.

   A Context keeps its arithmetic limits in an mpd_context_t whose own
   status and traps words are unused: the flags and traps live in two
   signal dicts the context owns, so a dict taken from a context stays
   valid however long it is kept.  Operations pass a local status word to
   libmpdec and hand it to _PyDecContext_Record afterwards. */

#include "decimal.h"
#include "decimal_ops.h"

#define CTX(op) ((PyDecContextObject *)(op))

static PyObject *current_context_var;
PyObject *_PyDec_DefaultContext;
static PyObject *basic_context_template;
static PyObject *extended_context_template;

static const char *const rounding_names[] = {
    [MPD_ROUND_UP] = "ROUND_UP",
    [MPD_ROUND_DOWN] = "ROUND_DOWN",
    [MPD_ROUND_CEILING] = "ROUND_CEILING",
    [MPD_ROUND_FLOOR] = "ROUND_FLOOR",
    [MPD_ROUND_HALF_UP] = "ROUND_HALF_UP",
    [MPD_ROUND_HALF_DOWN] = "ROUND_HALF_DOWN",
    [MPD_ROUND_HALF_EVEN] = "ROUND_HALF_EVEN",
    [MPD_ROUND_05UP] = "ROUND_05UP",
};
#define ROUNDING_COUNT 8

static const char invalid_rounding_message[] =
    "valid values for rounding are:\n"
    "  [ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_DOWN,\n"
    "   ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN,\n"
    "   ROUND_05UP]";

int
_PyDecContext_RoundingFromObject(PyObject *obj, int *round)
{
    if (PyUnicode_Check(obj)) {
        const char *text = PyUnicode_AsUTF8(obj);
        if (text == NULL) {
            return -1;
        }
        for (int i = 0; i < ROUNDING_COUNT; i++) {
            if (strcmp(text, rounding_names[i]) == 0) {
                *round = i;
                return 0;
            }
        }
    }
    PyErr_SetString(PyExc_TypeError, invalid_rounding_message);
    return -1;
}

/* ---- Recording a status ---------------------------------------------------- */

int
_PyDecContext_Record(PyObject *ctx, uint32_t status)
{
    if (status & MPD_Malloc_error) {
        PyErr_NoMemory();
        return -1;
    }
    CTX(ctx)->flags->bits |= status;
    uint32_t trapped = status & CTX(ctx)->traps->bits;
    return trapped ? _PyDecSignals_Raise(trapped) : 0;
}

/* ---- Attribute setters (shared by __init__, setattr and localcontext) ---- */

static int
integer_in_range(PyObject *value, mpd_ssize_t low, mpd_ssize_t high,
                 const char *range_message, mpd_ssize_t *out)
{
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || v < low || v > high) {
        PyErr_SetString(PyExc_ValueError, range_message);
        return -1;
    }
    *out = (mpd_ssize_t)v;
    return 0;
}

static int
set_prec(PyObject *self, PyObject *value)
{
    mpd_ssize_t v;
    if (integer_in_range(value, 1, MPD_MAX_PREC,
                         "valid range for prec is [1, MAX_PREC]", &v) < 0) {
        return -1;
    }
    CTX(self)->limits.prec = v;
    return 0;
}

static int
set_emin(PyObject *self, PyObject *value)
{
    mpd_ssize_t v;
    if (integer_in_range(value, MPD_MIN_EMIN, 0,
                         "valid range for Emin is [MIN_EMIN, 0]", &v) < 0) {
        return -1;
    }
    CTX(self)->limits.emin = v;
    return 0;
}

static int
set_emax(PyObject *self, PyObject *value)
{
    mpd_ssize_t v;
    if (integer_in_range(value, 0, MPD_MAX_EMAX,
                         "valid range for Emax is [0, MAX_EMAX]", &v) < 0) {
        return -1;
    }
    CTX(self)->limits.emax = v;
    return 0;
}

static int
set_rounding(PyObject *self, PyObject *value)
{
    return _PyDecContext_RoundingFromObject(value, &CTX(self)->limits.round);
}

static int
zero_or_one(PyObject *value, const char *message, int *out)
{
    mpd_ssize_t v;
    if (integer_in_range(value, 0, 1, message, &v) < 0) {
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int
set_capitals(PyObject *self, PyObject *value)
{
    return zero_or_one(value, "valid values for capitals are 0 or 1",
                       &CTX(self)->capitals);
}

static int
set_clamp(PyObject *self, PyObject *value)
{
    return zero_or_one(value, "valid values for clamp are 0 or 1",
                       &CTX(self)->limits.clamp);
}

/* Attribute assignment takes a mapping; the constructor also a list. */
static int
set_signals(PyDecSignalDictObject *target, PyObject *value, int allow_list)
{
    if (!allow_list && !PyDict_Check(value)
        && !PyObject_TypeCheck(value, &_PyDecSignalDictMixin_Type)) {
        PyErr_SetString(PyExc_TypeError, "argument must be a signal dict");
        return -1;
    }
    uint32_t bits;
    if (_PyDecSignals_BitsFromArg(value, &bits) < 0) {
        return -1;
    }
    target->bits = bits;
    return 0;
}

typedef int (*FieldSetter)(PyObject *self, PyObject *value);

/* The constructor's fields in positional order; flags and traps last. */
static const struct {
    const char *name;
    FieldSetter set;
} context_fields[] = {
    {"prec", set_prec}, {"rounding", set_rounding}, {"Emin", set_emin},
    {"Emax", set_emax}, {"capitals", set_capitals}, {"clamp", set_clamp},
};
#define SCALAR_FIELDS ((int)Py_ARRAY_LENGTH(context_fields))
#define FIELD_COUNT (SCALAR_FIELDS + 2)   /* and flags, traps */

static int
apply_field(PyObject *self, int index, PyObject *value)
{
    if (index < SCALAR_FIELDS) {
        return context_fields[index].set(self, value);
    }
    PyDecSignalDictObject *target = index == SCALAR_FIELDS ? CTX(self)->flags
                                                           : CTX(self)->traps;
    return set_signals(target, value, 1);
}

/* ---- The type ---------------------------------------------------------------- */

static void
set_python_defaults(PyDecContextObject *c)
{
    mpd_defaultcontext(&c->limits);
    c->limits.prec = 28;
    c->limits.emax = 999999;
    c->limits.emin = -999999;
    c->limits.round = MPD_ROUND_HALF_EVEN;
    c->limits.clamp = 0;
    c->limits.traps = 0;
    c->limits.status = 0;
    c->capitals = 1;
}

static PyObject *
context_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyDecContextObject *c = (PyDecContextObject *)type->tp_alloc(type, 0);
    if (c == NULL) {
        return NULL;
    }
    set_python_defaults(c);
    c->flags = (PyDecSignalDictObject *)_PyDecSignals_NewDict(0);
    c->traps = (PyDecSignalDictObject *)_PyDecSignals_NewDict(
        MPD_IEEE_Invalid_operation | MPD_Division_by_zero | MPD_Overflow);
    if (c->flags == NULL || c->traps == NULL) {
        Py_DECREF(c);
        return NULL;
    }
    return (PyObject *)c;
}

static void
copy_settings(PyObject *dst, PyObject *src, int with_flags)
{
    CTX(dst)->limits = CTX(src)->limits;
    CTX(dst)->capitals = CTX(src)->capitals;
    CTX(dst)->traps->bits = CTX(src)->traps->bits;
    CTX(dst)->flags->bits = with_flags ? CTX(src)->flags->bits : 0;
}

static int find_field(PyObject *name);

/* Context(prec, rounding, Emin, Emax, capitals, clamp, flags, traps): each
   by position or name; None or absent keeps the DefaultContext value. */
static int
context_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *values[FIELD_COUNT] = {NULL};
    Py_ssize_t npos = PyTuple_GET_SIZE(args);
    if (npos > FIELD_COUNT) {
        PyErr_Format(PyExc_TypeError, "function takes at most %d arguments (%zd given)",
                     FIELD_COUNT, npos);
        return -1;
    }
    for (Py_ssize_t i = 0; i < npos; i++) {
        values[i] = PyTuple_GET_ITEM(args, i);
    }
    Py_ssize_t pos = 0;
    PyObject *name, *value;
    while (kwargs != NULL && PyDict_Next(kwargs, &pos, &name, &value)) {
        int index = find_field(name);
        if (index < 0) {
            PyErr_Format(PyExc_TypeError,
                         "this function got an unexpected keyword argument '%S'", name);
            return -1;
        }
        if (values[index] != NULL) {
            PyErr_Format(PyExc_TypeError, "argument for function given by name ('%S') "
                         "and position (%d)", name, index + 1);
            return -1;
        }
        values[index] = value;
    }
    /* Unset fields follow DefaultContext, as the docs describe. */
    if (_PyDec_DefaultContext != NULL && self != _PyDec_DefaultContext) {
        copy_settings(self, _PyDec_DefaultContext, 0);
    }
    for (int i = 0; i < FIELD_COUNT; i++) {
        if (values[i] != NULL && values[i] != Py_None
            && apply_field(self, i, values[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

static void
context_dealloc(PyObject *self)
{
    Py_CLEAR(CTX(self)->flags);
    Py_CLEAR(CTX(self)->traps);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
join_names(uint32_t bits)
{
    PyObject *names = _PyDecSignals_NamesList(bits, 0);
    if (names == NULL) {
        return NULL;
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, names) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(names);
    return joined;
}

static PyObject *
context_repr(PyObject *self)
{
    PyDecContextObject *c = CTX(self);
    PyObject *flags = join_names(c->flags->bits);
    PyObject *traps = flags ? join_names(c->traps->bits) : NULL;
    PyObject *result = NULL;
    if (traps != NULL) {
        result = PyUnicode_FromFormat(
            "Context(prec=%zd, rounding=%s, Emin=%zd, Emax=%zd, capitals=%d, "
            "clamp=%d, flags=[%U], traps=[%U])",
            (Py_ssize_t)c->limits.prec, rounding_names[c->limits.round],
            (Py_ssize_t)c->limits.emin, (Py_ssize_t)c->limits.emax,
            c->capitals, c->limits.clamp, flags, traps);
    }
    Py_XDECREF(flags);
    Py_XDECREF(traps);
    return result;
}

/* ---- Getters and setters -------------------------------------------------------- */

static int
refuse_delete(PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "context attributes cannot be deleted");
        return -1;
    }
    return 0;
}

#define CONTEXT_INT_ATTR(attr, expr, setter)                                \
    static PyObject *get_##attr(PyObject *self, void *c)                    \
    {                                                                       \
        return PyLong_FromSsize_t((Py_ssize_t)(expr));                      \
    }                                                                       \
    static int put_##attr(PyObject *self, PyObject *v, void *c)             \
    {                                                                       \
        return refuse_delete(v) < 0 ? -1 : setter(self, v);                 \
    }

CONTEXT_INT_ATTR(prec, CTX(self)->limits.prec, set_prec)
CONTEXT_INT_ATTR(emin, CTX(self)->limits.emin, set_emin)
CONTEXT_INT_ATTR(emax, CTX(self)->limits.emax, set_emax)
CONTEXT_INT_ATTR(capitals, CTX(self)->capitals, set_capitals)
CONTEXT_INT_ATTR(clamp, CTX(self)->limits.clamp, set_clamp)

static PyObject *
get_rounding(PyObject *self, void *closure)
{
    return PyUnicode_InternFromString(rounding_names[CTX(self)->limits.round]);
}

static int
put_rounding(PyObject *self, PyObject *value, void *closure)
{
    return refuse_delete(value) < 0 ? -1 : set_rounding(self, value);
}

static PyObject *
get_flags(PyObject *self, void *closure)
{
    return Py_NewRef((PyObject *)CTX(self)->flags);
}

static int
put_flags(PyObject *self, PyObject *value, void *closure)
{
    return refuse_delete(value) < 0 ? -1 : set_signals(CTX(self)->flags, value, 0);
}

static PyObject *
get_traps(PyObject *self, void *closure)
{
    return Py_NewRef((PyObject *)CTX(self)->traps);
}

static int
put_traps(PyObject *self, PyObject *value, void *closure)
{
    return refuse_delete(value) < 0 ? -1 : set_signals(CTX(self)->traps, value, 0);
}

static PyGetSetDef context_getset[] = {
    {"prec", get_prec, put_prec, "Precision: the number of significant digits.", NULL},
    {"Emin", get_emin, put_emin, "The smallest adjusted exponent before underflow.", NULL},
    {"Emax", get_emax, put_emax, "The largest adjusted exponent before overflow.", NULL},
    {"rounding", get_rounding, put_rounding, "The rounding mode (a ROUND_* string).", NULL},
    {"capitals", get_capitals, put_capitals, "1 to print the exponent as 'E', 0 for 'e'.", NULL},
    {"clamp", get_clamp, put_clamp, "1 to clamp exponents as IEEE 754 does.", NULL},
    {"flags", get_flags, put_flags, "The signals that have occurred.", NULL},
    {"traps", get_traps, put_traps, "The signals that raise an exception.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- Plain methods ---------------------------------------------------------------- */

static PyObject *
context_copy(PyObject *self, PyObject *unused)
{
    PyObject *copy = context_new(&_PyDecContext_Type, NULL, NULL);
    if (copy != NULL) {
        copy_settings(copy, self, 1);
    }
    return copy;
}

static PyObject *
context_reduce(PyObject *self, PyObject *unused)
{
    PyDecContextObject *c = CTX(self);
    PyObject *flags = _PyDecSignals_NamesList(c->flags->bits, 1);
    PyObject *traps = _PyDecSignals_NamesList(c->traps->bits, 1);
    PyObject *result = NULL;
    if (flags != NULL && traps != NULL) {
        result = Py_BuildValue("O(nsnniiOO)", (PyObject *)Py_TYPE(self),
                               (Py_ssize_t)c->limits.prec,
                               rounding_names[c->limits.round],
                               (Py_ssize_t)c->limits.emin,
                               (Py_ssize_t)c->limits.emax, c->capitals,
                               c->limits.clamp, flags, traps);
    }
    Py_XDECREF(flags);
    Py_XDECREF(traps);
    return result;
}

static PyObject *
context_clear_flags(PyObject *self, PyObject *unused)
{
    CTX(self)->flags->bits = 0;
    Py_RETURN_NONE;
}

static PyObject *
context_clear_traps(PyObject *self, PyObject *unused)
{
    CTX(self)->traps->bits = 0;
    Py_RETURN_NONE;
}

static PyObject *
context_etiny(PyObject *self, PyObject *unused)
{
    return PyLong_FromSsize_t((Py_ssize_t)mpd_etiny(&CTX(self)->limits));
}

static PyObject *
context_etop(PyObject *self, PyObject *unused)
{
    return PyLong_FromSsize_t((Py_ssize_t)mpd_etop(&CTX(self)->limits));
}

static PyObject *
context_radix(PyObject *self, PyObject *unused)
{
    return _PyDecOp_Radix();
}

static PyObject *
context_create_decimal(PyObject *self, PyObject *args)
{
    PyObject *num = NULL;
    if (!PyArg_ParseTuple(args, "|O", &num)) {
        return NULL;
    }
    if (num == NULL) {
        return _PyDec_FromObjectExact(&_PyDec_Type, NULL, self);
    }
    return _PyDec_FromObjectRounded(num, self);
}

static PyObject *
context_create_from_float(PyObject *self, PyObject *value)
{
    if (!PyFloat_Check(value) && !PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "argument must be int or float");
        return NULL;
    }
    PyObject *exact = PyFloat_Check(value)
                          ? _PyDec_FromFloatExact(&_PyDec_Type, value, self)
                          : _PyDec_FromLongExact(&_PyDec_Type, value, self);
    if (exact == NULL) {
        return NULL;
    }
    PyObject *rounded = _PyDecOp_Unary(_PyDecOp_Apply, exact, self, NULL);
    Py_DECREF(exact);
    return rounded;
}

/* The arithmetic methods come from the tables in decimal_ops.h. */
#define CTX_UNARY(name, fn, doc)                                            \
    static PyObject *ctx_##name(PyObject *self, PyObject *a)                \
    {                                                                       \
        return _PyDecOp_ContextUnary(self, a, fn);                          \
    }
#define CTX_BINARY(name, fn, doc)                                           \
    static PyObject *ctx_##name(PyObject *self, PyObject *args)             \
    {                                                                       \
        return _PyDecOp_ContextBinary(self, args, fn);                      \
    }
#define CTX_PREDICATE(name, fn, doc)                                        \
    static PyObject *ctx_##name(PyObject *self, PyObject *a)                \
    {                                                                       \
        return _PyDecOp_ContextPredicate(self, a, fn);                      \
    }
DEC_UNARY_OPS(CTX_UNARY)
DEC_ROUNDING_UNARY_OPS(CTX_UNARY)
DEC_EXACT_UNARY_OPS(CTX_UNARY)
DEC_CONTEXT_UNARY_OPS(CTX_UNARY)
DEC_BINARY_OPS(CTX_BINARY)
DEC_ROUNDING_BINARY_OPS(CTX_BINARY)
DEC_CONTEXT_BINARY_OPS(CTX_BINARY)
DEC_PREDICATES(CTX_PREDICATE)
DEC_CONTEXT_PREDICATES(CTX_PREDICATE)
#undef CTX_UNARY
#undef CTX_BINARY
#undef CTX_PREDICATE

#define CTX_O_ENTRY(name, fn, doc) {#name, ctx_##name, METH_O, doc},
#define CTX_ARGS_ENTRY(name, fn, doc) {#name, ctx_##name, METH_VARARGS, doc},

static PyMethodDef context_methods[] = {
    DEC_UNARY_OPS(CTX_O_ENTRY)
    DEC_ROUNDING_UNARY_OPS(CTX_O_ENTRY)
    DEC_EXACT_UNARY_OPS(CTX_O_ENTRY)
    DEC_CONTEXT_UNARY_OPS(CTX_O_ENTRY)
    DEC_BINARY_OPS(CTX_ARGS_ENTRY)
    DEC_ROUNDING_BINARY_OPS(CTX_ARGS_ENTRY)
    DEC_CONTEXT_BINARY_OPS(CTX_ARGS_ENTRY)
    DEC_PREDICATES(CTX_O_ENTRY)
    DEC_CONTEXT_PREDICATES(CTX_O_ENTRY)
    {"fma", _PyDecOp_ContextFma, METH_VARARGS,
     "fma($self, a, b, c, /)\n--\n\na * b + c, rounded only once."},
    {"power", _PyCFunction_CAST(_PyDecOp_ContextPower), METH_VARARGS | METH_KEYWORDS,
     "power($self, /, a, b, modulo=None)\n--\n\na ** b, or a ** b % modulo."},
    {"divmod", _PyDecOp_ContextDivmod, METH_VARARGS,
     "divmod($self, a, b, /)\n--\n\nThe pair (a // b, a % b)."},
    {"same_quantum", _PyDecOp_ContextSameQuantum, METH_VARARGS,
     "same_quantum($self, a, b, /)\n--\n\nWhether a and b have the same exponent."},
    {"number_class", _PyDecOp_ContextNumberClass, METH_O,
     "number_class($self, a, /)\n--\n\nThe class of a, such as '+Normal'."},
    {"to_sci_string", _PyDecOp_ContextToSci, METH_O,
     "to_sci_string($self, a, /)\n--\n\na as a string in scientific notation."},
    {"to_eng_string", _PyDecOp_ContextToEng, METH_O,
     "to_eng_string($self, a, /)\n--\n\na as a string in engineering notation."},
    {"canonical", _PyDecOp_ContextCanonical, METH_O,
     "canonical($self, a, /)\n--\n\nThe canonical form of the Decimal a (a itself)."},
    {"copy_decimal", _PyDecOp_ContextCopyDecimal, METH_O,
     "copy_decimal($self, a, /)\n--\n\nA copy of a as a Decimal."},
    {"create_decimal", context_create_decimal, METH_VARARGS,
     "create_decimal($self, num='0', /)\n--\n\nnum as a Decimal rounded to this context."},
    {"create_decimal_from_float", context_create_from_float, METH_O,
     "create_decimal_from_float($self, f, /)\n--\n\nThe float f exactly, then rounded."},
    {"copy", context_copy, METH_NOARGS,
     "copy($self, /)\n--\n\nAn independent copy of this context, flags included."},
    {"__copy__", context_copy, METH_NOARGS, NULL},
    {"__reduce__", context_reduce, METH_NOARGS, NULL},
    {"clear_flags", context_clear_flags, METH_NOARGS,
     "clear_flags($self, /)\n--\n\nReset every flag to False."},
    {"clear_traps", context_clear_traps, METH_NOARGS,
     "clear_traps($self, /)\n--\n\nReset every trap to False."},
    {"Etiny", context_etiny, METH_NOARGS,
     "Etiny($self, /)\n--\n\nThe smallest exponent of a subnormal result: Emin - prec + 1."},
    {"Etop", context_etop, METH_NOARGS,
     "Etop($self, /)\n--\n\nThe largest exponent of a clamped result: Emax - prec + 1."},
    {"radix", context_radix, METH_NOARGS,
     "radix($self, /)\n--\n\nDecimal(10), the base of the arithmetic."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyDecContext_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "decimal.Context",
    .tp_basicsize = sizeof(PyDecContextObject),
    .tp_dealloc = context_dealloc,
    .tp_repr = context_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Context(prec=None, rounding=None, Emin=None, Emax=None, capitals=None, "
              "clamp=None, flags=None, traps=None)\n--\n\n"
              "The precision, rounding, exponent limits, flags and traps that\n"
              "decimal arithmetic follows.",
    .tp_methods = context_methods,
    .tp_getset = context_getset,
    .tp_init = context_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = context_new,
    .tp_free = PyObject_Free,
};

PyObject *
_PyDecContext_NewTemplate(const mpd_context_t *limits, uint32_t traps)
{
    PyObject *c = context_new(&_PyDecContext_Type, NULL, NULL);
    if (c != NULL) {
        CTX(c)->limits = *limits;
        CTX(c)->limits.traps = 0;
        CTX(c)->limits.status = 0;
        CTX(c)->traps->bits = traps;
    }
    return c;
}

/* ---- The current context ------------------------------------------------------------ */

PyObject *
_PyDecContext_Current(void)
{
    PyObject *ctx;
    if (PyContextVar_Get(current_context_var, NULL, &ctx) < 0) {
        return NULL;
    }
    if (ctx != NULL) {
        return ctx;
    }
    /* First use in this context: a fresh copy of DefaultContext. */
    ctx = context_copy(_PyDec_DefaultContext, NULL);
    if (ctx == NULL) {
        return NULL;
    }
    CTX(ctx)->flags->bits = 0;
    PyObject *token = PyContextVar_Set(current_context_var, ctx);
    if (token == NULL) {
        Py_DECREF(ctx);
        return NULL;
    }
    Py_DECREF(token);
    return ctx;
}

PyObject *
_PyDecContext_Resolve(PyObject *arg)
{
    if (arg == NULL || arg == Py_None) {
        return _PyDecContext_Current();
    }
    if (!PyDecContext_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "optional argument must be a context");
        return NULL;
    }
    return Py_NewRef(arg);
}

static PyObject *
getcontext(PyObject *module, PyObject *unused)
{
    return _PyDecContext_Current();
}

static int
install_context(PyObject *ctx)
{
    PyObject *token = PyContextVar_Set(current_context_var, ctx);
    Py_XDECREF(token);
    return token == NULL ? -1 : 0;
}

static PyObject *
setcontext(PyObject *module, PyObject *ctx)
{
    if (!PyDecContext_Check(ctx)) {
        PyErr_SetString(PyExc_TypeError, "argument must be a context");
        return NULL;
    }
    /* The templates are never installed themselves: changes made through
       getcontext() must not alter them. */
    int template = ctx == _PyDec_DefaultContext || ctx == basic_context_template
                   || ctx == extended_context_template;
    PyObject *installed = template ? context_copy(ctx, NULL) : Py_NewRef(ctx);
    if (installed == NULL) {
        return NULL;
    }
    int rc = install_context(installed);
    Py_DECREF(installed);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- localcontext ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *local;            /* the context the with-block runs in */
    PyObject *saved;            /* the context to restore on exit */
} ContextManagerObject;

static int
find_field(PyObject *name)
{
    static const char *const names[] = {"prec", "rounding", "Emin", "Emax",
                                        "capitals", "clamp", "flags", "traps"};
    const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    for (int i = 0; text != NULL && i < FIELD_COUNT; i++) {
        if (strcmp(text, names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

static int
apply_keywords(PyObject *ctx, PyObject *kwargs)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (kwargs != NULL && PyDict_Next(kwargs, &pos, &key, &value)) {
        int index = find_field(key);
        if (index < 0) {
            PyErr_Format(PyExc_TypeError,
                         "this function got an unexpected keyword argument '%S'", key);
            return -1;
        }
        if (value != Py_None && apply_field(ctx, index, value) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
localcontext(PyObject *module, PyObject *args, PyObject *kwargs)
{
    PyObject *base = NULL;
    if (!PyArg_ParseTuple(args, "|O:localcontext", &base)) {
        return NULL;
    }
    if (kwargs != NULL) {
        PyObject *ctx_kw = PyDict_GetItemString(kwargs, "ctx");
        if (ctx_kw != NULL) {
            base = ctx_kw;
        }
    }
    PyObject *source = _PyDecContext_Resolve(base);
    if (source == NULL) {
        return NULL;
    }
    PyObject *local = context_copy(source, NULL);
    Py_DECREF(source);
    if (local == NULL) {
        return NULL;
    }
    PyObject *rest = kwargs ? PyDict_Copy(kwargs) : NULL;
    if (rest != NULL && PyDict_DelItemString(rest, "ctx") < 0) {
        PyErr_Clear();
    }
    int rc = (kwargs != NULL && rest == NULL) ? -1 : apply_keywords(local, rest);
    Py_XDECREF(rest);
    if (rc < 0) {
        Py_DECREF(local);
        return NULL;
    }
    ContextManagerObject *manager = PyObject_New(ContextManagerObject,
                                                 &_PyDecContextManager_Type);
    if (manager == NULL) {
        Py_DECREF(local);
        return NULL;
    }
    manager->local = local;
    manager->saved = NULL;
    return (PyObject *)manager;
}

static PyObject *
manager_enter(PyObject *self, PyObject *unused)
{
    ContextManagerObject *m = (ContextManagerObject *)self;
    PyObject *current = _PyDecContext_Current();
    if (current == NULL) {
        return NULL;
    }
    Py_XSETREF(m->saved, current);
    if (install_context(m->local) < 0) {
        return NULL;
    }
    return Py_NewRef(m->local);
}

static PyObject *
manager_exit(PyObject *self, PyObject *args)
{
    ContextManagerObject *m = (ContextManagerObject *)self;
    if (m->saved != NULL && install_context(m->saved) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static void
manager_dealloc(PyObject *self)
{
    ContextManagerObject *m = (ContextManagerObject *)self;
    Py_XDECREF(m->local);
    Py_XDECREF(m->saved);
    PyObject_Free(self);
}

static PyMethodDef manager_methods[] = {
    {"__enter__", manager_enter, METH_NOARGS, NULL},
    {"__exit__", manager_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyDecContextManager_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "decimal.ContextManager",
    .tp_basicsize = sizeof(ContextManagerObject),
    .tp_dealloc = manager_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Installs a context for the duration of a with-block.",
    .tp_methods = manager_methods,
};

static PyMethodDef context_functions[] = {
    {"getcontext", getcontext, METH_NOARGS,
     "getcontext($module, /)\n--\n\nThe context of the current thread or task."},
    {"setcontext", setcontext, METH_O,
     "setcontext($module, context, /)\n--\n\nMake context the current context."},
    {"localcontext", _PyCFunction_CAST(localcontext), METH_VARARGS | METH_KEYWORDS,
     "localcontext($module, /, ctx=None, **kwargs)\n--\n\n"
     "A context manager running its block in a copy of ctx (default: the\n"
     "current context) with the given attributes changed."},
    {NULL, NULL, 0, NULL},
};

static int
add_templates(PyObject *module)
{
    if (_PyDec_DefaultContext == NULL) {
        mpd_context_t limits;
        PyObject *probe = context_new(&_PyDecContext_Type, NULL, NULL);
        if (probe == NULL) {
            return -1;
        }
        limits = CTX(probe)->limits;
        Py_DECREF(probe);
        _PyDec_DefaultContext = _PyDecContext_NewTemplate(
            &limits, MPD_IEEE_Invalid_operation | MPD_Division_by_zero | MPD_Overflow);
        limits.prec = 9;
        limits.round = MPD_ROUND_HALF_UP;
        basic_context_template = _PyDecContext_NewTemplate(
            &limits, MPD_IEEE_Invalid_operation | MPD_Division_by_zero | MPD_Overflow
                         | MPD_Underflow | MPD_Clamped);
        limits.round = MPD_ROUND_HALF_EVEN;
        extended_context_template = _PyDecContext_NewTemplate(&limits, 0);
        if (_PyDec_DefaultContext == NULL || basic_context_template == NULL
            || extended_context_template == NULL) {
            return -1;
        }
    }
    if (PyModule_AddObjectRef(module, "DefaultContext", _PyDec_DefaultContext) < 0
        || PyModule_AddObjectRef(module, "BasicContext", basic_context_template) < 0
        || PyModule_AddObjectRef(module, "ExtendedContext", extended_context_template) < 0) {
        return -1;
    }
    return 0;
}

void
_PyDecContext_Fini(void)
{
    Py_CLEAR(current_context_var);
    Py_CLEAR(_PyDec_DefaultContext);
    Py_CLEAR(basic_context_template);
    Py_CLEAR(extended_context_template);
}

int
_PyDecContext_Init(PyObject *module)
{
    if (current_context_var == NULL) {
        if (_PyDec_ReadyStatic(&_PyDecContext_Type) < 0
            || _PyDec_ReadyStatic(&_PyDecContextManager_Type) < 0) {
            return -1;
        }
        current_context_var = PyContextVar_New("decimal_context", NULL);
        if (current_context_var == NULL) {
            return -1;
        }
    }
    if (PyModule_AddFunctions(module, context_functions) < 0
        || PyModule_AddObjectRef(module, "Context", (PyObject *)&_PyDecContext_Type) < 0) {
        return -1;
    }
    return add_templates(module);
}
