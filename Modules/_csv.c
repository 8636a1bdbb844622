/* _csv: the C half of csv.py.  A Dialect type holding validated
   formatting parameters, a reader that runs a small character state
   machine over the lines of an iterator, a writer that quotes and escapes
   fields, and the module-wide dialect registry and field size limit. */

#include "Python.h"
#include "pycore_object.h"      /* _PyStaticType_InitBuiltin */

enum { Q_MINIMAL, Q_ALL, Q_NONNUMERIC, Q_NONE, Q_STRINGS, Q_NOTNULL };

#define NO_CHAR ((Py_UCS4)0xFFFFFFFF)   /* "unset" quotechar/escapechar */
#define END_OF_LINE (-1)                /* pseudo character fed after a line */

static PyObject *csv_error;             /* _csv.Error */
static PyObject *dialect_registry;      /* name -> Dialect */
static long size_limit = 128 * 1024;
static PyObject *state_owner;           /* the module holding the above */

typedef struct {
    PyObject_HEAD
    Py_UCS4 delimiter;
    Py_UCS4 quotechar;
    Py_UCS4 escapechar;
    int doublequote;
    int skipinitialspace;
    int strict;
    int quoting;
    PyObject *lineterminator;
} DialectObject;

static PyTypeObject Dialect_Type;

/* ---- Dialect: reading and validating parameters ---- */

/* Convert one character parameter; None allowed when `optional`. */
static int
get_char_param(const char *name, PyObject *v, Py_UCS4 *out, int optional)
{
    if (v == Py_None && optional) {
        *out = NO_CHAR;
        return 0;
    }
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "\"%s\" must be string, not %.100s",
                     name, Py_TYPE(v)->tp_name);
        return -1;
    }
    if (PyUnicode_GET_LENGTH(v) != 1) {
        PyErr_Format(PyExc_TypeError, "\"%s\" must be a 1-character string",
                     name);
        return -1;
    }
    *out = PyUnicode_READ_CHAR(v, 0);
    return 0;
}

static int
get_flag_param(PyObject *v, int *out)
{
    int r = PyObject_IsTrue(v);
    if (r < 0) {
        return -1;
    }
    *out = r;
    return 0;
}

/* Look up parameter `name`: keyword first, then the base dialect.
   Returns 1 with a new reference in *out, 0 when absent, -1 on error. */
static int
lookup_param(PyObject *kwargs, PyObject *base, const char *name,
             PyObject **out)
{
    *out = NULL;
    if (kwargs != NULL) {
        PyObject *v = PyDict_GetItemString(kwargs, name);
        if (v != NULL) {
            *out = Py_NewRef(v);
            return 1;
        }
    }
    if (base == NULL) {
        return 0;
    }
    *out = PyObject_GetAttrString(base, name);
    if (*out != NULL) {
        return 1;
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
        return -1;
    }
    PyErr_Clear();
    return 0;
}

static int
is_line_char(Py_UCS4 c)
{
    return c == '\r' || c == '\n';
}

/* Cross-parameter checks that only make sense once all are known. */
static int
check_consistency(DialectObject *d)
{
    if (is_line_char(d->delimiter)) {
        PyErr_SetString(PyExc_ValueError, "bad delimiter value");
        return -1;
    }
    if (d->quotechar != NO_CHAR && is_line_char(d->quotechar)) {
        PyErr_SetString(PyExc_ValueError, "bad quotechar value");
        return -1;
    }
    if (d->escapechar != NO_CHAR && is_line_char(d->escapechar)) {
        PyErr_SetString(PyExc_ValueError, "bad escapechar value");
        return -1;
    }
    if (d->delimiter == d->quotechar) {
        PyErr_SetString(PyExc_ValueError, "bad delimiter or quotechar value");
        return -1;
    }
    if (d->delimiter == d->escapechar) {
        PyErr_SetString(PyExc_ValueError, "bad delimiter or escapechar value");
        return -1;
    }
    if (d->escapechar != NO_CHAR && d->escapechar == d->quotechar) {
        PyErr_SetString(PyExc_ValueError, "bad escapechar or quotechar value");
        return -1;
    }
    return 0;
}

static int
set_quoting(DialectObject *d, PyObject *v, int quotechar_none)
{
    if (v == NULL) {
        d->quoting = quotechar_none ? Q_NONE : Q_MINIMAL;
        return 0;
    }
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "\"quoting\" must be an integer");
        return -1;
    }
    long q = PyLong_AsLong(v);
    if (q == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (q < Q_MINIMAL || q > Q_NOTNULL) {
        PyErr_SetString(PyExc_TypeError, "bad \"quoting\" value");
        return -1;
    }
    d->quoting = (int)q;
    if (d->quotechar == NO_CHAR && d->quoting != Q_NONE) {
        PyErr_SetString(PyExc_TypeError,
                        "quotechar must be set if quoting enabled");
        return -1;
    }
    return 0;
}

