/* Traceback objects and the printing of exceptions.

   A traceback is a linked list of (frame, instruction offset) entries,
   prepended to by PyTraceBack_Here as an exception leaves each frame.

   _PyErr_Display prints an exception exactly as CPython's default
   sys.excepthook does (that is, as the traceback module formats it,
   without colour): chained exceptions, one "File ..." entry per frame
   with its source line, carets under the failing expression, repeated
   frames collapsed, notes, exception-group boxes, the SyntaxError layout
   and "Did you mean" suggestions.  The caret rules need to know whether
   the failing expression is a binary operation, a call or a subscript;
   a small expression scanner below answers that without the compiler. */

#include "Python.h"
#include "pycore_import.h"
#include "pycore_code.h"
#include "pycore_exceptions.h"
#include "pycore_frame.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_traceback.h"
#include "pycore_unicodeobject.h"

/* ==== Traceback objects ====================================================== */

static PyObject *
tb_create(PyTracebackObject *next, PyFrameObject *frame, int lasti, int lineno)
{
    PyTracebackObject *tb = PyObject_GC_New(PyTracebackObject, &PyTraceBack_Type);
    if (tb == NULL) {
        return NULL;
    }
    tb->tb_next = (PyTracebackObject *)Py_XNewRef(next);
    tb->tb_frame = (PyFrameObject *)Py_XNewRef(frame);
    tb->tb_lasti = lasti;
    tb->tb_lineno = lineno;
    PyObject_GC_Track(tb);
    return (PyObject *)tb;
}

static PyObject *
tb_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"tb_next", "tb_frame", "tb_lasti", "tb_lineno", NULL};
    PyObject *next, *frame;
    int lasti, lineno;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOii:traceback", kwlist, &next, &frame,
                                     &lasti, &lineno)) {
        return NULL;
    }
    if (next == Py_None) {
        next = NULL;
    }
    else if (!PyTraceBack_Check(next)) {
        PyErr_Format(PyExc_TypeError, "expected traceback object or None, got '%s'",
                     Py_TYPE(next)->tp_name);
        return NULL;
    }
    if (!PyFrame_Check(frame)) {
        PyErr_Format(PyExc_TypeError, "traceback() argument 'tb_frame' must be frame, not %s",
                     Py_TYPE(frame)->tp_name);
        return NULL;
    }
    return tb_create((PyTracebackObject *)next, (PyFrameObject *)frame, lasti, lineno);
}

static void
tb_dealloc(PyObject *self)
{
    PyTracebackObject *tb = (PyTracebackObject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(tb->tb_next);
    Py_XDECREF(tb->tb_frame);
    PyObject_GC_Del(self);
}

static int
tb_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyTracebackObject *tb = (PyTracebackObject *)self;
    Py_VISIT(tb->tb_next);
    Py_VISIT(tb->tb_frame);
    return 0;
}

static int
tb_clear(PyObject *self)
{
    PyTracebackObject *tb = (PyTracebackObject *)self;
    Py_CLEAR(tb->tb_next);
    Py_CLEAR(tb->tb_frame);
    return 0;
}

static PyObject *
tb_get_next(PyObject *self, void *closure)
{
    PyObject *next = (PyObject *)((PyTracebackObject *)self)->tb_next;
    return Py_NewRef(next != NULL ? next : Py_None);
}

static int
tb_set_next(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "can't delete tb_next attribute");
        return -1;
    }
    if (value == Py_None) {
        value = NULL;
    }
    else if (!PyTraceBack_Check(value)) {
        PyErr_Format(PyExc_TypeError, "expected traceback object, got '%s'",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    for (PyTracebackObject *p = (PyTracebackObject *)value; p != NULL; p = p->tb_next) {
        if (p == (PyTracebackObject *)self) {
            PyErr_SetString(PyExc_ValueError, "traceback loop detected");
            return -1;
        }
    }
    Py_XSETREF(((PyTracebackObject *)self)->tb_next, (PyTracebackObject *)Py_XNewRef(value));
    return 0;
}

static int
tb_compute_lineno(PyTracebackObject *tb)
{
    if (tb->tb_lineno == -1 && tb->tb_frame != NULL) {
        PyCodeObject *code = PyFrame_GetCode(tb->tb_frame);
        int lineno = PyCode_Addr2Line(code, tb->tb_lasti);
        Py_DECREF(code);
        return lineno;
    }
    return tb->tb_lineno;
}

static PyObject *
tb_get_lineno(PyObject *self, void *closure)
{
    int lineno = tb_compute_lineno((PyTracebackObject *)self);
    if (lineno < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(lineno);
}

static PyObject *
tb_dir(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("[ssss]", "tb_frame", "tb_next", "tb_lasti", "tb_lineno");
}

static PyMethodDef tb_methods[] = {
    {"__dir__", tb_dir, METH_NOARGS, NULL},
    {NULL},
};

static PyMemberDef tb_memberlist[] = {
    {"tb_frame", _Py_T_OBJECT, offsetof(PyTracebackObject, tb_frame), Py_READONLY, NULL},
    {"tb_lasti", Py_T_INT, offsetof(PyTracebackObject, tb_lasti), Py_READONLY, NULL},
    {NULL},
};

static PyGetSetDef tb_getsetters[] = {
    {"tb_next", tb_get_next, tb_set_next, NULL, NULL},
    {"tb_lineno", tb_get_lineno, NULL, NULL, NULL},
    {NULL},
};

PyTypeObject PyTraceBack_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "traceback",
    .tp_basicsize = sizeof(PyTracebackObject),
    .tp_dealloc = tb_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "TracebackType(tb_next, tb_frame, tb_lasti, tb_lineno)\n--\n\n"
              "One entry of an exception's traceback.",
    .tp_traverse = tb_traverse,
    .tp_clear = tb_clear,
    .tp_methods = tb_methods,
    .tp_members = tb_memberlist,
    .tp_getset = tb_getsetters,
    .tp_new = tb_new,
};

PyObject *
_PyTraceBack_FromFrame(PyObject *tb_next, PyFrameObject *frame)
{
    if ((tb_next != NULL && !PyTraceBack_Check(tb_next)) || frame == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return tb_create((PyTracebackObject *)tb_next, frame, PyFrame_GetLasti(frame), -1);
}

int
PyTraceBack_Here(PyFrameObject *frame)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return 0;
    }
    PyObject *tb = PyException_GetTraceback(exc);
    PyObject *newtb = _PyTraceBack_FromFrame(tb, frame);
    Py_XDECREF(tb);
    if (newtb == NULL) {
        _PyErr_ChainExceptions1(exc);
        return -1;
    }
    (void)PyException_SetTraceback(exc, newtb);
    Py_DECREF(newtb);
    PyErr_SetRaisedException(exc);
    return 0;
}

void
_PyTraceBack_Add(const char *funcname, const char *filename, int lineno)
{
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *globals = PyDict_New();
    PyCodeObject *code = globals ? PyCode_NewEmpty(filename, funcname, lineno) : NULL;
    PyFrameObject *frame = code ? PyFrame_New(_PyThreadState_GET(), code, globals, NULL) : NULL;
    Py_XDECREF(code);
    Py_XDECREF(globals);
    if (frame == NULL) {
        _PyErr_ChainExceptions1(exc);
        return;
    }
    PyErr_SetRaisedException(exc);
    (void)PyTraceBack_Here(frame);
    Py_DECREF(frame);
}

/* ==== Text buffers ============================================================ */

/* Output is built as UTF-8 and written once; a failed allocation makes
   the buffer inert (and is reported as MemoryError at the end). */
typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
} sbuf;

static void
sb_putn(sbuf *b, const char *s, size_t n)
{
    if (b->failed) {
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *nb = PyMem_Realloc(b->buf, cap);
        if (nb == NULL) {
            b->failed = 1;
            return;
        }
        b->buf = nb;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

static void
sb_puts(sbuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

static void
sb_repeat(sbuf *b, char c, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        sb_putn(b, &c, 1);
    }
}

static void
sb_printf(sbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if ((size_t)n < sizeof(small)) {
        sb_putn(b, small, (size_t)n);
        return;
    }
    char *big = PyMem_Malloc((size_t)n + 1);
    if (big == NULL) {
        b->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_putn(b, big, (size_t)n);
    PyMem_Free(big);
}

static void
sb_put_ucs(sbuf *b, const Py_UCS4 *cp, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = cp[i];
        char out[4];
        size_t k;
        if (c < 0x80) {
            out[0] = (char)c;
            k = 1;
        }
        else if (c < 0x800) {
            out[0] = (char)(0xC0 | (c >> 6));
            out[1] = (char)(0x80 | (c & 0x3F));
            k = 2;
        }
        else if (c < 0x10000) {
            out[0] = (char)(0xE0 | (c >> 12));
            out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
            out[2] = (char)(0x80 | (c & 0x3F));
            k = 3;
        }
        else {
            out[0] = (char)(0xF0 | (c >> 18));
            out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
            out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
            out[3] = (char)(0x80 | (c & 0x3F));
            k = 4;
        }
        sb_putn(b, out, k);
    }
}

/* A str as UTF-8 (lone surrogates escaped rather than failing). */
static void
sb_put_str(sbuf *b, PyObject *s)
{
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    if (u != NULL) {
        sb_putn(b, u, (size_t)n);
        return;
    }
    PyErr_Clear();
    PyObject *bytes = PyUnicode_AsEncodedString(s, "utf-8", "backslashreplace");
    if (bytes == NULL) {
        PyErr_Clear();
        return;
    }
    sb_putn(b, PyBytes_AS_STRING(bytes), (size_t)PyBytes_GET_SIZE(bytes));
    Py_DECREF(bytes);
}

/* Code-point strings: source lines are handled as arrays of code points
   because caret positions count characters, not bytes. */
typedef struct {
    Py_UCS4 *cp;
    Py_ssize_t len;
} ustr;

/* Decode UTF-8, replacing each invalid byte with U+FFFD. */
static int
ustr_decode(ustr *u, const char *s, Py_ssize_t n)
{
    u->cp = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(n + 1));
    u->len = 0;
    if (u->cp == NULL) {
        return -1;
    }
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        unsigned char c = *p;
        Py_UCS4 ch;
        int k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        int ok = k > 0 && p + k <= end;
        for (int j = 1; ok && j < k; j++) {
            ok = (p[j] & 0xC0) == 0x80;
        }
        if (!ok) {
            u->cp[u->len++] = 0xFFFD;
            p++;
            continue;
        }
        ch = k == 1 ? c : k == 2 ? (Py_UCS4)(c & 0x1F) : k == 3 ? (Py_UCS4)(c & 0x0F) : (Py_UCS4)(c & 0x07);
        for (int j = 1; j < k; j++) {
            ch = (ch << 6) | (p[j] & 0x3F);
        }
        u->cp[u->len++] = ch;
        p += k;
    }
    return 0;
}

static void
ustr_free(ustr *u)
{
    PyMem_Free(u->cp);
    u->cp = NULL;
    u->len = 0;
}

