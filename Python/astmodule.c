/* The _ast module: the Python classes of the syntax tree (ast.AST and one
   subclass per ASDL type and constructor) and the two conversions between
   the compiler's C tree and Python objects.

   Nothing here knows individual node kinds.  Parser/asdl_c.py writes
   tables (_PyAST_Types, _PyAST_Classes in Python/Python-ast.c) giving each
   class's fields, their ASDL types and their offsets in the C structs; the
   classes are built from them at first use, and both conversions walk a
   node's fields through them.  So a change to Parser/Python.asdl needs only
   `make regen-ast`. */

#include "Python.h"
#include "pycore_ast.h"
#include "pycore_compile.h"
#include "pycore_object.h"
#include "pycore_pyarena.h"
#include "pycore_typing.h"

/* ---- ast.AST -------------------------------------------------------------- */

/* ast.AST and every node class are heap classes owned by the _ast module
   (freed with it at finalization); AST gets its __init__ and __reduce__ as
   method descriptors written here. */
static PyObject *ast_class;

/* The built classes, indexed like _PyAST_Classes; NULL until first use. */
static PyObject *node_classes[_PyAST_NCLASSES];
/* Load(), Store(), Add(), ...: one shared instance per bare constructor. */
static PyObject *bare_instances[_PyAST_NCLASSES];

/* A class attribute that should be a tuple of names (_fields, _attributes);
   an empty tuple when absent. */
static PyObject *
class_names(PyObject *self, const char *attr)
{
    PyObject *v;
    if (PyObject_GetOptionalAttrString((PyObject *)Py_TYPE(self), attr, &v) < 0) {
        return NULL;
    }
    if (v == NULL) {
        return PyTuple_New(0);
    }
    PyObject *t = PySequence_Tuple(v);
    Py_DECREF(v);
    return t;
}

/* What an omitted field becomes, judged from its entry in _field_types:
   [] for list[...], None for an optional X | None, Load() for
   expr_context.  Returns 0 (and *value NULL) when the field is required. */
static int
omitted_field_value(PyObject *ftype, PyObject **value)
{
    *value = NULL;
    if (Py_IS_TYPE(ftype, &Py_GenericAliasType)) {
        *value = PyList_New(0);
        return *value ? 1 : -1;
    }
    if (_PyUnion_Check(ftype)) {
        *value = Py_NewRef(Py_None);
        return 1;
    }
    PyObject *ctx = node_classes[_PyAST_Types[_PyAST_TYPE_expr_context].cls];
    if (ctx != NULL && ftype == ctx) {
        *value = PyObject_CallNoArgs(node_classes[_PyAST_Types[_PyAST_TYPE_expr_context].first_ctor]);
        return *value ? 1 : -1;
    }
    return 0;
}

static int
fill_omitted(PyObject *self, PyObject *fields, PyObject *given)
{
    PyObject *types;
    if (PyObject_GetOptionalAttrString((PyObject *)Py_TYPE(self), "_field_types", &types) < 0) {
        return -1;
    }
    if (types == NULL || !PyDict_Check(types)) {
        Py_XDECREF(types);
        return 0;
    }
    int err = 0;
    for (Py_ssize_t i = 0; err == 0 && i < PyTuple_GET_SIZE(fields); i++) {
        PyObject *name = PyTuple_GET_ITEM(fields, i);
        int seen = PySet_Contains(given, name);
        PyObject *ftype = seen ? NULL : PyDict_GetItemWithError(types, name);
        if (seen < 0 || (ftype == NULL && PyErr_Occurred())) {
            err = -1;
            break;
        }
        if (ftype == NULL) {
            continue;
        }
        PyObject *value;
        int r = omitted_field_value(ftype, &value);
        if (r > 0) {
            err = PyObject_SetAttr(self, name, value);
            Py_DECREF(value);
        }
        else if (r == 0) {
            err = PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                                   "%.400s.__init__ missing 1 required positional argument: "
                                   "%R. This will become an error in Python 3.15.",
                                   _PyType_Name(Py_TYPE(self)), name);
        }
        else {
            err = -1;
        }
    }
    Py_DECREF(types);
    return err;
}

