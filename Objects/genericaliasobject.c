/* types.GenericAlias: the object `list[int]` evaluates to.

   An alias remembers its origin class and its argument tuple.  It forwards
   most attribute reads to the origin (so list[int].__name__ is 'list'),
   calls the origin when called, and can be subscripted again when its
   arguments mention type parameters (list[T][int] is list[int]).  The
   helpers for reprs, parameter collection and substitution are shared with
   the union type (Objects/unionobject.c). */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_typing.h"

typedef struct {
    PyObject_HEAD
    PyObject *origin;
    PyObject *args;       /* always a tuple */
    PyObject *params;     /* the parameters, computed on first use */
    PyObject *weakrefs;
    char starred;         /* made by *alias, shown as *tuple[int] */
} aliasobject;

#define ALIAS(op) ((aliasobject *)(op))

/* ---- helpers shared with the union type ------------------------------- */

/* "module.qualname" for a class-like object, the plain qualname for
   builtins; None shows as "None" and Ellipsis as "...". */
static PyObject *
repr_classlike(PyObject *obj)
{
    PyObject *qualname = NULL, *module = NULL, *result = NULL;
    if (PyObject_GetOptionalAttrString(obj, "__qualname__", &qualname) < 0) {
        return NULL;
    }
    if (qualname == NULL) {
        return PyObject_Repr(obj);
    }
    if (PyObject_GetOptionalAttrString(obj, "__module__", &module) < 0) {
        goto done;
    }
    if (module == NULL || module == Py_None) {
        result = PyObject_Repr(obj);
    }
    else if (PyUnicode_Check(module) && _PyUnicode_EqualToASCIIString(module, "builtins")) {
        result = PyObject_Str(qualname);
    }
    else {
        result = PyUnicode_FromFormat("%S.%S", module, qualname);
    }
done:
    Py_XDECREF(qualname);
    Py_XDECREF(module);
    return result;
}

static PyObject *repr_arg_list(PyObject *seq);

