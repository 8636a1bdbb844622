/* Conversions between Decimal and other types, string forms, tuples,
   integer ratios, rounding to an int and __format__.

   Exact conversions run under libmpdec's maximum context, so nothing is
   rounded; their status (a syntax error, say) still goes to the caller's
   context, which decides whether it raises. */

#include "decimal_ops.h"
#include "pycore_long.h"        /* _PyLong_FromByteArray, _PyLong_AsByteArray */
#include <locale.h>

#define LIMITS(ctx) (&((PyDecContextObject *)(ctx))->limits)

static void
exact_limits(mpd_context_t *limits)
{
    mpd_maxcontext(limits);
}

/* ---- From int -------------------------------------------------------------- */

/* DST = V exactly.  Small ints go directly; larger ones through their
   base-65536 digits. */
int
_PyDec_SetFromLong(mpd_t *dst, PyObject *v, uint32_t *status)
{
    int overflow;
    long long small = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (small == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (!overflow) {
        mpd_qset_i64_exact(dst, small, status);
        return 0;
    }
    PyObject *magnitude = PyNumber_Absolute(v);
    if (magnitude == NULL) {
        return -1;
    }
    size_t nbits = (size_t)_PyLong_NumBits(magnitude);
    size_t ndigits = (nbits + 15) / 16;
    unsigned char *bytes = PyMem_Malloc(ndigits * 2);
    uint16_t *digits = PyMem_Malloc(ndigits * sizeof(uint16_t));
    int rc = -1;
    if (bytes == NULL || digits == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (_PyLong_AsByteArray((PyLongObject *)magnitude, bytes, ndigits * 2, 1, 0, 1) < 0) {
        goto done;
    }
    for (size_t i = 0; i < ndigits; i++) {
        digits[i] = (uint16_t)(bytes[2 * i] | (bytes[2 * i + 1] << 8));
    }
    mpd_context_t limits;
    exact_limits(&limits);
    mpd_qimport_u16(dst, digits, ndigits, overflow < 0 ? MPD_NEG : MPD_POS, 1U << 16,
                    &limits, status);
    rc = 0;
done:
    PyMem_Free(bytes);
    PyMem_Free(digits);
    Py_DECREF(magnitude);
    return rc;
}

static PyObject *
finish_exact(PyDecObject *dec, PyObject *ctx, uint32_t status)
{
    if (_PyDecContext_Record(ctx, status) < 0) {
        Py_DECREF(dec);
        return NULL;
    }
    return (PyObject *)dec;
}

PyObject *
_PyDec_FromLongExact(PyTypeObject *type, PyObject *v, PyObject *ctx)
{
    PyDecObject *dec = _PyDec_Alloc(type);
    if (dec == NULL) {
        return NULL;
    }
    uint32_t status = 0;
    if (_PyDec_SetFromLong(dec->value, v, &status) < 0) {
        Py_DECREF(dec);
        return NULL;
    }
    return finish_exact(dec, ctx, status);
}

/* ---- From float ------------------------------------------------------------------ */

/* A finite double is n / 2**k = n * 5**k / 10**k: exact in decimal. */
static int
set_from_double(mpd_t *dst, PyObject *f, uint32_t *status)
{
    double x = PyFloat_AS_DOUBLE(f);
    if (isnan(x)) {
        mpd_setspecial(dst, MPD_POS, MPD_NAN);
        return 0;
    }
    if (isinf(x)) {
        mpd_setspecial(dst, x < 0 ? MPD_NEG : MPD_POS, MPD_INF);
        return 0;
    }
    PyObject *ratio = PyObject_CallMethod(f, "as_integer_ratio", NULL);
    if (ratio == NULL) {
        return -1;
    }
    PyObject *numerator = PyTuple_GET_ITEM(ratio, 0);
    PyObject *denominator = PyTuple_GET_ITEM(ratio, 1);
    mpd_ssize_t k = (mpd_ssize_t)_PyLong_NumBits(denominator) - 1;
    mpd_t *five_power = mpd_qnew(), *five = mpd_qnew(), *k_dec = mpd_qnew();
    int rc = -1;
    if (five_power == NULL || five == NULL || k_dec == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (_PyDec_SetFromLong(dst, numerator, status) < 0) {
        goto done;
    }
    mpd_context_t limits;
    exact_limits(&limits);
    mpd_qset_i64_exact(five, 5, status);
    mpd_qset_i64_exact(k_dec, k, status);
    mpd_qpow(five_power, five, k_dec, &limits, status);
    mpd_qmul(dst, dst, five_power, &limits, status);
    dst->exp -= k;
    if (signbit(x) && mpd_iszero(dst)) {
        mpd_set_negative(dst);
    }
    rc = 0;
done:
    if (five_power) mpd_del(five_power);
    if (five) mpd_del(five);
    if (k_dec) mpd_del(k_dec);
    Py_DECREF(ratio);
    return rc;
}

PyObject *
_PyDec_FromFloatExact(PyTypeObject *type, PyObject *v, PyObject *ctx)
{
    PyDecObject *dec = _PyDec_Alloc(type);
    if (dec == NULL) {
        return NULL;
    }
    uint32_t status = 0;
    if (set_from_double(dec->value, v, &status) < 0) {
        Py_DECREF(dec);
        return NULL;
    }
    return finish_exact(dec, ctx, status);
}

/* The implicit float conversions (constructor, create_decimal) signal
   FloatOperation first. */
static int
signal_float_operation(PyObject *ctx)
{
    return _PyDecContext_Record(ctx, DEC_FLOAT_OPERATION);
}

/* ---- From str ---------------------------------------------------------------------- */

/* The ASCII text libmpdec parses: surrounding whitespace stripped, other
   Unicode decimal digits mapped to ASCII and underscores dropped.  Anything
   it cannot map becomes a character libmpdec rejects. */
static char *
numeric_ascii(PyObject *s)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    Py_ssize_t start = 0, end = len;
    while (start < end && Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(s, start))) {
        start++;
    }
    while (end > start && Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(s, end - 1))) {
        end--;
    }
    char *out = PyMem_Malloc(end - start + 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 ch = PyUnicode_READ_CHAR(s, i);
        if (ch == '_') {
            continue;           /* CPython's decimal drops every underscore */
        }
        else if (ch < 128 && ch != 0) {
            out[n++] = (char)ch;
        }
        else if (Py_UNICODE_ISDECIMAL(ch)) {
            out[n++] = (char)('0' + Py_UNICODE_TODECIMAL(ch));
        }
        else {
            out[n++] = '#';
        }
    }
    out[n] = '\0';
    return out;
}