static int
set_keyword_args(PyObject *self, PyObject *kwds, PyObject *fields, PyObject *given)
{
    PyObject *attrs = class_names(self, "_attributes");
    if (attrs == NULL) {
        return -1;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    int err = 0;
    while (err == 0 && PyDict_Next(kwds, &pos, &key, &value)) {
        int dup = PySet_Contains(given, key);
        int known = dup ? 1 : PySequence_Contains(fields, key);
        if (known == 0) {
            known = PySequence_Contains(attrs, key);
        }
        if (dup < 0 || known < 0) {
            err = -1;
        }
        else if (dup) {
            PyErr_Format(PyExc_TypeError, "%.400s got multiple values for argument %R",
                         _PyType_Name(Py_TYPE(self)), key);
            err = -1;
        }
        else if (!known && PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                               "%.400s.__init__ got an unexpected keyword argument %R. Support "
                               "for arbitrary keyword arguments is deprecated and will be "
                               "removed in Python 3.15.", _PyType_Name(Py_TYPE(self)), key) < 0) {
            err = -1;
        }
        else {
            err = PyObject_SetAttr(self, key, value) < 0 || PySet_Add(given, key) < 0 ? -1 : 0;
        }
    }
    Py_DECREF(attrs);
    return err;
}

/* Node(*fields, **fields_and_attributes), with the 3.13 defaults for
   fields left out. */
static int
ast_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *fields = class_names(self, "_fields");
    if (fields == NULL) {
        return -1;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args), nfields = PyTuple_GET_SIZE(fields);
    PyObject *given = NULL;
    int err = -1;
    if (nargs > nfields) {
        PyErr_Format(PyExc_TypeError, "%.400s constructor takes at most %zd positional argument%s",
                     _PyType_Name(Py_TYPE(self)), nfields, nfields == 1 ? "" : "s");
        goto done;
    }
    given = PySet_New(NULL);
    if (given == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *name = PyTuple_GET_ITEM(fields, i);
        if (PyObject_SetAttr(self, name, PyTuple_GET_ITEM(args, i)) < 0 ||
            PySet_Add(given, name) < 0) {
            goto done;
        }
    }
    if (kwds != NULL && set_keyword_args(self, kwds, fields, given) < 0) {
        goto done;
    }
    err = fill_omitted(self, fields, given);
done:
    Py_XDECREF(given);
    Py_DECREF(fields);
    return err;
}

static PyObject *
ast_init_method(PyObject *self, PyObject *args, PyObject *kwds)
{
    return ast_init(self, args, kwds) < 0 ? NULL : Py_NewRef(Py_None);
}

/* Pickle and copy as "a new node of this class, then this __dict__". */
static PyObject *
ast_reduce(PyObject *self, PyObject *unused)
{
    PyObject *dict;
    if (PyObject_GetOptionalAttrString(self, "__dict__", &dict) < 0) {
        return NULL;
    }
    if (dict != NULL && PyDict_Check(dict) && PyDict_GET_SIZE(dict) != 0) {
        return Py_BuildValue("O()N", (PyObject *)Py_TYPE(self), dict);
    }
    Py_XDECREF(dict);
    return Py_BuildValue("O()", (PyObject *)Py_TYPE(self));
}

static PyMethodDef ast_methods[] = {
    {"__init__", (PyCFunction)(void (*)(void))ast_init_method, METH_VARARGS | METH_KEYWORDS,
     "Set the fields from positional and keyword arguments."},
    {"__reduce__", ast_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static int
make_ast_class(void)
{
    PyObject *empty = PyTuple_New(0);
    PyObject *ns = empty ? Py_BuildValue("{sOsOsOss}", "_fields", empty, "_attributes", empty,
                                         "__match_args__", empty, "__module__", "ast")
                         : NULL;
    Py_XDECREF(empty);
    if (ns == NULL) {
        return -1;
    }
    ast_class = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O)O", "AST",
                                      (PyObject *)&PyBaseObject_Type, ns);
    Py_DECREF(ns);
    if (ast_class == NULL) {
        return -1;
    }
    for (PyMethodDef *m = ast_methods; m->ml_name != NULL; m++) {
        PyObject *d = PyDescr_NewMethod((PyTypeObject *)ast_class, m);
        int err = d == NULL || PyObject_SetAttrString(ast_class, m->ml_name, d) < 0;
        Py_XDECREF(d);
        if (err) {
            Py_CLEAR(ast_class);
            return -1;
        }
    }
    return 0;
}

/* ---- building the classes --------------------------------------------- */

