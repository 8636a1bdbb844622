/* Internal interface of the str type: fast paths for the interpreter,
   start-up hooks and the helpers shared by the files that implement str
   (Objects/unicodeobject.c, unicode_writer.c, unicode_methods.c,
   unicode_format.c, unicodectype.c and Python/codecs.c). */
#ifndef Py_INTERNAL_UNICODEOBJECT_H
#define Py_INTERNAL_UNICODEOBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* ---- Used by the interpreter and other parts of the runtime ----------- */

/* Start-up.  InitStaticStrings fills the 1-character cache and creates the
   interned-string table (both also happen lazily, so strings work even
   before it runs; the empty string is static).  InitTypes readies str and
   its two iterator types. */
PyAPI_FUNC(int) _PyUnicode_InitStaticStrings(PyInterpreterState *interp);
PyAPI_FUNC(int) _PyUnicode_InitTypes(PyInterpreterState *interp);
/* Shutdown: forgets the interned-string table (the strings stay immortal). */
PyAPI_FUNC(void) _PyUnicode_Fini(PyInterpreterState *interp);

/* _PyUnicode_Equal(a, b), equality of two str without type checks, is
   declared in cpython/unicodeobject.h.  The From* constructors below make
   canonical strings; _PyUnicode_FromASCII trusts its input to be ASCII. */
PyAPI_FUNC(PyObject *) _PyUnicode_FromASCII(const char *s, Py_ssize_t size);
PyAPI_FUNC(PyObject *) _PyUnicode_FromUCS1(const Py_UCS1 *s, Py_ssize_t size);
PyAPI_FUNC(PyObject *) _PyUnicode_FromUCS2(const Py_UCS2 *s, Py_ssize_t size);
PyAPI_FUNC(PyObject *) _PyUnicode_FromUCS4(const Py_UCS4 *s, Py_ssize_t size);
/* Length of the longest prefix of str that is a valid identifier. */
PyAPI_FUNC(Py_ssize_t) _PyUnicode_ScanIdentifier(PyObject *str);
/* Concatenation that reuses `left` when the caller owns its only reference
   (used for `s += t`); steals `left`, returns a new reference or NULL. */
PyAPI_FUNC(PyObject *) _PyUnicode_ConcatInPlace(PyObject *left, PyObject *right);
/* The immortal empty string and 1-character Latin-1 strings (borrowed). */
PyAPI_FUNC(PyObject *) _PyUnicode_GetEmpty(void);
PyAPI_FUNC(PyObject *) _PyUnicode_FromLatin1Char(Py_UCS1 ch);
/* Interning an object the caller owns; returns it or the canonical copy
   (new reference either way), consuming the argument. */
PyAPI_FUNC(PyObject *) _PyUnicode_InternTake(PyObject *s);
/* Interned (hence immortal) string for an identifier; callers cache it. */
PyAPI_FUNC(PyObject *) _PyUnicode_InternImmortal(const char *s);
PyAPI_FUNC(Py_ssize_t) _PyUnicode_InternedSize(void);
/* repr() of a str (the tp_repr slot), and ascii() escaping of a repr. */
PyAPI_FUNC(PyObject *) _PyUnicode_Repr(PyObject *str);
PyAPI_FUNC(PyObject *) _PyUnicode_ToASCIIRepr(PyObject *repr);
/* Decode a string literal's escapes (parser): \n, \xNN, \uNNNN,
   \UNNNNNNNN, \N{name}, octal.  *first_invalid_escape is set to the first
   unknown escape (for the SyntaxWarning) or NULL. */
PyAPI_FUNC(PyObject *) _PyUnicode_DecodeUnicodeEscapeInternal(const char *s, Py_ssize_t size,
                                                              const char *errors,
                                                              Py_ssize_t *consumed,
                                                              const char **first_invalid_escape);

/* ---- Shared between the files that implement str ---------------------- */

/* A fresh (refcount 1, unshared) string may be narrowed in kind: returns a
   canonical string, consuming `u`. */
PyAPI_FUNC(PyObject *) _PyUnicode_Canonical(PyObject *u);
PyAPI_FUNC(Py_UCS4) _PyUnicode_FindMaxChar(PyObject *u, Py_ssize_t start, Py_ssize_t end);
PyAPI_FUNC(void) _PyUnicode_FastCopyCharacters(PyObject *to, Py_ssize_t to_start,
                                               PyObject *from, Py_ssize_t from_start,
                                               Py_ssize_t how_many);
/* A copy of `u`'s code points widened to `kind` (PyMem_Malloc'd), or NULL
   with MemoryError. */
