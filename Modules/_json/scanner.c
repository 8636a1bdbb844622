/* The Scanner type (json.scanner.make_scanner): a recursive-descent JSON
   parser configured from a JSONDecoder-like context.  Calling it with
   (string, idx) returns (value, end) or raises StopIteration(idx) when no
   value starts at idx; malformed documents raise JSONDecodeError at the
   positions json.decoder's pure-Python parser reports.

   Internally a parse step returns a new reference, or NULL.  NULL with no
   exception set means "no value starts here" (the position is stored in
   *end); each container turns that into "Expecting value". */

#include "json.h"

typedef struct {
    PyObject_HEAD
    int strict;
    PyObject *object_hook;
    PyObject *object_pairs_hook;
    PyObject *parse_float;
    PyObject *parse_int;
    PyObject *parse_constant;
} ScannerObject;

/* Per-call state: the document and the key-interning memo. */
typedef struct {
    ScannerObject *cfg;
    PyObject *doc;
    int kind;
    const void *data;
    Py_ssize_t len;
    PyObject *memo;
} ParseState;

static PyObject *parse_value(ParseState *ps, Py_ssize_t at, Py_ssize_t *end);

static inline int
is_digit(Py_UCS4 c)
{
    return c >= '0' && c <= '9';
}

static inline Py_UCS4
char_at(ParseState *ps, Py_ssize_t i)
{
    return i < ps->len ? PyUnicode_READ(ps->kind, ps->data, i) : 0;
}

static inline Py_ssize_t
skip_space(ParseState *ps, Py_ssize_t i)
{
    while (i < ps->len) {
        Py_UCS4 c = PyUnicode_READ(ps->kind, ps->data, i);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            break;
        }
        i++;
    }
    return i;
}

/* Whether the ASCII word appears at doc[at]. */
static int
word_at(ParseState *ps, Py_ssize_t at, const char *word)
{
    Py_ssize_t n = (Py_ssize_t)strlen(word);
    if (at + n > ps->len) {
        return 0;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (PyUnicode_READ(ps->kind, ps->data, at + k) != (Py_UCS4)word[k]) {
            return 0;
        }
    }
    return 1;
}

/* ---- numbers -------------------------------------------------------- */

static Py_ssize_t
skip_digits(ParseState *ps, Py_ssize_t i)
{
    while (i < ps->len && is_digit(char_at(ps, i))) {
        i++;
    }
    return i;
}

/* Match -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? at `at`.  Returns
   the end index (== at when nothing matched) and whether it is a float. */
static Py_ssize_t
match_number(ParseState *ps, Py_ssize_t at, int *is_float)
{
    Py_ssize_t i = at;
    *is_float = 0;
    if (char_at(ps, i) == '-') {
        i++;
    }
    Py_UCS4 lead = char_at(ps, i);
    if (lead == '0') {
        i++;
    }
    else if (lead >= '1' && lead <= '9') {
        i = skip_digits(ps, i + 1);
    }
    else {
        return at;
    }
    if (char_at(ps, i) == '.' && is_digit(char_at(ps, i + 1))) {
        i = skip_digits(ps, i + 2);
        *is_float = 1;
    }
    Py_UCS4 e = char_at(ps, i);
    if (e == 'e' || e == 'E') {
        Py_ssize_t j = i + 1;
        Py_UCS4 sign = char_at(ps, j);
        if (sign == '-' || sign == '+') {
            j++;
        }
        if (is_digit(char_at(ps, j))) {
            i = skip_digits(ps, j + 1);
            *is_float = 1;
        }
    }
    return i;
}

static PyObject *
parse_number(ParseState *ps, Py_ssize_t at, Py_ssize_t *end)
{
    int is_float;
    Py_ssize_t stop = match_number(ps, at, &is_float);
    if (stop == at) {
        *end = at;
        return NULL;
    }
    PyObject *text = PyUnicode_Substring(ps->doc, at, stop);
    if (text == NULL) {
        return NULL;
    }
    PyObject *hook = is_float ? ps->cfg->parse_float : ps->cfg->parse_int;
    PyObject *value;
    if (is_float && hook == (PyObject *)&PyFloat_Type) {
        value = PyFloat_FromString(text);
    }
    else if (!is_float && hook == (PyObject *)&PyLong_Type) {
        value = PyLong_FromUnicodeObject(text, 10);
    }
    else {
        value = PyObject_CallOneArg(hook, text);
    }
    Py_DECREF(text);
    *end = stop;
    return value;
}