PyObject *
_PyTyping_ArgRepr(PyObject *obj)
{
    if (obj == Py_Ellipsis) {
        return PyUnicode_FromString("...");
    }
    if (PyList_Check(obj)) {
        PyObject *inner = repr_arg_list(obj);
        if (inner == NULL) {
            return NULL;
        }
        PyObject *r = PyUnicode_FromFormat("[%U]", inner);
        Py_DECREF(inner);
        return r;
    }
    /* Aliases and parameters have their own repr; only classes get the
       module-qualified spelling. */
    int has_origin = PyObject_HasAttrStringWithError(obj, "__origin__");
    if (has_origin < 0) {
        return NULL;
    }
    if (has_origin && PyObject_HasAttrStringWithError(obj, "__args__") > 0) {
        return PyObject_Repr(obj);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    return repr_classlike(obj);
}

/* The items of a tuple or list, each through _PyTyping_ArgRepr, joined by ", ". */
static PyObject *
repr_arg_list(PyObject *seq)
{
    PyObject *fast = PySequence_Tuple(seq);
    if (fast == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(fast);
    PyObject *parts = PyList_New(0);
    PyObject *result = NULL;
    if (parts == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = _PyTyping_ArgRepr(PyTuple_GET_ITEM(fast, i));
        if (s == NULL || PyList_Append(parts, s) < 0) {
            Py_XDECREF(s);
            goto done;
        }
        Py_DECREF(s);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    if (sep != NULL) {
        result = PyUnicode_Join(sep, parts);
        Py_DECREF(sep);
    }
done:
    Py_DECREF(fast);
    Py_XDECREF(parts);
    return result;
}

/* Append obj to the list unless it is there already (by identity or ==). */
static int
append_unique(PyObject *list, PyObject *obj)
{
    int found = PySequence_Contains(list, obj);
    if (found < 0) {
        return -1;
    }
    return found ? 0 : PyList_Append(list, obj);
}

static int
collect_one(PyObject *found, PyObject *arg)
{
    if (PyType_Check(arg)) {
        return 0;
    }
    int is_param = PyObject_HasAttrStringWithError(arg, "__typing_subst__");
    if (is_param != 0) {
        return is_param < 0 ? -1 : append_unique(found, arg);
    }
    PyObject *sub;
    if (PyObject_GetOptionalAttrString(arg, "__parameters__", &sub) < 0) {
        return -1;
    }
    int err = 0;
    if (sub != NULL && PyTuple_Check(sub)) {
        for (Py_ssize_t i = 0; err == 0 && i < PyTuple_GET_SIZE(sub); i++) {
            err = append_unique(found, PyTuple_GET_ITEM(sub, i));
        }
    }
    Py_XDECREF(sub);
    return err;
}

PyObject *
_PyTyping_CollectParameters(PyObject *args)
{
    PyObject *found = PyList_New(0);
    if (found == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        if (collect_one(found, PyTuple_GET_ITEM(args, i)) < 0) {
            Py_DECREF(found);
            return NULL;
        }
    }
    PyObject *result = PyList_AsTuple(found);
    Py_DECREF(found);
    return result;
}

/* Position of param in params by identity, or -1. */
static Py_ssize_t
param_index(PyObject *params, PyObject *param)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(params); i++) {
        if (PyTuple_GET_ITEM(params, i) == param) {
            return i;
        }
    }
    return -1;
}

static int
is_typevartuple(PyObject *obj)
{
    return PyObject_TypeCheck(obj, &_PyTypeVarTuple_Type);
}

/* True when obj is *Ts (an unpacked TypeVarTuple). */
static int
is_unpacked_typevartuple(PyObject *obj)
{
    if (PyType_Check(obj)) {
        return 0;
    }
    PyObject *flag;
    if (PyObject_GetOptionalAttrString(obj, "__typing_is_unpacked_typevartuple__", &flag) < 0) {
        return -1;
    }
    int r = flag == Py_True;
    Py_XDECREF(flag);
    return r;
}

/* Add value to list; when splice is set value is a tuple whose items go in. */
static int
add_args(PyObject *list, PyObject *value, int splice)
{
    if (!splice || !PyTuple_Check(value)) {
        return PyList_Append(list, value);
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); i++) {
        if (PyList_Append(list, PyTuple_GET_ITEM(value, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

/* arg[...] with arg's own parameters replaced, for a nested alias such as
   the list[T] inside dict[str, list[T]]. */
static PyObject *
substitute_nested(PyObject *arg, PyObject *params, PyObject *items)
{
    PyObject *sub;
    if (PyObject_GetOptionalAttrString(arg, "__parameters__", &sub) < 0) {
        return NULL;
    }
    if (sub == NULL || !PyTuple_Check(sub) || PyTuple_GET_SIZE(sub) == 0) {
        Py_XDECREF(sub);
        return Py_NewRef(arg);
    }
    PyObject *subargs = PyList_New(0);
    PyObject *result = NULL;
    if (subargs == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(sub); i++) {
        PyObject *p = PyTuple_GET_ITEM(sub, i);
        Py_ssize_t k = param_index(params, p);
        PyObject *value = k < 0 ? p : PyTuple_GET_ITEM(items, k);
        if (add_args(subargs, value, k >= 0 && is_typevartuple(p)) < 0) {
            goto done;
        }
    }
    PyObject *key = PyList_AsTuple(subargs);
    if (key != NULL) {
        result = PyObject_GetItem(arg, key);
        Py_DECREF(key);
    }
done:
    Py_DECREF(sub);
    Py_XDECREF(subargs);
    return result;
}

static PyObject *substitute_one(PyObject *arg, PyObject *params, PyObject *items);

/* A list argument (Callable's parameter list) is substituted item by item. */
static PyObject *
substitute_list(PyObject *arg, PyObject *params, PyObject *items)
{
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(arg); i++) {
        PyObject *v = substitute_one(PyList_GET_ITEM(arg, i), params, items);
        if (v == NULL || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

static PyObject *
substitute_one(PyObject *arg, PyObject *params, PyObject *items)
{
    if (PyType_Check(arg)) {
        return Py_NewRef(arg);
    }
    if (PyList_Check(arg)) {
        return substitute_list(arg, params, items);
    }
    PyObject *subst;
    if (PyObject_GetOptionalAttrString(arg, "__typing_subst__", &subst) < 0) {
        return NULL;
    }
    if (subst == NULL) {
        return substitute_nested(arg, params, items);
    }
    Py_ssize_t k = param_index(params, arg);
    PyObject *r = k < 0 ? Py_NewRef(arg) : PyObject_CallOneArg(subst, PyTuple_GET_ITEM(items, k));
    Py_DECREF(subst);
    return r;
}

/* Let parameters with __typing_prepare_subst__ (defaults, TypeVarTuple's
   gathering of many items into one) reshape the item tuple. */
static PyObject *
prepare_items(PyObject *self, PyObject *params, PyObject *items)
{
    Py_INCREF(items);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(params); i++) {
        PyObject *prepare;
        if (PyObject_GetOptionalAttrString(PyTuple_GET_ITEM(params, i),
                                           "__typing_prepare_subst__", &prepare) < 0) {
            Py_DECREF(items);
            return NULL;
        }
        if (prepare == NULL) {
            continue;
        }
        PyObject *next = PyObject_CallFunctionObjArgs(prepare, self, items, NULL);
        Py_DECREF(prepare);
        Py_DECREF(items);
        if (next == NULL) {
            return NULL;
        }
        if (!PyTuple_Check(next)) {
            PyErr_SetString(PyExc_TypeError, "__typing_prepare_subst__ must return a tuple");
            Py_DECREF(next);
            return NULL;
        }
        items = next;
    }
    return items;
}

/* After substitution an argument *tuple[int, str] stands for its items. */
static int
add_substituted(PyObject *list, PyObject *value, int unpack)
{
    if (!PyType_Check(value)) {
        PyObject *inner;
        if (PyObject_GetOptionalAttrString(value, "__typing_unpacked_tuple_args__", &inner) < 0) {
            return -1;
        }
        if (inner != NULL && PyTuple_Check(inner)) {
            int err = add_args(list, inner, 1);
            Py_DECREF(inner);
            return err;
        }
        Py_XDECREF(inner);
    }
    return add_args(list, value, unpack);
}

PyObject *
_PyTyping_SubstituteArgs(PyObject *self, PyObject *args, PyObject *params, PyObject *item)
{
    Py_ssize_t nparams = PyTuple_GET_SIZE(params);
    if (nparams == 0) {
        PyErr_Format(PyExc_TypeError, "%R is not a generic class", self);
        return NULL;
    }
    PyObject *given = PyTuple_Check(item) ? Py_NewRef(item) : PyTuple_Pack(1, item);
    if (given == NULL) {
        return NULL;
    }
    PyObject *items = prepare_items(self, params, given);
    Py_DECREF(given);
    if (items == NULL) {
        return NULL;
    }
    Py_ssize_t nitems = PyTuple_GET_SIZE(items);
    if (nitems != nparams) {
        PyErr_Format(PyExc_TypeError, "Too %s arguments for %R; actual %zd, expected %zd",
                     nitems > nparams ? "many" : "few", self, nitems, nparams);
        Py_DECREF(items);
        return NULL;
    }
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out != NULL && i < PyTuple_GET_SIZE(args); i++) {
        PyObject *arg = PyTuple_GET_ITEM(args, i);
        int unpack = is_unpacked_typevartuple(arg);
        PyObject *v = unpack < 0 ? NULL : substitute_one(arg, params, items);
        if (v == NULL || add_substituted(out, v, unpack) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(v);
    }
    Py_DECREF(items);
    if (out == NULL) {
        return NULL;
    }
    PyObject *result = PyList_AsTuple(out);
    Py_DECREF(out);
    return result;
}

/* ---- the alias object ---------------------------------------------------- */

static PyObject *
alias_make(PyTypeObject *type, PyObject *origin, PyObject *args, int starred)
{
    PyObject *tuple = PyTuple_Check(args) ? Py_NewRef(args) : PyTuple_Pack(1, args);
    if (tuple == NULL) {
        return NULL;
    }
    aliasobject *a = (aliasobject *)type->tp_alloc(type, 0);
    if (a == NULL) {
        Py_DECREF(tuple);
        return NULL;
    }
    a->origin = Py_NewRef(origin);
    a->args = tuple;
    a->starred = (char)starred;
    return (PyObject *)a;
}

PyObject *
Py_GenericAlias(PyObject *origin, PyObject *args)
{
    return alias_make(&Py_GenericAliasType, origin, args, 0);
}

/* GenericAlias(origin, args), positional only. */
static PyObject *
alias_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t given = PyTuple_GET_SIZE(args);
    int keywords = kwds != NULL && PyDict_GET_SIZE(kwds) > 0;
    if (given == 2 && !keywords) {
        return alias_make(type, PyTuple_GET_ITEM(args, 0), PyTuple_GET_ITEM(args, 1), 0);
    }
    return PyErr_Format(PyExc_TypeError, keywords ? "GenericAlias() takes no keyword arguments"
                                                  : "GenericAlias expected 2 arguments, got %zd",
                        given);
}

static int
alias_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(ALIAS(op)->origin);
    Py_VISIT(ALIAS(op)->args);
    Py_VISIT(ALIAS(op)->params);
    return 0;
}

static int
alias_clear(PyObject *op)
{
    Py_CLEAR(ALIAS(op)->origin);
    Py_CLEAR(ALIAS(op)->args);
    Py_CLEAR(ALIAS(op)->params);
    return 0;
}

static void
alias_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    if (ALIAS(op)->weakrefs != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    alias_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static PyObject *
alias_repr(PyObject *op)
{
    aliasobject *a = ALIAS(op);
    PyObject *head = _PyTyping_ArgRepr(a->origin);
    if (head == NULL) {
        return NULL;
    }
    PyObject *inner = PyTuple_GET_SIZE(a->args) == 0 ? PyUnicode_FromString("()")
                                                      : repr_arg_list(a->args);
    PyObject *r = NULL;
    if (inner != NULL) {
        r = PyUnicode_FromFormat("%s%U[%U]", a->starred ? "*" : "", head, inner);
        Py_DECREF(inner);
    }
    Py_DECREF(head);
    return r;
}

static Py_hash_t
alias_hash(PyObject *op)
{
    Py_hash_t h1 = PyObject_Hash(ALIAS(op)->origin);
    if (h1 == -1) {
        return -1;
    }
    Py_hash_t h2 = PyObject_Hash(ALIAS(op)->args);
    if (h2 == -1) {
        return -1;
    }
    Py_hash_t h = h1 ^ h2;
    return h == -1 ? -2 : h;
}

static PyObject *
alias_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &Py_GenericAliasType)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = ALIAS(a)->starred == ALIAS(b)->starred;
    if (same) {
        same = PyObject_RichCompareBool(ALIAS(a)->origin, ALIAS(b)->origin, Py_EQ);
    }
    if (same > 0) {
        same = PyObject_RichCompareBool(ALIAS(a)->args, ALIAS(b)->args, Py_EQ);
    }
    if (same < 0) {
        return NULL;
    }
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

/* Calling the alias makes an origin instance and tags it with the alias;
   objects that refuse new attributes are returned untagged. */
static PyObject *
alias_call(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *obj = PyObject_Call(ALIAS(op)->origin, args, kwds);
    if (obj == NULL) {
        return NULL;
    }
    if (PyObject_SetAttrString(obj, "__orig_class__", op) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError) &&
            !PyErr_ExceptionMatches(PyExc_TypeError)) {
            Py_DECREF(obj);
            return NULL;
        }
        PyErr_Clear();
    }
    return obj;
}

/* Names the alias answers itself; every other attribute comes from the origin. */
static const char *const own_attributes[] = {
    "__origin__", "__args__", "__parameters__", "__unpacked__",
    "__typing_unpacked_tuple_args__", "__class__", "__bases__",
    "__mro_entries__", "__reduce__", "__reduce_ex__", "__copy__", "__deepcopy__",
    NULL,
};

static PyObject *
alias_getattro(PyObject *op, PyObject *name)
{
    if (PyUnicode_Check(name)) {
        int own = 0;
        for (const char *const *p = own_attributes; *p != NULL && !own; p++) {
            own = _PyUnicode_EqualToASCIIString(name, *p);
        }
        if (!own) {
            return PyObject_GetAttr(ALIAS(op)->origin, name);
        }
    }
    return PyObject_GenericGetAttr(op, name);
}

/* dir(): the origin's names plus the ones the alias answers itself. */
static PyObject *
alias_dir(PyObject *op, PyObject *unused)
{
    PyObject *names = PyObject_Dir(ALIAS(op)->origin);
    PyObject *set = names ? PySet_New(names) : NULL;
    Py_XDECREF(names);
    if (set == NULL) {
        return NULL;
    }
    for (const char *const *p = own_attributes; *p != NULL; p++) {
        PyObject *s = PyUnicode_FromString(*p);
        if (s == NULL || PySet_Add(set, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(set);
            return NULL;
        }
        Py_DECREF(s);
    }
    PyObject *list = PySequence_List(set);
    Py_DECREF(set);
    if (list != NULL && PyList_Sort(list) < 0) {
        Py_CLEAR(list);
    }
    return list;
}

static PyObject *
alias_get_parameters(PyObject *op, void *closure)
{
    aliasobject *a = ALIAS(op);
    if (a->params == NULL) {
        a->params = _PyTyping_CollectParameters(a->args);
        if (a->params == NULL) {
            return NULL;
        }
    }
    return Py_NewRef(a->params);
}

static PyObject *
alias_get_unpacked_args(PyObject *op, void *closure)
{
    aliasobject *a = ALIAS(op);
    if (a->starred && a->origin == (PyObject *)&PyTuple_Type) {
        return Py_NewRef(a->args);
    }
    Py_RETURN_NONE;
}

static PyObject *
alias_subscript(PyObject *op, PyObject *item)
{
    aliasobject *a = ALIAS(op);
    PyObject *params = alias_get_parameters(op, NULL);
    if (params == NULL) {
        return NULL;
    }
    PyObject *newargs = _PyTyping_SubstituteArgs(op, a->args, params, item);
    Py_DECREF(params);
    if (newargs == NULL) {
        return NULL;
    }
    /* Always a plain GenericAlias: a subclass's __new__ may want other
       arguments (collections.abc.Callable's does). */
    PyObject *r = alias_make(&Py_GenericAliasType, a->origin, newargs, a->starred);
    Py_DECREF(newargs);
    return r;
}

static PyObject *
alias_mro_entries(PyObject *op, PyObject *bases)
{
    return PyTuple_Pack(1, ALIAS(op)->origin);
}

static PyObject *
alias_instancecheck(PyObject *op, PyObject *obj)
{
    PyErr_SetString(PyExc_TypeError, "isinstance() argument 2 cannot be a parameterized generic");
    return NULL;
}

static PyObject *
alias_subclasscheck(PyObject *op, PyObject *obj)
{
    PyErr_SetString(PyExc_TypeError, "issubclass() argument 2 cannot be a parameterized generic");
    return NULL;
}

static PyObject *
alias_iter(PyObject *op);

/* A starred alias pickles as next(iter(plain alias)). */
static PyObject *
alias_reduce(PyObject *op, PyObject *unused)
{
    aliasobject *a = ALIAS(op);
    if (!a->starred) {
        return Py_BuildValue("O(OO)", (PyObject *)Py_TYPE(op), a->origin, a->args);
    }
    PyObject *plain = alias_make(Py_TYPE(op), a->origin, a->args, 0);
    if (plain == NULL) {
        return NULL;
    }
    PyObject *it = alias_iter(plain);
    Py_DECREF(plain);
    if (it == NULL) {
        return NULL;
    }
    PyObject *next = PyDict_GetItemString(PyEval_GetBuiltins(), "next");
    if (next == NULL) {
        Py_DECREF(it);
        PyErr_SetString(PyExc_RuntimeError, "builtins.next is missing");
        return NULL;
    }
    return Py_BuildValue("O(N)", next, it);
}

static PyObject *
alias_or(PyObject *self, PyObject *other)
{
    return _Py_union_type_or(self, other);
}

/* ---- iteration: `*alias` gives the starred alias once --------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *alias;    /* NULL once used */
} aliasiterobject;

static PyObject *
alias_iter(PyObject *op)
{
    aliasiterobject *it = PyObject_GC_New(aliasiterobject, &_PyGenericAliasIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->alias = Py_NewRef(op);
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static PyObject *
aliasiter_next(PyObject *op)
{
    aliasiterobject *it = (aliasiterobject *)op;
    if (it->alias == NULL) {
        return NULL;
    }
    PyObject *src = it->alias;
    it->alias = NULL;
    PyObject *r = alias_make(Py_TYPE(src), ALIAS(src)->origin, ALIAS(src)->args, 1);
    Py_DECREF(src);
    return r;
}

static int
aliasiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((aliasiterobject *)op)->alias);
    return 0;
}

static void
aliasiter_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_CLEAR(((aliasiterobject *)op)->alias);
    PyObject_GC_Del(op);
}

PyTypeObject _PyGenericAliasIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "generic_alias_iterator",
    .tp_basicsize = sizeof(aliasiterobject),
    .tp_dealloc = aliasiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = aliasiter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = aliasiter_next,
};

