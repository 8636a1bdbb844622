/* The _tokenize module: Parser/tokenizer.c exposed to the tokenize module.

   TokenizerIter(readline, *, extra_tokens, encoding=None) reads every
   line from `readline` on the first step, hands the text to our tokenizer
   (in extra-tokens mode when asked) and yields
   (type, string, (srow, scol), (erow, ecol), line) tuples with columns in
   characters.  In extra-tokens mode operators are reported as OP, and an
   f-string middle is split after each doubled brace the way tokenize users
   expect ('a{{b' gives 'a{' and 'b'). */

#include "Python.h"
#include "pycore_object.h"
#include "../Parser/tokenizer.h"

typedef struct {
    PyObject_HEAD
    PyObject *readline;         /* dropped once the source is read */
    PyObject *encoding;         /* str or NULL: readline gives bytes */
    int extra;
    int finished;
    struct tok_state *tok;
    /* The source as read, for `line` fields and line ends: the
       tokenizer's copy has its line ends normalised to '\n'. */
    char *src;
    Py_ssize_t srclen;
    Py_ssize_t *src_lines;      /* src_lines[i]: offset of line i+1 */
    int src_nlines;
    Py_ssize_t nul_cut;         /* >= 0: a NUL is on the line starting here */
    /* Rest of an f-string middle still to be split and returned. */
    _PyToken mid;
    Py_ssize_t mid_pos;         /* -1: nothing pending */
} tokiter;

static PyTypeObject TokIterType;

/* ---- reading the source ------------------------------------------- */

/* Call readline until it is exhausted; returns the whole text as str. */
static PyObject *
read_all_lines(tokiter *it)
{
    PyObject *parts = PyList_New(0), *sep, *text = NULL;
    if (parts == NULL) {
        return NULL;
    }
    for (;;) {
        PyObject *line = PyObject_CallNoArgs(it->readline);
        int want_bytes = it->encoding != NULL;
        if (line == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_StopIteration)) {
                goto fail;
            }
            PyErr_Clear();
            break;
        }
        if (want_bytes ? !PyBytes_Check(line) : !PyUnicode_Check(line)) {
            PyErr_Format(PyExc_TypeError, "readline() returned a non-%s "
                         "object", want_bytes ? "bytes" : "string");
            Py_DECREF(line);
            goto fail;
        }
        if (PyObject_Length(line) == 0) {
            Py_DECREF(line);
            break;
        }
        if (PyList_Append(parts, line) < 0) {
            Py_DECREF(line);
            goto fail;
        }
        Py_DECREF(line);
    }
    if (it->encoding != NULL) {
        PyObject *raw;
        const char *enc = PyUnicode_AsUTF8(it->encoding);
        sep = PyBytes_FromStringAndSize("", 0);
        if (enc == NULL || sep == NULL) {
            Py_XDECREF(sep);
            goto fail;
        }
        raw = _PyBytes_Join(sep, parts);
        Py_DECREF(sep);
        if (raw == NULL) {
            goto fail;
        }
        text = PyUnicode_FromEncodedObject(raw, enc, "strict");
        Py_DECREF(raw);
    }
    else {
        sep = PyUnicode_FromString("");
        if (sep == NULL) {
            goto fail;
        }
        text = PyUnicode_Join(sep, parts);
        Py_DECREF(sep);
    }
fail:
    Py_DECREF(parts);
    return text;
}

/* Keep a copy of the source and where each of its lines starts ('\n',
   '\r\n' and a lone '\r' end a line, as in the tokenizer). */
