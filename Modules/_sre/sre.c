/* The _sre module: the compiled-pattern, match, scanner and replacement
   template objects that the re package builds on.  The matching itself
   is in sre_engine.c; this file turns Python arguments into SreState
   and results back into Python objects. */

#include "sre_engine.h"
#include "pycore_object.h"
#include <string.h>

#define FLAG_IGNORECASE 2
#define FLAG_LOCALE 4
#define FLAG_MULTILINE 8
#define FLAG_DOTALL 16
#define FLAG_UNICODE 32
#define FLAG_VERBOSE 64
#define FLAG_DEBUG 128
#define FLAG_ASCII 256

typedef struct {
    PyObject_HEAD
    PyObject *pattern;      /* str, bytes or None */
    int flags;
    int isbytes;            /* -1: no source, anything goes */
    Py_ssize_t groups;
    PyObject *groupindex;   /* dict name -> number */
    PyObject *indexgroup;   /* tuple number -> name or None */
    Py_ssize_t codesize;
    SreCode *code;
} PatternObject;

typedef struct {
    PyObject_HEAD
    PyObject *string;
    PatternObject *pattern;
    Py_ssize_t pos, endpos;
    Py_ssize_t lastindex;
    Py_ssize_t ngroups;     /* groups + 1 */
    Py_ssize_t *spans;      /* two per group, -1 when unmatched */
} MatchObject;

typedef struct {
    PyObject_HEAD
    PatternObject *pattern;
    PyObject *string;
    Py_ssize_t origpos;     /* the pos argument, for Match.pos */
    Py_ssize_t pos, endpos;
    int must_advance;
    int done;
} ScannerObject;

typedef struct {
    PyObject_HEAD
    PyObject *first;        /* leading literal or NULL */
    Py_ssize_t n;
    Py_ssize_t *group;      /* n group numbers ... */
    PyObject **after;       /* ... each followed by a literal or NULL */
} TemplateObject;

static PyTypeObject Pattern_Type, Match_Type, Scanner_Type, Template_Type;

/* ---- the subject text ------------------------------------------------ */

typedef struct {
    Py_buffer view;
    int has_view;
    const void *data;
    Py_ssize_t length;
    int charsize;
    int isbytes;
} Subject;

static int
subject_get(PyObject *string, Subject *s)
{
    s->has_view = 0;
    if (PyUnicode_Check(string)) {
        s->data = PyUnicode_DATA(string);
        s->length = PyUnicode_GetLength(string);
        s->charsize = PyUnicode_KIND(string);
        s->isbytes = 0;
        return 0;
    }
    if (PyObject_GetBuffer(string, &s->view, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "expected string or bytes-like object, got '%.200s'",
                     Py_TYPE(string)->tp_name);
        return -1;
    }
    s->has_view = 1;
    s->data = s->view.buf;
    s->length = s->view.len;
    s->charsize = 1;
    s->isbytes = 1;
    return 0;
}

static void
subject_release(Subject *s)
{
    if (s->has_view) {
        PyBuffer_Release(&s->view);
        s->has_view = 0;
    }
}

/* The subject for this pattern: the kinds must agree. */
static int
subject_for(PatternObject *p, PyObject *string, Subject *s)
{
    if (subject_get(string, s) < 0) {
        return -1;
    }
    if (p->isbytes == 0 && s->isbytes) {
        PyErr_SetString(PyExc_TypeError, "cannot use a string pattern on a bytes-like object");
    }
    else if (p->isbytes > 0 && !s->isbytes) {
        PyErr_SetString(PyExc_TypeError, "cannot use a bytes pattern on a string-like object");
    }
    else {
        return 0;
    }
    subject_release(s);
    return -1;
}

static PyObject *
slice_of(PyObject *string, const Subject *s, Py_ssize_t i, Py_ssize_t j)
{
    if (i < 0 || j < i) {
        i = j = 0;
    }
    if (j > s->length) {
        j = s->length;
    }
    if (i > j) {
        i = j;
    }
    if (!s->isbytes) {
        return PyUnicode_Substring(string, i, j);
    }
    return PyBytes_FromStringAndSize((const char *)s->data + i, j - i);
}

/* A fresh state over subject s for pattern p, between pos and endpos. */
static int
state_setup(SreState *st, PatternObject *p, const Subject *s, Py_ssize_t pos,
            Py_ssize_t endpos)
{
    if (_PySre_StateInit(st, p->groups) < 0) {
        return -1;
    }
    st->data = s->data;
    st->charsize = s->charsize;
    st->length = s->length;
    pos = pos < 0 ? 0 : (pos > s->length ? s->length : pos);
    endpos = endpos < 0 ? 0 : (endpos > s->length ? s->length : endpos);
    st->start = pos;
    st->end = endpos;
    st->code = p->code;
    st->codesize = p->codesize;
    st->match_all = 0;
    st->must_advance = 0;
    return 0;
}

/* ---- Match ------------------------------------------------------------ */

static PyObject *
match_new(PatternObject *p, PyObject *string, const SreState *st, Py_ssize_t pos,
          Py_ssize_t endpos)
{
    MatchObject *m = PyObject_New(MatchObject, &Match_Type);
    if (m == NULL) {
        return NULL;
    }
    m->ngroups = p->groups + 1;
    m->spans = PyMem_Malloc(sizeof(Py_ssize_t) * 2 * (size_t)m->ngroups);
    m->string = Py_NewRef(string);
    m->pattern = (PatternObject *)Py_NewRef(p);
    if (m->spans == NULL) {
        Py_DECREF(m);
        return PyErr_NoMemory();
    }
    m->spans[0] = st->match_start;
    m->spans[1] = st->match_end;
    for (Py_ssize_t g = 1; g < m->ngroups; g++) {
        Py_ssize_t a = st->marks[2 * g - 2], b = st->marks[2 * g - 1];
        if (a < 0 || b < 0) {
            a = b = -1;
        }
        m->spans[2 * g] = a;
        m->spans[2 * g + 1] = b;
    }
    m->pos = st->start;
    m->endpos = st->end;
    (void)pos;
    (void)endpos;
    m->lastindex = st->lastindex;
    return (PyObject *)m;
}