/* str.isspace() */
static int
py_isspace(Py_UCS4 c)
{
    return (c >= 9 && c <= 13) || (c >= 28 && c <= 32) || c == 0x85 || c == 0xA0 ||
           c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Characters in the first `offset` bytes of a UTF-8 line. */
static Py_ssize_t
byte_to_char_offset(const char *s, Py_ssize_t n, Py_ssize_t offset)
{
    if (offset > n) {
        offset = n;
    }
    Py_ssize_t chars = 0;
    for (Py_ssize_t i = 0; i < offset; i++) {
        if ((((unsigned char)s[i]) & 0xC0) != 0x80) {
            chars++;
        }
    }
    return chars;
}

/* Columns a character takes on a terminal: East Asian wide and fullwidth
   characters take two. */
static int
is_wide_char(Py_UCS4 c)
{
    static const Py_UCS4 wide[][2] = {
        {0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0},
        {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F},
        {0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5},
        {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
        {0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728},
        {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
        {0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
        {0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
        {0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6F},
        {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF},
        {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E},
        {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F320}, {0x1F32D, 0x1F335},
        {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3},
        {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440},
        {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567},
        {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F},
        {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7},
        {0x1F6DC, 0x1F6DF}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB},
        {0x1F7F0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF},
        {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
    };
    if (c < 0x1100) {
        return 0;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(wide); i++) {
        if (c < wide[i][0]) {
            return 0;
        }
        if (c <= wide[i][1]) {
            return 1;
        }
    }
    return 0;
}

/* Display width of the first `offset` characters of a line. */
static Py_ssize_t
display_width(const ustr *line, Py_ssize_t offset)
{
    Py_ssize_t n = Py_MIN(offset, line->len), width = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        width += is_wide_char(line->cp[i]) ? 2 : 1;
    }
    return width + (offset > n ? offset - n : 0);
}

/* ==== Source lines ============================================================ */

/* Sources of pseudo-files ("<string>" for -c, "<stdin>"), by file name. */
static PyObject *registered_sources;

int
_PyTraceBack_RegisterSource(PyObject *filename, PyObject *source)
{
    if (registered_sources == NULL) {
        registered_sources = PyDict_New();
        if (registered_sources == NULL) {
            return -1;
        }
    }
    if (source == NULL || source == Py_None) {
        PyObject *old;
        if (PyDict_Pop(registered_sources, filename, &old) < 0) {
            return -1;
        }
        Py_XDECREF(old);
        return 0;
    }
    return PyDict_SetItem(registered_sources, filename, source);
}

typedef struct {
    PyObject *filename; /* the key (strong), NULL for an empty slot */
    char *data;
    Py_ssize_t nlines;
    Py_ssize_t *start; /* nlines entries */
    Py_ssize_t *end;   /* line i is data[start[i]:end[i]], without newline */
} srcfile;

#define SRC_CACHE_SIZE 8

typedef struct {
    srcfile files[SRC_CACHE_SIZE];
    int next_slot;
} srccache;

static void
srcfile_clear(srcfile *f)
{
    Py_CLEAR(f->filename);
    PyMem_Free(f->data);
    PyMem_Free(f->start);
    PyMem_Free(f->end);
    f->data = NULL;
    f->start = f->end = NULL;
    f->nlines = 0;
}

static void
srccache_clear(srccache *c)
{
    for (int i = 0; i < SRC_CACHE_SIZE; i++) {
        srcfile_clear(&c->files[i]);
    }
}

/* Split on \n, \r\n and \r, as text files read with universal newlines. */
static int
srcfile_split(srcfile *f, Py_ssize_t size)
{
    Py_ssize_t cap = 16;
    f->start = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)cap);
    f->end = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)cap);
    if (f->start == NULL || f->end == NULL) {
        return -1;
    }
    Py_ssize_t i = 0;
    while (i < size) {
        if (f->nlines == cap) {
            cap *= 2;
            Py_ssize_t *ns = PyMem_Realloc(f->start, sizeof(Py_ssize_t) * (size_t)cap);
            if (ns == NULL) {
                return -1;
            }
            f->start = ns;
            Py_ssize_t *ne = PyMem_Realloc(f->end, sizeof(Py_ssize_t) * (size_t)cap);
            if (ne == NULL) {
                return -1;
            }
            f->end = ne;
        }
        Py_ssize_t j = i;
        while (j < size && f->data[j] != '\n' && f->data[j] != '\r') {
            j++;
        }
        f->start[f->nlines] = i;
        f->end[f->nlines] = j;
        f->nlines++;
        if (j < size && f->data[j] == '\r' && j + 1 < size && f->data[j + 1] == '\n') {
            j++;
        }
        i = j + 1;
    }
    return 0;
}

static char *
read_whole_file(const char *path, Py_ssize_t *psize)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *data = PyMem_Malloc(cap);
    while (data != NULL) {
        size_t got = fread(data + len, 1, cap - len, fp);
        len += got;
        if (len < cap) {
            break;
        }
        cap *= 2;
        char *nd = PyMem_Realloc(data, cap);
        if (nd == NULL) {
            PyMem_Free(data);
            data = NULL;
            break;
        }
        data = nd;
    }
    fclose(fp);
    *psize = (Py_ssize_t)len;
    return data;
}

static char *
copy_bytes(const char *s, Py_ssize_t n)
{
    char *d = PyMem_Malloc((size_t)n + 1);
    if (d != NULL) {
        memcpy(d, s, (size_t)n);
        d[n] = '\0';
    }
    return d;
}

/* Like linecache: the file by name, then (for a relative name) under each
   sys.path entry, then a registered pseudo-file. */
static char *
load_source(PyObject *filename, Py_ssize_t *psize)
{
    char *data = NULL;
    Py_ssize_t len = PyUnicode_GET_LENGTH(filename);
    int pseudo = len > 1 && PyUnicode_READ_CHAR(filename, 0) == '<' &&
                 PyUnicode_READ_CHAR(filename, len - 1) == '>';
    PyObject *fsname = pseudo ? NULL : PyUnicode_EncodeFSDefault(filename);
    if (fsname != NULL) {
        const char *path = PyBytes_AS_STRING(fsname);
        data = read_whole_file(path, psize);
        PyObject *syspath = path[0] != '/' ? PySys_GetObject("path") : NULL;
        for (Py_ssize_t i = 0; data == NULL && syspath != NULL && PyList_Check(syspath) &&
                               i < PyList_GET_SIZE(syspath);
             i++) {
            PyObject *dir = PyList_GET_ITEM(syspath, i);
            PyObject *fsdir = PyUnicode_Check(dir) ? PyUnicode_EncodeFSDefault(dir) : NULL;
            if (fsdir == NULL) {
                PyErr_Clear();
                continue;
            }
            size_t n = (size_t)PyBytes_GET_SIZE(fsdir) + strlen(path) + 2;
            char *full = PyMem_Malloc(n);
            if (full != NULL) {
                snprintf(full, n, "%s/%s", PyBytes_AS_STRING(fsdir), path);
                data = read_whole_file(full, psize);
                PyMem_Free(full);
            }
            Py_DECREF(fsdir);
        }
        Py_DECREF(fsname);
    }
    PyErr_Clear();
    if (data == NULL && registered_sources != NULL) {
        PyObject *src = PyDict_GetItemWithError(registered_sources, filename);
        Py_ssize_t n;
        const char *u = (src != NULL && PyUnicode_Check(src)) ? PyUnicode_AsUTF8AndSize(src, &n)
                                                             : NULL;
        if (u != NULL) {
            data = copy_bytes(u, n);
            *psize = n;
        }
        PyErr_Clear();
    }
    return data;
}

static srcfile *
srccache_get(srccache *c, PyObject *filename)
{
    for (int i = 0; i < SRC_CACHE_SIZE; i++) {
        srcfile *f = &c->files[i];
        if (f->filename != NULL &&
            (f->filename == filename || PyUnicode_Compare(f->filename, filename) == 0)) {
            return f;
        }
    }
    PyErr_Clear();
    srcfile *f = &c->files[c->next_slot];
    c->next_slot = (c->next_slot + 1) % SRC_CACHE_SIZE;
    srcfile_clear(f);
    f->filename = Py_NewRef(filename);
    Py_ssize_t size = 0;
    f->data = load_source(filename, &size);
    if (f->data != NULL && srcfile_split(f, size) < 0) {
        PyMem_Free(f->data);
        f->data = NULL;
        f->nlines = 0;
    }
    return f;
}

/* Line `lineno` (1-based) without its newline; empty if missing. */
static void
source_line(srccache *c, PyObject *filename, int lineno, const char **p, Py_ssize_t *n)
{
    *p = "";
    *n = 0;
    if (filename == NULL || !PyUnicode_Check(filename) || lineno < 1) {
        return;
    }
    srcfile *f = srccache_get(c, filename);
    if (f->data == NULL || lineno > f->nlines) {
        return;
    }
    *p = f->data + f->start[lineno - 1];
    *n = f->end[lineno - 1] - f->start[lineno - 1];
}

/* ==== An expression scanner for the caret anchors =============================== */

enum { T_NAME, T_NUMBER, T_STRING, T_OP };

typedef struct {
    int kind;
    int line, col;         /* start: line index and column (code points) */
    int end_line, end_col; /* end (exclusive) */
    const Py_UCS4 *text;   /* the token's characters, for names and operators */
    int len;
} token;

typedef struct {
    token *t;
    int n, cap;
    int *match; /* index of the matching bracket, -1 otherwise */
    int ok;     /* brackets balanced and no unterminated string */
} tokens;

static void
tokens_free(tokens *ts)
{
    PyMem_Free(ts->t);
    PyMem_Free(ts->match);
    ts->t = NULL;
    ts->match = NULL;
}

static int
tokens_add(tokens *ts, token tk)
{
    if (ts->n == ts->cap) {
        int cap = ts->cap ? ts->cap * 2 : 32;
        token *nt = PyMem_Realloc(ts->t, sizeof(token) * (size_t)cap);
        if (nt == NULL) {
            return -1;
        }
        ts->t = nt;
        ts->cap = cap;
    }
    ts->t[ts->n++] = tk;
    return 0;
}

static int
is_name_start(Py_UCS4 c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static int
is_name_char(Py_UCS4 c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

static int
is_string_prefix(const Py_UCS4 *s, int n)
{
    if (n > 2) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        Py_UCS4 c = s[i] | 0x20;
        if (c != 'r' && c != 'b' && c != 'u' && c != 'f' && c != 't') {
            return 0;
        }
    }
    return 1;
}

static int
tok_is(const token *tk, const char *s)
{
    int n = (int)strlen(s);
    if (tk->len != n || tk->kind == T_STRING || tk->kind == T_NUMBER) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (tk->text[i] != (Py_UCS4)(unsigned char)s[i]) {
            return 0;
        }
    }
    return 1;
}

static const char *const operators[] = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==",
    "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", NULL,
};

static int
match_operator(const Py_UCS4 *p, int avail)
{
    for (int i = 0; operators[i] != NULL; i++) {
        int n = (int)strlen(operators[i]);
        if (n > avail) {
            continue;
        }
        int j;
        for (j = 0; j < n && p[j] == (Py_UCS4)operators[i][j]; j++) {
        }
        if (j == n) {
            return n;
        }
    }
    return 1;
}

/* Scan a string literal starting at its quote; may continue on the next
   lines for triple quotes.  Updates (*line, *col) to just after it. */
static int
scan_string(const ustr *lines, int nlines, int *line, int *col, int raw)
{
    const ustr *l = &lines[*line];
    Py_UCS4 q = l->cp[*col];
    int triple = *col + 2 < l->len && l->cp[*col + 1] == q && l->cp[*col + 2] == q;
    int i = *col + (triple ? 3 : 1);
    int ln = *line;
    for (;;) {
        l = &lines[ln];
        while (i < l->len) {
            Py_UCS4 c = l->cp[i];
            if (c == '\\' && !raw) {
                i += 2;
                continue;
            }
            if (c == q) {
                if (!triple) {
                    *line = ln;
                    *col = i + 1;
                    return 0;
                }
                if (i + 2 < l->len && l->cp[i + 1] == q && l->cp[i + 2] == q) {
                    *line = ln;
                    *col = i + 3;
                    return 0;
                }
            }
            i++;
        }
        if ((!triple && !(l->len > 0 && l->cp[l->len - 1] == '\\')) || ln + 1 >= nlines) {
            return -1;
        }
        ln++;
        i = 0;
    }
}

