/* sqlite3.Row: a result row addressable by position and, without regard
   to ASCII case, by column name; equal rows have equal columns and
   values. */

#include "module.h"

static PyObject *
row_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *cursor, *data;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Row() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!:Row", &_PySqlite_CursorType, &cursor,
                          &PyTuple_Type, &data)) {
        return NULL;
    }
    SqRow *self = (SqRow *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    PyObject *desc = ((SqCursor *)cursor)->description;
    self->data = Py_NewRef(data);
    self->description = Py_NewRef(desc ? desc : Py_None);
    return (PyObject *)self;
}

static int
row_traverse(PyObject *op, visitproc visit, void *arg)
{
    SqRow *self = (SqRow *)op;
    Py_VISIT(self->data);
    Py_VISIT(self->description);
    return 0;
}

static int
row_clear(PyObject *op)
{
    SqRow *self = (SqRow *)op;
    Py_CLEAR(self->data);
    Py_CLEAR(self->description);
    return 0;
}

static void
row_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    row_clear(op);
    Py_TYPE(op)->tp_free(op);
}

/* Column names compare equal ignoring ASCII case only (as sqlite does). */
static int
names_match(PyObject *column, PyObject *key)
{
    Py_ssize_t a_len, b_len;
    const char *a = PyUnicode_AsUTF8AndSize(column, &a_len);
    const char *b = PyUnicode_AsUTF8AndSize(key, &b_len);
    if (a == NULL || b == NULL) {
        return -1;
    }
    if (a_len != b_len) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < a_len; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') {
            x = (unsigned char)(x - 'A' + 'a');
        }
        if (y >= 'A' && y <= 'Z') {
            y = (unsigned char)(y - 'A' + 'a');
        }
        if (x != y) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
value_by_name(SqRow *self, PyObject *key)
{
    if (PyTuple_Check(self->description)) {
        Py_ssize_t n = PyTuple_GET_SIZE(self->description);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *entry = PyTuple_GET_ITEM(self->description, i);
            int match = names_match(PyTuple_GET_ITEM(entry, 0), key);
            if (match < 0) {
                return NULL;
            }
            if (match && i < PyTuple_GET_SIZE(self->data)) {
                return Py_NewRef(PyTuple_GET_ITEM(self->data, i));
            }
        }
    }
    PyErr_SetString(PyExc_IndexError, "No item with that key");
    return NULL;
}

static PyObject *
row_subscript(PyObject *op, PyObject *key)
{
    SqRow *self = (SqRow *)op;
    if (PyLong_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += PyTuple_GET_SIZE(self->data);
        }
        if (i < 0 || i >= PyTuple_GET_SIZE(self->data)) {
            PyErr_SetString(PyExc_IndexError, "tuple index out of range");
            return NULL;
        }
        return Py_NewRef(PyTuple_GET_ITEM(self->data, i));
    }
    if (PyUnicode_Check(key)) {
        return value_by_name(self, key);
    }
    if (PySlice_Check(key)) {
        return PyObject_GetItem(self->data, key);
    }
    PyErr_SetString(PyExc_IndexError, "Index must be int or string");
    return NULL;
}

static Py_ssize_t
row_length(PyObject *op)
{
    return PyTuple_GET_SIZE(((SqRow *)op)->data);
}

static PyObject *
row_item(PyObject *op, Py_ssize_t i)
{
    SqRow *self = (SqRow *)op;
    if (i < 0 || i >= PyTuple_GET_SIZE(self->data)) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return NULL;
    }
    return Py_NewRef(PyTuple_GET_ITEM(self->data, i));
}

static PyObject *
row_iter(PyObject *op)
{
    return PyObject_GetIter(((SqRow *)op)->data);
}

static PyObject *
row_keys(PyObject *op, PyObject *unused)
{
    SqRow *self = (SqRow *)op;
    PyObject *names = PyList_New(0);
    if (names == NULL || !PyTuple_Check(self->description)) {
        return names;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->description); i++) {
        PyObject *entry = PyTuple_GET_ITEM(self->description, i);
        if (PyList_Append(names, PyTuple_GET_ITEM(entry, 0)) < 0) {
            Py_DECREF(names);
            return NULL;
        }
    }
    return names;
}

static Py_hash_t
row_hash(PyObject *op)
{
    SqRow *self = (SqRow *)op;
    Py_hash_t a = PyObject_Hash(self->description);
    Py_hash_t b = a == -1 ? -1 : PyObject_Hash(self->data);
    if (b == -1) {
        return -1;
    }
    Py_hash_t h = a ^ b;
    return h == -1 ? -2 : h;
}

static PyObject *
row_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE)
        || !PyObject_TypeCheck(b, &_PySqlite_RowType)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    SqRow *x = (SqRow *)a, *y = (SqRow *)b;
    int same = PyObject_RichCompareBool(x->description, y->description, Py_EQ);
    if (same > 0) {
        same = PyObject_RichCompareBool(x->data, y->data, Py_EQ);
    }
    if (same < 0) {
        return NULL;
    }
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyMappingMethods row_as_mapping = {
    .mp_length = row_length,
    .mp_subscript = row_subscript,
};

static PySequenceMethods row_as_sequence = {
    .sq_length = row_length,
    .sq_item = row_item,
};

static PyMethodDef row_methods[] = {
    {"keys", row_keys, METH_NOARGS, "The column names, in order."},
    {NULL},
};

PyTypeObject _PySqlite_RowType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sqlite3.Row",
    .tp_basicsize = sizeof(SqRow),
    .tp_dealloc = row_dealloc,
    .tp_as_sequence = &row_as_sequence,
    .tp_as_mapping = &row_as_mapping,
    .tp_hash = row_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A result row indexable by position or column name.",
    .tp_traverse = row_traverse,
    .tp_clear = row_clear,
    .tp_richcompare = row_richcompare,
    .tp_iter = row_iter,
    .tp_methods = row_methods,
    .tp_new = row_new,
};