static PyObject *
names_tuple(const _PyAST_FieldDesc *fields, Py_ssize_t n)
{
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; t != NULL && i < n; i++) {
        PyObject *s = PyUnicode_InternFromString(fields[i].name);
        if (s == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

/* The annotation a field gets in _field_types: expr, list[expr], expr | None. */
static PyObject *
field_annotation(const _PyAST_FieldDesc *f)
{
    PyObject *base;
    switch (f->kind) {
    case _PyAST_F_NODE:
        base = Py_NewRef(node_classes[_PyAST_Types[f->type].cls]);
        break;
    case _PyAST_F_INT:
        base = Py_NewRef((PyObject *)&PyLong_Type);
        break;
    case _PyAST_F_CONSTANT:
        base = Py_NewRef((PyObject *)&PyBaseObject_Type);
        break;
    default:
        base = Py_NewRef((PyObject *)&PyUnicode_Type);
        break;
    }
    PyObject *r;
    if (f->seq) {
        r = Py_GenericAlias((PyObject *)&PyList_Type, base);
    }
    else if (f->opt) {
        r = PyNumber_Or(base, Py_None);
    }
    else {
        return base;
    }
    Py_DECREF(base);
    return r;
}

static PyObject *
field_types_dict(const _PyAST_ClassDesc *c)
{
    PyObject *d = PyDict_New();
    for (Py_ssize_t i = 0; d != NULL && i < c->nfields; i++) {
        PyObject *a = field_annotation(&c->fields[i]);
        if (a == NULL || PyDict_SetItemString(d, c->fields[i].name, a) < 0) {
            Py_XDECREF(a);
            Py_CLEAR(d);
        }
        Py_XDECREF(a);
    }
    return d;
}

/* An optional field reads as None on the class, so a node made without
   it (and ast.dump) sees None. */
static int
optional_defaults(PyObject *ns, const _PyAST_FieldDesc *fields, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (fields[i].opt && !fields[i].seq &&
            PyDict_SetItemString(ns, fields[i].name, Py_None) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The namespace of one node class: _fields, __match_args__, __doc__,
   __module__, and _attributes on the class named after its ASDL type.
   _field_types comes later (ensure_classes). */
static PyObject *
class_namespace(const _PyAST_ClassDesc *c)
{
    const _PyAST_TypeDesc *t = &_PyAST_Types[c->type];
    int is_type_class = t->cls == (short)(c - _PyAST_Classes);
    PyObject *ns = PyDict_New();
    PyObject *fields = names_tuple(c->fields, c->nfields);
    PyObject *attrs = is_type_class ? names_tuple(t->attrs, t->nattrs) : NULL;
    PyObject *doc = PyUnicode_FromString(c->doc);
    PyObject *module = PyUnicode_FromString("ast");
    int err = ns == NULL || fields == NULL || doc == NULL || module == NULL ||
              (is_type_class && attrs == NULL);
    err = err || PyDict_SetItemString(ns, "_fields", fields) < 0 ||
          PyDict_SetItemString(ns, "__match_args__", fields) < 0 ||
          PyDict_SetItemString(ns, "__doc__", doc) < 0 ||
          PyDict_SetItemString(ns, "__module__", module) < 0 ||
          (attrs != NULL && PyDict_SetItemString(ns, "_attributes", attrs) < 0);
    Py_XDECREF(fields);
    Py_XDECREF(attrs);
    Py_XDECREF(doc);
    Py_XDECREF(module);
    if (err || optional_defaults(ns, c->fields, c->nfields) < 0 ||
        (is_type_class && optional_defaults(ns, t->attrs, t->nattrs) < 0)) {
        Py_XDECREF(ns);
        return NULL;
    }
    return ns;
}

static int
build_class(int i)
{
    const _PyAST_ClassDesc *c = &_PyAST_Classes[i];
    PyObject *base = c->base < 0 ? ast_class : node_classes[c->base];
    PyObject *ns = class_namespace(c);
    if (ns == NULL) {
        return -1;
    }
    PyObject *cls = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O)O", c->name, base, ns);
    Py_DECREF(ns);
    if (cls == NULL) {
        return -1;
    }
    node_classes[i] = cls;
    return 0;
}

/* Classes come in table order, bases first; a field's annotation may name
   a later type's class, so _field_types is filled in a second pass. */
static int
build_classes(void)
{
    int err = ast_class == NULL && make_ast_class() < 0;
    for (int pass = 0; !err && pass < 2; pass++) {
        for (int i = 0; !err && i < _PyAST_NCLASSES; i++) {
            if (pass == 0) {
                err = build_class(i) < 0;
                continue;
            }
            const _PyAST_TypeDesc *t = &_PyAST_Types[_PyAST_Classes[i].type];
            if (t->cls == i && t->first_ctor >= 0) {
                continue;    /* abstract: expr, stmt, ... */
            }
            PyObject *ft = field_types_dict(&_PyAST_Classes[i]);
            err = ft == NULL || PyObject_SetAttrString(node_classes[i], "_field_types", ft) < 0 ||
                  PyObject_SetAttrString(node_classes[i], "__annotations__", ft) < 0;
            Py_XDECREF(ft);
        }
    }
    if (err) {
        for (int i = 0; i < _PyAST_NCLASSES; i++) {
            Py_CLEAR(node_classes[i]);
        }
        return -1;
    }
    return 0;
}

/* The classes belong to the _ast module: importing it builds them, and
   freeing it (at finalization) lets them go. */
static int
ensure_classes(void)
{
    if (node_classes[0] != NULL) {
        return 0;
    }
    PyObject *m = PyImport_ImportModule("_ast");
    Py_XDECREF(m);
    return m == NULL ? -1 : 0;
}

static void
release_classes(void *unused)
{
    for (int i = 0; i < _PyAST_NCLASSES; i++) {
        Py_CLEAR(bare_instances[i]);
        Py_CLEAR(node_classes[i]);
    }
    Py_CLEAR(ast_class);
}

/* ---- C tree -> Python objects -------------------------------------------- */

static PyObject *node_to_object(short type, const void *node);

static PyObject *
bare_instance(int cls)
{
    if (bare_instances[cls] == NULL) {
        bare_instances[cls] = PyType_GenericNew((PyTypeObject *)node_classes[cls], NULL, NULL);
    }
    return Py_XNewRef(bare_instances[cls]);
}

static PyObject *
simple_to_object(short type, int value)
{
    const _PyAST_TypeDesc *t = &_PyAST_Types[type];
    if (value < 1 || value > t->nctors) {
        return PyErr_Format(PyExc_SystemError, "invalid %s value %d in the syntax tree",
                            t->name, value);
    }
    return bare_instance(t->first_ctor + value - 1);
}

static PyObject *
scalar_to_object(const _PyAST_FieldDesc *f, const char *slot)
{
    switch (f->kind) {
    case _PyAST_F_INT:
        return PyLong_FromLong(*(const int *)slot);
    case _PyAST_F_NODE:
        if (_PyAST_Types[f->type].simple) {
            return simple_to_object(f->type, *(const int *)slot);
        }
        return node_to_object(f->type, *(void *const *)slot);
    default: {
        PyObject *v = *(PyObject *const *)slot;
        return Py_NewRef(v != NULL ? v : Py_None);
    }
    }
}

static PyObject *
seq_to_object(const _PyAST_FieldDesc *f, const void *seqp)
{
    Py_ssize_t n = seqp == NULL ? 0 : ((const asdl_seq *)seqp)->size;
    int ints = f->kind == _PyAST_F_INT || (f->kind == _PyAST_F_NODE && _PyAST_Types[f->type].simple);
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        const char *slot = ints ? (const char *)&((const asdl_int_seq *)seqp)->typed_elements[i]
                                : (const char *)&((const asdl_generic_seq *)seqp)->typed_elements[i];
        PyObject *v = scalar_to_object(f, slot);
        if (v == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static int
set_fields_from_c(PyObject *obj, const _PyAST_FieldDesc *fields, Py_ssize_t n, const char *base)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        const _PyAST_FieldDesc *f = &fields[i];
        const char *slot = base + f->offset;
        PyObject *v = f->seq ? seq_to_object(f, *(void *const *)slot) : scalar_to_object(f, slot);
        if (v == NULL || PyObject_SetAttrString(obj, f->name, v) < 0) {
            Py_XDECREF(v);
            return -1;
        }
        Py_DECREF(v);
    }
    return 0;
}

static PyObject *
node_to_object(short type, const void *node)
{
    if (node == NULL) {
        Py_RETURN_NONE;
    }
    const _PyAST_TypeDesc *t = &_PyAST_Types[type];
    int cls = t->cls;
    if (t->first_ctor >= 0) {
        int kind = *(const int *)node;
        if (kind < 1 || kind > t->nctors) {
            return PyErr_Format(PyExc_SystemError, "invalid %s kind %d", t->name, kind);
        }
        cls = t->first_ctor + kind - 1;
    }
    if (Py_EnterRecursiveCall(" while converting a syntax tree")) {
        return NULL;
    }
    const _PyAST_ClassDesc *c = &_PyAST_Classes[cls];
    PyObject *obj = PyType_GenericNew((PyTypeObject *)node_classes[cls], NULL, NULL);
    if (obj != NULL && (set_fields_from_c(obj, c->fields, c->nfields, node) < 0 ||
                        set_fields_from_c(obj, t->attrs, t->nattrs, node) < 0)) {
        Py_CLEAR(obj);
    }
    Py_LeaveRecursiveCall();
    return obj;
}

PyObject *
PyAST_mod2obj(mod_ty mod)
{
    if (ensure_classes() < 0) {
        return NULL;
    }
    return node_to_object(0, mod);
}

/* ---- Python objects -> C tree ------------------------------------------ */

static int object_to_node(PyObject *obj, short type, void *out, PyArena *arena);

static int
keep_in_arena(PyObject *v, PyArena *arena)
{
    if (_PyArena_AddPyObject(arena, Py_NewRef(v)) < 0) {
        Py_DECREF(v);
        return -1;
    }
    return 0;
}

/* Constant.value: the immutable values the compiler can store. */
static int
valid_constant(PyObject *v)
{
    if (v == Py_None || v == Py_Ellipsis || PyLong_CheckExact(v) || PyFloat_CheckExact(v) ||
        PyComplex_CheckExact(v) || PyBool_Check(v) || PyUnicode_CheckExact(v) ||
        PyBytes_CheckExact(v)) {
        return 1;
    }
    if (PyTuple_CheckExact(v) || PyFrozenSet_CheckExact(v)) {
        PyObject *it = PyObject_GetIter(v), *item;
        int ok = it != NULL;
        while (ok && (item = PyIter_Next(it)) != NULL) {
            ok = valid_constant(item);
            Py_DECREF(item);
        }
        Py_XDECREF(it);
        return ok && !PyErr_Occurred();
    }
    return 0;
}

static int
object_to_scalar(PyObject *v, const _PyAST_FieldDesc *f, char *slot, PyArena *arena)
{
    switch (f->kind) {
    case _PyAST_F_INT: {
        if (!PyLong_Check(v)) {
            PyErr_Format(PyExc_ValueError, "invalid integer value: %R", v);
            return -1;
        }
        int overflow;
        long x = PyLong_AsLongAndOverflow(v, &overflow);
        if (overflow || x > INT_MAX || x < INT_MIN) {
            PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C int");
            return -1;
        }
        *(int *)slot = (int)x;
        return 0;
    }
    case _PyAST_F_NODE:
        return object_to_node(v, f->type, slot, arena);
    case _PyAST_F_CONSTANT:
        if (!valid_constant(v)) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "got an invalid type in Constant: %s",
                             Py_TYPE(v)->tp_name);
            }
            return -1;
        }
        break;
    default:
        if (!PyUnicode_CheckExact(v)) {
            PyErr_Format(PyExc_TypeError, "AST %s must be of type str",
                         f->kind == _PyAST_F_IDENTIFIER ? "identifier" : "string");
            return -1;
        }
        break;
    }
    if (keep_in_arena(v, arena) < 0) {
        return -1;
    }
    *(PyObject **)slot = v;
    return 0;
}