static PyObject *
parse_constant(ParseState *ps, const char *name, Py_ssize_t at,
               Py_ssize_t *end)
{
    PyObject *value = PyObject_CallFunction(ps->cfg->parse_constant, "s",
                                            name);
    *end = at + (Py_ssize_t)strlen(name);
    return value;
}

/* ---- containers ----------------------------------------------------- */

/* Parse the value at `at` inside a container: "no value" becomes
   JSONDecodeError("Expecting value"). */
static PyObject *
parse_member(ParseState *ps, Py_ssize_t at, Py_ssize_t *end)
{
    PyObject *value = parse_value(ps, at, end);
    if (value == NULL && !PyErr_Occurred()) {
        _PyJson_RaiseDecodeError("Expecting value", ps->doc, *end);
    }
    return value;
}

/* Decode the key string whose opening quote is at `quote`, shared through
   the memo so repeated keys are one object. */
static PyObject *
parse_key(ParseState *ps, Py_ssize_t quote, Py_ssize_t *end)
{
    PyObject *key = _PyJson_DecodeString(ps->doc, quote + 1,
                                         ps->cfg->strict, end);
    if (key == NULL) {
        return NULL;
    }
    PyObject *shared = PyDict_SetDefault(ps->memo, key, key);
    Py_DECREF(key);
    return Py_XNewRef(shared);
}

/* Append (key, value) to the pairs list, or store it in the dict. */
static int
store_pair(PyObject *target, PyObject *key, PyObject *value)
{
    if (PyDict_CheckExact(target)) {
        return PyDict_SetItem(target, key, value);
    }
    PyObject *pair = PyTuple_Pack(2, key, value);
    if (pair == NULL) {
        return -1;
    }
    int rc = PyList_Append(target, pair);
    Py_DECREF(pair);
    return rc;
}

/* Hand the finished pairs list or dict to the configured hook. */
static PyObject *
finish_object(ParseState *ps, PyObject *target)
{
    PyObject *hook = ps->cfg->object_pairs_hook != Py_None
                     ? ps->cfg->object_pairs_hook : ps->cfg->object_hook;
    if (hook == Py_None) {
        return target;
    }
    PyObject *result = PyObject_CallOneArg(hook, target);
    Py_DECREF(target);
    return result;
}

/* Parse the members of an object; `i` is just past the '{'. */
static int
fill_object(ParseState *ps, PyObject *target, Py_ssize_t i, Py_ssize_t *end)
{
    i = skip_space(ps, i);
    if (char_at(ps, i) == '}' && i < ps->len) {
        *end = i + 1;
        return 0;
    }
    for (;;) {
        if (i >= ps->len || char_at(ps, i) != '"') {
            _PyJson_RaiseDecodeError(
                "Expecting property name enclosed in double quotes",
                ps->doc, i);
            return -1;
        }
        PyObject *key = parse_key(ps, i, &i);
        if (key == NULL) {
            return -1;
        }
        i = skip_space(ps, i);
        if (i >= ps->len || char_at(ps, i) != ':') {
            Py_DECREF(key);
            _PyJson_RaiseDecodeError("Expecting ':' delimiter", ps->doc, i);
            return -1;
        }
        PyObject *value = parse_member(ps, skip_space(ps, i + 1), &i);
        int rc = value == NULL ? -1 : store_pair(target, key, value);
        Py_DECREF(key);
        Py_XDECREF(value);
        if (rc < 0) {
            return -1;
        }
        i = skip_space(ps, i);
        Py_UCS4 c = i < ps->len ? char_at(ps, i) : 0;
        if (c == '}' && i < ps->len) {
            *end = i + 1;
            return 0;
        }
        if (c != ',' || i >= ps->len) {
            _PyJson_RaiseDecodeError("Expecting ',' delimiter", ps->doc, i);
            return -1;
        }
        Py_ssize_t comma = i;
        i = skip_space(ps, i + 1);
        if (i < ps->len && char_at(ps, i) == '}') {
            _PyJson_RaiseDecodeError(
                "Illegal trailing comma before end of object", ps->doc, comma);
            return -1;
        }
    }
}