static int
scan_number(const ustr *l, int i)
{
    int start = i;
    int hex = i + 1 < l->len && l->cp[i] == '0' && (l->cp[i + 1] | 0x20) == 'x';
    while (i < l->len) {
        Py_UCS4 c = l->cp[i];
        if (is_name_char(c) || c == '.') {
            i++;
        }
        else if ((c == '+' || c == '-') && !hex && i > start && (l->cp[i - 1] | 0x20) == 'e') {
            i++;
        }
        else {
            break;
        }
    }
    return i;
}

static int
tokenize(const ustr *lines, int nlines, tokens *ts)
{
    ts->t = NULL;
    ts->n = ts->cap = 0;
    ts->match = NULL;
    ts->ok = 1;
    for (int ln = 0; ln < nlines; ln++) {
        const ustr *l = &lines[ln];
        int i = 0;
        while (i < l->len) {
            Py_UCS4 c = l->cp[i];
            if (c == ' ' || c == '\t' || c == '\f') {
                i++;
                continue;
            }
            if (c == '#' || (c == '\\' && i == l->len - 1)) {
                break;
            }
            token tk = {.line = ln, .col = i, .end_line = ln, .text = l->cp + i};
            if (is_name_start(c)) {
                int j = i;
                while (j < l->len && is_name_char(l->cp[j])) {
                    j++;
                }
                if (j < l->len && (l->cp[j] == '\'' || l->cp[j] == '"') &&
                    is_string_prefix(l->cp + i, j - i)) {
                    int raw = 0;
                    for (int k = i; k < j; k++) {
                        raw |= (l->cp[k] | 0x20) == 'r';
                    }
                    int sl = ln, sc = j;
                    if (scan_string(lines, nlines, &sl, &sc, raw) < 0) {
                        ts->ok = 0;
                        return 0;
                    }
                    tk.kind = T_STRING;
                    tk.end_line = sl;
                    tk.end_col = sc;
                    tk.len = 0;
                    if (tokens_add(ts, tk) < 0) {
                        return -1;
                    }
                    ln = sl;
                    l = &lines[ln];
                    i = sc;
                    continue;
                }
                tk.kind = T_NAME;
                tk.len = j - i;
                i = j;
            }
            else if ((c >= '0' && c <= '9') ||
                     (c == '.' && i + 1 < l->len && l->cp[i + 1] >= '0' && l->cp[i + 1] <= '9')) {
                int j = scan_number(l, i);
                tk.kind = T_NUMBER;
                tk.len = j - i;
                i = j;
            }
            else if (c == '\'' || c == '"') {
                int sl = ln, sc = i;
                if (scan_string(lines, nlines, &sl, &sc, 0) < 0) {
                    ts->ok = 0;
                    return 0;
                }
                tk.kind = T_STRING;
                tk.end_line = sl;
                tk.end_col = sc;
                tk.len = 0;
                if (tokens_add(ts, tk) < 0) {
                    return -1;
                }
                ln = sl;
                l = &lines[ln];
                i = sc;
                continue;
            }
            else {
                int n = match_operator(l->cp + i, l->len - i);
                tk.kind = T_OP;
                tk.len = n;
                i += n;
            }
            tk.end_col = i;
            if (tokens_add(ts, tk) < 0) {
                return -1;
            }
        }
    }
    /* Pair up brackets. */
    ts->match = PyMem_Malloc(sizeof(int) * (size_t)(ts->n + 1));
    int *stack = PyMem_Malloc(sizeof(int) * (size_t)(ts->n + 1));
    if (ts->match == NULL || stack == NULL) {
        PyMem_Free(stack);
        return -1;
    }
    int sp = 0;
    for (int i = 0; i < ts->n; i++) {
        token *tk = &ts->t[i];
        ts->match[i] = -1;
        if (tk->kind != T_OP || tk->len != 1) {
            continue;
        }
        Py_UCS4 c = tk->text[0];
        if (c == '(' || c == '[' || c == '{') {
            stack[sp++] = i;
        }
        else if (c == ')' || c == ']' || c == '}') {
            Py_UCS4 open = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (sp == 0 || ts->t[stack[sp - 1]].text[0] != open) {
                ts->ok = 0;
                break;
            }
            int j = stack[--sp];
            ts->match[i] = j;
            ts->match[j] = i;
        }
    }
    if (sp != 0) {
        ts->ok = 0;
    }
    PyMem_Free(stack);
    return 0;
}

static int
is_open_bracket(const token *tk)
{
    return tk->kind == T_OP && tk->len == 1 &&
           (tk->text[0] == '(' || tk->text[0] == '[' || tk->text[0] == '{');
}

/* Keywords that cannot occur in an expression: a segment holding one is
   a statement, which has no anchors. */
static int
is_statement_keyword(const token *tk)
{
    static const char *const kw[] = {"raise", "return", "del", "pass", "break", "continue",
                                     "import", "from", "global", "nonlocal", "assert", "class",
                                     "def", "with", "while", "try", "except", "finally", "elif",
                                     "as", NULL};
    if (tk->kind != T_NAME) {
        return 0;
    }
    for (int i = 0; kw[i]; i++) {
        if (tok_is(tk, kw[i])) {
            return 1;
        }
    }
    return 0;
}

static int
is_keyword_operand_breaker(const token *tk)
{
    static const char *const kw[] = {"lambda", "if", "else", "or", "and", "not", "in", "is",
                                     "yield", "for", "async", "await", NULL};
    if (tk->kind != T_NAME) {
        return 0;
    }
    for (int i = 0; kw[i]; i++) {
        if (tok_is(tk, kw[i])) {
            return 1;
        }
    }
    return 0;
}

/* Does a unit ending with this token end an operand (so that a following
   + or - is binary)? */
static int
ends_operand(const token *tk)
{
    if (tk->kind == T_NUMBER || tk->kind == T_STRING) {
        return 1;
    }
    if (tk->kind == T_NAME) {
        return !is_keyword_operand_breaker(tk) || tok_is(tk, "None");
    }
    return tok_is(tk, ")") || tok_is(tk, "]") || tok_is(tk, "}") || tok_is(tk, "...");
}

enum { EXPR_OTHER, EXPR_BINOP, EXPR_CALL, EXPR_SUBSCRIPT };

static const char *const binop_levels[][6] = {
    {"|", NULL}, {"^", NULL}, {"&", NULL}, {"<<", ">>", NULL}, {"+", "-", NULL},
    {"*", "/", "//", "%", "@", NULL},
};
#define N_LEVELS ((int)Py_ARRAY_LENGTH(binop_levels))

static int
binop_level(const token *tk)
{
    if (tk->kind != T_OP) {
        return -1;
    }
    for (int lv = 0; lv < N_LEVELS; lv++) {
        for (int k = 0; binop_levels[lv][k]; k++) {
            if (tok_is(tk, binop_levels[lv][k])) {
                return lv;
            }
        }
    }
    return -1;
}

static int
is_lowprec_op(const token *tk)
{
    static const char *const ops[] = {",", "<", ">", "==", ">=", "<=", "!=", ":=", "=", ":",
                                      ";", NULL};
    if (is_keyword_operand_breaker(tk) && !tok_is(tk, "await")) {
        return 1;
    }
    if (tk->kind != T_OP) {
        return 0;
    }
    for (int i = 0; ops[i]; i++) {
        if (tok_is(tk, ops[i])) {
            return 1;
        }
    }
    return 0;
}

/* What kind of expression are tokens [*plo, *phi)?  Enclosing parentheses
   are looked through (and *plo, *phi narrowed); *where receives the
   operator (BINOP) or opening bracket (CALL, SUBSCRIPT). */
static int
classify(tokens *ts, int *plo, int *phi, int *where)
{
    int lo = *plo, hi = *phi;
    token *t = ts->t;
    if (!ts->ok || lo >= hi) {
        return EXPR_OTHER;
    }
    for (int i = lo; i < hi; i++) {
        if (is_statement_keyword(&t[i])) {
            return EXPR_OTHER;
        }
    }
    while (hi - lo >= 2 && tok_is(&t[lo], "(") && ts->match[lo] == hi - 1) {
        lo++;
        hi--;
        for (int i = lo; i < hi; i++) {
            if (is_open_bracket(&t[i])) {
                i = ts->match[i];
                continue;
            }
            if (tok_is(&t[i], ",") || tok_is(&t[i], "for") || tok_is(&t[i], "yield")) {
                return EXPR_OTHER;
            }
        }
        if (lo >= hi) {
            return EXPR_OTHER;
        }
    }
    *plo = lo;
    *phi = hi;
    int last_binop[N_LEVELS];
    for (int lv = 0; lv < N_LEVELS; lv++) {
        last_binop[lv] = -1;
    }
    int first_pow = -1;
    const token *prev = NULL; /* the last token of the previous unit */
    for (int i = lo; i < hi; i++) {
        const token *tk = &t[i];
        if (is_open_bracket(tk)) {
            i = ts->match[i];
            prev = &t[i];
            continue;
        }
        if (is_lowprec_op(tk)) {
            return EXPR_OTHER;
        }
        int binary = prev != NULL && ends_operand(prev);
        if (binary) {
            int lv = binop_level(tk);
            if (lv >= 0) {
                last_binop[lv] = i;
            }
            else if (tok_is(tk, "**") && first_pow < 0) {
                first_pow = i;
            }
        }
        prev = tk;
    }
    for (int lv = 0; lv < N_LEVELS; lv++) {
        if (last_binop[lv] >= 0) {
            *where = last_binop[lv];
            return EXPR_BINOP;
        }
    }
    if (tok_is(&t[lo], "-") || tok_is(&t[lo], "+") || tok_is(&t[lo], "~")) {
        return EXPR_OTHER; /* a unary operation */
    }
    if (first_pow >= 0) {
        *where = first_pow;
        return EXPR_BINOP;
    }
    if (tok_is(&t[lo], "await")) {
        return EXPR_OTHER;
    }
    int j = ts->match[hi - 1];
    if (j > lo && tok_is(&t[hi - 1], ")")) {
        *where = j;
        return EXPR_CALL;
    }
    if (j > lo && tok_is(&t[hi - 1], "]")) {
        *where = j;
        return EXPR_SUBSCRIPT;
    }
    return EXPR_OTHER;
}

typedef struct {
    int valid;
    int left_line, left_col;   /* where the secondary characters start */
    int right_line, right_col; /* where they stop (exclusive) */
} anchors_t;

/* The part of the failing expression to mark with '^' (the rest gets '~'):
   the operator of a binary operation, the bracketed part of a call or
   subscript.  Positions are relative to the segment's lines. */
static void
find_anchors(const ustr *seg, int nseg, anchors_t *a)
{
    a->valid = 0;
    tokens ts;
    if (tokenize(seg, nseg, &ts) < 0) {
        PyErr_Clear();
        tokens_free(&ts);
        return;
    }
    int lo = 0, hi = ts.n, where = -1;
    int kind = classify(&ts, &lo, &hi, &where);
    if (kind == EXPR_BINOP) {
        token *op = &ts.t[where];
        a->valid = 1;
        a->left_line = a->right_line = op->line;
        a->left_col = op->col;
        a->right_col = op->col + op->len;
    }
    else if (kind == EXPR_CALL || kind == EXPR_SUBSCRIPT) {
        token *open = &ts.t[where], *last = &ts.t[hi - 1];
        a->valid = 1;
        a->left_line = open->line;
        a->left_col = open->col;
        a->right_line = last->end_line;
        a->right_col = last->end_col;
    }
    tokens_free(&ts);
}

