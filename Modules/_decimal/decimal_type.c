/* The Decimal type: construction, operators, comparisons, hashing and the
   methods generated from the tables in decimal_ops.h.

   A Decimal is immutable; its mpd_t is allocated with it and freed in
   dealloc.  Results of arithmetic are always exact Decimals (not
   subclasses), as in CPython. */

#include "decimal_ops.h"

/* ---- Allocation ------------------------------------------------------------ */

PyDecObject *
_PyDec_Alloc(PyTypeObject *type)
{
    PyDecObject *d = (PyDecObject *)type->tp_alloc(type, 0);
    if (d == NULL) {
        return NULL;
    }
    d->hash = -1;
    d->value = mpd_qnew();
    if (d->value == NULL) {
        Py_DECREF(d);
        PyErr_NoMemory();
        return NULL;
    }
    return d;
}

static void
dec_dealloc(PyObject *self)
{
    if (DEC_VALUE(self) != NULL) {
        mpd_del(DEC_VALUE(self));
    }
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
dec_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"value", "context", NULL};
    PyObject *value = NULL, *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", kwlist, &value, &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = _PyDec_FromObjectExact(type, value, ctx);
    Py_DECREF(ctx);
    return result;
}

/* ---- Operands ------------------------------------------------------------------ */

/* V as a Decimal (new reference) when it is a Decimal or an int.  Anything
   else is NotImplemented (operators) or a TypeError (methods). */
PyObject *
_PyDec_Convert(PyObject *v, PyObject *ctx, int not_implemented)
{
    if (PyDec_Check(v)) {
        return Py_NewRef(v);
    }
    if (PyLong_Check(v)) {
        return _PyDec_FromLongExact(&_PyDec_Type, v, ctx);
    }
    if (not_implemented) {
        return Py_NewRef(Py_NotImplemented);
    }
    PyErr_Format(PyExc_TypeError, "conversion from %s to Decimal is not supported",
                 Py_TYPE(v)->tp_name);
    return NULL;
}

/* ---- Number protocol -------------------------------------------------------------- */

/* Both operands as Decimals under the current context; 1 when one of them
   is of a foreign type (the caller returns NotImplemented). */
static int
operator_operands(PyObject *a, PyObject *b, PyObject **ctx, PyObject **da, PyObject **db)
{
    *ctx = _PyDecContext_Current();
    if (*ctx == NULL) {
        return -1;
    }
    *da = _PyDec_Convert(a, *ctx, 1);
    *db = *da ? _PyDec_Convert(b, *ctx, 1) : NULL;
    if (*db == NULL) {
        Py_XDECREF(*da);
        Py_DECREF(*ctx);
        return -1;
    }
    if (*da == Py_NotImplemented || *db == Py_NotImplemented) {
        Py_DECREF(*da);
        Py_DECREF(*db);
        Py_DECREF(*ctx);
        return 1;
    }
    return 0;
}

