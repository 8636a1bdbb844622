/* typing.Union (also types.UnionType): what `int | str` evaluates to.

   In 3.14 the operator form and typing.Union[...] build the same object.
   A union holds a flat tuple of distinct members; a union of one member is
   that member itself.  Members are compared as a set, so int | str equals
   str | int. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_typing.h"

typedef struct {
    PyObject_HEAD
    PyObject *args;      /* tuple of members, in first-seen order */
    PyObject *params;    /* type parameters, computed on first use */
    PyObject *weakrefs;
} unionobject;

#define UNION(op) ((unionobject *)(op))

/* Objects `|` accepts without help from typing.py. */
static int
is_unionable(PyObject *obj)
{
    return obj == Py_None || PyType_Check(obj) ||
           PyObject_TypeCheck(obj, &Py_GenericAliasType) || _PyUnion_Check(obj) ||
           Py_IS_TYPE(obj, &_PyTypeAlias_Type);
}

/* typing._type_check(arg, msg): strings become ForwardRefs and junk is refused. */
static PyObject *
checked_member(PyObject *arg)
{
    if (arg == Py_None) {
        return Py_NewRef((PyObject *)&_PyNone_Type);
    }
    if (is_unionable(arg) || Py_IS_TYPE(arg, &_PyTypeVar_Type) ||
        Py_IS_TYPE(arg, &_PyParamSpec_Type)) {
        return Py_NewRef(arg);
    }
    PyObject *typing = PyImport_ImportModule("typing");
    if (typing == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(typing, "_type_check", "Os", arg,
                                      "Union[arg, ...]: each arg must be a type.");
    Py_DECREF(typing);
    return r;
}

/* Add one member to the list, splicing nested unions and skipping repeats. */
static int
add_member(PyObject *members, PyObject *arg)
{
    if (_PyUnion_Check(arg)) {
        PyObject *inner = UNION(arg)->args;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(inner); i++) {
            if (add_member(members, PyTuple_GET_ITEM(inner, i)) < 0) {
                return -1;
            }
        }
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(members); i++) {
        PyObject *seen = PyList_GET_ITEM(members, i);
        if (seen == arg) {
            return 0;
        }
        int eq = PyObject_RichCompareBool(seen, arg, Py_EQ);
        if (eq != 0) {
            return eq < 0 ? -1 : 0;
        }
    }
    return PyList_Append(members, arg);
}

static PyObject *
union_make(PyObject *members)
{
    unionobject *u = PyObject_GC_New(unionobject, &_PyUnion_Type);
    if (u == NULL) {
        return NULL;
    }
    u->args = PyList_AsTuple(members);
    u->params = NULL;
    u->weakrefs = NULL;
    if (u->args == NULL) {
        Py_DECREF(u);
        return NULL;
    }
    PyObject_GC_Track(u);
    return (PyObject *)u;
}

/* Build from already checked members: one member stands for itself. */
static PyObject *
union_from_checked(PyObject *const *items, Py_ssize_t n)
{
    PyObject *members = PyList_New(0);
    if (members == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (add_member(members, items[i]) < 0) {
            Py_DECREF(members);
            return NULL;
        }
    }
    PyObject *r;
    if (PyList_GET_SIZE(members) == 0) {
        PyErr_SetString(PyExc_TypeError, "Cannot take a Union of no types.");
        r = NULL;
    }
    else if (PyList_GET_SIZE(members) == 1) {
        r = Py_NewRef(PyList_GET_ITEM(members, 0));
    }
    else {
        r = union_make(members);
    }
    Py_DECREF(members);
    return r;
}

PyObject *
_Py_union_from_tuple(PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *checked = PyTuple_New(n);
    if (checked == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *m = checked_member(PyTuple_GET_ITEM(args, i));
        if (m == NULL) {
            Py_DECREF(checked);
            return NULL;
        }
        PyTuple_SET_ITEM(checked, i, m);
    }
    PyObject *r = union_from_checked(&PyTuple_GET_ITEM(checked, 0), n);
    Py_DECREF(checked);
    return r;
}