/* CPython hides the carets when the failing call is the whole value of
   `return f(...)` or `name = ...(...)`: the line says it all. */
static int
call_is_whole_statement(const ustr *lines, int n, Py_ssize_t start, Py_ssize_t end)
{
    tokens ts;
    int result = 0;
    if (tokenize(lines, n, &ts) < 0) {
        PyErr_Clear();
        goto done;
    }
    if (!ts.ok || ts.n < 2) {
        goto done;
    }
    int stmt_end = ts.n;
    for (int i = 0; i < ts.n; i++) {
        if (is_open_bracket(&ts.t[i])) {
            i = ts.match[i];
        }
        else if (tok_is(&ts.t[i], ";")) {
            stmt_end = i;
            break;
        }
    }
    int lo, hi = stmt_end, where = -1, need_name_func;
    if (tok_is(&ts.t[0], "return")) {
        lo = 1;
        need_name_func = 1;
    }
    else if (ts.t[0].kind == T_NAME && !is_keyword_operand_breaker(&ts.t[0]) &&
             tok_is(&ts.t[1], "=")) {
        for (int i = 2; i < stmt_end; i++) {
            if (is_open_bracket(&ts.t[i])) {
                i = ts.match[i];
            }
            else if (tok_is(&ts.t[i], "=")) {
                goto done; /* several targets */
            }
        }
        lo = 2;
        need_name_func = 0;
    }
    else {
        goto done;
    }
    if (classify(&ts, &lo, &hi, &where) != EXPR_CALL) {
        goto done;
    }
    if (need_name_func && !(where == lo + 1 && ts.t[lo].kind == T_NAME)) {
        goto done;
    }
    token *first = &ts.t[lo], *last = &ts.t[hi - 1];
    result = first->line == 0 && first->col == start && last->end_line == n - 1 &&
             last->end_col == end;
done:
    tokens_free(&ts);
    return result;
}

/* ==== Frame entries ============================================================== */

typedef struct {
    PyObject *filename; /* strong */
    PyObject *name;     /* strong */
    int lineno, end_lineno, colno, end_colno; /* -1 for None */
} frame_summary;

typedef struct {
    sbuf *out;
    srccache cache;
    PyObject *seen;     /* ids of exceptions already shown */
    int group_depth;
    int need_close;
} print_ctx;

/* textwrap.dedent on an array of lines: remove the longest common
   leading run of spaces/tabs from the non-empty lines. */
static Py_ssize_t
common_margin(ustr *lines, int n)
{
    Py_ssize_t margin = -1;
    const Py_UCS4 *ref = NULL;
    for (int k = 0; k < n; k++) {
        ustr *l = &lines[k];
        Py_ssize_t ws = 0;
        while (ws < l->len && (l->cp[ws] == ' ' || l->cp[ws] == '\t')) {
            ws++;
        }
        if (ws == l->len) {
            continue; /* blank lines do not count (dedent empties them) */
        }
        if (margin < 0) {
            margin = ws;
            ref = l->cp;
            continue;
        }
        Py_ssize_t i = 0;
        while (i < margin && i < ws && l->cp[i] == ref[i]) {
            i++;
        }
        margin = i;
    }
    return margin < 0 ? 0 : margin;
}

/* Views after dedent: whitespace-only lines become empty. */
static void
dedent_lines(ustr *lines, int n, ustr *out)
{
    Py_ssize_t margin = common_margin(lines, n);
    for (int k = 0; k < n; k++) {
        Py_ssize_t ws = 0;
        while (ws < lines[k].len && (lines[k].cp[ws] == ' ' || lines[k].cp[ws] == '\t')) {
            ws++;
        }
        if (ws == lines[k].len) {
            out[k].cp = lines[k].cp + lines[k].len;
            out[k].len = 0;
        }
        else {
            out[k].cp = lines[k].cp + margin;
            out[k].len = lines[k].len - margin;
        }
    }
}

static Py_ssize_t
rstrip_len(const Py_UCS4 *cp, Py_ssize_t n)
{
    while (n > 0 && py_isspace(cp[n - 1])) {
        n--;
    }
    return n;
}

static Py_ssize_t
lstrip_count(const Py_UCS4 *cp, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    while (i < n && py_isspace(cp[i])) {
        i++;
    }
    return i;
}

/* The output lines of one entry (source and caret lines) before the final
   dedent and indent. */
typedef struct {
    ustr *lines;
    int n, cap;
} linelist;

static int
linelist_add(linelist *ll, const Py_UCS4 *cp, Py_ssize_t len)
{
    if (ll->n == ll->cap) {
        int cap = ll->cap ? ll->cap * 2 : 8;
        ustr *nl = PyMem_Realloc(ll->lines, sizeof(ustr) * (size_t)cap);
        if (nl == NULL) {
            return -1;
        }
        ll->lines = nl;
        ll->cap = cap;
    }
    ustr *u = &ll->lines[ll->n];
    u->cp = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(len + 1));
    if (u->cp == NULL) {
        return -1;
    }
    if (len > 0) {
        memcpy(u->cp, cp, sizeof(Py_UCS4) * (size_t)len);
    }
    u->len = len;
    ll->n++;
    return 0;
}

static void
linelist_free(linelist *ll)
{
    for (int i = 0; i < ll->n; i++) {
        PyMem_Free(ll->lines[i].cp);
    }
    PyMem_Free(ll->lines);
    ll->lines = NULL;
    ll->n = ll->cap = 0;
}

typedef struct {
    ustr *all;       /* dedented source lines */
    int n;
    Py_ssize_t dp_start, dp_end;
    anchors_t anchors;
    Py_ssize_t left_col, right_col; /* anchor columns in `all` coordinates */
    int show_carets;
} caret_plan;

static int
output_line(linelist *result, caret_plan *cp, int lineno)
{
    ustr *line = &cp->all[lineno];
    if (linelist_add(result, line->cp, line->len) < 0) {
        return -1;
    }
    if (!cp->show_carets) {
        return 0;
    }
    Py_ssize_t num_spaces = lstrip_count(line->cp, line->len);
    Py_ssize_t num_carets = lineno == cp->n - 1 ? cp->dp_end : display_width(line, line->len);
    Py_UCS4 primary = cp->anchors.valid ? '~' : '^';
    Py_UCS4 secondary = '^';
    Py_UCS4 *carets = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(num_carets + 1));
    if (carets == NULL) {
        return -1;
    }
    anchors_t *a = &cp->anchors;
    for (Py_ssize_t col = 0; col < num_carets; col++) {
        if (col < num_spaces || (lineno == 0 && col < cp->dp_start)) {
            carets[col] = ' ';
        }
        else if (a->valid &&
                 (lineno > a->left_line || (lineno == a->left_line && col >= cp->left_col)) &&
                 (lineno < a->right_line || (lineno == a->right_line && col < cp->right_col))) {
            carets[col] = secondary;
        }
        else {
            carets[col] = primary;
        }
    }
    int r = linelist_add(result, carets, num_carets);
    PyMem_Free(carets);
    return r;
}

static void
add_significant(int *set, int *count, int v, int n)
{
    if (v < 0 || v >= n) {
        return;
    }
    for (int i = 0; i < *count; i++) {
        if (set[i] == v) {
            return;
        }
    }
    set[(*count)++] = v;
}

static int
int_compare(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Dedent the entry's lines once more (carets included) and indent them
   by four spaces, as the traceback module does. */
static void
emit_indented(sbuf *out, linelist *result)
{
    Py_ssize_t margin = common_margin(result->lines, result->n);
    for (int i = 0; i < result->n; i++) {
        ustr *l = &result->lines[i];
        Py_ssize_t ws = 0;
        while (ws < l->len && (l->cp[ws] == ' ' || l->cp[ws] == '\t')) {
            ws++;
        }
        sb_puts(out, "    ");
        if (ws < l->len) {
            sb_put_ucs(out, l->cp + margin, l->len - margin);
        }
        sb_puts(out, "\n");
    }
}

/* The source lines of an entry with column information, and the carets. */
static int
format_with_carets(sbuf *out, frame_summary *fs, ustr *orig, const char **raw,
                   Py_ssize_t *rawlen, int n)
{
    int result_code = -1;
    ustr *all = PyMem_Malloc(sizeof(ustr) * (size_t)n);
    ustr *seg = PyMem_Malloc(sizeof(ustr) * (size_t)n);
    Py_UCS4 *joined = NULL;
    linelist result = {NULL, 0, 0};
    if (all == NULL || seg == NULL) {
        goto done;
    }
    dedent_lines(orig, n, all);
    Py_ssize_t start_offset = byte_to_char_offset(raw[0], rawlen[0], fs->colno);
    Py_ssize_t end_offset = byte_to_char_offset(raw[n - 1], rawlen[n - 1], fs->end_colno);
    Py_ssize_t dedent_chars = orig[0].len - all[0].len;
    start_offset = Py_MAX(0, start_offset - dedent_chars);
    end_offset = Py_MAX(0, end_offset - dedent_chars);

    /* The segment: "\n".join(all)[start : total - (len(last) - end)]. */
    Py_ssize_t total = n - 1;
    for (int k = 0; k < n; k++) {
        total += all[k].len;
    }
    joined = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(total + 1));
    if (joined == NULL) {
        goto done;
    }
    Py_ssize_t pos = 0;
    for (int k = 0; k < n; k++) {
        if (k > 0) {
            joined[pos++] = '\n';
        }
        memcpy(joined + pos, all[k].cp, sizeof(Py_UCS4) * (size_t)all[k].len);
        pos += all[k].len;
    }
    Py_ssize_t s0 = Py_MIN(start_offset, total);
    Py_ssize_t s1 = total - (all[n - 1].len - end_offset);
    s1 = Py_MAX(s0, Py_MIN(s1, total));
    int nseg = 0;
    Py_ssize_t line_start = s0;
    for (Py_ssize_t i = s0; i <= s1; i++) {
        if (i == s1 || joined[i] == '\n') {
            seg[nseg].cp = joined + line_start;
            seg[nseg].len = i - line_start;
            nseg++;
            line_start = i + 1;
            if (nseg == n) {
                break;
            }
        }
    }

    caret_plan cp = {.all = all,
                     .n = n,
                     .dp_start = display_width(&all[0], start_offset),
                     .dp_end = display_width(&all[n - 1], end_offset)};
    find_anchors(seg, nseg, &cp.anchors);
    if (cp.anchors.valid) {
        anchors_t *a = &cp.anchors;
        Py_ssize_t left = a->left_col + (a->left_line == 0 ? start_offset : 0);
        Py_ssize_t right = a->right_col + (a->right_line == 0 ? start_offset : 0);
        cp.left_col = a->left_line < n ? display_width(&all[a->left_line], left) : left;
        cp.right_col = a->right_line < n ? display_width(&all[a->right_line], right) : right;
    }
    if (call_is_whole_statement(all, n, start_offset, end_offset)) {
        cp.show_carets = 0;
    }
    else if (cp.anchors.valid) {
        cp.show_carets = 1;
    }
    else {
        Py_ssize_t before = Py_MIN(start_offset, all[0].len);
        Py_ssize_t after = Py_MIN(end_offset, all[n - 1].len);
        cp.show_carets = lstrip_count(all[0].cp, before) < before ||
                         rstrip_len(all[n - 1].cp + after, all[n - 1].len - after) > 0;
    }

    /* Only the first and last lines and those around the anchors. */
    int sig[8], nsig = 0;
    add_significant(sig, &nsig, 0, n);
    add_significant(sig, &nsig, n - 1, n);
    if (cp.anchors.valid) {
        for (int d = -1; d <= 1; d++) {
            add_significant(sig, &nsig, cp.anchors.left_line + d, n);
            add_significant(sig, &nsig, cp.anchors.right_line + d, n);
        }
    }
    qsort(sig, (size_t)nsig, sizeof(int), int_compare);
    for (int i = 0; i < nsig; i++) {
        if (i > 0) {
            int diff = sig[i] - sig[i - 1];
            if (diff == 2) {
                if (output_line(&result, &cp, sig[i] - 1) < 0) {
                    goto done;
                }
            }
            else if (diff > 2) {
                char buf[64];
                snprintf(buf, sizeof(buf), "...<%d lines>...", diff - 1);
                ustr u;
                if (ustr_decode(&u, buf, (Py_ssize_t)strlen(buf)) < 0) {
                    goto done;
                }
                int r = linelist_add(&result, u.cp, u.len);
                ustr_free(&u);
                if (r < 0) {
                    goto done;
                }
            }
        }
        if (output_line(&result, &cp, sig[i]) < 0) {
            goto done;
        }
    }
    emit_indented(out, &result);
    result_code = 0;
done:
    linelist_free(&result);
    PyMem_Free(joined);
    PyMem_Free(all);
    PyMem_Free(seg);
    return result_code;
}

