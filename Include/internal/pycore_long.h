/* Internal int API: the small-int cache, fast paths for the interpreter
   and helpers shared with other parts of the runtime. */
#ifndef Py_INTERNAL_LONG_H
#define Py_INTERNAL_LONG_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "cpython/longintrepr.h"

/* ---- Small ints ------------------------------------------------------------
   -5 .. 256 exist once each, statically allocated and immortal. */
#define _PY_NSMALLNEGINTS 5
#define _PY_NSMALLPOSINTS 257

PyAPI_DATA(PyLongObject) _PyLong_SMALL_INTS[_PY_NSMALLNEGINTS + _PY_NSMALLPOSINTS];

static inline int
_PyLong_IsSmallIntValue(Py_ssize_t value)
{
    return -_PY_NSMALLNEGINTS <= value && value < _PY_NSMALLPOSINTS;
}

/* Borrowed = new reference: small ints are immortal.  `value` must be in
   -5 .. 256. */
static inline PyObject *
_PyLong_FromSmallInt(int value)
{
    assert(_PyLong_IsSmallIntValue(value));
    return (PyObject *)&_PyLong_SMALL_INTS[_PY_NSMALLNEGINTS + value];
}

static inline PyObject *
_PyLong_GetZero(void)
{
    return _PyLong_FromSmallInt(0);
}

static inline PyObject *
_PyLong_GetOne(void)
{
    return _PyLong_FromSmallInt(1);
}

/* ---- Inspection --------------------------------------------------------- */

/* |v| < 2**30: the value is one machine word away. */
static inline int
_PyLong_IsCompact(const PyLongObject *op)
{
    return op->lv_tag < ((uintptr_t)2 << _PyLong_NON_SIZE_BITS);
}

static inline int
_PyLong_BothAreCompact(const PyLongObject *a, const PyLongObject *b)
{
    return (a->lv_tag | b->lv_tag) < ((uintptr_t)2 << _PyLong_NON_SIZE_BITS);
}

/* The value of a compact int. */
static inline Py_ssize_t
_PyLong_CompactValue(const PyLongObject *op)
{
    assert(_PyLong_IsCompact(op));
    return (Py_ssize_t)(1 - (Py_ssize_t)(op->lv_tag & _PyLong_SIGN_MASK)) *
           (Py_ssize_t)op->ob_digit[0];
}

static inline int
_PyLong_IsZero(const PyLongObject *op)
{
    return (op->lv_tag & _PyLong_SIGN_MASK) == _PyLong_SIGN_ZERO;
}

static inline int
_PyLong_IsNegative(const PyLongObject *op)
{
    return (op->lv_tag & _PyLong_SIGN_MASK) == _PyLong_SIGN_NEGATIVE;
}

static inline int
_PyLong_IsPositive(const PyLongObject *op)
{
    return (op->lv_tag & _PyLong_SIGN_MASK) == _PyLong_SIGN_POSITIVE;
}

/* The item count an int (or an instance of an int subclass) was allocated
   with: max(1, digit count).  Generic code that sizes variable objects
   must use this instead of Py_SIZE(), which for ints overlaps lv_tag -- for
   instance to find the __dict__ of an int subclass with a negative
   tp_dictoffset. */
static inline Py_ssize_t
_PyLong_ItemCount(const PyLongObject *op)
{
    Py_ssize_t n = _PyLong_DigitCount(op);
    return n > 0 ? n : 1;
}

/* 0 <= v < 2**30 */
static inline int
_PyLong_IsNonNegativeCompact(const PyLongObject *op)
{
    return op->lv_tag <= ((uintptr_t)1 << _PyLong_NON_SIZE_BITS);
}

/* Free the cached single-digit ints (a full gc.collect() does). */
extern void _PyLong_ClearFreeList(void);

/* ---- Construction and arithmetic (Objects/longobject.c) --------------------
   The arithmetic helpers take exact or subclass ints and return new exact
   ints (NULL with an exception set on failure). */
PyAPI_FUNC(PyObject *) _PyLong_Add(PyLongObject *a, PyLongObject *b);
PyAPI_FUNC(PyObject *) _PyLong_Subtract(PyLongObject *a, PyLongObject *b);
PyAPI_FUNC(PyObject *) _PyLong_Multiply(PyLongObject *a, PyLongObject *b);
/* floor division and remainder with Python's signs; ZeroDivisionError */
PyAPI_FUNC(PyObject *) _PyLong_FloorDivide(PyLongObject *a, PyLongObject *b);
PyAPI_FUNC(PyObject *) _PyLong_Remainder(PyLongObject *a, PyLongObject *b);
PyAPI_FUNC(PyObject *) _PyLong_TrueDivide(PyLongObject *a, PyLongObject *b);
PyAPI_FUNC(PyObject *) _PyLong_Negate(PyLongObject *a);
/* Comparison of two ints: -1, 0 or 1 (cannot fail). */
PyAPI_FUNC(int) _PyLong_Compare(PyLongObject *a, PyLongObject *b);
/* An exact-int copy of an int or int subclass instance. */
PyAPI_FUNC(PyObject *) _PyLong_Copy(PyLongObject *src);
/* An int from digits (least significant first), normalised; the result
   may be a cached small int. */
