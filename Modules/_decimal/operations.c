/* Running libmpdec operations on Decimal objects under a context, and the
   bodies of Context's arithmetic methods (their method table is generated
   in context.c from decimal_ops.h). */

#include "decimal_ops.h"

#define LIMITS(ctx) (&((PyDecContextObject *)(ctx))->limits)

/* ---- Adapters to the common shapes ------------------------------------------- */

void
_PyDecOp_CopyAbs(mpd_t *r, const mpd_t *a, const mpd_context_t *c, uint32_t *status)
{
    (void)mpd_qcopy_abs(r, a, status);
}

void
_PyDecOp_CopyNegate(mpd_t *r, const mpd_t *a, const mpd_context_t *c, uint32_t *status)
{
    (void)mpd_qcopy_negate(r, a, status);
}

/* Round an existing value to the context (create_decimal's rounding). */
void
_PyDecOp_Apply(mpd_t *r, const mpd_t *a, const mpd_context_t *c, uint32_t *status)
{
    if (mpd_qcopy(r, a, status)) {
        mpd_qfinalize(r, c, status);
    }
}

void
_PyDecOp_ToIntegral(mpd_t *r, const mpd_t *a, const mpd_context_t *c, uint32_t *status)
{
    mpd_qround_to_int(r, a, c, status);
}

void
_PyDecOp_Compare(mpd_t *r, const mpd_t *a, const mpd_t *b, const mpd_context_t *c,
                 uint32_t *status)
{
    (void)mpd_qcompare(r, a, b, c, status);
}

void
_PyDecOp_CompareSignal(mpd_t *r, const mpd_t *a, const mpd_t *b,
                       const mpd_context_t *c, uint32_t *status)
{
    (void)mpd_qcompare_signal(r, a, b, c, status);
}

void
_PyDecOp_CompareTotal(mpd_t *r, const mpd_t *a, const mpd_t *b,
                      const mpd_context_t *c, uint32_t *status)
{
    (void)mpd_compare_total(r, a, b);
}

void
_PyDecOp_CompareTotalMag(mpd_t *r, const mpd_t *a, const mpd_t *b,
                         const mpd_context_t *c, uint32_t *status)
{
    (void)mpd_compare_total_mag(r, a, b);
}

void
_PyDecOp_CopySign(mpd_t *r, const mpd_t *a, const mpd_t *b, const mpd_context_t *c,
                  uint32_t *status)
{
    (void)mpd_qcopy_sign(r, a, b, status);
}

int _PyDecOp_IsCanonical(const mpd_t *a, const mpd_context_t *c) { return mpd_iscanonical(a); }
int _PyDecOp_IsFinite(const mpd_t *a, const mpd_context_t *c) { return mpd_isfinite(a); }
int _PyDecOp_IsInfinite(const mpd_t *a, const mpd_context_t *c) { return mpd_isinfinite(a); }
int _PyDecOp_IsNan(const mpd_t *a, const mpd_context_t *c) { return mpd_isnan(a); }
int _PyDecOp_IsQnan(const mpd_t *a, const mpd_context_t *c) { return mpd_isqnan(a); }
int _PyDecOp_IsSnan(const mpd_t *a, const mpd_context_t *c) { return mpd_issnan(a); }
int _PyDecOp_IsSigned(const mpd_t *a, const mpd_context_t *c) { return mpd_isnegative(a); }
int _PyDecOp_IsZero(const mpd_t *a, const mpd_context_t *c) { return mpd_iszero(a); }
int _PyDecOp_IsNormal(const mpd_t *a, const mpd_context_t *c) { return mpd_isnormal(a, c); }
int _PyDecOp_IsSubnormal(const mpd_t *a, const mpd_context_t *c) { return mpd_issubnormal(a, c); }

/* ---- Runners ---------------------------------------------------------------- */