static void
put_display_filename(sbuf *out, PyObject *filename)
{
    if (PyUnicode_Check(filename)) {
        Py_ssize_t n;
        const char *u = PyUnicode_AsUTF8AndSize(filename, &n);
        if (u != NULL && n > 8 && strncmp(u, "<stdin>-", 8) == 0) {
            sb_puts(out, "<stdin>");
            return;
        }
        PyErr_Clear();
        sb_put_str(out, filename);
        return;
    }
    PyObject *s = PyObject_Str(filename);
    if (s != NULL) {
        sb_put_str(out, s);
        Py_DECREF(s);
    }
    PyErr_Clear();
}

static void
format_frame(print_ctx *ctx, sbuf *out, frame_summary *fs)
{
    sb_puts(out, "  File \"");
    put_display_filename(out, fs->filename);
    if (fs->lineno >= 0) {
        sb_printf(out, "\", line %d, in ", fs->lineno);
    }
    else {
        sb_puts(out, "\", line None, in ");
    }
    sb_put_str(out, fs->name);
    sb_puts(out, "\n");
    if (fs->lineno < 0 || fs->end_lineno < 0 || fs->end_lineno < fs->lineno) {
        return;
    }
    int n = fs->end_lineno - fs->lineno + 1;
    ustr *orig = PyMem_Calloc((size_t)n, sizeof(ustr));
    const char **raw = PyMem_Calloc((size_t)n, sizeof(char *));
    Py_ssize_t *rawlen = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    int any = 0;
    if (orig == NULL || raw == NULL || rawlen == NULL) {
        goto done;
    }
    for (int k = 0; k < n; k++) {
        source_line(&ctx->cache, fs->filename, fs->lineno + k, &raw[k], &rawlen[k]);
        if (ustr_decode(&orig[k], raw[k], rawlen[k]) < 0) {
            goto done;
        }
        orig[k].len = rstrip_len(orig[k].cp, orig[k].len);
        if (orig[k].len > 0) {
            any = 1;
        }
    }
    if (!any) {
        goto done;
    }
    if (fs->colno < 0 || fs->end_colno < 0) {
        Py_ssize_t lead = lstrip_count(orig[0].cp, orig[0].len);
        if (orig[0].len > lead) {
            sb_puts(out, "    ");
            sb_put_ucs(out, orig[0].cp + lead, orig[0].len - lead);
        }
        sb_puts(out, "\n");
        goto done;
    }
    (void)format_with_carets(out, fs, orig, raw, rawlen, n);
done:
    for (int k = 0; orig != NULL && k < n; k++) {
        ustr_free(&orig[k]);
    }
    PyMem_Free(orig);
    PyMem_Free(raw);
    PyMem_Free(rawlen);
}

/* ==== Stacks ======================================================================= */

static int
summarize_tb(PyTracebackObject *tb, frame_summary *fs)
{
    PyCodeObject *code = PyFrame_GetCode(tb->tb_frame);
    fs->filename = Py_NewRef(code->co_filename);
    fs->name = Py_NewRef(code->co_name);
    int sl = -1, sc = -1, el = -1, ec = -1;
    if (tb->tb_lasti >= 0) {
        PyCode_Addr2Location(code, tb->tb_lasti, &sl, &sc, &el, &ec);
    }
    Py_DECREF(code);
    if (sl < 0) {
        sl = tb_compute_lineno(tb);
    }
    fs->lineno = sl;
    fs->end_lineno = el;
    fs->colno = sc;
    fs->end_colno = ec;
    return 0;
}

static void
summary_clear(frame_summary *fs)
{
    Py_CLEAR(fs->filename);
    Py_CLEAR(fs->name);
}

/* sys.tracebacklimit as a count of entries to show: -1 (no limit) when
   unset, not an int or too large; 0 when negative. */