static int
set_lineterminator(DialectObject *d, PyObject *v)
{
    if (v == NULL) {
        d->lineterminator = PyUnicode_FromString("\r\n");
        return d->lineterminator ? 0 : -1;
    }
    if (v == Py_None) {
        PyErr_SetString(PyExc_TypeError, "lineterminator must be set");
        return -1;
    }
    if (!PyUnicode_Check(v)) {
        PyErr_SetString(PyExc_TypeError,
                        "\"lineterminator\" must be a string");
        return -1;
    }
    d->lineterminator = Py_NewRef(v);
    return 0;
}

enum { P_DELIM, P_QUOTE, P_ESC, P_DQ, P_SKIP, P_STRICT, P_QUOTING, P_LT,
       N_PARAMS };

/* Apply the simple parameters; an absent one (NULL) keeps its default. */
static int
set_simple_params(DialectObject *d, PyObject **v)
{
    d->delimiter = ',';
    d->quotechar = '"';
    d->escapechar = NO_CHAR;
    d->doublequote = 1;
    return (v[P_DELIM] && get_char_param("delimiter", v[P_DELIM],
                                         &d->delimiter, 0) < 0)
        || (v[P_QUOTE] && get_char_param("quotechar", v[P_QUOTE],
                                         &d->quotechar, 1) < 0)
        || (v[P_ESC] && get_char_param("escapechar", v[P_ESC],
                                       &d->escapechar, 1) < 0)
        || (v[P_DQ] && get_flag_param(v[P_DQ], &d->doublequote) < 0)
        || (v[P_SKIP] && get_flag_param(v[P_SKIP], &d->skipinitialspace) < 0)
        || (v[P_STRICT] && get_flag_param(v[P_STRICT], &d->strict) < 0)
        ? -1 : 0;
}

static int
fill_dialect(DialectObject *d, PyObject *base, PyObject *kwargs)
{
    static const char *names[N_PARAMS] = {
        "delimiter", "quotechar", "escapechar", "doublequote",
        "skipinitialspace", "strict", "quoting", "lineterminator",
    };
    PyObject *vals[N_PARAMS] = {NULL};
    int rc = -1;
    for (int i = 0; i < N_PARAMS; i++) {
        if (lookup_param(kwargs, base, names[i], &vals[i]) < 0) {
            goto done;
        }
    }
    if (set_simple_params(d, vals) < 0
        || set_quoting(d, vals[P_QUOTING], vals[P_QUOTE] == Py_None) < 0
        || set_lineterminator(d, vals[P_LT]) < 0) {
        goto done;
    }
    rc = check_consistency(d);
done:
    for (int i = 0; i < N_PARAMS; i++) {
        Py_XDECREF(vals[i]);
    }
    return rc;
}

static int
check_kwargs(PyObject *kwargs)
{
    static const char *allowed[] = {
        "dialect", "delimiter", "quotechar", "escapechar", "doublequote",
        "skipinitialspace", "strict", "quoting", "lineterminator", NULL,
    };
    PyObject *key;
    Py_ssize_t pos = 0;
    while (kwargs != NULL && PyDict_Next(kwargs, &pos, &key, NULL)) {
        int ok = 0;
        for (int i = 0; allowed[i] != NULL && !ok; i++) {
            ok = PyUnicode_Check(key)
                 && PyUnicode_CompareWithASCIIString(key, allowed[i]) == 0;
        }
        if (!ok) {
            PyErr_Format(PyExc_TypeError,
                         "this function got an unexpected keyword argument %R",
                         key);
            return -1;
        }
    }
    return 0;
}

/* Resolve a dialect argument: a registered name or any object. */
static PyObject *
resolve_base(PyObject *arg)
{
    if (arg == NULL || arg == Py_None) {
        return NULL;
    }
    if (PyUnicode_Check(arg)) {
        PyObject *d = PyDict_GetItemWithError(dialect_registry, arg);
        if (d == NULL && !PyErr_Occurred()) {
            PyErr_SetString(csv_error, "unknown dialect");
        }
        return Py_XNewRef(d);
    }
    return Py_NewRef(arg);
}

