/* The int type: arbitrary-precision integers.

   Values are a sign plus a magnitude in base 2**30 (see
   Include/cpython/longintrepr.h for the layout).  Most algorithms work on
   bare digit arrays ("mag_*" helpers, magnitudes only, least significant
   digit first) and the object-level functions add signs and allocation.
   Ints that fit in one digit ("compact") take short paths everywhere, as
   they are by far the most common. */

#include "Python.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_format.h"
#include "pycore_pyhash.h"
#include "pycore_stress.h"
#include "pycore_floatobject.h"

#include <float.h>
#include <stddef.h>

#define DIGITS(v) ((v)->ob_digit)
#define NDIGITS(v) _PyLong_DigitCount(v)
#define SIGN(v) _PyLong_SignOf(v)
#define IS_COMPACT(v) _PyLong_IsCompact(v)
#define MEDIUM_VALUE(v) _PyLong_CompactValue(v)

/* Largest digit count we allocate.  Bit counts must fit in an int64_t
   and byte sizes in a Py_ssize_t. */
#define MAX_LONG_DIGITS \
    ((Py_ssize_t)((PY_SSIZE_T_MAX - offsetof(PyLongObject, ob_digit)) / sizeof(digit) / 4))

/* Below this many digits, multiplication is done the schoolbook way. */
#define KARATSUBA_CUTOFF 60
/* Exponents with more bits than this use 5-bit windows in pow(). */
#define POW_WINDOW_CUTOFF 96

#define DIV_ZERO_MSG "division by zero"

static PyObject *long_long(PyObject *v);
static PyObject *long_to_decimal_string(PyObject *v);
static PyObject *long_format_base(PyObject *v, int base, int prefix);

/* ---- The small-int cache ------------------------------------------------- */

#define SMALL_INT(v)                                                   \
    {PyObject_HEAD_INIT(&PyLong_Type)                                  \
     _PyLong_TAG((v) != 0, ((v) > 0) - ((v) < 0)),                     \
     {(digit)((v) < 0 ? -(v) : (v))}}
#define SMALL_4(v) SMALL_INT(v), SMALL_INT((v) + 1), SMALL_INT((v) + 2), SMALL_INT((v) + 3)
#define SMALL_16(v) SMALL_4(v), SMALL_4((v) + 4), SMALL_4((v) + 8), SMALL_4((v) + 12)
#define SMALL_64(v) SMALL_16(v), SMALL_16((v) + 16), SMALL_16((v) + 32), SMALL_16((v) + 48)
#define SMALL_256(v) SMALL_64(v), SMALL_64((v) + 64), SMALL_64((v) + 128), SMALL_64((v) + 192)

PyLongObject _PyLong_SMALL_INTS[_PY_NSMALLNEGINTS + _PY_NSMALLPOSINTS] = {
    SMALL_INT(-5), SMALL_INT(-4), SMALL_INT(-3), SMALL_INT(-2), SMALL_INT(-1),
    SMALL_256(0),
    SMALL_INT(256),
};

Py_BUILD_ASSERT(_PY_NSMALLNEGINTS == 5 && _PY_NSMALLPOSINTS == 257);

static inline PyObject *
small_int(Py_ssize_t value)
{
    return (PyObject *)&_PyLong_SMALL_INTS[_PY_NSMALLNEGINTS + value];
}

/* ---- Allocation --------------------------------------------------------- */

/* Single-digit ints die young and often: keep a few of them around. */
#define FREELIST_SIZE 100 /* the stress build keeps none (pycore_stress.h) */
static PyLongObject *freelist[FREELIST_SIZE];
static int freelist_len;

PyLongObject *
_PyLong_New(Py_ssize_t ndigits)
{
    PyLongObject *result;
    if (ndigits <= 1 && freelist_len > 0) {
        result = freelist[--freelist_len];
    }
    else {
        if (ndigits > MAX_LONG_DIGITS) {
            PyErr_SetString(PyExc_OverflowError, "too many digits in integer");
            return NULL;
        }
        size_t size = offsetof(PyLongObject, ob_digit) +
                      (size_t)Py_MAX(ndigits, 1) * sizeof(digit);
        result = (PyLongObject *)PyObject_Malloc(size);
        if (result == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    _PyObject_Init((PyObject *)result, &PyLong_Type);
    result->lv_tag = _PyLong_TAG(ndigits, 1);
    result->ob_digit[0] = 0;
    return result;
}

static void
long_free(PyLongObject *v)
{
    if (NDIGITS(v) <= 1 && !_Py_STRESS && freelist_len < FREELIST_SIZE) {
        freelist[freelist_len++] = v;
    }
    else {
        PyObject_Free(v);
    }
}

void
_PyLong_ClearFreeList(void)
{
    while (freelist_len > 0) {
        PyObject_Free(freelist[--freelist_len]);
    }
}

static void
long_dealloc(PyObject *self)
{
    if (PyLong_CheckExact(self)) {
        long_free((PyLongObject *)self);
    }
    else {
        Py_TYPE(self)->tp_free(self);
    }
}

/* Drop a freshly made int that nobody else has seen. */
static void
long_discard(PyLongObject *v)
{
    _Py_DEC_REFTOTAL();
    long_free(v);
}

/* Finish an int built in place: strip leading zero digits, set the sign
   and swap in the cached object for small values. */
static PyObject *
long_normalize(PyLongObject *v, Py_ssize_t ndigits, int negative)
{
    while (ndigits > 0 && DIGITS(v)[ndigits - 1] == 0) {
        ndigits--;
    }
    if (ndigits <= 1) {
        Py_ssize_t value = ndigits ? (Py_ssize_t)DIGITS(v)[0] : 0;
        if (negative) {
            value = -value;
        }
        if (_PyLong_IsSmallIntValue(value)) {
            long_discard(v);
            return small_int(value);
        }
    }
    if (ndigits == 0) {
        DIGITS(v)[0] = 0;
        negative = 0;
    }
    v->lv_tag = _PyLong_TAG(ndigits, ndigits == 0 ? 0 : (negative ? -1 : 1));
    return (PyObject *)v;
}

/* An int from a value of at most 63 bits of magnitude. */
static PyObject *
long_from_mag64(uint64_t mag, int negative)
{
    if (mag < _PY_NSMALLPOSINTS && (!negative || mag <= _PY_NSMALLNEGINTS)) {
        return small_int(negative ? -(Py_ssize_t)mag : (Py_ssize_t)mag);
    }
    /* 63 bits are at most three digits. */
    Py_ssize_t n = mag < ((uint64_t)1 << PyLong_SHIFT) ? 1 : mag < ((uint64_t)1 << (2 * PyLong_SHIFT)) ? 2 : 3;
    PyLongObject *v = _PyLong_New(n);
    if (v == NULL) {
        return NULL;
    }
    digit *d = DIGITS(v);
    d[0] = (digit)(mag & PyLong_MASK);
    if (n > 1) {
        d[1] = (digit)((mag >> PyLong_SHIFT) & PyLong_MASK);
        if (n > 2) {
            d[2] = (digit)(mag >> (2 * PyLong_SHIFT));
        }
    }
    v->lv_tag = _PyLong_TAG(n, negative ? -1 : 1);
    return (PyObject *)v;
}

static inline PyObject *
long_from_int64(int64_t x)
{
    if (_PyLong_IsSmallIntValue((Py_ssize_t)x)) {
        return small_int((Py_ssize_t)x);
    }
    uint64_t mag = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    if (mag < PyLong_BASE) {
        PyLongObject *v = _PyLong_New(1);
        if (v == NULL) {
            return NULL;
        }
        DIGITS(v)[0] = (digit)mag;
        v->lv_tag = _PyLong_TAG(1, x < 0 ? -1 : 1);
        return (PyObject *)v;
    }
    return long_from_mag64(mag, x < 0);
}

PyObject *
_PyLong_FromSTwoDigits(stwodigits x)
{
    return long_from_int64(x);
}

PyObject *
_PyLong_FromDigits(int negative, Py_ssize_t digit_count, const digit *digits)
{
    PyLongObject *v = _PyLong_New(digit_count);
    if (v == NULL) {
        return NULL;
    }
    if (digit_count > 0) {
        memcpy(DIGITS(v), digits, (size_t)digit_count * sizeof(digit));
    }
    return long_normalize(v, digit_count, negative);
}

PyObject *
_PyLong_Copy(PyLongObject *src)
{
    if (IS_COMPACT(src)) {
        return long_from_int64(MEDIUM_VALUE(src));
    }
    Py_ssize_t n = NDIGITS(src);
    PyLongObject *v = _PyLong_New(n);
    if (v == NULL) {
        return NULL;
    }
    memcpy(DIGITS(v), DIGITS(src), (size_t)n * sizeof(digit));
    v->lv_tag = src->lv_tag;
    return (PyObject *)v;
}

/* ---- Conversions from C types ------------------------------------------- */

PyObject *
PyLong_FromLong(long v)
{
    return long_from_int64(v);
}

PyObject *
PyLong_FromLongLong(long long v)
{
    return long_from_int64(v);
}

PyObject *
PyLong_FromSsize_t(Py_ssize_t v)
{
    return long_from_int64(v);
}

PyObject *
PyLong_FromInt32(int32_t v)
{
    return long_from_int64(v);
}

PyObject *
PyLong_FromInt64(int64_t v)
{
    return long_from_int64(v);
}

/* Unsigned 64-bit values may need a third digit. */
static PyObject *
long_from_u64(uint64_t v)
{
    if (v < ((uint64_t)1 << 62)) {
        return long_from_mag64(v, 0);
    }
    PyLongObject *r = _PyLong_New(3);
    if (r == NULL) {
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        DIGITS(r)[i] = (digit)(v & PyLong_MASK);
        v >>= PyLong_SHIFT;
    }
    return (PyObject *)r;
}

PyObject *
PyLong_FromUnsignedLong(unsigned long v)
{
    return long_from_u64(v);
}

PyObject *
PyLong_FromUnsignedLongLong(unsigned long long v)
{
    return long_from_u64(v);
}

PyObject *
PyLong_FromSize_t(size_t v)
{
    return long_from_u64(v);
}

PyObject *
PyLong_FromUInt32(uint32_t v)
{
    return long_from_u64(v);
}

PyObject *
PyLong_FromUInt64(uint64_t v)
{
    return long_from_u64(v);
}

PyObject *
PyLong_FromVoidPtr(void *p)
{
    return long_from_u64((uintptr_t)p);
}

PyObject *
PyLong_FromDouble(double d)
{
    if (d > -9.2e18 && d < 9.2e18) {
        return long_from_int64((int64_t)d);
    }
    if (isinf(d)) {
        PyErr_SetString(PyExc_OverflowError, "cannot convert float infinity to integer");
        return NULL;
    }
    if (isnan(d)) {
        PyErr_SetString(PyExc_ValueError, "cannot convert float NaN to integer");
        return NULL;
    }
    int negative = d < 0, e;
    double frac = frexp(negative ? -d : d, &e);  /* e > 63 here */
    Py_ssize_t n = (e - 1) / PyLong_SHIFT + 1;
    PyLongObject *v = _PyLong_New(n);
    if (v == NULL) {
        return NULL;
    }
    /* Peel bits off the top: frac holds the remaining fraction. */
    frac = ldexp(frac, (e - 1) % PyLong_SHIFT + 1);
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        digit bits = (digit)frac;
        DIGITS(v)[i] = bits;
        frac = ldexp(frac - (double)bits, PyLong_SHIFT);
    }
    v->lv_tag = _PyLong_TAG(n, negative ? -1 : 1);
    return (PyObject *)v;
}

/* ---- Conversions to C types --------------------------------------------- */

/* The magnitude as a uint64_t; -1 if it does not fit. */
static int
long_mag_u64(PyLongObject *v, uint64_t *out)
{
    Py_ssize_t n = NDIGITS(v);
    uint64_t x = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        if (x >> (64 - PyLong_SHIFT)) {
            return -1;
        }
        x = (x << PyLong_SHIFT) | DIGITS(v)[i];
    }
    *out = x;
    return 0;
}

/* v as an int64_t; *overflow = +1/-1 (and 0 returned... -1) when out of
   range. */
static int64_t
long_as_int64_overflow(PyLongObject *v, int *overflow)
{
    *overflow = 0;
    if (IS_COMPACT(v)) {
        return MEDIUM_VALUE(v);
    }
    uint64_t mag;
    if (long_mag_u64(v, &mag) < 0) {
        *overflow = SIGN(v);
        return -1;
    }
    if (SIGN(v) < 0) {
        if (mag <= (uint64_t)INT64_MAX + 1) {
            return (int64_t)(0 - mag);
        }
    }
    else if (mag <= (uint64_t)INT64_MAX) {
        return (int64_t)mag;
    }
    *overflow = SIGN(v);
    return -1;
}

/* __index__ for the C conversions; a new reference to an int. */
static PyLongObject *
long_index(PyObject *obj)
{
    if (PyLong_Check(obj)) {
        return (PyLongObject *)Py_NewRef(obj);
    }
    if (obj == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return (PyLongObject *)PyNumber_Index(obj);
}

static int64_t
long_as_int64_generic(PyObject *obj, int *overflow)
{
    *overflow = 0;
    if (obj != NULL && PyLong_Check(obj)) {
        return long_as_int64_overflow((PyLongObject *)obj, overflow);
    }
    PyLongObject *v = long_index(obj);
    if (v == NULL) {
        return -1;
    }
    int64_t r = long_as_int64_overflow(v, overflow);
    Py_DECREF(v);
    return r;
}

long
PyLong_AsLongAndOverflow(PyObject *obj, int *overflow)
{
    return (long)long_as_int64_generic(obj, overflow);
}

long long
PyLong_AsLongLongAndOverflow(PyObject *obj, int *overflow)
{
    return (long long)long_as_int64_generic(obj, overflow);
}

static int64_t
long_as_ranged(PyObject *obj, int64_t lo, int64_t hi, const char *ctype)
{
    int overflow;
    int64_t r = long_as_int64_generic(obj, &overflow);
    if (r == -1 && overflow == 0 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || r < lo || r > hi) {
        PyErr_Format(PyExc_OverflowError, "Python int too large to convert to C %s", ctype);
        return -1;
    }
    return r;
}

long
PyLong_AsLong(PyObject *obj)
{
    if (obj != NULL && PyLong_Check(obj) && IS_COMPACT((PyLongObject *)obj)) {
        return (long)MEDIUM_VALUE((PyLongObject *)obj);
    }
    return (long)long_as_ranged(obj, LONG_MIN, LONG_MAX, "long");
}

int
PyLong_AsInt(PyObject *obj)
{
    return (int)long_as_ranged(obj, INT_MIN, INT_MAX, "int");
}

long long
PyLong_AsLongLong(PyObject *obj)
{
    return (long long)long_as_ranged(obj, LLONG_MIN, LLONG_MAX, "long long");
}

int
PyLong_AsInt32(PyObject *obj, int32_t *value)
{
    int64_t r = long_as_ranged(obj, INT32_MIN, INT32_MAX, "int32_t");
    if (r == -1 && PyErr_Occurred()) {
        return -1;
    }
    *value = (int32_t)r;
    return 0;
}

int
PyLong_AsInt64(PyObject *obj, int64_t *value)
{
    int64_t r = long_as_ranged(obj, INT64_MIN, INT64_MAX, "int64_t");
    if (r == -1 && PyErr_Occurred()) {
        return -1;
    }
    *value = r;
    return 0;
}

Py_ssize_t
PyLong_AsSsize_t(PyObject *obj)
{
    if (obj == NULL) {
        PyErr_BadInternalCall();
        return -1;
    }
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return -1;
    }
    if (IS_COMPACT((PyLongObject *)obj)) {
        return MEDIUM_VALUE((PyLongObject *)obj);
    }
    return (Py_ssize_t)long_as_ranged(obj, PY_SSIZE_T_MIN, PY_SSIZE_T_MAX, "ssize_t");
}

