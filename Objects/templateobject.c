/* string.templatelib.Template: the value of a t-string literal (PEP 750).

   A template keeps two tuples: `strings`, the literal text, and
   `interpolations`, the replacement fields (Interpolation objects, see
   Objects/interpolationobject.c).  The invariant is
   len(strings) == len(interpolations) + 1: text surrounds every field,
   using '' where there is none, so strings[i] comes before
   interpolations[i].  Iterating yields the pieces in source order and
   leaves out the empty strings. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_template.h"

typedef struct {
    PyObject_HEAD
    PyObject *strings;
    PyObject *interpolations;
} templateobject;

#define TMPL(op) ((templateobject *)(op))

/* Steals both tuples (even on failure). */
static PyObject *
template_from_tuples(PyObject *strings, PyObject *interpolations)
{
    templateobject *t;
    if (strings == NULL || interpolations == NULL) {
        Py_XDECREF(strings);
        Py_XDECREF(interpolations);
        return NULL;
    }
    t = PyObject_GC_New(templateobject, &_PyTemplate_Type);
    if (t == NULL) {
        Py_DECREF(strings);
        Py_DECREF(interpolations);
        return NULL;
    }
    t->strings = strings;
    t->interpolations = interpolations;
    PyObject_GC_Track(t);
    return (PyObject *)t;
}

PyObject *
_PyTemplate_Build(PyObject *strings, PyObject *interpolations)
{
    assert(PyTuple_Check(strings) && PyTuple_Check(interpolations));
    assert(PyTuple_GET_SIZE(strings) == PyTuple_GET_SIZE(interpolations) + 1);
    return template_from_tuples(Py_NewRef(strings), Py_NewRef(interpolations));
}

/* ---- Template(*args) --------------------------------------------------- */

/* Appends the pending text (or '' when there is none) to `strings` and
   forgets it. */
static int
flush_text(PyObject *strings, PyObject **text)
{
    int r;
    if (*text == NULL) {
        *text = PyUnicode_FromStringAndSize("", 0);
        if (*text == NULL) {
            return -1;
        }
    }
    r = PyList_Append(strings, *text);
    Py_CLEAR(*text);
    return r;
}

/* Joins runs of string arguments and fills the lists. */
static int
collect_args(PyObject *args, PyObject *strings, PyObject *fields)
{
    PyObject *text = NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        PyObject *arg = PyTuple_GET_ITEM(args, i);
        if (PyUnicode_Check(arg)) {
            if (text == NULL) {
                text = Py_NewRef(arg);
            }
            else {
                PyObject *joined = PyUnicode_Concat(text, arg);
                Py_SETREF(text, joined);
                if (text == NULL) {
                    return -1;
                }
            }
        }
        else if (PyObject_TypeCheck(arg, &_PyInterpolation_Type)) {
            if (flush_text(strings, &text) < 0
                || PyList_Append(fields, arg) < 0) {
                return -1;
            }
        }
        else {
            Py_XDECREF(text);
            PyErr_Format(PyExc_TypeError,
                         "Template.__new__ *args need to be of type 'str' "
                         "or 'Interpolation', got %s", Py_TYPE(arg)->tp_name);
            return -1;
        }
    }
    return flush_text(strings, &text);
}

static PyObject *
template_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *strings, *fields, *res = NULL;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyErr_SetString(PyExc_TypeError,
                        "Template.__new__ only accepts *args arguments");
        return NULL;
    }
    strings = PyList_New(0);
    fields = PyList_New(0);
    if (strings != NULL && fields != NULL
        && collect_args(args, strings, fields) == 0) {
        res = template_from_tuples(PyList_AsTuple(strings),
                                   PyList_AsTuple(fields));
    }
    Py_XDECREF(strings);
    Py_XDECREF(fields);
    return res;
}

static void
template_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_CLEAR(TMPL(op)->strings);
    Py_CLEAR(TMPL(op)->interpolations);
    Py_TYPE(op)->tp_free(op);
}

static int
template_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(TMPL(op)->strings);
    Py_VISIT(TMPL(op)->interpolations);
    return 0;
}

static PyObject *
template_repr(PyObject *op)
{
    return PyUnicode_FromFormat("%s(strings=%R, interpolations=%R)",
                                _PyType_Name(Py_TYPE(op)), TMPL(op)->strings,
                                TMPL(op)->interpolations);
}

/* ---- Concatenation ----------------------------------------------------- */

/* a + b: a's last string and b's first string merge into one. */
static PyObject *
join_templates(templateobject *a, templateobject *b)
{
    Py_ssize_t na = PyTuple_GET_SIZE(a->strings);
    Py_ssize_t nb = PyTuple_GET_SIZE(b->strings);
    PyObject *strings = PyTuple_New(na + nb - 1);
    PyObject *seam;
    if (strings == NULL) {
        return NULL;
    }
    seam = PyUnicode_Concat(PyTuple_GET_ITEM(a->strings, na - 1),
                            PyTuple_GET_ITEM(b->strings, 0));
    if (seam == NULL) {
        Py_DECREF(strings);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < na - 1; i++) {
        PyTuple_SET_ITEM(strings, i, Py_NewRef(PyTuple_GET_ITEM(a->strings, i)));
    }
    PyTuple_SET_ITEM(strings, na - 1, seam);
    for (Py_ssize_t i = 1; i < nb; i++) {
        PyTuple_SET_ITEM(strings, na - 1 + i,
                         Py_NewRef(PyTuple_GET_ITEM(b->strings, i)));
    }
    return template_from_tuples(strings, PySequence_Concat(a->interpolations,
                                                           b->interpolations));
}

