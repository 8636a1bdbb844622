/* The int object's memory layout.

   An int is a sign and a magnitude.  The magnitude is stored as an array
   of "digits" in base 2**30, least significant digit first; every digit
   is held in a uint32_t, so the two spare bits give room for carries in
   the inner loops and a product of two digits fits in a uint64_t.

       struct _longobject {
           PyObject_HEAD
           uintptr_t lv_tag;      digit count << 2 | sign code
           digit ob_digit[1];     the magnitude, ob_digit[0] lowest
       };

   The sign code (the low two bits of lv_tag) is 0 for positive numbers,
   1 for zero and 2 for negative numbers, so `1 - code` is the sign as
   +1, 0 or -1.  The digit count is the number of significant digits:
   the most significant digit of a nonzero int is never 0, and zero has a
   count of 0 (its storage still holds one digit, always 0).

   An int whose magnitude fits in one digit (|v| < 2**30) is "compact":
   its tag is below 2 << 2, and its value is (1 - code) * ob_digit[0].
   The interpreter's fast paths test that with one comparison (see
   Include/internal/pycore_long.h).

   bool's two instances use the same layout.  Ints from -5 to 256 are
   preallocated statically and are immortal. */
#ifndef Py_CPYTHON_LONGINTREPR_H
#define Py_CPYTHON_LONGINTREPR_H

typedef uint32_t digit;
typedef int32_t sdigit;
typedef uint64_t twodigits;
typedef int64_t stwodigits;

#define PyLong_SHIFT 30
#define PyLong_BASE ((digit)1 << PyLong_SHIFT)
#define PyLong_MASK ((digit)(PyLong_BASE - 1))
/* Decimal digits that fit in one int digit, and 10 to that power: the
   base used when converting to and from decimal text. */
#define _PyLong_DECIMAL_SHIFT 9
#define _PyLong_DECIMAL_BASE ((digit)1000000000)

/* lv_tag layout */
#define _PyLong_SIGN_MASK 3
#define _PyLong_SIGN_POSITIVE 0
#define _PyLong_SIGN_ZERO 1
#define _PyLong_SIGN_NEGATIVE 2
#define _PyLong_NON_SIZE_BITS 2

struct _longobject {
    PyObject_HEAD
    uintptr_t lv_tag;
    digit ob_digit[1];
};

/* Build a tag from a digit count and a sign of -1, 0 or +1. */
#define _PyLong_TAG(ndigits, sign) \
    (((uintptr_t)(ndigits) << _PyLong_NON_SIZE_BITS) | (uintptr_t)(1 - (sign)))

static inline Py_ssize_t
_PyLong_DigitCount(const PyLongObject *op)
{
    return (Py_ssize_t)(op->lv_tag >> _PyLong_NON_SIZE_BITS);
}

/* +1, 0 or -1 */
static inline int
_PyLong_SignOf(const PyLongObject *op)
{
    return 1 - (int)(op->lv_tag & _PyLong_SIGN_MASK);
}

/* The digit count with the int's sign: what older layouts kept in
   ob_size. */
static inline Py_ssize_t
_PyLong_SignedDigitCount(const PyLongObject *op)
{
    return _PyLong_SignOf(op) * _PyLong_DigitCount(op);
}

static inline void
_PyLong_SetSignAndDigitCount(PyLongObject *op, int sign, Py_ssize_t ndigits)
{
    op->lv_tag = _PyLong_TAG(ndigits, sign);
}

/* A new, uninitialised int with room for ndigits digits (>= 1 is
   allocated even for 0); its tag says positive with ndigits digits.
   Raises MemoryError/OverflowError and returns NULL on failure. */
PyAPI_FUNC(PyLongObject *) _PyLong_New(Py_ssize_t ndigits);

#endif /* !Py_CPYTHON_LONGINTREPR_H */
