/* The unicodedata module: the Unicode Character Database, version 16.0.0.

   Every query function exists twice with one implementation: as a module
   function (self is the module: the current database) and as a method of
   the UCD type, whose one instance, ucd_3_2_0, answers as Unicode 3.2
   would for the characters that 3.2 had (stringprep and IDNA need that
   view).  We carry no 3.2 data: characters assigned later simply look
   unassigned through it; Doc/unicode.md lists what that leaves out.

   This file holds the property queries; names and normalization live in
   unicodedata_names.c and unicodedata_normalize.c. */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include "unicodedata.h"

#include "ucd_props.h"

#define UNIDATA_VERSION "16.0.0"
#define LEGACY_VERSION "3.2.0"

/* ---- The record of a character ------------------------------------------ */

static const ucd_record unassigned_record = {0, 0, 0, 0, UCD_NEWER_THAN_3_2, 0};

const ucd_record *
_PyUnicodeData_GetRecord(Py_UCS4 ch, int legacy)
{
    if (ch >= 0x110000) {
        return &unassigned_record;
    }
    unsigned int block = ucd_record_index1[ch >> UCD_RECORD_SHIFT];
    unsigned int slot = (block << UCD_RECORD_SHIFT) + (ch & ((1u << UCD_RECORD_SHIFT) - 1));
    const ucd_record *rec = &ucd_records[ucd_record_index2[slot]];
    if (legacy && (rec->flags & UCD_NEWER_THAN_3_2)) {
        return &unassigned_record;
    }
    return rec;
}

/* ---- The UCD type -------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int legacy;
} ucd_object;

static PyTypeObject UCD_Type;

/* Which view a query function answers for: the module's (current) or a
   UCD instance's. */
static int
is_legacy(PyObject *self)
{
    return self != NULL && Py_IS_TYPE(self, &UCD_Type) && ((ucd_object *)self)->legacy;
}

/* ---- Argument helpers ----------------------------------------------------- */

/* The single-character argument.  `position` is 0 for a function whose only
   argument it is (the message then names no position). */
static int
char_argument(const char *fname, int position, PyObject *arg, Py_UCS4 *ch)
{
    if (PyUnicode_Check(arg) && PyUnicode_GET_LENGTH(arg) == 1) {
        *ch = PyUnicode_READ_CHAR(arg, 0);
        return 0;
    }
    /* None is named as itself, as CPython's argument errors do. */
    const char *got = arg == Py_None ? "None" : Py_TYPE(arg)->tp_name;
    if (position) {
        PyErr_Format(PyExc_TypeError,
                     "%s() argument %d must be a unicode character, not %.100s",
                     fname, position, got);
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "%s() argument must be a unicode character, not %.100s", fname, got);
    }
    return -1;
}

/* (chr, default=<missing>, /): returns 0 and sets *fallback to the default
   or NULL when it was not given. */
static int
char_and_default(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                 Py_UCS4 *ch, PyObject **fallback)
{
    if (!_PyArg_CheckPositional(fname, nargs, 1, 2)) {
        return -1;
    }
    if (char_argument(fname, 1, args[0], ch) < 0) {
        return -1;
    }
    *fallback = nargs > 1 ? args[1] : NULL;
    return 0;
}

/* The default when there is one, else ValueError(message). */
static PyObject *
default_or_error(PyObject *fallback, const char *message)
{
    if (fallback != NULL) {
        return Py_NewRef(fallback);
    }
    PyErr_SetString(PyExc_ValueError, message);
    return NULL;
}

/* ---- Property queries ------------------------------------------------------- */

static PyObject *
ud_decimal(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_UCS4 ch;
    PyObject *fallback;
    if (char_and_default("decimal", args, nargs, &ch, &fallback) < 0) {
        return NULL;
    }
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, is_legacy(self));
    if (!(rec->flags & UCD_HAS_DECIMAL)) {
        return default_or_error(fallback, "not a decimal");
    }
    /* Every decimal digit's decimal value is its digit value. */
    return PyLong_FromLong(rec->digit);
}

static PyObject *
ud_digit(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_UCS4 ch;
    PyObject *fallback;
    if (char_and_default("digit", args, nargs, &ch, &fallback) < 0) {
        return NULL;
    }
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, is_legacy(self));
    if (!(rec->flags & UCD_HAS_DIGIT)) {
        return default_or_error(fallback, "not a digit");
    }
    return PyLong_FromLong(rec->digit);
}

static PyObject *
ud_numeric(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_UCS4 ch;
    PyObject *fallback;
    if (char_and_default("numeric", args, nargs, &ch, &fallback) < 0) {
        return NULL;
    }
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, is_legacy(self));
    if (rec->numeric == 0) {
        return default_or_error(fallback, "not a numeric character");
    }
    return PyFloat_FromDouble(ucd_numeric_values[rec->numeric]);
}

static PyObject *
ud_category(PyObject *self, PyObject *arg)
{
    Py_UCS4 ch;
    if (char_argument("category", 0, arg, &ch) < 0) {
        return NULL;
    }
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, is_legacy(self));
    return PyUnicode_FromString(ucd_category_names[rec->category]);
}

