/* Struct sequences: tuples whose items also have names (sys.version_info,
   os.stat_result, time.struct_time, ...).

   An instance is laid out as a tuple holding all n_fields values; only the
   first n_in_sequence are part of the tuple (ob_size), the rest are
   reachable by name only.  Field getters are member descriptors on the
   item slots.  The counts live in the type's dict as n_sequence_fields,
   n_fields and n_unnamed_fields, as in CPython. */

#include "Python.h"
#include "pycore_object.h"

const char *const PyStructSequence_UnnamedField = "unnamed field";

static Py_ssize_t
dict_count(PyTypeObject *type, const char *name)
{
    PyObject *v = PyDict_GetItemString(type->tp_dict, name);
    return v == NULL ? -1 : PyLong_AsSsize_t(v);
}

/* The member descriptor name of a field past the visible ones.  Unnamed
   fields are all visible and have no member, so later members sit
   n_unnamed_fields places earlier than their fields. */
static const char *
hidden_field_name(PyTypeObject *type, Py_ssize_t index)
{
    return type->tp_members[index - dict_count(type, "n_unnamed_fields")].name;
}

#define VISIBLE_SIZE(op) Py_SIZE(op)
#define REAL_SIZE_TP(tp) dict_count((tp), "n_fields")
#define REAL_SIZE(op) REAL_SIZE_TP(Py_TYPE(op))

PyObject *
PyStructSequence_New(PyTypeObject *type)
{
    Py_ssize_t size = REAL_SIZE_TP(type);
    Py_ssize_t visible = dict_count(type, "n_sequence_fields");
    if (size < 0 || visible < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "struct sequence type is not initialized");
        }
        return NULL;
    }
    PyTupleObject *obj = PyObject_GC_NewVar(PyTupleObject, type, size);
    if (obj == NULL) {
        return NULL;
    }
    obj->ob_hash = -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        obj->ob_item[i] = NULL;
    }
    Py_SET_SIZE(obj, visible);
    PyObject_GC_Track(obj);
    return (PyObject *)obj;
}

void
PyStructSequence_SetItem(PyObject *op, Py_ssize_t index, PyObject *value)
{
    PyObject **slot = &((PyTupleObject *)op)->ob_item[index];
    Py_XSETREF(*slot, value);
}

PyObject *
PyStructSequence_GetItem(PyObject *op, Py_ssize_t index)
{
    return ((PyTupleObject *)op)->ob_item[index];
}

static void
structseq_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_ssize_t size = REAL_SIZE(op);
    PyTupleObject *obj = (PyTupleObject *)op;
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_XDECREF(obj->ob_item[i]);
    }
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_Del(op);
    if (PyType_HasFeature(tp, Py_TPFLAGS_HEAPTYPE)) {
        Py_DECREF(tp);
    }
}

static int
structseq_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_ssize_t size = REAL_SIZE(op);
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_VISIT(((PyTupleObject *)op)->ob_item[i]);
    }
    return 0;
}

/* type(sequence[, dict]): the visible fields from the sequence, the
   others from the sequence too (when long enough) or the dict, or None. */
static PyObject *
structseq_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"sequence", "dict", NULL};
    PyObject *arg, *dict = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:structseq", kwlist, &arg, &dict)) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(arg, "constructor requires a sequence");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    Py_ssize_t min_len = dict_count(type, "n_sequence_fields");
    Py_ssize_t max_len = REAL_SIZE_TP(type);
    if (len < min_len || len > max_len) {
        if (min_len == max_len) {
            PyErr_Format(PyExc_TypeError, "%.500s() takes a %zd-sequence (%zd-sequence given)",
                         type->tp_name, min_len, len);
        }
        else if (len < min_len) {
            PyErr_Format(PyExc_TypeError, "%.500s() takes an at least %zd-sequence (%zd-sequence given)",
                         type->tp_name, min_len, len);
        }
        else {
            PyErr_Format(PyExc_TypeError, "%.500s() takes an at most %zd-sequence (%zd-sequence given)",
                         type->tp_name, max_len, len);
        }
        Py_DECREF(seq);
        return NULL;
    }
    if (dict != NULL && dict != Py_None && !PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "%.500s() takes a dict as second arg, if any", type->tp_name);
        Py_DECREF(seq);
        return NULL;
    }
    PyObject *res = PyStructSequence_New(type);
    if (res == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyStructSequence_SetItem(res, i, Py_NewRef(PySequence_Fast_GET_ITEM(seq, i)));
    }
    for (Py_ssize_t i = len; i < max_len; i++) {
        PyObject *v = NULL;
        if (dict != NULL && dict != Py_None) {
            v = PyDict_GetItemString(dict, hidden_field_name(type, i));
        }
        PyStructSequence_SetItem(res, i, Py_NewRef(v ? v : Py_None));
    }
    Py_DECREF(seq);
    return res;
}