static PyObject *
binary_operator(PyObject *a, PyObject *b, DecBinaryFn fn)
{
    PyObject *ctx, *da, *db;
    int rc = operator_operands(a, b, &ctx, &da, &db);
    if (rc != 0) {
        return rc < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *result = _PyDecOp_Binary(fn, da, db, ctx, NULL);
    Py_DECREF(da);
    Py_DECREF(db);
    Py_DECREF(ctx);
    return result;
}

static PyObject *
unary_operator(PyObject *a, DecUnaryFn fn)
{
    PyObject *ctx = _PyDecContext_Current();
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = _PyDecOp_Unary(fn, a, ctx, NULL);
    Py_DECREF(ctx);
    return result;
}

static PyObject *nb_add(PyObject *a, PyObject *b) { return binary_operator(a, b, mpd_qadd); }
static PyObject *nb_sub(PyObject *a, PyObject *b) { return binary_operator(a, b, mpd_qsub); }
static PyObject *nb_mul(PyObject *a, PyObject *b) { return binary_operator(a, b, mpd_qmul); }
static PyObject *nb_truediv(PyObject *a, PyObject *b) { return binary_operator(a, b, mpd_qdiv); }
static PyObject *nb_floordiv(PyObject *a, PyObject *b) { return binary_operator(a, b, mpd_qdivint); }
static PyObject *nb_rem(PyObject *a, PyObject *b) { return binary_operator(a, b, mpd_qrem); }
static PyObject *nb_neg(PyObject *a) { return unary_operator(a, mpd_qminus); }
static PyObject *nb_pos(PyObject *a) { return unary_operator(a, mpd_qplus); }
static PyObject *nb_abs(PyObject *a) { return unary_operator(a, mpd_qabs); }

static PyObject *
nb_divmod(PyObject *a, PyObject *b)
{
    PyObject *ctx, *da, *db;
    int rc = operator_operands(a, b, &ctx, &da, &db);
    if (rc != 0) {
        return rc < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *result = _PyDecOp_Divmod(da, db, ctx);
    Py_DECREF(da);
    Py_DECREF(db);
    Py_DECREF(ctx);
    return result;
}

static PyObject *
nb_pow(PyObject *base, PyObject *exp, PyObject *mod)
{
    PyObject *ctx, *da, *db, *dm = NULL;
    int rc = operator_operands(base, exp, &ctx, &da, &db);
    if (rc != 0) {
        return rc < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *result = NULL;
    if (mod != Py_None) {
        dm = _PyDec_Convert(mod, ctx, 1);
        if (dm == NULL || dm == Py_NotImplemented) {
            result = dm;
            dm = NULL;
            goto done;
        }
    }
    result = _PyDecOp_Power(da, db, dm, ctx);
done:
    Py_XDECREF(dm);
    Py_DECREF(da);
    Py_DECREF(db);
    Py_DECREF(ctx);
    return result;
}

static int
nb_bool(PyObject *self)
{
    return !mpd_iszero(DEC_VALUE(self));
}

static PyObject *
nb_int(PyObject *self)
{
    return _PyDec_ToLong(self, MPD_ROUND_DOWN);
}

static PyObject *
nb_float(PyObject *self)
{
    return _PyDec_ToFloat(self);
}

static PyNumberMethods dec_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_remainder = nb_rem,
    .nb_divmod = nb_divmod,
    .nb_power = nb_pow,
    .nb_negative = nb_neg,
    .nb_positive = nb_pos,
    .nb_absolute = nb_abs,
    .nb_bool = nb_bool,
    .nb_int = nb_int,
    .nb_float = nb_float,
    .nb_floor_divide = nb_floordiv,
    .nb_true_divide = nb_truediv,
};

/* ---- Comparisons ------------------------------------------------------------------ */

/* x * denominator as a Decimal, exactly, for comparing with a Rational. */
static PyObject *
scaled_by_denominator(PyObject *x, PyObject *denominator, PyObject *ctx)
{
    PyObject *d = _PyDec_FromLongExact(&_PyDec_Type, denominator, ctx);
    if (d == NULL) {
        return NULL;
    }
    PyDecObject *result = _PyDec_Alloc(&_PyDec_Type);
    if (result != NULL) {
        mpd_context_t exact;
        uint32_t status = 0;
        mpd_maxcontext(&exact);
        mpd_qmul(result->value, DEC_VALUE(x), DEC_VALUE(d), &exact, &status);
        if (status & MPD_Malloc_error) {
            Py_CLEAR(result);
            PyErr_NoMemory();
        }
    }
    Py_DECREF(d);
    return (PyObject *)result;
}

/* Make SELF and OTHER comparable: *left and *right become Decimals, or
   *right is NotImplemented.  Floats (and complex numbers with no imaginary
   part, for == and !=) compare exactly but record FloatOperation. */
static int
comparison_operands(PyObject *self, PyObject *other, int op, PyObject *ctx,
                    PyObject **left, PyObject **right)
{
    *left = Py_NewRef(self);
    if (PyDec_Check(other) || PyLong_Check(other)) {
        *right = _PyDec_Convert(other, ctx, 0);
        return *right ? 0 : -1;
    }
    int equality = op == Py_EQ || op == Py_NE;
    PyObject *as_float = NULL;
    if (PyFloat_Check(other)) {
        as_float = Py_NewRef(other);
    }
    else if (equality && PyComplex_Check(other) && PyComplex_ImagAsDouble(other) == 0.0) {
        as_float = PyFloat_FromDouble(PyComplex_RealAsDouble(other));
        if (as_float == NULL) {
            return -1;
        }
    }
    if (as_float != NULL) {
        PyDecContextObject *c = (PyDecContextObject *)ctx;
        c->flags->bits |= DEC_FLOAT_OPERATION;
        if (!equality && (c->traps->bits & DEC_FLOAT_OPERATION)) {
            Py_DECREF(as_float);
            return _PyDecSignals_Raise(DEC_FLOAT_OPERATION);
        }
        *right = _PyDec_FromFloatExact(&_PyDec_Type, as_float, ctx);
        Py_DECREF(as_float);
        return *right ? 0 : -1;
    }
    *right = _PyDec_ConvertRational(other, ctx);
    if (*right == NULL || *right == Py_NotImplemented || mpd_isspecial(DEC_VALUE(self))) {
        return *right ? 0 : -1;
    }
    /* other = n / d: compare self * d with n. */
    PyObject *denominator = PyObject_GetAttrString(other, "denominator");
    if (denominator == NULL) {
        return -1;
    }
    Py_SETREF(*left, scaled_by_denominator(self, denominator, ctx));
    Py_DECREF(denominator);
    return *left ? 0 : -1;
}

static PyObject *
dec_richcompare(PyObject *self, PyObject *other, int op)
{
    PyObject *ctx = _PyDecContext_Current();
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *left = NULL, *right = NULL, *result = NULL;
    if (comparison_operands(self, other, op, ctx, &left, &right) < 0) {
        goto done;
    }
    if (right == Py_NotImplemented) {
        result = Py_NewRef(right);
        goto done;
    }
    const mpd_t *a = DEC_VALUE(left), *b = DEC_VALUE(right);
    if (mpd_isnan(a) || mpd_isnan(b)) {
        /* Ordering a NaN, or any comparison with a signalling NaN, is an
           invalid operation; a quiet NaN is simply unequal. */
        int quiet = (op == Py_EQ || op == Py_NE) && !mpd_issnan(a) && !mpd_issnan(b);
        if (!quiet && _PyDecContext_Record(ctx, MPD_Invalid_operation) < 0) {
            goto done;
        }
        result = Py_NewRef(op == Py_NE ? Py_True : Py_False);
        goto done;
    }
    uint32_t status = 0;
    int cmp = mpd_qcmp(a, b, &status);
    switch (op) {
    case Py_LT: result = PyBool_FromLong(cmp < 0); break;
    case Py_LE: result = PyBool_FromLong(cmp <= 0); break;
    case Py_EQ: result = PyBool_FromLong(cmp == 0); break;
    case Py_NE: result = PyBool_FromLong(cmp != 0); break;
    case Py_GT: result = PyBool_FromLong(cmp > 0); break;
    default: result = PyBool_FromLong(cmp >= 0); break;
    }
done:
    Py_XDECREF(left);
    Py_XDECREF(right);
    Py_DECREF(ctx);
    return result;
}

/* ---- Hashing ------------------------------------------------------------------------ */

typedef unsigned __int128 dec_u128;

static uint64_t
mulmod(uint64_t a, uint64_t b)
{
    return (uint64_t)(((dec_u128)a * b) % PyHASH_MODULUS);
}

static uint64_t
powmod(uint64_t base, uint64_t exponent)
{
    uint64_t result = 1;
    for (; exponent; exponent >>= 1) {
        if (exponent & 1) {
            result = mulmod(result, base);
        }
        base = mulmod(base, base);
    }
    return result;
}

/* The hash numeric types share: the value modulo 2**61 - 1, where a
   negative power of ten is the modular inverse of the positive one. */
static Py_hash_t
finite_hash(const mpd_t *v)
{
    uint64_t coefficient = 0;
    for (mpd_ssize_t i = v->len - 1; i >= 0; i--) {
        coefficient = (uint64_t)((((dec_u128)coefficient * MPD_RADIX) + v->data[i])
                                 % PyHASH_MODULUS);
    }
    uint64_t ten = 10;
    if (v->exp < 0) {
        ten = powmod(10, PyHASH_MODULUS - 2);   /* 10 ** -1 by Fermat */
    }
    uint64_t magnitude = v->exp < 0 ? (uint64_t)(-(v->exp + 1)) + 1 : (uint64_t)v->exp;
    uint64_t h = mulmod(coefficient, powmod(ten, magnitude % (PyHASH_MODULUS - 1)));
    Py_hash_t result = mpd_isnegative(v) ? -(Py_hash_t)h : (Py_hash_t)h;
    return result == -1 ? -2 : result;
}

static Py_hash_t
dec_hash(PyObject *self)
{
    PyDecObject *d = (PyDecObject *)self;
    if (d->hash != -1) {
        return d->hash;
    }
    const mpd_t *v = d->value;
    if (mpd_issnan(v)) {
        PyErr_SetString(PyExc_TypeError, "Cannot hash a signaling NaN value");
        return -1;
    }
    if (mpd_isnan(v)) {
        return PyObject_GenericHash(self);
    }
    if (mpd_isinfinite(v)) {
        d->hash = mpd_isnegative(v) ? -PyHASH_INF : PyHASH_INF;
    }
    else {
        d->hash = finite_hash(v);
    }
    return d->hash;
}

/* ---- String forms ----------------------------------------------------------------------- */

static PyObject *
dec_str(PyObject *self)
{
    return _PyDec_ToString(self, 0, NULL);
}

static PyObject *
dec_repr(PyObject *self)
{
    PyObject *text = _PyDec_ToString(self, 0, NULL);
    if (text == NULL) {
        return NULL;
    }
    PyObject *result = PyUnicode_FromFormat("Decimal('%U')", text);
    Py_DECREF(text);
    return result;
}

/* ---- Generated methods ------------------------------------------------------------------- */

static PyObject *
method_unary(PyObject *self, PyObject *args, PyObject *kwargs, DecUnaryFn fn)
{
    static char *kwlist[] = {"context", NULL};
    PyObject *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kwlist, &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = _PyDecOp_Unary(fn, self, ctx, NULL);
    Py_DECREF(ctx);
    return result;
}

/* The context's limits with ROUNDING (None: unchanged) as the mode. */
static int
limits_with_rounding(PyObject *ctx, PyObject *rounding, mpd_context_t *limits)
{
    *limits = ((PyDecContextObject *)ctx)->limits;
    if (rounding == Py_None) {
        return 0;
    }
    return _PyDecContext_RoundingFromObject(rounding, &limits->round);
}

static PyObject *
method_rounding_unary(PyObject *self, PyObject *args, PyObject *kwargs, DecUnaryFn fn)
{
    static char *kwlist[] = {"rounding", "context", NULL};
    PyObject *rounding = Py_None, *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", kwlist, &rounding, &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    mpd_context_t limits;
    PyObject *result = NULL;
    if (limits_with_rounding(ctx, rounding, &limits) == 0) {
        result = _PyDecOp_Unary(fn, self, ctx, &limits);
    }
    Py_DECREF(ctx);
    return result;
}

static PyObject *
method_exact_unary(PyObject *self, DecUnaryFn fn)
{
    return unary_operator(self, fn);
}

static PyObject *
method_binary(PyObject *self, PyObject *args, PyObject *kwargs, DecBinaryFn fn)
{
    static char *kwlist[] = {"other", "context", NULL};
    PyObject *other, *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", kwlist, &other, &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    PyObject *b = _PyDec_Convert(other, ctx, 0);
    if (b != NULL) {
        result = _PyDecOp_Binary(fn, self, b, ctx, NULL);
        Py_DECREF(b);
    }
    Py_DECREF(ctx);
    return result;
}

static PyObject *
method_rounding_binary(PyObject *self, PyObject *args, PyObject *kwargs, DecBinaryFn fn)
{
    static char *kwlist[] = {"exp", "rounding", "context", NULL};
    PyObject *other, *rounding = Py_None, *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO", kwlist, &other, &rounding,
                                     &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    mpd_context_t limits;
    if (limits_with_rounding(ctx, rounding, &limits) == 0) {
        PyObject *b = _PyDec_Convert(other, ctx, 0);
        if (b != NULL) {
            result = _PyDecOp_Binary(fn, self, b, ctx, &limits);
            Py_DECREF(b);
        }
    }
    Py_DECREF(ctx);
    return result;
}

static PyObject *
method_context_predicate(PyObject *self, PyObject *args, PyObject *kwargs,
                         DecPredicateFn fn)
{
    static char *kwlist[] = {"context", NULL};
    PyObject *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kwlist, &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    int truth = fn(DEC_VALUE(self), &((PyDecContextObject *)ctx)->limits);
    Py_DECREF(ctx);
    return PyBool_FromLong(truth);
}

#define KW_METHOD(name, body, fn)                                                 \
    static PyObject *dec_##name(PyObject *self, PyObject *args, PyObject *kwargs) \
    {                                                                             \
        return body(self, args, kwargs, fn);                                      \
    }
#define GEN_UNARY(name, fn, doc) KW_METHOD(name, method_unary, fn)
#define GEN_ROUNDING_UNARY(name, fn, doc) KW_METHOD(name, method_rounding_unary, fn)
#define GEN_BINARY(name, fn, doc) KW_METHOD(name, method_binary, fn)
#define GEN_ROUNDING_BINARY(name, fn, doc) KW_METHOD(name, method_rounding_binary, fn)
#define GEN_CONTEXT_PREDICATE(name, fn, doc) KW_METHOD(name, method_context_predicate, fn)
#define GEN_EXACT_UNARY(name, fn, doc)                                            \
    static PyObject *dec_##name(PyObject *self, PyObject *unused)                 \
    {                                                                             \
        return method_exact_unary(self, fn);                                      \
    }
#define GEN_PREDICATE(name, fn, doc)                                              \
    static PyObject *dec_##name(PyObject *self, PyObject *unused)                 \
    {                                                                             \
        return PyBool_FromLong(fn(DEC_VALUE(self), NULL));                        \
    }

DEC_UNARY_OPS(GEN_UNARY)
DEC_ROUNDING_UNARY_OPS(GEN_ROUNDING_UNARY)
DEC_EXACT_UNARY_OPS(GEN_EXACT_UNARY)
DEC_BINARY_OPS(GEN_BINARY)
DEC_ROUNDING_BINARY_OPS(GEN_ROUNDING_BINARY)
DEC_PREDICATES(GEN_PREDICATE)
DEC_CONTEXT_PREDICATES(GEN_CONTEXT_PREDICATE)

#define KW_ENTRY(name, sig, doc)                                                  \
    {#name, _PyCFunction_CAST(dec_##name), METH_VARARGS | METH_KEYWORDS,          \
     #name "($self, /, " sig ")\n--\n\n" doc},
#define ENTRY_UNARY(name, fn, doc) KW_ENTRY(name, "context=None", doc)
#define ENTRY_ROUNDING_UNARY(name, fn, doc) KW_ENTRY(name, "rounding=None, context=None", doc)
#define ENTRY_BINARY(name, fn, doc) KW_ENTRY(name, "other, context=None", doc)
#define ENTRY_ROUNDING_BINARY(name, fn, doc) KW_ENTRY(name, "exp, rounding=None, context=None", doc)
#define ENTRY_CONTEXT_PREDICATE(name, fn, doc) KW_ENTRY(name, "context=None", doc)
#define ENTRY_NOARGS(name, fn, doc) {#name, dec_##name, METH_NOARGS, #name "($self, /)\n--\n\n" doc},

/* ---- Hand-written methods ------------------------------------------------------------------ */

static PyObject *
dec_adjusted(PyObject *self, PyObject *unused)
{
    const mpd_t *v = DEC_VALUE(self);
    return PyLong_FromSsize_t(mpd_isspecial(v) ? 0 : (Py_ssize_t)mpd_adjexp(v));
}

static PyObject *
dec_self(PyObject *self, PyObject *unused)
{
    return Py_NewRef(self);
}

static PyObject *
dec_self_with_memo(PyObject *self, PyObject *memo)
{
    return Py_NewRef(self);
}

static PyObject *
dec_radix(PyObject *self, PyObject *unused)
{
    return _PyDecOp_Radix();
}

static PyObject *
dec_as_tuple(PyObject *self, PyObject *unused)
{
    return _PyDec_AsTuple(self);
}

static PyObject *
dec_as_integer_ratio(PyObject *self, PyObject *unused)
{
    return _PyDec_AsIntegerRatio(self);
}

/* The lone optional `context` argument of number_class and to_eng_string,
   given by position or by name, resolved to a context (new reference). */
static PyObject *
lone_context_argument(PyObject *args, PyObject *kwargs)
{
    Py_ssize_t given = PyTuple_GET_SIZE(args) + (kwargs ? PyDict_GET_SIZE(kwargs) : 0);
    if (given > 1) {
        PyErr_Format(PyExc_TypeError, "function takes at most 1 argument (%zd given)", given);
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) == 1) {
        return _PyDecContext_Resolve(PyTuple_GET_ITEM(args, 0));
    }
    Py_ssize_t pos = 0;
    PyObject *name, *value;
    if (kwargs != NULL && PyDict_Next(kwargs, &pos, &name, &value)) {
        if (!PyUnicode_Check(name) || !PyUnicode_EqualToUTF8(name, "context")) {
            PyErr_Format(PyExc_TypeError,
                         "this function got an unexpected keyword argument '%S'", name);
            return NULL;
        }
        return _PyDecContext_Resolve(value);
    }
    return _PyDecContext_Current();
}

static PyObject *
dec_number_class(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *ctx = lone_context_argument(args, kwargs);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = _PyDecOp_NumberClass(self, ctx);
    Py_DECREF(ctx);
    return result;
}

static PyObject *
dec_to_eng_string(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *ctx = lone_context_argument(args, kwargs);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = _PyDec_ToString(self, 1, ctx);
    Py_DECREF(ctx);
    return result;
}

static PyObject *
dec_same_quantum(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"other", "context", NULL};
    PyObject *other, *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", kwlist, &other, &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *b = _PyDec_Convert(other, ctx, 0);
    Py_DECREF(ctx);
    if (b == NULL) {
        return NULL;
    }
    int same = mpd_same_quantum(DEC_VALUE(self), DEC_VALUE(b));
    Py_DECREF(b);
    return PyBool_FromLong(same);
}

static PyObject *
dec_fma(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"other", "third", "context", NULL};
    PyObject *other, *third, *context = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O", kwlist, &other, &third,
                                     &context)) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Resolve(context);
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    PyObject *b = _PyDec_Convert(other, ctx, 0);
    PyObject *c = b ? _PyDec_Convert(third, ctx, 0) : NULL;
    if (c != NULL) {
        result = _PyDecOp_Fma(self, b, c, ctx);
    }
    Py_XDECREF(b);
    Py_XDECREF(c);
    Py_DECREF(ctx);
    return result;
}

