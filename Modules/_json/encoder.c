/* The Encoder type (json.encoder.c_make_encoder): serialises an object
   graph into one str, with the separators, indentation, key ordering,
   circular-reference markers and default() fallback of a JSONEncoder.
   Calling it with (obj, _current_indent_level) returns a 1-tuple holding
   the whole document.  Errors carry the same "when serializing ..." notes
   json.encoder's pure-Python path adds. */

#include "json.h"
#include <math.h>

enum quote_mode { QUOTE_BY_CALL, QUOTE_ASCII, QUOTE_UNICODE };

typedef struct {
    PyObject_HEAD
    PyObject *markers;          /* dict of id(container) -> container, or None */
    PyObject *default_fn;
    PyObject *quote_fn;         /* the `encoder` argument */
    PyObject *indent;           /* str or None */
    PyObject *key_separator;
    PyObject *item_separator;
    int sort_keys;
    int skipkeys;
    int allow_nan;
    enum quote_mode quote_mode;
} EncoderObject;

static int write_value(EncoderObject *e, PyUnicodeWriter *w, PyObject *obj,
                       Py_ssize_t level);

/* Attach a note to the exception being raised (formatted like
   PyUnicode_FromFormat). */
static void
add_note(const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    PyObject *note = PyUnicode_FromFormatV(format, vargs);
    va_end(vargs);
    PyObject *exc = PyErr_GetRaisedException();
    if (note != NULL && exc != NULL) {
        PyObject *res = PyObject_CallMethod(exc, "add_note", "O", note);
        if (res == NULL) {
            /* A failure to annotate replaces nothing: keep the original. */
            PyErr_Clear();
        }
        Py_XDECREF(res);
    }
    Py_XDECREF(note);
    PyErr_SetRaisedException(exc);
}

/* ---- scalars -------------------------------------------------------- */

static int
write_quoted(EncoderObject *e, PyUnicodeWriter *w, PyObject *text)
{
    PyObject *quoted;
    if (e->quote_mode == QUOTE_BY_CALL) {
        quoted = PyObject_CallOneArg(e->quote_fn, text);
        if (quoted != NULL && !PyUnicode_Check(quoted)) {
            PyErr_Format(PyExc_TypeError,
                         "encoder() must return a string, not %.80s",
                         Py_TYPE(quoted)->tp_name);
            Py_CLEAR(quoted);
        }
    }
    else {
        quoted = _PyJson_QuoteString(text, e->quote_mode == QUOTE_ASCII);
    }
    if (quoted == NULL) {
        return -1;
    }
    int rc = PyUnicodeWriter_WriteStr(w, quoted);
    Py_DECREF(quoted);
    return rc;
}

/* The JSON text of a float (float.__repr__ for finite values, so float
   subclasses with their own __repr__ still print as numbers). */
static PyObject *
float_text(EncoderObject *e, PyObject *obj)
{
    double v = PyFloat_AS_DOUBLE(obj);
    if (isfinite(v)) {
        return PyFloat_Type.tp_repr(obj);
    }
    if (!e->allow_nan) {
        PyErr_Format(PyExc_ValueError,
                     "Out of range float values are not JSON compliant: %R",
                     obj);
        return NULL;
    }
    return PyUnicode_FromString(isnan(v) ? "NaN"
                                : v > 0 ? "Infinity" : "-Infinity");
}

/* Write a text made by `make` (a new reference or NULL). */
static int
write_made(PyUnicodeWriter *w, PyObject *text)
{
    if (text == NULL) {
        return -1;
    }
    int rc = PyUnicodeWriter_WriteStr(w, text);
    Py_DECREF(text);
    return rc;
}

/* Write obj if it is a scalar: 1 if written, 0 if not a scalar, -1 on
   error. */
