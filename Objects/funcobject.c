/* Function objects (PyFunction_Type), classmethod and staticmethod.

   A function pairs a code object with the namespaces it runs in (globals,
   builtins), its default arguments and its closure.  Calling one goes
   through `vectorcall`, which is _PyFunction_Vectorcall in Python/ceval.c.

   func_version lets the specializer cache facts about a call target: any
   change to what a call would do (code, defaults, closure) gives the
   function a fresh version, so a stale cache entry can never match. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_function.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"

static PyObject *
cached_id(PyObject **slot, const char *s)
{
    if (*slot == NULL) {
        *slot = _PyUnicode_InternImmortal(s);
    }
    return *slot;
}

/* ---- Versions ------------------------------------------------------------ */

static uint32_t
next_func_version(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        return 0;
    }
    PyInterpreterState *interp = tstate->interp;
    if (interp->func_version_next < 1) {
        interp->func_version_next = 1;
    }
    if (interp->func_version_next > (int64_t)UINT32_MAX) {
        return 0; /* exhausted: never specialize on functions again */
    }
    return (uint32_t)interp->func_version_next++;
}

void
_PyFunction_NewVersion(PyFunctionObject *func)
{
    func->func_version = next_func_version();
}

uint32_t
_PyFunction_GetVersionForCurrentState(PyFunctionObject *func)
{
    return func->func_version;
}

/* ---- Construction ---------------------------------------------------------- */

/* The docstring is the first constant when the compiler says there is one. */
static PyObject *
code_docstring(PyCodeObject *code)
{
    if ((code->co_flags & CO_HAS_DOCSTRING) && PyTuple_GET_SIZE(code->co_consts) > 0) {
        return PyTuple_GET_ITEM(code->co_consts, 0);
    }
    return Py_None;
}

/* builtins is borrowed; everything else is taken as new references here. */
static PyFunctionObject *
func_alloc(PyCodeObject *code, PyObject *globals, PyObject *builtins, PyObject *qualname)
{
    static PyObject *s_name;
    PyObject *name_key = cached_id(&s_name, "__name__");
    if (name_key == NULL) {
        return NULL;
    }
    PyObject *module = NULL;
    if (PyDict_GetItemRef(globals, name_key, &module) < 0) {
        return NULL;
    }
    PyFunctionObject *op = PyObject_GC_New(PyFunctionObject, &PyFunction_Type);
    if (op == NULL) {
        Py_XDECREF(module);
        return NULL;
    }
    if (qualname == NULL || qualname == Py_None) {
        qualname = code->co_qualname;
    }
    op->func_globals = Py_NewRef(globals);
    op->func_builtins = Py_NewRef(builtins);
    op->func_name = Py_NewRef(code->co_name);
    op->func_qualname = Py_NewRef(qualname);
    op->func_code = Py_NewRef(code);
    op->func_defaults = NULL;
    op->func_kwdefaults = NULL;
    op->func_closure = NULL;
    op->func_doc = Py_NewRef(code_docstring(code));
    op->func_dict = NULL;
    op->func_weakreflist = NULL;
    op->func_module = module;
    op->func_annotations = NULL;
    op->func_annotate = NULL;
    op->func_typeparams = NULL;
    op->vectorcall = _PyFunction_Vectorcall;
    op->func_version = next_func_version();
    PyObject_GC_Track(op);
    return op;
}