static int
keep_source(tokiter *it, const char *utf8, Py_ssize_t n)
{
    Py_ssize_t i;
    int k = 0;
    it->src = (char *)PyMem_Malloc((size_t)n + 1);
    it->src_lines = (Py_ssize_t *)PyMem_Malloc(
        ((size_t)n + 2) * sizeof(Py_ssize_t));
    if (it->src == NULL || it->src_lines == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(it->src, utf8, (size_t)n + 1);
    it->srclen = n;
    it->src_lines[k++] = 0;
    for (i = 0; i < n; i++) {
        if (utf8[i] == '\n'
            || (utf8[i] == '\r' && (i + 1 == n || utf8[i + 1] != '\n'))) {
            it->src_lines[k++] = i + 1;
        }
    }
    it->src_nlines = k;
    return 0;
}

/* Offset in the kept source where line `row` starts (or its end). */
static Py_ssize_t
src_line_start(tokiter *it, int row)
{
    if (row < 1) {
        return 0;
    }
    return row <= it->src_nlines ? it->src_lines[row - 1] : it->srclen;
}

/* SyntaxError for a NUL at offset `nul`, on its line at offset 0. */
static void
raise_null_byte(const char *src, Py_ssize_t nul)
{
    Py_ssize_t i;
    int row = 1;
    PyObject *args;
    for (i = 0; i < nul; i++) {
        row += src[i] == '\n';
    }
    args = Py_BuildValue("(s(siisii))",
                         "source code cannot contain null bytes", "<string>",
                         row, 0, "", row, 0);
    if (args != NULL) {
        PyErr_SetObject(PyExc_SyntaxError, args);
        Py_DECREF(args);
    }
}

/* Read the source and set up the tokenizer; -1 with an exception. */
static int
start_tokenizer(tokiter *it)
{
    PyObject *text = read_all_lines(it), *name;
    const char *utf8;
    Py_ssize_t n;

    Py_CLEAR(it->readline);
    if (text == NULL) {
        return -1;
    }
    utf8 = PyUnicode_AsUTF8AndSize(text, &n);
    if (utf8 == NULL) {
        Py_DECREF(text);
        return -1;
    }
    name = PyUnicode_FromString("<string>");
    if (name == NULL || keep_source(it, utf8, n) < 0) {
        Py_XDECREF(name);
        Py_DECREF(text);
        return -1;
    }
    Py_DECREF(text);
    if ((Py_ssize_t)strlen(it->src) != n) {
        /* Tokens before the line with the NUL still come out (as when
           reading line by line); the error is raised on reaching it. */
        Py_ssize_t cut = (Py_ssize_t)strlen(it->src);
        char saved;
        while (cut > 0 && it->src[cut - 1] != '\n'
               && it->src[cut - 1] != '\r') {
            cut--;
        }
        it->nul_cut = cut;
        saved = it->src[cut];
        it->src[cut] = '\0';
        it->tok = _PyTokenizer_FromString(it->src, 1, name);
        it->src[cut] = saved;
    }
    else {
        it->tok = _PyTokenizer_FromString(it->src, 1, name);
    }
    Py_DECREF(name);
    if (it->tok == NULL) {
        return -1;
    }
    it->tok->extra_tokens = it->extra;
    return 0;
}

/* ---- building tuples ---------------------------------------------- */

/* The line holding byte offset `off`, by binary search of the line table. */
static int
line_of(struct tok_state *tok, Py_ssize_t off)
{
    int lo = 0, hi = tok->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (tok->lines[mid] <= off) {
            lo = mid;
        }
        else {
            hi = mid - 1;
        }
    }
    return lo + 1;
}

/* (row, character column) for a byte column on a row. */
static PyObject *
position(struct tok_state *tok, int row, int col)
{
    return Py_BuildValue("(ii)", row,
                         _PyTokenizer_CharOffset(tok, row, col) - 1);
}

/* Fill the location fields of `t` from its byte offsets. */
static void
locate(struct tok_state *tok, _PyToken *t)
{
    t->lineno = line_of(tok, t->start);
    t->col_offset = (int)(t->start - _PyTokenizer_LineStart(tok, t->lineno));
    t->end_lineno = line_of(tok, t->end);
    t->end_col_offset = (int)(t->end - _PyTokenizer_LineStart(tok,
                                                              t->end_lineno));
}

/* The physical lines first..last as they were read. */
static PyObject *
lines_text(tokiter *it, int first, int last)
{
    Py_ssize_t s = src_line_start(it, first);
    Py_ssize_t e = src_line_start(it, last + 1);
    return PyUnicode_DecodeUTF8(it->src + s, e - s, "replace");
}