static int
write_scalar(EncoderObject *e, PyUnicodeWriter *w, PyObject *obj)
{
    int rc;
    if (PyUnicode_Check(obj)) {
        rc = write_quoted(e, w, obj);
    }
    else if (obj == Py_None) {
        rc = PyUnicodeWriter_WriteASCII(w, "null", 4);
    }
    else if (obj == Py_True) {
        rc = PyUnicodeWriter_WriteASCII(w, "true", 4);
    }
    else if (obj == Py_False) {
        rc = PyUnicodeWriter_WriteASCII(w, "false", 5);
    }
    else if (PyLong_Check(obj)) {
        rc = write_made(w, PyLong_Type.tp_repr(obj));
    }
    else if (PyFloat_Check(obj)) {
        rc = write_made(w, float_text(e, obj));
    }
    else {
        return 0;
    }
    return rc < 0 ? -1 : 1;
}

/* ---- layout helpers ------------------------------------------------- */

/* '\n' followed by `level` copies of the indent. */
static int
write_newline(EncoderObject *e, PyUnicodeWriter *w, Py_ssize_t level)
{
    if (PyUnicodeWriter_WriteChar(w, '\n') < 0) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < level; k++) {
        if (PyUnicodeWriter_WriteStr(w, e->indent) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The item separator, then the line break when indenting. */
static int
write_item_gap(EncoderObject *e, PyUnicodeWriter *w, Py_ssize_t level)
{
    if (PyUnicodeWriter_WriteStr(w, e->item_separator) < 0) {
        return -1;
    }
    return e->indent == Py_None ? 0 : write_newline(e, w, level);
}

/* Record obj as being serialised.  *ident receives the marker key (NULL
   when circular checking is off). */
static int
push_marker(EncoderObject *e, PyObject *obj, PyObject **ident)
{
    *ident = NULL;
    if (e->markers == Py_None) {
        return 0;
    }
    PyObject *key = PyLong_FromVoidPtr(obj);
    if (key == NULL) {
        return -1;
    }
    int seen = PyDict_Contains(e->markers, key);
    if (seen != 0) {
        if (seen > 0) {
            PyErr_SetString(PyExc_ValueError, "Circular reference detected");
        }
        Py_DECREF(key);
        return -1;
    }
    if (PyDict_SetItem(e->markers, key, obj) < 0) {
        Py_DECREF(key);
        return -1;
    }
    *ident = key;
    return 0;
}

static int
pop_marker(EncoderObject *e, PyObject *ident)
{
    if (ident == NULL) {
        return 0;
    }
    int rc = PyDict_DelItem(e->markers, ident);
    Py_DECREF(ident);
    return rc;
}

/* Whether a container is empty, as `not obj` would say. */
static int
is_empty(PyObject *obj)
{
    if (PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) {
        return Py_SIZE(obj) == 0;
    }
    if (PyDict_CheckExact(obj)) {
        return PyDict_GET_SIZE(obj) == 0;
    }
    int truth = PyObject_IsTrue(obj);
    return truth < 0 ? -1 : !truth;
}

/* ---- arrays --------------------------------------------------------- */

/* Write one array item (after its separator), annotating failures. */
static int
write_item(EncoderObject *e, PyUnicodeWriter *w, PyObject *seq,
           Py_ssize_t index, PyObject *item, Py_ssize_t level)
{
    if (write_value(e, w, item, level) == 0) {
        return 0;
    }
    PyObject *type_name = PyType_GetName(Py_TYPE(seq));
    if (type_name != NULL) {
        add_note("when serializing %U item %zd", type_name, index);
        Py_DECREF(type_name);
    }
    return -1;
}

static int
write_items(EncoderObject *e, PyUnicodeWriter *w, PyObject *seq,
            Py_ssize_t level)
{
    PyObject *it = PyObject_GetIter(seq);
    if (it == NULL) {
        return -1;
    }
    PyObject *item;
    Py_ssize_t index = 0;
    while ((item = PyIter_Next(it)) != NULL) {
        int rc = (index == 0 ? 0 : write_item_gap(e, w, level));
        if (rc == 0) {
            rc = write_item(e, w, seq, index, item, level);
        }
        Py_DECREF(item);
        if (rc < 0) {
            Py_DECREF(it);
            return -1;
        }
        index++;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static int
write_list(EncoderObject *e, PyUnicodeWriter *w, PyObject *seq,
           Py_ssize_t level)
{
    int empty = is_empty(seq);
    if (empty != 0) {
        return empty < 0 ? -1 : PyUnicodeWriter_WriteASCII(w, "[]", 2);
    }
    PyObject *ident;
    if (push_marker(e, seq, &ident) < 0
        || PyUnicodeWriter_WriteChar(w, '[') < 0) {
        goto error;
    }
    int indented = e->indent != Py_None;
    if ((indented && write_newline(e, w, level + 1) < 0)
        || write_items(e, w, seq, level + 1) < 0
        || (indented && write_newline(e, w, level) < 0)
        || PyUnicodeWriter_WriteChar(w, ']') < 0) {
        goto error;
    }
    return pop_marker(e, ident);
error:
    Py_XDECREF(ident);
    return -1;
}

/* ---- objects -------------------------------------------------------- */

/* Turn a dict key into the str that names it.  Returns 1 with *text set,
   0 when skipkeys drops the key, -1 on error. */
static int
key_text(EncoderObject *e, PyObject *key, PyObject **text)
{
    if (PyUnicode_Check(key)) {
        *text = Py_NewRef(key);
    }
    else if (PyFloat_Check(key)) {
        *text = float_text(e, key);
    }
    else if (key == Py_True || key == Py_False || key == Py_None) {
        *text = PyUnicode_FromString(key == Py_True ? "true"
                                     : key == Py_False ? "false" : "null");
    }
    else if (PyLong_Check(key)) {
        *text = PyLong_Type.tp_repr(key);
    }
    else if (e->skipkeys) {
        return 0;
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "keys must be str, int, float, bool or None, not %.100s",
                     Py_TYPE(key)->tp_name);
        return -1;
    }
    return *text == NULL ? -1 : 1;
}

/* Write one "key": value member.  *first tracks whether a member has been
   written yet (the gap before it differs). */
static int
write_member(EncoderObject *e, PyUnicodeWriter *w, PyObject *dct,
             PyObject *key, PyObject *value, Py_ssize_t level, int *first)
{
    PyObject *text;
    int have = key_text(e, key, &text);
    if (have <= 0) {
        return have;
    }
    int rc;
    if (*first) {
        rc = e->indent == Py_None ? 0 : write_newline(e, w, level);
        *first = 0;
    }
    else {
        rc = write_item_gap(e, w, level);
    }
    if (rc == 0 && write_quoted(e, w, text) == 0
        && PyUnicodeWriter_WriteStr(w, e->key_separator) == 0) {
        rc = write_value(e, w, value, level);
        if (rc < 0) {
            PyObject *type_name = PyType_GetName(Py_TYPE(dct));
            if (type_name != NULL) {
                add_note("when serializing %U item %R", type_name, text);
                Py_DECREF(type_name);
            }
        }
    }
    else {
        rc = -1;
    }
    Py_DECREF(text);
    return rc;
}

/* The (key, value) pairs to write, as a list: dict.items() for subclasses
   (which may override it) and for sorting, sorted when asked. */
static PyObject *
member_list(EncoderObject *e, PyObject *dct)
{
    PyObject *items = PyMapping_Items(dct);
    if (items != NULL && e->sort_keys && PyList_Sort(items) < 0) {
        Py_CLEAR(items);
    }
    return items;
}

static int
write_members(EncoderObject *e, PyUnicodeWriter *w, PyObject *dct,
              Py_ssize_t level, int *first)
{
    if (PyDict_CheckExact(dct) && !e->sort_keys) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(dct, &pos, &key, &value)) {
            Py_INCREF(key);
            Py_INCREF(value);
            int rc = write_member(e, w, dct, key, value, level, first);
            Py_DECREF(key);
            Py_DECREF(value);
            if (rc < 0) {
                return -1;
            }
        }
        return 0;
    }
    PyObject *items = member_list(e, dct);
    if (items == NULL) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(items); k++) {
        PyObject *pair = PyList_GET_ITEM(items, k);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "items must return 2-tuples");
            Py_DECREF(items);
            return -1;
        }
        if (write_member(e, w, dct, PyTuple_GET_ITEM(pair, 0),
                         PyTuple_GET_ITEM(pair, 1), level, first) < 0) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    return 0;
}

