/* The _string module: the str.format mini-language split into pieces for
   string.Formatter.

   formatter_parser(s) iterates over (literal, field_name, format_spec,
   conversion) tuples; formatter_field_name_split(name) splits a field
   name into its first part and an iterator over (is_attribute, key).
   Both iterators parse lazily, so an error shows where iteration reaches
   it, as with str.format itself. */

#include "Python.h"
#include "pycore_unicodeobject.h"
#include "pycore_object.h"

typedef struct {
    PyObject_HEAD
    PyObject *text;
    Py_ssize_t pos;
    Py_ssize_t end;
} scanner;

static void
scanner_dealloc(PyObject *op)
{
    Py_XDECREF(((scanner *)op)->text);
    PyObject_Free(op);
}

static PyObject *
new_scanner(PyTypeObject *type, PyObject *text, Py_ssize_t pos)
{
    if (_PyStaticType_InitBuiltin(type) < 0) {
        return NULL;
    }
    scanner *sc = PyObject_New(scanner, type);
    if (sc != NULL) {
        sc->text = Py_NewRef(text);
        sc->pos = pos;
        sc->end = PyUnicode_GET_LENGTH(text);
    }
    return (PyObject *)sc;
}

static Py_UCS4
char_at(scanner *sc, Py_ssize_t i)
{
    return i < sc->end ? PyUnicode_READ_CHAR(sc->text, i) : 0;
}

static PyObject *
piece(scanner *sc, Py_ssize_t from, Py_ssize_t to)
{
    return PyUnicode_Substring(sc->text, from, to);
}

static PyObject *
fail(const char *message)
{
    PyErr_SetString(PyExc_ValueError, message);
    return NULL;
}

/* ---- formatter_parser -------------------------------------------------------------------- */

/* Where the parts of one replacement field lie; positions index text. */
typedef struct {
    Py_ssize_t name_end;
    Py_ssize_t conv;       /* position of the conversion character, or -1 */
    Py_ssize_t spec_start;
    Py_ssize_t spec_end;   /* the closing '}' */
} field_parts;

/* Scan a field whose body starts at i, left to right as str.format does.
   Returns NULL, or the message of the error found (spec_end then says
   where the iteration goes on). */
static const char *
scan_field(scanner *sc, Py_ssize_t i, field_parts *fp)
{
    int bracket = 0;
    for (; i < sc->end; i++) {
        Py_UCS4 c = char_at(sc, i);
        if (bracket) {
            bracket = c != ']';
        }
        else if (c == '[') {
            bracket = 1;
        }
        else if (c == ':' || c == '!' || c == '}') {
            break;
        }
        else if (c == '{') {
            fp->spec_end = i + 1;
            return "unexpected '{' in field name";
        }
    }
    fp->spec_end = sc->end; /* where iteration resumes after an error */
    if (i >= sc->end) {
        return "expected '}' before end of string";
    }
    fp->name_end = i;
    fp->conv = -1;
    if (char_at(sc, i) == '!') {
        if (i + 1 >= sc->end) {
            return "end of string while looking for conversion specifier";
        }
        fp->conv = i + 1;
        i += 2;
        if (i >= sc->end) {
            return "unmatched '{' in format spec";
        }
        if (char_at(sc, i) != ':' && char_at(sc, i) != '}') {
            fp->spec_end = i + 1;
            return "expected ':' after conversion specifier";
        }
    }
    fp->spec_start = fp->spec_end = i;
    if (char_at(sc, i) == ':') {
        int depth = 1;
        for (i++; i < sc->end; i++) {
            Py_UCS4 c = char_at(sc, i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0) {
                break;
            }
        }
        if (i >= sc->end) {
            fp->spec_end = sc->end;
            return "unmatched '{' in format spec";
        }
        fp->spec_start++;
        fp->spec_end = i;
    }
    return NULL;
}

static PyObject *
literal_only(scanner *sc, Py_ssize_t from, Py_ssize_t to)
{
    PyObject *literal = piece(sc, from, to);
    PyObject *res = literal ? PyTuple_Pack(4, literal, Py_None, Py_None, Py_None) : NULL;
    Py_XDECREF(literal);
    return res;
}

static PyObject *
field_tuple(scanner *sc, Py_ssize_t lit_start, Py_ssize_t brace, const field_parts *fp)
{
    PyObject *items[4];
    items[0] = piece(sc, lit_start, brace);
    items[1] = piece(sc, brace + 1, fp->name_end);
    items[2] = piece(sc, fp->spec_start, fp->spec_end);
    items[3] = fp->conv < 0 ? Py_NewRef(Py_None) : piece(sc, fp->conv, fp->conv + 1);
    PyObject *res = NULL;
    if (items[0] && items[1] && items[2] && items[3]) {
        res = PyTuple_Pack(4, items[0], items[1], items[2], items[3]);
    }
    for (int k = 0; k < 4; k++) {
        Py_XDECREF(items[k]);
    }
    return res;
}