/* Unsigned conversions accept only ints (no __index__). */
static uint64_t
long_as_unsigned(PyObject *obj, uint64_t max, const char *ctype)
{
    if (obj == NULL) {
        PyErr_BadInternalCall();
        return (uint64_t)-1;
    }
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return (uint64_t)-1;
    }
    PyLongObject *v = (PyLongObject *)obj;
    if (SIGN(v) < 0) {
        PyErr_Format(PyExc_OverflowError, "can't convert negative value to %s",
                     strcmp(ctype, "size_t") == 0 ? "size_t" : "unsigned int");
        return (uint64_t)-1;
    }
    uint64_t mag;
    if (long_mag_u64(v, &mag) < 0 || mag > max) {
        PyErr_Format(PyExc_OverflowError, "Python int too large to convert to C %s", ctype);
        return (uint64_t)-1;
    }
    return mag;
}

unsigned long
PyLong_AsUnsignedLong(PyObject *obj)
{
    return (unsigned long)long_as_unsigned(obj, ULONG_MAX, "unsigned long");
}

unsigned long long
PyLong_AsUnsignedLongLong(PyObject *obj)
{
    return (unsigned long long)long_as_unsigned(obj, ULLONG_MAX, "unsigned long long");
}

size_t
PyLong_AsSize_t(PyObject *obj)
{
    return (size_t)long_as_unsigned(obj, SIZE_MAX, "size_t");
}

int
PyLong_AsUInt32(PyObject *obj, uint32_t *value)
{
    uint64_t r = long_as_unsigned(obj, UINT32_MAX, "uint32_t");
    if (r == (uint64_t)-1 && PyErr_Occurred()) {
        return -1;
    }
    *value = (uint32_t)r;
    return 0;
}

int
PyLong_AsUInt64(PyObject *obj, uint64_t *value)
{
    uint64_t r = long_as_unsigned(obj, UINT64_MAX, "uint64_t");
    if (r == (uint64_t)-1 && PyErr_Occurred()) {
        return -1;
    }
    *value = r;
    return 0;
}

/* The low 64 bits in two's complement. */
static uint64_t
long_low_bits(PyLongObject *v)
{
    uint64_t x = 0;
    Py_ssize_t n = Py_MIN(NDIGITS(v), 3);
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        x = (x << PyLong_SHIFT) | DIGITS(v)[i];
    }
    return SIGN(v) < 0 ? (uint64_t)0 - x : x;
}

unsigned long long
PyLong_AsUnsignedLongLongMask(PyObject *obj)
{
    PyLongObject *v = long_index(obj);
    if (v == NULL) {
        return (unsigned long long)-1;
    }
    uint64_t r = long_low_bits(v);
    Py_DECREF(v);
    return r;
}

unsigned long
PyLong_AsUnsignedLongMask(PyObject *obj)
{
    return (unsigned long)PyLong_AsUnsignedLongLongMask(obj);
}

void *
PyLong_AsVoidPtr(PyObject *obj)
{
    if (obj == NULL || !PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return NULL;            /* NULL, not (void *)-1, on every error */
    }
    if (SIGN((PyLongObject *)obj) < 0) {
        long long v = PyLong_AsLongLong(obj);
        return v == -1 && PyErr_Occurred() ? NULL : (void *)(intptr_t)v;
    }
    unsigned long long u = PyLong_AsUnsignedLongLong(obj);
    return u == (unsigned long long)-1 && PyErr_Occurred() ? NULL : (void *)(uintptr_t)u;
}

int
_PyLong_Sign(PyObject *v)
{
    return SIGN((PyLongObject *)v);
}

int
PyLong_GetSign(PyObject *v, int *sign)
{
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "expect int, got %s", Py_TYPE(v)->tp_name);
        return -1;
    }
    *sign = SIGN((PyLongObject *)v);
    return 0;
}

static inline int
digit_bit_length(digit d)
{
    return d ? 32 - __builtin_clz(d) : 0;
}

/* Bits in the magnitude (0 for zero). */
static int64_t
long_nbits(PyLongObject *v)
{
    Py_ssize_t n = NDIGITS(v);
    if (n == 0) {
        return 0;
    }
    return (int64_t)(n - 1) * PyLong_SHIFT + digit_bit_length(DIGITS(v)[n - 1]);
}

int64_t
_PyLong_NumBits(PyObject *v)
{
    return long_nbits((PyLongObject *)v);
}

/* ---- int -> double, correctly rounded ---------------------------------------

   The helpers below round q * 2**exp (plus a nonzero fraction below q's
   last bit when `sticky` is set) to the nearest double, ties to even,
   including the subnormal range.  Callers give q at least two bits more
   than the result needs, or a value so small it rounds to zero. */

static double
round_scaled(uint64_t q, int sticky, int64_t exp)
{
    if (q == 0) {
        return 0.0;
    }
    int64_t bl = 64 - __builtin_clzll(q);
    int64_t top = bl + exp;                        /* value < 2**top */
    int64_t lsb = Py_MAX(top - DBL_MANT_DIG, (int64_t)(DBL_MIN_EXP - DBL_MANT_DIG));
    int64_t drop = lsb - exp;
    if (drop <= 0) {
        return ldexp((double)q, (int)exp);
    }
    if (drop > 64) {
        return 0.0;
    }
    uint64_t m, rem, half;
    if (drop == 64) {
        m = 0;
        rem = q;
        half = (uint64_t)1 << 63;
    }
    else {
        m = q >> drop;
        rem = q & (((uint64_t)1 << drop) - 1);
        half = (uint64_t)1 << (drop - 1);
    }
    if (rem > half || (rem == half && (sticky || (m & 1)))) {
        m++;
    }
    if (lsb > DBL_MAX_EXP) {
        return HUGE_VAL;
    }
    return ldexp((double)m, (int)lsb);
}

/* The top `want` bits of |v| (want <= 64), whether anything nonzero lies
   below them, and the shift that was applied. */
static int64_t
long_top_bits(PyLongObject *v, int want, uint64_t *top, int *sticky)
{
    int64_t nbits = long_nbits(v);
    int64_t shift = nbits > want ? nbits - want : 0;
    Py_ssize_t first = (Py_ssize_t)(shift / PyLong_SHIFT);
    int within = (int)(shift % PyLong_SHIFT);
    *sticky = (DIGITS(v)[first] & (((digit)1 << within) - 1)) != 0;
    for (Py_ssize_t i = 0; i < first && !*sticky; i++) {
        *sticky = DIGITS(v)[i] != 0;
    }
    /* at most want + 30 bits from digit `first` upwards */
    unsigned __int128 x = 0;
    for (Py_ssize_t i = NDIGITS(v) - 1; i >= first; i--) {
        x = (x << PyLong_SHIFT) | DIGITS(v)[i];
    }
    *top = (uint64_t)(x >> within);
    return shift;
}

double
PyLong_AsDouble(PyObject *obj)
{
    if (obj == NULL) {
        PyErr_BadInternalCall();
        return -1.0;
    }
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return -1.0;
    }
    PyLongObject *v = (PyLongObject *)obj;
    if (IS_COMPACT(v)) {
        return (double)MEDIUM_VALUE(v);
    }
    if (NDIGITS(v) == 2) {
        /* both terms are exact, so the one addition rounds correctly */
        double r = (double)DIGITS(v)[0] + ldexp((double)DIGITS(v)[1], PyLong_SHIFT);
        return SIGN(v) < 0 ? -r : r;
    }
    uint64_t top;
    int sticky;
    int64_t shift = long_top_bits(v, DBL_MANT_DIG + 2, &top, &sticky);
    if (shift > DBL_MAX_EXP) {
        goto overflow;
    }
    double r = round_scaled(top, sticky, shift);
    if (isinf(r)) {
        goto overflow;
    }
    return SIGN(v) < 0 ? -r : r;
overflow:
    PyErr_SetString(PyExc_OverflowError, "int too large to convert to float");
    return -1.0;
}

double
_PyLong_Frexp(PyLongObject *a, int64_t *e)
{
    int64_t nbits = long_nbits(a);
    if (nbits == 0) {
        *e = 0;
        return 0.0;
    }
    uint64_t top;
    int sticky;
    int64_t shift = long_top_bits(a, DBL_MANT_DIG + 2, &top, &sticky);
    /* round as if the value were top * 2**(shift - nbits), safely normal */
    double m = round_scaled(top, sticky, shift - nbits);
    *e = nbits;
    if (m >= 1.0) {
        m *= 0.5;
        *e += 1;
    }
    return SIGN(a) < 0 ? -m : m;
}

/* ---- Magnitude arithmetic on digit arrays ------------------------------- */

static int
mag_cmp(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb)
{
    if (na != nb) {
        return na < nb ? -1 : 1;
    }
    for (Py_ssize_t i = na - 1; i >= 0; i--) {
        if (a[i] != b[i]) {
            return a[i] < b[i] ? -1 : 1;
        }
    }
    return 0;
}

/* z = a + b with na >= nb; z has room for na + 1 digits; returns the
   length used (na or na + 1). */
static Py_ssize_t
mag_add(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb, digit *z)
{
    digit carry = 0;
    Py_ssize_t i = 0;
    for (; i < nb; i++) {
        carry += a[i] + b[i];
        z[i] = carry & PyLong_MASK;
        carry >>= PyLong_SHIFT;
    }
    for (; i < na; i++) {
        carry += a[i];
        z[i] = carry & PyLong_MASK;
        carry >>= PyLong_SHIFT;
    }
    z[i] = carry;
    return na + (carry != 0);
}

/* z = a - b, requiring a >= b (so na >= nb); z has room for na digits. */
static void
mag_sub(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb, digit *z)
{
    digit borrow = 0;
    Py_ssize_t i = 0;
    for (; i < nb; i++) {
        borrow = a[i] - b[i] - borrow;
        z[i] = borrow & PyLong_MASK;
        borrow = (borrow >> PyLong_SHIFT) & 1;
    }
    for (; i < na; i++) {
        borrow = a[i] - borrow;
        z[i] = borrow & PyLong_MASK;
        borrow = (borrow >> PyLong_SHIFT) & 1;
    }
    assert(borrow == 0);
}

/* a[0:na] += b[0:nb] in place; a has room for the result. */
static void
mag_iadd(digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb)
{
    digit carry = 0;
    Py_ssize_t i = 0;
    for (; i < nb; i++) {
        carry += a[i] + b[i];
        a[i] = carry & PyLong_MASK;
        carry >>= PyLong_SHIFT;
    }
    for (; carry && i < na; i++) {
        carry += a[i];
        a[i] = carry & PyLong_MASK;
        carry >>= PyLong_SHIFT;
    }
}

/* a[0:na] -= b[0:nb] in place; requires a >= b. */
static void
mag_isub(digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb)
{
    digit borrow = 0;
    Py_ssize_t i = 0;
    for (; i < nb; i++) {
        borrow = a[i] - b[i] - borrow;
        a[i] = borrow & PyLong_MASK;
        borrow = (borrow >> PyLong_SHIFT) & 1;
    }
    for (; borrow && i < na; i++) {
        borrow = a[i] - borrow;
        a[i] = borrow & PyLong_MASK;
        borrow = (borrow >> PyLong_SHIFT) & 1;
    }
}

static inline Py_ssize_t
mag_trim(const digit *a, Py_ssize_t n)
{
    while (n > 0 && a[n - 1] == 0) {
        n--;
    }
    return n;
}

/* z[0:na+nb] = a * b, schoolbook. */
static void
mag_mul_basic(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb, digit *z)
{
    memset(z, 0, (size_t)(na + nb) * sizeof(digit));
    for (Py_ssize_t i = 0; i < na; i++) {
        twodigits f = a[i];
        if (f == 0) {
            continue;
        }
        twodigits carry = 0;
        digit *zp = z + i;
        for (Py_ssize_t j = 0; j < nb; j++) {
            carry += zp[j] + f * b[j];
            zp[j] = (digit)(carry & PyLong_MASK);
            carry >>= PyLong_SHIFT;
        }
        zp[nb] = (digit)carry;
    }
}

/* z[0:2n] = a * a, computing each cross product once. */
static void
mag_square_basic(const digit *a, Py_ssize_t n, digit *z)
{
    memset(z, 0, (size_t)(2 * n) * sizeof(digit));
    for (Py_ssize_t i = 0; i < n; i++) {
        twodigits f = a[i];
        if (f == 0) {
            continue;
        }
        twodigits carry = 0;
        digit *zp = z + 2 * i + 1;
        for (Py_ssize_t j = i + 1; j < n; j++) {
            carry += *zp + f * a[j];
            *zp++ = (digit)(carry & PyLong_MASK);
            carry >>= PyLong_SHIFT;
        }
        for (; carry; zp++) {
            carry += *zp;
            *zp = (digit)(carry & PyLong_MASK);
            carry >>= PyLong_SHIFT;
        }
    }
    /* double the cross products and add the squares */
    twodigits carry = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        twodigits sq = (twodigits)a[i] * a[i];
        carry += ((twodigits)z[2 * i] << 1) + (sq & PyLong_MASK);
        z[2 * i] = (digit)(carry & PyLong_MASK);
        carry >>= PyLong_SHIFT;
        carry += ((twodigits)z[2 * i + 1] << 1) + (sq >> PyLong_SHIFT);
        z[2 * i + 1] = (digit)(carry & PyLong_MASK);
        carry >>= PyLong_SHIFT;
    }
    assert(carry == 0);
}