static int
write_dict(EncoderObject *e, PyUnicodeWriter *w, PyObject *dct,
           Py_ssize_t level)
{
    int empty = is_empty(dct);
    if (empty != 0) {
        return empty < 0 ? -1 : PyUnicodeWriter_WriteASCII(w, "{}", 2);
    }
    PyObject *ident;
    int first = 1;
    if (push_marker(e, dct, &ident) < 0
        || PyUnicodeWriter_WriteChar(w, '{') < 0
        || write_members(e, w, dct, level + 1, &first) < 0
        || (!first && e->indent != Py_None && write_newline(e, w, level) < 0)
        || PyUnicodeWriter_WriteChar(w, '}') < 0) {
        Py_XDECREF(ident);
        return -1;
    }
    return pop_marker(e, ident);
}

/* ---- anything else: default() -------------------------------------- */

static int
write_converted(EncoderObject *e, PyUnicodeWriter *w, PyObject *obj,
                Py_ssize_t level)
{
    PyObject *ident;
    if (push_marker(e, obj, &ident) < 0) {
        return -1;
    }
    PyObject *replacement = PyObject_CallOneArg(e->default_fn, obj);
    if (replacement == NULL) {
        Py_XDECREF(ident);
        return -1;
    }
    int rc = write_value(e, w, replacement, level);
    Py_DECREF(replacement);
    if (rc < 0) {
        PyObject *type_name = PyType_GetName(Py_TYPE(obj));
        if (type_name != NULL) {
            add_note("when serializing %U object", type_name);
            Py_DECREF(type_name);
        }
        Py_XDECREF(ident);
        return -1;
    }
    return pop_marker(e, ident);
}