/* Build a Dialect of `type` from an optional base and keyword overrides. */
static PyObject *
make_dialect(PyTypeObject *type, PyObject *arg, PyObject *kwargs)
{
    if (check_kwargs(kwargs) < 0) {
        return NULL;
    }
    PyObject *base = resolve_base(arg);
    if (base == NULL && PyErr_Occurred()) {
        return NULL;
    }
    if (base != NULL && Py_IS_TYPE(base, &Dialect_Type) && type == &Dialect_Type
        && (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0)) {
        return base;                /* immutable: share it */
    }
    DialectObject *d = (DialectObject *)type->tp_alloc(type, 0);
    if (d != NULL && fill_dialect(d, base, kwargs) < 0) {
        Py_CLEAR(d);
    }
    Py_XDECREF(base);
    return (PyObject *)d;
}

/* Split (args, kwargs) into the optional positional/keyword dialect. */
static int
take_dialect_arg(PyObject *args, Py_ssize_t first, PyObject **kwargs,
                 PyObject **arg, const char *fname)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args) - first;
    *arg = NULL;
    if (n > 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %zd positional "
                     "arguments (%zd given)", fname, first + 1, n + first);
        return -1;
    }
    if (n == 1) {
        *arg = PyTuple_GET_ITEM(args, first);
    }
    if (*kwargs != NULL && (*arg = *arg ? *arg
                            : PyDict_GetItemString(*kwargs, "dialect")) != NULL) {
        /* drop "dialect" from a private copy of kwargs */
        PyObject *copy = PyDict_Copy(*kwargs);
        if (copy == NULL || (PyDict_GetItemString(copy, "dialect")
                             && PyDict_DelItemString(copy, "dialect") < 0)) {
            Py_XDECREF(copy);
            return -1;
        }
        *kwargs = copy;
        return 1;
    }
    return 0;
}

static PyObject *
dialect_from_call(PyObject *args, Py_ssize_t first, PyObject *kwargs,
                  const char *fname)
{
    PyObject *arg;
    int copied = take_dialect_arg(args, first, &kwargs, &arg, fname);
    if (copied < 0) {
        return NULL;
    }
    PyObject *res = make_dialect(&Dialect_Type, arg, kwargs);
    if (copied) {
        Py_DECREF(kwargs);
    }
    return res;
}

static PyObject *
Dialect_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *arg;
    int copied = take_dialect_arg(args, 0, &kwargs, &arg, "Dialect");
    if (copied < 0) {
        return NULL;
    }
    PyObject *res = make_dialect(type, arg, kwargs);
    if (copied) {
        Py_DECREF(kwargs);
    }
    return res;
}

static void
Dialect_dealloc(PyObject *self)
{
    Py_XDECREF(((DialectObject *)self)->lineterminator);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
char_or_none(Py_UCS4 c)
{
    if (c == NO_CHAR) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromOrdinal((int)c);
}

static PyObject *
get_delimiter(PyObject *self, void *Py_UNUSED(c))
{
    return char_or_none(((DialectObject *)self)->delimiter);
}

static PyObject *
get_quotechar(PyObject *self, void *Py_UNUSED(c))
{
    return char_or_none(((DialectObject *)self)->quotechar);
}

static PyObject *
get_escapechar(PyObject *self, void *Py_UNUSED(c))
{
    return char_or_none(((DialectObject *)self)->escapechar);
}

static PyObject *
get_lineterminator(PyObject *self, void *Py_UNUSED(c))
{
    return Py_NewRef(((DialectObject *)self)->lineterminator);
}

static PyObject *
get_doublequote(PyObject *self, void *Py_UNUSED(c))
{
    return PyBool_FromLong(((DialectObject *)self)->doublequote);
}

static PyObject *
get_skipinitialspace(PyObject *self, void *Py_UNUSED(c))
{
    return PyBool_FromLong(((DialectObject *)self)->skipinitialspace);
}

static PyObject *
get_strict(PyObject *self, void *Py_UNUSED(c))
{
    return PyBool_FromLong(((DialectObject *)self)->strict);
}

static PyObject *
get_quoting(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(((DialectObject *)self)->quoting);
}

static PyGetSetDef Dialect_getset[] = {
    {"delimiter", get_delimiter, NULL, NULL, NULL},
    {"quotechar", get_quotechar, NULL, NULL, NULL},
    {"escapechar", get_escapechar, NULL, NULL, NULL},
    {"lineterminator", get_lineterminator, NULL, NULL, NULL},
    {"doublequote", get_doublequote, NULL, NULL, NULL},
    {"skipinitialspace", get_skipinitialspace, NULL, NULL, NULL},
    {"strict", get_strict, NULL, NULL, NULL},
    {"quoting", get_quoting, NULL, NULL, NULL},
    {NULL},
};

static PyTypeObject Dialect_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_csv.Dialect",
    .tp_basicsize = sizeof(DialectObject),
    .tp_dealloc = Dialect_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Validated CSV formatting parameters.",
    .tp_getset = Dialect_getset,
    .tp_new = Dialect_new,
};

/* ---- reader ---- */