static PyObject *
make_tuple(tokiter *it, const _PyToken *t)
{
    struct tok_state *tok = it->tok;
    PyObject *str, *spos, *epos, *line;
    int type = t->type, end_col = t->end_col_offset;
    Py_ssize_t start = t->start, tstart = t->start, tend = t->end;

    if (type == NEWLINE || type == NL) {
        /* The line end as written: '\r\n' stays, an implied one is ''. */
        tstart = src_line_start(it, t->lineno) + t->col_offset;
        tend = src_line_start(it, t->lineno + 1);
        if (tstart > tend) {
            tstart = tend;
        }
        if (tend - tstart > 1) {
            end_col = t->col_offset + (int)(tend - tstart);
        }
        str = PyUnicode_DecodeUTF8(it->src + tstart, tend - tstart,
                                   "replace");
    }
    else {
        if (type == ENDMARKER || type == DEDENT) {
            tend = tstart;
        }
        str = PyUnicode_DecodeUTF8(tok->buf + tstart, tend - tstart,
                                   "replace");
    }
    spos = position(tok, t->lineno, t->col_offset);
    epos = position(tok, t->end_lineno, end_col);
    line = (type == ENDMARKER || (type == DEDENT && start >= tok->len))
           ? PyUnicode_FromString("")
           : lines_text(it, t->lineno, t->end_lineno);
    if (str == NULL || spos == NULL || epos == NULL || line == NULL) {
        Py_XDECREF(str);
        Py_XDECREF(spos);
        Py_XDECREF(epos);
        Py_XDECREF(line);
        return NULL;
    }
    if (it->extra && type > DEDENT && type < OP) {
        type = OP;
    }
    return Py_BuildValue("(iNNNN)", type, str, spos, epos, line);
}

/* Next piece of the pending f-string middle: up to and including the
   first brace of a doubled pair, whose second brace is skipped. */
static PyObject *
next_middle_piece(tokiter *it)
{
    struct tok_state *tok = it->tok;
    const char *b = tok->buf;
    Py_ssize_t p = it->mid_pos, e = it->mid.end, cut = -1, next = -1;
    _PyToken piece;
    int raw = tok->nmodes > 0 && tok->modes[tok->nmodes - 1].raw;

    while (p < e) {
        if (!raw && b[p] == '\\' && p + 2 < e && b[p + 1] == 'N'
            && b[p + 2] == '{') {
            /* a \N{...} escape ends a piece too */
            while (p < e && b[p] != '}') {
                p++;
            }
            p++;
            if (p < e) {
                cut = next = p;
                break;
            }
            continue;
        }
        if (!raw && b[p] == '\\') {
            p += 2;
            continue;
        }
        if ((b[p] == '{' || b[p] == '}') && p + 1 < e && b[p + 1] == b[p]) {
            cut = p + 1;
            next = p + 2;
            break;
        }
        p++;
    }
    piece = it->mid;
    piece.start = it->mid_pos;
    if (cut < 0) {
        it->mid_pos = -1;
    }
    else {
        piece.end = cut;
        it->mid_pos = next < e ? next : -1;
    }
    locate(tok, &piece);
    return make_tuple(it, &piece);
}

/* ---- the iterator ------------------------------------------------- */

static PyObject *
raise_eof_in_statement(struct tok_state *tok)
{
    int row = tok->lineno > 1 ? tok->lineno - 1 : 1;
    PyObject *args = Py_BuildValue(
        "(s(OiiNii))", "unexpected EOF in multi-line statement",
        tok->filename, row, 0, _PyTokenizer_LineText(tok, row), row, 0);
    if (args != NULL) {
        PyErr_SetObject(PyExc_SyntaxError, args);
        Py_DECREF(args);
    }
    return NULL;
}

/* tokenize shows a TabError at the end of the offending line, without
   its newline and without an end position. */
static void
relocate_tab_error(tokiter *it)
{
    PyObject *exc = PyErr_GetRaisedException(), *lineno, *text, *args;
    Py_ssize_t s, e;
    long row;

    lineno = PyObject_GetAttrString(exc, "lineno");
    row = lineno != NULL ? PyLong_AsLong(lineno) : -1;
    Py_XDECREF(lineno);
    if (row < 1 || row > it->src_nlines) {
        PyErr_Clear();
        PyErr_SetRaisedException(exc);
        return;
    }
    s = src_line_start(it, (int)row);
    e = src_line_start(it, (int)row + 1);
    while (e > s && (it->src[e - 1] == '\n' || it->src[e - 1] == '\r')) {
        e--;
    }
    text = PyUnicode_DecodeUTF8(it->src + s, e - s, "replace");
    args = text == NULL ? NULL : Py_BuildValue(
        "(s(OlnNOO))", "inconsistent use of tabs and spaces in indentation",
        it->tok->filename, row, PyUnicode_GET_LENGTH(text) + 1, text,
        Py_None, Py_None);
    Py_DECREF(exc);
    if (args != NULL) {
        PyErr_SetObject(PyExc_TabError, args);
        Py_DECREF(args);
    }
}