/* nb_or of type, GenericAlias, TypeAliasType and Union: x | y. */
PyObject *
_Py_union_type_or(PyObject *self, PyObject *other)
{
    if (!is_unionable(self) || !is_unionable(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *pair[2] = {self, other};
    for (int i = 0; i < 2; i++) {
        if (pair[i] == Py_None) {
            pair[i] = (PyObject *)&_PyNone_Type;
        }
    }
    return union_from_checked(pair, 2);
}

PyObject *
_Py_union_args(PyObject *self)
{
    return UNION(self)->args;
}

static int
union_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(UNION(op)->args);
    Py_VISIT(UNION(op)->params);
    return 0;
}

static void
union_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    if (UNION(op)->weakrefs != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    Py_CLEAR(UNION(op)->args);
    Py_CLEAR(UNION(op)->params);
    PyObject_GC_Del(op);
}

/* "int | str | None". */
static PyObject *
union_repr(PyObject *op)
{
    PyObject *args = UNION(op)->args;
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        PyObject *m = PyTuple_GET_ITEM(args, i);
        PyObject *s = m == (PyObject *)&_PyNone_Type ? PyUnicode_FromString("None")
                                                      : _PyTyping_ArgRepr(m);
        if (s == NULL || PyList_Append(parts, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(s);
    }
    PyObject *sep = PyUnicode_FromString(" | ");
    PyObject *r = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return r;
}

static Py_hash_t
union_hash(PyObject *op)
{
    PyObject *set = PyFrozenSet_New(UNION(op)->args);
    if (set == NULL) {
        return -1;
    }
    Py_hash_t h = PyObject_Hash(set);
    Py_DECREF(set);
    return h;
}

/* Same members, in any order.  Members may be unhashable (Union[[int]]),
   so this counts matches instead of building sets. */
static int
same_members(PyObject *a, PyObject *b)
{
    if (PyTuple_GET_SIZE(a) != PyTuple_GET_SIZE(b)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(a); i++) {
        int found = PySequence_Contains(b, PyTuple_GET_ITEM(a, i));
        if (found <= 0) {
            return found;
        }
    }
    return 1;
}

static PyObject *
union_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!_PyUnion_Check(b) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = same_members(UNION(a)->args, UNION(b)->args);
    if (same < 0) {
        return NULL;
    }
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyObject *
union_get_parameters(PyObject *op, void *closure)
{
    unionobject *u = UNION(op);
    if (u->params == NULL) {
        u->params = _PyTyping_CollectParameters(u->args);
        if (u->params == NULL) {
            return NULL;
        }
    }
    return Py_NewRef(u->params);
}

static PyObject *
union_get_origin(PyObject *op, void *closure)
{
    return Py_NewRef((PyObject *)Py_TYPE(op));
}

static PyObject *
union_get_name(PyObject *op, void *closure)
{
    return PyUnicode_FromString("Union");
}

/* (int | T)[str] is int | str. */
static PyObject *
union_subscript(PyObject *op, PyObject *item)
{
    PyObject *params = union_get_parameters(op, NULL);
    if (params == NULL) {
        return NULL;
    }
    PyObject *newargs = _PyTyping_SubstituteArgs(op, UNION(op)->args, params, item);
    Py_DECREF(params);
    if (newargs == NULL) {
        return NULL;
    }
    PyObject *r = _Py_union_from_tuple(newargs);
    Py_DECREF(newargs);
    return r;
}

/* Union[int, str]: the typing spelling of int | str. */
static PyObject *
union_class_getitem(PyObject *cls, PyObject *item)
{
    if (PyTuple_Check(item)) {
        return _Py_union_from_tuple(item);
    }
    PyObject *one = PyTuple_Pack(1, item);
    if (one == NULL) {
        return NULL;
    }
    PyObject *r = _Py_union_from_tuple(one);
    Py_DECREF(one);
    return r;
}

static PyObject *
union_instancecheck(PyObject *op, PyObject *obj)
{
    int r = PyObject_IsInstance(obj, UNION(op)->args);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *
union_subclasscheck(PyObject *op, PyObject *cls)
{
    int r = PyObject_IsSubclass(cls, UNION(op)->args);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *
union_mro_entries(PyObject *op, PyObject *bases)
{
    return PyErr_Format(PyExc_TypeError, "Cannot subclass %R", op);
}

static PyMethodDef union_methods[] = {
    {"__class_getitem__", union_class_getitem, METH_O | METH_CLASS, NULL},
    {"__instancecheck__", union_instancecheck, METH_O, NULL},
    {"__subclasscheck__", union_subclasscheck, METH_O, NULL},
    {"__mro_entries__", union_mro_entries, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef union_members[] = {
    {"__args__", _Py_T_OBJECT, offsetof(unionobject, args), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef union_getset[] = {
    {"__parameters__", union_get_parameters, NULL, NULL, NULL},
    {"__origin__", union_get_origin, NULL, NULL, NULL},
    {"__name__", union_get_name, NULL, NULL, NULL},
    {"__qualname__", union_get_name, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyNumberMethods union_as_number = {
    .nb_or = _Py_union_type_or,
};

static PyMappingMethods union_as_mapping = {
    .mp_subscript = union_subscript,
};

PyTypeObject _PyUnion_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.Union",
    .tp_basicsize = sizeof(unionobject),
    .tp_dealloc = union_dealloc,
    .tp_repr = union_repr,
    .tp_as_number = &union_as_number,
    .tp_as_mapping = &union_as_mapping,
    .tp_hash = union_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Represent a union type: int | str, or Union[int, str].",
    .tp_traverse = union_traverse,
    .tp_richcompare = union_richcompare,
    .tp_weaklistoffset = offsetof(unionobject, weakrefs),
    .tp_methods = union_methods,
    .tp_members = union_members,
    .tp_getset = union_getset,
};
