/* The type parameter objects of PEP 484/612/646/695/696: TypeVar,
   ParamSpec (with its .args and .kwargs), TypeVarTuple, TypeAliasType,
   typing.Generic and the NoDefault sentinel, plus the helpers behind the
   compiler's type-parameter intrinsics.

   The three parameter kinds share one layout.  A bound, constraint tuple,
   default or alias value written in PEP 695 syntax arrives as a function
   and is evaluated on first access.  Substitution rules that typing.py
   already spells out (_typevar_subst, _paramspec_prepare_subst, ...) are
   called there; typing is imported only when such a rule is needed. */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include "pycore_typing.h"

enum {
    TP_COVARIANT = 1,
    TP_CONTRAVARIANT = 2,
    TP_INFER_VARIANCE = 4,
    TP_FROM_SYNTAX = 8,    /* only passed to param_alloc, never stored */
};

typedef struct {
    PyObject_HEAD
    PyObject *name;
    PyObject *bound;                 /* evaluated, or NULL */
    PyObject *bound_fn;              /* PEP 695 evaluator, or NULL */
    PyObject *constraints;
    PyObject *constraints_fn;
    PyObject *dflt;
    PyObject *dflt_fn;
    PyObject *dict;                  /* holds __module__ */
    int flags;
} paramobject;

#define PARAM(op) ((paramobject *)(op))

/* ---- small helpers ---------------------------------------------------- */

/* Call typing.NAME(args...). */
static PyObject *
call_typing(const char *name, PyObject *const *args, Py_ssize_t n)
{
    PyObject *typing = PyImport_ImportModule("typing");
    if (typing == NULL) {
        return NULL;
    }
    PyObject *fn = PyObject_GetAttrString(typing, name);
    Py_DECREF(typing);
    if (fn == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_Vectorcall(fn, args, (size_t)n, NULL);
    Py_DECREF(fn);
    return r;
}

/* The value in *slot, computing it once from *fn; fallback when neither. */
static PyObject *
lazy_value(PyObject **slot, PyObject **fn, PyObject *fallback)
{
    if (*slot == NULL && *fn != NULL) {
        *slot = PyObject_CallNoArgs(*fn);
        if (*slot == NULL) {
            return NULL;
        }
    }
    return Py_NewRef(*slot != NULL ? *slot : fallback);
}

/* The module of the code creating the object, for __module__.  Parameters
   made by PEP 695 syntax say 'typing', as CPython's do. */
static int
record_module(PyObject *op, int from_syntax)
{
    if (from_syntax) {
        PyObject *typing = PyUnicode_FromString("typing");
        int err = typing ? PyDict_SetItemString(PARAM(op)->dict, "__module__", typing) : -1;
        Py_XDECREF(typing);
        return err;
    }
    PyObject *globals = PyEval_GetGlobals();
    PyObject *module = globals ? PyDict_GetItemString(globals, "__name__") : NULL;
    if (module == NULL) {
        return 0;
    }
    return PyDict_SetItemString(PARAM(op)->dict, "__module__", module);
}

/* A bound or default must be a type (or something typing accepts as one). */
static PyObject *
check_type(PyObject *arg, const char *msg)
{
    if (arg == Py_None || PyType_Check(arg)) {
        return Py_NewRef(arg);
    }
    PyObject *text = PyUnicode_FromString(msg);
    if (text == NULL) {
        return NULL;
    }
    PyObject *argv[2] = {arg, text};
    PyObject *r = call_typing("_type_check", argv, 2);
    Py_DECREF(text);
    return r;
}

static PyObject *
param_alloc(PyTypeObject *type, PyObject *name, int flags)
{
    int from_syntax = (flags & TP_FROM_SYNTAX) != 0;
    flags &= ~TP_FROM_SYNTAX;
    paramobject *p = PyObject_GC_New(paramobject, type);
    if (p == NULL) {
        return NULL;
    }
    p->name = Py_NewRef(name);
    p->bound = p->bound_fn = p->constraints = p->constraints_fn = NULL;
    p->dflt = p->dflt_fn = NULL;
    p->flags = flags;
    p->dict = PyDict_New();
    PyObject_GC_Track(p);
    if (p->dict == NULL || record_module((PyObject *)p, from_syntax) < 0) {
        Py_DECREF(p);
        return NULL;
    }
    return (PyObject *)p;
}

/* default=NoDefault means none; anything else (even None) is the default. */
static void
param_set_default(PyObject *op, PyObject *dflt)
{
    if (dflt != NULL && dflt != _Py_NoDefault) {
        Py_XSETREF(PARAM(op)->dflt, Py_NewRef(dflt));
    }
}

static int
check_variance(int covariant, int contravariant, int infer)
{
    if (covariant && contravariant) {
        PyErr_SetString(PyExc_ValueError, "Bivariant types are not supported.");
        return -1;
    }
    if (infer && (covariant || contravariant)) {
        PyErr_SetString(PyExc_ValueError, "Variance cannot be specified with infer_variance.");
        return -1;
    }
    return (covariant ? TP_COVARIANT : 0) | (contravariant ? TP_CONTRAVARIANT : 0) |
           (infer ? TP_INFER_VARIANCE : 0);
}

static int
param_traverse(PyObject *op, visitproc visit, void *arg)
{
    paramobject *p = PARAM(op);
    Py_VISIT(p->bound);
    Py_VISIT(p->bound_fn);
    Py_VISIT(p->constraints);
    Py_VISIT(p->constraints_fn);
    Py_VISIT(p->dflt);
    Py_VISIT(p->dflt_fn);
    Py_VISIT(p->dict);
    return 0;
}

static int
param_clear(PyObject *op)
{
    paramobject *p = PARAM(op);
    Py_CLEAR(p->bound);
    Py_CLEAR(p->bound_fn);
    Py_CLEAR(p->constraints);
    Py_CLEAR(p->constraints_fn);
    Py_CLEAR(p->dflt);
    Py_CLEAR(p->dflt_fn);
    Py_CLEAR(p->dict);
    return 0;
}

static void
param_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    param_clear(op);
    Py_CLEAR(PARAM(op)->name);
    PyObject_GC_Del(op);
}

