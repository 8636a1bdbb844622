/* Cell objects: the one-slot boxes through which nested functions share a
   variable.  A function's code reaches its closure through cells stored in
   the frame (MAKE_CELL, COPY_FREE_VARS, LOAD_DEREF, STORE_DEREF); Python
   code sees them as types.CellType and f.__closure__. */

#include "Python.h"
#include "pycore_object.h"

PyObject *
PyCell_New(PyObject *obj)
{
    PyCellObject *op = PyObject_GC_New(PyCellObject, &PyCell_Type);
    if (op == NULL) {
        return NULL;
    }
    op->ob_ref = Py_XNewRef(obj);
    PyObject_GC_Track(op);
    return (PyObject *)op;
}

PyObject *
PyCell_Get(PyObject *op)
{
    if (!PyCell_Check(op)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return Py_XNewRef(PyCell_GET(op));
}

int
PyCell_Set(PyObject *op, PyObject *value)
{
    if (!PyCell_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    PyObject *old = PyCell_GET(op);
    PyCell_SET(op, Py_XNewRef(value));
    Py_XDECREF(old);
    return 0;
}

static PyObject *
cell_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *contents = NULL;
    if (!_PyArg_NoKeywords("cell", kwargs)) {
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "cell", 0, 1, &contents)) {
        return NULL;
    }
    return PyCell_New(contents);
}

static void
cell_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_XDECREF(PyCell_GET(self));
    PyObject_GC_Del(self);
}

static int
cell_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(PyCell_GET(self));
    return 0;
}

static int
cell_clear(PyObject *self)
{
    Py_CLEAR(((PyCellObject *)self)->ob_ref);
    return 0;
}

/* Cells compare by their contents; an empty cell sorts before any full
   one and equals another empty one. */
static PyObject *
cell_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyCell_Check(a) || !PyCell_Check(b)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *va = PyCell_GET(a);
    PyObject *vb = PyCell_GET(b);
    if (va != NULL && vb != NULL) {
        return PyObject_RichCompare(va, vb, op);
    }
    int fa = va != NULL;
    int fb = vb != NULL;
    Py_RETURN_RICHCOMPARE(fa, fb, op);
}

static PyObject *
cell_repr(PyObject *self)
{
    PyObject *value = PyCell_GET(self);
    if (value == NULL) {
        return PyUnicode_FromFormat("<cell at %p: empty>", self);
    }
    return PyUnicode_FromFormat("<cell at %p: %.80s object at %p>", self,
                                Py_TYPE(value)->tp_name, value);
}

static PyObject *
cell_get_contents(PyObject *self, void *closure)
{
    PyObject *value = PyCell_GET(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "Cell is empty");
        return NULL;
    }
    return Py_NewRef(value);
}

static int
cell_set_contents(PyObject *self, PyObject *value, void *closure)
{
    PyObject *old = PyCell_GET(self);
    PyCell_SET(self, Py_XNewRef(value));
    Py_XDECREF(old);
    return 0;
}

static PyGetSetDef cell_getsetlist[] = {
    {"cell_contents", cell_get_contents, cell_set_contents, NULL, NULL},
    {NULL},
};

PyTypeObject PyCell_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "cell",
    .tp_basicsize = sizeof(PyCellObject),
    .tp_dealloc = cell_dealloc,
    .tp_repr = cell_repr,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "cell([contents])\n--\n\n"
              "A box holding one value (or nothing), shared between a function and\n"
              "the functions nested in it.",
    .tp_traverse = cell_traverse,
    .tp_clear = cell_clear,
    .tp_richcompare = cell_richcompare,
    .tp_getset = cell_getsetlist,
    .tp_new = cell_new,
};