/* Hand RESULT back, or drop it when the status raised a trapped signal. */
static PyObject *
finish(PyDecObject *result, PyObject *ctx, uint32_t status)
{
    if (_PyDecContext_Record(ctx, status) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    return (PyObject *)result;
}

PyObject *
_PyDecOp_Unary(DecUnaryFn fn, PyObject *a, PyObject *ctx, const mpd_context_t *limits)
{
    PyDecObject *result = _PyDec_Alloc(&_PyDec_Type);
    if (result == NULL) {
        return NULL;
    }
    uint32_t status = 0;
    fn(result->value, DEC_VALUE(a), limits ? limits : LIMITS(ctx), &status);
    return finish(result, ctx, status);
}

PyObject *
_PyDecOp_Binary(DecBinaryFn fn, PyObject *a, PyObject *b, PyObject *ctx,
                const mpd_context_t *limits)
{
    PyDecObject *result = _PyDec_Alloc(&_PyDec_Type);
    if (result == NULL) {
        return NULL;
    }
    uint32_t status = 0;
    fn(result->value, DEC_VALUE(a), DEC_VALUE(b), limits ? limits : LIMITS(ctx),
       &status);
    return finish(result, ctx, status);
}

PyObject *
_PyDecOp_Radix(void)
{
    PyDecObject *result = _PyDec_Alloc(&_PyDec_Type);
    if (result != NULL) {
        uint32_t status = 0;
        mpd_qset_i64_exact(result->value, 10, &status);
    }
    return (PyObject *)result;
}

PyObject *
_PyDecOp_Fma(PyObject *a, PyObject *b, PyObject *c, PyObject *ctx)
{
    PyDecObject *result = _PyDec_Alloc(&_PyDec_Type);
    if (result == NULL) {
        return NULL;
    }
    uint32_t status = 0;
    mpd_qfma(result->value, DEC_VALUE(a), DEC_VALUE(b), DEC_VALUE(c), LIMITS(ctx),
             &status);
    return finish(result, ctx, status);
}

/* base ** exp, or (base ** exp) % mod computed without the huge power. */
PyObject *
_PyDecOp_Power(PyObject *base, PyObject *exp, PyObject *mod, PyObject *ctx)
{
    PyDecObject *result = _PyDec_Alloc(&_PyDec_Type);
    if (result == NULL) {
        return NULL;
    }
    uint32_t status = 0;
    if (mod == NULL) {
        mpd_qpow(result->value, DEC_VALUE(base), DEC_VALUE(exp), LIMITS(ctx), &status);
    }
    else {
        mpd_qpowmod(result->value, DEC_VALUE(base), DEC_VALUE(exp), DEC_VALUE(mod),
                    LIMITS(ctx), &status);
    }
    return finish(result, ctx, status);
}

PyObject *
_PyDecOp_Divmod(PyObject *a, PyObject *b, PyObject *ctx)
{
    PyDecObject *q = _PyDec_Alloc(&_PyDec_Type);
    PyDecObject *r = q ? _PyDec_Alloc(&_PyDec_Type) : NULL;
    if (r == NULL) {
        Py_XDECREF(q);
        return NULL;
    }
    uint32_t status = 0;
    mpd_qdivmod(q->value, r->value, DEC_VALUE(a), DEC_VALUE(b), LIMITS(ctx), &status);
    if (_PyDecContext_Record(ctx, status) < 0) {
        Py_DECREF(q);
        Py_DECREF(r);
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, (PyObject *)q, (PyObject *)r);
    Py_DECREF(q);
    Py_DECREF(r);
    return pair;
}

PyObject *
_PyDecOp_NumberClass(PyObject *a, PyObject *ctx)
{
    return PyUnicode_FromString(mpd_class(DEC_VALUE(a), LIMITS(ctx)));
}

/* ---- Context method bodies ---------------------------------------------------- */

/* Convert each of N operands (int or Decimal) or fail with TypeError. */
static int
convert_operands(PyObject *ctx, PyObject **ops, int n)
{
    for (int i = 0; i < n; i++) {
        PyObject *dec = _PyDec_Convert(ops[i], ctx, 0);
        if (dec == NULL) {
            for (int j = 0; j < i; j++) {
                Py_DECREF(ops[j]);
            }
            return -1;
        }
        ops[i] = dec;
    }
    return 0;
}

static void
release_operands(PyObject **ops, int n)
{
    for (int i = 0; i < n; i++) {
        Py_XDECREF(ops[i]);
    }
}

PyObject *
_PyDecOp_ContextUnary(PyObject *ctx, PyObject *a, DecUnaryFn fn)
{
    if (convert_operands(ctx, &a, 1) < 0) {
        return NULL;
    }
    PyObject *result = _PyDecOp_Unary(fn, a, ctx, NULL);
    Py_DECREF(a);
    return result;
}

PyObject *
_PyDecOp_ContextBinary(PyObject *ctx, PyObject *args, DecBinaryFn fn)
{
    PyObject *ops[2];
    if (!PyArg_ParseTuple(args, "OO", &ops[0], &ops[1])
        || convert_operands(ctx, ops, 2) < 0) {
        return NULL;
    }
    PyObject *result = _PyDecOp_Binary(fn, ops[0], ops[1], ctx, NULL);
    release_operands(ops, 2);
    return result;
}

PyObject *
_PyDecOp_ContextPredicate(PyObject *ctx, PyObject *a, DecPredicateFn fn)
{
    if (fn == _PyDecOp_IsCanonical && !PyDec_Check(a)) {
        /* Only a Decimal can be asked whether it is canonical. */
        PyErr_SetString(PyExc_TypeError, "argument must be a Decimal");
        return NULL;
    }
    if (convert_operands(ctx, &a, 1) < 0) {
        return NULL;
    }
    int truth = fn(DEC_VALUE(a), LIMITS(ctx));
    Py_DECREF(a);
    return PyBool_FromLong(truth);
}

PyObject *
_PyDecOp_ContextFma(PyObject *ctx, PyObject *args)
{
    PyObject *ops[3];
    if (!PyArg_ParseTuple(args, "OOO", &ops[0], &ops[1], &ops[2])
        || convert_operands(ctx, ops, 3) < 0) {
        return NULL;
    }
    PyObject *result = _PyDecOp_Fma(ops[0], ops[1], ops[2], ctx);
    release_operands(ops, 3);
    return result;
}

PyObject *
_PyDecOp_ContextPower(PyObject *ctx, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"a", "b", "modulo", NULL};
    PyObject *ops[3] = {NULL, NULL, Py_None};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O", kwlist,
                                     &ops[0], &ops[1], &ops[2])) {
        return NULL;
    }
    int n = ops[2] == Py_None ? 2 : 3;
    if (convert_operands(ctx, ops, n) < 0) {
        return NULL;
    }
    PyObject *result = _PyDecOp_Power(ops[0], ops[1], n == 3 ? ops[2] : NULL, ctx);
    release_operands(ops, n);
    return result;
}