static PyObject *
from_string(PyTypeObject *type, PyObject *s, PyObject *ctx, const mpd_context_t *limits)
{
    char *text = numeric_ascii(s);
    if (text == NULL) {
        return NULL;
    }
    PyDecObject *dec = _PyDec_Alloc(type);
    if (dec == NULL) {
        PyMem_Free(text);
        return NULL;
    }
    uint32_t status = 0;
    mpd_qset_string(dec->value, text, limits, &status);
    PyMem_Free(text);
    return finish_exact(dec, ctx, status);
}

/* ---- From tuple -------------------------------------------------------------------------- */

static const char *
tuple_special(PyObject *exponent)
{
    const char *tag = PyUnicode_AsUTF8(exponent);
    if (tag == NULL) {
        return NULL;
    }
    if (strcmp(tag, "F") == 0) {
        return "Inf";
    }
    if (strcmp(tag, "n") == 0) {
        return "NaN";
    }
    if (strcmp(tag, "N") == 0) {
        return "sNaN";
    }
    PyErr_SetString(PyExc_ValueError,
                    "string argument in the third position must be 'F', 'n' or 'N'");
    return NULL;
}

static int
append_digits(PyObject *digits, PyObject *out_list)
{
    PyObject *items = PySequence_Fast(digits, "coefficient must be a tuple of digits");
    if (items == NULL) {
        PyErr_SetString(PyExc_ValueError, "coefficient must be a tuple of digits");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(items); i++) {
        PyObject *d = PySequence_Fast_GET_ITEM(items, i);
        long v = PyLong_Check(d) ? PyLong_AsLong(d) : -1;
        if (v < 0 || v > 9) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "coefficient must be a tuple of digits");
            Py_DECREF(items);
            return -1;
        }
        PyObject *ch = PyUnicode_FromOrdinal('0' + (int)v);
        if (ch == NULL || PyList_Append(out_list, ch) < 0) {
            Py_XDECREF(ch);
            Py_DECREF(items);
            return -1;
        }
        Py_DECREF(ch);
    }
    Py_DECREF(items);
    return 0;
}