typedef enum {
    AT_RECORD, AT_FIELD, IN_PLAIN, PLAIN_ESCAPE, IN_QUOTES, QUOTED_ESCAPE,
    QUOTE_SEEN, AFTER_NEWLINE,
} ReadState;

typedef struct {
    PyObject_HEAD
    PyObject *source;           /* iterator of lines */
    DialectObject *dialect;
    PyObject *fields;           /* list being built, or NULL */
    Py_UCS4 *buf;
    Py_ssize_t len, cap;
    int quoted;                 /* current field was quoted */
    ReadState state;
    unsigned long line_num;
} ReaderObject;

static PyTypeObject Reader_Type;

static int
buf_add(ReaderObject *r, Py_UCS4 c)
{
    if (r->len >= size_limit) {
        PyErr_Format(csv_error, "field larger than field limit (%ld)",
                     size_limit);
        return -1;
    }
    if (r->len == r->cap) {
        Py_ssize_t ncap = r->cap ? r->cap * 2 : 64;
        Py_UCS4 *nb = PyMem_Realloc(r->buf, ncap * sizeof(Py_UCS4));
        if (nb == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        r->buf = nb;
        r->cap = ncap;
    }
    r->buf[r->len++] = c;
    return 0;
}

/* Turn the buffered text into a field object per the quoting mode. */
static PyObject *
field_value(ReaderObject *r)
{
    int q = r->dialect->quoting;
    if (!r->quoted && r->len == 0 && (q == Q_NOTNULL || q == Q_STRINGS)) {
        Py_RETURN_NONE;
    }
    Py_ssize_t len = r->len;
    PyObject *s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, r->buf,
                                            len);
    if (s != NULL && !r->quoted && len > 0
        && (q == Q_NONNUMERIC || q == Q_STRINGS)) {
        Py_SETREF(s, PyFloat_FromString(s));
    }
    return s;
}

static int
end_field(ReaderObject *r)
{
    if (r->fields == NULL && (r->fields = PyList_New(0)) == NULL) {
        return -1;
    }
    PyObject *v = field_value(r);
    r->len = 0;
    r->quoted = 0;
    if (v == NULL) {
        return -1;
    }
    int rc = PyList_Append(r->fields, v);
    Py_DECREF(v);
    return rc;
}

/* End the field and, for a line break, the record. */
static int
end_at(ReaderObject *r, int c)
{
    r->state = c == END_OF_LINE ? AT_RECORD : AFTER_NEWLINE;
    return end_field(r);
}

static int
feed_field_start(ReaderObject *r, int c)
{
    DialectObject *d = r->dialect;
    if (c == END_OF_LINE || is_line_char((Py_UCS4)c)) {
        return end_at(r, c);
    }
    if ((Py_UCS4)c == d->quotechar && d->quoting != Q_NONE) {
        r->quoted = 1;
        r->state = IN_QUOTES;
        return 0;
    }
    if ((Py_UCS4)c == d->escapechar) {
        r->state = PLAIN_ESCAPE;
        return 0;
    }
    if (c == ' ' && d->skipinitialspace) {
        return 0;
    }
    if ((Py_UCS4)c == d->delimiter) {
        return end_field(r);
    }
    r->state = IN_PLAIN;
    return buf_add(r, (Py_UCS4)c);
}

static int
feed_plain(ReaderObject *r, int c)
{
    DialectObject *d = r->dialect;
    if (c == END_OF_LINE || is_line_char((Py_UCS4)c)) {
        return end_at(r, c);
    }
    if ((Py_UCS4)c == d->escapechar) {
        r->state = PLAIN_ESCAPE;
        return 0;
    }
    if ((Py_UCS4)c == d->delimiter) {
        r->state = AT_FIELD;
        return end_field(r);
    }
    return buf_add(r, (Py_UCS4)c);
}

static int
feed_quoted(ReaderObject *r, int c)
{
    DialectObject *d = r->dialect;
    if (c == END_OF_LINE) {
        return 0;                   /* the field goes on in the next line */
    }
    if ((Py_UCS4)c == d->escapechar) {
        r->state = QUOTED_ESCAPE;
        return 0;
    }
    if ((Py_UCS4)c == d->quotechar) {
        r->state = d->doublequote ? QUOTE_SEEN : IN_PLAIN;
        return 0;
    }
    return buf_add(r, (Py_UCS4)c);
}