static PyObject *
parser_next(PyObject *op)
{
    scanner *sc = (scanner *)op;
    Py_ssize_t i = sc->pos, lit_start = i;
    if (i >= sc->end) {
        return NULL;
    }
    while (i < sc->end && char_at(sc, i) != '{' && char_at(sc, i) != '}') {
        i++;
    }
    if (i >= sc->end) {
        sc->pos = i;
        return literal_only(sc, lit_start, i);
    }
    Py_UCS4 brace = char_at(sc, i);
    if (i + 1 < sc->end && char_at(sc, i + 1) == brace) {
        /* A doubled brace: the literal ends with one of them. */
        sc->pos = i + 2;
        return literal_only(sc, lit_start, i + 1);
    }
    sc->pos = i + 1; /* after an error, iteration resumes past the brace */
    if (brace == '}') {
        return fail("Single '}' encountered in format string");
    }
    if (i + 1 >= sc->end) {
        return fail("Single '{' encountered in format string");
    }
    field_parts fp;
    const char *error = scan_field(sc, i + 1, &fp);
    if (error != NULL) {
        sc->pos = fp.spec_end;
        return fail(error);
    }
    sc->pos = fp.spec_end + 1;
    return field_tuple(sc, lit_start, i, &fp);
}

static PyTypeObject ParserIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "formatteriterator",
    .tp_basicsize = sizeof(scanner),
    .tp_dealloc = scanner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = parser_next,
};

/* ---- formatter_field_name_split ---------------------------------------------------------- */

/* An int for an all-digits key, else the str. */
static PyObject *
key_object(scanner *sc, Py_ssize_t from, Py_ssize_t to)
{
    Py_ssize_t value = 0;
    int digits = from < to;
    for (Py_ssize_t i = from; digits && i < to; i++) {
        int d = _PyUnicode_ToDecimalDigit(char_at(sc, i));
        if (d < 0) {
            digits = 0;
        }
        else if (value > (PY_SSIZE_T_MAX - d) / 10) {
            return fail("Too many decimal digits in format string");
        }
        else {
            value = value * 10 + d;
        }
    }
    return digits ? PyLong_FromSsize_t(value) : piece(sc, from, to);
}

static PyObject *
pair(int is_attr, PyObject *key)
{
    if (key == NULL) {
        return NULL;
    }
    PyObject *res = PyTuple_Pack(2, is_attr ? Py_True : Py_False, key);
    Py_DECREF(key);
    return res;
}

static PyObject *
fieldname_next(PyObject *op)
{
    scanner *sc = (scanner *)op;
    Py_ssize_t i = sc->pos;
    if (i >= sc->end) {
        return NULL;
    }
    Py_UCS4 c = char_at(sc, i);
    sc->pos = sc->end;
    if (c == '.') {
        Py_ssize_t j = i + 1;
        while (j < sc->end && char_at(sc, j) != '.' && char_at(sc, j) != '[') {
            j++;
        }
        if (j == i + 1) {
            return fail("Empty attribute in format string");
        }
        sc->pos = j;
        return pair(1, piece(sc, i + 1, j));
    }
    if (c != '[') {
        return fail("Only '.' or '[' may follow ']' in format field specifier");
    }
    Py_ssize_t j = i + 1;
    while (j < sc->end && char_at(sc, j) != ']') {
        j++;
    }
    if (j >= sc->end) {
        return fail("Missing ']' in format string");
    }
    if (j == i + 1) {
        return fail("Empty attribute in format string");
    }
    sc->pos = j + 1;
    return pair(0, key_object(sc, i + 1, j));
}

static PyTypeObject FieldNameIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "fieldnameiterator",
    .tp_basicsize = sizeof(scanner),
    .tp_dealloc = scanner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = fieldname_next,
};

/* ---- The module ---------------------------------------------------------------------------- */

static int
need_str(PyObject *arg, const char *fname)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.100s", fname,
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
string_formatter_parser(PyObject *module, PyObject *text)
{
    if (need_str(text, "formatter_parser") < 0) {
        return NULL;
    }
    return new_scanner(&ParserIter_Type, text, 0);
}

static PyObject *
string_formatter_field_name_split(PyObject *module, PyObject *name)
{
    if (need_str(name, "formatter_field_name_split") < 0) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(name), cut = 0;
    while (cut < n && PyUnicode_READ_CHAR(name, cut) != '.' && PyUnicode_READ_CHAR(name, cut) != '[') {
        cut++;
    }
    scanner probe = {.text = name, .end = n};
    PyObject *first = key_object(&probe, 0, cut);
    if (first == NULL) {
        return NULL;
    }
    PyObject *rest = new_scanner(&FieldNameIter_Type, name, cut);
    if (rest == NULL) {
        Py_DECREF(first);
        return NULL;
    }
    return Py_BuildValue("(NN)", first, rest);
}

static PyMethodDef string_functions[] = {
    {"formatter_parser", string_formatter_parser, METH_O,
     "Iterate over (literal, field_name, format_spec, conversion) in a format string."},
    {"formatter_field_name_split", string_formatter_field_name_split, METH_O,
     "Split a field name into (first, iterator of (is_attribute, key))."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef string_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_string",
    .m_doc = "Format-string parsing helpers for string.Formatter.",
    .m_size = -1,
    .m_methods = string_functions,
};

PyObject *
PyInit__string(void)
{
    return PyModule_Create(&string_module);
}