PyFunctionObject *
_PyFunction_FromCode(PyCodeObject *code, PyObject *globals, PyObject *builtins, PyObject *qualname)
{
    if (!PyCode_Check(code) || !PyDict_Check(globals) || builtins == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return func_alloc(code, globals, builtins, qualname);
}

PyObject *
PyFunction_NewWithQualName(PyObject *code, PyObject *globals, PyObject *qualname)
{
    if (code == NULL || !PyCode_Check(code) || globals == NULL || !PyDict_Check(globals)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyObject *builtins = _PyEval_BuiltinsFromGlobals(_PyThreadState_GET(), globals);
    if (builtins == NULL) {
        return NULL;
    }
    return (PyObject *)func_alloc((PyCodeObject *)code, globals, builtins, qualname);
}

PyObject *
PyFunction_New(PyObject *code, PyObject *globals)
{
    return PyFunction_NewWithQualName(code, globals, NULL);
}

/* ---- C accessors ----------------------------------------------------------- */

#define CHECK_FUNC(op, fail)          \
    do {                              \
        if (!PyFunction_Check(op)) {  \
            PyErr_BadInternalCall();  \
            return fail;              \
        }                             \
    } while (0)

PyObject *
PyFunction_GetCode(PyObject *op)
{
    CHECK_FUNC(op, NULL);
    return ((PyFunctionObject *)op)->func_code;
}

PyObject *
PyFunction_GetGlobals(PyObject *op)
{
    CHECK_FUNC(op, NULL);
    return ((PyFunctionObject *)op)->func_globals;
}

PyObject *
PyFunction_GetModule(PyObject *op)
{
    CHECK_FUNC(op, NULL);
    return ((PyFunctionObject *)op)->func_module;
}

PyObject *
PyFunction_GetDefaults(PyObject *op)
{
    CHECK_FUNC(op, NULL);
    return ((PyFunctionObject *)op)->func_defaults;
}

PyObject *
PyFunction_GetKwDefaults(PyObject *op)
{
    CHECK_FUNC(op, NULL);
    return ((PyFunctionObject *)op)->func_kwdefaults;
}

PyObject *
PyFunction_GetClosure(PyObject *op)
{
    CHECK_FUNC(op, NULL);
    return ((PyFunctionObject *)op)->func_closure;
}

int
PyFunction_SetDefaults(PyObject *op, PyObject *defaults)
{
    CHECK_FUNC(op, -1);
    if (defaults == Py_None) {
        defaults = NULL;
    }
    else if (defaults != NULL && !PyTuple_Check(defaults)) {
        PyErr_SetString(PyExc_SystemError, "non-tuple default args");
        return -1;
    }
    PyFunctionObject *func = (PyFunctionObject *)op;
    Py_XSETREF(func->func_defaults, Py_XNewRef(defaults));
    _PyFunction_NewVersion(func);
    return 0;
}

int
PyFunction_SetKwDefaults(PyObject *op, PyObject *defaults)
{
    CHECK_FUNC(op, -1);
    if (defaults == Py_None) {
        defaults = NULL;
    }
    else if (defaults != NULL && !PyDict_Check(defaults)) {
        PyErr_SetString(PyExc_SystemError, "non-dict keyword only default args");
        return -1;
    }
    PyFunctionObject *func = (PyFunctionObject *)op;
    Py_XSETREF(func->func_kwdefaults, Py_XNewRef(defaults));
    _PyFunction_NewVersion(func);
    return 0;
}

int
PyFunction_SetClosure(PyObject *op, PyObject *closure)
{
    CHECK_FUNC(op, -1);
    if (closure == Py_None) {
        closure = NULL;
    }
    else if (closure != NULL && !PyTuple_Check(closure)) {
        PyErr_Format(PyExc_SystemError, "expected tuple for closure, got '%.100s'",
                     Py_TYPE(closure)->tp_name);
        return -1;
    }
    PyFunctionObject *func = (PyFunctionObject *)op;
    Py_XSETREF(func->func_closure, Py_XNewRef(closure));
    _PyFunction_NewVersion(func);
    return 0;
}

/* ---- Attributes -------------------------------------------------------------- */

static PyObject *
func_get_code(PyObject *self, void *closure)
{
    return Py_NewRef(((PyFunctionObject *)self)->func_code);
}

static int
func_set_code(PyObject *self, PyObject *value, void *closure)
{
    PyFunctionObject *op = (PyFunctionObject *)self;
    if (value == NULL || !PyCode_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__code__ must be set to a code object");
        return -1;
    }
    Py_ssize_t nfree = ((PyCodeObject *)value)->co_nfreevars;
    Py_ssize_t nclosure = op->func_closure == NULL ? 0 : PyTuple_GET_SIZE(op->func_closure);
    if (nclosure != nfree) {
        PyErr_Format(PyExc_ValueError,
                     "%U() requires a code object with %zd free vars, not %zd",
                     op->func_name, nclosure, nfree);
        return -1;
    }
    Py_SETREF(op->func_code, Py_NewRef(value));
    _PyFunction_NewVersion(op);
    return 0;
}

static PyObject *
func_get_name(PyObject *self, void *closure)
{
    return Py_NewRef(((PyFunctionObject *)self)->func_name);
}

static int
func_set_name(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL || !PyUnicode_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__name__ must be set to a string object");
        return -1;
    }
    Py_SETREF(((PyFunctionObject *)self)->func_name, Py_NewRef(value));
    return 0;
}

static PyObject *
func_get_qualname(PyObject *self, void *closure)
{
    return Py_NewRef(((PyFunctionObject *)self)->func_qualname);
}

static int
func_set_qualname(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL || !PyUnicode_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__qualname__ must be set to a string object");
        return -1;
    }
    Py_SETREF(((PyFunctionObject *)self)->func_qualname, Py_NewRef(value));
    return 0;
}