static PyObject *
template_add(PyObject *left, PyObject *right)
{
    if (_PyTemplate_CheckExact(left) && _PyTemplate_CheckExact(right)) {
        return join_templates(TMPL(left), TMPL(right));
    }
    if (_PyTemplate_CheckExact(left)) {
        PyErr_Format(PyExc_TypeError,
                     "can only concatenate %s (not \"%s\") to %s",
                     _PyTemplate_Type.tp_name, Py_TYPE(right)->tp_name,
                     _PyTemplate_Type.tp_name);
        return NULL;
    }
    /* str + Template: let str's concatenation report the error. */
    Py_RETURN_NOTIMPLEMENTED;
}

/* ---- Attributes -------------------------------------------------------- */

static PyObject *
template_values(PyObject *op, void *Py_UNUSED(closure))
{
    PyObject *fields = TMPL(op)->interpolations;
    Py_ssize_t n = PyTuple_GET_SIZE(fields);
    PyObject *res = PyTuple_New(n);
    if (res == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyObject_GetAttrString(PyTuple_GET_ITEM(fields, i),
                                                 "value");
        if (value == NULL) {
            Py_DECREF(res);
            return NULL;
        }
        PyTuple_SET_ITEM(res, i, value);
    }
    return res;
}

/* Pickled through string.templatelib._template_unpickle(strings, fields). */
static PyObject *
template_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PyObject *mod = PyImport_ImportModule("string.templatelib");
    PyObject *rebuild, *res;
    if (mod == NULL) {
        return NULL;
    }
    rebuild = PyObject_GetAttrString(mod, "_template_unpickle");
    Py_DECREF(mod);
    if (rebuild == NULL) {
        return NULL;
    }
    res = Py_BuildValue("O(OO)", rebuild, TMPL(op)->strings,
                        TMPL(op)->interpolations);
    Py_DECREF(rebuild);
    return res;
}

static PyMethodDef template_methods[] = {
    {"__reduce__", template_reduce, METH_NOARGS, "Support for pickling."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef template_getset[] = {
    {"values", template_values, NULL,
     "The values of the interpolations, in order.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef template_members[] = {
    {"strings", _Py_T_OBJECT, offsetof(templateobject, strings), Py_READONLY,
     "The literal text around the interpolations."},
    {"interpolations", _Py_T_OBJECT, offsetof(templateobject, interpolations),
     Py_READONLY, "The Interpolation objects, in order."},
    {NULL, 0, 0, 0, NULL},
};

/* ---- Iteration --------------------------------------------------------- */

/* `pos` counts pieces: even positions are strings[pos / 2], odd ones are
   interpolations[pos / 2]. */
typedef struct {
    PyObject_HEAD
    PyObject *tmpl;         /* NULL once exhausted */
    Py_ssize_t pos;
} tmpliterobject;

static PyObject *
template_iter(PyObject *op)
{
    tmpliterobject *it = PyObject_GC_New(tmpliterobject, &_PyTemplateIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->tmpl = Py_NewRef(op);
    it->pos = 0;
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static PyObject *
tmpliter_next(PyObject *op)
{
    tmpliterobject *it = (tmpliterobject *)op;
    while (it->tmpl != NULL) {
        templateobject *t = TMPL(it->tmpl);
        Py_ssize_t pos = it->pos++;
        PyObject *piece;
        if (pos > 2 * PyTuple_GET_SIZE(t->interpolations)) {
            Py_CLEAR(it->tmpl);
            break;
        }
        if (pos % 2 == 1) {
            return Py_NewRef(PyTuple_GET_ITEM(t->interpolations, pos / 2));
        }
        piece = PyTuple_GET_ITEM(t->strings, pos / 2);
        if (PyUnicode_GET_LENGTH(piece) > 0) {
            return Py_NewRef(piece);
        }
    }
    return NULL;
}

static void
tmpliter_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_CLEAR(((tmpliterobject *)op)->tmpl);
    Py_TYPE(op)->tp_free(op);
}

static int
tmpliter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((tmpliterobject *)op)->tmpl);
    return 0;
}

PyTypeObject _PyTemplateIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "string.templatelib.TemplateIter",
    .tp_basicsize = sizeof(tmpliterobject),
    .tp_dealloc = tmpliter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = tmpliter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = tmpliter_next,
    .tp_free = PyObject_GC_Del,
};

static PyNumberMethods template_as_number = {
    .nb_add = template_add,
};

PyTypeObject _PyTemplate_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "string.templatelib.Template",
    .tp_basicsize = sizeof(templateobject),
    .tp_dealloc = template_dealloc,
    .tp_repr = template_repr,
    .tp_as_number = &template_as_number,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Template(*args)\n--\n\nThe value of a template string "
              "literal: literal text and interpolations.",
    .tp_traverse = template_traverse,
    .tp_iter = template_iter,
    .tp_methods = template_methods,
    .tp_getset = template_getset,
    .tp_members = template_members,
    .tp_new = template_new,
    .tp_free = PyObject_GC_Del,
};

/* Interpolation gets its __match_args__ here: a class attribute of a
   static type has to be put in the type's dict after it is readied. */
int
_PyTemplate_InitTypes(void)
{
    PyTypeObject *types[] = {
        &_PyInterpolation_Type, &_PyTemplate_Type, &_PyTemplateIter_Type,
    };
    PyObject *names;
    int r;
    for (size_t i = 0; i < Py_ARRAY_LENGTH(types); i++) {
        if (_PyStaticType_InitBuiltin(types[i]) < 0) {
            return -1;
        }
    }
    names = Py_BuildValue("(ssss)", "value", "expression", "conversion",
                          "format_spec");
    if (names == NULL) {
        return -1;
    }
    r = PyDict_SetItemString(_PyInterpolation_Type.tp_dict, "__match_args__",
                             names);
    Py_DECREF(names);
    PyType_Modified(&_PyInterpolation_Type);
    return r;
}