/* (sign, digits, exponent) as the string libmpdec would parse. */
static PyObject *
tuple_as_string(PyObject *v)
{
    PyObject *items = PySequence_Tuple(v);
    if (items == NULL) {
        return NULL;
    }
    PyObject *parts = NULL, *result = NULL;
    if (PyTuple_GET_SIZE(items) != 3) {
        PyErr_SetString(PyExc_ValueError, "argument must be a sequence of length 3");
        goto done;
    }
    PyObject *sign = PyTuple_GET_ITEM(items, 0), *exponent = PyTuple_GET_ITEM(items, 2);
    long sign_value = PyLong_Check(sign) ? PyLong_AsLong(sign) : -1;
    if (sign_value != 0 && sign_value != 1) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "sign must be an integer with the value 0 or 1");
        goto done;
    }
    const char *special = NULL;
    if (PyUnicode_Check(exponent)) {
        if ((special = tuple_special(exponent)) == NULL) {
            goto done;
        }
    }
    else if (!PyLong_Check(exponent)) {
        PyErr_SetString(PyExc_ValueError, "exponent must be an integer");
        goto done;
    }
    parts = PyList_New(0);
    if (parts == NULL) {
        goto done;
    }
    if (append_digits(PyTuple_GET_ITEM(items, 1), parts) < 0) {
        goto done;
    }
    PyObject *empty = PyUnicode_FromString("");
    PyObject *digits = empty ? PyUnicode_Join(empty, parts) : NULL;
    Py_XDECREF(empty);
    if (digits == NULL) {
        goto done;
    }
    const char *minus = sign_value ? "-" : "";
    if (special != NULL && strcmp(special, "Inf") == 0) {
        result = PyUnicode_FromFormat("%sInf", minus);
    }
    else if (special != NULL) {
        result = PyUnicode_FromFormat("%s%s%U", minus, special, digits);
    }
    else {
        if (PyUnicode_GET_LENGTH(digits) == 0) {
            Py_SETREF(digits, PyUnicode_FromString("0"));
            if (digits == NULL) {
                goto done;
            }
        }
        result = PyUnicode_FromFormat("%s%UE%S", minus, digits, exponent);
    }
    Py_DECREF(digits);
done:
    Py_XDECREF(parts);
    Py_DECREF(items);
    return result;
}

/* ---- Dispatch -------------------------------------------------------------------------------- */

static PyObject *
copy_decimal(PyTypeObject *type, PyObject *v, PyObject *ctx)
{
    if (type == &_PyDec_Type && Py_IS_TYPE(v, &_PyDec_Type)) {
        return Py_NewRef(v);
    }
    PyDecObject *dec = _PyDec_Alloc(type);
    if (dec == NULL) {
        return NULL;
    }
    uint32_t status = 0;
    mpd_qcopy(dec->value, DEC_VALUE(v), &status);
    return finish_exact(dec, ctx, status);
}

/* V (NULL for zero) as an instance of TYPE, exactly. */
PyObject *
_PyDec_FromObjectExact(PyTypeObject *type, PyObject *v, PyObject *ctx)
{
    mpd_context_t limits;
    exact_limits(&limits);
    if (v == NULL) {
        PyDecObject *zero = _PyDec_Alloc(type);
        if (zero != NULL) {
            uint32_t status = 0;
            mpd_qset_i64_exact(zero->value, 0, &status);
        }
        return (PyObject *)zero;
    }
    if (PyDec_Check(v)) {
        return copy_decimal(type, v, ctx);
    }
    if (PyUnicode_Check(v)) {
        return from_string(type, v, ctx, &limits);
    }
    if (PyLong_Check(v)) {
        return _PyDec_FromLongExact(type, v, ctx);
    }
    if (PyFloat_Check(v)) {
        if (signal_float_operation(ctx) < 0) {
            return NULL;
        }
        return _PyDec_FromFloatExact(type, v, ctx);
    }
    if (PyTuple_Check(v) || PyList_Check(v)) {
        PyObject *text = tuple_as_string(v);
        if (text == NULL) {
            return NULL;
        }
        PyObject *result = from_string(type, text, ctx, &limits);
        Py_DECREF(text);
        return result;
    }
    PyErr_Format(PyExc_TypeError, "conversion from %s to Decimal is not supported",
                 Py_TYPE(v)->tp_name);
    return NULL;
}