static int mag_mul(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb, digit *z);

/* Karatsuba for na >= nb > na / 2: with a = a1*B**m + a0 and likewise b,
   a*b = a1*b1*B**2m + ((a0+a1)(b0+b1) - a0*b0 - a1*b1)*B**m + a0*b0. */
static int
mag_mul_karatsuba(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb, digit *z)
{
    Py_ssize_t m = na / 2;
    const digit *a0 = a, *a1 = a + m, *b0 = b, *b1 = b + m;
    Py_ssize_t na1 = na - m, nb1 = nb - m;
    Py_ssize_t nsa = na1 + 1, nsb = Py_MAX(m, nb1) + 1, nt = nsa + nsb;
    digit *buf = PyMem_Malloc((size_t)(nsa + nsb + nt) * sizeof(digit));
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    digit *sa = buf, *sb = buf + nsa, *t = sb + nsb;
    int square = (a == b && na == nb);

    Py_ssize_t lsa = mag_add(a1, na1, a0, m, sa);
    Py_ssize_t lsb = 0;
    if (!square) {
        lsb = nb1 >= m ? mag_add(b1, nb1, b0, m, sb) : mag_add(b0, m, b1, nb1, sb);
    }
    if (mag_mul(a0, m, b0, m, z) < 0 ||
        mag_mul(a1, na1, b1, nb1, z + 2 * m) < 0 ||
        (square ? mag_mul(sa, lsa, sa, lsa, t) : mag_mul(sa, lsa, sb, lsb, t)) < 0) {
        PyMem_Free(buf);
        return -1;
    }
    Py_ssize_t lt = square ? 2 * lsa : lsa + lsb;
    mag_isub(t, lt, z, mag_trim(z, 2 * m));
    mag_isub(t, lt, z + 2 * m, mag_trim(z + 2 * m, na1 + nb1));
    lt = mag_trim(t, lt);
    mag_iadd(z + m, na + nb - m, t, lt);
    PyMem_Free(buf);
    return 0;
}

/* na >= 2 * nb: multiply b by nb-sized slices of a and add them up. */
static int
mag_mul_lopsided(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb, digit *z)
{
    digit *t = PyMem_Malloc((size_t)(2 * nb) * sizeof(digit));
    if (t == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(z, 0, (size_t)(na + nb) * sizeof(digit));
    for (Py_ssize_t done = 0; done < na; done += nb) {
        Py_ssize_t chunk = Py_MIN(nb, na - done);
        if (mag_mul(b, nb, a + done, chunk, t) < 0) {
            PyMem_Free(t);
            return -1;
        }
        mag_iadd(z + done, na + nb - done, t, mag_trim(t, nb + chunk));
    }
    PyMem_Free(t);
    return 0;
}

/* z[0:na+nb] = a * b.  Returns -1 with MemoryError set on failure. */
static int
mag_mul(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb, digit *z)
{
    if (na < nb) {
        const digit *tp = a;
        a = b;
        b = tp;
        Py_ssize_t tn = na;
        na = nb;
        nb = tn;
    }
    if (nb < KARATSUBA_CUTOFF) {
        if (a == b && na == nb) {
            mag_square_basic(a, na, z);
        }
        else {
            mag_mul_basic(a, na, b, nb, z);
        }
        return 0;
    }
    if (2 * nb <= na) {
        return mag_mul_lopsided(a, na, b, nb, z);
    }
    return mag_mul_karatsuba(a, na, b, nb, z);
}

/* a[0:n] = a * m + add in place; returns the carry out. */
static digit
mag_muladd1(digit *a, Py_ssize_t n, digit m, digit add)
{
    twodigits carry = add;
    for (Py_ssize_t i = 0; i < n; i++) {
        carry += (twodigits)a[i] * m;
        a[i] = (digit)(carry & PyLong_MASK);
        carry >>= PyLong_SHIFT;
    }
    return (digit)carry;
}

/* q = a / d (q may alias a); returns the remainder. */
static digit
mag_divrem1(const digit *a, Py_ssize_t n, digit d, digit *q)
{
    twodigits rem = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        rem = (rem << PyLong_SHIFT) | a[i];
        digit hi = (digit)(rem / d);
        rem -= (twodigits)hi * d;
        q[i] = hi;
    }
    return (digit)rem;
}

/* Shift left by 0 <= s < PyLong_SHIFT bits: z[0:n] = a << s, returns the
   bits shifted out.  z may alias a.  Each result digit is its own digit's
   low bits moved up with the top s bits of the digit below filling in (in
   32-bit arithmetic the bits pushed past the top are dropped, but those are
   exactly the ones the next digit takes). */
static digit
mag_lshift_bits(const digit *a, Py_ssize_t n, int s, digit *z)
{
    digit from_below = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        digit d = a[i];
        z[i] = ((d << s) | from_below) & PyLong_MASK;
        from_below = d >> (PyLong_SHIFT - s);
    }
    return from_below;
}

/* z[0:n] = a >> s for 0 <= s < PyLong_SHIFT; returns the bits lost. */
static digit
mag_rshift_bits(const digit *a, Py_ssize_t n, int s, digit *z)
{
    digit carry = 0;
    digit mask = ((digit)1 << s) - 1;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        twodigits acc = ((twodigits)carry << PyLong_SHIFT) | a[i];
        carry = a[i] & mask;
        z[i] = (digit)(acc >> s) & PyLong_MASK;
    }
    return carry;
}

/* Long division (Knuth's algorithm D) for nb >= 2 and na >= nb.
   q gets na - nb + 1 digits and r nb digits (either may be NULL).
   Returns -1 on memory failure. */
static int
mag_divrem_knuth(const digit *a, Py_ssize_t na, const digit *b, Py_ssize_t nb,
                 digit *q, digit *r)
{
    digit *buf = PyMem_Malloc((size_t)(na + 1 + nb) * sizeof(digit));
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    digit *u = buf, *v = buf + na + 1;
    /* normalise so the divisor's top digit has its high bit set */
    int s = PyLong_SHIFT - digit_bit_length(b[nb - 1]);
    mag_lshift_bits(b, nb, s, v);
    u[na] = mag_lshift_bits(a, na, s, u);

    digit vtop = v[nb - 1], vnext = v[nb - 2];
    for (Py_ssize_t j = na - nb; j >= 0; j--) {
        digit *uj = u + j;
        twodigits num = ((twodigits)uj[nb] << PyLong_SHIFT) | uj[nb - 1];
        twodigits qhat = num / vtop;
        twodigits rhat = num - qhat * vtop;
        while (qhat >= PyLong_BASE ||
               qhat * vnext > ((rhat << PyLong_SHIFT) | uj[nb - 2])) {
            qhat--;
            rhat += vtop;
            if (rhat >= PyLong_BASE) {
                break;
            }
        }
        /* uj[0:nb+1] -= qhat * v */
        stwodigits borrow = 0;
        twodigits carry = 0;
        for (Py_ssize_t i = 0; i < nb; i++) {
            carry += qhat * v[i];
            stwodigits t = (stwodigits)uj[i] - (stwodigits)(carry & PyLong_MASK) + borrow;
            uj[i] = (digit)t & PyLong_MASK;
            borrow = t >> PyLong_SHIFT;
            carry >>= PyLong_SHIFT;
        }
        stwodigits t = (stwodigits)uj[nb] - (stwodigits)carry + borrow;
        uj[nb] = (digit)t & PyLong_MASK;
        if (t < 0) {
            /* qhat was one too big: add v back */
            qhat--;
            digit c = 0;
            for (Py_ssize_t i = 0; i < nb; i++) {
                c += uj[i] + v[i];
                uj[i] = c & PyLong_MASK;
                c >>= PyLong_SHIFT;
            }
            uj[nb] = (uj[nb] + c) & PyLong_MASK;
        }
        if (q != NULL) {
            q[j] = (digit)qhat;
        }
    }
    if (r != NULL) {
        mag_rshift_bits(u, nb, s, r);
    }
    PyMem_Free(buf);
    return 0;
}

/* ---- Object-level helpers ------------------------------------------------- */

/* An int from |a| (a digit array) with a sign. */
static PyObject *
long_from_mag(const digit *a, Py_ssize_t n, int negative)
{
    return _PyLong_FromDigits(negative, mag_trim(a, n), a);
}

/* |a| + |b| or |a| - |b| with a sign applied to the result. */
static PyObject *
long_add_mags(PyLongObject *a, PyLongObject *b, int negative)
{
    Py_ssize_t na = NDIGITS(a), nb = NDIGITS(b);
    if (na < nb) {
        PyLongObject *t = a;
        a = b;
        b = t;
        Py_ssize_t tn = na;
        na = nb;
        nb = tn;
    }
    PyLongObject *z = _PyLong_New(na + 1);
    if (z == NULL) {
        return NULL;
    }
    Py_ssize_t n = mag_add(DIGITS(a), na, DIGITS(b), nb, DIGITS(z));
    return long_normalize(z, n, negative);
}

/* |a| - |b|, negated when `negative` is set. */
static PyObject *
long_sub_mags(PyLongObject *a, PyLongObject *b, int negative)
{
    Py_ssize_t na = NDIGITS(a), nb = NDIGITS(b);
    int c = mag_cmp(DIGITS(a), na, DIGITS(b), nb);
    if (c == 0) {
        return small_int(0);
    }
    if (c < 0) {
        PyLongObject *t = a;
        a = b;
        b = t;
        Py_ssize_t tn = na;
        na = nb;
        nb = tn;
        negative = !negative;
    }
    PyLongObject *z = _PyLong_New(na);
    if (z == NULL) {
        return NULL;
    }
    mag_sub(DIGITS(a), na, DIGITS(b), nb, DIGITS(z));
    return long_normalize(z, na, negative);
}

/* Ints of at most two digits are below 2**60 in magnitude: their sums,
   differences and most products are exact in int64, so running totals
   and counters past 2**30 skip the digit loops and the renormalising. */
static inline int
both_fit_two_digits(PyLongObject *a, PyLongObject *b)
{
    return NDIGITS(a) <= 2 && NDIGITS(b) <= 2;
}

static inline int64_t
two_digit_value(PyLongObject *v)
{
    int64_t mag = (int64_t)DIGITS(v)[0];
    if (NDIGITS(v) == 2) {
        mag |= (int64_t)DIGITS(v)[1] << PyLong_SHIFT;
    }
    return SIGN(v) < 0 ? -mag : mag;
}

PyObject *
_PyLong_Add(PyLongObject *a, PyLongObject *b)
{
    if (_PyLong_BothAreCompact(a, b)) {
        return long_from_int64((int64_t)MEDIUM_VALUE(a) + MEDIUM_VALUE(b));
    }
    if (both_fit_two_digits(a, b)) {
        return long_from_int64(two_digit_value(a) + two_digit_value(b));
    }
    if (SIGN(a) < 0) {
        if (SIGN(b) < 0) {
            return long_add_mags(a, b, 1);
        }
        return long_sub_mags(b, a, 0);
    }
    if (SIGN(b) < 0) {
        return long_sub_mags(a, b, 0);
    }
    return long_add_mags(a, b, 0);
}

PyObject *
_PyLong_Subtract(PyLongObject *a, PyLongObject *b)
{
    if (_PyLong_BothAreCompact(a, b)) {
        return long_from_int64((int64_t)MEDIUM_VALUE(a) - MEDIUM_VALUE(b));
    }
    if (both_fit_two_digits(a, b)) {
        return long_from_int64(two_digit_value(a) - two_digit_value(b));
    }
    if (SIGN(a) < 0) {
        if (SIGN(b) < 0) {
            return long_sub_mags(a, b, 1);
        }
        return long_add_mags(a, b, 1);
    }
    if (SIGN(b) < 0) {
        return long_add_mags(a, b, 0);
    }
    return long_sub_mags(a, b, 0);
}

PyObject *
_PyLong_Multiply(PyLongObject *a, PyLongObject *b)
{
    if (_PyLong_BothAreCompact(a, b)) {
        return long_from_int64((int64_t)MEDIUM_VALUE(a) * MEDIUM_VALUE(b));
    }
    int64_t product;
    if (both_fit_two_digits(a, b) &&
        !__builtin_mul_overflow(two_digit_value(a), two_digit_value(b), &product) &&
        product != INT64_MIN) {
        return long_from_int64(product);
    }
    Py_ssize_t na = NDIGITS(a), nb = NDIGITS(b);
    if (na == 0 || nb == 0) {
        return small_int(0);
    }
    PyLongObject *z = _PyLong_New(na + nb);
    if (z == NULL) {
        return NULL;
    }
    const digit *bd = (a == b) ? DIGITS(a) : DIGITS(b);
    if (mag_mul(DIGITS(a), na, bd, nb, DIGITS(z)) < 0) {
        long_discard(z);
        return NULL;
    }
    return long_normalize(z, na + nb, SIGN(a) != SIGN(b));
}

PyObject *
_PyLong_Negate(PyLongObject *a)
{
    if (IS_COMPACT(a)) {
        return long_from_int64(-(int64_t)MEDIUM_VALUE(a));
    }
    PyLongObject *z = (PyLongObject *)_PyLong_Copy(a);
    if (z != NULL) {
        z->lv_tag = _PyLong_TAG(NDIGITS(a), -SIGN(a));
    }
    return (PyObject *)z;
}

static PyObject *
long_abs_obj(PyLongObject *a)
{
    if (SIGN(a) < 0) {
        return _PyLong_Negate(a);
    }
    return long_long((PyObject *)a);
}

int
_PyLong_Compare(PyLongObject *a, PyLongObject *b)
{
    if (_PyLong_BothAreCompact(a, b)) {
        Py_ssize_t x = MEDIUM_VALUE(a), y = MEDIUM_VALUE(b);
        return (x > y) - (x < y);
    }
    int sa = SIGN(a), sb = SIGN(b);
    if (sa != sb) {
        return sa < sb ? -1 : 1;
    }
    int c = mag_cmp(DIGITS(a), NDIGITS(a), DIGITS(b), NDIGITS(b));
    return sa < 0 ? -c : c;
}

/* Truncating division of magnitudes: *pq = |a| // |b| and *pr = |a| % |b|
   as new ints with the given signs (either pointer may be NULL).  b must
   not be zero. */