static void
match_dealloc(PyObject *op)
{
    MatchObject *m = (MatchObject *)op;
    Py_XDECREF(m->string);
    Py_XDECREF(m->pattern);
    PyMem_Free(m->spans);
    PyObject_Free(m);
}

/* Group number for an int or a group name; -1 with IndexError. */
static Py_ssize_t
match_group_index(MatchObject *m, PyObject *key)
{
    Py_ssize_t i = -1;
    if (PyLong_Check(key)) {
        i = PyLong_AsSsize_t(key);
        if (i == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            i = -1;
        }
    }
    else if (PyIndex_Check(key)) {
        i = PyNumber_AsSsize_t(key, NULL);
        if (i == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    else if (m->pattern->groupindex != NULL) {
        PyObject *num = PyDict_GetItemWithError(m->pattern->groupindex, key);
        if (num == NULL && PyErr_Occurred()) {
            return -1;
        }
        if (num != NULL && PyLong_Check(num)) {
            i = PyLong_AsSsize_t(num);
        }
    }
    if (i < 0 || i >= m->ngroups) {
        PyErr_SetString(PyExc_IndexError, "no such group");
        return -1;
    }
    return i;
}

/* Group g's text, or `dflt` when it did not take part. */
static PyObject *
match_text(MatchObject *m, Py_ssize_t g, PyObject *dflt)
{
    if (m->spans[2 * g] < 0) {
        return Py_NewRef(dflt);
    }
    Subject s;
    if (subject_get(m->string, &s) < 0) {
        return NULL;
    }
    PyObject *r = slice_of(m->string, &s, m->spans[2 * g], m->spans[2 * g + 1]);
    subject_release(&s);
    return r;
}

static PyObject *
match_item(MatchObject *m, PyObject *key)
{
    Py_ssize_t g = match_group_index(m, key);
    return g < 0 ? NULL : match_text(m, g, Py_None);
}

static PyObject *
match_group(PyObject *op, PyObject *args)
{
    MatchObject *m = (MatchObject *)op;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 0) {
        return match_text(m, 0, Py_None);
    }
    if (n == 1) {
        return match_item(m, PyTuple_GET_ITEM(args, 0));
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = match_item(m, PyTuple_GET_ITEM(args, i));
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *
match_subscript(PyObject *op, PyObject *key)
{
    return match_item((MatchObject *)op, key);
}

static PyObject *
match_groups(PyObject *op, PyObject *args, PyObject *kwds)
{
    MatchObject *m = (MatchObject *)op;
    static char *kwlist[] = {"default", NULL};
    PyObject *dflt = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:groups", kwlist, &dflt)) {
        return NULL;
    }
    PyObject *out = PyTuple_New(m->ngroups - 1);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t g = 1; g < m->ngroups; g++) {
        PyObject *v = match_text(m, g, dflt);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, g - 1, v);
    }
    return out;
}

static PyObject *
match_groupdict(PyObject *op, PyObject *args, PyObject *kwds)
{
    MatchObject *m = (MatchObject *)op;
    static char *kwlist[] = {"default", NULL};
    PyObject *dflt = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:groupdict", kwlist, &dflt)) {
        return NULL;
    }
    PyObject *out = PyDict_New();
    if (out == NULL || m->pattern->groupindex == NULL) {
        return out;
    }
    PyObject *name, *num;
    Py_ssize_t it = 0;
    while (PyDict_Next(m->pattern->groupindex, &it, &name, &num)) {
        Py_ssize_t g = match_group_index(m, num);
        PyObject *v = g < 0 ? NULL : match_text(m, g, dflt);
        if (v == NULL || PyDict_SetItem(out, name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

/* The group argument of start/end/span: optional, 0 by default. */
static Py_ssize_t
match_group_arg(MatchObject *m, PyObject *args, const char *fmt)
{
    PyObject *key = NULL;
    if (!PyArg_ParseTuple(args, fmt, &key)) {
        return -1;
    }
    if (key == NULL) {
        return 0;
    }
    return match_group_index(m, key);
}

static PyObject *
match_start(PyObject *op, PyObject *args)
{
    MatchObject *m = (MatchObject *)op;
    Py_ssize_t g = match_group_arg(m, args, "|O:start");
    return g < 0 ? NULL : PyLong_FromSsize_t(m->spans[2 * g]);
}

static PyObject *
match_end(PyObject *op, PyObject *args)
{
    MatchObject *m = (MatchObject *)op;
    Py_ssize_t g = match_group_arg(m, args, "|O:end");
    return g < 0 ? NULL : PyLong_FromSsize_t(m->spans[2 * g + 1]);
}

static PyObject *
span_tuple(MatchObject *m, Py_ssize_t g)
{
    return Py_BuildValue("(nn)", m->spans[2 * g], m->spans[2 * g + 1]);
}

static PyObject *
match_span(PyObject *op, PyObject *args)
{
    MatchObject *m = (MatchObject *)op;
    Py_ssize_t g = match_group_arg(m, args, "|O:span");
    return g < 0 ? NULL : span_tuple(m, g);
}

static PyObject *template_expand(TemplateObject *t, MatchObject *m);

/* re._compile_template(pattern, repl): the parsed replacement. */
static PyObject *
compile_template(PatternObject *p, PyObject *repl)
{
    PyObject *re = PyImport_ImportModule("re");
    if (re == NULL) {
        return NULL;
    }
    PyObject *t = PyObject_CallMethod(re, "_compile_template", "OO", (PyObject *)p, repl);
    Py_DECREF(re);
    if (t != NULL && !Py_IS_TYPE(t, &Template_Type)) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_TypeError, "re._compile_template did not return a template");
        return NULL;
    }
    return t;
}

static PyObject *
match_expand(PyObject *op, PyObject *repl)
{
    MatchObject *m = (MatchObject *)op;
    PyObject *t = compile_template(m->pattern, repl);
    if (t == NULL) {
        return NULL;
    }
    PyObject *r = template_expand((TemplateObject *)t, m);
    Py_DECREF(t);
    return r;
}

static PyObject *
match_regs(PyObject *op, void *Py_UNUSED(closure))
{
    MatchObject *m = (MatchObject *)op;
    PyObject *out = PyTuple_New(m->ngroups);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t g = 0; g < m->ngroups; g++) {
        PyObject *span = span_tuple(m, g);
        if (span == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, g, span);
    }
    return out;
}