static PyObject *
ud_bidirectional(PyObject *self, PyObject *arg)
{
    Py_UCS4 ch;
    if (char_argument("bidirectional", 0, arg, &ch) < 0) {
        return NULL;
    }
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, is_legacy(self));
    return PyUnicode_FromString(ucd_bidi_names[rec->bidi]);
}

static PyObject *
ud_combining(PyObject *self, PyObject *arg)
{
    Py_UCS4 ch;
    if (char_argument("combining", 0, arg, &ch) < 0) {
        return NULL;
    }
    return PyLong_FromLong(_PyUnicodeData_GetRecord(ch, is_legacy(self))->combining);
}

static PyObject *
ud_mirrored(PyObject *self, PyObject *arg)
{
    Py_UCS4 ch;
    if (char_argument("mirrored", 0, arg, &ch) < 0) {
        return NULL;
    }
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, is_legacy(self));
    return PyLong_FromLong((rec->flags & UCD_MIRRORED) != 0);
}

static PyObject *
ud_east_asian_width(PyObject *self, PyObject *arg)
{
    Py_UCS4 ch;
    if (char_argument("east_asian_width", 0, arg, &ch) < 0) {
        return NULL;
    }
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, is_legacy(self));
    return PyUnicode_FromString(ucd_width_names[rec->flags >> UCD_WIDTH_SHIFT]);
}

static PyObject *
ud_decomposition(PyObject *self, PyObject *arg)
{
    Py_UCS4 ch;
    if (char_argument("decomposition", 0, arg, &ch) < 0) {
        return NULL;
    }
    return _PyUnicodeData_DecompositionString(ch, is_legacy(self));
}

/* ---- Names ---------------------------------------------------------------- */

static PyObject *
ud_name(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_UCS4 ch;
    PyObject *fallback;
    char buf[_PyUnicodeData_LONGEST_NAME + 1];
    if (char_and_default("name", args, nargs, &ch, &fallback) < 0) {
        return NULL;
    }
    Py_ssize_t len = _PyUnicodeData_GetName(ch, is_legacy(self), buf, sizeof(buf));
    if (len == 0) {
        return default_or_error(fallback, "no such name");
    }
    return PyUnicode_FromStringAndSize(buf, len);
}

/* Longer names are rejected before any search, as CPython does. */
#define LOOKUP_MAX_NAME 256

static PyObject *
ud_lookup(PyObject *self, PyObject *arg)
{
    const char *name;
    Py_ssize_t len;
    if (PyUnicode_Check(arg)) {
        name = PyUnicode_AsUTF8AndSize(arg, &len);
        if (name == NULL) {
            return NULL;
        }
    }
    else if (PyBytes_Check(arg)) {
        name = PyBytes_AS_STRING(arg);
        len = PyBytes_GET_SIZE(arg);
    }
    else {
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    if (len > LOOKUP_MAX_NAME) {
        PyErr_SetString(PyExc_KeyError, "name too long");
        return NULL;
    }
    PyObject *found = _PyUnicodeData_FindName(name, len, is_legacy(self), 1);
    if (found == NULL && !PyErr_Occurred()) {
        PyObject *shown = PyUnicode_DecodeUTF8(name, len, "replace");
        if (shown != NULL) {
            PyErr_Format(PyExc_KeyError, "undefined character name '%U'", shown);
            Py_DECREF(shown);
        }
    }
    return found;
}

/* ---- Normalization ------------------------------------------------------------- */

/* Parses (form, unistr) into form flags; returns -1 with an exception. */
static int
form_arguments(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject **str)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s expected 2 arguments, got %zd", fname, nargs);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        if (!PyUnicode_Check(args[i])) {
            _PyArg_BadArgument(fname, i == 0 ? "argument 1" : "argument 2", "str", args[i]);
            return -1;
        }
    }
    const char *form = PyUnicode_AsUTF8(args[0]);
    if (form == NULL) {
        return -1;
    }
    *str = args[1];
    if (strcmp(form, "NFD") == 0) {
        return 0;
    }
    if (strcmp(form, "NFC") == 0) {
        return UCD_FORM_COMPOSE;
    }
    if (strcmp(form, "NFKD") == 0) {
        return UCD_FORM_COMPAT;
    }
    if (strcmp(form, "NFKC") == 0) {
        return UCD_FORM_COMPAT | UCD_FORM_COMPOSE;
    }
    PyErr_SetString(PyExc_ValueError, "invalid normalization form");
    return -1;
}

static PyObject *
ud_normalize(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *str;
    int form = form_arguments("normalize", args, nargs, &str);
    if (form < 0) {
        return NULL;
    }
    return _PyUnicodeData_Normalize(str, form, is_legacy(self));
}

static PyObject *
ud_is_normalized(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *str;
    int form = form_arguments("is_normalized", args, nargs, &str);
    if (form < 0) {
        return NULL;
    }
    int res = _PyUnicodeData_IsNormalized(str, form, is_legacy(self));
    if (res < 0) {
        return NULL;
    }
    return PyBool_FromLong(res);
}