static PyObject *
func_get_defaults(PyObject *self, void *closure)
{
    PyObject *d = ((PyFunctionObject *)self)->func_defaults;
    return Py_NewRef(d == NULL ? Py_None : d);
}

static int
func_set_defaults(PyObject *self, PyObject *value, void *closure)
{
    if (value != NULL && value != Py_None && !PyTuple_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__defaults__ must be set to a tuple object");
        return -1;
    }
    return PyFunction_SetDefaults(self, value);
}

static PyObject *
func_get_kwdefaults(PyObject *self, void *closure)
{
    PyObject *d = ((PyFunctionObject *)self)->func_kwdefaults;
    return Py_NewRef(d == NULL ? Py_None : d);
}

static int
func_set_kwdefaults(PyObject *self, PyObject *value, void *closure)
{
    if (value != NULL && value != Py_None && !PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__kwdefaults__ must be set to a dict object");
        return -1;
    }
    return PyFunction_SetKwDefaults(self, value);
}

/* The compiler may hand over annotations as a flat tuple of name/value
   pairs (cheaper to build than a dict); turn it into the dict users see. */
static PyObject *
annotations_from_pairs(PyObject *pairs)
{
    Py_ssize_t n = PyTuple_GET_SIZE(pairs);
    PyObject *dict = PyDict_New();
    if (dict == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i + 1 < n; i += 2) {
        if (PyDict_SetItem(dict, PyTuple_GET_ITEM(pairs, i), PyTuple_GET_ITEM(pairs, i + 1)) < 0) {
            Py_DECREF(dict);
            return NULL;
        }
    }
    return dict;
}

/* PEP 649: annotations are computed on first access by calling
   __annotate__(1) (format VALUE), then cached. */
static PyObject *
func_get_annotations(PyObject *self, void *closure)
{
    PyFunctionObject *op = (PyFunctionObject *)self;
    if (op->func_annotations != NULL && PyTuple_Check(op->func_annotations)) {
        PyObject *dict = annotations_from_pairs(op->func_annotations);
        if (dict == NULL) {
            return NULL;
        }
        Py_SETREF(op->func_annotations, dict);
    }
    if (op->func_annotations == NULL) {
        PyObject *ann;
        if (op->func_annotate != NULL && op->func_annotate != Py_None) {
            PyObject *format = PyLong_FromLong(1);
            if (format == NULL) {
                return NULL;
            }
            ann = PyObject_CallOneArg(op->func_annotate, format);
            Py_DECREF(format);
            if (ann == NULL) {
                return NULL;
            }
            if (!PyDict_Check(ann)) {
                PyErr_Format(PyExc_TypeError, "__annotate__ returned non-dict of type '%.100s'",
                             Py_TYPE(ann)->tp_name);
                Py_DECREF(ann);
                return NULL;
            }
        }
        else {
            ann = PyDict_New();
            if (ann == NULL) {
                return NULL;
            }
        }
        op->func_annotations = ann;
    }
    return Py_NewRef(op->func_annotations);
}

static int
func_set_annotations(PyObject *self, PyObject *value, void *closure)
{
    PyFunctionObject *op = (PyFunctionObject *)self;
    if (value == Py_None) {
        value = NULL;
    }
    if (value != NULL && !PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotations__ must be set to a dict object");
        return -1;
    }
    Py_XSETREF(op->func_annotations, Py_XNewRef(value));
    Py_XSETREF(op->func_annotate, Py_NewRef(Py_None));
    return 0;
}

static PyObject *
func_get_annotate(PyObject *self, void *closure)
{
    PyObject *a = ((PyFunctionObject *)self)->func_annotate;
    return Py_NewRef(a == NULL ? Py_None : a);
}

