/* Argument parsing for C functions: PyArg_ParseTuple and friends (format
   strings), PyArg_UnpackTuple, and the helpers METH_FASTCALL functions
   use (_PyArg_CheckPositional, _PyArg_ParseStackAndKeywords, ...).

   A format string is a list of units, one per argument ("i", "s#", "O!",
   "(ii)" for a nested sequence), optionally with "|" (the rest are
   optional), "$" (the rest are keyword-only), then ":name" (the function
   name for messages) or ";message" (a message replacing the default).

   Error messages follow upstream's wording exactly, since tests and user
   code match on them. */
#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_modsupport.h"
#include "pycore_tuple.h"

#define FLAG_COMPAT 1
#define MAX_LEVELS 32
#define IS_ALPHA(c) ((((c) | 0x20) >= 'a') && (((c) | 0x20) <= 'z'))

/* Outcome of converting one argument. */
#define CONV_OK 0
#define CONV_ERROR (-1) /* an exception is set */
#define CONV_MSG 1      /* msgbuf holds "must be X, not Y" */

typedef struct {
    const char *fname;  /* after ':', or NULL */
    const char *custom; /* after ';', or NULL */
    int min;            /* units before '|' */
    int max;            /* all top-level units */
    int maxpos;         /* units before '$' */
} fmtinfo;

/* Where the failing value sits: argument number and nested item indexes. */
typedef struct {
    int levels[MAX_LEVELS];
    int nlevels;
} errpos;

/* ---- Format scanning ---------------------------------------------------------------- */

static int
scan_format(const char *format, fmtinfo *fi)
{
    int depth = 0;
    fi->fname = NULL;
    fi->custom = NULL;
    fi->min = -1;
    fi->max = 0;
    fi->maxpos = -1;
    for (;;) {
        int c = (unsigned char)*format++;
        if (c == '\0') {
            break;
        }
        if (c == '(') {
            if (depth == 0) {
                fi->max++;
            }
            depth++;
        }
        else if (c == ')') {
            if (depth == 0) {
                PyErr_SetString(PyExc_SystemError, "excess ')' in getargs format");
                return -1;
            }
            depth--;
        }
        else if (depth > 0) {
            continue;
        }
        else if (c == ':') {
            fi->fname = format;
            break;
        }
        else if (c == ';') {
            fi->custom = format;
            break;
        }
        else if (c == '|') {
            if (fi->min != -1) {
                PyErr_SetString(PyExc_SystemError, "Invalid format string (| specified twice)");
                return -1;
            }
            fi->min = fi->max;
        }
        else if (c == '$') {
            fi->maxpos = fi->max;
        }
        else if (IS_ALPHA(c)) {
            fi->max++;
            if (c == 'e' && (*format == 's' || *format == 't')) {
                format++;
            }
        }
    }
    if (depth != 0) {
        PyErr_SetString(PyExc_SystemError, "missing ')' in getargs format");
        return -1;
    }
    if (fi->maxpos == -1) {
        fi->maxpos = fi->max;
    }
    if (fi->min == -1) {
        fi->min = fi->max;
    }
    return 0;
}

/* The function name of a ':name' suffix, up to the end of the format. */
static void
format_fname(const fmtinfo *fi, char *buf, size_t size)
{
    if (fi->fname == NULL) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, size, "%.200s", fi->fname);
}

/* ---- Error reporting ------------------------------------------------------------------------ */

static void
seterror(Py_ssize_t iarg, const char *msg, const errpos *pos, const char *fname,
         const char *custom)
{
    char buf[1024];
    size_t len = 0;
    if (PyErr_Occurred()) {
        return;
    }
    if (custom != NULL) {
        PyErr_SetString(PyExc_TypeError, custom);
        return;
    }
    if (fname != NULL) {
        len += (size_t)snprintf(buf, sizeof(buf), "%.200s() ", fname);
    }
    if (iarg != 0) {
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "argument %zd", iarg);
        for (int i = 0; pos != NULL && i < pos->nlevels && len < sizeof(buf) - 32; i++) {
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, ", item %d",
                                         pos->levels[i]);
        }
    }
    else {
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "argument");
    }
    snprintf(buf + len, sizeof(buf) - len, " %.256s", msg);
    PyErr_SetString(PyExc_TypeError, buf);
}

static int
converterr(const char *expected, PyObject *arg, char *msgbuf, size_t bufsize)
{
    if (expected[0] == '(') {
        snprintf(msgbuf, bufsize, "%.100s", expected);
    }
    else {
        snprintf(msgbuf, bufsize, "must be %.50s, not %.50s", expected,
                      arg == Py_None ? "None" : Py_TYPE(arg)->tp_name);
    }
    return CONV_MSG;
}

/* ---- Converting single values ------------------------------------------------------------ */

/* The C long value of an int or __index__ object. */
static int
get_long(PyObject *arg, long *out)
{
    PyObject *v = PyLong_Check(arg) ? Py_NewRef(arg) : PyNumber_Index(arg);
    if (v == NULL) {
        return -1;
    }
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
get_long_in_range(PyObject *arg, long min, long max, const char *what, long *out)
{
    if (get_long(arg, out) < 0) {
        return -1;
    }
    if (*out < min) {
        PyErr_Format(PyExc_OverflowError, "%s is less than minimum", what);
        return -1;
    }
    if (*out > max) {
        PyErr_Format(PyExc_OverflowError, "%s is greater than maximum", what);
        return -1;
    }
    return 0;
}

/* The value of an int modulo 2**64, for the unchecked unsigned units. */
static int
get_ulonglong_mask(PyObject *arg, unsigned long long *out)
{
    PyObject *v = PyLong_Check(arg) ? Py_NewRef(arg) : PyNumber_Index(arg);
    if (v == NULL) {
        return -1;
    }
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) {
        Py_DECREF(v);
        return -1;
    }
    if (overflow == 0) {
        *out = (unsigned long long)x;
        Py_DECREF(v);
        return 0;
    }
    PyObject *mask = PyLong_FromUnsignedLongLong(~0ULL);
    PyObject *masked = mask == NULL ? NULL : PyNumber_And(v, mask);
    Py_XDECREF(mask);
    Py_DECREF(v);
    if (masked == NULL) {
        return -1;
    }
    *out = PyLong_AsUnsignedLongLong(masked);
    Py_DECREF(masked);
    return (*out == (unsigned long long)-1 && PyErr_Occurred()) ? -1 : 0;
}