/* ---- Tables ------------------------------------------------------------------ */

/* One table serves the module and the UCD type. */
static PyMethodDef ud_functions[] = {
    {"decimal", _PyCFunction_CAST(ud_decimal), METH_FASTCALL,
     "decimal($self, chr, default=<unrepresentable>, /)\n--\n\n"
     "The decimal digit value of chr as an int; default, or ValueError,\n"
     "when chr is not a decimal digit."},
    {"digit", _PyCFunction_CAST(ud_digit), METH_FASTCALL,
     "digit($self, chr, default=<unrepresentable>, /)\n--\n\n"
     "The digit value of chr as an int (decimal digits, superscripts and\n"
     "the like); default, or ValueError, when it has none."},
    {"numeric", _PyCFunction_CAST(ud_numeric), METH_FASTCALL,
     "numeric($self, chr, default=<unrepresentable>, /)\n--\n\n"
     "The numeric value of chr as a float (fractions and ideographic\n"
     "numerals included); default, or ValueError, when it has none."},
    {"category", ud_category, METH_O,
     "category($self, chr, /)\n--\n\nThe two-letter general category of chr, such as 'Lu'."},
    {"bidirectional", ud_bidirectional, METH_O,
     "bidirectional($self, chr, /)\n--\n\n"
     "The bidirectional class of chr, such as 'L' or 'AN'; '' when none is assigned."},
    {"combining", ud_combining, METH_O,
     "combining($self, chr, /)\n--\n\nThe canonical combining class of chr (0 for starters)."},
    {"east_asian_width", ud_east_asian_width, METH_O,
     "east_asian_width($self, chr, /)\n--\n\n"
     "The East Asian width of chr: one of 'F', 'H', 'W', 'Na', 'A', 'N'."},
    {"mirrored", ud_mirrored, METH_O,
     "mirrored($self, chr, /)\n--\n\n"
     "1 when chr is shown mirrored in right-to-left text, else 0."},
    {"decomposition", ud_decomposition, METH_O,
     "decomposition($self, chr, /)\n--\n\n"
     "The decomposition mapping of chr as hex code points, led by its\n"
     "<tag> when it is a compatibility mapping; '' when it has none."},
    {"name", _PyCFunction_CAST(ud_name), METH_FASTCALL,
     "name($self, chr, default=<unrepresentable>, /)\n--\n\n"
     "The name of chr; default, or ValueError, when it has none."},
    {"lookup", ud_lookup, METH_O,
     "lookup($self, name, /)\n--\n\n"
     "The character with this name, alias, or the named sequence; names\n"
     "match regardless of case.  KeyError when nothing has that name."},
    {"normalize", _PyCFunction_CAST(ud_normalize), METH_FASTCALL,
     "normalize($self, form, unistr, /)\n--\n\n"
     "unistr in normal form 'NFC', 'NFD', 'NFKC' or 'NFKD'."},
    {"is_normalized", _PyCFunction_CAST(ud_is_normalized), METH_FASTCALL,
     "is_normalized($self, form, unistr, /)\n--\n\n"
     "Whether unistr is already in normal form 'NFC', 'NFD', 'NFKC' or 'NFKD'."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
ucd_get_version(PyObject *self, void *closure)
{
    return PyUnicode_FromString(is_legacy(self) ? LEGACY_VERSION : UNIDATA_VERSION);
}

static PyGetSetDef ucd_getset[] = {
    {"unidata_version", ucd_get_version, NULL,
     "The version of the Unicode database this object answers for.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static void
ucd_dealloc(PyObject *self)
{
    PyObject_Free(self);
}

static PyTypeObject UCD_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "unicodedata.UCD",
    .tp_basicsize = sizeof(ucd_object),
    .tp_dealloc = ucd_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A view of the Unicode database as of one version (see ucd_3_2_0).",
    .tp_methods = ud_functions,
    .tp_getset = ucd_getset,
    .tp_free = PyObject_Free,
};

static struct PyModuleDef unicodedata_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "unicodedata",
    .m_doc = "The Unicode Character Database (version 16.0.0): character properties,\n"
             "names and normalization.  ucd_3_2_0 answers as Unicode 3.2 for\n"
             "stringprep and IDNA.",
    .m_size = -1,
    .m_methods = ud_functions,
};

static PyObject *
new_legacy_view(void)
{
    ucd_object *view = PyObject_New(ucd_object, &UCD_Type);
    if (view != NULL) {
        view->legacy = 1;
    }
    return (PyObject *)view;
}

PyObject *
PyInit_unicodedata(void)
{
    if (_PyStaticType_InitBuiltin(&UCD_Type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&unicodedata_module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddStringConstant(m, "unidata_version", UNIDATA_VERSION) < 0
        || PyModule_AddObjectRef(m, "UCD", (PyObject *)&UCD_Type) < 0
        || PyModule_Add(m, "ucd_3_2_0", new_legacy_view()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
