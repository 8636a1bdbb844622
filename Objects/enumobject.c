/* enumerate(iterable, start=0) and reversed(sequence). */
#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_object.h"
#include "pycore_tuple.h"

/* ---- enumerate ------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Py_ssize_t en_index;     /* next index, while it fits */
    PyObject *en_sit;        /* the underlying iterator */
    PyObject *en_longindex;  /* next index as an int once past
                                PY_SSIZE_T_MAX (or if start was huge) */
} enumobject;

static PyObject *
enum_make(PyTypeObject *type, PyObject *iterable, PyObject *start)
{
    enumobject *en = (enumobject *)type->tp_alloc(type, 0);
    if (en == NULL) {
        return NULL;
    }
    en->en_index = 0;
    en->en_longindex = NULL;
    if (start != NULL) {
        start = PyNumber_Index(start);
        if (start == NULL) {
            goto error;
        }
        Py_ssize_t i = PyLong_AsSsize_t(start);
        if (i == -1 && PyErr_Occurred()) {
            /* too big for the fast counter: count with ints */
            PyErr_Clear();
            en->en_index = PY_SSIZE_T_MAX;
            en->en_longindex = start;
        }
        else {
            en->en_index = i;
            Py_DECREF(start);
        }
    }
    en->en_sit = PyObject_GetIter(iterable);
    if (en->en_sit == NULL) {
        goto error;
    }
    return (PyObject *)en;

error:
    Py_DECREF(en);
    return NULL;
}

/* Shared argument handling for tp_new and vectorcall; kwnames/kwvalues
   describe the keyword arguments. */
static PyObject *
enum_from_args(PyTypeObject *type, PyObject *const *args, Py_ssize_t nargs,
               PyObject *const *kwnames_items, PyObject *const *kwvalues, Py_ssize_t nkw)
{
    PyObject *iterable = nargs > 0 ? args[0] : NULL;
    PyObject *start = nargs > 1 ? args[1] : NULL;

    if (nargs + nkw > 2) {
        PyErr_Format(PyExc_TypeError, "enumerate() takes at most 2 arguments (%zd given)",
                     nargs + nkw);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = kwnames_items[i];
        if (iterable == NULL && PyUnicode_Check(name) &&
            _PyUnicode_EqualToASCIIString(name, "iterable")) {
            iterable = kwvalues[i];
        }
        else if (start == NULL && PyUnicode_Check(name) &&
                 _PyUnicode_EqualToASCIIString(name, "start")) {
            start = kwvalues[i];
        }
        else {
            PyErr_Format(PyExc_TypeError, "'%S' is an invalid keyword argument for enumerate()",
                         name);
            return NULL;
        }
    }
    if (iterable == NULL) {
        if (start != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "'start' is an invalid keyword argument for enumerate()");
        }
        else {
            PyErr_SetString(PyExc_TypeError, "enumerate() missing required argument 'iterable'");
        }
        return NULL;
    }
    return enum_make(type, iterable, start);
}

static PyObject *
enum_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t nkw = kwds ? PyDict_GET_SIZE(kwds) : 0;
    PyObject *names[2], *values[2];
    if (nkw > 2) {
        PyErr_Format(PyExc_TypeError, "enumerate() takes at most 2 arguments (%zd given)",
                     PyTuple_GET_SIZE(args) + nkw);
        return NULL;
    }
    Py_ssize_t pos = 0, k = 0;
    PyObject *key, *value;
    while (nkw && PyDict_Next(kwds, &pos, &key, &value)) {
        names[k] = key;
        values[k] = value;
        k++;
    }
    return enum_from_args(type, _PyTuple_ITEMS(args), PyTuple_GET_SIZE(args), names, values, k);
}

static PyObject *
enum_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    return enum_from_args((PyTypeObject *)type, args, nargs,
                          nkw ? _PyTuple_ITEMS(kwnames) : NULL, args + nargs, nkw);
}

static void
enum_dealloc(PyObject *op)
{
    enumobject *en = (enumobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(en->en_sit);
    Py_XDECREF(en->en_longindex);
    Py_TYPE(op)->tp_free(op);
}

static int
enum_traverse(PyObject *op, visitproc visit, void *arg)
{
    enumobject *en = (enumobject *)op;
    Py_VISIT(en->en_sit);
    Py_VISIT(en->en_longindex);
    return 0;
}

static PyObject *
enum_next_index(enumobject *en)
{
    if (en->en_index < PY_SSIZE_T_MAX && en->en_longindex == NULL) {
        return PyLong_FromSsize_t(en->en_index++);
    }
    if (en->en_longindex == NULL) {
        en->en_longindex = PyLong_FromSsize_t(PY_SSIZE_T_MAX);
        if (en->en_longindex == NULL) {
            return NULL;
        }
    }
    PyObject *one = PyLong_FromLong(1);
    if (one == NULL) {
        return NULL;
    }
    PyObject *next = PyNumber_Add(en->en_longindex, one);
    Py_DECREF(one);
    if (next == NULL) {
        return NULL;
    }
    PyObject *current = en->en_longindex;
    en->en_longindex = next;
    return current;
}

static PyObject *
enum_next(PyObject *op)
{
    enumobject *en = (enumobject *)op;
    PyObject *it = en->en_sit;
    PyObject *item = _PyIter_NextGuarded(it);
    if (item == NULL) {
        return NULL;
    }
    PyObject *index = enum_next_index(en);
    if (index == NULL) {
        Py_DECREF(item);
        return NULL;
    }
    return _PyTuple_FromPairSteal(index, item);
}

static PyMethodDef enum_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyEnum_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "enumerate",
    .tp_basicsize = sizeof(enumobject),
    .tp_dealloc = enum_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Return an enumerate object.\n\n"
              "  iterable\n    an object supporting iteration\n\n"
              "The enumerate object yields pairs containing a count (from start, which\n"
              "defaults to zero) and a value yielded by the iterable argument.\n\n"
              "enumerate is useful for obtaining an indexed list:\n"
              "    (0, seq[0]), (1, seq[1]), (2, seq[2]), ...",
    .tp_traverse = enum_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = enum_next,
    .tp_methods = enum_methods,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = enum_new,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = enum_vectorcall,
};