PyObject *
_PyDecOp_ContextDivmod(PyObject *ctx, PyObject *args)
{
    PyObject *ops[2];
    if (!PyArg_ParseTuple(args, "OO", &ops[0], &ops[1])
        || convert_operands(ctx, ops, 2) < 0) {
        return NULL;
    }
    PyObject *result = _PyDecOp_Divmod(ops[0], ops[1], ctx);
    release_operands(ops, 2);
    return result;
}

PyObject *
_PyDecOp_ContextSameQuantum(PyObject *ctx, PyObject *args)
{
    PyObject *ops[2];
    if (!PyArg_ParseTuple(args, "OO", &ops[0], &ops[1])
        || convert_operands(ctx, ops, 2) < 0) {
        return NULL;
    }
    int same = mpd_same_quantum(DEC_VALUE(ops[0]), DEC_VALUE(ops[1]));
    release_operands(ops, 2);
    return PyBool_FromLong(same);
}

PyObject *
_PyDecOp_ContextNumberClass(PyObject *ctx, PyObject *a)
{
    if (convert_operands(ctx, &a, 1) < 0) {
        return NULL;
    }
    PyObject *result = _PyDecOp_NumberClass(a, ctx);
    Py_DECREF(a);
    return result;
}

static PyObject *
context_to_string(PyObject *ctx, PyObject *a, int eng)
{
    if (convert_operands(ctx, &a, 1) < 0) {
        return NULL;
    }
    PyObject *result = _PyDec_ToString(a, eng, ctx);
    Py_DECREF(a);
    return result;
}

PyObject *
_PyDecOp_ContextToSci(PyObject *ctx, PyObject *a)
{
    return context_to_string(ctx, a, 0);
}

PyObject *
_PyDecOp_ContextToEng(PyObject *ctx, PyObject *a)
{
    return context_to_string(ctx, a, 1);
}

PyObject *
_PyDecOp_ContextCanonical(PyObject *ctx, PyObject *a)
{
    if (!PyDec_Check(a)) {
        PyErr_SetString(PyExc_TypeError, "argument must be a Decimal");
        return NULL;
    }
    return Py_NewRef(a);
}

PyObject *
_PyDecOp_ContextCopyDecimal(PyObject *ctx, PyObject *a)
{
    return _PyDec_Convert(a, ctx, 0);
}