/* After a quote inside a quoted field: a doubled quote or the field end. */
static int
feed_quote_seen(ReaderObject *r, int c)
{
    DialectObject *d = r->dialect;
    if ((Py_UCS4)c == d->quotechar && c != END_OF_LINE) {
        r->state = IN_QUOTES;
        return buf_add(r, (Py_UCS4)c);
    }
    if (c == END_OF_LINE || is_line_char((Py_UCS4)c)) {
        return end_at(r, c);
    }
    if ((Py_UCS4)c == d->delimiter) {
        r->state = AT_FIELD;
        return end_field(r);
    }
    if (d->strict) {
        PyErr_Format(csv_error, "'%c' expected after '%c'",
                     (int)d->delimiter, (int)d->quotechar);
        return -1;
    }
    r->state = IN_PLAIN;
    return buf_add(r, (Py_UCS4)c);
}

static int
feed_char(ReaderObject *r, int c)
{
    switch (r->state) {
    case AT_RECORD:
        if (c == END_OF_LINE) {
            return 0;
        }
        if (is_line_char((Py_UCS4)c)) {
            r->state = AFTER_NEWLINE;
            return 0;
        }
        r->state = AT_FIELD;
        return feed_field_start(r, c);
    case AT_FIELD:
        return feed_field_start(r, c);
    case IN_PLAIN:
        return feed_plain(r, c);
    case PLAIN_ESCAPE:
    case QUOTED_ESCAPE:
        r->state = r->state == PLAIN_ESCAPE ? IN_PLAIN : IN_QUOTES;
        return buf_add(r, c == END_OF_LINE ? '\n' : (Py_UCS4)c);
    case IN_QUOTES:
        return feed_quoted(r, c);
    case QUOTE_SEEN:
        return feed_quote_seen(r, c);
    case AFTER_NEWLINE:
        if (c == END_OF_LINE) {
            r->state = AT_RECORD;
            return 0;
        }
        if (is_line_char((Py_UCS4)c)) {
            return 0;
        }
        PyErr_SetString(csv_error, "new-line character seen in unquoted "
                        "field - do you need to open the file with "
                        "newline=''?");
        return -1;
    }
    return 0;
}

static int
feed_line(ReaderObject *r, PyObject *line)
{
    if (!PyUnicode_Check(line)) {
        PyErr_Format(csv_error, "iterator should return strings, not %.200s "
                     "(the file should be opened in text mode)",
                     Py_TYPE(line)->tp_name);
        return -1;
    }
    r->line_num++;
    Py_ssize_t n = PyUnicode_GET_LENGTH(line);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (feed_char(r, (int)PyUnicode_READ_CHAR(line, i)) < 0) {
            return -1;
        }
    }
    return feed_char(r, END_OF_LINE);
}

/* The source ran dry: flush a pending record, if any. */
static PyObject *
finish_at_eof(ReaderObject *r)
{
    if (r->state == AT_RECORD && r->fields == NULL) {
        return NULL;                /* plain StopIteration */
    }
    if (r->state == IN_QUOTES && r->dialect->strict) {
        PyErr_SetString(csv_error, "unexpected end of data");
        return NULL;
    }
    if (r->state != AT_RECORD && end_field(r) < 0) {
        return NULL;
    }
    r->state = AT_RECORD;
    PyObject *rec = r->fields;
    r->fields = NULL;
    return rec;
}

static PyObject *
Reader_next(PyObject *self)
{
    ReaderObject *r = (ReaderObject *)self;
    Py_CLEAR(r->fields);
    r->len = 0;
    r->quoted = 0;
    r->state = AT_RECORD;
    do {
        PyObject *line = PyIter_Next(r->source);
        if (line == NULL) {
            return PyErr_Occurred() ? NULL : finish_at_eof(r);
        }
        int rc = feed_line(r, line);
        Py_DECREF(line);
        if (rc < 0) {
            return NULL;
        }
    } while (r->state != AT_RECORD);
    PyObject *rec = r->fields ? r->fields : PyList_New(0);
    r->fields = NULL;
    return rec;
}

static void
Reader_dealloc(PyObject *self)
{
    ReaderObject *r = (ReaderObject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(r->source);
    Py_XDECREF(r->dialect);
    Py_XDECREF(r->fields);
    PyMem_Free(r->buf);
    PyObject_GC_Del(self);
}

static int
Reader_traverse(PyObject *self, visitproc visit, void *arg)
{
    ReaderObject *r = (ReaderObject *)self;
    Py_VISIT(r->source);
    Py_VISIT(r->dialect);
    Py_VISIT(r->fields);
    return 0;
}

static PyMemberDef Reader_members[] = {
    {"dialect", Py_T_OBJECT_EX, offsetof(ReaderObject, dialect), Py_READONLY, NULL},
    {"line_num", Py_T_ULONG, offsetof(ReaderObject, line_num), Py_READONLY, NULL},
    {NULL},
};

static PyTypeObject Reader_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_csv.reader",
    .tp_basicsize = sizeof(ReaderObject),
    .tp_dealloc = Reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Iterator of CSV records, each a list of fields.",
    .tp_traverse = Reader_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = Reader_next,
    .tp_members = Reader_members,
};

