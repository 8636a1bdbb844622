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

/* A new entry in front of `next` (either may be NULL). */
static PyObject *
tb_create(PyTracebackObject *next, PyFrameObject *frame, int lasti, int lineno)
{
    PyTracebackObject *entry = PyObject_GC_New(PyTracebackObject, &PyTraceBack_Type);
    if (entry != NULL) {
        *entry = (PyTracebackObject){
            .ob_base = entry->ob_base,
            .tb_next = next ? (PyTracebackObject *)Py_NewRef((PyObject *)next) : NULL,
            .tb_frame = frame ? (PyFrameObject *)Py_NewRef((PyObject *)frame) : NULL,
            .tb_lasti = lasti,
            .tb_lineno = lineno,
        };
        PyObject_GC_Track(entry);
    }
    return (PyObject *)entry;
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

/* Put an entry for `frame` in front of the traceback of `exc`. */
static int
prepend_entry(PyObject *exc, PyFrameObject *frame)
{
    PyObject *older = PyException_GetTraceback(exc);
    PyObject *entry = _PyTraceBack_FromFrame(older, frame);
    Py_XDECREF(older);
    if (entry == NULL) {
        return -1;
    }
    int err = PyException_SetTraceback(exc, entry);
    Py_DECREF(entry);
    return err;
}

int
PyTraceBack_Here(PyFrameObject *frame)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return 0;
    }
    if (prepend_entry(exc, frame) < 0) {
        _PyErr_ChainExceptions1(exc); /* the new error, with exc as its context */
        return -1;
    }
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

void
_PyTraceBack_Fini(void)
{
    Py_CLEAR(registered_sources);
}

/* Line `lineno` (1-based) of an open file, decoded as UTF-8, or NULL. */
static PyObject *
nth_line_of_file(FILE *fp, int lineno)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t got = -1;
    for (int n = 0; n < lineno; n++) {
        got = getline(&buf, &cap, fp);
        if (got < 0) {
            break;
        }
    }
    PyObject *line = got >= 0 ? PyUnicode_DecodeUTF8(buf, got, "replace") : NULL;
    free(buf);
    return line;
}

/* The file by name; for a relative name, under each sys.path entry as
   linecache does.  NULL (no exception) when none opens. */
static FILE *
open_source(PyObject *filename)
{
    PyObject *fsname = PyUnicode_EncodeFSDefault(filename);
    if (fsname == NULL) {
        return NULL;
    }
    const char *path = PyBytes_AS_STRING(fsname);
    FILE *fp = fopen(path, "rb");
    PyObject *syspath = (fp == NULL && path[0] != '/') ? PySys_GetObject("path") : NULL;
    Py_ssize_t n = syspath != NULL && PyList_Check(syspath) ? PyList_GET_SIZE(syspath) : 0;
    for (Py_ssize_t i = 0; fp == NULL && i < n; i++) {
        PyObject *dir = PyList_GET_ITEM(syspath, i);
        PyObject *full = PyUnicode_Check(dir) ? PyUnicode_FromFormat("%U/%s", dir, path) : NULL;
        PyObject *fsfull = full ? PyUnicode_EncodeFSDefault(full) : NULL;
        if (fsfull != NULL) {
            fp = fopen(PyBytes_AS_STRING(fsfull), "rb");
        }
        Py_XDECREF(fsfull);
        Py_XDECREF(full);
        PyErr_Clear();
    }
    Py_DECREF(fsname);
    return fp;
}

static PyObject *
registered_line(PyObject *filename, int lineno)
{
    PyObject *source = NULL;
    if (registered_sources == NULL ||
        PyDict_GetItemRef(registered_sources, filename, &source) <= 0 || !PyUnicode_Check(source)) {
        Py_XDECREF(source);
        return NULL;
    }
    PyObject *lines = PyUnicode_Splitlines(source, 0);
    Py_DECREF(source);
    PyObject *line = NULL;
    if (lines != NULL && lineno <= PyList_GET_SIZE(lines)) {
        line = Py_NewRef(PyList_GET_ITEM(lines, lineno - 1));
    }
    Py_XDECREF(lines);
    return line;
}

PyObject *
_PyTraceBack_SourceLine(PyObject *filename, int lineno)
{
    if (filename == NULL || !PyUnicode_Check(filename) || lineno < 1) {
        return NULL;
    }
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *line = NULL;
    FILE *fp = open_source(filename);
    if (fp != NULL) {
        line = nth_line_of_file(fp, lineno);
        fclose(fp);
    }
    if (line == NULL) {
        PyErr_Clear();
        line = registered_line(filename, lineno);
    }
    PyObject *stripped = line ? PyObject_CallMethod(line, "strip", NULL) : NULL;
    Py_XDECREF(line);
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
    return stripped;
}