static int
long_divrem_mags(PyLongObject *a, PyLongObject *b, int qneg, int rneg,
                 PyObject **pq, PyObject **pr)
{
    Py_ssize_t na = NDIGITS(a), nb = NDIGITS(b);
    PyLongObject *q = NULL, *r = NULL;
    if (na < nb || (na == nb && mag_cmp(DIGITS(a), na, DIGITS(b), nb) < 0)) {
        if (pq) {
            *pq = small_int(0);
        }
        if (pr) {
            *pr = long_from_mag(DIGITS(a), na, rneg);
            if (*pr == NULL) {
                return -1;
            }
        }
        return 0;
    }
    q = _PyLong_New(na - nb + 1);
    if (q == NULL) {
        return -1;
    }
    if (nb == 1) {
        digit rem = mag_divrem1(DIGITS(a), na, DIGITS(b)[0], DIGITS(q));
        if (pr) {
            *pr = long_from_int64(rneg ? -(int64_t)rem : (int64_t)rem);
            if (*pr == NULL) {
                long_discard(q);
                return -1;
            }
        }
    }
    else {
        if (pr) {
            r = _PyLong_New(nb);
            if (r == NULL) {
                long_discard(q);
                return -1;
            }
        }
        if (mag_divrem_knuth(DIGITS(a), na, DIGITS(b), nb, DIGITS(q),
                             r ? DIGITS(r) : NULL) < 0) {
            long_discard(q);
            if (r) {
                long_discard(r);
            }
            return -1;
        }
        if (pr) {
            *pr = long_normalize(r, nb, rneg);
        }
    }
    if (pq) {
        *pq = long_normalize(q, na - nb + 1, qneg);
    }
    else {
        long_discard(q);
    }
    return 0;
}

static inline int
long_is_zero(PyLongObject *v)
{
    return _PyLong_IsZero(v);
}

/* Floor division and modulo with Python's signs.  Either output may be
   NULL when not wanted. */
static int
long_divmod_impl(PyLongObject *a, PyLongObject *b, PyObject **pdiv, PyObject **pmod)
{
    if (long_is_zero(b)) {
        PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
        return -1;
    }
    if (_PyLong_BothAreCompact(a, b)) {
        Py_ssize_t x = MEDIUM_VALUE(a), y = MEDIUM_VALUE(b);
        Py_ssize_t q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) {
            q--;
            r += y;
        }
        if (pdiv && (*pdiv = long_from_int64(q)) == NULL) {
            return -1;
        }
        if (pmod && (*pmod = long_from_int64(r)) == NULL) {
            if (pdiv) {
                Py_CLEAR(*pdiv);
            }
            return -1;
        }
        return 0;
    }
    int sa = SIGN(a), sb = SIGN(b);
    PyObject *q = NULL, *r = NULL;
    if (long_divrem_mags(a, b, sa != sb, sa < 0, pdiv ? &q : NULL, &r) < 0) {
        return -1;
    }
    /* truncation rounded towards zero; floor needs q - 1, r + b when the
       remainder and the divisor differ in sign */
    if (SIGN((PyLongObject *)r) != 0 && SIGN((PyLongObject *)r) != sb) {
        PyObject *t = _PyLong_Add((PyLongObject *)r, b);
        Py_SETREF(r, t);
        if (r == NULL) {
            goto error;
        }
        if (q != NULL) {
            t = _PyLong_Subtract((PyLongObject *)q, (PyLongObject *)small_int(1));
            Py_SETREF(q, t);
            if (q == NULL) {
                goto error;
            }
        }
    }
    if (pdiv) {
        *pdiv = q;
    }
    if (pmod) {
        *pmod = r;
    }
    else {
        Py_DECREF(r);
    }
    return 0;
error:
    Py_XDECREF(q);
    Py_XDECREF(r);
    return -1;
}

PyObject *
_PyLong_FloorDivide(PyLongObject *a, PyLongObject *b)
{
    PyObject *q;
    if (long_divmod_impl(a, b, &q, NULL) < 0) {
        return NULL;
    }
    return q;
}

PyObject *
_PyLong_Remainder(PyLongObject *a, PyLongObject *b)
{
    PyObject *r;
    if (long_divmod_impl(a, b, NULL, &r) < 0) {
        return NULL;
    }
    return r;
}

/* ---- Shifts ------------------------------------------------------------- */

static PyObject *
long_lshift_impl(PyLongObject *a, int64_t shift)
{
    if (long_is_zero(a) || shift == 0) {
        return long_long((PyObject *)a);
    }
    if (IS_COMPACT(a) && shift < 32) {
        return long_from_int64((int64_t)MEDIUM_VALUE(a) * ((int64_t)1 << shift));
    }
    int64_t wordshift = shift / PyLong_SHIFT;
    int remshift = (int)(shift % PyLong_SHIFT);
    Py_ssize_t na = NDIGITS(a);
    if (wordshift > MAX_LONG_DIGITS - na - 1) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t nz = na + (Py_ssize_t)wordshift + 1;
    PyLongObject *z = _PyLong_New(nz);
    if (z == NULL) {
        return NULL;
    }
    memset(DIGITS(z), 0, (size_t)wordshift * sizeof(digit));
    DIGITS(z)[nz - 1] = mag_lshift_bits(DIGITS(a), na, remshift, DIGITS(z) + wordshift);
    return long_normalize(z, nz, SIGN(a) < 0);
}

/* Floor semantics: for negative a, a >> s == -((|a| - 1) >> s) - 1. */
static PyObject *
long_rshift_impl(PyLongObject *a, int64_t shift)
{
    if (IS_COMPACT(a)) {
        Py_ssize_t x = MEDIUM_VALUE(a);
        if (shift >= 63) {
            return small_int(x < 0 ? -1 : 0);
        }
        return long_from_int64((int64_t)x >> shift);
    }
    Py_ssize_t na = NDIGITS(a);
    int64_t wordshift = shift / PyLong_SHIFT;
    int remshift = (int)(shift % PyLong_SHIFT);
    int negative = SIGN(a) < 0;
    if (wordshift >= na) {
        return small_int(negative ? -1 : 0);
    }
    Py_ssize_t nz = na - (Py_ssize_t)wordshift;
    PyLongObject *z = _PyLong_New(nz);
    if (z == NULL) {
        return NULL;
    }
    digit lost = mag_rshift_bits(DIGITS(a) + wordshift, nz, remshift, DIGITS(z));
    for (Py_ssize_t i = 0; i < wordshift && !lost; i++) {
        lost = DIGITS(a)[i];
    }
    PyObject *r = long_normalize(z, nz, negative);
    if (r != NULL && negative && lost) {
        /* rounded towards zero; floor is one further down */
        Py_SETREF(r, _PyLong_Subtract((PyLongObject *)r, (PyLongObject *)small_int(1)));
    }
    return r;
}

PyObject *
_PyLong_Lshift(PyObject *a, int64_t shift)
{
    return long_lshift_impl((PyLongObject *)a, shift);
}

PyObject *
_PyLong_Rshift(PyObject *a, int64_t shift)
{
    return long_rshift_impl((PyLongObject *)a, shift);
}

/* Read a shift count: -1 with an error, 0 ok, 1 "too big for int64". */
static int
shift_count(PyLongObject *b, int64_t *count)
{
    if (SIGN(b) < 0) {
        PyErr_SetString(PyExc_ValueError, "negative shift count");
        return -1;
    }
    int overflow;
    *count = long_as_int64_overflow(b, &overflow);
    return overflow ? 1 : 0;
}

#define CHECK_BINOP(v, w)                          \
    do {                                           \
        if (!PyLong_Check(v) || !PyLong_Check(w)) { \
            Py_RETURN_NOTIMPLEMENTED;              \
        }                                          \
    } while (0)

static PyObject *
long_lshift(PyObject *v, PyObject *w)
{
    CHECK_BINOP(v, w);
    int64_t count;
    int r = shift_count((PyLongObject *)w, &count);
    if (r < 0) {
        return NULL;
    }
    if (r > 0) {
        if (long_is_zero((PyLongObject *)v)) {
            return small_int(0);
        }
        return PyErr_NoMemory();
    }
    return long_lshift_impl((PyLongObject *)v, count);
}

static PyObject *
long_rshift(PyObject *v, PyObject *w)
{
    CHECK_BINOP(v, w);
    int64_t count;
    int r = shift_count((PyLongObject *)w, &count);
    if (r < 0) {
        return NULL;
    }
    if (r > 0) {
        return small_int(SIGN((PyLongObject *)v) < 0 ? -1 : 0);
    }
    return long_rshift_impl((PyLongObject *)v, count);
}

/* ---- Bitwise operations ----------------------------------------------------
   Negative numbers behave as infinite two's complement.  Each operand is
   expanded to n digits of two's complement (n one more than the larger
   magnitude, so the top digit holds only sign bits), combined digit by
   digit, and the result converted back. */

static void
to_twos_complement(PyLongObject *v, digit *out, Py_ssize_t n)
{
    Py_ssize_t nv = NDIGITS(v);
    memcpy(out, DIGITS(v), (size_t)nv * sizeof(digit));
    memset(out + nv, 0, (size_t)(n - nv) * sizeof(digit));
    if (SIGN(v) < 0) {
        digit carry = 1;
        for (Py_ssize_t i = 0; i < n; i++) {
            carry += (~out[i]) & PyLong_MASK;
            out[i] = carry & PyLong_MASK;
            carry >>= PyLong_SHIFT;
        }
    }
}

static PyObject *
long_bitwise(PyLongObject *a, char op, PyLongObject *b)
{
    if (_PyLong_BothAreCompact(a, b)) {
        Py_ssize_t x = MEDIUM_VALUE(a), y = MEDIUM_VALUE(b);
        Py_ssize_t z = op == '&' ? (x & y) : op == '|' ? (x | y) : (x ^ y);
        return long_from_int64(z);
    }
    Py_ssize_t n = Py_MAX(NDIGITS(a), NDIGITS(b)) + 1;
    digit *buf = PyMem_Malloc((size_t)(2 * n) * sizeof(digit));
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    digit *x = buf, *y = buf + n;
    to_twos_complement(a, x, n);
    to_twos_complement(b, y, n);
    for (Py_ssize_t i = 0; i < n; i++) {
        x[i] = op == '&' ? (x[i] & y[i]) : op == '|' ? (x[i] | y[i]) : (x[i] ^ y[i]);
    }
    int negative = (x[n - 1] >> (PyLong_SHIFT - 1)) & 1;
    if (negative) {
        /* magnitude = two's complement of the result */
        digit carry = 1;
        for (Py_ssize_t i = 0; i < n; i++) {
            carry += (~x[i]) & PyLong_MASK;
            x[i] = carry & PyLong_MASK;
            carry >>= PyLong_SHIFT;
        }
    }
    PyObject *r = long_from_mag(x, n, negative);
    PyMem_Free(buf);
    return r;
}

static PyObject *
long_and(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return long_bitwise((PyLongObject *)a, '&', (PyLongObject *)b);
}

static PyObject *
long_or(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return long_bitwise((PyLongObject *)a, '|', (PyLongObject *)b);
}

static PyObject *
long_xor(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return long_bitwise((PyLongObject *)a, '^', (PyLongObject *)b);
}

/* ~x == -(x + 1) */
static PyObject *
long_invert(PyObject *v)
{
    PyLongObject *a = (PyLongObject *)v;
    if (IS_COMPACT(a)) {
        return long_from_int64(~(int64_t)MEDIUM_VALUE(a));
    }
    PyObject *t = _PyLong_Add(a, (PyLongObject *)small_int(1));
    if (t == NULL) {
        return NULL;
    }
    PyObject *r = _PyLong_Negate((PyLongObject *)t);
    Py_DECREF(t);
    return r;
}

/* ---- True division ------------------------------------------------------ */

/* |v| < 2**53, so it converts to a double exactly. */
static int
fits_double_exactly(PyLongObject *v)
{
    Py_ssize_t n = NDIGITS(v);
    return n <= 1 || (n == 2 && DIGITS(v)[1] < ((digit)1 << (DBL_MANT_DIG - PyLong_SHIFT)));
}

static double
small_to_double(PyLongObject *v)
{
    Py_ssize_t n = NDIGITS(v);
    double r = n == 0 ? 0.0 : (double)DIGITS(v)[0];
    if (n == 2) {
        r += (double)DIGITS(v)[1] * (double)PyLong_BASE;
    }
    return SIGN(v) < 0 ? -r : r;
}

static PyObject *
true_divide_big(PyLongObject *a, PyLongObject *b)
{
    int negative = SIGN(a) * SIGN(b) < 0;
    int64_t diff = long_nbits(a) - long_nbits(b);
    double result;
    if (diff > DBL_MAX_EXP + 1) {
        goto overflow;
    }
    if (long_is_zero(a) || diff < DBL_MIN_EXP - DBL_MANT_DIG - 2) {
        result = 0.0;
        goto done;
    }
    /* q = |a| / (|b| * 2**shift) keeps at least 55 significant bits (or
       every bit down to two below the smallest subnormal). */
    int64_t shift = Py_MAX(diff - DBL_MANT_DIG - 3, (int64_t)(DBL_MIN_EXP - DBL_MANT_DIG - 3));
    PyLongObject *absa = (PyLongObject *)long_abs_obj(a);
    if (absa == NULL) {
        return NULL;
    }
    PyObject *x;
    int sticky = 0;
    if (shift > 0) {
        x = long_rshift_impl(absa, shift);
        /* bits shifted out count towards the sticky bit */
        int64_t tz = 0;
        Py_ssize_t i = 0;
        while (DIGITS(absa)[i] == 0) {
            i++;
        }
        tz = (int64_t)i * PyLong_SHIFT + __builtin_ctz(DIGITS(absa)[i]);
        sticky = tz < shift;
    }
    else {
        x = long_lshift_impl(absa, -shift);
    }
    Py_DECREF(absa);
    if (x == NULL) {
        return NULL;
    }
    PyObject *q, *r;
    int rc = long_divrem_mags((PyLongObject *)x, b, 0, 0, &q, &r);
    Py_DECREF(x);
    if (rc < 0) {
        return NULL;
    }
    sticky |= !long_is_zero((PyLongObject *)r);
    Py_DECREF(r);
    uint64_t qv;
    if (long_mag_u64((PyLongObject *)q, &qv) < 0) {
        Py_DECREF(q);
        PyErr_SetString(PyExc_SystemError, "true division lost precision");
        return NULL;
    }
    Py_DECREF(q);
    result = round_scaled(qv, sticky, shift);
    if (isinf(result)) {
        goto overflow;
    }
done:
    return PyFloat_FromDouble(negative ? -result : result);
overflow:
    PyErr_SetString(PyExc_OverflowError, "integer division result too large for a float");
    return NULL;
}