static int
func_set_annotate(PyObject *self, PyObject *value, void *closure)
{
    PyFunctionObject *op = (PyFunctionObject *)self;
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ cannot be deleted");
        return -1;
    }
    if (value == Py_None) {
        Py_XSETREF(op->func_annotate, Py_NewRef(value));
        return 0;
    }
    if (!PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ must be callable or None");
        return -1;
    }
    Py_XSETREF(op->func_annotate, Py_NewRef(value));
    Py_CLEAR(op->func_annotations);
    return 0;
}

static PyObject *
func_get_type_params(PyObject *self, void *closure)
{
    PyObject *tp = ((PyFunctionObject *)self)->func_typeparams;
    if (tp == NULL) {
        return PyTuple_New(0);
    }
    return Py_NewRef(tp);
}

static int
func_set_type_params(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL || !PyTuple_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__type_params__ must be set to a tuple");
        return -1;
    }
    Py_XSETREF(((PyFunctionObject *)self)->func_typeparams, Py_NewRef(value));
    return 0;
}

static PyGetSetDef func_getsetlist[] = {
    {"__code__", func_get_code, func_set_code, NULL, NULL},
    {"__defaults__", func_get_defaults, func_set_defaults, NULL, NULL},
    {"__kwdefaults__", func_get_kwdefaults, func_set_kwdefaults, NULL, NULL},
    {"__annotations__", func_get_annotations, func_set_annotations, NULL, NULL},
    {"__annotate__", func_get_annotate, func_set_annotate, NULL, NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"__name__", func_get_name, func_set_name, NULL, NULL},
    {"__qualname__", func_get_qualname, func_set_qualname, NULL, NULL},
    {"__type_params__", func_get_type_params, func_set_type_params, NULL, NULL},
    {NULL},
};

#define FOFF(x) offsetof(PyFunctionObject, x)
static PyMemberDef func_memberlist[] = {
    {"__closure__", _Py_T_OBJECT, FOFF(func_closure), Py_READONLY, NULL},
    {"__doc__", _Py_T_OBJECT, FOFF(func_doc), 0, NULL},
    {"__globals__", _Py_T_OBJECT, FOFF(func_globals), Py_READONLY, NULL},
    {"__module__", _Py_T_OBJECT, FOFF(func_module), 0, NULL},
    {"__builtins__", _Py_T_OBJECT, FOFF(func_builtins), Py_READONLY, NULL},
    {NULL},
};
#undef FOFF

/* ---- function(code, globals, name=None, argdefs=None, closure=None,
                 kwdefaults=None) ------------------------------------------ */

static int
check_closure(PyCodeObject *code, PyObject *closure)
{
    Py_ssize_t nfree = code->co_nfreevars;
    if (closure == Py_None) {
        if (nfree > 0) {
            PyErr_SetString(PyExc_TypeError, "arg 5 (closure) must be tuple");
            return -1;
        }
        return 0;
    }
    if (!PyTuple_Check(closure)) {
        PyErr_SetString(PyExc_TypeError, "arg 5 (closure) must be None or tuple");
        return -1;
    }
    Py_ssize_t nclosure = PyTuple_GET_SIZE(closure);
    if (nclosure != nfree) {
        PyErr_Format(PyExc_ValueError, "%U requires closure of length %zd, not %zd",
                     code->co_name, nfree, nclosure);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nclosure; i++) {
        PyObject *cell = PyTuple_GET_ITEM(closure, i);
        if (!PyCell_Check(cell)) {
            PyErr_Format(PyExc_TypeError, "arg 5 (closure) expected cell, found %s",
                         Py_TYPE(cell)->tp_name);
            return -1;
        }
    }
    return 0;
}