static int
write_value(EncoderObject *e, PyUnicodeWriter *w, PyObject *obj,
            Py_ssize_t level)
{
    int done = write_scalar(e, w, obj);
    if (done != 0) {
        return done < 0 ? -1 : 0;
    }
    if (Py_EnterRecursiveCall(" while encoding a JSON object")) {
        return -1;
    }
    int rc;
    if (PyList_Check(obj) || PyTuple_Check(obj)) {
        rc = write_list(e, w, obj, level);
    }
    else if (PyDict_Check(obj)) {
        rc = write_dict(e, w, obj, level);
    }
    else {
        rc = write_converted(e, w, obj, level);
    }
    Py_LeaveRecursiveCall();
    return rc;
}

/* ---- the type ------------------------------------------------------- */

static PyObject *
encoder_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"obj", "_current_indent_level", NULL};
    PyObject *obj;
    Py_ssize_t level;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "On:_iterencode", kwlist,
                                     &obj, &level)) {
        return NULL;
    }
    PyUnicodeWriter *w = PyUnicodeWriter_Create(0);
    if (w == NULL) {
        return NULL;
    }
    if (write_value((EncoderObject *)self, w, obj, level) < 0) {
        PyUnicodeWriter_Discard(w);
        return NULL;
    }
    PyObject *text = PyUnicodeWriter_Finish(w);
    return text == NULL ? NULL : Py_BuildValue("(N)", text);
}

static int
check_arg(int ok, int position, const char *expected, PyObject *arg)
{
    if (ok) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "make_encoder() argument %d must be %s, not %.80s",
                 position, expected, Py_TYPE(arg)->tp_name);
    return -1;
}

