/* Method and slot wrappers shared by bytes and bytearray, instantiated once
   per type.

   Both types keep their contents in one contiguous char buffer, so most of
   their str-like methods are one-line calls into bytes_methods.c that differ
   only in how the buffer is reached and which constructor builds results.
   Writing those one-liners in both files let them drift apart silently, so
   each type instead defines, before including this file:

     STRINGLIB(name)  the method name prefix (bytes_name, bytearray_name)
     STRINGLIB_STR    the type's AS_STRING macro
     SELF_DATA        "buffer, length" of the object named self
     MAKE             the (const char *, Py_ssize_t) constructor for results

   This file undefines STRINGLIB only; the other three stay in use by the
   including file.  Methods whose behaviour really differs between the two
   types (replace's argument-error prefix, fromhex's exact-type check, the
   case transforms writing into a fresh object) stay in the type's own file. */

#if !defined(STRINGLIB) || !defined(STRINGLIB_STR) || !defined(SELF_DATA) || !defined(MAKE)
#  error "define STRINGLIB, STRINGLIB_STR, SELF_DATA and MAKE before including bytes_delegates.h"
#endif

#define STRINGLIB_DELEGATE_PREDICATE(NAME)                               \
    static PyObject *                                                    \
    STRINGLIB(NAME)(PyObject *self, PyObject *Py_UNUSED(ignored))        \
    {                                                                    \
        return _Py_bytes_##NAME(SELF_DATA);                              \
    }
STRINGLIB_DELEGATE_PREDICATE(isspace)
STRINGLIB_DELEGATE_PREDICATE(isalpha)
STRINGLIB_DELEGATE_PREDICATE(isalnum)
STRINGLIB_DELEGATE_PREDICATE(isascii)
STRINGLIB_DELEGATE_PREDICATE(isdigit)
STRINGLIB_DELEGATE_PREDICATE(islower)
STRINGLIB_DELEGATE_PREDICATE(isupper)
STRINGLIB_DELEGATE_PREDICATE(istitle)
#undef STRINGLIB_DELEGATE_PREDICATE

static PyObject *
STRINGLIB(find)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_find(SELF_DATA, args, nargs, "find", 1, 0);
}

static PyObject *
STRINGLIB(rfind)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_find(SELF_DATA, args, nargs, "rfind", -1, 0);
}

static PyObject *
STRINGLIB(index)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_find(SELF_DATA, args, nargs, "index", 1, 1);
}

static PyObject *
STRINGLIB(rindex)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_find(SELF_DATA, args, nargs, "rindex", -1, 1);
}

static PyObject *
STRINGLIB(count)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_count(SELF_DATA, args, nargs);
}

static PyObject *
STRINGLIB(startswith)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_tailmatch(SELF_DATA, args, nargs, "startswith", -1);
}

static PyObject *
STRINGLIB(endswith)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_tailmatch(SELF_DATA, args, nargs, "endswith", 1);
}

static PyObject *
STRINGLIB(split)(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return _Py_bytes_split(MAKE, self, SELF_DATA, args, nargs, kwnames, 0);
}

static PyObject *
STRINGLIB(rsplit)(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return _Py_bytes_split(MAKE, self, SELF_DATA, args, nargs, kwnames, 1);
}

static PyObject *
STRINGLIB(strip)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_strip(MAKE, self, SELF_DATA, args, nargs, "strip", 2);
}

static PyObject *
STRINGLIB(lstrip)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_strip(MAKE, self, SELF_DATA, args, nargs, "lstrip", 0);
}

static PyObject *
STRINGLIB(rstrip)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_strip(MAKE, self, SELF_DATA, args, nargs, "rstrip", 1);
}

static PyObject *
STRINGLIB(partition)(PyObject *self, PyObject *sep)
{
    return _Py_bytes_partition(MAKE, self, SELF_DATA, sep, 0);
}

static PyObject *
STRINGLIB(rpartition)(PyObject *self, PyObject *sep)
{
    return _Py_bytes_partition(MAKE, self, SELF_DATA, sep, 1);
}

static PyObject *
STRINGLIB(splitlines)(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return _Py_bytes_splitlines(MAKE, self, SELF_DATA, args, nargs, kwnames);
}

static PyObject *
STRINGLIB(expandtabs)(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return _Py_bytes_expandtabs(MAKE, SELF_DATA, args, nargs, kwnames);
}

static PyObject *
STRINGLIB(center)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_pad(MAKE, self, SELF_DATA, args, nargs, "center", 2);
}

static PyObject *
STRINGLIB(ljust)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_pad(MAKE, self, SELF_DATA, args, nargs, "ljust", 0);
}

static PyObject *
STRINGLIB(rjust)(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_pad(MAKE, self, SELF_DATA, args, nargs, "rjust", 1);
}

static PyObject *
STRINGLIB(zfill)(PyObject *self, PyObject *arg)
{
    return _Py_bytes_zfill(MAKE, self, SELF_DATA, arg);
}

static PyObject *
STRINGLIB(removeprefix)(PyObject *self, PyObject *arg)
{
    return _Py_bytes_affix(MAKE, self, SELF_DATA, arg, 0);
}

static PyObject *
STRINGLIB(removesuffix)(PyObject *self, PyObject *arg)
{
    return _Py_bytes_affix(MAKE, self, SELF_DATA, arg, 1);
}

static PyObject *
STRINGLIB(translate)(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return _Py_bytes_translate(MAKE, self, SELF_DATA, args, nargs, kwnames);
}

static PyObject *
STRINGLIB(maketrans)(PyObject *Py_UNUSED(null), PyObject *const *args, Py_ssize_t nargs)
{
    return _Py_bytes_maketrans(args, nargs);
}

static PyObject *
STRINGLIB(join)(PyObject *self, PyObject *iterable)
{
    return _Py_bytes_join(MAKE, SELF_DATA, iterable);
}

static PyObject *
STRINGLIB(hex)(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return _Py_bytes_hex(SELF_DATA, args, nargs, kwnames);
}

static PyObject *
STRINGLIB(decode)(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return _Py_bytes_decode(SELF_DATA, args, nargs, kwnames);
}

/* The _tp_iteritem slot: the byte at index as an int. */
static int
STRINGLIB(iteritem)(PyObject *self, Py_ssize_t index, PyObject **item, Py_ssize_t *next_index)
{
    if (index < 0 || index >= Py_SIZE(self)) {
        *item = NULL;
        return 0;
    }
    *item = PyLong_FromLong((unsigned char)STRINGLIB_STR(self)[index]);
    if (*item == NULL) {
        return -1;
    }
    *next_index = index + 1;
    return 1;
}

#undef STRINGLIB