PyObject *
_PyLong_TrueDivide(PyLongObject *a, PyLongObject *b)
{
    if (long_is_zero(b)) {
        PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
        return NULL;
    }
    if (fits_double_exactly(a) && fits_double_exactly(b)) {
        return PyFloat_FromDouble(small_to_double(a) / small_to_double(b));
    }
    return true_divide_big(a, b);
}

/* ---- Number slots ------------------------------------------------------- */

static PyObject *
long_add(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return _PyLong_Add((PyLongObject *)a, (PyLongObject *)b);
}

static PyObject *
long_sub(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return _PyLong_Subtract((PyLongObject *)a, (PyLongObject *)b);
}

static PyObject *
long_mul(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return _PyLong_Multiply((PyLongObject *)a, (PyLongObject *)b);
}

static PyObject *
long_floor_div(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return _PyLong_FloorDivide((PyLongObject *)a, (PyLongObject *)b);
}

static PyObject *
long_mod(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return _PyLong_Remainder((PyLongObject *)a, (PyLongObject *)b);
}

static PyObject *
long_divmod(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    PyObject *q, *r;
    if (long_divmod_impl((PyLongObject *)a, (PyLongObject *)b, &q, &r) < 0) {
        return NULL;
    }
    PyObject *t = PyTuple_New(2);
    if (t == NULL) {
        Py_DECREF(q);
        Py_DECREF(r);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, q);
    PyTuple_SET_ITEM(t, 1, r);
    return t;
}

static PyObject *
long_true_divide(PyObject *a, PyObject *b)
{
    CHECK_BINOP(a, b);
    return _PyLong_TrueDivide((PyLongObject *)a, (PyLongObject *)b);
}

static PyObject *
long_neg(PyObject *v)
{
    return _PyLong_Negate((PyLongObject *)v);
}

static PyObject *
long_abs(PyObject *v)
{
    return long_abs_obj((PyLongObject *)v);
}

static int
long_bool(PyObject *v)
{
    return !long_is_zero((PyLongObject *)v);
}

/* int(v) for an int or subclass: an exact int. */
static PyObject *
long_long(PyObject *v)
{
    if (PyLong_CheckExact(v)) {
        return Py_NewRef(v);
    }
    return _PyLong_Copy((PyLongObject *)v);
}

static PyObject *
long_float(PyObject *v)
{
    double d = PyLong_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyFloat_FromDouble(d);
}

/* ---- pow ---------------------------------------------------------------- */

/* a * b % m for nonnegative ints (a new reference, or NULL). */
static PyObject *
mulmod(PyObject *a, PyObject *b, PyLongObject *m)
{
    PyObject *p = _PyLong_Multiply((PyLongObject *)a, (PyLongObject *)b);
    if (p == NULL || m == NULL) {
        return p;
    }
    PyObject *r;
    int rc = long_divrem_mags((PyLongObject *)p, m, 0, 0, NULL, &r);
    Py_DECREF(p);
    return rc < 0 ? NULL : r;
}

/* base ** exp (exp >= 0), reduced modulo m unless m is NULL; base already
   reduced. */
static PyObject *
pow_binary(PyObject *base, PyLongObject *exp, PyLongObject *m)
{
    PyObject *result = Py_NewRef(small_int(1));
    for (int64_t bit = long_nbits(exp) - 1; bit >= 0; bit--) {
        Py_SETREF(result, mulmod(result, result, m));
        if (result == NULL) {
            return NULL;
        }
        digit d = DIGITS(exp)[bit / PyLong_SHIFT];
        if ((d >> (bit % PyLong_SHIFT)) & 1) {
            Py_SETREF(result, mulmod(result, base, m));
            if (result == NULL) {
                return NULL;
            }
        }
    }
    return result;
}

/* Five-bit fixed windows: fewer multiplications for long exponents. */
static PyObject *
pow_window(PyObject *base, PyLongObject *exp, PyLongObject *m)
{
    PyObject *table[32] = {NULL};
    PyObject *result = NULL;
    table[0] = Py_NewRef(small_int(1));
    for (int i = 1; i < 32; i++) {
        table[i] = mulmod(table[i - 1], base, m);
        if (table[i] == NULL) {
            goto done;
        }
    }
    int64_t nbits = long_nbits(exp);
    int64_t top = ((nbits + 4) / 5) * 5;
    result = Py_NewRef(small_int(1));
    for (int64_t pos = top - 5; pos >= 0; pos -= 5) {
        for (int k = 0; k < 5 && pos != top - 5; k++) {
            Py_SETREF(result, mulmod(result, result, m));
            if (result == NULL) {
                goto done;
            }
        }
        int w = 0;
        for (int k = 4; k >= 0; k--) {
            int64_t bit = pos + k;
            if (bit < nbits) {
                digit d = DIGITS(exp)[bit / PyLong_SHIFT];
                w = (w << 1) | (int)((d >> (bit % PyLong_SHIFT)) & 1);
            }
            else {
                w <<= 1;
            }
        }
        if (w) {
            Py_SETREF(result, mulmod(result, table[w], m));
            if (result == NULL) {
                goto done;
            }
        }
    }
done:
    for (int i = 0; i < 32; i++) {
        Py_XDECREF(table[i]);
    }
    return result;
}

static inline uint64_t
mulmod_word(uint64_t a, uint64_t b, uint64_t m)
{
    if (m <= UINT32_MAX) {
        return a * b % m;
    }
    return (uint64_t)((unsigned __int128)a * b % m);
}

/* pow() for a modulus below 2**63, in machine words; base is already
   reduced (0 <= base < m), exp >= 0. */
static PyObject *
pow_mod_word(PyLongObject *base, PyLongObject *exp, uint64_t m)
{
    uint64_t b = 0, r = 1;
    (void)long_mag_u64(base, &b);
    for (int64_t bit = long_nbits(exp) - 1; bit >= 0; bit--) {
        r = mulmod_word(r, r, m);
        if ((DIGITS(exp)[bit / PyLong_SHIFT] >> (bit % PyLong_SHIFT)) & 1) {
            r = mulmod_word(r, b, m);
        }
    }
    return long_from_u64(r % m);
}

/* Inverse of a modulo n (n > 1), or NULL with ValueError. */
static PyObject *
long_invmod(PyObject *a, PyObject *n)
{
    PyObject *b = NULL, *x0 = NULL, *x1 = NULL, *q = NULL, *r = NULL, *t = NULL;
    a = Py_NewRef(a);
    b = Py_NewRef(n);
    x0 = Py_NewRef(small_int(1));
    x1 = Py_NewRef(small_int(0));
    while (!long_is_zero((PyLongObject *)b)) {
        if (long_divmod_impl((PyLongObject *)a, (PyLongObject *)b, &q, &r) < 0) {
            goto error;
        }
        Py_SETREF(a, b);
        b = r;
        r = NULL;
        t = _PyLong_Multiply((PyLongObject *)q, (PyLongObject *)x1);
        Py_CLEAR(q);
        if (t == NULL) {
            goto error;
        }
        Py_SETREF(t, _PyLong_Subtract((PyLongObject *)x0, (PyLongObject *)t));
        if (t == NULL) {
            goto error;
        }
        Py_SETREF(x0, x1);
        x1 = t;
        t = NULL;
    }
    if (!(IS_COMPACT((PyLongObject *)a) && MEDIUM_VALUE((PyLongObject *)a) == 1)) {
        PyErr_SetString(PyExc_ValueError, "base is not invertible for the given modulus");
        goto error;
    }
    Py_DECREF(a);
    Py_DECREF(b);
    Py_DECREF(x1);
    t = _PyLong_Remainder((PyLongObject *)x0, (PyLongObject *)n);
    Py_DECREF(x0);
    return t;
error:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(x0);
    Py_XDECREF(x1);
    return NULL;
}

/* pow for machine-word results; returns NULL without an error set when
   the result would not fit. */
static PyObject *
pow_small(int64_t base, uint64_t exp)
{
    int64_t result = 1;
    for (;;) {
        if (exp & 1) {
            if (__builtin_mul_overflow(result, base, &result)) {
                return NULL;
            }
        }
        exp >>= 1;
        if (exp == 0) {
            break;
        }
        if (__builtin_mul_overflow(base, base, &base)) {
            return NULL;
        }
    }
    return long_from_int64(result);
}

/* |base| == 2**k: the result is a shift. */
static PyObject *
pow_of_two(PyLongObject *base, PyLongObject *exp, int64_t k)
{
    int overflow;
    int64_t e = long_as_int64_overflow(exp, &overflow);
    if (overflow || (k > 0 && e > INT64_MAX / k)) {
        return PyErr_NoMemory();
    }
    PyObject *r = long_lshift_impl((PyLongObject *)small_int(1), k * e);
    if (r != NULL && SIGN(base) < 0 && (e & 1)) {
        Py_SETREF(r, _PyLong_Negate((PyLongObject *)r));
    }
    return r;
}

static int64_t
power_of_two_exponent(PyLongObject *v)
{
    Py_ssize_t n = NDIGITS(v);
    if (n == 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n - 1; i++) {
        if (DIGITS(v)[i] != 0) {
            return -1;
        }
    }
    digit top = DIGITS(v)[n - 1];
    if (top & (top - 1)) {
        return -1;
    }
    return (int64_t)(n - 1) * PyLong_SHIFT + digit_bit_length(top) - 1;
}

static PyObject *
long_pow_nomod(PyLongObject *a, PyLongObject *b)
{
    if (IS_COMPACT(b) && IS_COMPACT(a)) {
        PyObject *r = pow_small(MEDIUM_VALUE(a), (uint64_t)MEDIUM_VALUE(b));
        if (r != NULL || PyErr_Occurred()) {
            return r;
        }
    }
    int64_t k = power_of_two_exponent(a);
    if (k >= 0) {
        return pow_of_two(a, b, k);
    }
    if (long_nbits(b) > POW_WINDOW_CUTOFF) {
        return pow_window((PyObject *)a, b, NULL);
    }
    return pow_binary((PyObject *)a, b, NULL);
}

static PyObject *
long_pow_mod(PyLongObject *a, PyLongObject *b, PyLongObject *c)
{
    if (long_is_zero(c)) {
        PyErr_SetString(PyExc_ValueError, "pow() 3rd argument cannot be 0");
        return NULL;
    }
    int negative_output = SIGN(c) < 0;
    PyObject *m = long_abs_obj(c);
    PyObject *base = NULL, *exp = NULL, *result = NULL;
    if (m == NULL) {
        return NULL;
    }
    base = _PyLong_Remainder(a, (PyLongObject *)m);
    if (base == NULL) {
        goto done;
    }
    if (SIGN(b) < 0) {
        Py_SETREF(base, long_invmod(base, m));
        if (base == NULL) {
            goto done;
        }
        exp = _PyLong_Negate(b);
    }
    else {
        exp = Py_NewRef(b);
    }
    if (exp == NULL) {
        goto done;
    }
    uint64_t mword;
    if (IS_COMPACT((PyLongObject *)m) && MEDIUM_VALUE((PyLongObject *)m) == 1) {
        result = Py_NewRef(small_int(0));
    }
    else if (long_mag_u64((PyLongObject *)m, &mword) == 0 && mword < ((uint64_t)1 << 63)) {
        result = pow_mod_word((PyLongObject *)base, (PyLongObject *)exp, mword);
    }
    else if (long_nbits((PyLongObject *)exp) > POW_WINDOW_CUTOFF) {
        result = pow_window(base, (PyLongObject *)exp, (PyLongObject *)m);
    }
    else {
        result = pow_binary(base, (PyLongObject *)exp, (PyLongObject *)m);
    }
    if (result != NULL && negative_output && !long_is_zero((PyLongObject *)result)) {
        Py_SETREF(result, _PyLong_Subtract((PyLongObject *)result, (PyLongObject *)m));
    }
done:
    Py_DECREF(m);
    Py_XDECREF(base);
    Py_XDECREF(exp);
    return result;
}

static PyObject *
long_pow(PyObject *v, PyObject *w, PyObject *x)
{
    CHECK_BINOP(v, w);
    if (x != Py_None && !PyLong_Check(x)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyLongObject *a = (PyLongObject *)v, *b = (PyLongObject *)w;
    if (x != Py_None) {
        return long_pow_mod(a, b, (PyLongObject *)x);
    }
    if (SIGN(b) < 0) {
        /* negative exponents give floats */
        return PyFloat_Type.tp_as_number->nb_power(v, w, x);
    }
    return long_pow_nomod(a, b);
}

/* ---- Comparison and hashing --------------------------------------------- */

static PyObject *
long_richcompare(PyObject *a, PyObject *b, int op)
{
    CHECK_BINOP(a, b);
    int c = (a == b) ? 0 : _PyLong_Compare((PyLongObject *)a, (PyLongObject *)b);
    Py_RETURN_RICHCOMPARE(c, 0, op);
}

Py_hash_t
_PyLong_Hash(PyObject *obj)
{
    PyLongObject *v = (PyLongObject *)obj;
    if (IS_COMPACT(v)) {
        Py_hash_t x = MEDIUM_VALUE(v);
        return x == -1 ? -2 : x;
    }
    /* Horner's rule modulo 2**61 - 1; multiplying by 2**30 is a rotation
       of the 61-bit value. */
    Py_uhash_t x = 0;
    for (Py_ssize_t i = NDIGITS(v) - 1; i >= 0; i--) {
        x = ((x << PyLong_SHIFT) & PyHASH_MODULUS) | (x >> (PyHASH_BITS - PyLong_SHIFT));
        x += DIGITS(v)[i];
        if (x >= PyHASH_MODULUS) {
            x -= PyHASH_MODULUS;
        }
    }
    Py_hash_t h = SIGN(v) < 0 ? -(Py_hash_t)x : (Py_hash_t)x;
    return h == -1 ? -2 : h;
}

/* ---- Text to int -------------------------------------------------------- */

Py_ssize_t _Py_int_max_str_digits = _PY_LONG_DEFAULT_MAX_STR_DIGITS;

Py_ssize_t
_PyLong_GetMaxStrDigits(void)
{
    return _Py_int_max_str_digits;
}

int
_PyLong_SetMaxStrDigits(Py_ssize_t maxdigits)
{
    if (maxdigits != 0 && maxdigits < _PY_LONG_MAX_STR_DIGITS_THRESHOLD) {
        PyErr_Format(PyExc_ValueError, "maxdigits must be 0 or larger than %d",
                     _PY_LONG_MAX_STR_DIGITS_THRESHOLD);
        return -1;
    }
    _Py_int_max_str_digits = maxdigits;
    return 0;
}

static inline int
is_ascii_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Value of an ASCII digit in bases up to 36; 37 for anything else. */
static inline int
digit_value(unsigned char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'Z') {
        return c - 'A' + 10;
    }
    return 37;
}