static int
convert_integer(int c, PyObject *arg, va_list *p_va)
{
    long ival;
    unsigned long long uval;
    switch (c) {
    case 'b':
        if (get_long_in_range(arg, 0, UCHAR_MAX, "unsigned byte integer", &ival) < 0) {
            return CONV_ERROR;
        }
        *va_arg(*p_va, unsigned char *) = (unsigned char)ival;
        return CONV_OK;
    case 'h':
        if (get_long_in_range(arg, SHRT_MIN, SHRT_MAX, "signed short integer", &ival) < 0) {
            return CONV_ERROR;
        }
        *va_arg(*p_va, short *) = (short)ival;
        return CONV_OK;
    case 'i':
        if (get_long_in_range(arg, INT_MIN, INT_MAX, "signed integer", &ival) < 0) {
            return CONV_ERROR;
        }
        *va_arg(*p_va, int *) = (int)ival;
        return CONV_OK;
    case 'l':
        if (get_long(arg, &ival) < 0) {
            return CONV_ERROR;
        }
        *va_arg(*p_va, long *) = ival;
        return CONV_OK;
    case 'B':
    case 'H':
    case 'I':
        if (get_ulonglong_mask(arg, &uval) < 0) {
            return CONV_ERROR;
        }
        if (c == 'B') {
            *va_arg(*p_va, unsigned char *) = (unsigned char)uval;
        }
        else if (c == 'H') {
            *va_arg(*p_va, unsigned short *) = (unsigned short)uval;
        }
        else {
            *va_arg(*p_va, unsigned int *) = (unsigned int)uval;
        }
        return CONV_OK;
    default:
        return CONV_ERROR;
    }
}

static int
convert_wide_integer(int c, PyObject *arg, va_list *p_va, char *msgbuf, size_t bufsize)
{
    unsigned long long uval;
    PyObject *v;
    switch (c) {
    case 'n':
        v = _PyNumber_Index(arg);
        if (v == NULL) {
            return CONV_ERROR;
        }
        {
            Py_ssize_t n = PyLong_AsSsize_t(v);
            Py_DECREF(v);
            if (n == -1 && PyErr_Occurred()) {
                return CONV_ERROR;
            }
            *va_arg(*p_va, Py_ssize_t *) = n;
        }
        return CONV_OK;
    case 'L':
        v = PyLong_Check(arg) ? Py_NewRef(arg) : PyNumber_Index(arg);
        if (v == NULL) {
            return CONV_ERROR;
        }
        {
            long long x = PyLong_AsLongLong(v);
            Py_DECREF(v);
            if (x == -1 && PyErr_Occurred()) {
                return CONV_ERROR;
            }
            *va_arg(*p_va, long long *) = x;
        }
        return CONV_OK;
    case 'k':
    case 'K':
        if (!PyLong_Check(arg) && !_PyIndex_Check(arg)) {
            (void)va_arg(*p_va, void *);
            return converterr("int", arg, msgbuf, bufsize);
        }
        if (get_ulonglong_mask(arg, &uval) < 0) {
            return CONV_ERROR;
        }
        if (c == 'k') {
            *va_arg(*p_va, unsigned long *) = (unsigned long)uval;
        }
        else {
            *va_arg(*p_va, unsigned long long *) = uval;
        }
        return CONV_OK;
    default:
        return convert_integer(c, arg, p_va);
    }
}

static int
convert_float(int c, PyObject *arg, va_list *p_va)
{
    if (c == 'D') {
        Py_complex cval = PyComplex_AsCComplex(arg);
        if (cval.real == -1.0 && PyErr_Occurred()) {
            return CONV_ERROR;
        }
        *va_arg(*p_va, Py_complex *) = cval;
        return CONV_OK;
    }
    double dval = PyFloat_AsDouble(arg);
    if (dval == -1.0 && PyErr_Occurred()) {
        return CONV_ERROR;
    }
    if (c == 'f') {
        *va_arg(*p_va, float *) = (float)dval;
    }
    else {
        *va_arg(*p_va, double *) = dval;
    }
    return CONV_OK;
}

static int
convert_char(int c, PyObject *arg, va_list *p_va, char *msgbuf, size_t bufsize)
{
    if (c == 'c') {
        char *p = va_arg(*p_va, char *);
        if (PyBytes_Check(arg) && PyBytes_GET_SIZE(arg) == 1) {
            *p = PyBytes_AS_STRING(arg)[0];
        }
        else if (PyByteArray_Check(arg) && PyByteArray_GET_SIZE(arg) == 1) {
            *p = PyByteArray_AS_STRING(arg)[0];
        }
        else {
            return converterr("a byte string of length 1", arg, msgbuf, bufsize);
        }
        return CONV_OK;
    }
    int *p = va_arg(*p_va, int *);
    if (!PyUnicode_Check(arg) || PyUnicode_GET_LENGTH(arg) != 1) {
        return converterr("a unicode character", arg, msgbuf, bufsize);
    }
    *p = (int)PyUnicode_READ_CHAR(arg, 0);
    return CONV_OK;
}

static int
bytes_like_error(PyObject *arg)
{
    PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                 Py_TYPE(arg)->tp_name);
    return CONV_ERROR;
}