static int
object_to_seq(PyObject *v, const _PyAST_FieldDesc *f, const char *owner, void **slot,
              PyArena *arena)
{
    if (!PyList_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s field \"%s\" must be a list, not a %.200s", owner,
                     f->name, Py_TYPE(v)->tp_name);
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(v);
    int ints = f->kind == _PyAST_F_INT || (f->kind == _PyAST_F_NODE && _PyAST_Types[f->type].simple);
    void *seq = ints ? (void *)_Py_asdl_int_seq_new(n, arena)
                     : (void *)_Py_asdl_generic_seq_new(n, arena);
    if (seq == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyList_GET_SIZE(v) != n) {
            PyErr_Format(PyExc_RuntimeError, "%s field \"%s\" changed size during iteration",
                         owner, f->name);
            return -1;
        }
        char *elem = ints ? (char *)&((asdl_int_seq *)seq)->typed_elements[i]
                          : (char *)&((asdl_generic_seq *)seq)->typed_elements[i];
        PyObject *item = Py_NewRef(PyList_GET_ITEM(v, i));
        /* Dict.keys holds None for a `**mapping` entry. */
        int err = item == Py_None && !ints ? 0 : object_to_scalar(item, f, elem, arena);
        Py_DECREF(item);
        if (err < 0) {
            return -1;
        }
    }
    *slot = seq;
    return 0;
}