/* Digits in a power-of-two base: each character is log2(base) bits. */
static PyObject *
digits_pow2_to_long(const char *s, const char *end, Py_ssize_t ndigits, int base)
{
    int bits = __builtin_ctz((unsigned)base);
    int64_t nbits = (int64_t)ndigits * bits;
    Py_ssize_t n = (Py_ssize_t)((nbits + PyLong_SHIFT - 1) / PyLong_SHIFT);
    PyLongObject *z = _PyLong_New(n);
    if (z == NULL) {
        return NULL;
    }
    twodigits acc = 0;
    int accbits = 0;
    Py_ssize_t pos = 0;
    for (Py_ssize_t k = end - s - 1; k >= 0; k--) {
        if (s[k] == '_') {
            continue;
        }
        acc |= (twodigits)digit_value((unsigned char)s[k]) << accbits;
        accbits += bits;
        if (accbits >= PyLong_SHIFT) {
            DIGITS(z)[pos++] = (digit)(acc & PyLong_MASK);
            acc >>= PyLong_SHIFT;
            accbits -= PyLong_SHIFT;
        }
    }
    if (accbits > 0) {
        DIGITS(z)[pos++] = (digit)acc;
    }
    return long_normalize(z, pos, 0);
}

/* Any other base: fold in as many characters at a time as fit in a digit
   (quadratic, fine at the sizes the str-digits limit allows by default). */
static PyObject *
digits_general_to_long(const char *s, const char *end, Py_ssize_t ndigits, int base)
{
    /* chars per chunk: the largest k with base**k < 2**30 */
    int k = 0;
    twodigits pw = 1;
    while (pw * base < PyLong_BASE) {
        pw *= base;
        k++;
    }
    double bits = (double)ndigits * log2((double)base);
    Py_ssize_t cap = (Py_ssize_t)(bits / PyLong_SHIFT) + 2;
    PyLongObject *z = _PyLong_New(cap);
    if (z == NULL) {
        return NULL;
    }
    Py_ssize_t size = 0;
    digit chunk = 0, scale = 1;
    int inchunk = 0;
    for (const char *p = s; p <= end; p++) {
        if (p < end) {
            if (*p == '_') {
                continue;
            }
            chunk = chunk * (digit)base + (digit)digit_value((unsigned char)*p);
            scale *= (digit)base;
            if (++inchunk < k) {
                continue;
            }
        }
        else if (inchunk == 0) {
            break;
        }
        digit carry = mag_muladd1(DIGITS(z), size, scale, chunk);
        if (carry) {
            DIGITS(z)[size++] = carry;
        }
        chunk = 0;
        scale = 1;
        inchunk = 0;
    }
    return long_normalize(z, size, 0);
}

/* Parse s[0:len] as Python's int() does: whitespace, sign, optional
   prefix, digits with single underscores between them.  Returns NULL with
   *invalid set (no exception) on a syntax error. */
static PyObject *
long_from_ascii(const char *s, Py_ssize_t len, int base, int *invalid)
{
    const char *end = s + len;
    *invalid = 1;
    while (s < end && is_ascii_space((unsigned char)*s)) {
        s++;
    }
    while (end > s && is_ascii_space((unsigned char)end[-1])) {
        end--;
    }
    int negative = 0;
    if (s < end && (*s == '+' || *s == '-')) {
        negative = *s == '-';
        s++;
    }
    int prefixed = 0;
    if (end - s >= 2 && s[0] == '0') {
        char c = (char)(s[1] | 0x20);
        int pbase = c == 'x' ? 16 : c == 'o' ? 8 : c == 'b' ? 2 : 0;
        if (pbase && (base == 0 || base == pbase)) {
            base = pbase;
            s += 2;
            prefixed = 1;
        }
    }
    int octal_zero_check = 0;
    if (base == 0) {
        /* no prefix: decimal, where a leading 0 must mean the value 0 */
        base = 10;
        octal_zero_check = s < end && *s == '0';
    }
    /* validate: digits, with single underscores between digits (or right
       after a prefix) */
    Py_ssize_t ndigits = 0;
    int last_was_digit = prefixed;  /* an underscore may follow a prefix */
    for (const char *p = s; p < end; p++) {
        if (*p == '_') {
            if (!last_was_digit) {
                return NULL;
            }
            last_was_digit = 0;
            continue;
        }
        if (digit_value((unsigned char)*p) >= base) {
            return NULL;
        }
        if (octal_zero_check && *p != '0') {
            return NULL;
        }
        ndigits++;
        last_was_digit = 1;
    }
    if (ndigits == 0 || !last_was_digit) {
        return NULL;
    }
    *invalid = 0;
    if ((base & (base - 1)) != 0 && _Py_int_max_str_digits > 0 &&
        ndigits > _Py_int_max_str_digits) {
        PyErr_Format(PyExc_ValueError,
                     "Exceeds the limit (%zd digits) for integer string conversion: "
                     "value has %zd digits; use sys.set_int_max_str_digits() "
                     "to increase the limit", _Py_int_max_str_digits, ndigits);
        return NULL;
    }
    PyObject *r;
    if ((base & (base - 1)) == 0) {
        r = digits_pow2_to_long(s, end, ndigits, base);
    }
    else {
        r = digits_general_to_long(s, end, ndigits, base);
    }
    if (r != NULL && negative) {
        Py_SETREF(r, _PyLong_Negate((PyLongObject *)r));
    }
    return r;
}

static int
check_base(int base)
{
    if ((base != 0 && base < 2) || base > 36) {
        PyErr_SetString(PyExc_ValueError, "int() base must be >= 2 and <= 36, or 0");
        return -1;
    }
    return 0;
}

static void
invalid_literal(PyObject *repr_source, int base)
{
    PyErr_Format(PyExc_ValueError, "invalid literal for int() with base %d: %.200R",
                 base, repr_source);
}

PyObject *
PyLong_FromString(const char *str, char **pend, int base)
{
    if (check_base(base) < 0) {
        return NULL;
    }
    Py_ssize_t len = (Py_ssize_t)strlen(str);
    int invalid;
    PyObject *r = long_from_ascii(str, len, base, &invalid);
    if (pend != NULL) {
        *pend = (char *)str + (r != NULL ? len : 0);
    }
    if (r == NULL && invalid) {
        PyObject *s = PyUnicode_DecodeUTF8(str, Py_MIN(len, 200), "replace");
        if (s != NULL) {
            invalid_literal(s, base);
            Py_DECREF(s);
        }
    }
    return r;
}

/* Bytes-like input: the error message shows the bytes object. */
static PyObject *
long_from_bytes_data(const char *data, Py_ssize_t len, int base, PyObject *orig)
{
    int invalid;
    PyObject *r = long_from_ascii(data, len, base, &invalid);
    if (r == NULL && invalid) {
        PyObject *shown = orig;
        if (!PyBytes_Check(orig)) {
            shown = PyBytes_FromStringAndSize(data, len);
            if (shown == NULL) {
                return NULL;
            }
        }
        invalid_literal(shown, base);
        if (shown != orig) {
            Py_DECREF(shown);
        }
    }
    return r;
}

PyObject *
PyLong_FromUnicodeObject(PyObject *u, int base)
{
    if (check_base(base) < 0) {
        return NULL;
    }
    int invalid;
    PyObject *r;
    if (PyUnicode_IS_ASCII(u)) {
        r = long_from_ascii((const char *)PyUnicode_DATA(u), PyUnicode_GET_LENGTH(u),
                            base, &invalid);
    }
    else {
        Py_ssize_t len;
        char *buf = _PyUnicode_NumberToASCII(u, &len);
        if (buf == NULL) {
            return NULL;
        }
        r = long_from_ascii(buf, len, base, &invalid);
        PyMem_Free(buf);
    }
    if (r == NULL && invalid) {
        invalid_literal(u, base);
    }
    return r;
}

/* ---- Int to text -------------------------------------------------------- */

static void
str_digits_error(void)
{
    PyErr_Format(PyExc_ValueError,
                 "Exceeds the limit (%zd digits) for integer string conversion; "
                 "use sys.set_int_max_str_digits() to increase the limit",
                 _Py_int_max_str_digits);
}

/* |v| in base 10**9 "pieces", least significant first; quadratic.
   Returns a PyMem buffer and its length, or NULL with an error set. */
static digit *
long_to_decimal_pieces(PyLongObject *v, Py_ssize_t *pn)
{
    Py_ssize_t na = NDIGITS(v);
    /* each 30-bit digit needs at most 30/29.89 base-1e9 pieces */
    Py_ssize_t cap = 1 + na + na / 90 + 1;
    digit *out = PyMem_Malloc((size_t)cap * sizeof(digit));
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t size = 0;
    for (Py_ssize_t i = na - 1; i >= 0; i--) {
        /* out = out * 2**30 + digit, in base 10**9 */
        twodigits carry = DIGITS(v)[i];
        for (Py_ssize_t j = 0; j < size; j++) {
            twodigits t = ((twodigits)out[j] << PyLong_SHIFT) + carry;
            carry = t / _PyLong_DECIMAL_BASE;
            out[j] = (digit)(t - carry * _PyLong_DECIMAL_BASE);
        }
        while (carry) {
            out[size++] = (digit)(carry % _PyLong_DECIMAL_BASE);
            carry /= _PyLong_DECIMAL_BASE;
        }
        if ((i & 1023) == 0 && i && PyErr_CheckSignals() < 0) {
            PyMem_Free(out);
            return NULL;
        }
    }
    if (size == 0) {
        out[size++] = 0;
    }
    *pn = size;
    return out;
}

/* Quick rejection before the quadratic conversion: the decimal length is
   at least (bits - 1) * log10(2) + 1. */
static int
decimal_too_long(PyLongObject *v)
{
    if (_Py_int_max_str_digits <= 0 || NDIGITS(v) < 2) {
        return 0;
    }
    double min_digits = (double)(long_nbits(v) - 1) * 0.30102999566398119 + 1;
    return min_digits > (double)_Py_int_max_str_digits + 1;
}

/* The magnitude in decimal as a PyMem buffer (NUL-terminated). */
static char *
long_decimal_chars(PyLongObject *v, Py_ssize_t *plen)
{
    if (decimal_too_long(v)) {
        str_digits_error();
        return NULL;
    }
    Py_ssize_t np;
    digit *pieces = long_to_decimal_pieces(v, &np);
    if (pieces == NULL) {
        return NULL;
    }
    int toplen = 1;
    for (digit t = pieces[np - 1]; t >= 10; t /= 10) {
        toplen++;
    }
    Py_ssize_t len = (np - 1) * _PyLong_DECIMAL_SHIFT + toplen;
    if (_Py_int_max_str_digits > 0 && len > _Py_int_max_str_digits) {
        PyMem_Free(pieces);
        str_digits_error();
        return NULL;
    }
    char *buf = PyMem_Malloc((size_t)len + 1);
    if (buf == NULL) {
        PyMem_Free(pieces);
        PyErr_NoMemory();
        return NULL;
    }
    char *p = buf + len;
    *p = '\0';
    for (Py_ssize_t i = 0; i < np; i++) {
        digit t = pieces[i];
        int count = (i == np - 1) ? toplen : _PyLong_DECIMAL_SHIFT;
        for (int k = 0; k < count; k++) {
            *--p = (char)('0' + t % 10);
            t /= 10;
        }
    }
    PyMem_Free(pieces);
    *plen = len;
    return buf;
}