static PyObject *
parse_object(ParseState *ps, Py_ssize_t at, Py_ssize_t *end)
{
    PyObject *target = ps->cfg->object_pairs_hook != Py_None
                       ? PyList_New(0) : PyDict_New();
    if (target == NULL) {
        return NULL;
    }
    if (Py_EnterRecursiveCall(" while decoding a JSON object "
                              "from a unicode string")) {
        Py_DECREF(target);
        return NULL;
    }
    int rc = fill_object(ps, target, at + 1, end);
    Py_LeaveRecursiveCall();
    if (rc < 0) {
        Py_DECREF(target);
        return NULL;
    }
    return finish_object(ps, target);
}

/* Parse the items of an array; `i` is just past the '['. */
static int
fill_array(ParseState *ps, PyObject *list, Py_ssize_t i, Py_ssize_t *end)
{
    i = skip_space(ps, i);
    if (i < ps->len && char_at(ps, i) == ']') {
        *end = i + 1;
        return 0;
    }
    for (;;) {
        PyObject *item = parse_member(ps, i, &i);
        if (item == NULL) {
            return -1;
        }
        int rc = PyList_Append(list, item);
        Py_DECREF(item);
        if (rc < 0) {
            return -1;
        }
        i = skip_space(ps, i);
        Py_UCS4 c = i < ps->len ? char_at(ps, i) : 0;
        if (c == ']' && i < ps->len) {
            *end = i + 1;
            return 0;
        }
        if (c != ',' || i >= ps->len) {
            _PyJson_RaiseDecodeError("Expecting ',' delimiter", ps->doc, i);
            return -1;
        }
        Py_ssize_t comma = i;
        i = skip_space(ps, i + 1);
        if (i < ps->len && char_at(ps, i) == ']') {
            _PyJson_RaiseDecodeError(
                "Illegal trailing comma before end of array", ps->doc, comma);
            return -1;
        }
    }
}

static PyObject *
parse_array(ParseState *ps, Py_ssize_t at, Py_ssize_t *end)
{
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    if (Py_EnterRecursiveCall(" while decoding a JSON array "
                              "from a unicode string")) {
        Py_DECREF(list);
        return NULL;
    }
    int rc = fill_array(ps, list, at + 1, end);
    Py_LeaveRecursiveCall();
    if (rc < 0) {
        Py_DECREF(list);
        return NULL;
    }
    return list;
}

/* ---- dispatch ------------------------------------------------------- */

static PyObject *
parse_word(ParseState *ps, Py_ssize_t at, Py_ssize_t *end)
{
    switch (char_at(ps, at)) {
    case 'n':
        if (word_at(ps, at, "null")) {
            *end = at + 4;
            Py_RETURN_NONE;
        }
        break;
    case 't':
        if (word_at(ps, at, "true")) {
            *end = at + 4;
            Py_RETURN_TRUE;
        }
        break;
    case 'f':
        if (word_at(ps, at, "false")) {
            *end = at + 5;
            Py_RETURN_FALSE;
        }
        break;
    case 'N':
        if (word_at(ps, at, "NaN")) {
            return parse_constant(ps, "NaN", at, end);
        }
        break;
    case 'I':
        if (word_at(ps, at, "Infinity")) {
            return parse_constant(ps, "Infinity", at, end);
        }
        break;
    case '-':
        if (word_at(ps, at, "-Infinity")) {
            return parse_constant(ps, "-Infinity", at, end);
        }
        break;
    }
    *end = at;
    return NULL;
}

static PyObject *
parse_value(ParseState *ps, Py_ssize_t at, Py_ssize_t *end)
{
    if (at >= ps->len) {
        *end = at;
        return NULL;
    }
    Py_UCS4 c = char_at(ps, at);
    if (c == '"') {
        return _PyJson_DecodeString(ps->doc, at + 1, ps->cfg->strict, end);
    }
    if (c == '{') {
        return parse_object(ps, at, end);
    }
    if (c == '[') {
        return parse_array(ps, at, end);
    }
    if (c == '-' || is_digit(c)) {
        PyObject *number = parse_number(ps, at, end);
        if (number != NULL || PyErr_Occurred() || c != '-') {
            return number;
        }
    }
    return parse_word(ps, at, end);
}