/* s, s#, z, z#: text as UTF-8.  The # forms also take read-only bytes. */
static int
convert_text(int c, PyObject *arg, const char **p_format, va_list *p_va, char *msgbuf,
             size_t bufsize)
{
    const char **p = va_arg(*p_va, const char **);
    int with_size = **p_format == '#';
    Py_ssize_t *psize = NULL;
    if (with_size) {
        psize = va_arg(*p_va, Py_ssize_t *);
        (*p_format)++;
    }
    if (c == 'z' && arg == Py_None) {
        *p = NULL;
        if (psize != NULL) {
            *psize = 0;
        }
        return CONV_OK;
    }
    if (PyUnicode_Check(arg)) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(arg, &len);
        if (s == NULL) {
            return CONV_ERROR;
        }
        if (!with_size && strlen(s) != (size_t)len) {
            PyErr_SetString(PyExc_ValueError, "embedded null character");
            return CONV_ERROR;
        }
        *p = s;
        if (psize != NULL) {
            *psize = len;
        }
        return CONV_OK;
    }
    if (with_size) {
        if (PyBytes_Check(arg)) {
            *p = PyBytes_AS_STRING(arg);
            *psize = PyBytes_GET_SIZE(arg);
            return CONV_OK;
        }
        if (PyByteArray_Check(arg)) {
            return converterr("read-only bytes-like object", arg, msgbuf, bufsize);
        }
        return bytes_like_error(arg);
    }
    return converterr(c == 'z' ? "str or None" : "str", arg, msgbuf, bufsize);
}

/* y, y#: bytes. */
static int
convert_bytes(PyObject *arg, const char **p_format, va_list *p_va, char *msgbuf, size_t bufsize)
{
    const char **p = va_arg(*p_va, const char **);
    Py_ssize_t *psize = NULL;
    if (**p_format == '#') {
        psize = va_arg(*p_va, Py_ssize_t *);
        (*p_format)++;
    }
    if (PyBytes_Check(arg)) {
        if (psize == NULL && strlen(PyBytes_AS_STRING(arg)) != (size_t)PyBytes_GET_SIZE(arg)) {
            PyErr_SetString(PyExc_ValueError, "embedded null byte");
            return CONV_ERROR;
        }
        *p = PyBytes_AS_STRING(arg);
        if (psize != NULL) {
            *psize = PyBytes_GET_SIZE(arg);
        }
        return CONV_OK;
    }
    if (PyByteArray_Check(arg)) {
        return converterr("read-only bytes-like object", arg, msgbuf, bufsize);
    }
    return bytes_like_error(arg);
}

/* ---- Undoing "O&" conversions when a later argument fails -----------------

   A converter that returns Py_CLEANUP_SUPPORTED (PyUnicode_FSConverter,
   say) has made something the caller would only release on success; if a
   later argument fails, it is called once more with NULL to release it.
   Each top-level parse records its converters in its own list; converters
   can parse arguments themselves, so the lists nest (per thread). */

#define MAX_PENDING_CLEANUPS 32

typedef int (*cleanup_converter)(PyObject *, void *);

typedef struct pending_cleanups {
    struct pending_cleanups *outer;
    int count;
    struct {
        cleanup_converter convert;
        void *addr;
    } items[MAX_PENDING_CLEANUPS];
} pending_cleanups;

static __thread pending_cleanups *current_cleanups;

static void
cleanups_begin(pending_cleanups *list)
{
    list->outer = current_cleanups;
    list->count = 0;
    current_cleanups = list;
}

/* Ends the parse that `list` belongs to; `ok` is its result, returned. */
static int
cleanups_end(pending_cleanups *list, int ok)
{
    current_cleanups = list->outer;
    for (int i = list->count - 1; !ok && i >= 0; i--) {
        list->items[i].convert(NULL, list->items[i].addr);
    }
    return ok;
}

static void
cleanups_note(cleanup_converter convert, void *addr)
{
    pending_cleanups *list = current_cleanups;
    if (list != NULL && list->count < MAX_PENDING_CLEANUPS) {
        list->items[list->count].convert = convert;
        list->items[list->count].addr = addr;
        list->count++;
    }
}

static int
convert_object(PyObject *arg, const char **p_format, va_list *p_va, char *msgbuf, size_t bufsize)
{
    if (**p_format == '!') {
        (*p_format)++;
        PyTypeObject *type = va_arg(*p_va, PyTypeObject *);
        PyObject **p = va_arg(*p_va, PyObject **);
        if (!PyObject_TypeCheck(arg, type)) {
            return converterr(type->tp_name, arg, msgbuf, bufsize);
        }
        *p = arg;
        return CONV_OK;
    }
    if (**p_format == '&') {
        (*p_format)++;
        typedef int (*converter)(PyObject *, void *);
        converter convert = va_arg(*p_va, converter);
        void *addr = va_arg(*p_va, void *);
        int res = convert(arg, addr);
        if (!res) {
            if (!PyErr_Occurred()) {
                return converterr("(unspecified)", arg, msgbuf, bufsize);
            }
            return CONV_ERROR;
        }
        if (res == Py_CLEANUP_SUPPORTED) {
            cleanups_note(convert, addr);
        }
        return CONV_OK;
    }
    *va_arg(*p_va, PyObject **) = arg;
    return CONV_OK;
}

static int
convert_typed_object(int c, PyObject *arg, va_list *p_va, char *msgbuf, size_t bufsize)
{
    PyObject **p = va_arg(*p_va, PyObject **);
    int ok;
    const char *expected;
    switch (c) {
    case 'S':
        ok = PyBytes_Check(arg);
        expected = "bytes";
        break;
    case 'Y':
        ok = PyByteArray_Check(arg);
        expected = "bytearray";
        break;
    default:
        ok = PyUnicode_Check(arg);
        expected = "str";
        break;
    }
    if (!ok) {
        return converterr(expected, arg, msgbuf, bufsize);
    }
    *p = arg;
    return CONV_OK;
}

static int
release_buffer(PyObject *unused, void *view)
{
    (void)unused;
    PyBuffer_Release((Py_buffer *)view);
    return 0;
}