/* The magnitude in base 2, 8 or 16 (lower case). */
static char *
long_pow2_chars(PyLongObject *v, int base, Py_ssize_t *plen)
{
    int bits = base == 2 ? 1 : base == 8 ? 3 : 4;
    int64_t nbits = long_nbits(v);
    Py_ssize_t len = nbits == 0 ? 1 : (Py_ssize_t)((nbits + bits - 1) / bits);
    char *buf = PyMem_Malloc((size_t)len + 1);
    if (buf == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    char *p = buf + len;
    *p = '\0';
    twodigits acc = 0;
    int accbits = 0;
    Py_ssize_t i = 0, n = NDIGITS(v);
    while (p > buf) {
        if (accbits < bits && i < n) {
            acc |= (twodigits)DIGITS(v)[i++] << accbits;
            accbits += PyLong_SHIFT;
        }
        *--p = "0123456789abcdef"[acc & (twodigits)(base - 1)];
        acc >>= bits;
        accbits -= bits;
    }
    *plen = len;
    return buf;
}

char *
_PyLong_ToDigitBuffer(PyObject *obj, int base, Py_ssize_t *len)
{
    PyLongObject *v = (PyLongObject *)obj;
    if (base == 10) {
        return long_decimal_chars(v, len);
    }
    if (base != 2 && base != 8 && base != 16) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return long_pow2_chars(v, base, len);
}

static PyObject *
compact_to_decimal(Py_ssize_t x)
{
    char buf[24];
    char *p = buf + sizeof(buf);
    size_t mag = x < 0 ? (size_t)0 - (size_t)x : (size_t)x;
    do {
        *--p = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag);
    if (x < 0) {
        *--p = '-';
    }
    Py_ssize_t n = buf + sizeof(buf) - p;
    PyObject *r = PyUnicode_New(n, 127);
    if (r != NULL) {
        memcpy(PyUnicode_DATA(r), p, (size_t)n);
    }
    return r;
}

/* sign + prefix + digits as an ASCII str */
static PyObject *
long_format_base(PyObject *obj, int base, int prefix)
{
    PyLongObject *v = (PyLongObject *)obj;
    Py_ssize_t len;
    char *digits;
    if (base == 10 && IS_COMPACT(v)) {
        return compact_to_decimal(MEDIUM_VALUE(v));
    }
    digits = _PyLong_ToDigitBuffer(obj, base, &len);
    if (digits == NULL) {
        return NULL;
    }
    int negative = SIGN(v) < 0;
    int plen = (base != 10 && prefix) ? 2 : 0;
    PyObject *r = PyUnicode_New(len + negative + plen, 127);
    if (r != NULL) {
        char *out = (char *)PyUnicode_DATA(r);
        if (negative) {
            *out++ = '-';
        }
        if (plen) {
            *out++ = '0';
            *out++ = base == 2 ? 'b' : base == 8 ? 'o' : 'x';
        }
        memcpy(out, digits, (size_t)len);
    }
    PyMem_Free(digits);
    return r;
}

PyObject *
_PyLong_Format(PyObject *obj, int base)
{
    return long_format_base(obj, base, 1);
}

static PyObject *
long_to_decimal_string(PyObject *v)
{
    return long_format_base(v, 10, 0);
}

/* ---- Bytes conversions -------------------------------------------------- */

PyObject *
_PyLong_FromByteArray(const unsigned char *bytes, size_t n, int little_endian, int is_signed)
{
    if (n == 0) {
        return small_int(0);
    }
    const unsigned char *msb = little_endian ? bytes + n - 1 : bytes;
    int step = little_endian ? 1 : -1;
    const unsigned char *p = little_endian ? bytes : bytes + n - 1;  /* LSB first */
    int negative = is_signed && (*msb & 0x80);
    if (n > (size_t)MAX_LONG_DIGITS) {
        PyErr_SetString(PyExc_OverflowError, "byte array too long to convert to int");
        return NULL;
    }
    Py_ssize_t ndig = (Py_ssize_t)((n * 8 + PyLong_SHIFT - 1) / PyLong_SHIFT);
    PyLongObject *z = _PyLong_New(ndig);
    if (z == NULL) {
        return NULL;
    }
    /* Negative values are complemented on the fly: magnitude = ~x + 1. */
    unsigned int carry = 1;
    twodigits acc = 0;
    int accbits = 0;
    Py_ssize_t pos = 0;
    for (size_t i = 0; i < n; i++, p += step) {
        unsigned int byte = *p;
        if (negative) {
            byte = (byte ^ 0xFF) + carry;
            carry = byte >> 8;
            byte &= 0xFF;
        }
        acc |= (twodigits)byte << accbits;
        accbits += 8;
        if (accbits >= PyLong_SHIFT) {
            DIGITS(z)[pos++] = (digit)(acc & PyLong_MASK);
            acc >>= PyLong_SHIFT;
            accbits -= PyLong_SHIFT;
        }
    }
    if (accbits > 0) {
        DIGITS(z)[pos++] = (digit)acc;
    }
    return long_normalize(z, pos, negative);
}

int
_PyLong_AsByteArray(PyLongObject *v, unsigned char *bytes, size_t n,
                    int little_endian, int is_signed, int with_exceptions)
{
    int negative = SIGN(v) < 0;
    if (negative && !is_signed) {
        if (with_exceptions) {
            PyErr_SetString(PyExc_OverflowError, "can't convert negative int to unsigned");
        }
        return -1;
    }
    unsigned char *p = little_endian ? bytes : bytes + n - 1;
    int step = little_endian ? 1 : -1;
    Py_ssize_t nd = NDIGITS(v), i = 0;
    twodigits acc = 0;
    int accbits = 0;
    unsigned int carry = 1;
    size_t written = 0;
    int overflow = 0;
    /* emit bytes LSB first, complementing negative magnitudes */
    while (i < nd || accbits > 0) {
        if (accbits < 8 && i < nd) {
            acc |= (twodigits)DIGITS(v)[i++] << accbits;
            accbits += PyLong_SHIFT;
        }
        unsigned int byte = (unsigned int)(acc & 0xFF);
        acc >>= 8;
        accbits -= 8;
        if (accbits < 0) {
            accbits = 0;
        }
        if (negative) {
            byte = (byte ^ 0xFF) + carry;
            carry = byte >> 8;
            byte &= 0xFF;
        }
        if (written < n) {
            *p = (unsigned char)byte;
            p += step;
            written++;
        }
        else if (byte != (negative ? 0xFFu : 0u)) {
            overflow = 1;
            break;
        }
        if (i >= nd && acc == 0) {
            break;
        }
    }
    /* sign extension */
    for (; written < n; written++, p += step) {
        *p = negative ? 0xFF : 0;
    }
    if (!overflow && is_signed && n > 0) {
        unsigned char top = little_endian ? bytes[n - 1] : bytes[0];
        if (((top & 0x80) != 0) != negative && !long_is_zero(v)) {
            overflow = 1;
        }
    }
    if (overflow) {
        if (with_exceptions) {
            PyErr_SetString(PyExc_OverflowError, "int too big to convert");
        }
        return -1;
    }
    return 0;
}

/* PyLong_AsNativeBytes and friends (3.13 API) */

static int
native_little_endian(int flags)
{
    if (flags == -1 ||
        (flags & Py_ASNATIVEBYTES_NATIVE_ENDIAN) == Py_ASNATIVEBYTES_NATIVE_ENDIAN) {
        const uint16_t probe = 1;
        return *(const unsigned char *)&probe == 1;
    }
    return (flags & Py_ASNATIVEBYTES_LITTLE_ENDIAN) != 0;
}

Py_ssize_t
PyLong_AsNativeBytes(PyObject *obj, void *buffer, Py_ssize_t n_bytes, int flags)
{
    PyLongObject *v;
    if (PyLong_Check(obj)) {
        v = (PyLongObject *)Py_NewRef(obj);
    }
    else if (flags != -1 && (flags & Py_ASNATIVEBYTES_ALLOW_INDEX)) {
        v = long_index(obj);
        if (v == NULL) {
            return -1;
        }
    }
    else {
        PyErr_Format(PyExc_TypeError, "expect int, got %s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    int negative = SIGN(v) < 0;
    if (negative && flags != -1 && (flags & Py_ASNATIVEBYTES_REJECT_NEGATIVE)) {
        PyErr_SetString(PyExc_ValueError, "Cannot convert negative int");
        Py_DECREF(v);
        return -1;
    }
    /* bytes needed: room for a sign bit unless an unsigned buffer was
       requested for a nonnegative value */
    int64_t bits = long_nbits(v);
    if (negative) {
        PyObject *t = _PyLong_Add(v, (PyLongObject *)small_int(1));
        if (t == NULL) {
            Py_DECREF(v);
            return -1;
        }
        bits = long_nbits((PyLongObject *)t);
        Py_DECREF(t);
    }
    int unsigned_ok = flags != -1 && (flags & Py_ASNATIVEBYTES_UNSIGNED_BUFFER) && !negative;
    Py_ssize_t needed = (Py_ssize_t)((bits + (unsigned_ok ? 0 : 1) + 7) / 8);
    if (needed == 0) {
        needed = 1;
    }
    if (n_bytes > 0) {
        /* write the low n_bytes bytes of the two's complement value */
        PyObject *mask = NULL;
        int little = native_little_endian(flags);
        if ((size_t)n_bytes >= (size_t)needed) {
            _PyLong_AsByteArray(v, buffer, (size_t)n_bytes, little, 1, 0);
        }
        else {
            mask = long_lshift_impl((PyLongObject *)small_int(1), (int64_t)n_bytes * 8);
            PyObject *low = mask ? _PyLong_Remainder(v, (PyLongObject *)mask) : NULL;
            if (low == NULL) {
                Py_XDECREF(mask);
                Py_DECREF(v);
                return -1;
            }
            _PyLong_AsByteArray((PyLongObject *)low, buffer, (size_t)n_bytes, little, 0, 0);
            Py_DECREF(low);
            Py_DECREF(mask);
        }
    }
    Py_DECREF(v);
    return needed;
}

PyObject *
PyLong_FromNativeBytes(const void *buffer, size_t n_bytes, int flags)
{
    return _PyLong_FromByteArray(buffer, n_bytes, native_little_endian(flags),
                                 flags == -1 || !(flags & Py_ASNATIVEBYTES_UNSIGNED_BUFFER));
}

PyObject *
PyLong_FromUnsignedNativeBytes(const void *buffer, size_t n_bytes, int flags)
{
    return _PyLong_FromByteArray(buffer, n_bytes, native_little_endian(flags), 0);
}

/* ---- gcd and rounding helpers ------------------------------------------- */

PyObject *
_PyLong_GCD(PyObject *aobj, PyObject *bobj)
{
    PyLongObject *a = (PyLongObject *)aobj, *b = (PyLongObject *)bobj;
    if (_PyLong_BothAreCompact(a, b)) {
        Py_ssize_t x = Py_ABS(MEDIUM_VALUE(a)), y = Py_ABS(MEDIUM_VALUE(b));
        while (y) {
            Py_ssize_t t = x % y;
            x = y;
            y = t;
        }
        return long_from_int64(x);
    }
    PyObject *x = long_abs_obj(a), *y = long_abs_obj(b);
    if (x == NULL || y == NULL) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        return NULL;
    }
    while (!long_is_zero((PyLongObject *)y)) {
        if (_PyLong_BothAreCompact((PyLongObject *)x, (PyLongObject *)y)) {
            PyObject *r = _PyLong_GCD(x, y);
            Py_DECREF(x);
            Py_DECREF(y);
            return r;
        }
        PyObject *r = _PyLong_Remainder((PyLongObject *)x, (PyLongObject *)y);
        if (r == NULL) {
            Py_DECREF(x);
            Py_DECREF(y);
            return NULL;
        }
        Py_SETREF(x, y);
        y = r;
    }
    Py_DECREF(y);
    return x;
}

PyObject *
_PyLong_DivmodNear(PyObject *a, PyObject *b)
{
    if (!PyLong_Check(a) || !PyLong_Check(b)) {
        PyErr_SetString(PyExc_TypeError, "non-integer arguments in division");
        return NULL;
    }
    PyObject *q, *r, *twice = NULL, *result = NULL;
    if (long_divmod_impl((PyLongObject *)a, (PyLongObject *)b, &q, &r) < 0) {
        return NULL;
    }
    /* r has b's sign; compare 2|r| with |b| */
    twice = long_lshift_impl((PyLongObject *)r, 1);
    if (twice == NULL) {
        goto done;
    }
    int c = mag_cmp(DIGITS((PyLongObject *)twice), NDIGITS((PyLongObject *)twice),
                    DIGITS((PyLongObject *)b), NDIGITS((PyLongObject *)b));
    int q_odd = NDIGITS((PyLongObject *)q) > 0 && (DIGITS((PyLongObject *)q)[0] & 1);
    if (c > 0 || (c == 0 && q_odd)) {
        Py_SETREF(q, _PyLong_Add((PyLongObject *)q, (PyLongObject *)small_int(1)));
        if (q == NULL) {
            goto done;
        }
        Py_SETREF(r, _PyLong_Subtract((PyLongObject *)r, (PyLongObject *)b));
        if (r == NULL) {
            goto done;
        }
    }
    result = PyTuple_Pack(2, q, r);
done:
    Py_XDECREF(q);
    Py_XDECREF(r);
    Py_XDECREF(twice);
    return result;
}

/* ---- int(x) ------------------------------------------------------------- */

/* What __int__ or __index__ gave back, made an exact int: a subclass of
   int is copied (with the DeprecationWarning 3.x gives for it), anything
   else is a TypeError.  Steals `result`; NULL passes through. */
static PyObject *
exact_int_from_method(PyObject *result, const char *method)
{
    if (result == NULL || PyLong_CheckExact(result)) {
        return result;
    }
    const char *got = Py_TYPE(result)->tp_name;
    PyObject *exact = NULL;
    if (PyLong_Check(result)) {
        int refused = PyErr_WarnFormat(
            PyExc_DeprecationWarning, 1,
            "%s returned non-int (type %.200s).  The ability to return an instance of a strict "
            "subclass of int is deprecated, and may be removed in a future version of Python.",
            method, got);
        exact = refused < 0 ? NULL : _PyLong_Copy((PyLongObject *)result);
    }
    else {
        PyErr_Format(PyExc_TypeError, "%s returned non-int (type %.200s)", method, got);
    }
    Py_DECREF(result);
    return exact;
}

/* Parse any buffer-exporting object's bytes. */
static PyObject *
long_from_buffer(PyObject *x, int base)
{
    PyBufferProcs *bp = Py_TYPE(x)->tp_as_buffer;
    Py_buffer view;
    if (bp->bf_getbuffer(x, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *r = long_from_bytes_data(view.buf, view.len, base, x);
    if (bp->bf_releasebuffer != NULL) {
        bp->bf_releasebuffer(x, &view);
    }
    Py_XDECREF(view.obj);
    return r;
}

static PyObject *
long_from_string_like(PyObject *x, int base)
{
    if (PyUnicode_Check(x)) {
        return PyLong_FromUnicodeObject(x, base);
    }
    if (PyBytes_Check(x)) {
        return long_from_bytes_data(PyBytes_AS_STRING(x), PyBytes_GET_SIZE(x), base, x);
    }
    if (PyByteArray_Check(x)) {
        return long_from_bytes_data(PyByteArray_AS_STRING(x), PyByteArray_GET_SIZE(x), base, x);
    }
    return NULL;
}

PyObject *
_PyLong_FromNumber(PyObject *x)
{
    if (PyLong_CheckExact(x)) {
        return Py_NewRef(x);
    }
    PyNumberMethods *nb = Py_TYPE(x)->tp_as_number;
    if (nb != NULL && nb->nb_int != NULL) {
        return exact_int_from_method(nb->nb_int(x), "__int__");
    }
    if (nb != NULL && nb->nb_index != NULL) {
        return exact_int_from_method(nb->nb_index(x), "__index__");
    }
    if (PyUnicode_Check(x) || PyBytes_Check(x) || PyByteArray_Check(x)) {
        return long_from_string_like(x, 10);
    }
    if (Py_TYPE(x)->tp_as_buffer != NULL && Py_TYPE(x)->tp_as_buffer->bf_getbuffer != NULL) {
        return long_from_buffer(x, 10);
    }
    PyErr_Format(PyExc_TypeError,
                 "int() argument must be a string, a bytes-like object or a real number, "
                 "not '%.200s'", Py_TYPE(x)->tp_name);
    return NULL;
}

/* int()'s base argument: 0 or 2..36, else -1 with an error set. */
static int
int_base_argument(PyObject *obase)
{
    Py_ssize_t base = PyNumber_AsSsize_t(obase, NULL);
    if (base == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (base == 0 || (base >= 2 && base <= 36)) {
        return (int)base;
    }
    PyErr_SetString(PyExc_ValueError, "int() base must be >= 2 and <= 36, or 0");
    return -1;
}

/* int(), int(x) and int(x, base) for exactly int. */
static PyObject *
long_new_exact(PyObject *x, PyObject *obase)
{
    if (obase == NULL) {
        return x == NULL ? small_int(0) : _PyLong_FromNumber(x);
    }
    if (x == NULL) {
        PyErr_SetString(PyExc_TypeError, "int() missing string argument");
        return NULL;
    }
    int base = int_base_argument(obase);
    if (base < 0) {
        return NULL;
    }
    PyObject *parsed = long_from_string_like(x, base);
    if (parsed == NULL && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_TypeError, "int() can't convert non-string with explicit base");
    }
    return parsed;
}

/* int subclasses: build the value, then copy it into the subtype. */
static PyObject *
long_subtype_new(PyTypeObject *type, PyObject *x, PyObject *obase)
{
    PyLongObject *tmp = (PyLongObject *)long_new_exact(x, obase);
    if (tmp == NULL) {
        return NULL;
    }
    Py_ssize_t n = NDIGITS(tmp);
    PyLongObject *newobj = (PyLongObject *)type->tp_alloc(type, n == 0 ? 1 : n);
    if (newobj != NULL) {
        newobj->lv_tag = tmp->lv_tag;
        DIGITS(newobj)[0] = 0;
        memcpy(DIGITS(newobj), DIGITS(tmp), (size_t)n * sizeof(digit));
    }
    Py_DECREF(tmp);
    return (PyObject *)newobj;
}

static PyObject *
long_new_impl(PyTypeObject *type, PyObject *x, PyObject *obase)
{
    if (type != &PyLong_Type) {
        return long_subtype_new(type, x, obase);
    }
    return long_new_exact(x, obase);
}

static PyObject *
long_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *x = nargs > 0 ? PyTuple_GET_ITEM(args, 0) : NULL;
    PyObject *obase = nargs > 1 ? PyTuple_GET_ITEM(args, 1) : NULL;
    Py_ssize_t nkw = kwds != NULL ? PyDict_GET_SIZE(kwds) : 0;
    if (nargs + nkw > 2) {
        if (nkw == 0) {
            PyErr_Format(PyExc_TypeError, "int expected at most 2 arguments, got %zd", nargs);
        }
        else {
            PyErr_Format(PyExc_TypeError, "int() takes at most 2 arguments (%zd given)",
                         nargs + nkw);
        }
        return NULL;
    }
    if (nkw > 0) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(kwds, &pos, &key, &value)) {
            if (!PyUnicode_Check(key) || !_PyUnicode_EqualToASCIIString(key, "base")) {
                PyErr_Format(PyExc_TypeError,
                             "int() got an unexpected keyword argument '%S'", key);
                return NULL;
            }
            if (obase != NULL) {
                PyErr_SetString(PyExc_TypeError,
                                "argument for int() given by name ('base') and position (2)");
                return NULL;
            }
            obase = value;
        }
    }
    return long_new_impl(type, x, obase);
}

static PyObject *
long_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if ((PyTypeObject *)type != &PyLong_Type || (kwnames != NULL && PyTuple_GET_SIZE(kwnames)) ||
        nargs > 2) {
        return _PyObject_MakeTpCall(type, args, nargs, kwnames);
    }
    return long_new_exact(nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL);
}