/* Which built-in quoting function, if any, `fn` is. */
static enum quote_mode
quote_mode_of(PyObject *fn)
{
    if (!PyCFunction_Check(fn)) {
        return QUOTE_BY_CALL;
    }
    PyCFunction impl = PyCFunction_GetFunction(fn);
    if (impl == (PyCFunction)_PyJson_encode_basestring_ascii) {
        return QUOTE_ASCII;
    }
    if (impl == (PyCFunction)_PyJson_encode_basestring) {
        return QUOTE_UNICODE;
    }
    return QUOTE_BY_CALL;
}

static PyObject *
encoder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"markers", "default", "encoder", "indent",
                             "key_separator", "item_separator", "sort_keys",
                             "skipkeys", "allow_nan", NULL};
    PyObject *markers, *default_fn, *quote_fn, *indent, *key_sep, *item_sep;
    int sort_keys, skipkeys, allow_nan;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOppp:make_encoder",
                                     kwlist, &markers, &default_fn, &quote_fn,
                                     &indent, &key_sep, &item_sep, &sort_keys,
                                     &skipkeys, &allow_nan)) {
        return NULL;
    }
    if (check_arg(markers == Py_None || PyDict_Check(markers), 1,
                  "dict or None", markers) < 0
        || check_arg(indent == Py_None || PyUnicode_Check(indent), 4,
                     "str or None", indent) < 0
        || check_arg(PyUnicode_Check(key_sep), 5, "str", key_sep) < 0
        || check_arg(PyUnicode_Check(item_sep), 6, "str", item_sep) < 0) {
        return NULL;
    }
    EncoderObject *e = (EncoderObject *)type->tp_alloc(type, 0);
    if (e == NULL) {
        return NULL;
    }
    e->markers = Py_NewRef(markers);
    e->default_fn = Py_NewRef(default_fn);
    e->quote_fn = Py_NewRef(quote_fn);
    e->indent = Py_NewRef(indent);
    e->key_separator = Py_NewRef(key_sep);
    e->item_separator = Py_NewRef(item_sep);
    e->sort_keys = sort_keys;
    e->skipkeys = skipkeys;
    e->allow_nan = allow_nan;
    e->quote_mode = quote_mode_of(quote_fn);
    return (PyObject *)e;
}

static int
encoder_traverse(PyObject *self, visitproc visit, void *arg)
{
    EncoderObject *e = (EncoderObject *)self;
    Py_VISIT(e->markers);
    Py_VISIT(e->default_fn);
    Py_VISIT(e->quote_fn);
    Py_VISIT(e->indent);
    Py_VISIT(e->key_separator);
    Py_VISIT(e->item_separator);
    return 0;
}

static int
encoder_clear(PyObject *self)
{
    EncoderObject *e = (EncoderObject *)self;
    Py_CLEAR(e->markers);
    Py_CLEAR(e->default_fn);
    Py_CLEAR(e->quote_fn);
    Py_CLEAR(e->indent);
    Py_CLEAR(e->key_separator);
    Py_CLEAR(e->item_separator);
    return 0;
}

static void
encoder_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    encoder_clear(self);
    Py_TYPE(self)->tp_free(self);
}

PyTypeObject _PyJson_EncoderType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_json.Encoder",
    .tp_basicsize = sizeof(EncoderObject),
    .tp_dealloc = encoder_dealloc,
    .tp_call = encoder_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "make_encoder(markers, default, encoder, indent, key_separator, "
              "item_separator, sort_keys, skipkeys, allow_nan)\n--\n\n"
              "A JSON serialiser with a JSONEncoder's settings; call it with "
              "(obj, _current_indent_level) to get a 1-tuple of the text.",
    .tp_traverse = encoder_traverse,
    .tp_clear = encoder_clear,
    .tp_new = encoder_new,
};