/* Fill the struct at base from obj's attributes.  owner names the node in
   messages; for position attributes missing end_* copy the start. */
static int
fields_from_object(PyObject *obj, const _PyAST_FieldDesc *fields, Py_ssize_t n,
                   const char *owner, char *base, PyArena *arena)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        const _PyAST_FieldDesc *f = &fields[i];
        PyObject *v;
        if (PyObject_GetOptionalAttrString(obj, f->name, &v) < 0) {
            return -1;
        }
        char *slot = base + f->offset;
        int err = 0;
        /* None is a missing optional value, except where it is the
           constant itself (Constant(value=None)). */
        if (v == NULL || (v == Py_None && !f->seq && f->kind != _PyAST_F_CONSTANT)) {
            if (!f->opt) {
                PyErr_Format(PyExc_TypeError, "required field \"%s\" missing from %s", f->name,
                             owner);
                err = -1;
            }
            else if (f->kind == _PyAST_F_INT && i >= 2 && strncmp(f->name, "end_", 4) == 0) {
                *(int *)slot = *(int *)(base + fields[i - 2].offset);
            }
        }
        else if (f->seq) {
            err = object_to_seq(v, f, owner, (void **)slot, arena);
        }
        else {
            err = object_to_scalar(v, f, slot, arena);
        }
        Py_XDECREF(v);
        if (err < 0) {
            return -1;
        }
    }
    return 0;
}