/* ---- Methods ------------------------------------------------------------ */

static PyObject *
int_bit_length(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return long_from_int64(long_nbits((PyLongObject *)self));
}

static PyObject *
int_bit_count(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyLongObject *v = (PyLongObject *)self;
    int64_t count = 0;
    for (Py_ssize_t i = 0; i < NDIGITS(v); i++) {
        count += __builtin_popcount(DIGITS(v)[i]);
    }
    return long_from_int64(count);
}

static PyObject *
int_conjugate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return long_long(self);
}

static PyObject *
int_is_integer(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_TRUE;
}

static PyObject *
int_as_integer_ratio(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *n = long_long(self);
    if (n == NULL) {
        return NULL;
    }
    PyObject *r = PyTuple_Pack(2, n, small_int(1));
    Py_DECREF(n);
    return r;
}

static PyObject *
int_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("__round__", nargs, 0, 1)) {
        return NULL;
    }
    if (nargs == 0 || args[0] == Py_None) {
        return long_long(self);
    }
    PyObject *nd = PyNumber_Index(args[0]);
    if (nd == NULL) {
        return NULL;
    }
    if (SIGN((PyLongObject *)nd) >= 0) {
        Py_DECREF(nd);
        return long_long(self);
    }
    /* round to a multiple of 10**-ndigits, ties to even */
    PyObject *neg = _PyLong_Negate((PyLongObject *)nd);
    Py_DECREF(nd);
    if (neg == NULL) {
        return NULL;
    }
    PyObject *pw = long_pow_nomod((PyLongObject *)small_int(10), (PyLongObject *)neg);
    Py_DECREF(neg);
    if (pw == NULL) {
        return NULL;
    }
    PyObject *qr = _PyLong_DivmodNear(self, pw);
    Py_DECREF(pw);
    if (qr == NULL) {
        return NULL;
    }
    PyObject *r = _PyLong_Subtract((PyLongObject *)self, (PyLongObject *)PyTuple_GET_ITEM(qr, 1));
    Py_DECREF(qr);
    return r;
}

static PyObject *
int_getnewargs(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *v = long_long(self);
    if (v == NULL) {
        return NULL;
    }
    PyObject *r = PyTuple_Pack(1, v);
    Py_DECREF(v);
    return r;
}

static PyObject *
int_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t n = NDIGITS((PyLongObject *)self);
    size_t size = (size_t)Py_TYPE(self)->tp_basicsize + (size_t)Py_MAX(n, 1) * sizeof(digit);
    return PyLong_FromSize_t(size);
}

static PyObject *
int_format(PyObject *self, PyObject *spec)
{
    if (!PyUnicode_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "__format__() argument must be str, not %.200s",
                     Py_TYPE(spec)->tp_name);
        return NULL;
    }
    return _PyLong_FormatAdvanced(self, spec, 0, PyUnicode_GET_LENGTH(spec));
}

/* byteorder argument of to_bytes/from_bytes: 1 little, 0 big, -1 error */
static int
parse_byteorder(PyObject *obj, const char *fname)
{
    if (obj == NULL) {
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 'byteorder' must be str, not %.200s",
                     fname, Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (_PyUnicode_EqualToASCIIString(obj, "little")) {
        return 1;
    }
    if (_PyUnicode_EqualToASCIIString(obj, "big")) {
        return 0;
    }
    PyErr_SetString(PyExc_ValueError, "byteorder must be either 'little' or 'big'");
    return -1;
}

static PyObject *
int_to_bytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"length", "byteorder", "signed", NULL};
    PyObject *argv[3] = {NULL, NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "to_bytes", kwlist,
                                      0, 2, 0, argv)) {
        return NULL;
    }
    Py_ssize_t length = 1;
    if (argv[0] != NULL) {
        length = PyNumber_AsSsize_t(argv[0], PyExc_OverflowError);
        if (length == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (length < 0) {
            PyErr_SetString(PyExc_ValueError, "length argument must be non-negative");
            return NULL;
        }
    }
    int little = parse_byteorder(argv[1], "to_bytes");
    if (little < 0) {
        return NULL;
    }
    int is_signed = 0;
    if (argv[2] != NULL && (is_signed = PyObject_IsTrue(argv[2])) < 0) {
        return NULL;
    }
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, length);
    if (bytes == NULL) {
        return NULL;
    }
    if (_PyLong_AsByteArray((PyLongObject *)self, (unsigned char *)PyBytes_AS_STRING(bytes),
                            (size_t)length, little, is_signed, 1) < 0) {
        Py_DECREF(bytes);
        return NULL;
    }
    return bytes;
}

static PyObject *
int_from_bytes(PyObject *type, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"bytes", "byteorder", "signed", NULL};
    PyObject *argv[3] = {NULL, NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "from_bytes", kwlist,
                                      1, 2, 0, argv)) {
        return NULL;
    }
    int little = parse_byteorder(argv[1], "from_bytes");
    if (little < 0) {
        return NULL;
    }
    int is_signed = 0;
    if (argv[2] != NULL && (is_signed = PyObject_IsTrue(argv[2])) < 0) {
        return NULL;
    }
    PyObject *bytes = PyObject_Bytes(argv[0]);
    if (bytes == NULL) {
        return NULL;
    }
    PyObject *v = _PyLong_FromByteArray((unsigned char *)PyBytes_AS_STRING(bytes),
                                        (size_t)PyBytes_GET_SIZE(bytes), little, is_signed);
    Py_DECREF(bytes);
    if (v != NULL && (PyTypeObject *)type != &PyLong_Type) {
        Py_SETREF(v, PyObject_CallOneArg(type, v));
    }
    return v;
}

static PyObject *
int_get_self(PyObject *self, void *Py_UNUSED(closure))
{
    return long_long(self);
}

static PyObject *
int_get_zero(PyObject *self, void *Py_UNUSED(closure))
{
    return small_int(0);
}

static PyObject *
int_get_one(PyObject *self, void *Py_UNUSED(closure))
{
    return small_int(1);
}

static PyMethodDef long_methods[] = {
    {"conjugate", int_conjugate, METH_NOARGS,
     "An int is its own complex conjugate: returns int(self)."},
    {"bit_length", int_bit_length, METH_NOARGS,
     "How many bits |self| takes in binary, not counting leading zeros."},
    {"bit_count", int_bit_count, METH_NOARGS,
     "How many 1 bits |self| has in binary."},
    {"to_bytes", _PyCFunction_CAST(int_to_bytes), METH_FASTCALL | METH_KEYWORDS,
     "to_bytes($self, /, length=1, byteorder='big', *, signed=False)\n--\n\n"
     "The int as `length` bytes of two's complement ('big' or 'little' endian)."},
    {"from_bytes", _PyCFunction_CAST(int_from_bytes), METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "from_bytes($type, /, bytes, byteorder='big', *, signed=False)\n--\n\n"
     "The int whose two's complement (or unsigned) bytes are given."},
    {"as_integer_ratio", int_as_integer_ratio, METH_NOARGS,
     "(self, 1): the int as a fraction in lowest terms."},
    {"__trunc__", int_conjugate, METH_NOARGS, "int(self): truncation leaves an int unchanged."},
    {"__floor__", int_conjugate, METH_NOARGS, "int(self): the floor of an int is itself."},
    {"__ceil__", int_conjugate, METH_NOARGS, "int(self): the ceiling of an int is itself."},
    {"__round__", _PyCFunction_CAST(int_round), METH_FASTCALL,
     "round(self, ndigits): a negative ndigits rounds to a multiple of\n"
     "10**-ndigits, ties to even."},
    {"__getnewargs__", int_getnewargs, METH_NOARGS, NULL},
    {"__format__", int_format, METH_O, "format(self, format_spec) for the standard format spec."},
    {"__sizeof__", int_sizeof, METH_NOARGS, "Bytes of memory the object takes."},
    {"is_integer", int_is_integer, METH_NOARGS, "Always True (float has the same method)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef long_getset[] = {
    {"real", int_get_self, NULL, "int(self)", NULL},
    {"imag", int_get_zero, NULL, "0: an int has no imaginary part", NULL},
    {"numerator", int_get_self, NULL, "int(self)", NULL},
    {"denominator", int_get_one, NULL, "1", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyNumberMethods _PyLong_AsNumber = {
    .nb_add = long_add,
    .nb_subtract = long_sub,
    .nb_multiply = long_mul,
    .nb_remainder = long_mod,
    .nb_divmod = long_divmod,
    .nb_power = long_pow,
    .nb_negative = long_neg,
    .nb_positive = long_long,
    .nb_absolute = long_abs,
    .nb_bool = long_bool,
    .nb_invert = long_invert,
    .nb_lshift = long_lshift,
    .nb_rshift = long_rshift,
    .nb_and = long_and,
    .nb_xor = long_xor,
    .nb_or = long_or,
    .nb_int = long_long,
    .nb_float = long_float,
    .nb_floor_divide = long_floor_div,
    .nb_true_divide = long_true_divide,
    .nb_index = long_long,
};

PyTypeObject PyLong_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "int",
    .tp_basicsize = offsetof(PyLongObject, ob_digit),
    .tp_itemsize = sizeof(digit),
    .tp_dealloc = long_dealloc,
    .tp_repr = long_to_decimal_string,
    .tp_as_number = &_PyLong_AsNumber,
    .tp_hash = _PyLong_Hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_LONG_SUBCLASS |
                Py_TPFLAGS_IMMUTABLETYPE,
    .tp_doc = "int(x=0, /)\nint(x, /, base=10)\n\n"
              "An integer of unlimited size.  A number converts through __int__ or\n"
              "__index__ (floats lose their fraction); text (str, bytes, bytearray)\n"
              "is read as an integer literal in the given base, 2 to 36, or 0 to\n"
              "take the base from a 0b/0o/0x prefix as Python source does.",
    .tp_richcompare = long_richcompare,
    .tp_methods = long_methods,
    .tp_getset = long_getset,
    .tp_new = long_new,
    .tp_free = PyObject_Free,
    .tp_vectorcall = long_vectorcall,
};

/* PyLong_GetInfo (sys.int_info) is in Python/sysinfo.c with the other sys tables. */

/* ---- Argument converters ------------------------------------------------ */

static int
unsigned_converter(PyObject *obj, uint64_t max, uint64_t *out)
{
    if (PyLong_Check(obj) && SIGN((PyLongObject *)obj) < 0) {
        PyErr_SetString(PyExc_ValueError, "value must be positive");
        return 0;
    }
    PyLongObject *v = long_index(obj);
    if (v == NULL) {
        return 0;
    }
    if (SIGN(v) < 0) {
        Py_DECREF(v);
        PyErr_SetString(PyExc_ValueError, "value must be positive");
        return 0;
    }
    uint64_t x;
    if (long_mag_u64(v, &x) < 0 || x > max) {
        Py_DECREF(v);
        PyErr_SetString(PyExc_OverflowError, "Python int too large for C unsigned type");
        return 0;
    }
    Py_DECREF(v);
    *out = x;
    return 1;
}

int
_PyLong_UnsignedShort_Converter(PyObject *obj, void *ptr)
{
    uint64_t x;
    if (!unsigned_converter(obj, USHRT_MAX, &x)) {
        return 0;
    }
    *(unsigned short *)ptr = (unsigned short)x;
    return 1;
}

int
_PyLong_UnsignedInt_Converter(PyObject *obj, void *ptr)
{
    uint64_t x;
    if (!unsigned_converter(obj, UINT_MAX, &x)) {
        return 0;
    }
    *(unsigned int *)ptr = (unsigned int)x;
    return 1;
}

int
_PyLong_UnsignedLong_Converter(PyObject *obj, void *ptr)
{
    uint64_t x;
    if (!unsigned_converter(obj, ULONG_MAX, &x)) {
        return 0;
    }
    *(unsigned long *)ptr = (unsigned long)x;
    return 1;
}

int
_PyLong_Size_t_Converter(PyObject *obj, void *ptr)
{
    uint64_t x;
    if (!unsigned_converter(obj, SIZE_MAX, &x)) {
        return 0;
    }
    *(size_t *)ptr = (size_t)x;
    return 1;
}