static PyObject *
match_get_string(PyObject *op, void *Py_UNUSED(closure))
{
    return Py_NewRef(((MatchObject *)op)->string);
}

static PyObject *
match_get_re(PyObject *op, void *Py_UNUSED(closure))
{
    return Py_NewRef((PyObject *)((MatchObject *)op)->pattern);
}

static PyObject *
match_get_pos(PyObject *op, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(((MatchObject *)op)->pos);
}

static PyObject *
match_get_endpos(PyObject *op, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(((MatchObject *)op)->endpos);
}

static PyObject *
match_get_lastindex(PyObject *op, void *Py_UNUSED(closure))
{
    MatchObject *m = (MatchObject *)op;
    if (m->lastindex < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromSsize_t(m->lastindex);
}

static PyObject *
match_get_lastgroup(PyObject *op, void *Py_UNUSED(closure))
{
    MatchObject *m = (MatchObject *)op;
    PyObject *names = m->pattern->indexgroup;
    if (m->lastindex < 0 || names == NULL || !PyTuple_Check(names) ||
        m->lastindex >= PyTuple_GET_SIZE(names)) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(PyTuple_GET_ITEM(names, m->lastindex));
}

static PyObject *
match_repr(PyObject *op)
{
    MatchObject *m = (MatchObject *)op;
    PyObject *text = match_text(m, 0, Py_None);
    if (text == NULL) {
        return NULL;
    }
    PyObject *shown = PyObject_Repr(text);
    Py_DECREF(text);
    if (shown != NULL && PyUnicode_GetLength(shown) > 50) {
        Py_SETREF(shown, PyUnicode_Substring(shown, 0, 50));
    }
    if (shown == NULL) {
        return NULL;
    }
    PyObject *r = PyUnicode_FromFormat("<re.Match object; span=(%zd, %zd), match=%U>",
                                       m->spans[0], m->spans[1], shown);
    Py_DECREF(shown);
    return r;
}

static PyObject *
return_self(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return Py_NewRef(op);
}

static PyObject *
return_self_memo(PyObject *op, PyObject *Py_UNUSED(memo))
{
    return Py_NewRef(op);
}

static PyMethodDef match_methods[] = {
    {"group", match_group, METH_VARARGS, "The text of one or more groups."},
    {"groups", _PyCFunction_CAST(match_groups), METH_VARARGS | METH_KEYWORDS,
     "The texts of all groups as a tuple."},
    {"groupdict", _PyCFunction_CAST(match_groupdict), METH_VARARGS | METH_KEYWORDS,
     "The named groups' texts as a dict."},
    {"start", match_start, METH_VARARGS, "Where a group begins, or -1."},
    {"end", match_end, METH_VARARGS, "Where a group ends, or -1."},
    {"span", match_span, METH_VARARGS, "A group's (start, end)."},
    {"expand", match_expand, METH_O, "Fill a replacement template from this match."},
    {"__copy__", return_self, METH_NOARGS, NULL},
    {"__deepcopy__", return_self_memo, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef match_getset[] = {
    {"regs", match_regs, NULL, NULL, NULL},
    {"string", match_get_string, NULL, "The subject string.", NULL},
    {"re", match_get_re, NULL, "The pattern that made this match.", NULL},
    {"pos", match_get_pos, NULL, NULL, NULL},
    {"endpos", match_get_endpos, NULL, NULL, NULL},
    {"lastindex", match_get_lastindex, NULL, NULL, NULL},
    {"lastgroup", match_get_lastgroup, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMappingMethods match_as_mapping = {
    .mp_subscript = match_subscript,
};

static PyTypeObject Match_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "re.Match",
    .tp_basicsize = sizeof(MatchObject),
    .tp_dealloc = match_dealloc,
    .tp_repr = match_repr,
    .tp_as_mapping = &match_as_mapping,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The result of a successful match.",
    .tp_methods = match_methods,
    .tp_getset = match_getset,
};

/* ---- running the engine ------------------------------------------------ */

typedef int (*Runner)(SreState *);

/* match/fullmatch/search at pos..endpos: a Match or None. */
static PyObject *
run_once(PatternObject *p, PyObject *string, Py_ssize_t pos, Py_ssize_t endpos,
         int match_all, Runner run)
{
    Subject s;
    SreState st;
    if (subject_for(p, string, &s) < 0) {
        return NULL;
    }
    if (state_setup(&st, p, &s, pos, endpos) < 0) {
        subject_release(&s);
        return NULL;
    }
    st.match_all = match_all;
    int r = run(&st);
    PyObject *out = NULL;
    if (r > 0) {
        out = match_new(p, string, &st, pos, endpos);
    }
    else if (r == 0) {
        out = Py_NewRef(Py_None);
    }
    _PySre_StateFree(&st);
    subject_release(&s);
    return out;
}

static int
parse_span_args(PyObject *args, PyObject *kwds, const char *fmt, PyObject **string,
                Py_ssize_t *pos, Py_ssize_t *endpos)
{
    static char *kwlist[] = {"string", "pos", "endpos", NULL};
    *pos = 0;
    *endpos = PY_SSIZE_T_MAX;
    return PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, string, pos, endpos);
}

static PyObject *
pattern_match(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *string;
    Py_ssize_t pos, endpos;
    if (!parse_span_args(args, kwds, "O|nn:match", &string, &pos, &endpos)) {
        return NULL;
    }
    return run_once((PatternObject *)op, string, pos, endpos, 0, _PySre_Match);
}

static PyObject *
pattern_fullmatch(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *string;
    Py_ssize_t pos, endpos;
    if (!parse_span_args(args, kwds, "O|nn:fullmatch", &string, &pos, &endpos)) {
        return NULL;
    }
    return run_once((PatternObject *)op, string, pos, endpos, 1, _PySre_Match);
}

static PyObject *
pattern_search(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *string;
    Py_ssize_t pos, endpos;
    if (!parse_span_args(args, kwds, "O|nn:search", &string, &pos, &endpos)) {
        return NULL;
    }
    return run_once((PatternObject *)op, string, pos, endpos, 0, _PySre_Search);
}

/* Walks the successive non-overlapping matches of one subject. */
typedef struct {
    PatternObject *p;
    PyObject *string;
    Subject s;
    SreState st;
} Walk;

static int
walk_begin(Walk *w, PatternObject *p, PyObject *string, Py_ssize_t pos, Py_ssize_t endpos)
{
    w->p = p;
    w->string = string;
    if (subject_for(p, string, &w->s) < 0) {
        return -1;
    }
    if (state_setup(&w->st, p, &w->s, pos, endpos) < 0) {
        subject_release(&w->s);
        return -1;
    }
    return 0;
}

/* The next match: 1 found, 0 none, -1 error. */
static int
walk_next(Walk *w)
{
    if (w->st.start > w->st.end) {
        return 0;
    }
    int r = _PySre_Search(&w->st);
    if (r > 0) {
        w->st.must_advance = w->st.match_end == w->st.match_start;
        w->st.start = w->st.match_end;
    }
    return r;
}

static void
walk_end(Walk *w)
{
    _PySre_StateFree(&w->st);
    subject_release(&w->s);
}

static PyObject *
walk_group(Walk *w, Py_ssize_t g)
{
    Py_ssize_t a, b;
    if (g == 0) {
        a = w->st.match_start;
        b = w->st.match_end;
    }
    else {
        a = w->st.marks[2 * g - 2];
        b = w->st.marks[2 * g - 1];
        if (a < 0 || b < 0) {
            a = b = 0;
        }
    }
    return slice_of(w->string, &w->s, a, b);
}

/* What findall lists for the current match. */
static PyObject *
findall_item(Walk *w)
{
    Py_ssize_t n = w->p->groups;
    if (n <= 1) {
        return walk_group(w, n);
    }
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        return NULL;
    }
    for (Py_ssize_t g = 1; g <= n; g++) {
        PyObject *v = walk_group(w, g);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, g - 1, v);
    }
    return t;
}

static PyObject *
pattern_findall(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *string;
    Py_ssize_t pos, endpos;
    Walk w;
    if (!parse_span_args(args, kwds, "O|nn:findall", &string, &pos, &endpos) ||
        walk_begin(&w, (PatternObject *)op, string, pos, endpos) < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    int r;
    while (out != NULL && (r = walk_next(&w)) != 0) {
        PyObject *item = r < 0 ? NULL : findall_item(&w);
        if (item == NULL || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(item);
    }
    walk_end(&w);
    return out;
}

static PyObject *
scanner_new(PatternObject *p, PyObject *string, Py_ssize_t pos, Py_ssize_t endpos)
{
    Subject s;
    if (subject_for(p, string, &s) < 0) {
        return NULL;
    }
    Py_ssize_t len = s.length;
    subject_release(&s);
    ScannerObject *sc = PyObject_New(ScannerObject, &Scanner_Type);
    if (sc == NULL) {
        return NULL;
    }
    sc->pattern = (PatternObject *)Py_NewRef(p);
    sc->string = Py_NewRef(string);
    sc->pos = pos < 0 ? 0 : (pos > len ? len : pos);
    sc->endpos = endpos < 0 ? 0 : (endpos > len ? len : endpos);
    sc->origpos = sc->pos;
    sc->must_advance = 0;
    sc->done = 0;
    return (PyObject *)sc;
}

static PyObject *
pattern_scanner(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *string;
    Py_ssize_t pos, endpos;
    if (!parse_span_args(args, kwds, "O|nn:scanner", &string, &pos, &endpos)) {
        return NULL;
    }
    return scanner_new((PatternObject *)op, string, pos, endpos);
}

static PyObject *
pattern_finditer(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *sc = pattern_scanner(op, args, kwds);
    if (sc == NULL) {
        return NULL;
    }
    PyObject *search = PyObject_GetAttrString(sc, "search");
    Py_DECREF(sc);
    if (search == NULL) {
        return NULL;
    }
    PyObject *it = PyCallIter_New(search, Py_None);
    Py_DECREF(search);
    return it;
}

static PyObject *
pattern_split(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"string", "maxsplit", NULL};
    PyObject *string;
    Py_ssize_t maxsplit = 0;
    Walk w;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|n:split", kwlist, &string, &maxsplit) ||
        walk_begin(&w, (PatternObject *)op, string, 0, PY_SSIZE_T_MAX) < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    Py_ssize_t last = 0, n = 0;
    while (out != NULL && (maxsplit <= 0 || n < maxsplit)) {
        int r = walk_next(&w);
        if (r == 0) {
            break;
        }
        PyObject *piece = r < 0 ? NULL : slice_of(string, &w.s, last, w.st.match_start);
        if (piece == NULL || PyList_Append(out, piece) < 0) {
            Py_XDECREF(piece);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(piece);
        for (Py_ssize_t g = 1; g <= w.p->groups && out != NULL; g++) {
            PyObject *v = w.st.marks[2 * g - 2] >= 0 && w.st.marks[2 * g - 1] >= 0
                              ? walk_group(&w, g) : Py_NewRef(Py_None);
            if (v == NULL || PyList_Append(out, v) < 0) {
                Py_CLEAR(out);
            }
            Py_XDECREF(v);
        }
        last = w.st.match_end;
        n++;
    }
    if (out != NULL) {
        PyObject *rest = slice_of(string, &w.s, last, w.s.length);
        if (rest == NULL || PyList_Append(out, rest) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(rest);
    }
    walk_end(&w);
    return out;
}

static int
has_backslash(PyObject *repl)
{
    if (PyUnicode_Check(repl)) {
        return PyUnicode_FindChar(repl, '\\', 0, PyUnicode_GetLength(repl), 1) >= 0;
    }
    Subject s;
    if (subject_get(repl, &s) < 0) {
        PyErr_Clear();
        return 1;
    }
    int found = memchr(s.data, '\\', (size_t)s.length) != NULL;
    subject_release(&s);
    return found;
}

static PyObject *
join_pieces(PyObject *list, int isbytes)
{
    if (!isbytes) {
        PyObject *empty = PyUnicode_FromStringAndSize("", 0);
        if (empty == NULL) {
            return NULL;
        }
        PyObject *r = PyUnicode_Join(empty, list);
        Py_DECREF(empty);
        return r;
    }
    PyObject *empty = PyBytes_FromStringAndSize("", 0);
    if (empty == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(empty, "join", "O", list);
    Py_DECREF(empty);
    return r;
}

/* The replacement for the walk's current match. */
static PyObject *
replacement(Walk *w, PyObject *repl, PyObject *literal, PyObject *tmpl)
{
    if (literal != NULL) {
        return Py_NewRef(literal);
    }
    PyObject *m = match_new(w->p, w->string, &w->st, 0, 0);
    if (m == NULL) {
        return NULL;
    }
    ((MatchObject *)m)->pos = 0;
    ((MatchObject *)m)->endpos = w->s.length;
    PyObject *r = tmpl != NULL ? template_expand((TemplateObject *)tmpl, (MatchObject *)m)
                               : PyObject_CallOneArg(repl, m);
    Py_DECREF(m);
    return r;
}

static int
append_unless_none(PyObject *list, PyObject *item)
{
    int r = item == Py_None ? 0 : PyList_Append(list, item);
    Py_DECREF(item);
    return r;
}

static PyObject *
substitute(PatternObject *p, PyObject *repl, PyObject *string, Py_ssize_t count, int with_n)
{
    PyObject *literal = NULL, *tmpl = NULL;
    if (!PyCallable_Check(repl)) {
        if (has_backslash(repl)) {
            tmpl = compile_template(p, repl);
            if (tmpl == NULL) {
                return NULL;
            }
        }
        else {
            literal = repl;
        }
    }
    Walk w;
    if (walk_begin(&w, p, string, 0, PY_SSIZE_T_MAX) < 0) {
        Py_XDECREF(tmpl);
        return NULL;
    }
    PyObject *out = PyList_New(0);
    Py_ssize_t last = 0, n = 0;
    while (out != NULL && (count <= 0 || n < count)) {
        int r = walk_next(&w);
        if (r == 0) {
            break;
        }
        Py_ssize_t b = w.st.match_start, e = w.st.match_end;
        if (r < 0) {
            Py_CLEAR(out);
            break;
        }
        if (last < b) {
            PyObject *piece = slice_of(string, &w.s, last, b);
            if (piece == NULL || append_unless_none(out, piece) < 0) {
                Py_CLEAR(out);
                break;
            }
        }
        PyObject *item = replacement(&w, repl, literal, tmpl);
        if (item == NULL || append_unless_none(out, item) < 0) {
            Py_CLEAR(out);
            break;
        }
        last = e;
        n++;
    }
    PyObject *result = NULL;
    if (out != NULL) {
        PyObject *rest = last < w.s.length ? slice_of(string, &w.s, last, w.s.length)
                                           : Py_NewRef(Py_None);
        if (rest != NULL && append_unless_none(out, rest) == 0) {
            result = join_pieces(out, w.s.isbytes);
        }
        Py_DECREF(out);
    }
    walk_end(&w);
    Py_XDECREF(tmpl);
    if (result != NULL && with_n) {
        PyObject *pair = Py_BuildValue("(Nn)", result, n);
        return pair;
    }
    return result;
}

static PyObject *
pattern_sub_common(PyObject *op, PyObject *args, PyObject *kwds, const char *fmt, int with_n)
{
    static char *kwlist[] = {"repl", "string", "count", NULL};
    PyObject *repl, *string;
    Py_ssize_t count = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &repl, &string, &count)) {
        return NULL;
    }
    return substitute((PatternObject *)op, repl, string, count, with_n);
}

static PyObject *
pattern_sub(PyObject *op, PyObject *args, PyObject *kwds)
{
    return pattern_sub_common(op, args, kwds, "OO|n:sub", 0);
}

static PyObject *
pattern_subn(PyObject *op, PyObject *args, PyObject *kwds)
{
    return pattern_sub_common(op, args, kwds, "OO|n:subn", 1);
}

/* ---- Pattern ------------------------------------------------------------ */

static void
pattern_dealloc(PyObject *op)
{
    PatternObject *p = (PatternObject *)op;
    Py_XDECREF(p->pattern);
    Py_XDECREF(p->groupindex);
    Py_XDECREF(p->indexgroup);
    PyMem_Free(p->code);
    PyObject_Free(p);
}

static const struct {
    const char *name;
    int bit;
} flag_names[] = {
    {"re.IGNORECASE", FLAG_IGNORECASE}, {"re.LOCALE", FLAG_LOCALE},
    {"re.MULTILINE", FLAG_MULTILINE},   {"re.DOTALL", FLAG_DOTALL},
    {"re.UNICODE", FLAG_UNICODE},       {"re.VERBOSE", FLAG_VERBOSE},
    {"re.DEBUG", FLAG_DEBUG},           {"re.ASCII", FLAG_ASCII},
};

/* "re.IGNORECASE|re.DOTALL" etc., or NULL for no flags worth showing. */
static PyObject *
flags_text(const PatternObject *p)
{
    int flags = p->flags;
    if (p->isbytes == 0 && (flags & (FLAG_LOCALE | FLAG_UNICODE | FLAG_ASCII)) == FLAG_UNICODE) {
        flags &= ~FLAG_UNICODE;
    }
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
        if (flags & flag_names[i].bit) {
            PyObject *s = PyUnicode_FromString(flag_names[i].name);
            if (s == NULL || PyList_Append(parts, s) < 0) {
                Py_XDECREF(s);
                Py_DECREF(parts);
                return NULL;
            }
            Py_DECREF(s);
            flags &= ~flag_names[i].bit;
        }
    }
    if (flags) {
        PyObject *s = PyUnicode_FromFormat("0x%x", flags);
        if (s == NULL || PyList_Append(parts, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(s);
    }
    PyObject *sep = PyUnicode_FromString("|");
    PyObject *r = sep == NULL ? NULL : PyUnicode_Join(sep, parts);
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return r;
}

static PyObject *
pattern_repr(PyObject *op)
{
    PatternObject *p = (PatternObject *)op;
    PyObject *src = PyObject_Repr(p->pattern);
    if (src == NULL) {
        return NULL;
    }
    if (PyUnicode_GetLength(src) > 200) {
        Py_SETREF(src, PyUnicode_Substring(src, 0, 200));
        if (src == NULL) {
            return NULL;
        }
    }
    PyObject *flags = flags_text(p);
    PyObject *r = NULL;
    if (flags != NULL) {
        r = PyUnicode_GetLength(flags) == 0 ? PyUnicode_FromFormat("re.compile(%U)", src)
                                            : PyUnicode_FromFormat("re.compile(%U, %U)", src, flags);
    }
    Py_XDECREF(flags);
    Py_DECREF(src);
    return r;
}

static PyObject *
pattern_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !Py_IS_TYPE(b, &Pattern_Type)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PatternObject *x = (PatternObject *)a, *y = (PatternObject *)b;
    int same = x == y;
    if (!same && x->flags == y->flags && x->isbytes == y->isbytes &&
        x->codesize == y->codesize &&
        memcmp(x->code, y->code, sizeof(SreCode) * (size_t)x->codesize) == 0) {
        same = PyObject_RichCompareBool(x->pattern, y->pattern, Py_EQ);
        if (same < 0) {
            return NULL;
        }
    }
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static Py_hash_t
pattern_hash(PyObject *op)
{
    PatternObject *p = (PatternObject *)op;
    Py_hash_t h = PyObject_Hash(p->pattern);
    if (h == -1) {
        return -1;
    }
    Py_uhash_t mix = (Py_uhash_t)h * 1000003u;
    for (Py_ssize_t i = 0; i < p->codesize; i++) {
        mix = (mix ^ p->code[i]) * 31u;
    }
    h = (Py_hash_t)(mix ^ (Py_uhash_t)p->flags ^ (Py_uhash_t)p->isbytes);
    return h == -1 ? -2 : h;
}

static PyObject *
pattern_get_pattern(PyObject *op, void *Py_UNUSED(closure))
{
    return Py_NewRef(((PatternObject *)op)->pattern);
}

static PyObject *
pattern_get_flags(PyObject *op, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(((PatternObject *)op)->flags);
}

static PyObject *
pattern_get_groups(PyObject *op, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(((PatternObject *)op)->groups);
}

static PyObject *
pattern_get_groupindex(PyObject *op, void *Py_UNUSED(closure))
{
    PatternObject *p = (PatternObject *)op;
    if (p->groupindex == NULL) {
        return PyDict_New();
    }
    return PyDictProxy_New(p->groupindex);
}

static PyMethodDef pattern_methods[] = {
    {"match", _PyCFunction_CAST(pattern_match), METH_VARARGS | METH_KEYWORDS,
     "Match at the start position only."},
    {"fullmatch", _PyCFunction_CAST(pattern_fullmatch), METH_VARARGS | METH_KEYWORDS,
     "Match the whole of string[pos:endpos]."},
    {"search", _PyCFunction_CAST(pattern_search), METH_VARARGS | METH_KEYWORDS,
     "The first match anywhere."},
    {"findall", _PyCFunction_CAST(pattern_findall), METH_VARARGS | METH_KEYWORDS,
     "A list of all non-overlapping matches."},
    {"finditer", _PyCFunction_CAST(pattern_finditer), METH_VARARGS | METH_KEYWORDS,
     "An iterator of Match objects over all non-overlapping matches."},
    {"scanner", _PyCFunction_CAST(pattern_scanner), METH_VARARGS | METH_KEYWORDS, NULL},
    {"split", _PyCFunction_CAST(pattern_split), METH_VARARGS | METH_KEYWORDS,
     "Split string at the matches."},
    {"sub", _PyCFunction_CAST(pattern_sub), METH_VARARGS | METH_KEYWORDS,
     "Replace the matches by repl."},
    {"subn", _PyCFunction_CAST(pattern_subn), METH_VARARGS | METH_KEYWORDS,
     "Like sub, and also count the replacements."},
    {"__copy__", return_self, METH_NOARGS, NULL},
    {"__deepcopy__", return_self_memo, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef pattern_getset[] = {
    {"pattern", pattern_get_pattern, NULL, "The source of the pattern.", NULL},
    {"flags", pattern_get_flags, NULL, "The compile flags.", NULL},
    {"groups", pattern_get_groups, NULL, "The number of capturing groups.", NULL},
    {"groupindex", pattern_get_groupindex, NULL, "Group names to numbers.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Pattern_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "re.Pattern",
    .tp_basicsize = sizeof(PatternObject),
    .tp_dealloc = pattern_dealloc,
    .tp_repr = pattern_repr,
    .tp_hash = pattern_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled regular expression.",
    .tp_richcompare = pattern_richcompare,
    .tp_methods = pattern_methods,
    .tp_getset = pattern_getset,
};

/* ---- Scanner ------------------------------------------------------------ */

static void
scanner_dealloc(PyObject *op)
{
    ScannerObject *sc = (ScannerObject *)op;
    Py_XDECREF(sc->pattern);
    Py_XDECREF(sc->string);
    PyObject_Free(sc);
}

static PyObject *
scanner_step(ScannerObject *sc, Runner run)
{
    if (sc->done) {
        Py_RETURN_NONE;
    }
    Subject s;
    SreState st;
    if (subject_for(sc->pattern, sc->string, &s) < 0) {
        return NULL;
    }
    if (state_setup(&st, sc->pattern, &s, sc->pos, sc->endpos) < 0) {
        subject_release(&s);
        return NULL;
    }
    st.must_advance = sc->must_advance;
    int r = run(&st);
    PyObject *out = NULL;
    if (r > 0) {
        out = match_new(sc->pattern, sc->string, &st, sc->pos, sc->endpos);
        if (out != NULL) {
            ((MatchObject *)out)->pos = sc->origpos;
        }
        sc->must_advance = st.match_end == st.match_start;
        sc->pos = st.match_end;
    }
    else if (r == 0) {
        sc->done = 1;
        out = Py_NewRef(Py_None);
    }
    _PySre_StateFree(&st);
    subject_release(&s);
    return out;
}

static PyObject *
scanner_match(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return scanner_step((ScannerObject *)op, _PySre_Match);
}

static PyObject *
scanner_search(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return scanner_step((ScannerObject *)op, _PySre_Search);
}

static PyObject *
scanner_get_pattern(PyObject *op, void *Py_UNUSED(closure))
{
    return Py_NewRef((PyObject *)((ScannerObject *)op)->pattern);
}

static PyMethodDef scanner_methods[] = {
    {"match", scanner_match, METH_NOARGS, "The next match right where the last ended."},
    {"search", scanner_search, METH_NOARGS, "The next match from where the last ended."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef scanner_getset[] = {
    {"pattern", scanner_get_pattern, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Scanner_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_sre.SRE_Scanner",
    .tp_basicsize = sizeof(ScannerObject),
    .tp_dealloc = scanner_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = scanner_methods,
    .tp_getset = scanner_getset,
};

/* ---- Template ------------------------------------------------------------ */

static void
template_dealloc(PyObject *op)
{
    TemplateObject *t = (TemplateObject *)op;
    Py_XDECREF(t->first);
    for (Py_ssize_t i = 0; i < t->n && t->after != NULL; i++) {
        Py_XDECREF(t->after[i]);
    }
    PyMem_Free(t->group);
    PyMem_Free(t->after);
    PyObject_Free(t);
}

static PyObject *
nonempty_or_null(PyObject *lit)
{
    if (PyObject_Size(lit) == 0) {
        PyErr_Clear();
        return NULL;
    }
    PyErr_Clear();
    return Py_NewRef(lit);
}

/* template(pattern, [literal, group, literal, group, ..., literal]) */
static PyObject *
sre_template(PyObject *m, PyObject *args)
{
    PyObject *pattern, *list;
    if (!PyArg_ParseTuple(args, "OO!:template", &pattern, &PyList_Type, &list)) {
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(list);
    if (size % 2 == 0) {
        PyErr_SetString(PyExc_TypeError, "invalid template");
        return NULL;
    }
    TemplateObject *t = PyObject_New(TemplateObject, &Template_Type);
    if (t == NULL) {
        return NULL;
    }
    t->n = size / 2;
    t->first = nonempty_or_null(PyList_GET_ITEM(list, 0));
    t->group = PyMem_Calloc((size_t)t->n + 1, sizeof(Py_ssize_t));
    t->after = PyMem_Calloc((size_t)t->n + 1, sizeof(PyObject *));
    if (t->group == NULL || t->after == NULL) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < t->n; i++) {
        PyObject *num = PyList_GET_ITEM(list, 2 * i + 1);
        if (!PyLong_Check(num)) {
            PyErr_SetString(PyExc_TypeError, "an integer is required");
            Py_DECREF(t);
            return NULL;
        }
        Py_ssize_t g = PyLong_AsSsize_t(num);
        if (g < 0) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "invalid template");
            }
            Py_DECREF(t);
            return NULL;
        }
        t->group[i] = g;
        t->after[i] = nonempty_or_null(PyList_GET_ITEM(list, 2 * i + 2));
    }
    return (PyObject *)t;
}

static PyObject *
template_expand(TemplateObject *t, MatchObject *m)
{
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    if (t->first != NULL && PyList_Append(parts, t->first) < 0) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < t->n; i++) {
        if (t->group[i] >= m->ngroups) {
            PyErr_SetString(PyExc_IndexError, "no such group");
            goto error;
        }
        if (m->spans[2 * t->group[i]] >= 0) {
            PyObject *v = match_text(m, t->group[i], Py_None);
            if (v == NULL || PyList_Append(parts, v) < 0) {
                Py_XDECREF(v);
                goto error;
            }
            Py_DECREF(v);
        }
        if (t->after[i] != NULL && PyList_Append(parts, t->after[i]) < 0) {
            goto error;
        }
    }
    PyObject *r = join_pieces(parts, !PyUnicode_Check(m->string));
    Py_DECREF(parts);
    return r;
error:
    Py_DECREF(parts);
    return NULL;
}

static PyTypeObject Template_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_sre.SRE_Template",
    .tp_basicsize = sizeof(TemplateObject),
    .tp_dealloc = template_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

/* ---- module functions ------------------------------------------------- */

/* Words of FAILURE after the code, so that reading an opcode's fixed
   operands never leaves the buffer even when the code is malformed. */
#define CODE_PAD 8

static int
fill_code(PatternObject *p, PyObject *code)
{
    Py_ssize_t n = PyList_GET_SIZE(code);
    p->code = PyMem_Malloc(sizeof(SreCode) * (size_t)(n + CODE_PAD));
    if (p->code == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    p->codesize = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyList_GET_ITEM(code, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_SetString(PyExc_OverflowError,
                                "regular expression code size limit exceeded");
            }
            return -1;
        }
        if (v > 0xFFFFFFFFul) {
            PyErr_SetString(PyExc_OverflowError, "regular expression code size limit exceeded");
            return -1;
        }
        p->code[i] = (SreCode)v;
    }
    for (Py_ssize_t i = n; i < n + CODE_PAD; i++) {
        p->code[i] = SOP_FAILURE;
    }
    return 0;
}

static PyObject *
sre_compile(PyObject *m, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"pattern", "flags", "code", "groups", "groupindex",
                             "indexgroup", NULL};
    PyObject *pattern, *code, *groupindex, *indexgroup;
    int flags;
    Py_ssize_t groups;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiO!nO!O!:compile", kwlist, &pattern, &flags,
                                     &PyList_Type, &code, &groups, &PyDict_Type, &groupindex,
                                     &PyTuple_Type, &indexgroup)) {
        return NULL;
    }
    if (groups < 0 || groups > SRE_MAXGROUPS) {
        PyErr_SetString(PyExc_OverflowError, "too many groups");
        return NULL;
    }
    PatternObject *p = PyObject_New(PatternObject, &Pattern_Type);
    if (p == NULL) {
        return NULL;
    }
    p->pattern = Py_NewRef(pattern);
    p->flags = flags;
    p->groups = groups;
    p->groupindex = PyDict_Copy(groupindex);
    p->indexgroup = Py_NewRef(indexgroup);
    p->code = NULL;
    p->codesize = 0;
    if (pattern == Py_None) {
        p->isbytes = -1;
    }
    else {
        Subject s;
        if (subject_get(pattern, &s) < 0) {
            Py_DECREF(p);
            return NULL;
        }
        p->isbytes = s.isbytes;
        subject_release(&s);
    }
    if (p->groupindex == NULL || fill_code(p, code) < 0 ||
        _PySre_Validate(p->code, p->codesize, p->groups) < 0) {
        Py_DECREF(p);
        return NULL;
    }
    return (PyObject *)p;
}

static int
char_arg(PyObject *arg, Py_UCS4 *ch)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *ch = (Py_UCS4)v;
    return 0;
}

static PyObject *
sre_ascii_iscased(PyObject *m, PyObject *arg)
{
    Py_UCS4 ch;
    return char_arg(arg, &ch) < 0 ? NULL : PyBool_FromLong(_PySre_IsCasedAscii(ch));
}

static PyObject *
sre_unicode_iscased(PyObject *m, PyObject *arg)
{
    Py_UCS4 ch;
    return char_arg(arg, &ch) < 0 ? NULL : PyBool_FromLong(_PySre_IsCasedUnicode(ch));
}

static PyObject *
sre_ascii_tolower(PyObject *m, PyObject *arg)
{
    Py_UCS4 ch;
    return char_arg(arg, &ch) < 0 ? NULL : PyLong_FromLong((long)_PySre_LowerAscii(ch));
}

static PyObject *
sre_unicode_tolower(PyObject *m, PyObject *arg)
{
    Py_UCS4 ch;
    return char_arg(arg, &ch) < 0 ? NULL : PyLong_FromLong((long)_PySre_LowerUnicode(ch));
}

static PyObject *
sre_getcodesize(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong((long)sizeof(SreCode));
}

static PyMethodDef sre_methods[] = {
    {"compile", _PyCFunction_CAST(sre_compile), METH_VARARGS | METH_KEYWORDS,
     "Build a Pattern from re._compiler's code words."},
    {"template", sre_template, METH_VARARGS, "Build a replacement template."},
    {"getcodesize", sre_getcodesize, METH_NOARGS, "Bytes in one code word."},
    {"ascii_iscased", sre_ascii_iscased, METH_O, NULL},
    {"unicode_iscased", sre_unicode_iscased, METH_O, NULL},
    {"ascii_tolower", sre_ascii_tolower, METH_O, NULL},
    {"unicode_tolower", sre_unicode_tolower, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef sremodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_sre",
    .m_doc = "The regular-expression engine behind the re package.",
    .m_size = -1,
    .m_methods = sre_methods,
};

/* Ready a static type for good: like the core's types, it and what its
   dict holds live until the process ends (no leak reported at exit). */
static int
ready_for_good(PyTypeObject *type)
{
    if (_PyStaticType_InitBuiltin(type) < 0) {
        return -1;
    }
    Py_ssize_t it = 0;
    PyObject *key, *value;
    while (PyDict_Next(type->tp_dict, &it, &key, &value)) {
        _Py_SetImmortal(key);
        _Py_SetImmortal(value);
    }
    return 0;
}

PyObject *
PyInit__sre(void)
{
    PyTypeObject *types[] = {&Pattern_Type, &Match_Type, &Scanner_Type, &Template_Type};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        if (ready_for_good(types[i]) < 0) {
            return NULL;
        }
    }
    PyObject *m = PyModule_Create(&sremodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAGIC", SRE_MAGIC) < 0 ||
        PyModule_AddIntConstant(m, "CODESIZE", (long)sizeof(SreCode)) < 0 ||
        PyModule_Add(m, "MAXREPEAT", PyLong_FromUnsignedLong(SRE_MAXREPEAT)) < 0 ||
        PyModule_Add(m, "MAXGROUPS", PyLong_FromSsize_t(SRE_MAXGROUPS)) < 0 ||
        PyModule_AddStringConstant(m, "copyright", "lazypy regular-expression engine") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