/* Which constructor class of a sum type obj is an instance of, or -1. */
static int
constructor_of(PyObject *obj, const _PyAST_TypeDesc *t)
{
    for (int k = 0; k < t->nctors; k++) {
        int r = PyObject_IsInstance(obj, node_classes[t->first_ctor + k]);
        if (r != 0) {
            return r < 0 ? -2 : k;
        }
    }
    return -1;
}

static int
object_to_node(PyObject *obj, short type, void *out, PyArena *arena)
{
    const _PyAST_TypeDesc *t = &_PyAST_Types[type];
    char *node = NULL;
    if (!t->simple) {
        node = _PyArena_Malloc(arena, t->size);
        if (node == NULL) {
            return -1;
        }
        memset(node, 0, t->size);
        /* Positions are read first, so a stray object reports a missing lineno. */
        if (fields_from_object(obj, t->attrs, t->nattrs, t->name, node, arena) < 0) {
            return -1;
        }
    }
    int k = 0;
    if (t->first_ctor >= 0) {
        k = constructor_of(obj, t);
    }
    else {
        int r = PyObject_IsInstance(obj, node_classes[t->cls]);
        k = r > 0 ? 0 : r < 0 ? -2 : -1;
    }
    if (k == -2) {
        return -1;
    }
    if (k == -1) {
        PyErr_Format(PyExc_TypeError, "expected some sort of %s, but got %R", t->name, obj);
        return -1;
    }
    if (t->simple) {
        *(int *)out = k + 1;
        return 0;
    }
    int cls = t->first_ctor >= 0 ? t->first_ctor + k : t->cls;
    const _PyAST_ClassDesc *c = &_PyAST_Classes[cls];
    if (t->first_ctor >= 0) {
        *(int *)node = k + 1;
    }
    if (Py_EnterRecursiveCall(" during compilation")) {
        return -1;
    }
    int err = fields_from_object(obj, c->fields, c->nfields, c->name, node, arena);
    Py_LeaveRecursiveCall();
    if (err < 0) {
        return -1;
    }
    *(void **)out = node;
    return 0;
}

/* ---- validation of converted trees ----------------------------------------

   A tree built by hand can be shaped in ways the parser never produces; the
   compiler assumes parser-shaped trees, so compile() checks these rules
   first.  The walk is generic over the tables; the rules are data where
   they can be. */

static const char *const ctx_names[] = {"?", "Load", "Store", "Del"};

/* Fields that are assignment (or deletion) targets. */
static const struct {
    const char *cls, *field;
    int ctx;
} target_fields[] = {
    {"Assign", "targets", Store}, {"AugAssign", "target", Store},
    {"AnnAssign", "target", Store}, {"For", "target", Store}, {"AsyncFor", "target", Store},
    {"withitem", "optional_vars", Store}, {"comprehension", "target", Store},
    {"NamedExpr", "target", Store}, {"TypeAlias", "name", Store}, {"Delete", "targets", Del},
};

/* Sequences that may not be empty. */
static const struct {
    const char *cls, *field;
} nonempty_fields[] = {
    {"FunctionDef", "body"}, {"AsyncFunctionDef", "body"}, {"ClassDef", "body"},
    {"For", "body"}, {"AsyncFor", "body"}, {"While", "body"}, {"If", "body"},
    {"With", "body"}, {"AsyncWith", "body"}, {"With", "items"}, {"AsyncWith", "items"},
    {"Try", "body"}, {"TryStar", "body"}, {"ExceptHandler", "body"}, {"match_case", "body"},
    {"Match", "cases"}, {"Import", "names"}, {"ImportFrom", "names"}, {"Global", "names"},
    {"Nonlocal", "names"}, {"Delete", "targets"}, {"Assign", "targets"},
    {"BoolOp", "values"}, {"ListComp", "generators"}, {"SetComp", "generators"},
    {"DictComp", "generators"}, {"GeneratorExp", "generators"},
};

static int
invalid(const char *msg, const char *a, const char *b)
{
    PyErr_Format(PyExc_ValueError, msg, a, b);
    return -1;
}

static int
target_ctx(const char *cls, const char *field)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(target_fields); i++) {
        if (strcmp(target_fields[i].cls, cls) == 0 && strcmp(target_fields[i].field, field) == 0) {
            return target_fields[i].ctx;
        }
    }
    return Load;
}