/* ---- the type ------------------------------------------------------- */

static PyObject *
scanner_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"string", "idx", NULL};
    PyObject *doc;
    Py_ssize_t idx;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "On:scan_once", kwlist,
                                     &doc, &idx)) {
        return NULL;
    }
    if (!PyUnicode_Check(doc)) {
        PyErr_Format(PyExc_TypeError,
                     "first argument must be a string, not %.80s",
                     Py_TYPE(doc)->tp_name);
        return NULL;
    }
    if (idx < 0) {
        PyErr_SetString(PyExc_ValueError, "idx cannot be negative");
        return NULL;
    }
    ParseState ps = {
        .cfg = (ScannerObject *)self, .doc = doc,
        .kind = PyUnicode_KIND(doc), .data = PyUnicode_DATA(doc),
        .len = PyUnicode_GET_LENGTH(doc), .memo = PyDict_New(),
    };
    if (ps.memo == NULL) {
        return NULL;
    }
    Py_ssize_t end = idx;
    PyObject *value = parse_value(&ps, idx, &end);
    Py_DECREF(ps.memo);
    if (value == NULL) {
        if (!PyErr_Occurred()) {
            PyObject *pos = PyLong_FromSsize_t(end);
            if (pos != NULL) {
                PyErr_SetObject(PyExc_StopIteration, pos);
                Py_DECREF(pos);
            }
        }
        return NULL;
    }
    return Py_BuildValue("Nn", value, end);
}

/* Copy context.<name> into *slot. */
static int
read_setting(PyObject *context, const char *name, PyObject **slot)
{
    *slot = PyObject_GetAttrString(context, name);
    return *slot == NULL ? -1 : 0;
}

static PyObject *
scanner_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"context", NULL};
    PyObject *context;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:make_scanner", kwlist,
                                     &context)) {
        return NULL;
    }
    ScannerObject *s = (ScannerObject *)type->tp_alloc(type, 0);
    if (s == NULL) {
        return NULL;
    }
    PyObject *strict = PyObject_GetAttrString(context, "strict");
    if (strict == NULL || (s->strict = PyObject_IsTrue(strict)) < 0
        || read_setting(context, "object_hook", &s->object_hook) < 0
        || read_setting(context, "object_pairs_hook",
                        &s->object_pairs_hook) < 0
        || read_setting(context, "parse_float", &s->parse_float) < 0
        || read_setting(context, "parse_int", &s->parse_int) < 0
        || read_setting(context, "parse_constant", &s->parse_constant) < 0) {
        Py_XDECREF(strict);
        Py_DECREF(s);
        return NULL;
    }
    Py_DECREF(strict);
    return (PyObject *)s;
}

static int
scanner_traverse(PyObject *self, visitproc visit, void *arg)
{
    ScannerObject *s = (ScannerObject *)self;
    Py_VISIT(s->object_hook);
    Py_VISIT(s->object_pairs_hook);
    Py_VISIT(s->parse_float);
    Py_VISIT(s->parse_int);
    Py_VISIT(s->parse_constant);
    return 0;
}

static int
scanner_clear(PyObject *self)
{
    ScannerObject *s = (ScannerObject *)self;
    Py_CLEAR(s->object_hook);
    Py_CLEAR(s->object_pairs_hook);
    Py_CLEAR(s->parse_float);
    Py_CLEAR(s->parse_int);
    Py_CLEAR(s->parse_constant);
    return 0;
}

static void
scanner_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    scanner_clear(self);
    Py_TYPE(self)->tp_free(self);
}

PyTypeObject _PyJson_ScannerType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_json.Scanner",
    .tp_basicsize = sizeof(ScannerObject),
    .tp_dealloc = scanner_dealloc,
    .tp_call = scanner_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "make_scanner(context)\n--\n\n"
              "A JSON parser taking its settings from a JSONDecoder; call it "
              "with (string, idx) to get (value, end).",
    .tp_traverse = scanner_traverse,
    .tp_clear = scanner_clear,
    .tp_new = scanner_new,
};