PyAPI_FUNC(void *) _PyUnicode_AsKind(PyObject *u, int kind);
PyAPI_FUNC(PyObject *) _PyUnicode_FromKindAndDataCanonical(int kind, const void *data,
                                                           Py_ssize_t size);
/* Index of sub in str[start:end] (slice-style indices), -1 when absent, -2
   with an exception set; CountSub returns -1 on error. */
PyAPI_FUNC(Py_ssize_t) _PyUnicode_FindSub(PyObject *str, PyObject *sub, Py_ssize_t start,
                                          Py_ssize_t end, int direction);
PyAPI_FUNC(Py_ssize_t) _PyUnicode_CountSub(PyObject *str, PyObject *sub, Py_ssize_t start,
                                           Py_ssize_t end, Py_ssize_t maxcount);
/* Argument helpers with CPython's messages. */
PyAPI_FUNC(int) _PyUnicode_ParseStartEnd(PyObject *const *args, Py_ssize_t nargs,
                                         const char *fname, PyObject **sub,
                                         Py_ssize_t *start, Py_ssize_t *end);
PyAPI_FUNC(PyObject *) _PyUnicode_Repeat(PyObject *str, Py_ssize_t count);

/* Full case mappings (1 to 3 code points); return the count written. */
PyAPI_FUNC(int) _PyUnicode_ToLowerFull(Py_UCS4 ch, Py_UCS4 *res);
PyAPI_FUNC(int) _PyUnicode_ToUpperFull(Py_UCS4 ch, Py_UCS4 *res);
PyAPI_FUNC(int) _PyUnicode_ToTitleFull(Py_UCS4 ch, Py_UCS4 *res);
PyAPI_FUNC(int) _PyUnicode_ToFoldedFull(Py_UCS4 ch, Py_UCS4 *res);
PyAPI_FUNC(Py_UCS4) _PyUnicode_ToTitlecase(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsTitlecase(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsCased(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsCaseIgnorable(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_ToDigit(Py_UCS4 ch);

/* Methods implemented outside unicodeobject.c, for its method table. */
PyAPI_FUNC(PyObject *) _PyUnicode_FormatMethod(PyObject *self, PyObject *args, PyObject *kwargs);
PyAPI_FUNC(PyObject *) _PyUnicode_FormatMapMethod(PyObject *self, PyObject *mapping);
PyAPI_FUNC(PyObject *) _PyUnicode_DunderFormat(PyObject *self, PyObject *spec);
PyAPI_FUNC(PyObject *) _PyUnicode_EncodeMethod(PyObject *self, PyObject *const *args,
                                               Py_ssize_t nargs, PyObject *kwnames);
PyAPI_DATA(PyMethodDef) _PyUnicode_MethodTable[];
PyAPI_FUNC(PyObject *) _PyUnicode_SizeOf(PyObject *self, PyObject *ignored);
PyAPI_FUNC(PyObject *) _PyUnicode_GetNewArgs(PyObject *self, PyObject *ignored);
/* iter() of an ASCII str (PyUnicodeIter_Type serves the others). */
PyAPI_DATA(PyTypeObject) _PyUnicodeASCIIIter_Type;

/* printf-style formatting (str % args in unicode_format.c, bytes % args in
   bytesobject.c) reads widths and precisions by the same rules and must
   report the same errors, so both parsers use these two steps. */

/* Take the argument consumed by a '*' width or precision: it must be an
   int that fits a Py_ssize_t (a width) or a C int (a precision).  Returns
   0, or -1 with an exception set. */
static inline int
_PyFormat_StarArg(PyObject *v, Py_ssize_t *out, int is_width)
{
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "* wants int");
        return -1;
    }
    Py_ssize_t value = is_width ? PyLong_AsSsize_t(v) : (Py_ssize_t)PyLong_AsInt(v);
    int failed = value == -1 && PyErr_Occurred();
    if (!failed) {
        *out = value;
    }
    return failed ? -1 : 0;
}

/* Append one decimal digit to a width or precision being read; a negative
   *n means no digit has been seen yet.  Returns 0, or -1 with ValueError
   set if the value would overflow. */
static inline int
_PyFormat_AddDigit(Py_ssize_t *n, int digit, int is_width)
{
    if (*n < 0) {
        *n = 0;
    }
    /* a precision must fit a C int, a width a Py_ssize_t */
    Py_ssize_t limit = is_width ? PY_SSIZE_T_MAX : INT_MAX;
    if (*n > (limit - digit) / 10) {
        PyErr_SetString(PyExc_ValueError, is_width ? "width too big" : "precision too big");
        return -1;
    }
    *n = *n * 10 + digit;
    return 0;
}

#endif /* !Py_INTERNAL_UNICODEOBJECT_H */
