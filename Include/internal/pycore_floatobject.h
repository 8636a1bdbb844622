/* Internal float API (Objects/floatobject.c, Python/pystrtod.c). */
#ifndef Py_INTERNAL_FLOATOBJECT_H
#define Py_INTERNAL_FLOATOBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* ---- Python/pystrtod.c ------------------------------------------------------ */

/* C's strtod in the "C" locale (accepts everything C does, hex included;
   sets errno to ERANGE on overflow and underflow). */
PyAPI_FUNC(double) _PyOS_ascii_strtod(const char *s, char **end);

/* Longest prefix of s[0:len] in Python's float syntax ([sign] digits
   [. digits] [e [sign] digits], or inf/infinity/nan in any case; no
   underscores or whitespace): its length, 0 if none, -1 with MemoryError.
   The value goes to *out (overflow gives an infinity). */
PyAPI_FUNC(Py_ssize_t) _PyOS_ScanFloat(const char *s, Py_ssize_t len, double *out);

/* Copy s[0:len] to out (room for len + 1) without its underscores, which
   must each sit between two digits (PEP 515).  Returns the new length or
   -1 for a misplaced underscore. */
PyAPI_FUNC(Py_ssize_t) _PyOS_StripUnderscores(const char *s, Py_ssize_t len, char *out);

/* All of s[0:len] (ASCII, no surrounding whitespace) as a float literal
   with PEP 515 underscores.  0 and *out on success; -1 if the text is not
   a float (no exception); -2 with MemoryError. */
PyAPI_FUNC(int) _PyOS_ParseFloatLiteral(const char *s, Py_ssize_t len, double *out);

/* ---- Objects/floatobject.c ----------------------------------------------------- */

/* float(x) for any object: the float() constructor's one-argument logic. */
PyAPI_FUNC(PyObject *) _PyFloat_FromNumber(PyObject *x);

/* Map non-ASCII decimal digits and whitespace of a str to ASCII ('?' for
   anything else non-ASCII), as int() and float() read numbers.  Returns a
   NUL-terminated PyMem buffer, *len its length; NULL with MemoryError. */
PyAPI_FUNC(char *) _PyUnicode_NumberToASCII(PyObject *str, Py_ssize_t *len);

/* float ** float and friends, for complex's mixed-mode arithmetic. */
PyAPI_FUNC(PyObject *) _PyFloat_Pow(PyObject *v, PyObject *w);

/* Free the cached float objects (a full gc.collect() does). */
extern void _PyFloat_ClearFreeList(void);

/* ---- The interpreter's float fast paths ------------------------------------ */

#include "pycore_stackref.h"

/* The float result of an operation on two exact floats, consuming both
   stack refs.  An operand whose only reference is the one on the stack is
   dead after the operation, so the result is written into it instead of
   allocating a new float (and freeing the old one right after). */
static inline PyObject *
_PyFloat_ResultFromOperands(_PyStackRef left, _PyStackRef right, double value)
{
    PyObject *l = PyStackRef_AsPyObjectBorrow(left);
    PyObject *r = PyStackRef_AsPyObjectBorrow(right);
    if (!PyStackRef_IsBorrowed(left) && Py_REFCNT(l) == 1) {
        ((PyFloatObject *)l)->ob_fval = value;
        PyStackRef_CLOSE(right);
        return l;
    }
    if (!PyStackRef_IsBorrowed(right) && Py_REFCNT(r) == 1) {
        ((PyFloatObject *)r)->ob_fval = value;
        PyStackRef_CLOSE(left);
        return r;
    }
    PyStackRef_CLOSE(left);
    PyStackRef_CLOSE(right);
    return PyFloat_FromDouble(value);
}

#endif /* !Py_INTERNAL_FLOATOBJECT_H */