static int
check_nonempty(const char *cls, const _PyAST_FieldDesc *f, const asdl_seq *seq)
{
    if (seq != NULL && seq->size > 0) {
        return 0;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(nonempty_fields); i++) {
        if (strcmp(nonempty_fields[i].cls, cls) == 0 && strcmp(nonempty_fields[i].field, f->name) == 0) {
            if (strcmp(cls, "BoolOp") == 0) {
                return invalid("BoolOp with less than 2 values%s%s", "", "");
            }
            if (strcmp(f->name, "generators") == 0) {
                return invalid("comprehension with no generators%s%s", "", "");
            }
            return invalid("empty %s on %s", f->name, cls);
        }
    }
    return 0;
}

static Py_ssize_t
seq_len(const void *seq)
{
    return seq == NULL ? 0 : ((const asdl_seq *)seq)->size;
}

/* The rules that relate two fields of one node. */
static int
check_node_shape(const void *node, short type)
{
    if (type == _PyAST_TYPE_expr) {
        expr_ty e = (expr_ty)node;
        switch (e->kind) {
        case BoolOp_kind:
            return seq_len(e->v.BoolOp.values) < 2
                       ? invalid("BoolOp with less than 2 values%s%s", "", "") : 0;
        case Compare_kind:
            if (seq_len(e->v.Compare.comparators) == 0) {
                return invalid("Compare with no comparators%s%s", "", "");
            }
            return seq_len(e->v.Compare.comparators) != seq_len(e->v.Compare.ops)
                ? invalid("Compare has a different number of comparators and operands%s%s", "", "")
                : 0;
        case Dict_kind:
            return seq_len(e->v.Dict.keys) != seq_len(e->v.Dict.values)
                ? invalid("Dict doesn't have the same number of keys as values%s%s", "", "") : 0;
        case Name_kind: {
            PyObject *id = e->v.Name.id;
            const char *bad[] = {"None", "True", "False"};
            for (int i = 0; i < 3; i++) {
                if (PyUnicode_EqualToUTF8(id, bad[i])) {
                    return invalid("identifier field can't represent '%s' constant%s", bad[i], "");
                }
            }
            return 0;
        }
        default:
            return 0;
        }
    }
    if (type == _PyAST_TYPE_stmt) {
        stmt_ty s = (stmt_ty)node;
        if (s->kind == Try_kind || s->kind == TryStar_kind) {
            const char *name = s->kind == Try_kind ? "Try" : "TryStar";
            Py_ssize_t handlers = seq_len(s->v.Try.handlers);
            if (handlers == 0 && seq_len(s->v.Try.finalbody) == 0) {
                return invalid("%s has neither except handlers nor finalbody%s", name, "");
            }
            if (handlers == 0 && seq_len(s->v.Try.orelse) != 0) {
                return invalid("%s has orelse but no except handlers%s", name, "");
            }
        }
        if (s->kind == Raise_kind && s->v.Raise.exc == NULL && s->v.Raise.cause != NULL) {
            return invalid("Raise with cause but no exception%s%s", "", "");
        }
        return 0;
    }
    if (type == _PyAST_TYPE_arguments) {
        arguments_ty a = (arguments_ty)node;
        if (seq_len(a->defaults) > seq_len(a->posonlyargs) + seq_len(a->args)) {
            return invalid("more positional defaults than args on arguments%s%s", "", "");
        }
        if (seq_len(a->kw_defaults) != seq_len(a->kwonlyargs)) {
            return invalid("length of kwonlyargs is not the same as kw_defaults on arguments%s%s",
                           "", "");
        }
    }
    return 0;
}

static int check_tree(const void *node, short type, int ctx);

/* The context an expression node carries, or 0 when it has none. */
static int
own_ctx(const void *node, const _PyAST_ClassDesc *c)
{
    for (Py_ssize_t i = 0; i < c->nfields; i++) {
        if (c->fields[i].kind == _PyAST_F_NODE && c->fields[i].type == _PyAST_TYPE_expr_context) {
            return *(const int *)((const char *)node + c->fields[i].offset);
        }
    }
    return 0;
}