/* ~T invariant, +T covariant, -T contravariant, plain T when inferred. */
static PyObject *
param_repr(PyObject *op)
{
    paramobject *p = PARAM(op);
    if (Py_IS_TYPE(op, &_PyTypeVarTuple_Type) || (p->flags & TP_INFER_VARIANCE)) {
        return Py_NewRef(p->name);
    }
    const char *mark = (p->flags & TP_COVARIANT) ? "+" : (p->flags & TP_CONTRAVARIANT) ? "-" : "~";
    return PyUnicode_FromFormat("%s%U", mark, p->name);
}

static PyObject *
param_or(PyObject *a, PyObject *b)
{
    PyObject *pair = PyTuple_Pack(2, a, b);
    if (pair == NULL) {
        return NULL;
    }
    PyObject *r = _Py_union_from_tuple(pair);
    Py_DECREF(pair);
    return r;
}

static PyObject *
param_get_bound(PyObject *op, void *closure)
{
    return lazy_value(&PARAM(op)->bound, &PARAM(op)->bound_fn, Py_None);
}

static PyObject *
param_get_constraints(PyObject *op, void *closure)
{
    paramobject *p = PARAM(op);
    if (p->constraints == NULL && p->constraints_fn == NULL) {
        return PyTuple_New(0);
    }
    return lazy_value(&p->constraints, &p->constraints_fn, Py_None);
}

static PyObject *
param_get_default(PyObject *op, void *closure)
{
    return lazy_value(&PARAM(op)->dflt, &PARAM(op)->dflt_fn, _Py_NoDefault);
}

static PyObject *
param_get_flag(PyObject *op, void *closure)
{
    return PyBool_FromLong(PARAM(op)->flags & (int)(intptr_t)closure);
}

static PyObject *
param_has_default(PyObject *op, PyObject *unused)
{
    return PyBool_FromLong(PARAM(op)->dflt != NULL || PARAM(op)->dflt_fn != NULL);
}

/* Pickled by name: the module attribute of that name is the object. */
static PyObject *
param_reduce(PyObject *op, PyObject *unused)
{
    return Py_NewRef(PARAM(op)->name);
}

static PyObject *
param_mro_entries(PyObject *op, PyObject *bases)
{
    return PyErr_Format(PyExc_TypeError, "Cannot subclass an instance of %s",
                        _PyType_Name(Py_TYPE(op)));
}

static PyObject *
param_call_typing(PyObject *op, const char *helper, PyObject *a, PyObject *b)
{
    PyObject *argv[3] = {op, a, b};
    return call_typing(helper, argv, b ? 3 : 2);
}

/* Keyword options of the constructors, parsed with the messages CPython's
   argument clinic gives (the function is named in lower case, "typevar()"). */
static int
parse_args(PyObject *args, PyObject *kwds, const char *fname, const char *const *names,
           Py_ssize_t npos, PyObject **out)
{
    return _PyArg_ParseTupleAndKeywordsStack(args, kwds, fname, names, npos, npos, 0, out);
}