static PyObject *
func_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"code", "globals", "name", "argdefs", "closure", "kwdefaults", NULL};
    PyObject *code, *globals, *name = Py_None, *defaults = Py_None;
    PyObject *closure = Py_None, *kwdefaults = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OOOO:function", kwlist, &code, &globals,
                                     &name, &defaults, &closure, &kwdefaults)) {
        return NULL;
    }
    if (!PyCode_Check(code)) {
        PyErr_Format(PyExc_TypeError, "function() argument 'code' must be code, not %.200s",
                     Py_TYPE(code)->tp_name);
        return NULL;
    }
    if (!PyDict_Check(globals)) {
        PyErr_Format(PyExc_TypeError, "function() argument 'globals' must be dict, not %.200s",
                     Py_TYPE(globals)->tp_name);
        return NULL;
    }
    if (name != Py_None && !PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "arg 3 (name) must be None or string");
        return NULL;
    }
    if (defaults != Py_None && !PyTuple_Check(defaults)) {
        PyErr_SetString(PyExc_TypeError, "arg 4 (defaults) must be None or tuple");
        return NULL;
    }
    if (check_closure((PyCodeObject *)code, closure) < 0) {
        return NULL;
    }
    if (kwdefaults != Py_None && !PyDict_Check(kwdefaults)) {
        PyErr_SetString(PyExc_TypeError, "arg 6 (kwdefaults) must be None or dict");
        return NULL;
    }
    PyFunctionObject *op = (PyFunctionObject *)PyFunction_New(code, globals);
    if (op == NULL) {
        return NULL;
    }
    if (name != Py_None) {
        Py_SETREF(op->func_name, Py_NewRef(name));
    }
    if (defaults != Py_None) {
        op->func_defaults = Py_NewRef(defaults);
    }
    if (closure != Py_None) {
        op->func_closure = Py_NewRef(closure);
    }
    if (kwdefaults != Py_None) {
        op->func_kwdefaults = Py_NewRef(kwdefaults);
    }
    return (PyObject *)op;
}

/* ---- Lifetime ------------------------------------------------------------------ */

static int
func_clear(PyObject *self)
{
    PyFunctionObject *op = (PyFunctionObject *)self;
    op->func_version = 0;
    Py_CLEAR(op->func_globals);
    Py_CLEAR(op->func_builtins);
    Py_CLEAR(op->func_module);
    Py_CLEAR(op->func_defaults);
    Py_CLEAR(op->func_kwdefaults);
    Py_CLEAR(op->func_doc);
    Py_CLEAR(op->func_dict);
    Py_CLEAR(op->func_closure);
    Py_CLEAR(op->func_annotations);
    Py_CLEAR(op->func_annotate);
    Py_CLEAR(op->func_typeparams);
    /* Name and qualname are read without NULL checks (repr, errors), so
       they become empty strings rather than NULL. */
    Py_SETREF(op->func_name, Py_NewRef(_PyUnicode_GetEmpty()));
    Py_SETREF(op->func_qualname, Py_NewRef(_PyUnicode_GetEmpty()));
    return 0;
}

static void
func_dealloc(PyObject *self)
{
    PyFunctionObject *op = (PyFunctionObject *)self;
    PyObject_GC_UnTrack(self);
    if (op->func_weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    (void)func_clear(self);
    Py_DECREF(op->func_code);
    Py_DECREF(op->func_name);
    Py_DECREF(op->func_qualname);
    PyObject_GC_Del(self);
}

static int
func_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyFunctionObject *f = (PyFunctionObject *)self;
    Py_VISIT(f->func_code);
    Py_VISIT(f->func_globals);
    Py_VISIT(f->func_builtins);
    Py_VISIT(f->func_module);
    Py_VISIT(f->func_defaults);
    Py_VISIT(f->func_kwdefaults);
    Py_VISIT(f->func_doc);
    Py_VISIT(f->func_name);
    Py_VISIT(f->func_dict);
    Py_VISIT(f->func_closure);
    Py_VISIT(f->func_annotations);
    Py_VISIT(f->func_annotate);
    Py_VISIT(f->func_typeparams);
    Py_VISIT(f->func_qualname);
    return 0;
}

static PyObject *
func_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<function %U at %p>", ((PyFunctionObject *)self)->func_qualname,
                                self);
}

/* Looking a function up on an instance binds it. */
static PyObject *
func_descr_get(PyObject *func, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(func);
    }
    return PyMethod_New(func, obj);
}