/* ---- the type ---------------------------------------------------------- */

static PyMethodDef alias_methods[] = {
    {"__mro_entries__", alias_mro_entries, METH_O, NULL},
    {"__instancecheck__", alias_instancecheck, METH_O, NULL},
    {"__subclasscheck__", alias_subclasscheck, METH_O, NULL},
    {"__reduce__", alias_reduce, METH_NOARGS, NULL},
    {"__dir__", alias_dir, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef alias_members[] = {
    {"__origin__", _Py_T_OBJECT, offsetof(aliasobject, origin), Py_READONLY, NULL},
    {"__args__", _Py_T_OBJECT, offsetof(aliasobject, args), Py_READONLY, NULL},
    {"__unpacked__", Py_T_BOOL, offsetof(aliasobject, starred), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef alias_getset[] = {
    {"__parameters__", alias_get_parameters, NULL, NULL, NULL},
    {"__typing_unpacked_tuple_args__", alias_get_unpacked_args, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMappingMethods alias_as_mapping = {
    .mp_subscript = alias_subscript,
};

static PyNumberMethods alias_as_number = {
    .nb_or = alias_or,
};

PyTypeObject Py_GenericAliasType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "types.GenericAlias",
    .tp_basicsize = sizeof(aliasobject),
    .tp_dealloc = alias_dealloc,
    .tp_repr = alias_repr,
    .tp_as_number = &alias_as_number,
    .tp_as_mapping = &alias_as_mapping,
    .tp_hash = alias_hash,
    .tp_call = alias_call,
    .tp_getattro = alias_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Represent a parameterized generic class such as list[int].",
    .tp_traverse = alias_traverse,
    .tp_clear = alias_clear,
    .tp_richcompare = alias_richcompare,
    .tp_weaklistoffset = offsetof(aliasobject, weakrefs),
    .tp_iter = alias_iter,
    .tp_methods = alias_methods,
    .tp_members = alias_members,
    .tp_getset = alias_getset,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = alias_new,
    .tp_free = PyObject_GC_Del,
};