static int
check_name(const char *fname, PyObject *name)
{
    if (PyUnicode_Check(name)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s() argument 'name' must be str, not %.100s", fname,
                 Py_TYPE(name)->tp_name);
    return -1;
}

/* covariant/contravariant/infer_variance as given (NULL: false) -> flags, or -1. */
static int
variance_flags(PyObject *const *opts)
{
    int truth[3];
    for (int i = 0; i < 3; i++) {
        truth[i] = opts[i] == NULL ? 0 : PyObject_IsTrue(opts[i]);
        if (truth[i] < 0) {
            return -1;
        }
    }
    return check_variance(truth[0], truth[1], truth[2]);
}

static PyObject *
checked_bound(PyObject *bound)
{
    if (bound == NULL || bound == Py_None) {
        return NULL;
    }
    return check_type(bound, "Bound must be a type.");
}

/* ---- TypeVar ------------------------------------------------------------ */

/* TypeVar(name, *constraints, bound=None, covariant=False,
           contravariant=False, infer_variance=False, default=NoDefault) */
static PyObject *
typevar_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"bound", "covariant", "contravariant",
                                        "infer_variance", "default", NULL};
    PyObject *opt[5];
    if (PyTuple_GET_SIZE(args) == 0) {
        PyErr_SetString(PyExc_TypeError, "typevar() missing required argument 'name' (pos 1)");
        return NULL;
    }
    PyObject *name = PyTuple_GET_ITEM(args, 0);
    PyObject *none = PyTuple_New(0);
    int ok = none != NULL && parse_args(none, kwds, "typevar", names, 0, opt);
    Py_XDECREF(none);
    if (!ok || check_name("typevar", name) < 0) {
        return NULL;
    }
    int flags = variance_flags(opt + 1);
    if (flags < 0) {
        return NULL;
    }
    Py_ssize_t nc = PyTuple_GET_SIZE(args) - 1;
    int has_bound = opt[0] != NULL && opt[0] != Py_None;
    if (nc == 1 || (nc > 1 && has_bound)) {
        PyErr_SetString(PyExc_TypeError, nc == 1 ? "A single constraint is not allowed"
                                                 : "Constraints cannot be combined with bound=...");
        return NULL;
    }
    PyObject *bound = checked_bound(opt[0]);
    if (bound == NULL && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *tv = param_alloc(type, name, flags);
    PyObject *constraints = tv ? PyTuple_GetSlice(args, 1, nc + 1) : NULL;
    if (constraints == NULL) {
        Py_XDECREF(bound);
        Py_XDECREF(tv);
        return NULL;
    }
    PARAM(tv)->bound = bound;
    PARAM(tv)->constraints = constraints;
    param_set_default(tv, opt[4]);
    return tv;
}

/* T replaced by arg.  Plain classes, aliases and parameters need no checks,
   which keeps list[T][int] working before typing is importable. */
static PyObject *
typevar_subst(PyObject *op, PyObject *arg)
{
    if (arg == Py_None) {
        return Py_NewRef((PyObject *)&_PyNone_Type);
    }
    int plain = PyType_Check(arg) || _PyUnion_Check(arg) ||
                Py_IS_TYPE(arg, &_PyTypeVar_Type) || Py_IS_TYPE(arg, &_PyParamSpec_Type) ||
                Py_IS_TYPE(arg, &_PyTypeAlias_Type);
    if (!plain && Py_IS_TYPE(arg, &Py_GenericAliasType)) {
        PyObject *starred = PyObject_GetAttrString(arg, "__unpacked__");
        if (starred == NULL) {
            return NULL;
        }
        plain = starred == Py_False;
        Py_DECREF(starred);
    }
    if (plain) {
        return Py_NewRef(arg);
    }
    return param_call_typing(op, "_typevar_subst", arg, NULL);
}

/* Fill in this parameter's default when the caller gave too few items. */
static PyObject *
typevar_prepare_subst(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "__typing_prepare_subst__ expects (alias, args tuple)");
        return NULL;
    }
    PyObject *items = args[1];
    PyObject *params = PyObject_GetAttrString(args[0], "__parameters__");
    if (params == NULL) {
        return NULL;
    }
    Py_ssize_t i = PySequence_Index(params, op);
    Py_DECREF(params);
    if (i < 0) {
        return NULL;
    }
    if (i < PyTuple_GET_SIZE(items)) {
        return Py_NewRef(items);
    }
    if (i > PyTuple_GET_SIZE(items) || (PARAM(op)->dflt == NULL && PARAM(op)->dflt_fn == NULL)) {
        return PyErr_Format(PyExc_TypeError,
                            "Too few arguments for %S; actual %zd, expected at least %zd",
                            args[0], PyTuple_GET_SIZE(items), i + 1);
    }
    PyObject *d = param_get_default(op, NULL);
    if (d == NULL) {
        return NULL;
    }
    PyObject *one = PyTuple_Pack(1, d);
    Py_DECREF(d);
    PyObject *r = one ? PySequence_Concat(items, one) : NULL;
    Py_XDECREF(one);
    return r;
}