static PyObject *
csv_reader(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) < 1) {
        PyErr_SetString(PyExc_TypeError, "expected at least 1 argument, got 0");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(PyTuple_GET_ITEM(args, 0));
    if (it == NULL) {
        return NULL;
    }
    PyObject *d = dialect_from_call(args, 1, kwargs, "reader");
    if (d == NULL) {
        Py_DECREF(it);
        return NULL;
    }
    ReaderObject *r = PyObject_GC_New(ReaderObject, &Reader_Type);
    if (r == NULL) {
        Py_DECREF(it);
        Py_DECREF(d);
        return NULL;
    }
    r->source = it;
    r->dialect = (DialectObject *)d;
    r->fields = NULL;
    r->buf = NULL;
    r->len = r->cap = 0;
    r->quoted = 0;
    r->state = AT_RECORD;
    r->line_num = 0;
    PyObject_GC_Track((PyObject *)r);
    return (PyObject *)r;
}

/* ---- writer ---- */

typedef struct {
    PyObject_HEAD
    PyObject *write;            /* bound write method of the file */
    DialectObject *dialect;
} WriterObject;

static PyTypeObject Writer_Type;

/* Does `c` force quoting (or escaping, under QUOTE_NONE)? */
static int
is_special(DialectObject *d, Py_UCS4 c)
{
    if (c == d->delimiter || c == d->quotechar || is_line_char(c)) {
        return 1;
    }
    return PyUnicode_FindChar(d->lineterminator, c, 0,
                              PyUnicode_GET_LENGTH(d->lineterminator), 1) >= 0;
}

/* Append one field's text to `out`, quoting when `quote` or needed. */
static int
put_field(_PyUnicodeWriter *out, DialectObject *d, PyObject *s, int quote)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (d->quoting == Q_MINIMAL) {
        for (Py_ssize_t i = 0; i < n && !quote; i++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
            /* without doublequote a quotechar is escaped, not quoted */
            quote = is_special(d, c) && c != d->escapechar
                    && !(c == d->quotechar && !d->doublequote);
        }
    }
    if (quote && _PyUnicodeWriter_WriteChar(out, d->quotechar) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
        int esc = c == d->escapechar
                  || (c == d->quotechar && !(quote && d->doublequote))
                  || (!quote && is_special(d, c));
        if (quote && c == d->quotechar && d->doublequote) {
            if (_PyUnicodeWriter_WriteChar(out, c) < 0) {
                return -1;
            }
        }
        else if (esc && d->escapechar == NO_CHAR) {
            PyErr_SetString(csv_error, "need to escape, but no escapechar set");
            return -1;
        }
        if ((esc && _PyUnicodeWriter_WriteChar(out, d->escapechar) < 0)
            || _PyUnicodeWriter_WriteChar(out, c) < 0) {
            return -1;
        }
    }
    if (quote && _PyUnicodeWriter_WriteChar(out, d->quotechar) < 0) {
        return -1;
    }
    return 0;
}

/* Whether a field object must be quoted under the non-minimal modes. */
static int
wants_quotes(DialectObject *d, PyObject *v)
{
    switch (d->quoting) {
    case Q_ALL:
        return 1;
    case Q_NONNUMERIC:
        return !PyNumber_Check(v) || PyUnicode_Check(v);
    case Q_STRINGS:
        return PyUnicode_Check(v);
    case Q_NOTNULL:
        return v != Py_None;
    default:
        return 0;
    }
}

static int
put_item(_PyUnicodeWriter *out, DialectObject *d, PyObject *v, int single)
{
    int quote = wants_quotes(d, v);
    PyObject *s;
    if (v == Py_None) {
        s = PyUnicode_FromString("");
    }
    else {
        s = PyObject_Str(v);
    }
    if (s == NULL) {
        return -1;
    }
    if (single && PyUnicode_GET_LENGTH(s) == 0) {
        if (d->quoting == Q_NONE) {
            Py_DECREF(s);
            PyErr_SetString(csv_error, "single empty field record must be quoted");
            return -1;
        }
        quote = 1;
    }
    int rc = put_field(out, d, s, quote);
    Py_DECREF(s);
    return rc;
}

