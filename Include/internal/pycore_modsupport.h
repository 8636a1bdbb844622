/* Internal argument-parsing and value-building helpers (Python/getargs.c,
   Python/modsupport.c). */
#ifndef Py_INTERNAL_MODSUPPORT_H
#define Py_INTERNAL_MODSUPPORT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include <stdarg.h>

/* Raise "fname() displayname must be expected, not <type of arg>", the
   message of a failed argument conversion, e.g.
   _PyArg_BadArgument("chr", "argument", "int", arg)
   -> "chr() argument must be int, not str". */
PyAPI_FUNC(void) _PyArg_BadArgument(const char *fname, const char *displayname,
                                    const char *expected, PyObject *arg);

/* A converter for "O&": None leaves *(Py_ssize_t *)ptr untouched,
   anything else goes through __index__. */
PyAPI_FUNC(int) _Py_convert_optional_to_ssize_t(PyObject *obj, void *ptr);

/* Build an argument array from a Py_BuildValue format (each top-level
   item becomes one argument).  Returns small_stack when it is big enough,
   otherwise a PyMem_Malloc'd array; *p_nargs receives the count.  The
   items are new references. */
PyAPI_FUNC(PyObject **) _Py_VaBuildStack(PyObject **small_stack, Py_ssize_t small_stack_len,
                                         const char *format, va_list va, Py_ssize_t *p_nargs);

/* _PyArg_ParseStackAndKeywords for tp_new/tp_init style arguments (a
   tuple and a dict, which may be NULL).  Same conventions and messages:
   out[] receives borrowed references, NULL for missing optional ones;
   returns 1 on success, 0 with TypeError set. */
PyAPI_FUNC(int) _PyArg_ParseTupleAndKeywordsStack(PyObject *args, PyObject *kwargs,
                                                  const char *funcname, const char *const *kwlist,
                                                  Py_ssize_t minpos, Py_ssize_t maxpos,
                                                  Py_ssize_t minkw, PyObject **out);

/* Check that a vectorcall argument array has between min and max
   positional arguments (inline fast path of _PyArg_CheckPositional). */
static inline int
_PyArg_CheckPositionalInline(const char *funcname, Py_ssize_t nargs, Py_ssize_t min,
                             Py_ssize_t max)
{
    if (min <= nargs && nargs <= max) {
        return 1;
    }
    return _PyArg_CheckPositional(funcname, nargs, min, max);
}

#endif /* !Py_INTERNAL_MODSUPPORT_H */