static Py_ssize_t
traceback_limit(void)
{
    PyObject *limit = PySys_GetObject("tracebacklimit");
    if (limit == NULL || !PyLong_Check(limit)) {
        PyErr_Clear();
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(limit, &overflow);
    if (overflow > 0) {
        return -1;
    }
    if (overflow < 0 || v < 0) {
        return 0;
    }
    return (Py_ssize_t)v;
}

/* Index of the first of `total` entries to show.  The exception display
   keeps the last `limit` entries the way the traceback module slices them
   (tb[total - limit:], so a limit a little above the total wraps around
   like a negative Python index); PyTraceBack_Print simply keeps the last
   `limit` (1000 by default). */
static Py_ssize_t
first_shown_entry(Py_ssize_t total, int display)
{
    Py_ssize_t limit = traceback_limit();
    if (limit < 0) {
        if (display) {
            return 0;
        }
        limit = 1000;
    }
    Py_ssize_t start = total - limit;
    if (start < 0 && display) {
        start += total;
    }
    return start < 0 ? 0 : start;
}

#define RECURSIVE_CUTOFF 3

static void
put_repeated(sbuf *out, Py_ssize_t count)
{
    count -= RECURSIVE_CUTOFF;
    sb_printf(out, "  [Previous line repeated %zd more time%s]\n", count, count > 1 ? "s" : "");
}

static int
same_location(frame_summary *a, frame_summary *b)
{
    if (a->lineno != b->lineno) {
        return 0;
    }
    int r = PyObject_RichCompareBool(a->filename, b->filename, Py_EQ);
    if (r == 1) {
        r = PyObject_RichCompareBool(a->name, b->name, Py_EQ);
    }
    if (r < 0) {
        PyErr_Clear();
        return 0;
    }
    return r;
}

/* The entries of a traceback, oldest first, with runs of more than three
   identical entries (recursion) collapsed. */
static void
format_stack(print_ctx *ctx, sbuf *out, PyTracebackObject *tb, int display)
{
    Py_ssize_t total = 0;
    for (PyTracebackObject *p = tb; p != NULL; p = p->tb_next) {
        total++;
    }
    Py_ssize_t start = first_shown_entry(total, display);
    for (Py_ssize_t i = 0; i < start; i++) {
        tb = tb->tb_next;
    }
    frame_summary last = {NULL, NULL, -1, -1, -1, -1};
    int have_last = 0;
    Py_ssize_t count = 0;
    for (; tb != NULL; tb = tb->tb_next) {
        frame_summary fs;
        summarize_tb(tb, &fs);
        if (!have_last || !same_location(&last, &fs)) {
            if (count > RECURSIVE_CUTOFF) {
                put_repeated(out, count);
            }
            summary_clear(&last);
            last = fs;
            have_last = 1;
            count = 0;
            fs.filename = fs.name = NULL;
        }
        count++;
        if (count <= RECURSIVE_CUTOFF) {
            format_frame(ctx, out, &last);
        }
        summary_clear(&fs);
    }
    if (count > RECURSIVE_CUTOFF) {
        put_repeated(out, count);
    }
    summary_clear(&last);
}

/* ==== "Did you mean" ================================================================ */

#define MAX_CANDIDATE_ITEMS 750
#define MAX_STRING_SIZE 40
#define MOVE_COST 2
#define CASE_COST 1

static Py_ssize_t
substitution_cost(char a, char b)
{
    if (a == b) {
        return 0;
    }
    if (a >= 'A' && a <= 'Z') {
        a += 'a' - 'A';
    }
    if (b >= 'A' && b <= 'Z') {
        b += 'a' - 'A';
    }
    return a == b ? CASE_COST : MOVE_COST;
}

/* Edit distance over UTF-8 bytes where a change of case is cheaper than
   any other edit; gives up (returns max_cost + 1) once over max_cost. */
static Py_ssize_t
levenshtein(const char *a, Py_ssize_t a_size, const char *b, Py_ssize_t b_size,
            Py_ssize_t max_cost, Py_ssize_t *row)
{
    if (a_size == b_size && memcmp(a, b, (size_t)a_size) == 0) {
        return 0;
    }
    while (a_size && b_size && a[0] == b[0]) {
        a++;
        b++;
        a_size--;
        b_size--;
    }
    while (a_size && b_size && a[a_size - 1] == b[b_size - 1]) {
        a_size--;
        b_size--;
    }
    if (a_size == 0 || b_size == 0) {
        return (a_size + b_size) * MOVE_COST;
    }
    if (a_size > MAX_STRING_SIZE || b_size > MAX_STRING_SIZE) {
        return max_cost + 1;
    }
    if (b_size < a_size) {
        const char *t = a;
        a = b;
        b = t;
        Py_ssize_t ts = a_size;
        a_size = b_size;
        b_size = ts;
    }
    if ((b_size - a_size) * MOVE_COST > max_cost) {
        return max_cost + 1;
    }
    for (Py_ssize_t i = 0; i < a_size; i++) {
        row[i] = (i + 1) * MOVE_COST;
    }
    Py_ssize_t result = 0;
    for (Py_ssize_t bi = 0; bi < b_size; bi++) {
        char code = b[bi];
        Py_ssize_t distance = result = bi * MOVE_COST;
        Py_ssize_t minimum = PY_SSIZE_T_MAX;
        for (Py_ssize_t ai = 0; ai < a_size; ai++) {
            Py_ssize_t substitute = distance + substitution_cost(code, a[ai]);
            distance = row[ai];
            Py_ssize_t insert_delete = Py_MIN(result, distance) + MOVE_COST;
            result = Py_MIN(insert_delete, substitute);
            row[ai] = result;
            if (result < minimum) {
                minimum = result;
            }
        }
        if (minimum > max_cost) {
            return max_cost + 1;
        }
    }
    return result;
}

/* The closest name in `candidates` (a list of str) to `name`, or NULL. */
static PyObject *
closest_name(PyObject *candidates, PyObject *name)
{
    Py_ssize_t n = PyList_GET_SIZE(candidates);
    if (n >= MAX_CANDIDATE_ITEMS) {
        return NULL;
    }
    Py_ssize_t name_size;
    const char *name_str = PyUnicode_AsUTF8AndSize(name, &name_size);
    if (name_str == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_ssize_t row[MAX_STRING_SIZE];
    Py_ssize_t best_distance = PY_SSIZE_T_MAX;
    PyObject *best = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(candidates, i);
        if (!PyUnicode_Check(item) || PyUnicode_Compare(name, item) == 0) {
            continue;
        }
        Py_ssize_t item_size;
        const char *item_str = PyUnicode_AsUTF8AndSize(item, &item_size);
        if (item_str == NULL) {
            PyErr_Clear();
            continue;
        }
        Py_ssize_t max_distance = (name_size + item_size + 3) * MOVE_COST / 6;
        if (best_distance != PY_SSIZE_T_MAX) {
            max_distance = Py_MIN(max_distance, best_distance - 1);
        }
        Py_ssize_t d = levenshtein(name_str, name_size, item_str, item_size, max_distance, row);
        if (d > max_distance) {
            continue;
        }
        if (best == NULL || d < best_distance) {
            best = item;
            best_distance = d;
        }
    }
    return Py_XNewRef(best);
}

static PyFrameObject *
last_frame(PyObject *tb)
{
    if (tb == NULL || !PyTraceBack_Check(tb)) {
        return NULL;
    }
    PyTracebackObject *t = (PyTracebackObject *)tb;
    while (t->tb_next != NULL) {
        t = t->tb_next;
    }
    return t->tb_frame;
}

static int
extend_with_keys(PyObject *list, PyObject *mapping)
{
    if (mapping == NULL) {
        return 0;
    }
    PyObject *keys = PyMapping_Keys(mapping);
    if (keys == NULL) {
        return -1;
    }
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    if (it == NULL) {
        return -1;
    }
    PyObject *k;
    while ((k = PyIter_Next(it)) != NULL) {
        int r = PyUnicode_Check(k) ? PyList_Append(list, k) : 0;
        Py_DECREF(k);
        if (r < 0) {
            Py_DECREF(it);
            return -1;
        }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static int
filter_names(PyObject **plist, int drop_underscored)
{
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(*plist); i++) {
        PyObject *item = PyList_GET_ITEM(*plist, i);
        if (!PyUnicode_Check(item)) {
            continue;
        }
        if (drop_underscored && PyUnicode_GET_LENGTH(item) > 0 &&
            PyUnicode_READ_CHAR(item, 0) == '_') {
            continue;
        }
        if (PyList_Append(out, item) < 0) {
            Py_DECREF(out);
            return -1;
        }
    }
    Py_SETREF(*plist, out);
    return 0;
}

/* The current frame's f_locals holds `self` bound to obj? */
static int
self_is(PyFrameObject *frame, PyObject *obj, PyObject **self_out)
{
    PyObject *locals = PyFrame_GetLocals(frame);
    if (locals == NULL) {
        return -1;
    }
    PyObject *self = PyObject_GetItem(locals, _PyUnicode_InternImmortal("self"));
    Py_DECREF(locals);
    if (self == NULL) {
        PyErr_Clear();
        return 0;
    }
    int r = obj == NULL || self == obj;
    if (self_out != NULL) {
        *self_out = self;
    }
    else {
        Py_DECREF(self);
    }
    return r;
}

static PyObject *
attribute_candidates(PyObject *exc, PyObject *tb, PyObject *wrong_name)
{
    PyObject *obj = ((PyAttributeErrorObject *)exc)->obj;
    if (obj == NULL) {
        return NULL;
    }
    PyObject *d = PyObject_Dir(obj);
    if (d == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
            return NULL;
        }
        PyErr_Clear();
        d = PyList_New(0);
        PyObject *cls_dict = d ? PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "__dict__") : NULL;
        PyObject *obj_dict = cls_dict ? PyObject_GetAttrString(obj, "__dict__") : NULL;
        int r = obj_dict == NULL ? -1
                                 : (extend_with_keys(d, cls_dict) < 0 ? -1 : extend_with_keys(d, obj_dict));
        Py_XDECREF(cls_dict);
        Py_XDECREF(obj_dict);
        if (r < 0) {
            Py_XDECREF(d);
            return NULL;
        }
    }
    if (!PyList_Check(d)) {
        Py_SETREF(d, PySequence_List(d));
        if (d == NULL) {
            return NULL;
        }
    }
    int hide = !(PyUnicode_GET_LENGTH(wrong_name) > 0 && PyUnicode_READ_CHAR(wrong_name, 0) == '_');
    PyFrameObject *frame = hide ? last_frame(tb) : NULL;
    if (frame != NULL) {
        int r = self_is(frame, obj, NULL);
        if (r < 0) {
            Py_DECREF(d);
            return NULL;
        }
        if (r) {
            hide = 0;
        }
    }
    if (filter_names(&d, hide) < 0 || PyList_Sort(d) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *
import_candidates(PyObject *exc, PyObject *wrong_name)
{
    PyObject *modname = ((PyImportErrorObject *)exc)->name;
    if (modname == NULL || !PyUnicode_Check(modname)) {
        return NULL;
    }
    PyObject *mod = PyImport_ImportModuleLevelObject(modname, NULL, NULL, NULL, 0);
    if (mod == NULL) {
        return NULL;
    }
    PyObject *d = PyObject_Dir(mod);
    Py_DECREF(mod);
    if (d == NULL) {
        return NULL;
    }
    int hide = !(PyUnicode_GET_LENGTH(wrong_name) > 0 && PyUnicode_READ_CHAR(wrong_name, 0) == '_');
    if (filter_names(&d, hide) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* For a NameError: the names visible in the frame that raised it; or,
   inside a method whose self has the attribute, "self.name". */
static PyObject *
name_candidates(PyObject *tb, PyObject *wrong_name, PyObject **self_hint)
{
    PyFrameObject *frame = last_frame(tb);
    if (frame == NULL) {
        return NULL;
    }
    PyObject *d = PyList_New(0);
    PyObject *locals = d ? PyFrame_GetLocals(frame) : NULL;
    if (locals == NULL || extend_with_keys(d, locals) < 0 ||
        extend_with_keys(d, frame->f_frame->f_globals) < 0 ||
        extend_with_keys(d, frame->f_frame->f_builtins) < 0) {
        Py_XDECREF(locals);
        Py_XDECREF(d);
        return NULL;
    }
    Py_DECREF(locals);
    PyObject *self = NULL;
    if (self_is(frame, NULL, &self) > 0 && self != NULL) {
        int has = PyObject_HasAttrWithError(self, wrong_name);
        Py_DECREF(self);
        if (has < 0) {
            PyErr_Clear();
        }
        else if (has) {
            *self_hint = PyUnicode_FromFormat("self.%U", wrong_name);
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

/* The suggestion text to append to the exception message, or NULL. */
static PyObject *
compute_suggestion(PyObject *exc, PyObject *tb, PyObject *wrong_name)
{
    if (wrong_name == NULL || !PyUnicode_Check(wrong_name)) {
        return NULL;
    }
    PyObject *candidates, *hint = NULL;
    if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_AttributeError)) {
        candidates = attribute_candidates(exc, tb, wrong_name);
    }
    else if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_ImportError)) {
        candidates = import_candidates(exc, wrong_name);
    }
    else {
        candidates = name_candidates(tb, wrong_name, &hint);
    }
    if (hint != NULL) {
        return hint;
    }
    if (candidates == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *best = NULL;
    if (PyUnicode_GET_LENGTH(wrong_name) <= MAX_STRING_SIZE) {
        best = closest_name(candidates, wrong_name);
    }
    Py_DECREF(candidates);
    return best;
}

/* "Did you mean: 'x'?" and "Did you forget to import 'sys'?" additions. */
static void
add_suggestions(PyObject *exc, PyObject *tb, PyObject **str)
{
    PyObject *wrong_name = NULL;
    int is_name_error = 0;
    if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_ImportError)) {
        wrong_name = ((PyImportErrorObject *)exc)->name_from;
    }
    else if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_NameError)) {
        wrong_name = ((PyNameErrorObject *)exc)->name;
        is_name_error = 1;
    }
    else if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_AttributeError)) {
        wrong_name = ((PyAttributeErrorObject *)exc)->name;
    }
    if (wrong_name == NULL || wrong_name == Py_None) {
        return;
    }
    Py_INCREF(wrong_name);
    PyObject *suggestion = compute_suggestion(exc, tb, wrong_name);
    PyErr_Clear();
    if (suggestion != NULL) {
        PyObject *s = PyUnicode_FromFormat("%U. Did you mean: '%U'?", *str, suggestion);
        if (s != NULL) {
            Py_SETREF(*str, s);
        }
        PyErr_Clear();
    }
    if (is_name_error && PyUnicode_Check(wrong_name)) {
        PyObject *stdlib = PySys_GetObject("stdlib_module_names");
        int in_stdlib = stdlib != NULL ? PySequence_Contains(stdlib, wrong_name) : 0;
        if (in_stdlib > 0) {
            PyObject *s = PyUnicode_FromFormat(suggestion ? "%U Or did you forget to import '%U'?"
                                                          : "%U. Did you forget to import '%U'?",
                                               *str, wrong_name);
            if (s != NULL) {
                Py_SETREF(*str, s);
            }
        }
        PyErr_Clear();
    }
    Py_XDECREF(suggestion);
    Py_DECREF(wrong_name);
}

/* ==== Exceptions ====================================================================== */

/* The tree of what to print: an exception, the cause or context shown
   before it, and, for a group, its members.  Built once, like
   TracebackException, so that an exception appears only once. */
typedef struct te {
    PyObject *exc; /* strong */
    struct te *cause, *context;
    struct te **excs;
    Py_ssize_t nexcs; /* -1 when not a group */
    int suppress_context;
} te;

/* Iterative: a chain of contexts can be far longer than the C stack. */
static void
te_free(te *root)
{
    Py_ssize_t cap = 16, sp = 0;
    te **stack = PyMem_Malloc(sizeof(te *) * (size_t)cap);
    if (stack == NULL || root == NULL) {
        PyMem_Free(stack);
        return;
    }
    stack[sp++] = root;
    while (sp > 0) {
        te *node = stack[--sp];
        Py_ssize_t need = sp + 2 + (node->nexcs > 0 ? node->nexcs : 0);
        if (need > cap) {
            while (cap < need) {
                cap *= 2;
            }
            te **ns = PyMem_Realloc(stack, sizeof(te *) * (size_t)cap);
            if (ns == NULL) {
                break;
            }
            stack = ns;
        }
        if (node->cause != NULL) {
            stack[sp++] = node->cause;
        }
        if (node->context != NULL) {
            stack[sp++] = node->context;
        }
        for (Py_ssize_t i = 0; i < node->nexcs; i++) {
            if (node->excs[i] != NULL) {
                stack[sp++] = node->excs[i];
            }
        }
        PyMem_Free(node->excs);
        Py_XDECREF(node->exc);
        PyMem_Free(node);
    }
    PyMem_Free(stack);
}

static int
seen_add(PyObject *seen, PyObject *exc)
{
    PyObject *id = PyLong_FromVoidPtr(exc);
    if (id == NULL) {
        return -1;
    }
    int r = PySet_Add(seen, id);
    Py_DECREF(id);
    return r;
}

static int
seen_has(PyObject *seen, PyObject *exc)
{
    PyObject *id = PyLong_FromVoidPtr(exc);
    if (id == NULL) {
        return -1;
    }
    int r = PySet_Contains(seen, id);
    Py_DECREF(id);
    return r;
}

static te *
te_new(PyObject *seen, PyObject *exc)
{
    te *node = PyMem_Calloc(1, sizeof(te));
    if (node == NULL) {
        return NULL;
    }
    node->exc = Py_NewRef(exc);
    node->nexcs = -1;
    node->suppress_context = ((PyBaseExceptionObject *)exc)->suppress_context;
    if (seen_add(seen, exc) < 0) {
        te_free(node);
        return NULL;
    }
    return node;
}