/* The buffer units: y* (any bytes-like object), s* (that or a str, as
   UTF-8), z* (those or None), w* (a writable bytes-like object).  The
   caller releases the Py_buffer; a later failing argument releases it
   here. */
static int
convert_buffer(int c, PyObject *arg, va_list *p_va, char *msgbuf, size_t bufsize)
{
    Py_buffer *view = va_arg(*p_va, Py_buffer *);
    if (c == 'z' && arg == Py_None) {
        PyBuffer_FillInfo(view, NULL, NULL, 0, 1, 0);
        return CONV_OK;
    }
    if ((c == 's' || c == 'z') && PyUnicode_Check(arg)) {
        Py_ssize_t size;
        const char *utf8 = PyUnicode_AsUTF8AndSize(arg, &size);
        if (utf8 == NULL) {
            return CONV_ERROR;
        }
        PyBuffer_FillInfo(view, arg, (void *)utf8, size, 1, 0);
    }
    else if (c != 'w') {
        /* Its own TypeError ("a bytes-like object is required") or
           BufferError (not contiguous) is the message. */
        if (PyObject_GetBuffer(arg, view, PyBUF_SIMPLE) < 0) {
            return CONV_ERROR;
        }
    }
    else if (PyObject_GetBuffer(arg, view, PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        return converterr("read-write bytes-like object", arg, msgbuf, bufsize);
    }
    cleanups_note(release_buffer, view);
    return CONV_OK;
}

static int
convertsimple(PyObject *arg, const char **p_format, va_list *p_va, char *msgbuf, size_t bufsize)
{
    int c = (unsigned char)*(*p_format)++;
    switch (c) {
    case 'b':
    case 'B':
    case 'h':
    case 'H':
    case 'i':
    case 'I':
    case 'l':
    case 'k':
    case 'L':
    case 'K':
    case 'n':
        return convert_wide_integer(c, arg, p_va, msgbuf, bufsize);
    case 'f':
    case 'd':
    case 'D':
        return convert_float(c, arg, p_va);
    case 'c':
    case 'C':
        return convert_char(c, arg, p_va, msgbuf, bufsize);
    case 'p': {
        int *p = va_arg(*p_va, int *);
        int val = PyObject_IsTrue(arg);
        if (val < 0) {
            return CONV_ERROR;
        }
        *p = val;
        return CONV_OK;
    }
    case 's':
    case 'z':
    case 'y':
    case 'w':
        if (**p_format == '*') {
            (*p_format)++;
            return convert_buffer(c, arg, p_va, msgbuf, bufsize);
        }
        if (c == 'w') {
            break;  /* w alone (a raw writable pointer) is gone since 3.x */
        }
        return c == 'y' ? convert_bytes(arg, p_format, p_va, msgbuf, bufsize)
                        : convert_text(c, arg, p_format, p_va, msgbuf, bufsize);
    case 'S':
    case 'Y':
    case 'U':
        return convert_typed_object(c, arg, p_va, msgbuf, bufsize);
    case 'O':
        return convert_object(arg, p_format, p_va, msgbuf, bufsize);
    default:
        break;
    }
    /* Encodings (es, et) are not supported yet; neither are unknown
       characters. */
    PyErr_Format(PyExc_SystemError, "unsupported getargs format unit '%c'", c);
    return CONV_ERROR;
}

static int convertitem(PyObject *arg, const char **p_format, va_list *p_va, int flags,
                       errpos *pos, char *msgbuf, size_t bufsize);

/* How many items a "(...)" format stands for: its top-level units, where
   a nested "(...)" counts as one and "es"/"et" are one unit. */
static int
count_nested_units(const char *format)
{
    int depth = 0, units = 0;
    for (const char *p = format; *p != '\0' && *p != ':' && *p != ';'; p++) {
        int c = (unsigned char)*p;
        if (c == ')' && depth == 0) {
            break;
        }
        if (c == '(' || c == ')') {
            units += c == '(' && depth == 0;
            depth += c == '(' ? 1 : -1;
            continue;
        }
        if (depth > 0 || !IS_ALPHA(c)) {
            continue;
        }
        units++;
        if (c == 'e' && (p[1] == 's' || p[1] == 't')) {
            p++; /* the two letters name one unit */
        }
    }
    return units;
}

/* "(ii)": the argument is a sequence with exactly that many items. */
static int
converttuple(PyObject *arg, const char **p_format, va_list *p_va, int flags, errpos *pos,
             char *msgbuf, size_t bufsize)
{
    const char *format = *p_format;
    int n = count_nested_units(format);
    if (!PySequence_Check(arg) || PyBytes_Check(arg)) {
        snprintf(msgbuf, bufsize, "must be %d-item sequence, not %.50s", n,
                      arg == Py_None ? "None" : Py_TYPE(arg)->tp_name);
        return CONV_MSG;
    }
    Py_ssize_t len = PySequence_Size(arg);
    if (len < 0) {
        return CONV_ERROR;
    }
    if (len != n) {
        snprintf(msgbuf, bufsize, "must be sequence of length %d, not %zd", n, len);
        return CONV_MSG;
    }
    if (pos->nlevels >= MAX_LEVELS) {
        PyErr_SetString(PyExc_SystemError, "getargs format nested too deeply");
        return CONV_ERROR;
    }
    for (int i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(arg, i);
        if (item == NULL) {
            return CONV_ERROR;
        }
        pos->levels[pos->nlevels++] = i;
        /* Pointers into the item stay valid: the sequence keeps it. */
        int r = convertitem(item, &format, p_va, flags, pos, msgbuf, bufsize);
        Py_DECREF(item);
        if (r != CONV_OK) {
            return r;
        }
        pos->nlevels--;
    }
    *p_format = format + 1; /* past ')' */
    return CONV_OK;
}

static int
convertitem(PyObject *arg, const char **p_format, va_list *p_va, int flags, errpos *pos,
            char *msgbuf, size_t bufsize)
{
    if (**p_format == '(') {
        (*p_format)++;
        return converttuple(arg, p_format, p_va, flags, pos, msgbuf, bufsize);
    }
    return convertsimple(arg, p_format, p_va, msgbuf, bufsize);
}

/* Advance past one unit of the format and its va_list pointers, for an
   optional argument that was not given. */
static int
skipitem(const char **p_format, va_list *p_va)
{
    int c = (unsigned char)*(*p_format)++;
    switch (c) {
    case 'b': case 'B': case 'h': case 'H': case 'i': case 'I': case 'l':
    case 'k': case 'L': case 'K': case 'n': case 'f': case 'd': case 'D':
    case 'c': case 'C': case 'p': case 'S': case 'Y': case 'U':
        (void)va_arg(*p_va, void *);
        return 0;
    case 'e':
        (void)va_arg(*p_va, const char *);
        if (**p_format == 's' || **p_format == 't') {
            (*p_format)++;
        }
        _Py_FALLTHROUGH;
    case 's': case 'z': case 'y': case 'w':
        (void)va_arg(*p_va, void *);
        if (**p_format == '#') {
            (void)va_arg(*p_va, Py_ssize_t *);
            (*p_format)++;
        }
        else if (**p_format == '*') {
            (*p_format)++;
        }
        return 0;
    case 'O':
        if (**p_format == '!' || **p_format == '&') {
            (*p_format)++;
            (void)va_arg(*p_va, void *);
        }
        (void)va_arg(*p_va, void *);
        return 0;
    case '(':
        while (**p_format != ')') {
            if (skipitem(p_format, p_va) < 0) {
                return -1;
            }
        }
        (*p_format)++;
        return 0;
    default:
        PyErr_Format(PyExc_SystemError, "bad format char '%c' in getargs format", c);
        return -1;
    }
}

/* Move to the next unit, past '|' and '$' markers. */
static void
skip_markers(const char **p_format)
{
    while (**p_format == '|' || **p_format == '$') {
        (*p_format)++;
    }
}

/* ---- PyArg_ParseTuple ------------------------------------------------------------------- */

static int
count_error(const fmtinfo *fi, Py_ssize_t len, const char *fname)
{
    if (fi->custom != NULL) {
        PyErr_SetString(PyExc_TypeError, fi->custom);
        return 0;
    }
    int n = len < fi->min ? fi->min : fi->max;
    PyErr_Format(PyExc_TypeError, "%.150s%s takes %s %d argument%s (%zd given)",
                 fname[0] ? fname : "function", fname[0] ? "()" : "",
                 fi->min == fi->max ? "exactly" : (len < fi->min ? "at least" : "at most"), n,
                 n == 1 ? "" : "s", len);
    return 0;
}

static int
vgetargs1_body(PyObject *args, const char *format, va_list *p_va, int flags)
{
    fmtinfo fi;
    char fname[256], msgbuf[256];
    errpos pos = {.nlevels = 0};
    if (scan_format(format, &fi) < 0) {
        return 0;
    }
    format_fname(&fi, fname, sizeof(fname));
    const char *fn = fname[0] ? fname : NULL;

    if (flags & FLAG_COMPAT) {
        /* PyArg_Parse: `args` is the single value itself. */
        if (fi.max == 0) {
            if (args == NULL) {
                return 1;
            }
            PyErr_Format(PyExc_TypeError, "%.200s%s takes no arguments",
                         fn ? fn : "function", fn ? "()" : "");
            return 0;
        }
        if (fi.max != 1 || fi.min != 1) {
            PyErr_SetString(PyExc_SystemError, "old style getargs format uses new features");
            return 0;
        }
        int r = convertitem(args, &format, p_va, flags, &pos, msgbuf, sizeof(msgbuf));
        if (r == CONV_MSG) {
            seterror(0, msgbuf, &pos, fn, fi.custom);
        }
        return r == CONV_OK;
    }
    if (!PyTuple_Check(args)) {
        PyErr_SetString(PyExc_SystemError, "new style getargs format but argument is not a tuple");
        return 0;
    }
    Py_ssize_t len = PyTuple_GET_SIZE(args);
    if (len < fi.min || len > fi.max) {
        return count_error(&fi, len, fname);
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        skip_markers(&format);
        int r = convertitem(PyTuple_GET_ITEM(args, i), &format, p_va, flags, &pos, msgbuf,
                            sizeof(msgbuf));
        if (r != CONV_OK) {
            if (r == CONV_MSG) {
                seterror(i + 1, msgbuf, &pos, fn, fi.custom);
            }
            return 0;
        }
    }
    return 1;
}

static int
vgetargs1(PyObject *args, const char *format, va_list *p_va, int flags)
{
    pending_cleanups list;
    cleanups_begin(&list);
    return cleanups_end(&list, vgetargs1_body(args, format, p_va, flags));
}

int
PyArg_Parse(PyObject *args, const char *format, ...)
{
    va_list va;
    va_start(va, format);
    int retval = vgetargs1(args, format, &va, FLAG_COMPAT);
    va_end(va);
    return retval;
}

int
PyArg_ParseTuple(PyObject *args, const char *format, ...)
{
    va_list va;
    va_start(va, format);
    int retval = vgetargs1(args, format, &va, 0);
    va_end(va);
    return retval;
}

int
PyArg_VaParse(PyObject *args, const char *format, va_list va)
{
    va_list lva;
    va_copy(lva, va);
    int retval = vgetargs1(args, format, &lva, 0);
    va_end(lva);
    return retval;
}

/* ---- Keyword arguments ----------------------------------------------------------------------

   Both PyArg_ParseTupleAndKeywords and _PyArg_ParseStackAndKeywords first
   map the given arguments onto the parameter list, then convert.  The
   two differ only in the wording for an unknown keyword. */

typedef struct {
    const char *fname;            /* NULL: messages say "function" */
    const char *const *names;     /* maxargs names; "" for positional-only */
    int posonly;
    int minpos;
    int maxpos;
    int maxargs;
    int reqlimit;                 /* params in [maxpos, reqlimit) are required */
    int getargs_style;            /* "'x' is an invalid keyword argument for f()" */
    int has_optional;             /* getargs style: the format has a '|' */
} kwparser;

typedef struct {
    PyObject *const *keys;        /* the keyword names (str, supposedly) */
    PyObject *const *values;
    Py_ssize_t n;
} kwsource;

static PyObject *
find_keyword(const kwsource *kw, const char *name)
{
    for (Py_ssize_t i = 0; i < kw->n; i++) {
        PyObject *key = kw->keys[i];
        if (PyUnicode_Check(key) && PyUnicode_EqualToUTF8(key, name)) {
            return kw->values[i];
        }
    }
    return NULL;
}

static const char *
fname_or(const kwparser *p, const char *dflt)
{
    return p->fname != NULL ? p->fname : dflt;
}

static int
check_counts(const kwparser *p, Py_ssize_t nargs, Py_ssize_t nkw)
{
    const char *fn = fname_or(p, "function"), *paren = p->fname ? "()" : "";
    if (nargs + nkw > p->maxargs) {
        PyErr_Format(PyExc_TypeError, "%.200s%s takes at most %d %sargument%s (%zd given)", fn,
                     paren, p->maxargs, nargs == 0 ? "keyword " : "",
                     p->maxargs == 1 ? "" : "s", nargs + nkw);
        return -1;
    }
    if (nargs > p->maxpos) {
        if (p->maxpos == 0) {
            PyErr_Format(PyExc_TypeError, "%.200s%s takes no positional arguments", fn, paren);
        }
        else {
            int at_most = p->getargs_style ? p->has_optional : p->minpos < p->maxpos;
            PyErr_Format(PyExc_TypeError, "%.200s%s takes %s %d positional argument%s (%zd given)",
                         fn, paren, at_most ? "at most" : "exactly", p->maxpos,
                         p->maxpos == 1 ? "" : "s", nargs);
        }
        return -1;
    }
    int minposonly = Py_MIN(p->posonly, p->minpos);
    if (nargs < minposonly) {
        int at_least = !p->getargs_style && minposonly < p->maxpos;
        PyErr_Format(PyExc_TypeError, "%.200s%s takes %s %d positional argument%s (%zd given)", fn,
                     paren, at_least ? "at least" : "exactly", minposonly,
                     minposonly == 1 ? "" : "s", nargs);
        return -1;
    }
    return 0;
}

static int
is_param_name(const kwparser *p, PyObject *key)
{
    for (int i = p->posonly; i < p->maxargs; i++) {
        if (PyUnicode_EqualToUTF8(key, p->names[i])) {
            return 1;
        }
    }
    return 0;
}

static void
unexpected_keyword_error(const kwparser *p, const kwsource *kw, Py_ssize_t nargs)
{
    for (int i = p->posonly; i < nargs; i++) {
        if (find_keyword(kw, p->names[i]) != NULL) {
            PyErr_Format(PyExc_TypeError, "argument for %.200s%s given by name ('%s') and position (%d)",
                         fname_or(p, "function"), p->fname ? "()" : "", p->names[i], i + 1);
            return;
        }
    }
    for (Py_ssize_t i = 0; i < kw->n; i++) {
        PyObject *key = kw->keys[i];
        if (!PyUnicode_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "keywords must be strings");
            return;
        }
        if (is_param_name(p, key)) {
            continue;
        }
        if (p->getargs_style && p->fname != NULL) {
            PyErr_Format(PyExc_TypeError, "'%U' is an invalid keyword argument for %.200s()", key,
                         p->fname);
        }
        else {
            PyErr_Format(PyExc_TypeError, "%.200s%s got an unexpected keyword argument '%U'",
                         fname_or(p, "this function"), p->fname ? "()" : "", key);
        }
        return;
    }
    PyErr_SetString(PyExc_TypeError, "invalid keyword arguments");
}