static int
check_children(const void *node, const _PyAST_ClassDesc *c, int ctx_here)
{
    for (Py_ssize_t i = 0; i < c->nfields; i++) {
        const _PyAST_FieldDesc *f = &c->fields[i];
        const char *slot = (const char *)node + f->offset;
        if (f->seq && check_nonempty(c->name, f, *(const asdl_seq *const *)slot) < 0) {
            return -1;
        }
        if (f->kind != _PyAST_F_NODE || _PyAST_Types[f->type].simple) {
            continue;
        }
        /* List/Tuple elements and a Starred value share the node's context. */
        int inherit = ctx_here && (strcmp(f->name, "elts") == 0 ||
                                   (strcmp(c->name, "Starred") == 0 && strcmp(f->name, "value") == 0));
        int ctx = f->type != _PyAST_TYPE_expr ? 0 : inherit ? ctx_here : target_ctx(c->name, f->name);
        if (!f->seq) {
            if (check_tree(*(void *const *)slot, f->type, ctx) < 0) {
                return -1;
            }
            continue;
        }
        const asdl_generic_seq *seq = *(const asdl_generic_seq *const *)slot;
        for (Py_ssize_t k = 0; k < seq_len(seq); k++) {
            if (check_tree(seq->typed_elements[k], f->type, ctx) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* ctx: the context an expression in this position must have (0: not an
   expression position). */
static int
check_tree(const void *node, short type, int ctx)
{
    if (node == NULL) {
        return 0;
    }
    const _PyAST_TypeDesc *t = &_PyAST_Types[type];
    int cls = t->first_ctor >= 0 ? t->first_ctor + *(const int *)node - 1 : t->cls;
    const _PyAST_ClassDesc *c = &_PyAST_Classes[cls];
    int have = type == _PyAST_TYPE_expr ? own_ctx(node, c) : 0;
    if (ctx != 0 && have == 0 && ctx != Load) {
        return invalid("expression which can't be assigned to in %s context%s", ctx_names[ctx], "");
    }
    if (ctx != 0 && have != 0 && have != ctx) {
        return invalid("expression must have %s context but has %s instead", ctx_names[ctx],
                       ctx_names[have]);
    }
    if (Py_EnterRecursiveCall(" during compilation")) {
        return -1;
    }
    int err = check_children(node, c, have) < 0 || check_node_shape(node, type) < 0 ? -1 : 0;
    Py_LeaveRecursiveCall();
    return err;
}

/* Before the classes exist no object can be a node, so compile() of a
   string does not build them. */
int
PyAST_Check(PyObject *obj)
{
    if (node_classes[0] == NULL) {
        return 0;
    }
    return PyObject_IsInstance(obj, ast_class);
}

/* mode: 0 exec (Module), 1 eval (Expression), 2 single (Interactive),
   3 func_type (FunctionType). */
mod_ty
PyAST_obj2mod(PyObject *obj, PyArena *arena, int mode)
{
    static const char *const wanted[] = {"Module", "Expression", "Interactive", "FunctionType"};
    static const int kinds[] = {Module_kind, Expression_kind, Interactive_kind,
                                FunctionType_kind};
    if (ensure_classes() < 0) {
        return NULL;
    }
    if (mode < 0 || mode > 3) {
        PyErr_SetString(PyExc_ValueError, "invalid compile mode for a syntax tree");
        return NULL;
    }
    int r = PyObject_IsInstance(obj, node_classes[_PyAST_Types[0].first_ctor + kinds[mode] - 1]);
    if (r <= 0) {
        if (r == 0) {
            PyErr_Format(PyExc_TypeError, "expected %s node, got %.200s", wanted[mode],
                         _PyType_Name(Py_TYPE(obj)));
        }
        return NULL;
    }
    mod_ty mod = NULL;
    if (object_to_node(obj, 0, &mod, arena) < 0 || check_tree(mod, 0, 0) < 0) {
        return NULL;
    }
    return mod;
}

/* ---- the module ------------------------------------------------------------ */

static struct PyModuleDef astmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_ast",
    .m_doc = "The classes of Python's abstract syntax tree.",
    .m_size = -1,
    .m_free = release_classes,
};

static int
add_flags(PyObject *m)
{
    static const struct {
        const char *name;
        int value;
    } flags[] = {
        {"PyCF_ONLY_AST", PyCF_ONLY_AST},
        {"PyCF_TYPE_COMMENTS", PyCF_TYPE_COMMENTS},
        {"PyCF_ALLOW_TOP_LEVEL_AWAIT", PyCF_ALLOW_TOP_LEVEL_AWAIT},
        {"PyCF_OPTIMIZED_AST", PyCF_OPTIMIZED_AST},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(flags); i++) {
        if (PyModule_AddIntConstant(m, flags[i].name, flags[i].value) < 0) {
            return -1;
        }
    }
    return 0;
}

PyObject *
PyInit__ast(void)
{
    if (node_classes[0] == NULL && build_classes() < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&astmodule);
    if (m == NULL) {
        return NULL;
    }
    int err = PyModule_AddObjectRef(m, "AST", ast_class) < 0 || add_flags(m) < 0;
    for (int i = 0; !err && i < _PyAST_NCLASSES; i++) {
        err = PyModule_AddObjectRef(m, _PyAST_Classes[i].name, node_classes[i]) < 0;
    }
    if (err) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