/* Subclasses get their own type back by calling themselves on the value. */
static PyObject *
as_class(PyObject *cls, PyObject *dec)
{
    if (dec == NULL || cls == (PyObject *)&_PyDec_Type) {
        return dec;
    }
    PyObject *result = PyObject_CallOneArg(cls, dec);
    Py_DECREF(dec);
    return result;
}

static PyObject *
exact_from_number(PyObject *cls, PyObject *v, PyObject *ctx)
{
    if (PyFloat_Check(v)) {
        return _PyDec_FromFloatExact(&_PyDec_Type, v, ctx);
    }
    return _PyDec_FromLongExact(&_PyDec_Type, v, ctx);
}

static PyObject *
dec_from_float(PyObject *cls, PyObject *v)
{
    if (!PyFloat_Check(v) && !PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "argument must be int or float");
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Current();
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *dec = exact_from_number(cls, v, ctx);
    Py_DECREF(ctx);
    return as_class(cls, dec);
}

static PyObject *
dec_from_number(PyObject *cls, PyObject *v)
{
    if (!PyFloat_Check(v) && !PyLong_Check(v) && !PyDec_Check(v)) {
        PyErr_Format(PyExc_TypeError, "conversion from %s to Decimal is not supported",
                     Py_TYPE(v)->tp_name);
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Current();
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *dec = PyDec_Check(v) ? _PyDec_FromObjectExact(&_PyDec_Type, v, ctx)
                                   : exact_from_number(cls, v, ctx);
    Py_DECREF(ctx);
    return as_class(cls, dec);
}

static PyObject *
dec_reduce(PyObject *self, PyObject *unused)
{
    PyObject *text = _PyDec_ToString(self, 0, NULL);
    if (text == NULL) {
        return NULL;
    }
    PyObject *result = Py_BuildValue("O(N)", (PyObject *)Py_TYPE(self), text);
    return result;
}

static PyObject *
dec_format(PyObject *self, PyObject *args)
{
    return _PyDec_Format(self, args);
}

static PyObject *
dec_round(PyObject *self, PyObject *args)
{
    return _PyDec_Round(self, args);
}

static PyObject *
dec_floor(PyObject *self, PyObject *unused)
{
    return _PyDec_ToLong(self, MPD_ROUND_FLOOR);
}

static PyObject *
dec_ceil(PyObject *self, PyObject *unused)
{
    return _PyDec_ToLong(self, MPD_ROUND_CEILING);
}

static PyObject *
dec_trunc(PyObject *self, PyObject *unused)
{
    return _PyDec_ToLong(self, MPD_ROUND_DOWN);
}

static PyObject *
dec_complex(PyObject *self, PyObject *unused)
{
    PyObject *real = _PyDec_ToFloat(self);
    if (real == NULL) {
        return NULL;
    }
    PyObject *result = PyComplex_FromDoubles(PyFloat_AsDouble(real), 0.0);
    Py_DECREF(real);
    return result;
}

static PyObject *
dec_sizeof(PyObject *self, PyObject *unused)
{
    const mpd_t *v = DEC_VALUE(self);
    size_t size = Py_TYPE(self)->tp_basicsize + sizeof(mpd_t)
                  + (size_t)v->alloc * sizeof(mpd_uint_t);
    return PyLong_FromSize_t(size);
}

static PyMethodDef dec_methods[] = {
    DEC_UNARY_OPS(ENTRY_UNARY)
    DEC_ROUNDING_UNARY_OPS(ENTRY_ROUNDING_UNARY)
    DEC_EXACT_UNARY_OPS(ENTRY_NOARGS)
    DEC_BINARY_OPS(ENTRY_BINARY)
    DEC_ROUNDING_BINARY_OPS(ENTRY_ROUNDING_BINARY)
    DEC_PREDICATES(ENTRY_NOARGS)
    DEC_CONTEXT_PREDICATES(ENTRY_CONTEXT_PREDICATE)
    {"adjusted", dec_adjusted, METH_NOARGS,
     "adjusted($self, /)\n--\n\nThe exponent of the most significant digit."},
    {"canonical", dec_self, METH_NOARGS,
     "canonical($self, /)\n--\n\nThe canonical form: the Decimal itself."},
    {"conjugate", dec_self, METH_NOARGS, "conjugate($self, /)\n--\n\nThe Decimal itself."},
    {"radix", dec_radix, METH_NOARGS, "radix($self, /)\n--\n\nDecimal(10)."},
    {"as_tuple", dec_as_tuple, METH_NOARGS,
     "as_tuple($self, /)\n--\n\nThe value as DecimalTuple(sign, digits, exponent)."},
    {"as_integer_ratio", dec_as_integer_ratio, METH_NOARGS,
     "as_integer_ratio($self, /)\n--\n\nThe exact value as (numerator, denominator) in\n"
     "lowest terms, the denominator positive."},
    {"number_class", _PyCFunction_CAST(dec_number_class), METH_VARARGS | METH_KEYWORDS,
     "number_class($self, /, context=None)\n--\n\nThe class of the value, such as '+Normal'."},
    {"to_eng_string", _PyCFunction_CAST(dec_to_eng_string), METH_VARARGS | METH_KEYWORDS,
     "to_eng_string($self, /, context=None)\n--\n\n"
     "The value as a string, exponents a multiple of three."},
    {"same_quantum", _PyCFunction_CAST(dec_same_quantum), METH_VARARGS | METH_KEYWORDS,
     "same_quantum($self, /, other, context=None)\n--\n\nWhether the exponents are equal."},
    {"fma", _PyCFunction_CAST(dec_fma), METH_VARARGS | METH_KEYWORDS,
     "fma($self, /, other, third, context=None)\n--\n\n"
     "self * other + third, rounded only once."},
    {"from_float", dec_from_float, METH_O | METH_CLASS,
     "from_float($type, f, /)\n--\n\nThe int or float f exactly, as a Decimal."},
    {"from_number", dec_from_number, METH_O | METH_CLASS,
     "from_number($type, number, /)\n--\n\nAn int, float or Decimal exactly, as a Decimal."},
    {"__reduce__", dec_reduce, METH_NOARGS, NULL},
    {"__copy__", dec_self, METH_NOARGS, NULL},
    {"__deepcopy__", dec_self_with_memo, METH_O, NULL},
    {"__format__", dec_format, METH_VARARGS, NULL},
    {"__round__", dec_round, METH_VARARGS, NULL},
    {"__floor__", dec_floor, METH_NOARGS, NULL},
    {"__ceil__", dec_ceil, METH_NOARGS, NULL},
    {"__trunc__", dec_trunc, METH_NOARGS, NULL},
    {"__complex__", dec_complex, METH_NOARGS, NULL},
    {"__sizeof__", dec_sizeof, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyObject *
dec_get_real(PyObject *self, void *closure)
{
    return Py_NewRef(self);
}

static PyObject *
dec_get_imag(PyObject *self, void *closure)
{
    PyDecObject *zero = _PyDec_Alloc(&_PyDec_Type);
    if (zero != NULL) {
        uint32_t status = 0;
        mpd_qset_i64_exact(zero->value, 0, &status);
    }
    return (PyObject *)zero;
}

static PyGetSetDef dec_getset[] = {
    {"real", dec_get_real, NULL, "The real part: the Decimal itself.", NULL},
    {"imag", dec_get_imag, NULL, "The imaginary part: Decimal(0).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyDec_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "decimal.Decimal",
    .tp_basicsize = sizeof(PyDecObject),
    .tp_dealloc = dec_dealloc,
    .tp_repr = dec_repr,
    .tp_as_number = &dec_as_number,
    .tp_hash = dec_hash,
    .tp_str = dec_str,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Decimal(value='0', context=None)\n--\n\n"
              "An exact decimal number of arbitrary precision, built from an int,\n"
              "a str, a float, a tuple or another Decimal.",
    .tp_richcompare = dec_richcompare,
    .tp_methods = dec_methods,
    .tp_getset = dec_getset,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = dec_new,
    .tp_free = PyObject_Free,
};

int
_PyDecType_Init(PyObject *module)
{
    if (_PyDec_ReadyStatic(&_PyDec_Type) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "Decimal", (PyObject *)&_PyDec_Type);
}