static PyObject *
format_row(DialectObject *d, PyObject *row)
{
    PyObject *it = PyObject_GetIter(row);
    if (it == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Format(csv_error, "iterable expected, not %.200s",
                         Py_TYPE(row)->tp_name);
        }
        return NULL;
    }
    /* materialised so the one-field rule can see the row length */
    PyObject *items = PySequence_List(it);
    Py_DECREF(it);
    if (items == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(items);
    _PyUnicodeWriter out;
    _PyUnicodeWriter_Init(&out);
    for (Py_ssize_t i = 0; i < n; i++) {
        if ((i > 0 && _PyUnicodeWriter_WriteChar(&out, d->delimiter) < 0)
            || put_item(&out, d, PyList_GET_ITEM(items, i), n == 1) < 0) {
            _PyUnicodeWriter_Dealloc(&out);
            Py_DECREF(items);
            return NULL;
        }
    }
    Py_DECREF(items);
    if (_PyUnicodeWriter_WriteStr(&out, d->lineterminator) < 0) {
        _PyUnicodeWriter_Dealloc(&out);
        return NULL;
    }
    return _PyUnicodeWriter_Finish(&out);
}

static PyObject *
Writer_writerow(PyObject *self, PyObject *row)
{
    WriterObject *w = (WriterObject *)self;
    PyObject *line = format_row(w->dialect, row);
    if (line == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallOneArg(w->write, line);
    Py_DECREF(line);
    return res;
}

static PyObject *
Writer_writerows(PyObject *self, PyObject *rows)
{
    PyObject *it = PyObject_GetIter(rows);
    if (it == NULL) {
        return NULL;
    }
    PyObject *row;
    while ((row = PyIter_Next(it)) != NULL) {
        PyObject *res = Writer_writerow(self, row);
        Py_DECREF(row);
        if (res == NULL) {
            Py_DECREF(it);
            return NULL;
        }
        Py_DECREF(res);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static void
Writer_dealloc(PyObject *self)
{
    WriterObject *w = (WriterObject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(w->write);
    Py_XDECREF(w->dialect);
    PyObject_GC_Del(self);
}

static int
Writer_traverse(PyObject *self, visitproc visit, void *arg)
{
    WriterObject *w = (WriterObject *)self;
    Py_VISIT(w->write);
    Py_VISIT(w->dialect);
    return 0;
}

static PyMethodDef Writer_methods[] = {
    {"writerow", Writer_writerow, METH_O, "Format one row and write it."},
    {"writerows", Writer_writerows, METH_O, "Write every row of an iterable."},
    {NULL},
};

static PyMemberDef Writer_members[] = {
    {"dialect", Py_T_OBJECT_EX, offsetof(WriterObject, dialect), Py_READONLY, NULL},
    {NULL},
};

static PyTypeObject Writer_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_csv.writer",
    .tp_basicsize = sizeof(WriterObject),
    .tp_dealloc = Writer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Writes rows as CSV lines to a file-like object.",
    .tp_traverse = Writer_traverse,
    .tp_methods = Writer_methods,
    .tp_members = Writer_members,
};

static PyObject *
csv_writer(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) < 1) {
        PyErr_SetString(PyExc_TypeError, "expected at least 1 argument, got 0");
        return NULL;
    }
    PyObject *write = PyObject_GetAttrString(PyTuple_GET_ITEM(args, 0), "write");
    if (write == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_SetString(PyExc_TypeError,
                            "argument 1 must have a \"write\" method");
        }
        return NULL;
    }
    PyObject *d = dialect_from_call(args, 1, kwargs, "writer");
    WriterObject *w = d ? PyObject_GC_New(WriterObject, &Writer_Type) : NULL;
    if (w == NULL) {
        Py_DECREF(write);
        Py_XDECREF(d);
        return NULL;
    }
    w->write = write;
    w->dialect = (DialectObject *)d;
    PyObject_GC_Track((PyObject *)w);
    return (PyObject *)w;
}

/* ---- registry and limit ---- */

/* The first positional argument of register_dialect, or NULL if bad. */
static PyObject *
registration_name(PyObject *args)
{
    PyObject *name = PyTuple_GET_SIZE(args) ? PyTuple_GET_ITEM(args, 0) : NULL;
    if (name == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "register_dialect() needs a dialect name");
    }
    else if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "dialect name must be a string");
        name = NULL;
    }
    return name;
}

static PyObject *
csv_register_dialect(PyObject *Py_UNUSED(module), PyObject *args,
                     PyObject *kwargs)
{
    PyObject *name = registration_name(args);
    PyObject *dialect = name ? dialect_from_call(args, 1, kwargs,
                                                 "register_dialect") : NULL;
    int failed = dialect == NULL
                 || PyDict_SetItem(dialect_registry, name, dialect) < 0;
    Py_XDECREF(dialect);
    return failed ? NULL : Py_NewRef(Py_None);
}