/* create_decimal: V rounded to CTX. */
PyObject *
_PyDec_FromObjectRounded(PyObject *v, PyObject *ctx)
{
    if (PyUnicode_Check(v)) {
        return from_string(&_PyDec_Type, v, ctx, LIMITS(ctx));
    }
    PyObject *exact = _PyDec_FromObjectExact(&_PyDec_Type, v, ctx);
    if (exact == NULL) {
        return NULL;
    }
    PyObject *rounded = _PyDecOp_Unary(_PyDecOp_Apply, exact, ctx, NULL);
    Py_DECREF(exact);
    return rounded;
}

/* For comparisons: a numbers.Rational's numerator as a Decimal, else
   NotImplemented. */
PyObject *
_PyDec_ConvertRational(PyObject *v, PyObject *ctx)
{
    PyObject *numbers = PyImport_ImportModule("numbers");
    if (numbers == NULL) {
        return NULL;
    }
    PyObject *rational = PyObject_GetAttrString(numbers, "Rational");
    Py_DECREF(numbers);
    if (rational == NULL) {
        return NULL;
    }
    int is_rational = PyObject_IsInstance(v, rational);
    Py_DECREF(rational);
    if (is_rational <= 0) {
        return is_rational < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *numerator = PyObject_GetAttrString(v, "numerator");
    if (numerator == NULL) {
        return NULL;
    }
    PyObject *result = _PyDec_FromLongExact(&_PyDec_Type, numerator, ctx);
    Py_DECREF(numerator);
    return result;
}

/* ---- To int and float ---------------------------------------------------------------------- */

static int
refuse_special(const mpd_t *v, const char *what)
{
    if (mpd_isnan(v)) {
        PyErr_Format(PyExc_ValueError, "cannot convert NaN to %s", what);
        return -1;
    }
    if (mpd_isinfinite(v)) {
        PyErr_Format(PyExc_OverflowError, "cannot convert Infinity to %s", what);
        return -1;
    }
    return 0;
}

/* An integral mpd_t as a Python int. */
static PyObject *
integral_to_long(const mpd_t *v)
{
    uint32_t status = 0;
    int64_t small = mpd_qget_i64(v, &status);
    if (!(status & MPD_Invalid_operation)) {
        return PyLong_FromLongLong(small);
    }
    status = 0;
    uint16_t *digits = NULL;
    size_t n = mpd_qexport_u16(&digits, 0, 1U << 16, v, &status);
    if (n == SIZE_MAX || digits == NULL) {
        return PyErr_NoMemory();
    }
    unsigned char *bytes = PyMem_Malloc(n * 2);
    if (bytes == NULL) {
        mpd_free(digits);
        return PyErr_NoMemory();
    }
    for (size_t i = 0; i < n; i++) {
        bytes[2 * i] = (unsigned char)(digits[i] & 0xff);
        bytes[2 * i + 1] = (unsigned char)(digits[i] >> 8);
    }
    mpd_free(digits);
    PyObject *magnitude = _PyLong_FromByteArray(bytes, n * 2, 1, 0);
    PyMem_Free(bytes);
    if (magnitude == NULL || !mpd_isnegative(v)) {
        return magnitude;
    }
    PyObject *negated = PyNumber_Negative(magnitude);
    Py_DECREF(magnitude);
    return negated;
}

PyObject *
_PyDec_ToLong(PyObject *dec, int round)
{
    const mpd_t *v = DEC_VALUE(dec);
    if (refuse_special(v, "integer") < 0) {
        return NULL;
    }
    mpd_t *integral = mpd_qnew();
    if (integral == NULL) {
        return PyErr_NoMemory();
    }
    mpd_context_t limits;
    exact_limits(&limits);
    limits.round = round;
    uint32_t status = 0;
    mpd_qround_to_int(integral, v, &limits, &status);
    PyObject *result = (status & MPD_Malloc_error) ? PyErr_NoMemory()
                                                   : integral_to_long(integral);
    mpd_del(integral);
    return result;
}

PyObject *
_PyDec_ToFloat(PyObject *dec)
{
    const mpd_t *v = DEC_VALUE(dec);
    if (mpd_issnan(v)) {
        PyErr_SetString(PyExc_ValueError, "cannot convert signaling NaN to float");
        return NULL;
    }
    if (mpd_isnan(v)) {
        return PyFloat_FromDouble(mpd_isnegative(v) ? -NAN : NAN);
    }
    char *text = mpd_to_sci(v, 1);
    if (text == NULL) {
        return PyErr_NoMemory();
    }
    double x = PyOS_string_to_double(text, NULL, NULL);
    mpd_free(text);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyFloat_FromDouble(x);
}

/* ---- Strings and tuples --------------------------------------------------------------------- */

PyObject *
_PyDec_ToString(PyObject *dec, int eng, PyObject *ctx)
{
    int capitals = 1;
    if (ctx == NULL) {
        PyObject *current = _PyDecContext_Current();
        if (current == NULL) {
            return NULL;
        }
        capitals = ((PyDecContextObject *)current)->capitals;
        Py_DECREF(current);
    }
    else {
        capitals = ((PyDecContextObject *)ctx)->capitals;
    }
    char *text = eng ? mpd_to_eng(DEC_VALUE(dec), capitals)
                     : mpd_to_sci(DEC_VALUE(dec), capitals);
    if (text == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = PyUnicode_FromString(text);
    mpd_free(text);
    return result;
}

/* The coefficient (or NaN payload) of V as a tuple of ints. */
static PyObject *
coefficient_digits(const mpd_t *v)
{
    if (mpd_isinfinite(v)) {
        return Py_BuildValue("(i)", 0);
    }
    if (mpd_isnan(v) && (v->len == 0 || mpd_iszerocoeff(v))) {
        return PyTuple_New(0);
    }
    mpd_t *coefficient = mpd_qncopy(v);
    if (coefficient == NULL) {
        return PyErr_NoMemory();
    }
    mpd_set_flags(coefficient, 0);
    coefficient->exp = 0;
    char *text = mpd_to_sci(coefficient, 1);
    mpd_del(coefficient);
    if (text == NULL) {
        return PyErr_NoMemory();
    }
    size_t n = strlen(text);
    PyObject *digits = PyTuple_New((Py_ssize_t)n);
    for (size_t i = 0; digits != NULL && i < n; i++) {
        PyTuple_SET_ITEM(digits, i, PyLong_FromLong(text[i] - '0'));
    }
    mpd_free(text);
    return digits;
}

PyObject *
_PyDec_AsTuple(PyObject *dec)
{
    const mpd_t *v = DEC_VALUE(dec);
    PyObject *digits = coefficient_digits(v);
    if (digits == NULL) {
        return NULL;
    }
    PyObject *exponent;
    if (mpd_isinfinite(v)) {
        exponent = PyUnicode_FromString("F");
    }
    else if (mpd_isnan(v)) {
        exponent = PyUnicode_FromString(mpd_issnan(v) ? "N" : "n");
    }
    else {
        exponent = PyLong_FromSsize_t((Py_ssize_t)v->exp);
    }
    if (exponent == NULL) {
        Py_DECREF(digits);
        return NULL;
    }
    return PyObject_CallFunction(_PyDec_DecimalTuple, "iNN", mpd_isnegative(v) ? 1 : 0,
                                 digits, exponent);
}

PyObject *
_PyDec_AsIntegerRatio(PyObject *dec)
{
    const mpd_t *v = DEC_VALUE(dec);
    if (refuse_special(v, "integer ratio") < 0) {
        return NULL;
    }
    mpd_t *coefficient = mpd_qncopy(v);
    if (coefficient == NULL) {
        return PyErr_NoMemory();
    }
    coefficient->exp = 0;
    PyObject *numerator = integral_to_long(coefficient);
    mpd_del(coefficient);
    PyObject *ten = PyLong_FromLong(10);
    PyObject *scale = NULL, *denominator = NULL, *result = NULL;
    PyObject *magnitude = PyLong_FromSsize_t(v->exp < 0 ? -(Py_ssize_t)v->exp
                                                        : (Py_ssize_t)v->exp);
    if (numerator == NULL || ten == NULL || magnitude == NULL) {
        goto done;
    }
    scale = PyNumber_Power(ten, magnitude, Py_None);
    if (scale == NULL) {
        goto done;
    }
    if (v->exp >= 0) {
        Py_SETREF(numerator, PyNumber_Multiply(numerator, scale));
        denominator = PyLong_FromLong(1);
    }
    else {
        PyObject *gcd = _PyLong_GCD(numerator, scale);
        if (gcd == NULL) {
            goto done;
        }
        Py_SETREF(numerator, PyNumber_FloorDivide(numerator, gcd));
        denominator = PyNumber_FloorDivide(scale, gcd);
        Py_DECREF(gcd);
    }
    if (numerator != NULL && denominator != NULL) {
        result = PyTuple_Pack(2, numerator, denominator);
    }
done:
    Py_XDECREF(numerator);
    Py_XDECREF(denominator);
    Py_XDECREF(scale);
    Py_XDECREF(ten);
    Py_XDECREF(magnitude);
    return result;
}

/* ---- __round__ ---------------------------------------------------------------------------------- */

PyObject *
_PyDec_Round(PyObject *dec, PyObject *args)
{
    PyObject *ndigits = Py_None;
    if (!PyArg_ParseTuple(args, "|O", &ndigits)) {
        return NULL;
    }
    if (ndigits == Py_None) {
        return _PyDec_ToLong(dec, MPD_ROUND_HALF_EVEN);
    }
    if (!PyLong_Check(ndigits)) {
        PyErr_SetString(PyExc_TypeError, "optional arg must be an integer");
        return NULL;
    }
    Py_ssize_t n = PyLong_AsSsize_t(ndigits);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Current();
    if (ctx == NULL) {
        return NULL;
    }
    PyDecObject *quantum = _PyDec_Alloc(&_PyDec_Type);
    PyObject *result = NULL;
    if (quantum != NULL) {
        uint32_t status = 0;
        mpd_qset_i64_exact(quantum->value, 1, &status);
        quantum->value->exp = -(mpd_ssize_t)n;
        result = _PyDecOp_Binary(mpd_qquantize, dec, (PyObject *)quantum, ctx, NULL);
        Py_DECREF(quantum);
    }
    Py_DECREF(ctx);
    return result;
}

/* ---- __format__ -------------------------------------------------------------------------------- */

static int
locale_override(PyObject *override, const char *key, const char **out)
{
    PyObject *value = PyDict_GetItemString(override, key);
    if (value == NULL) {
        return 0;
    }
    if (!PyUnicode_Check(value)) {
        /* CPython's message for a non-str entry of the override dict. */
        PyErr_SetString(PyExc_TypeError, "bad argument type for built-in operation");
        return -1;
    }
    *out = PyUnicode_AsUTF8(value);
    return *out ? 0 : -1;
}

/* The 'n' type takes its separators from the locale, or from OVERRIDE. */
static int
apply_locale(mpd_spec_t *spec, PyObject *override)
{
    struct lconv *lc = localeconv();
    spec->dot = lc->decimal_point;
    spec->sep = lc->thousands_sep;
    spec->grouping = lc->grouping;
    if (override != NULL
        && (locale_override(override, "decimal_point", &spec->dot) < 0
            || locale_override(override, "thousands_sep", &spec->sep) < 0
            || locale_override(override, "grouping", &spec->grouping) < 0)) {
        return -1;
    }
    if (mpd_validate_lconv(spec) < 0) {
        PyErr_SetString(PyExc_ValueError, "invalid override dict");
        return -1;
    }
    return 0;
}

PyObject *
_PyDec_Format(PyObject *dec, PyObject *args)
{
    PyObject *fmt, *override = NULL;
    if (!PyArg_ParseTuple(args, "O|O", &fmt, &override)) {
        return NULL;
    }
    if (!PyUnicode_Check(fmt)) {
        PyErr_Format(PyExc_TypeError, "format() argument 2 must be str, not %s",
                     Py_TYPE(fmt)->tp_name);
        return NULL;
    }
    if (override != NULL && !PyDict_Check(override)) {
        PyErr_SetString(PyExc_TypeError, "optional argument must be a dict");
        return NULL;
    }
    const char *text = PyUnicode_AsUTF8(fmt);
    if (text == NULL) {
        return NULL;
    }
    PyObject *ctx = _PyDecContext_Current();
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    mpd_spec_t spec;
    if (!mpd_parse_fmt_str(&spec, text, ((PyDecContextObject *)ctx)->capitals)) {
        PyErr_SetString(PyExc_ValueError, "invalid format string");
        goto done;
    }
    /* The parser already replaced the 'n' type, so look at the text. */
    size_t text_len = strlen(text);
    int locale_type = text_len > 0 && text[text_len - 1] == 'n';
    if (locale_type && apply_locale(&spec, override) < 0) {
        goto done;
    }
    uint32_t status = 0;
    char *formatted = mpd_qformat_spec(DEC_VALUE(dec), &spec, LIMITS(ctx), &status);
    if (formatted == NULL) {
        if (status & MPD_Malloc_error) {
            PyErr_NoMemory();
        }
        else {
            PyErr_SetString(PyExc_ValueError, "invalid format string");
        }
        goto done;
    }
    result = PyUnicode_DecodeUTF8(formatted, strlen(formatted), "replace");
    mpd_free(formatted);
done:
    Py_DECREF(ctx);
    return result;
}