static te *
build_tree(PyObject *seen, PyObject *root_exc)
{
    te *root = te_new(seen, root_exc);
    if (root == NULL) {
        return NULL;
    }
    Py_ssize_t cap = 16, sp = 0;
    te **stack = PyMem_Malloc(sizeof(te *) * (size_t)cap);
    if (stack == NULL) {
        te_free(root);
        return NULL;
    }
    stack[sp++] = root;
    while (sp > 0) {
        te *node = stack[--sp];
        PyObject *e = node->exc;
        PyObject *cause = ((PyBaseExceptionObject *)e)->cause;
        PyObject *context = ((PyBaseExceptionObject *)e)->context;
        if (cause != NULL && seen_has(seen, cause) == 0) {
            node->cause = te_new(seen, cause);
        }
        if (node->cause == NULL && !node->suppress_context && context != NULL &&
            seen_has(seen, context) == 0) {
            node->context = te_new(seen, context);
        }
        if (_PyBaseExceptionGroup_Check(e)) {
            PyObject *excs = ((PyBaseExceptionGroupObject *)e)->excs;
            Py_ssize_t n = excs != NULL ? PyTuple_GET_SIZE(excs) : 0;
            node->excs = PyMem_Calloc((size_t)(n + 1), sizeof(te *));
            node->nexcs = node->excs != NULL ? n : 0;
            for (Py_ssize_t i = 0; i < node->nexcs; i++) {
                node->excs[i] = te_new(seen, PyTuple_GET_ITEM(excs, i));
            }
        }
        Py_ssize_t need = sp + 2 + (node->nexcs > 0 ? node->nexcs : 0);
        if (need > cap) {
            while (cap < need) {
                cap *= 2;
            }
            te **ns = PyMem_Realloc(stack, sizeof(te *) * (size_t)cap);
            if (ns == NULL) {
                break;
            }
            stack = ns;
        }
        if (node->cause) {
            stack[sp++] = node->cause;
        }
        if (node->context) {
            stack[sp++] = node->context;
        }
        for (Py_ssize_t i = 0; i < node->nexcs; i++) {
            if (node->excs[i]) {
                stack[sp++] = node->excs[i];
            }
        }
    }
    PyMem_Free(stack);
    PyErr_Clear();
    return root;
}

/* str(obj) as UTF-8 into out, or "<what str() failed>". */
static PyObject *
safe_str(PyObject *obj, const char *what, int use_repr)
{
    PyObject *s = use_repr ? PyObject_Repr(obj) : PyObject_Str(obj);
    if (s == NULL || !PyUnicode_Check(s)) {
        PyErr_Clear();
        Py_XDECREF(s);
        return PyUnicode_FromFormat("<%s %s() failed>", what, use_repr ? "repr" : "str");
    }
    return s;
}

/* "ValueError", or "module.QualName" outside builtins and __main__. */
static PyObject *
exception_type_name(PyTypeObject *type)
{
    PyObject *qualname = PyType_GetQualName(type);
    if (qualname == NULL) {
        PyErr_Clear();
        qualname = PyUnicode_FromString(_PyType_Name(type));
        if (qualname == NULL) {
            return NULL;
        }
    }
    PyObject *module = PyObject_GetAttrString((PyObject *)type, "__module__");
    if (module == NULL) {
        PyErr_Clear();
    }
    if (module != NULL && PyUnicode_Check(module) &&
        (PyUnicode_EqualToUTF8(module, "__main__") || PyUnicode_EqualToUTF8(module, "builtins"))) {
        Py_DECREF(module);
        return qualname;
    }
    PyObject *res = PyUnicode_FromFormat("%s.%U",
                                         module != NULL && PyUnicode_Check(module)
                                             ? PyUnicode_AsUTF8(module)
                                             : "<unknown>",
                                         qualname);
    Py_XDECREF(module);
    Py_DECREF(qualname);
    return res;
}

static int
as_int(PyObject *v, long *out)
{
    if (v == NULL || !PyLong_Check(v)) {
        return 0;
    }
    int overflow;
    *out = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow || (*out == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* str() of a SyntaxError attribute for the "line N" part ("None" if unset). */
static PyObject *
attr_str(PyObject *v)
{
    return PyObject_Str(v != NULL ? v : Py_None);
}

/* The SyntaxError layout: where, the line, the carets, the message. */
static void
format_syntax_error(sbuf *out, PySyntaxErrorObject *se, PyObject *stype)
{
    PyObject *filename_suffix = NULL;
    if (se->lineno != NULL && se->lineno != Py_None) {
        PyObject *lineno = attr_str(se->lineno);
        sb_puts(out, "  File \"");
        if (se->filename != NULL && PyObject_IsTrue(se->filename) > 0) {
            PyObject *f = PyObject_Str(se->filename);
            if (f != NULL) {
                sb_put_str(out, f);
                Py_DECREF(f);
            }
        }
        else {
            sb_puts(out, "<string>");
        }
        sb_puts(out, "\", line ");
        if (lineno != NULL) {
            sb_put_str(out, lineno);
            Py_DECREF(lineno);
        }
        sb_puts(out, "\n");
    }
    else if (se->filename != NULL && se->filename != Py_None) {
        filename_suffix = PyUnicode_FromFormat(" (%S)", se->filename);
    }
    PyErr_Clear();
    if (se->text != NULL && PyUnicode_Check(se->text)) {
        ustr text;
        Py_ssize_t n;
        const char *u = PyUnicode_AsUTF8AndSize(se->text, &n);
        if (u != NULL && ustr_decode(&text, u, n) == 0) {
            Py_ssize_t rlen = text.len;
            while (rlen > 0 && text.cp[rlen - 1] == '\n') {
                rlen--;
            }
            Py_ssize_t spaces = 0;
            while (spaces < rlen &&
                   (text.cp[spaces] == ' ' || text.cp[spaces] == '\n' || text.cp[spaces] == '\f')) {
                spaces++;
            }
            const Py_UCS4 *ltext = text.cp + spaces;
            Py_ssize_t llen = rlen - spaces;
            long offset, end_offset;
            if (se->offset == NULL || se->offset == Py_None) {
                sb_puts(out, "    ");
                sb_put_ucs(out, ltext, llen);
                sb_puts(out, "\n");
            }
            else if (as_int(se->offset, &offset)) {
                PyObject *l1 = attr_str(se->lineno), *l2 = attr_str(se->end_lineno);
                int same_line = l1 && l2 && PyObject_RichCompareBool(l1, l2, Py_EQ) == 1;
                Py_XDECREF(l1);
                Py_XDECREF(l2);
                PyErr_Clear();
                if (same_line) {
                    if (!as_int(se->end_offset, &end_offset) || end_offset == 0) {
                        end_offset = offset;
                    }
                }
                else {
                    end_offset = (long)rlen + 1;
                }
                if (text.len > 0 && offset > text.len) {
                    offset = (long)rlen + 1;
                }
                if (text.len > 0 && end_offset > text.len) {
                    end_offset = (long)rlen + 1;
                }
                if (offset >= end_offset || end_offset < 0) {
                    end_offset = offset + 1;
                }
                long colno = offset - 1 - (long)spaces;
                long end_colno = end_offset - 1 - (long)spaces;
                sb_puts(out, "    ");
                sb_put_ucs(out, ltext, llen);
                sb_puts(out, "\n");
                if (colno >= 0) {
                    sb_puts(out, "    ");
                    for (long i = 0; i < colno; i++) {
                        Py_UCS4 c = i < llen ? ltext[i] : ' ';
                        if (py_isspace(c)) {
                            sb_put_ucs(out, &c, 1);
                        }
                        else {
                            sb_puts(out, " ");
                        }
                    }
                    sb_repeat(out, '^', end_colno - colno);
                    sb_puts(out, "\n");
                }
            }
            ustr_free(&text);
        }
        PyErr_Clear();
    }
    sb_put_str(out, stype);
    sb_puts(out, ": ");
    int msg_true = se->msg != NULL ? PyObject_IsTrue(se->msg) : 0;
    PyErr_Clear();
    if (msg_true > 0) {
        PyObject *m = safe_str(se->msg, "exception", 0);
        if (m != NULL) {
            sb_put_str(out, m);
            Py_DECREF(m);
        }
    }
    else {
        sb_puts(out, "<no detail available>");
    }
    if (filename_suffix != NULL) {
        sb_put_str(out, filename_suffix);
        Py_DECREF(filename_suffix);
    }
    sb_puts(out, "\n");
}

static void
put_lines_of(sbuf *out, PyObject *s)
{
    /* each line of s followed by "\n" */
    sb_put_str(out, s);
    sb_puts(out, "\n");
}

/* The final line(s) of an exception: "Type: message" (or the SyntaxError
   layout), then its notes. */
static void
format_exception_only(sbuf *out, PyObject *exc)
{
    PyObject *stype = exception_type_name(Py_TYPE(exc));
    if (stype == NULL) {
        PyErr_Clear();
        return;
    }
    if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_SyntaxError)) {
        format_syntax_error(out, (PySyntaxErrorObject *)exc, stype);
    }
    else {
        PyObject *str = safe_str(exc, "exception", 0);
        if (str != NULL) {
            add_suggestions(exc, ((PyBaseExceptionObject *)exc)->traceback, &str);
        }
        sb_put_str(out, stype);
        if (str != NULL && PyUnicode_GET_LENGTH(str) > 0) {
            sb_puts(out, ": ");
            sb_put_str(out, str);
        }
        sb_puts(out, "\n");
        Py_XDECREF(str);
    }
    Py_DECREF(stype);

    PyObject *notes;
    int r = PyObject_GetOptionalAttrString(exc, "__notes__", &notes);
    if (r < 0) {
        PyObject *err = PyErr_GetRaisedException();
        PyObject *s = safe_str(err, "__notes__", 1);
        Py_XDECREF(err);
        if (s != NULL) {
            sb_puts(out, "Ignored error getting __notes__: ");
            put_lines_of(out, s);
            Py_DECREF(s);
        }
        return;
    }
    if (notes == NULL) {
        return;
    }
    if ((PyList_Check(notes) || PyTuple_Check(notes)) && !PyUnicode_Check(notes)) {
        PyObject *seq = PySequence_Tuple(notes);
        for (Py_ssize_t i = 0; seq != NULL && i < PyTuple_GET_SIZE(seq); i++) {
            PyObject *s = safe_str(PyTuple_GET_ITEM(seq, i), "note", 0);
            if (s != NULL) {
                put_lines_of(out, s);
                Py_DECREF(s);
            }
        }
        Py_XDECREF(seq);
    }
    else {
        PyObject *s = safe_str(notes, "__notes__", 1);
        if (s != NULL) {
            put_lines_of(out, s);
            Py_DECREF(s);
        }
    }
    Py_DECREF(notes);
    PyErr_Clear();
}

/* Copy `text` to the output with the group margin in front of each line:
   two spaces per group level, then "| " (or margin_char) inside groups. */
static void
emit(print_ctx *ctx, sbuf *text, char margin_char)
{
    sbuf *out = ctx->out;
    if (ctx->group_depth == 0) {
        sb_putn(out, text->buf ? text->buf : "", text->len);
        return;
    }
    size_t i = 0;
    while (i < text->len) {
        size_t j = i;
        while (j < text->len && text->buf[j] != '\n') {
            j++;
        }
        sb_repeat(out, ' ', 2 * ctx->group_depth);
        char margin[2] = {margin_char ? margin_char : '|', ' '};
        sb_putn(out, margin, 2);
        sb_putn(out, text->buf + i, j - i + (j < text->len ? 1 : 0));
        i = j + 1;
    }
}