static PyMethodDef typevar_methods[] = {
    {"__typing_subst__", typevar_subst, METH_O, NULL},
    {"__typing_prepare_subst__", (PyCFunction)(void (*)(void))typevar_prepare_subst,
     METH_FASTCALL, NULL},
    {"has_default", param_has_default, METH_NOARGS, NULL},
    {"__reduce__", param_reduce, METH_NOARGS, NULL},
    {"__mro_entries__", param_mro_entries, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

#define VARIANCE_GETTERS                                                                 \
    {"__covariant__", param_get_flag, NULL, NULL, (void *)(intptr_t)TP_COVARIANT},       \
    {"__contravariant__", param_get_flag, NULL, NULL, (void *)(intptr_t)TP_CONTRAVARIANT}, \
    {"__infer_variance__", param_get_flag, NULL, NULL, (void *)(intptr_t)TP_INFER_VARIANCE}

static PyGetSetDef typevar_getset[] = {
    {"__bound__", param_get_bound, NULL, NULL, NULL},
    {"__constraints__", param_get_constraints, NULL, NULL, NULL},
    {"__default__", param_get_default, NULL, NULL, NULL},
    VARIANCE_GETTERS,
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef param_members[] = {
    {"__name__", _Py_T_OBJECT, offsetof(paramobject, name), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyNumberMethods param_as_number = {
    .nb_or = param_or,
};

#define PARAM_TYPE_COMMON                                                       \
    .tp_basicsize = sizeof(paramobject),                                        \
    .tp_dealloc = param_dealloc,                                                \
    .tp_repr = param_repr,                                                      \
    .tp_as_number = &param_as_number,                                           \
    .tp_getattro = PyObject_GenericGetAttr,                                     \
    .tp_setattro = PyObject_GenericSetAttr,                                     \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,                        \
    .tp_traverse = param_traverse,                                              \
    .tp_clear = param_clear,                                                    \
    .tp_members = param_members,                                                \
    .tp_dictoffset = offsetof(paramobject, dict)

PyTypeObject _PyTypeVar_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.TypeVar",
    PARAM_TYPE_COMMON,
    .tp_doc = "Type variable: TypeVar('T'), or T in `def f[T]()`.",
    .tp_methods = typevar_methods,
    .tp_getset = typevar_getset,
    .tp_new = typevar_new,
};

/* ---- ParamSpec, P.args, P.kwargs --------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *origin;
} psattrobject;

static PyObject *
psattr_new_for(PyTypeObject *type, PyObject *origin)
{
    psattrobject *a = PyObject_GC_New(psattrobject, type);
    if (a == NULL) {
        return NULL;
    }
    a->origin = Py_NewRef(origin);
    PyObject_GC_Track(a);
    return (PyObject *)a;
}

static PyObject *
psattr_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *origin;
    if (!_PyArg_NoKeywords(_PyType_Name(type), kwds) ||
        !PyArg_UnpackTuple(args, _PyType_Name(type), 1, 1, &origin)) {
        return NULL;
    }
    return psattr_new_for(type, origin);
}

static int
psattr_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((psattrobject *)op)->origin);
    return 0;
}

static void
psattr_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_CLEAR(((psattrobject *)op)->origin);
    PyObject_GC_Del(op);
}

/* "P.args": the parameter's name when it is a ParamSpec, else its repr. */
static PyObject *
psattr_repr(PyObject *op)
{
    PyObject *origin = ((psattrobject *)op)->origin;
    const char *what = Py_IS_TYPE(op, &_PyParamSpecArgs_Type) ? "args" : "kwargs";
    if (Py_IS_TYPE(origin, &_PyParamSpec_Type)) {
        return PyUnicode_FromFormat("%U.%s", PARAM(origin)->name, what);
    }
    return PyUnicode_FromFormat("%R.%s", origin, what);
}

static PyObject *
psattr_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!Py_IS_TYPE(b, Py_TYPE(a)) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return PyObject_RichCompare(((psattrobject *)a)->origin, ((psattrobject *)b)->origin, op);
}

static PyMemberDef psattr_members[] = {
    {"__origin__", _Py_T_OBJECT, offsetof(psattrobject, origin), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef psattr_methods[] = {
    {"__mro_entries__", param_mro_entries, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

#define PSATTR_COMMON                                               \
    .tp_basicsize = sizeof(psattrobject),                           \
    .tp_dealloc = psattr_dealloc,                                   \
    .tp_repr = psattr_repr,                                         \
    .tp_getattro = PyObject_GenericGetAttr,                         \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,            \
    .tp_traverse = psattr_traverse,                                 \
    .tp_richcompare = psattr_richcompare,                           \
    .tp_methods = psattr_methods,                                   \
    .tp_members = psattr_members,                                   \
    .tp_new = psattr_new

PyTypeObject _PyParamSpecArgs_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.ParamSpecArgs",
    PSATTR_COMMON,
    .tp_doc = "The type of P.args for a ParamSpec P.",
};

PyTypeObject _PyParamSpecKwargs_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.ParamSpecKwargs",
    PSATTR_COMMON,
    .tp_doc = "The type of P.kwargs for a ParamSpec P.",
};

/* ParamSpec(name, *, bound=None, covariant=False, contravariant=False,
             infer_variance=False, default=NoDefault).  As in CPython 3.13, a
   missing bound reads back as NoneType. */
static PyObject *
paramspec_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"name", "bound", "covariant", "contravariant",
                                        "infer_variance", "default", NULL};
    PyObject *opt[6];
    if (!parse_args(args, kwds, "paramspec", names, 1, opt) ||
        check_name("paramspec", opt[0]) < 0) {
        return NULL;
    }
    int flags = variance_flags(opt + 2);
    if (flags < 0) {
        return NULL;
    }
    PyObject *bound = opt[1] == NULL || opt[1] == Py_None
                          ? Py_NewRef((PyObject *)&_PyNone_Type) : checked_bound(opt[1]);
    if (bound == NULL) {
        return NULL;
    }
    PyObject *ps = param_alloc(type, opt[0], flags);
    if (ps == NULL) {
        Py_DECREF(bound);
        return NULL;
    }
    PARAM(ps)->bound = bound;
    param_set_default(ps, opt[5]);
    return ps;
}

static PyObject *
paramspec_get_args(PyObject *op, void *closure)
{
    return psattr_new_for(&_PyParamSpecArgs_Type, op);
}

static PyObject *
paramspec_get_kwargs(PyObject *op, void *closure)
{
    return psattr_new_for(&_PyParamSpecKwargs_Type, op);
}

static PyObject *
paramspec_subst(PyObject *op, PyObject *arg)
{
    return param_call_typing(op, "_paramspec_subst", arg, NULL);
}

static PyObject *
paramspec_prepare_subst(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "__typing_prepare_subst__ expects (alias, args)");
        return NULL;
    }
    return param_call_typing(op, "_paramspec_prepare_subst", args[0], args[1]);
}

static PyMethodDef paramspec_methods[] = {
    {"__typing_subst__", paramspec_subst, METH_O, NULL},
    {"__typing_prepare_subst__", (PyCFunction)(void (*)(void))paramspec_prepare_subst,
     METH_FASTCALL, NULL},
    {"has_default", param_has_default, METH_NOARGS, NULL},
    {"__reduce__", param_reduce, METH_NOARGS, NULL},
    {"__mro_entries__", param_mro_entries, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef paramspec_getset[] = {
    {"__bound__", param_get_bound, NULL, NULL, NULL},
    {"__default__", param_get_default, NULL, NULL, NULL},
    {"args", paramspec_get_args, NULL, NULL, NULL},
    {"kwargs", paramspec_get_kwargs, NULL, NULL, NULL},
    VARIANCE_GETTERS,
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyParamSpec_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.ParamSpec",
    PARAM_TYPE_COMMON,
    .tp_doc = "Parameter specification variable: ParamSpec('P'), or **P in `def f[**P]()`.",
    .tp_methods = paramspec_methods,
    .tp_getset = paramspec_getset,
    .tp_new = paramspec_new,
};

/* ---- TypeVarTuple ---------------------------------------------------------- */

/* TypeVarTuple(name, *, default=NoDefault) */
static PyObject *
typevartuple_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"name", "default", NULL};
    PyObject *opt[2];
    if (!parse_args(args, kwds, "typevartuple", names, 1, opt) ||
        check_name("typevartuple", opt[0]) < 0) {
        return NULL;
    }
    PyObject *tvt = param_alloc(type, opt[0], 0);
    if (tvt != NULL) {
        param_set_default(tvt, opt[1]);
    }
    return tvt;
}

/* typing.Unpack[self], the object *Ts stands for. */
static PyObject *
unpacked(PyObject *tvt)
{
    PyObject *typing = PyImport_ImportModule("typing");
    if (typing == NULL) {
        return NULL;
    }
    PyObject *unpack = PyObject_GetAttrString(typing, "Unpack");
    Py_DECREF(typing);
    if (unpack == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_GetItem(unpack, tvt);
    Py_DECREF(unpack);
    return r;
}

static PyObject *
typevartuple_iter(PyObject *op)
{
    PyObject *u = unpacked(op);
    if (u == NULL) {
        return NULL;
    }
    PyObject *one = PyTuple_Pack(1, u);
    Py_DECREF(u);
    if (one == NULL) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(one);
    Py_DECREF(one);
    return it;
}

static PyObject *
typevartuple_subst(PyObject *op, PyObject *arg)
{
    PyErr_SetString(PyExc_TypeError, "Substitution of bare TypeVarTuple is not supported");
    return NULL;
}

static PyObject *
typevartuple_prepare_subst(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "__typing_prepare_subst__ expects (alias, args)");
        return NULL;
    }
    return param_call_typing(op, "_typevartuple_prepare_subst", args[0], args[1]);
}