/* "sys.version_info(major=3, minor=14, ...)" over the visible fields. */
static PyObject *
structseq_repr(PyObject *op)
{
    PyTypeObject *type = Py_TYPE(op);
    _PyUnicodeWriter writer;
    _PyUnicodeWriter_Init(&writer);
    writer.overallocate = 1;
    if (_PyUnicodeWriter_WriteASCIIString(&writer, type->tp_name, (Py_ssize_t)strlen(type->tp_name)) < 0 ||
        _PyUnicodeWriter_WriteChar(&writer, '(') < 0) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < VISIBLE_SIZE(op); i++) {
        if (i > 0 && _PyUnicodeWriter_WriteASCIIString(&writer, ", ", 2) < 0) {
            goto error;
        }
        const char *name = type->tp_members[i].name;
        PyObject *repr = PyObject_Repr(PyStructSequence_GetItem(op, i));
        if (repr == NULL) {
            goto error;
        }
        int err = _PyUnicodeWriter_WriteASCIIString(&writer, name, (Py_ssize_t)strlen(name)) < 0 ||
                  _PyUnicodeWriter_WriteChar(&writer, '=') < 0 ||
                  _PyUnicodeWriter_WriteStr(&writer, repr) < 0;
        Py_DECREF(repr);
        if (err) {
            goto error;
        }
    }
    if (_PyUnicodeWriter_WriteChar(&writer, ')') < 0) {
        goto error;
    }
    return _PyUnicodeWriter_Finish(&writer);
error:
    _PyUnicodeWriter_Dealloc(&writer);
    return NULL;
}

static PyObject *
structseq_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t visible = VISIBLE_SIZE(op);
    Py_ssize_t size = REAL_SIZE(op);
    PyObject *tup = _PyTuple_FromArray(((PyTupleObject *)op)->ob_item, visible);
    PyObject *dict = PyDict_New();
    if (tup == NULL || dict == NULL) {
        goto error;
    }
    for (Py_ssize_t i = visible; i < size; i++) {
        if (PyDict_SetItemString(dict, hidden_field_name(Py_TYPE(op), i),
                                 PyStructSequence_GetItem(op, i)) < 0) {
            goto error;
        }
    }
    PyObject *res = Py_BuildValue("(O(OO))", Py_TYPE(op), tup, dict);
    Py_DECREF(tup);
    Py_DECREF(dict);
    return res;
error:
    Py_XDECREF(tup);
    Py_XDECREF(dict);
    return NULL;
}

static PyMethodDef structseq_methods[] = {
    {"__reduce__", structseq_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static Py_ssize_t
count_members(PyStructSequence_Desc *desc, Py_ssize_t *n_unnamed)
{
    Py_ssize_t i;
    *n_unnamed = 0;
    for (i = 0; desc->fields[i].name != NULL; i++) {
        if (desc->fields[i].name == PyStructSequence_UnnamedField) {
            (*n_unnamed)++;
        }
    }
    return i;
}

static int
set_count(PyObject *dict, const char *name, Py_ssize_t value)
{
    PyObject *v = PyLong_FromSsize_t(value);
    if (v == NULL) {
        return -1;
    }
    int err = PyDict_SetItemString(dict, name, v);
    Py_DECREF(v);
    return err;
}

/* Fill a (static or heap) type object for the description. */
static int
init_type(PyTypeObject *type, PyStructSequence_Desc *desc)
{
    Py_ssize_t n_unnamed;
    Py_ssize_t n_members = count_members(desc, &n_unnamed);
    PyMemberDef *members = PyMem_New(PyMemberDef, n_members - n_unnamed + 1);
    if (members == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n_members; i++) {
        if (desc->fields[i].name == PyStructSequence_UnnamedField) {
            continue;
        }
        members[k].name = desc->fields[i].name;
        members[k].type = _Py_T_OBJECT;
        members[k].offset = (Py_ssize_t)(offsetof(PyTupleObject, ob_item) + (size_t)i * sizeof(PyObject *));
        members[k].flags = Py_READONLY;
        members[k].doc = desc->fields[i].doc;
        k++;
    }
    members[k] = (PyMemberDef){NULL, 0, 0, 0, NULL};

    type->tp_name = desc->name;
    type->tp_basicsize = (Py_ssize_t)offsetof(PyTupleObject, ob_item);
    type->tp_itemsize = sizeof(PyObject *);
    type->tp_dealloc = structseq_dealloc;
    type->tp_repr = structseq_repr;
    type->tp_doc = desc->doc;
    type->tp_base = &PyTuple_Type;
    type->tp_methods = structseq_methods;
    type->tp_new = structseq_new;
    type->tp_flags |= Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_TUPLE_SUBCLASS;
    type->tp_traverse = structseq_traverse;
    type->tp_members = members;
    type->tp_free = PyObject_GC_Del;
    if (PyType_Ready(type) < 0) {
        return -1;
    }
    if (set_count(type->tp_dict, "n_sequence_fields", desc->n_in_sequence) < 0 ||
        set_count(type->tp_dict, "n_fields", n_members) < 0 ||
        set_count(type->tp_dict, "n_unnamed_fields", n_unnamed) < 0) {
        return -1;
    }
    return 0;
}

int
PyStructSequence_InitType2(PyTypeObject *type, PyStructSequence_Desc *desc)
{
    if (type->tp_flags & Py_TPFLAGS_READY) {
        return 0;
    }
    Py_SET_TYPE(type, &PyType_Type);
    Py_SET_REFCNT(type, _Py_IMMORTAL_INITIAL_REFCNT);
    return init_type(type, desc);
}

void
PyStructSequence_InitType(PyTypeObject *type, PyStructSequence_Desc *desc)
{
    (void)PyStructSequence_InitType2(type, desc);
}

/* A new static-like type that lives until exit (the runtime keeps types
   made here alive: they are immortal). */
PyTypeObject *
PyStructSequence_NewType(PyStructSequence_Desc *desc)
{
    PyTypeObject *type = PyMem_Calloc(1, sizeof(PyTypeObject));
    if (type == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    if (PyStructSequence_InitType2(type, desc) < 0) {
        PyMem_Free(type);
        return NULL;
    }
    return type;
}