PyTypeObject PyFunction_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "function",
    .tp_basicsize = sizeof(PyFunctionObject),
    .tp_dealloc = func_dealloc,
    .tp_vectorcall_offset = offsetof(PyFunctionObject, vectorcall),
    .tp_repr = func_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "function(code, globals, name=None, argdefs=None, closure=None, kwdefaults=None)\n"
              "--\n\n"
              "A Python function: code plus the globals it runs in, its defaults and\n"
              "its closure.",
    .tp_traverse = func_traverse,
    .tp_clear = func_clear,
    .tp_weaklistoffset = offsetof(PyFunctionObject, func_weakreflist),
    .tp_members = func_memberlist,
    .tp_getset = func_getsetlist,
    .tp_descr_get = func_descr_get,
    .tp_dictoffset = offsetof(PyFunctionObject, func_dict),
    .tp_new = func_new,
};

/* ---- classmethod and staticmethod ---------------------------------------------- */

typedef _PyClassMethodObject wrapper_object;

static int
wrapper_traverse(PyObject *self, visitproc visit, void *arg)
{
    wrapper_object *cm = (wrapper_object *)self;
    Py_VISIT(cm->cm_callable);
    Py_VISIT(cm->cm_dict);
    return 0;
}

static int
wrapper_clear(PyObject *self)
{
    wrapper_object *cm = (wrapper_object *)self;
    Py_CLEAR(cm->cm_callable);
    Py_CLEAR(cm->cm_dict);
    return 0;
}

static void
wrapper_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    (void)wrapper_clear(self);
    Py_TYPE(self)->tp_free(self);
}

/* Like functools.wraps: make the wrapper look like what it wraps. */
static int
copy_wrapped_attrs(wrapper_object *cm)
{
    static const char *const names[] = {"__module__", "__name__", "__qualname__", "__doc__"};
    if (cm->cm_dict == NULL) {
        cm->cm_dict = PyDict_New();
        if (cm->cm_dict == NULL) {
            return -1;
        }
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(names); i++) {
        PyObject *value;
        int r = PyObject_GetOptionalAttrString(cm->cm_callable, names[i], &value);
        if (r < 0) {
            return -1;
        }
        if (r == 0) {
            continue;
        }
        r = PyDict_SetItemString(cm->cm_dict, names[i], value);
        Py_DECREF(value);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

static int
wrapper_init_common(PyObject *self, PyObject *args, PyObject *kwds, const char *name)
{
    wrapper_object *cm = (wrapper_object *)self;
    PyObject *callable;
    if (!_PyArg_NoKeywords(name, kwds)) {
        return -1;
    }
    if (!PyArg_UnpackTuple(args, name, 1, 1, &callable)) {
        return -1;
    }
    Py_XSETREF(cm->cm_callable, Py_NewRef(callable));
    return copy_wrapped_attrs(cm);
}

static int
cm_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return wrapper_init_common(self, args, kwds, "classmethod");
}

static int
sm_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return wrapper_init_common(self, args, kwds, "staticmethod");
}

static PyObject *
cm_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    wrapper_object *cm = (wrapper_object *)self;
    if (cm->cm_callable == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "uninitialized classmethod object");
        return NULL;
    }
    if (type == NULL) {
        type = (PyObject *)Py_TYPE(obj);
    }
    return PyMethod_New(cm->cm_callable, type);
}

static PyObject *
sm_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    wrapper_object *sm = (wrapper_object *)self;
    if (sm->cm_callable == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "uninitialized staticmethod object");
        return NULL;
    }
    return Py_NewRef(sm->cm_callable);
}

static PyObject *
sm_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return PyObject_Call(((wrapper_object *)self)->cm_callable, args, kwargs);
}

static PyObject *
cm_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<classmethod(%R)>", ((wrapper_object *)self)->cm_callable);
}

static PyObject *
sm_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<staticmethod(%R)>", ((wrapper_object *)self)->cm_callable);
}

static PyObject *
wrapper_get_isabstract(PyObject *self, void *closure)
{
    PyObject *callable = ((wrapper_object *)self)->cm_callable;
    PyObject *flag;
    int r = PyObject_GetOptionalAttrString(callable, "__isabstractmethod__", &flag);
    if (r <= 0) {
        if (r == 0) {
            Py_RETURN_FALSE;
        }
        return NULL;
    }
    r = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    if (r < 0) {
        return NULL;
    }
    return PyBool_FromLong(r);
}

/* __annotations__ and __annotate__ come from the wrapped callable on first
   access and are then kept in the wrapper's __dict__, so they can be
   overridden per wrapper. */