static PyMethodDef typevartuple_methods[] = {
    {"__typing_subst__", typevartuple_subst, METH_O, NULL},
    {"__typing_prepare_subst__", (PyCFunction)(void (*)(void))typevartuple_prepare_subst,
     METH_FASTCALL, NULL},
    {"has_default", param_has_default, METH_NOARGS, NULL},
    {"__reduce__", param_reduce, METH_NOARGS, NULL},
    {"__mro_entries__", param_mro_entries, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef typevartuple_getset[] = {
    {"__default__", param_get_default, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyTypeVarTuple_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.TypeVarTuple",
    PARAM_TYPE_COMMON,
    .tp_doc = "Type variable tuple: TypeVarTuple('Ts'), or *Ts in `def f[*Ts]()`.",
    .tp_iter = typevartuple_iter,
    .tp_methods = typevartuple_methods,
    .tp_getset = typevartuple_getset,
    .tp_new = typevartuple_new,
};

/* ---- TypeAliasType ------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *name;
    PyObject *type_params;   /* tuple, possibly empty */
    PyObject *value;         /* evaluated, or NULL */
    PyObject *value_fn;      /* the `type X = ...` body, or NULL */
    PyObject *module;
} aliasobject;

#define TALIAS(op) ((aliasobject *)(op))

static PyObject *
talias_make(PyObject *name, PyObject *type_params, PyObject *value, PyObject *value_fn)
{
    if (type_params != NULL && type_params != Py_None && !PyTuple_Check(type_params)) {
        PyErr_SetString(PyExc_TypeError, "type_params must be a tuple");
        return NULL;
    }
    aliasobject *a = PyObject_GC_New(aliasobject, &_PyTypeAlias_Type);
    if (a == NULL) {
        return NULL;
    }
    a->name = Py_NewRef(name);
    a->type_params = type_params && type_params != Py_None ? Py_NewRef(type_params)
                                                            : PyTuple_New(0);
    a->value = Py_XNewRef(value);
    a->value_fn = Py_XNewRef(value_fn);
    PyObject *globals = PyEval_GetGlobals();
    a->module = Py_XNewRef(globals ? PyDict_GetItemString(globals, "__name__") : NULL);
    PyObject_GC_Track(a);
    if (a->type_params == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    return (PyObject *)a;
}

/* TypeAliasType(name, value, *, type_params=()): an alias made at run time,
   its value known from the start. */
static PyObject *
talias_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"name", "value", "type_params", NULL};
    PyObject *parsed[3] = {NULL, NULL, NULL};
    int ok = PyArg_ParseTupleAndKeywords(args, kwds, "UO|$O:TypeAliasType", names,
                                         &parsed[0], &parsed[1], &parsed[2]);
    return ok ? talias_make(parsed[0], parsed[2], parsed[1], NULL) : NULL;
}

static int
talias_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(TALIAS(op)->type_params);
    Py_VISIT(TALIAS(op)->value);
    Py_VISIT(TALIAS(op)->value_fn);
    Py_VISIT(TALIAS(op)->module);
    return 0;
}