/* Fill out[0..maxargs-1] with borrowed references (NULL when missing). */
static int
unpack_keywords(const kwparser *p, PyObject *const *args, Py_ssize_t nargs, const kwsource *kw,
                PyObject **out)
{
    if (check_counts(p, nargs, kw->n) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        out[i] = args[i];
    }
    Py_ssize_t used = 0;
    for (int i = (int)Py_MAX(nargs, (Py_ssize_t)p->posonly); i < p->maxargs; i++) {
        PyObject *value = kw->n ? find_keyword(kw, p->names[i]) : NULL;
        out[i] = value;
        if (value != NULL) {
            used++;
        }
        else if (i < p->minpos || (p->maxpos <= i && i < p->reqlimit)) {
            PyErr_Format(PyExc_TypeError, "%.200s%s missing required argument '%s' (pos %d)",
                         fname_or(p, "function"), p->fname ? "()" : "", p->names[i], i + 1);
            return -1;
        }
    }
    for (int i = (int)nargs; i < p->posonly; i++) {
        out[i] = NULL;
    }
    if (used < kw->n) {
        unexpected_keyword_error(p, kw, nargs);
        return -1;
    }
    return 0;
}

static int
count_posonly(const char *const *names, int n)
{
    int posonly = 0;
    while (posonly < n && names[posonly][0] == '\0') {
        posonly++;
    }
    return posonly;
}