/* ==== The C rendering of traceback entries ======================================

   Used by PyTraceBack_Print and, through it, by the fallback exception
   display in Python/pythonrun.c when the traceback module cannot be used
   (no stdlib, finalization, or an error while it prints).  Plain entries
   only: no carets, which need the expression's structure. */

/* sys.tracebacklimit: how many of the innermost entries to show (-1: all). */
static Py_ssize_t
entry_limit(void)
{
    PyObject *limit = PySys_GetObject("tracebacklimit");
    if (limit == NULL || !PyLong_Check(limit)) {
        return -1;
    }
    Py_ssize_t n = PyLong_AsSsize_t(limit);
    if (n == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return PY_SSIZE_T_MAX;
    }
    return n < 0 ? 0 : n;
}

/* Entries are collected as str pieces in a list, joined at the end. */
static int
add_piece(PyObject *pieces, PyObject *piece)
{
    int err = piece == NULL || PyList_Append(pieces, piece) < 0;
    Py_XDECREF(piece);
    return err ? -1 : 0;
}

static int
add_entry(PyObject *pieces, PyTracebackObject *tb)
{
    PyCodeObject *code = PyFrame_GetCode(tb->tb_frame);
    int lineno = tb->tb_lineno >= 0 ? tb->tb_lineno : PyCode_Addr2Line(code, tb->tb_lasti);
    PyObject *src = _PyTraceBack_SourceLine(code->co_filename, lineno);
    int err = add_piece(pieces, PyUnicode_FromFormat("  File \"%U\", line %d, in %U\n",
                                                     code->co_filename, lineno, code->co_name));
    if (!err && src != NULL && PyUnicode_GET_LENGTH(src) > 0) {
        err = add_piece(pieces, PyUnicode_FromFormat("    %U\n", src));
    }
    Py_DECREF(code);
    Py_XDECREF(src);
    return err;
}

/* Same place as the previous entry: folded into a count, as traceback.py
   does after three repetitions. */
static int
same_place(PyTracebackObject *a, PyTracebackObject *b)
{
    if (a == NULL || b == NULL) {
        return 0;
    }
    PyCodeObject *ca = PyFrame_GetCode(a->tb_frame), *cb = PyFrame_GetCode(b->tb_frame);
    int same = ca == cb && PyCode_Addr2Line(ca, a->tb_lasti) == PyCode_Addr2Line(cb, b->tb_lasti);
    Py_DECREF(ca);
    Py_DECREF(cb);
    return same;
}

static int
add_repeats(PyObject *pieces, Py_ssize_t extra)
{
    if (extra <= 0) {
        return 0;
    }
    return add_piece(pieces, PyUnicode_FromFormat("  [Previous line repeated %zd more time%s]\n",
                                                  extra, extra > 1 ? "s" : ""));
}

#define SHOWN_REPEATS 3

static int
add_entries(PyObject *pieces, PyTracebackObject *tb)
{
    Py_ssize_t depth = 0, limit = entry_limit();
    for (PyTracebackObject *t = tb; t != NULL; t = t->tb_next) {
        depth++;
    }
    for (; limit >= 0 && depth > limit; depth--) {
        tb = tb->tb_next;
    }
    /* `run` counts the entries in a row at the same place as `first`;
       past SHOWN_REPEATS they are only counted. */
    PyTracebackObject *first = NULL;
    Py_ssize_t run = 0;
    for (; tb != NULL; tb = tb->tb_next) {
        if (same_place(first, tb)) {
            run++;
        }
        else {
            if (add_repeats(pieces, run - SHOWN_REPEATS) < 0) {
                return -1;
            }
            first = tb;
            run = 1;
        }
        if (run <= SHOWN_REPEATS && add_entry(pieces, tb) < 0) {
            return -1;
        }
    }
    return add_repeats(pieces, run - SHOWN_REPEATS);
}

PyObject *
_PyTraceBack_Format(PyObject *tb)
{
    if (tb == NULL || !PyTraceBack_Check(tb)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyObject *pieces = PyList_New(0);
    if (pieces == NULL) {
        return NULL;
    }
    PyObject *text = NULL;
    if (add_piece(pieces, PyUnicode_FromString("Traceback (most recent call last):\n")) == 0 &&
        add_entries(pieces, (PyTracebackObject *)tb) == 0) {
        text = PyUnicode_Join(_PyUnicode_GetEmpty(), pieces);
    }
    Py_DECREF(pieces);
    return text;
}

int
_PyTraceBack_Print(PyObject *tb, PyObject *file)
{
    if (tb == NULL) {
        return 0;
    }
    PyObject *text = _PyTraceBack_Format(tb);
    int err = text == NULL || PyFile_WriteObject(text, file, Py_PRINT_RAW) < 0;
    Py_XDECREF(text);
    return err ? -1 : 0;
}

int
PyTraceBack_Print(PyObject *v, PyObject *f)
{
    return _PyTraceBack_Print(v, f);
}