static void
talias_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_CLEAR(TALIAS(op)->name);
    Py_CLEAR(TALIAS(op)->type_params);
    Py_CLEAR(TALIAS(op)->value);
    Py_CLEAR(TALIAS(op)->value_fn);
    Py_CLEAR(TALIAS(op)->module);
    PyObject_GC_Del(op);
}

static PyObject *
talias_repr(PyObject *op)
{
    return Py_NewRef(TALIAS(op)->name);
}

static PyObject *
talias_get_value(PyObject *op, void *closure)
{
    return lazy_value(&TALIAS(op)->value, &TALIAS(op)->value_fn, Py_None);
}

static PyObject *
talias_get_module(PyObject *op, void *closure)
{
    return Py_NewRef(TALIAS(op)->module ? TALIAS(op)->module : Py_None);
}

/* __parameters__: the type params, with each TypeVarTuple as *Ts. */
static PyObject *
talias_get_parameters(PyObject *op, void *closure)
{
    PyObject *tps = TALIAS(op)->type_params;
    Py_ssize_t n = PyTuple_GET_SIZE(tps);
    PyObject *r = PyTuple_New(n);
    for (Py_ssize_t i = 0; r != NULL && i < n; i++) {
        PyObject *p = PyTuple_GET_ITEM(tps, i);
        PyObject *v = Py_IS_TYPE(p, &_PyTypeVarTuple_Type) ? unpacked(p) : Py_NewRef(p);
        if (v == NULL) {
            Py_CLEAR(r);
            break;
        }
        PyTuple_SET_ITEM(r, i, v);
    }
    return r;
}