PyAPI_FUNC(PyObject *) _PyLong_FromDigits(int negative, Py_ssize_t digit_count,
                                          const digit *digits);
PyAPI_FUNC(PyObject *) _PyLong_FromSTwoDigits(stwodigits x);
PyAPI_FUNC(PyObject *) _PyLong_Lshift(PyObject *a, int64_t shift);
PyAPI_FUNC(PyObject *) _PyLong_Rshift(PyObject *a, int64_t shift);
PyAPI_FUNC(PyObject *) _PyLong_GCD(PyObject *a, PyObject *b);
/* (q, r) with q = round(a / b) (ties to even) and r = a - q*b */
PyAPI_FUNC(PyObject *) _PyLong_DivmodNear(PyObject *a, PyObject *b);
/* Mantissa in [0.5, 1) and binary exponent, for huge ints (math.log). */
PyAPI_FUNC(double) _PyLong_Frexp(PyLongObject *a, int64_t *e);
/* Hash of an int (also used for bool). */
PyAPI_FUNC(Py_hash_t) _PyLong_Hash(PyObject *v);

/* int(x) for any object: int/str/bytes/bytearray/buffers, __int__,
   __index__.  The logic of the int() constructor with one argument. */
PyAPI_FUNC(PyObject *) _PyLong_FromNumber(PyObject *x);

/* Two's-complement bytes <-> int, as int.from_bytes / int.to_bytes.
   _PyLong_AsByteArray returns 0, or -1 with OverflowError set (when
   with_exceptions is nonzero; otherwise -1 silently). */
PyAPI_FUNC(PyObject *) _PyLong_FromByteArray(const unsigned char *bytes, size_t n,
                                             int little_endian, int is_signed);
PyAPI_FUNC(int) _PyLong_AsByteArray(PyLongObject *v, unsigned char *bytes, size_t n,
                                    int little_endian, int is_signed, int with_exceptions);

/* The magnitude of v as ASCII digits in base 2, 8, 10 or 16 (lower case,
   no sign, no prefix) in a NUL-terminated PyMem_Malloc'ed buffer the
   caller frees; *len gets the digit count.  Base 10 applies the
   max-str-digits limit.  (_PyLong_Format, with sign and 0b/0o/0x prefix,
   is in longobject.h.) */
PyAPI_FUNC(char *) _PyLong_ToDigitBuffer(PyObject *v, int base, Py_ssize_t *len);

/* ---- int <-> str length limit (sys.set_int_max_str_digits) ---------------- */
#define _PY_LONG_DEFAULT_MAX_STR_DIGITS 4300
#define _PY_LONG_MAX_STR_DIGITS_THRESHOLD 640

/* 0 = unlimited */
PyAPI_DATA(Py_ssize_t) _Py_int_max_str_digits;
PyAPI_FUNC(Py_ssize_t) _PyLong_GetMaxStrDigits(void);
/* ValueError "maxdigits must be 0 or larger than 640" and -1 for a bad
   value; 0 on success */
PyAPI_FUNC(int) _PyLong_SetMaxStrDigits(Py_ssize_t maxdigits);

/* ---- Misc --------------------------------------------------------------- */

/* tp_as_number of int: bool and subclasses reuse the slots. */
PyAPI_DATA(PyNumberMethods) _PyLong_AsNumber;

/* Converters for PyArg_Parse "O&" */
PyAPI_FUNC(int) _PyLong_UnsignedShort_Converter(PyObject *, void *);
PyAPI_FUNC(int) _PyLong_UnsignedInt_Converter(PyObject *, void *);
PyAPI_FUNC(int) _PyLong_UnsignedLong_Converter(PyObject *, void *);
PyAPI_FUNC(int) _PyLong_Size_t_Converter(PyObject *, void *);

/* The int a compact-int fast path computed: the cached object for a small
   value, with no call; otherwise a new int.  Values from adding,
   subtracting or multiplying two compact ints always fit. */
static inline PyObject *
_PyLong_FromCompactResult(int64_t value)
{
    if (_PyLong_IsSmallIntValue((Py_ssize_t)value)) {
        return _PyLong_FromSmallInt((int)value);
    }
    return _PyLong_FromSTwoDigits((stwodigits)value);
}

#endif /* !Py_INTERNAL_LONG_H */