static PyObject *
wrapper_get_wrapped_attr(PyObject *self, void *closure)
{
    wrapper_object *cm = (wrapper_object *)self;
    const char *name = closure;
    if (cm->cm_dict == NULL) {
        cm->cm_dict = PyDict_New();
        if (cm->cm_dict == NULL) {
            return NULL;
        }
    }
    PyObject *value;
    int r = PyDict_GetItemStringRef(cm->cm_dict, name, &value);
    if (r != 0) {
        return r < 0 ? NULL : value;
    }
    value = PyObject_GetAttrString(cm->cm_callable, name);
    if (value == NULL) {
        return NULL;
    }
    if (PyDict_SetItemString(cm->cm_dict, name, value) < 0) {
        Py_DECREF(value);
        return NULL;
    }
    return value;
}

static int
wrapper_set_wrapped_attr(PyObject *self, PyObject *value, void *closure)
{
    wrapper_object *cm = (wrapper_object *)self;
    const char *name = closure;
    if (cm->cm_dict == NULL) {
        cm->cm_dict = PyDict_New();
        if (cm->cm_dict == NULL) {
            return -1;
        }
    }
    if (value != NULL) {
        return PyDict_SetItemString(cm->cm_dict, name, value);
    }
    int r = PyDict_ContainsString(cm->cm_dict, name);
    if (r <= 0) {
        if (r == 0) {
            PyErr_SetString(PyExc_AttributeError, name);
        }
        return -1;
    }
    return PyDict_DelItemString(cm->cm_dict, name);
}

static PyGetSetDef wrapper_getsetlist[] = {
    {"__isabstractmethod__", wrapper_get_isabstract, NULL, NULL, NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"__annotations__", wrapper_get_wrapped_attr, wrapper_set_wrapped_attr, NULL,
     (void *)"__annotations__"},
    {"__annotate__", wrapper_get_wrapped_attr, wrapper_set_wrapped_attr, NULL,
     (void *)"__annotate__"},
    {NULL},
};

static PyMemberDef wrapper_memberlist[] = {
    {"__func__", _Py_T_OBJECT, offsetof(wrapper_object, cm_callable), Py_READONLY, NULL},
    {"__wrapped__", _Py_T_OBJECT, offsetof(wrapper_object, cm_callable), Py_READONLY, NULL},
    {NULL},
};

PyTypeObject PyClassMethod_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "classmethod",
    .tp_basicsize = sizeof(wrapper_object),
    .tp_dealloc = wrapper_dealloc,
    .tp_repr = cm_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "classmethod(function, /)\n--\n\n"
              "Turn a function into a class method: looked up on a class or an\n"
              "instance, it is bound to the class.",
    .tp_traverse = wrapper_traverse,
    .tp_clear = wrapper_clear,
    .tp_members = wrapper_memberlist,
    .tp_getset = wrapper_getsetlist,
    .tp_descr_get = cm_descr_get,
    .tp_dictoffset = offsetof(wrapper_object, cm_dict),
    .tp_init = cm_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
};

PyTypeObject PyStaticMethod_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "staticmethod",
    .tp_basicsize = sizeof(wrapper_object),
    .tp_dealloc = wrapper_dealloc,
    .tp_repr = sm_repr,
    .tp_call = sm_call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "staticmethod(function, /)\n--\n\n"
              "Turn a function into a static method: looked up on a class or an\n"
              "instance, it is returned unbound.",
    .tp_traverse = wrapper_traverse,
    .tp_clear = wrapper_clear,
    .tp_members = wrapper_memberlist,
    .tp_getset = wrapper_getsetlist,
    .tp_descr_get = sm_descr_get,
    .tp_dictoffset = offsetof(wrapper_object, cm_dict),
    .tp_init = sm_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
};

static PyObject *
wrapper_new(PyTypeObject *type, PyObject *callable)
{
    wrapper_object *cm = (wrapper_object *)PyType_GenericAlloc(type, 0);
    if (cm != NULL) {
        cm->cm_callable = Py_NewRef(callable);
    }
    return (PyObject *)cm;
}

PyObject *
PyClassMethod_New(PyObject *callable)
{
    return wrapper_new(&PyClassMethod_Type, callable);
}

PyObject *
PyStaticMethod_New(PyObject *callable)
{
    return wrapper_new(&PyStaticMethod_Type, callable);
}