static PyObject *
talias_subscript(PyObject *op, PyObject *args)
{
    if (PyTuple_GET_SIZE(TALIAS(op)->type_params) == 0) {
        PyErr_SetString(PyExc_TypeError, "Only generic type aliases are subscriptable");
        return NULL;
    }
    return Py_GenericAlias(op, args);
}

static PyObject *
talias_reduce(PyObject *op, PyObject *unused)
{
    return Py_NewRef(TALIAS(op)->name);
}

static PyMethodDef talias_methods[] = {
    {"__reduce__", talias_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef talias_getset[] = {
    {"__value__", talias_get_value, NULL, NULL, NULL},
    {"__module__", talias_get_module, NULL, NULL, NULL},
    {"__parameters__", talias_get_parameters, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef talias_members[] = {
    {"__name__", _Py_T_OBJECT, offsetof(aliasobject, name), Py_READONLY, NULL},
    {"__type_params__", _Py_T_OBJECT, offsetof(aliasobject, type_params), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyMappingMethods talias_as_mapping = {
    .mp_subscript = talias_subscript,
};

static PyNumberMethods talias_as_number = {
    .nb_or = _Py_union_type_or,
};

PyTypeObject _PyTypeAlias_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.TypeAliasType",
    .tp_basicsize = sizeof(aliasobject),
    .tp_dealloc = talias_dealloc,
    .tp_repr = talias_repr,
    .tp_as_number = &talias_as_number,
    .tp_as_mapping = &talias_as_mapping,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Type alias: TypeAliasType('X', int), or `type X = int`.",
    .tp_traverse = talias_traverse,
    .tp_methods = talias_methods,
    .tp_members = talias_members,
    .tp_getset = talias_getset,
    .tp_new = talias_new,
};

/* ---- NoDefault ---------------------------------------------------------- */

static PyObject *
nodefault_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "NoDefaultType takes no arguments");
        return NULL;
    }
    return Py_NewRef(_Py_NoDefault);
}

static PyObject *
nodefault_repr(PyObject *op)
{
    return PyUnicode_FromString("typing.NoDefault");
}

static PyObject *
nodefault_reduce(PyObject *op, PyObject *unused)
{
    return PyUnicode_FromString("NoDefault");
}

static PyMethodDef nodefault_methods[] = {
    {"__reduce__", nodefault_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyNoDefault_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "NoDefaultType",
    .tp_basicsize = sizeof(PyObject),
    .tp_repr = nodefault_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The type of typing.NoDefault: 'this type parameter has no default'.",
    .tp_methods = nodefault_methods,
    .tp_new = nodefault_new,
};

PyObject _Py_NoDefaultStruct = {_Py_IMMORTAL_INITIAL_REFCNT, &_PyNoDefault_Type};

/* ---- typing.Generic ------------------------------------------------------ */

/* Both hooks hand over to typing.py, which owns the rules for generic classes. */
static PyObject *
generic_class_getitem(PyObject *cls, PyObject *args)
{
    PyObject *argv[2] = {cls, args};
    return call_typing("_generic_class_getitem", argv, 2);
}

static PyObject *
generic_init_subclass(PyObject *cls, PyObject *args, PyObject *kwds)
{
    PyObject *typing = PyImport_ImportModule("typing");
    if (typing == NULL) {
        return NULL;
    }
    PyObject *fn = PyObject_GetAttrString(typing, "_generic_init_subclass");
    Py_DECREF(typing);
    PyObject *full = fn ? PyTuple_New(PyTuple_GET_SIZE(args) + 1) : NULL;
    PyObject *r = NULL;
    if (full != NULL) {
        PyTuple_SET_ITEM(full, 0, Py_NewRef(cls));
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
            PyTuple_SET_ITEM(full, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
        }
        r = PyObject_Call(fn, full, kwds);
        Py_DECREF(full);
    }
    Py_XDECREF(fn);
    return r;
}

static PyMethodDef generic_methods[] = {
    {"__class_getitem__", generic_class_getitem, METH_O | METH_CLASS, NULL},
    {"__init_subclass__", (PyCFunction)(void (*)(void))generic_init_subclass,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject generic_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "typing.Generic",
    .tp_basicsize = sizeof(PyObject),
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Abstract base class for generic types: class C(Generic[T]), or class C[T].",
    .tp_methods = generic_methods,
    .tp_new = PyType_GenericNew,
};

PyObject *
_PyTyping_GetGeneric(void)
{
    return (PyObject *)&generic_type;
}

int
_PyTyping_InitTypes(void)
{
    PyTypeObject *types[] = {
        &_PyTypeVar_Type, &_PyParamSpec_Type, &_PyTypeVarTuple_Type, &_PyParamSpecArgs_Type,
        &_PyParamSpecKwargs_Type, &_PyTypeAlias_Type, &_PyNoDefault_Type, &generic_type,
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(types); i++) {
        if (_PyStaticType_InitBuiltin(types[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- the compiler's intrinsics ----------------------------------------------- */

PyObject *
_Py_make_typevar(PyObject *name, PyObject *evaluate_bound, PyObject *evaluate_constraints)
{
    PyObject *tv = param_alloc(&_PyTypeVar_Type, name, TP_INFER_VARIANCE | TP_FROM_SYNTAX);
    if (tv != NULL) {
        PARAM(tv)->bound_fn = Py_XNewRef(evaluate_bound);
        PARAM(tv)->constraints_fn = Py_XNewRef(evaluate_constraints);
    }
    return tv;
}

PyObject *
_Py_make_paramspec(PyObject *name)
{
    return param_alloc(&_PyParamSpec_Type, name, TP_INFER_VARIANCE | TP_FROM_SYNTAX);
}

PyObject *
_Py_make_typevartuple(PyObject *name)
{
    return param_alloc(&_PyTypeVarTuple_Type, name, TP_FROM_SYNTAX);
}

PyObject *
_Py_set_typeparam_default(PyObject *typeparam, PyObject *evaluate_default)
{
    if (!Py_IS_TYPE(typeparam, &_PyTypeVar_Type) && !Py_IS_TYPE(typeparam, &_PyParamSpec_Type) &&
        !Py_IS_TYPE(typeparam, &_PyTypeVarTuple_Type)) {
        return PyErr_Format(PyExc_TypeError, "expected a type parameter, got %.100s",
                            Py_TYPE(typeparam)->tp_name);
    }
    Py_XSETREF(PARAM(typeparam)->dflt_fn, Py_NewRef(evaluate_default));
    return Py_NewRef(typeparam);
}

/* The implicit base of `class C[T, *Ts]`: typing's Generic[T, *Ts]. */
PyObject *
_Py_subscript_generic(PyObject *params)
{
    Py_ssize_t n = PyTuple_GET_SIZE(params);
    PyObject *args = PyTuple_New(n);
    for (Py_ssize_t i = 0; args != NULL && i < n; i++) {
        PyObject *p = PyTuple_GET_ITEM(params, i);
        PyObject *v = Py_IS_TYPE(p, &_PyTypeVarTuple_Type) ? unpacked(p) : Py_NewRef(p);
        if (v == NULL) {
            Py_CLEAR(args);
            break;
        }
        PyTuple_SET_ITEM(args, i, v);
    }
    if (args == NULL) {
        return NULL;
    }
    PyObject *argv[2] = {(PyObject *)&generic_type, args};
    PyObject *r = call_typing("_GenericAlias", argv, 2);
    Py_DECREF(args);
    return r;
}

/* `type X[T] = ...`: args is (name, type params or None, value function). */
PyObject *
_Py_make_typealias(PyObject *args)
{
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 3) {
        PyErr_SetString(PyExc_SystemError, "type alias intrinsic expects a 3-tuple");
        return NULL;
    }
    return talias_make(PyTuple_GET_ITEM(args, 0), PyTuple_GET_ITEM(args, 1), NULL,
                       PyTuple_GET_ITEM(args, 2));
}