static PyObject *
csv_unregister_dialect(PyObject *Py_UNUSED(module), PyObject *name)
{
    int rc = PyDict_Pop(dialect_registry, name, NULL);
    if (rc < 0) {
        return NULL;
    }
    if (rc == 0) {
        PyErr_SetString(csv_error, "unknown dialect");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
csv_get_dialect(PyObject *Py_UNUSED(module), PyObject *name)
{
    PyObject *d = PyDict_GetItemWithError(dialect_registry, name);
    if (d == NULL && !PyErr_Occurred()) {
        PyErr_SetString(csv_error, "unknown dialect");
    }
    return Py_XNewRef(d);
}

static PyObject *
csv_list_dialects(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(a))
{
    return PyDict_Keys(dialect_registry);
}

static PyObject *
csv_field_size_limit(PyObject *Py_UNUSED(module), PyObject *args,
                     PyObject *kwargs)
{
    static char *kwlist[] = {"new_limit", NULL};
    PyObject *nl = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:field_size_limit",
                                     kwlist, &nl)) {
        return NULL;
    }
    long old = size_limit;
    if (nl != NULL) {
        if (!PyLong_Check(nl)) {
            PyErr_SetString(PyExc_TypeError, "limit must be an integer");
            return NULL;
        }
        long v = PyLong_AsLong(nl);
        if (v == -1 && PyErr_Occurred()) {
            return NULL;
        }
        size_limit = v;
    }
    return PyLong_FromLong(old);
}

static PyMethodDef csv_methods[] = {
    {"reader", (PyCFunction)(void (*)(void))csv_reader,
     METH_VARARGS | METH_KEYWORDS, "reader(iterable, dialect='excel', **fmt)"},
    {"writer", (PyCFunction)(void (*)(void))csv_writer,
     METH_VARARGS | METH_KEYWORDS, "writer(fileobj, dialect='excel', **fmt)"},
    {"register_dialect", (PyCFunction)(void (*)(void))csv_register_dialect,
     METH_VARARGS | METH_KEYWORDS, "Store a dialect under a name."},
    {"unregister_dialect", csv_unregister_dialect, METH_O,
     "Forget a registered dialect."},
    {"get_dialect", csv_get_dialect, METH_O, "Return a registered dialect."},
    {"list_dialects", csv_list_dialects, METH_NOARGS,
     "Names of all registered dialects."},
    {"field_size_limit", (PyCFunction)(void (*)(void))csv_field_size_limit,
     METH_VARARGS | METH_KEYWORDS,
     "Return the field size limit, optionally setting a new one."},
    {NULL},
};

/* Drop the shared state when its module goes away at finalization. */
static void
csv_module_free(void *m)
{
    if (m != state_owner) {
        return;
    }
    Py_CLEAR(dialect_registry);
    Py_CLEAR(csv_error);
    state_owner = NULL;
}

static struct PyModuleDef csvmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_csv",
    .m_doc = "Low-level CSV parsing and writing used by the csv module.",
    .m_size = -1,
    .m_methods = csv_methods,
    .m_free = csv_module_free,
};

static int
add_constants(PyObject *m)
{
    static const struct { const char *name; int value; } consts[] = {
        {"QUOTE_MINIMAL", Q_MINIMAL}, {"QUOTE_ALL", Q_ALL},
        {"QUOTE_NONNUMERIC", Q_NONNUMERIC}, {"QUOTE_NONE", Q_NONE},
        {"QUOTE_STRINGS", Q_STRINGS}, {"QUOTE_NOTNULL", Q_NOTNULL},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(consts); i++) {
        if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value) < 0) {
            return -1;
        }
    }
    return PyModule_AddStringConstant(m, "__version__", "1.0");
}

static int
init_module(PyObject *m)
{
    if (_PyStaticType_InitBuiltin(&Dialect_Type) < 0
        || _PyStaticType_InitBuiltin(&Reader_Type) < 0
        || _PyStaticType_InitBuiltin(&Writer_Type) < 0) {
        return -1;
    }
    if (dialect_registry == NULL
        && (dialect_registry = PyDict_New()) == NULL) {
        return -1;
    }
    if (csv_error == NULL
        && (csv_error = PyErr_NewException("_csv.Error", NULL, NULL)) == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(m, "Error", csv_error) < 0
        || PyModule_AddObjectRef(m, "Dialect", (PyObject *)&Dialect_Type) < 0
        || PyModule_AddObjectRef(m, "Reader", (PyObject *)&Reader_Type) < 0
        || PyModule_AddObjectRef(m, "Writer", (PyObject *)&Writer_Type) < 0
        || PyModule_AddObjectRef(m, "_dialects", dialect_registry) < 0) {
        return -1;
    }
    if (state_owner == NULL) {
        state_owner = m;
    }
    return add_constants(m);
}

PyObject *
PyInit__csv(void)
{
    PyObject *m = PyModule_Create(&csvmodule);
    if (m != NULL && init_module(m) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