static PyObject *
tokiter_next(PyObject *op)
{
    tokiter *it = (tokiter *)op;
    _PyToken t;
    int type;

    if (it->finished) {
        return NULL;
    }
    if (it->tok == NULL && start_tokenizer(it) < 0) {
        it->finished = 1;
        return NULL;
    }
    if (it->mid_pos >= 0) {
        return next_middle_piece(it);
    }
    if (it->nul_cut >= 0 && it->tok->cur >= it->nul_cut) {
        it->finished = 1;
        raise_null_byte(it->src, it->nul_cut);
        return NULL;
    }
    type = _PyTokenizer_Get(it->tok, &t);
    if (type == ERRORTOKEN && it->nul_cut >= 0
        && it->tok->cur >= it->nul_cut) {
        /* the text ran out only because it was cut at the NUL */
        PyErr_Clear();
        it->finished = 1;
        raise_null_byte(it->src, it->nul_cut);
        return NULL;
    }
    if (type == ERRORTOKEN) {
        it->finished = 1;
        if (!PyErr_Occurred()) {
            return raise_eof_in_statement(it->tok);
        }
        if (it->extra && PyErr_ExceptionMatches(PyExc_TabError)) {
            relocate_tab_error(it);
        }
        return NULL;
    }
    if (type == ENDMARKER) {
        it->finished = 1;
    }
    if (it->extra && (type == FSTRING_MIDDLE || type == TSTRING_MIDDLE)
        && t.end > t.start) {
        it->mid = t;
        it->mid_pos = t.start;
        return next_middle_piece(it);
    }
    return make_tuple(it, &t);
}

static PyObject *
tokiter_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"readline", "extra_tokens", "encoding", NULL};
    PyObject *readline, *encoding = NULL, *extra_obj = NULL;
    int extra;
    tokiter *it;

    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OO:TokenizerIter",
                                     kwlist, &readline, &extra_obj,
                                     &encoding)) {
        return NULL;
    }
    if (extra_obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "TokenizerIter() missing required "
                        "keyword-only argument 'extra_tokens'");
        return NULL;
    }
    extra = PyObject_IsTrue(extra_obj);
    if (extra < 0) {
        return NULL;
    }
    if (encoding == Py_None) {
        encoding = NULL;
    }
    if (encoding != NULL && !PyUnicode_Check(encoding)) {
        PyErr_Format(PyExc_TypeError, "encoding must be str, not %.200s",
                     Py_TYPE(encoding)->tp_name);
        return NULL;
    }
    it = (tokiter *)type->tp_alloc(type, 0);
    if (it == NULL) {
        return NULL;
    }
    it->readline = Py_NewRef(readline);
    it->encoding = Py_XNewRef(encoding);
    it->extra = extra;
    it->mid_pos = -1;
    it->nul_cut = -1;
    return (PyObject *)it;
}

static int
tokiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((tokiter *)op)->readline);
    return 0;
}

static int
tokiter_clear(PyObject *op)
{
    Py_CLEAR(((tokiter *)op)->readline);
    return 0;
}

static void
tokiter_dealloc(PyObject *op)
{
    tokiter *it = (tokiter *)op;
    PyObject_GC_UnTrack(op);
    tokiter_clear(op);
    Py_XDECREF(it->encoding);
    _PyTokenizer_Free(it->tok);
    PyMem_Free(it->src);
    PyMem_Free(it->src_lines);
    Py_TYPE(op)->tp_free(op);
}

static PyTypeObject TokIterType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_tokenize.TokenizerIter",
    .tp_basicsize = sizeof(tokiter),
    .tp_dealloc = tokiter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Iterator over the tokens of the lines read from readline.",
    .tp_traverse = tokiter_traverse,
    .tp_clear = tokiter_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = tokiter_next,
    .tp_new = tokiter_new,
    .tp_alloc = PyType_GenericAlloc,
    .tp_free = PyObject_GC_Del,
};

static struct PyModuleDef tokenizemodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tokenize",
    .m_doc = "Access to the C tokenizer for the tokenize module.",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__tokenize(void)
{
    PyObject *m;
    if (_PyStaticType_InitBuiltin(&TokIterType) < 0) {
        return NULL;
    }
    m = PyModule_Create(&tokenizemodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "TokenizerIter",
                              (PyObject *)&TokIterType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