/* A kwsource over a dict, using a small array when it fits. */
typedef struct {
    kwsource src;
    PyObject *small[16];
    PyObject **buf;
} dictkw;

static int
dictkw_init(dictkw *d, PyObject *kwargs)
{
    Py_ssize_t n = kwargs == NULL ? 0 : PyDict_GET_SIZE(kwargs);
    d->buf = d->small;
    if (2 * n > (Py_ssize_t)Py_ARRAY_LENGTH(d->small)) {
        d->buf = PyMem_New(PyObject *, 2 * n);
        if (d->buf == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    while (n > 0 && PyDict_Next(kwargs, &pos, &key, &value)) {
        d->buf[i] = key;
        d->buf[n + i] = value;
        i++;
    }
    d->src.keys = d->buf;
    d->src.values = d->buf + n;
    d->src.n = n;
    return 0;
}

static void
dictkw_fini(dictkw *d)
{
    if (d->buf != d->small) {
        PyMem_Free(d->buf);
    }
}

static int
count_kwlist(char *const *kwlist)
{
    int n = 0;
    while (kwlist[n] != NULL) {
        n++;
    }
    return n;
}

static int
vgetargskeywords_body(PyObject *args, PyObject *kwargs, const char *format, char *const *kwlist,
                      va_list *p_va)
{
    fmtinfo fi;
    char fname[256], msgbuf[256];
    if (args == NULL || !PyTuple_Check(args) || (kwargs != NULL && !PyDict_Check(kwargs)) ||
        format == NULL || kwlist == NULL) {
        PyErr_BadInternalCall();
        return 0;
    }
    if (scan_format(format, &fi) < 0) {
        return 0;
    }
    int nnames = count_kwlist(kwlist);
    if (nnames != fi.max) {
        PyErr_Format(PyExc_SystemError,
                     "number of items in format (%d) does not match keyword list (%d)", fi.max,
                     nnames);
        return 0;
    }
    format_fname(&fi, fname, sizeof(fname));
    kwparser p = {
        .fname = fname[0] ? fname : NULL,
        .names = (const char *const *)kwlist,
        .posonly = count_posonly((const char *const *)kwlist, nnames),
        .minpos = Py_MIN(fi.min, fi.maxpos),
        .maxpos = fi.maxpos,
        .maxargs = fi.max,
        .getargs_style = 1,
        .has_optional = fi.min < fi.max,
    };
    int minkw = fi.min > fi.maxpos ? fi.min - fi.maxpos : 0;
    p.reqlimit = minkw ? p.maxpos + minkw : p.minpos;

    dictkw kw;
    if (dictkw_init(&kw, kwargs) < 0) {
        return 0;
    }
    PyObject *small_out[16];
    PyObject **out = small_out;
    if (fi.max > (int)Py_ARRAY_LENGTH(small_out)) {
        out = PyMem_New(PyObject *, fi.max);
        if (out == NULL) {
            dictkw_fini(&kw);
            PyErr_NoMemory();
            return 0;
        }
    }
    int ok = 0;
    if (fi.custom != NULL && (PyTuple_GET_SIZE(args) < p.minpos ||
                              PyTuple_GET_SIZE(args) + kw.src.n > fi.max)) {
        PyErr_SetString(PyExc_TypeError, fi.custom);
        goto done;
    }
    if (unpack_keywords(&p, _PyTuple_ITEMS(args), PyTuple_GET_SIZE(args), &kw.src, out) < 0) {
        goto done;
    }
    for (int i = 0; i < fi.max; i++) {
        skip_markers(&format);
        if (out[i] == NULL) {
            if (skipitem(&format, p_va) < 0) {
                goto done;
            }
            continue;
        }
        errpos pos = {.nlevels = 0};
        int r = convertitem(out[i], &format, p_va, 0, &pos, msgbuf, sizeof(msgbuf));
        if (r != CONV_OK) {
            if (r == CONV_MSG) {
                seterror(i + 1, msgbuf, &pos, p.fname, fi.custom);
            }
            goto done;
        }
    }
    ok = 1;
done:
    if (out != small_out) {
        PyMem_Free(out);
    }
    dictkw_fini(&kw);
    return ok;
}

static int
vgetargskeywords(PyObject *args, PyObject *kwargs, const char *format, char *const *kwlist,
                 va_list *p_va)
{
    pending_cleanups list;
    cleanups_begin(&list);
    return cleanups_end(&list, vgetargskeywords_body(args, kwargs, format, kwlist, p_va));
}

int
PyArg_ParseTupleAndKeywords(PyObject *args, PyObject *kwargs, const char *format,
                            char *const *kwlist, ...)
{
    va_list va;
    va_start(va, kwlist);
    int retval = vgetargskeywords(args, kwargs, format, kwlist, &va);
    va_end(va);
    return retval;
}

int
PyArg_VaParseTupleAndKeywords(PyObject *args, PyObject *kwargs, const char *format,
                              char *const *kwlist, va_list va)
{
    va_list lva;
    va_copy(lva, va);
    int retval = vgetargskeywords(args, kwargs, format, kwlist, &lva);
    va_end(lva);
    return retval;
}

int
_PyArg_ParseStackAndKeywords(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                             const char *funcname, const char *const *kwlist, Py_ssize_t minpos,
                             Py_ssize_t maxpos, Py_ssize_t minkw, PyObject **out)
{
    int maxargs = 0;
    while (kwlist[maxargs] != NULL) {
        maxargs++;
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nkw == 0 && minkw == 0 && minpos <= nargs && nargs <= maxpos) {
        /* The common case: positional arguments only. */
        for (Py_ssize_t i = 0; i < nargs; i++) {
            out[i] = args[i];
        }
        for (int i = (int)nargs; i < maxargs; i++) {
            out[i] = NULL;
        }
        return 1;
    }
    kwparser p = {
        .fname = funcname,
        .names = kwlist,
        .posonly = count_posonly(kwlist, maxargs),
        .minpos = (int)minpos,
        .maxpos = (int)maxpos,
        .maxargs = maxargs,
        .reqlimit = minkw ? (int)(maxpos + minkw) : (int)minpos,
        .getargs_style = 0,
    };
    kwsource kw = {
        .keys = nkw ? _PyTuple_ITEMS(kwnames) : NULL,
        .values = args + nargs,
        .n = nkw,
    };
    return unpack_keywords(&p, args, nargs, &kw, out) == 0;
}

int
_PyArg_ParseTupleAndKeywordsStack(PyObject *args, PyObject *kwargs, const char *funcname,
                                  const char *const *kwlist, Py_ssize_t minpos,
                                  Py_ssize_t maxpos, Py_ssize_t minkw, PyObject **out)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if ((kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0)) {
        return _PyArg_ParseStackAndKeywords(_PyTuple_ITEMS(args), nargs, NULL, funcname, kwlist,
                                            minpos, maxpos, minkw, out);
    }
    int maxargs = 0;
    while (kwlist[maxargs] != NULL) {
        maxargs++;
    }
    dictkw kw;
    if (dictkw_init(&kw, kwargs) < 0) {
        return 0;
    }
    kwparser p = {
        .fname = funcname,
        .names = kwlist,
        .posonly = count_posonly(kwlist, maxargs),
        .minpos = (int)minpos,
        .maxpos = (int)maxpos,
        .maxargs = maxargs,
        .reqlimit = minkw ? (int)(maxpos + minkw) : (int)minpos,
        .getargs_style = 0,
    };
    int ok = unpack_keywords(&p, _PyTuple_ITEMS(args), nargs, &kw.src, out) == 0;
    dictkw_fini(&kw);
    return ok;
}

/* 1 when every key of the keyword dict is a str, else 0 with TypeError. */
int
PyArg_ValidateKeywordArguments(PyObject *kwargs)
{
    if (!PyDict_Check(kwargs)) {
        PyErr_BadInternalCall();
        return 0;
    }
    PyObject *key, *unused;
    int all_str = 1;
    for (Py_ssize_t pos = 0; all_str && PyDict_Next(kwargs, &pos, &key, &unused);) {
        all_str = PyUnicode_Check(key);
    }
    if (!all_str) {
        PyErr_SetString(PyExc_TypeError, "keywords must be strings");
    }
    return all_str;
}

/* ---- Unpacking without conversion ---------------------------------------------------------- */

int
_PyArg_CheckPositional(const char *name, Py_ssize_t nargs, Py_ssize_t min, Py_ssize_t max)
{
    if (min <= nargs && nargs <= max) {
        return 1;
    }
    /* Too few names the lower bound, too many the upper one. */
    int too_few = nargs < min;
    Py_ssize_t bound = too_few ? min : max;
    const char *qualifier = min == max ? "" : (too_few ? "at least " : "at most ");
    const char *plural = bound == 1 ? "" : "s";
    if (name == NULL) {
        PyErr_Format(PyExc_TypeError, "unpacked tuple should have %s%zd element%s, but has %zd",
                     qualifier, bound, plural, nargs);
    }
    else {
        PyErr_Format(PyExc_TypeError, "%.200s expected %s%zd argument%s, got %zd", name,
                     qualifier, bound, plural, nargs);
    }
    return 0;
}

/* Store args[0..nargs) through the PyObject ** pointers that follow. */
static int
unpack_stack(PyObject *const *args, Py_ssize_t nargs, const char *name, Py_ssize_t min,
             Py_ssize_t max, va_list vargs)
{
    int ok = _PyArg_CheckPositional(name, nargs, min, max);
    for (Py_ssize_t k = 0; ok && k < nargs; k++) {
        *va_arg(vargs, PyObject **) = args[k];
    }
    return ok;
}

int
PyArg_UnpackTuple(PyObject *args, const char *name, Py_ssize_t min, Py_ssize_t max, ...)
{
    if (!PyTuple_Check(args)) {
        PyErr_SetString(PyExc_SystemError, "PyArg_UnpackTuple() argument list is not a tuple");
        return 0;
    }
    va_list vargs;
    va_start(vargs, max);
    int retval = unpack_stack(_PyTuple_ITEMS(args), PyTuple_GET_SIZE(args), name, min, max, vargs);
    va_end(vargs);
    return retval;
}

int
_PyArg_UnpackStack(PyObject *const *args, Py_ssize_t nargs, const char *name, Py_ssize_t min,
                   Py_ssize_t max, ...)
{
    va_list vargs;
    va_start(vargs, max);
    int retval = unpack_stack(args, nargs, name, min, max, vargs);
    va_end(vargs);
    return retval;
}

/* The three "takes no ... arguments" checks differ only in how they
   find the count; the error is the same. */
static int
reject_arguments(const char *funcname, Py_ssize_t count, const char *kind)
{
    if (count == 0) {
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "%.200s() takes no %s arguments", funcname, kind);
    return 0;
}

int
_PyArg_NoKeywords(const char *funcname, PyObject *kwargs)
{
    if (kwargs == NULL) {
        return 1;
    }
    if (!PyDict_Check(kwargs)) {
        PyErr_BadInternalCall();
        return 0;
    }
    return reject_arguments(funcname, PyDict_GET_SIZE(kwargs), "keyword");
}

int
_PyArg_NoKwnames(const char *funcname, PyObject *kwnames)
{
    return reject_arguments(funcname, kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames), "keyword");
}

int
_PyArg_NoPositional(const char *funcname, PyObject *args)
{
    if (args == NULL) {
        return 1;
    }
    if (!PyTuple_Check(args)) {
        PyErr_BadInternalCall();
        return 0;
    }
    return reject_arguments(funcname, PyTuple_GET_SIZE(args), "positional");
}

void
_PyArg_BadArgument(const char *fname, const char *displayname, const char *expected,
                   PyObject *arg)
{
    PyErr_Format(PyExc_TypeError, "%.200s() %.200s must be %.50s, not %.50s", fname, displayname,
                 expected, arg == Py_None ? "None" : Py_TYPE(arg)->tp_name);
}

int
_Py_convert_optional_to_ssize_t(PyObject *obj, void *result)
{
    /* None leaves the caller's default in place. */
    if (Py_IsNone(obj)) {
        return 1;
    }
    if (_PyIndex_Check(obj)) {
        Py_ssize_t value = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
        if (value == -1 && PyErr_Occurred()) {
            return 0;
        }
        *(Py_ssize_t *)result = value;
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "argument should be integer or None, not '%.200s'",
                 Py_TYPE(obj)->tp_name);
    return 0;
}