/* ---- reversed ------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Py_ssize_t index;
    PyObject *seq; /* NULL once exhausted */
} reversedobject;

static PyObject *
reversed_make(PyTypeObject *type, PyObject *seq)
{
    static PyObject *reversed_name = NULL;
    if (reversed_name == NULL) {
        reversed_name = PyUnicode_InternFromString("__reversed__");
        if (reversed_name == NULL) {
            return NULL;
        }
    }
    PyObject *reversed_meth = _PyObject_LookupSpecial(seq, reversed_name);
    if (reversed_meth == Py_None) {
        Py_DECREF(reversed_meth);
        goto not_reversible;
    }
    if (reversed_meth != NULL) {
        PyObject *res = PyObject_CallNoArgs(reversed_meth);
        Py_DECREF(reversed_meth);
        return res;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (!PySequence_Check(seq)) {
        goto not_reversible;
    }
    Py_ssize_t n = PySequence_Size(seq);
    if (n == -1) {
        return NULL;
    }
    reversedobject *ro = (reversedobject *)type->tp_alloc(type, 0);
    if (ro == NULL) {
        return NULL;
    }
    ro->index = n - 1;
    ro->seq = Py_NewRef(seq);
    return (PyObject *)ro;

not_reversible:
    PyErr_Format(PyExc_TypeError, "'%.200s' object is not reversible", Py_TYPE(seq)->tp_name);
    return NULL;
}

static PyObject *
reversed_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if ((type == &PyReversed_Type || type->tp_init == PyReversed_Type.tp_init) &&
        kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "reversed() takes no keyword arguments");
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) != 1) {
        PyErr_Format(PyExc_TypeError, "reversed expected 1 argument, got %zd",
                     PyTuple_GET_SIZE(args));
        return NULL;
    }
    return reversed_make(type, PyTuple_GET_ITEM(args, 0));
}

static PyObject *
reversed_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "reversed() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "reversed expected 1 argument, got %zd", nargs);
        return NULL;
    }
    return reversed_make((PyTypeObject *)type, args[0]);
}

static void
reversed_dealloc(PyObject *op)
{
    reversedobject *ro = (reversedobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(ro->seq);
    Py_TYPE(op)->tp_free(op);
}

static int
reversed_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((reversedobject *)op)->seq);
    return 0;
}

static PyObject *
reversed_next(PyObject *op)
{
    reversedobject *ro = (reversedobject *)op;
    if (ro->seq == NULL) {
        return NULL;
    }
    Py_ssize_t index = ro->index;
    if (index >= 0) {
        PyObject *item = PySequence_GetItem(ro->seq, index);
        if (item != NULL) {
            ro->index--;
            return item;
        }
        if (!PyErr_ExceptionMatches(PyExc_IndexError) &&
            !PyErr_ExceptionMatches(PyExc_StopIteration)) {
            return NULL;
        }
        PyErr_Clear();
    }
    ro->index = -1;
    Py_CLEAR(ro->seq);
    return NULL;
}

static PyObject *
reversed_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    reversedobject *ro = (reversedobject *)op;
    if (ro->seq == NULL) {
        return PyLong_FromLong(0);
    }
    Py_ssize_t seqsize = PySequence_Size(ro->seq);
    if (seqsize == -1) {
        return NULL;
    }
    Py_ssize_t position = ro->index + 1;
    return PyLong_FromSsize_t(seqsize < position ? 0 : position);
}

static PyObject *
reversed_setstate(PyObject *op, PyObject *state)
{
    reversedobject *ro = (reversedobject *)op;
    Py_ssize_t index = PyLong_AsSsize_t(state);
    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (ro->seq != NULL) {
        Py_ssize_t n = PySequence_Size(ro->seq);
        if (n < 0) {
            return NULL;
        }
        if (index < -1) {
            index = -1;
        }
        else if (index > n - 1) {
            index = n - 1;
        }
        ro->index = index;
    }
    Py_RETURN_NONE;
}

static PyMethodDef reversed_methods[] = {
    {"__length_hint__", reversed_len, METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {"__setstate__", reversed_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyReversed_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "reversed",
    .tp_basicsize = sizeof(reversedobject),
    .tp_dealloc = reversed_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Return a reverse iterator over the values of the given sequence.",
    .tp_traverse = reversed_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = reversed_next,
    .tp_methods = reversed_methods,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = reversed_new,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = reversed_vectorcall,
};