static void
emit_str(print_ctx *ctx, const char *s, char margin_char)
{
    sbuf tmp = {NULL, 0, 0, 0};
    sb_puts(&tmp, s);
    emit(ctx, &tmp, margin_char);
    PyMem_Free(tmp.buf);
}

#define MAX_GROUP_WIDTH 15
#define MAX_GROUP_DEPTH 10

static void format_te(print_ctx *ctx, te *node);

static void
format_one(print_ctx *ctx, te *exc)
{
    PyObject *tb = ((PyBaseExceptionObject *)exc->exc)->traceback;
    Py_ssize_t entries = 0;
    for (PyTracebackObject *p = (PyTracebackObject *)tb; p != NULL; p = p->tb_next) {
        entries++;
    }
    int has_stack = first_shown_entry(entries, 1) < entries;
    if (exc->nexcs < 0) {
        if (has_stack) {
            emit_str(ctx, "Traceback (most recent call last):\n", 0);
            sbuf tmp = {NULL, 0, 0, 0};
            format_stack(ctx, &tmp, (PyTracebackObject *)tb, 1);
            emit(ctx, &tmp, 0);
            PyMem_Free(tmp.buf);
        }
        sbuf tmp = {NULL, 0, 0, 0};
        format_exception_only(&tmp, exc->exc);
        emit(ctx, &tmp, 0);
        PyMem_Free(tmp.buf);
        return;
    }
    if (ctx->group_depth > MAX_GROUP_DEPTH) {
        char buf[64];
        snprintf(buf, sizeof(buf), "... (max_group_depth is %d)\n", MAX_GROUP_DEPTH);
        emit_str(ctx, buf, 0);
        return;
    }
    int toplevel = ctx->group_depth == 0;
    if (toplevel) {
        ctx->group_depth++;
    }
    if (has_stack) {
        emit_str(ctx, "Exception Group Traceback (most recent call last):\n", toplevel ? '+' : 0);
        sbuf tmp = {NULL, 0, 0, 0};
        format_stack(ctx, &tmp, (PyTracebackObject *)tb, 1);
        emit(ctx, &tmp, 0);
        PyMem_Free(tmp.buf);
    }
    sbuf tmp = {NULL, 0, 0, 0};
    format_exception_only(&tmp, exc->exc);
    emit(ctx, &tmp, 0);
    PyMem_Free(tmp.buf);
    Py_ssize_t num = exc->nexcs;
    Py_ssize_t n = num <= MAX_GROUP_WIDTH ? num : MAX_GROUP_WIDTH + 1;
    ctx->need_close = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int last = i == n - 1;
        if (last) {
            ctx->need_close = 1;
        }
        int truncated = i >= MAX_GROUP_WIDTH;
        sb_repeat(ctx->out, ' ', 2 * ctx->group_depth);
        sb_puts(ctx->out, i == 0 ? "+-" : "  ");
        if (truncated) {
            sb_puts(ctx->out, "+---------------- ... ----------------\n");
        }
        else {
            sb_printf(ctx->out, "+---------------- %zd ----------------\n", i + 1);
        }
        ctx->group_depth++;
        if (!truncated) {
            if (exc->excs[i] != NULL) {
                format_te(ctx, exc->excs[i]);
            }
        }
        else {
            Py_ssize_t remaining = num - MAX_GROUP_WIDTH;
            char buf[80];
            snprintf(buf, sizeof(buf), "and %zd more exception%s\n", remaining,
                     remaining > 1 ? "s" : "");
            emit_str(ctx, buf, 0);
        }
        if (last && ctx->need_close) {
            sb_repeat(ctx->out, ' ', 2 * ctx->group_depth);
            sb_puts(ctx->out, "+------------------------------------\n");
            ctx->need_close = 0;
        }
        ctx->group_depth--;
    }
    if (toplevel) {
        ctx->group_depth = 0;
    }
}

/* An exception with its chain: oldest cause or context first. */
static void
format_te(print_ctx *ctx, te *node)
{
    Py_ssize_t n = 0, cap = 8;
    te **chain = PyMem_Malloc(sizeof(te *) * (size_t)cap);
    const char **msgs = PyMem_Malloc(sizeof(char *) * (size_t)cap);
    if (chain == NULL || msgs == NULL) {
        PyMem_Free(chain);
        PyMem_Free(msgs);
        return;
    }
    for (te *exc = node; exc != NULL;) {
        const char *msg = NULL;
        te *next = NULL;
        if (exc->cause != NULL) {
            msg = "\nThe above exception was the direct cause of the following exception:\n\n";
            next = exc->cause;
        }
        else if (exc->context != NULL && !exc->suppress_context) {
            msg = "\nDuring handling of the above exception, another exception occurred:\n\n";
            next = exc->context;
        }
        if (n == cap) {
            cap *= 2;
            te **nc = PyMem_Realloc(chain, sizeof(te *) * (size_t)cap);
            const char **nm = nc ? PyMem_Realloc(msgs, sizeof(char *) * (size_t)cap) : NULL;
            if (nc != NULL) {
                chain = nc;
            }
            if (nm == NULL) {
                break;
            }
            msgs = nm;
        }
        chain[n] = exc;
        msgs[n] = msg;
        n++;
        exc = next;
    }
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        if (msgs[i] != NULL) {
            emit_str(ctx, msgs[i], 0);
        }
        format_one(ctx, chain[i]);
    }
    PyMem_Free(chain);
    PyMem_Free(msgs);
}

/* Render `value` into out; returns -1 on failure with an exception set. */
static int
render_exception(sbuf *out, PyObject *value)
{
    if (!PyExceptionInstance_Check(value)) {
        sb_printf(out, "TypeError: print_exception(): Exception expected for value, %s found\n",
                  Py_TYPE(value)->tp_name);
        return 0;
    }
    print_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.out = out;
    ctx.seen = PySet_New(NULL);
    if (ctx.seen == NULL) {
        return -1;
    }
    te *root = build_tree(ctx.seen, value);
    if (root != NULL) {
        format_te(&ctx, root);
        te_free(root);
    }
    srccache_clear(&ctx.cache);
    Py_DECREF(ctx.seen);
    if (out->failed) {
        PyErr_NoMemory();
        return -1;
    }
    return root != NULL ? 0 : -1;
}

static void
write_out(PyObject *file, sbuf *out)
{
    if (out->len == 0) {
        return;
    }
    if (file == NULL || file == Py_None) {
        fwrite(out->buf, 1, out->len, stderr);
        fflush(stderr);
        return;
    }
    PyObject *s = PyUnicode_DecodeUTF8(out->buf, (Py_ssize_t)out->len, "replace");
    if (s == NULL || PyFile_WriteObject(s, file, Py_PRINT_RAW) < 0) {
        PyErr_Clear();
    }
    Py_XDECREF(s);
    PyObject *r = PyObject_CallMethod(file, "flush", NULL);
    Py_XDECREF(r);
    PyErr_Clear();
}

/* Once the stdlib loads, uncaught exceptions print through traceback.py
   (as 3.13+ does), so its colours, suggestions and formats are the
   reference; the C renderer below is the fallback for when it cannot
   load or itself fails.  1 when printed. */
static int
print_with_stdlib(PyObject *file, PyObject *value)
{
    static int busy = 0; /* an error while printing one: use C */
    PyInterpreterState *interp = _PyInterpreterState_GET();
    if (busy || interp->finalizing || interp->importlib == NULL ||
        file != PySys_GetObject("stderr")) {
        return 0;
    }
    busy = 1;
    PyObject *print = _PyImport_GetModuleAttrString("traceback", "_print_exception_bltin");
    PyObject *res = print != NULL ? PyObject_CallOneArg(print, value) : NULL;
    busy = 0;
    Py_XDECREF(print);
    if (res == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(res);
    return 1;
}

void
_PyErr_Display(PyObject *file, PyObject *exception, PyObject *value, PyObject *tb)
{
    (void)exception;
    PyObject *pending = PyErr_GetRaisedException();
    if (value == NULL) {
        PyErr_SetRaisedException(pending);
        return;
    }
    Py_INCREF(value);
    if (PyExceptionInstance_Check(value) && tb != NULL && PyTraceBack_Check(tb) &&
        ((PyBaseExceptionObject *)value)->traceback == NULL) {
        (void)PyException_SetTraceback(value, tb);
    }
    if (!print_with_stdlib(file, value)) {
        sbuf out = {NULL, 0, 0, 0};
        if (render_exception(&out, value) < 0) {
            PyErr_Clear();
        }
        write_out(file, &out);
        PyMem_Free(out.buf);
    }
    Py_DECREF(value);
    PyErr_SetRaisedException(pending);
}

PyObject *
_PyErr_FormatException(PyObject *value)
{
    sbuf out = {NULL, 0, 0, 0};
    PyObject *res = NULL;
    if (render_exception(&out, value) == 0) {
        res = PyUnicode_DecodeUTF8(out.buf ? out.buf : "", (Py_ssize_t)out.len, "replace");
    }
    PyMem_Free(out.buf);
    return res;
}

int
_PyTraceBack_Print(PyObject *tb, PyObject *file)
{
    if (tb == NULL) {
        return 0;
    }
    if (!PyTraceBack_Check(tb)) {
        PyErr_BadInternalCall();
        return -1;
    }
    print_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    sbuf out = {NULL, 0, 0, 0};
    ctx.out = &out;
    sb_puts(&out, "Traceback (most recent call last):\n");
    format_stack(&ctx, &out, (PyTracebackObject *)tb, 0);
    srccache_clear(&ctx.cache);
    int r = 0;
    if (out.failed) {
        PyErr_NoMemory();
        r = -1;
    }
    else if (file == NULL || file == Py_None) {
        fwrite(out.buf, 1, out.len, stderr);
    }
    else {
        PyObject *s = PyUnicode_DecodeUTF8(out.buf, (Py_ssize_t)out.len, "replace");
        r = s == NULL ? -1 : PyFile_WriteObject(s, file, Py_PRINT_RAW);
        Py_XDECREF(s);
    }
    PyMem_Free(out.buf);
    return r;
}

int
PyTraceBack_Print(PyObject *v, PyObject *f)
{
    return _PyTraceBack_Print(v, f);
}

int
_Py_DisplaySourceLine(PyObject *f, PyObject *filename, int lineno, int indent, int *truncation,
                      PyObject **line)
{
    (void)truncation;
    if (line != NULL) {
        *line = NULL;
    }
    srccache cache;
    memset(&cache, 0, sizeof(cache));
    const char *p;
    Py_ssize_t n;
    source_line(&cache, filename, lineno, &p, &n);
    PyObject *text = n > 0 ? PyUnicode_DecodeUTF8(p, n, "replace") : NULL;
    srccache_clear(&cache);
    if (text == NULL) {
        PyErr_Clear();
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), a = 0, b = len;
    while (a < b && py_isspace(PyUnicode_READ_CHAR(text, a))) {
        a++;
    }
    while (b > a && py_isspace(PyUnicode_READ_CHAR(text, b - 1))) {
        b--;
    }
    Py_SETREF(text, PyUnicode_Substring(text, a, b));
    if (text == NULL) {
        return -1;
    }
    int r = 0;
    if (f != NULL) {
        char spaces[64];
        int k = indent < 63 ? indent : 63;
        memset(spaces, ' ', (size_t)k);
        spaces[k] = '\0';
        if (PyFile_WriteString(spaces, f) < 0 || PyFile_WriteObject(text, f, Py_PRINT_RAW) < 0 ||
            PyFile_WriteString("\n", f) < 0) {
            r = -1;
        }
    }
    if (line != NULL && r == 0) {
        *line = text;
    }
    else {
        Py_DECREF(text);
    }
    return r;
}
