/* The built-in exception classes.

   Every class is a static type.  Most share BaseException's layout and
   behaviour and differ only in name and place in the hierarchy; the rest
   (SyntaxError, OSError, ImportError, the Unicode errors, ...) add fields
   declared in Include/pyerrors.h.  ExceptionGroup is the one class with
   two bases (BaseExceptionGroup and Exception); its tp_bases is filled in
   by _PyExc_InitTypes before the type is readied.

   Exceptions are GC objects: a traceback refers to frames, whose locals
   often refer back to the exception. */

#include "Python.h"
#include "pycore_call.h"
#include "pycore_exceptions.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_tuple.h"
#include "pycore_unicodeobject.h"

#define EXC_FLAGS \
    (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASE_EXC_SUBCLASS)

typedef PyBaseExceptionObject BaseExc;

static PyObject *
cached_id(PyObject **slot, const char *s)
{
    if (*slot == NULL) {
        *slot = _PyUnicode_InternImmortal(s);
    }
    return *slot;
}

static PyObject *
id_notes(void)
{
    static PyObject *cache;
    return cached_id(&cache, "__notes__");
}

/* ---- BaseException ------------------------------------------------------- */

static PyObject *
BaseException_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    BaseExc *self = (BaseExc *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->dict = NULL;
    self->notes = NULL;
    self->traceback = self->cause = self->context = NULL;
    self->suppress_context = 0;
    self->args = args != NULL ? Py_NewRef(args) : PyTuple_New(0);
    if (self->args == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int
BaseException_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    if (!_PyArg_NoKeywords(Py_TYPE(op)->tp_name, kwds)) {
        return -1;
    }
    Py_XSETREF(((BaseExc *)op)->args, Py_NewRef(args));
    return 0;
}

/* Calling a plain exception class: skip the tuple/dict round trip.  Types
   that override __new__ or __init__ go the normal way. */
static PyObject *
BaseException_vectorcall(PyObject *type_obj, PyObject *const *args, size_t nargsf,
                         PyObject *kwnames)
{
    PyTypeObject *type = (PyTypeObject *)type_obj;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (type->tp_new != BaseException_new || type->tp_init != BaseException_init) {
        return _PyObject_MakeTpCall(type_obj, args, nargs, kwnames);
    }
    if (!_PyArg_NoKwnames(type->tp_name, kwnames)) {
        return NULL;
    }
    BaseExc *self = (BaseExc *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->args = _PyTuple_FromArray(args, nargs);
    if (self->args == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int
BaseException_clear(PyObject *op)
{
    BaseExc *self = (BaseExc *)op;
    Py_CLEAR(self->dict);
    Py_CLEAR(self->args);
    Py_CLEAR(self->notes);
    Py_CLEAR(self->traceback);
    Py_CLEAR(self->cause);
    Py_CLEAR(self->context);
    return 0;
}

static void
BaseException_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    (void)Py_TYPE(op)->tp_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static int
BaseException_traverse(PyObject *op, visitproc visit, void *arg)
{
    BaseExc *self = (BaseExc *)op;
    Py_VISIT(self->dict);
    Py_VISIT(self->args);
    Py_VISIT(self->notes);
    Py_VISIT(self->traceback);
    Py_VISIT(self->cause);
    Py_VISIT(self->context);
    return 0;
}

static PyObject *
BaseException_str(PyObject *op)
{
    BaseExc *self = (BaseExc *)op;
    switch (PyTuple_GET_SIZE(self->args)) {
    case 0:
        return Py_NewRef(_PyUnicode_GetEmpty());
    case 1:
        return PyObject_Str(PyTuple_GET_ITEM(self->args, 0));
    default:
        return PyObject_Str(self->args);
    }
}

static PyObject *
BaseException_repr(PyObject *op)
{
    BaseExc *self = (BaseExc *)op;
    const char *name = _PyType_Name(Py_TYPE(self));
    if (PyTuple_GET_SIZE(self->args) == 1) {
        return PyUnicode_FromFormat("%s(%R)", name, PyTuple_GET_ITEM(self->args, 0));
    }
    return PyUnicode_FromFormat("%s%R", name, self->args);
}

static PyObject *
BaseException_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    BaseExc *self = (BaseExc *)op;
    if (self->args != NULL && self->dict != NULL) {
        return PyTuple_Pack(3, Py_TYPE(self), self->args, self->dict);
    }
    return PyTuple_Pack(2, Py_TYPE(self), self->args);
}

static PyObject *
BaseException_setstate(PyObject *self, PyObject *state)
{
    if (state == Py_None) {
        Py_RETURN_NONE;
    }
    if (!PyDict_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "state is not a dictionary");
        return NULL;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(state, &pos, &key, &value)) {
        Py_INCREF(key);
        Py_INCREF(value);
        int r = PyObject_SetAttr(self, key, value);
        Py_DECREF(key);
        Py_DECREF(value);
        if (r < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
BaseException_with_traceback(PyObject *self, PyObject *tb)
{
    if (PyException_SetTraceback(self, tb) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

/* Notes live in the instance dict as __notes__ (a list), so that users
   may replace or delete them like any attribute. */
static PyObject *
BaseException_add_note(PyObject *self, PyObject *note)
{
    if (!PyUnicode_Check(note)) {
        PyErr_Format(PyExc_TypeError, "note must be a str, not '%s'", Py_TYPE(note)->tp_name);
        return NULL;
    }
    PyObject *notes;
    if (PyObject_GetOptionalAttr(self, id_notes(), &notes) < 0) {
        return NULL;
    }
    if (notes == NULL) {
        notes = PyList_New(0);
        if (notes == NULL) {
            return NULL;
        }
        if (PyObject_SetAttr(self, id_notes(), notes) < 0) {
            Py_DECREF(notes);
            return NULL;
        }
    }
    else if (!PyList_Check(notes)) {
        Py_DECREF(notes);
        PyErr_SetString(PyExc_TypeError, "Cannot add note: __notes__ is not a list");
        return NULL;
    }
    int r = PyList_Append(notes, note);
    Py_DECREF(notes);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef BaseException_methods[] = {
    {"__reduce__", BaseException_reduce, METH_NOARGS, NULL},
    {"__setstate__", BaseException_setstate, METH_O, NULL},
    {"with_traceback", BaseException_with_traceback, METH_O,
     "with_traceback($self, tb, /)\n--\n\nSet self.__traceback__ to tb and return self."},
    {"add_note", BaseException_add_note, METH_O,
     "add_note($self, note, /)\n--\n\nAdd a note (a str) shown after the exception in tracebacks."},
    {NULL},
};

static PyObject *
BaseException_get_args(PyObject *op, void *closure)
{
    PyObject *args = ((BaseExc *)op)->args;
    return Py_NewRef(args != NULL ? args : Py_None);
}

static int
BaseException_set_args(PyObject *op, PyObject *val, void *closure)
{
    if (val == NULL) {
        PyErr_SetString(PyExc_TypeError, "args may not be deleted");
        return -1;
    }
    PyObject *seq = PySequence_Tuple(val);
    if (seq == NULL) {
        return -1;
    }
    Py_XSETREF(((BaseExc *)op)->args, seq);
    return 0;
}

static PyObject *
BaseException_get_tb(PyObject *op, void *closure)
{
    PyObject *tb = ((BaseExc *)op)->traceback;
    return Py_NewRef(tb != NULL ? tb : Py_None);
}

static int
BaseException_set_tb(PyObject *op, PyObject *tb, void *closure)
{
    if (tb == NULL) {
        PyErr_SetString(PyExc_TypeError, "__traceback__ may not be deleted");
        return -1;
    }
    if (tb == Py_None) {
        Py_CLEAR(((BaseExc *)op)->traceback);
        return 0;
    }
    if (!PyTraceBack_Check(tb)) {
        PyErr_SetString(PyExc_TypeError, "__traceback__ must be a traceback or None");
        return -1;
    }
    Py_XSETREF(((BaseExc *)op)->traceback, Py_NewRef(tb));
    return 0;
}

static PyObject *
BaseException_get_context(PyObject *op, void *closure)
{
    PyObject *ctx = ((BaseExc *)op)->context;
    return Py_NewRef(ctx != NULL ? ctx : Py_None);
}

static int
BaseException_set_context(PyObject *op, PyObject *arg, void *closure)
{
    if (arg == NULL) {
        PyErr_SetString(PyExc_TypeError, "__context__ may not be deleted");
        return -1;
    }
    if (arg == Py_None) {
        arg = NULL;
    }
    else if (!PyExceptionInstance_Check(arg)) {
        PyErr_SetString(PyExc_TypeError,
                        "exception context must be None or derive from BaseException");
        return -1;
    }
    Py_XSETREF(((BaseExc *)op)->context, Py_XNewRef(arg));
    return 0;
}

static PyObject *
BaseException_get_cause(PyObject *op, void *closure)
{
    PyObject *cause = ((BaseExc *)op)->cause;
    return Py_NewRef(cause != NULL ? cause : Py_None);
}

static int
BaseException_set_cause(PyObject *op, PyObject *arg, void *closure)
{
    if (arg == NULL) {
        PyErr_SetString(PyExc_TypeError, "__cause__ may not be deleted");
        return -1;
    }
    if (arg == Py_None) {
        arg = NULL;
    }
    else if (!PyExceptionInstance_Check(arg)) {
        PyErr_SetString(PyExc_TypeError,
                        "exception cause must be None or derive from BaseException");
        return -1;
    }
    BaseExc *self = (BaseExc *)op;
    self->suppress_context = 1;
    Py_XSETREF(self->cause, Py_XNewRef(arg));
    return 0;
}

static PyGetSetDef BaseException_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"args", BaseException_get_args, BaseException_set_args, NULL, NULL},
    {"__traceback__", BaseException_get_tb, BaseException_set_tb, NULL, NULL},
    {"__context__", BaseException_get_context, BaseException_set_context,
     "exception context", NULL},
    {"__cause__", BaseException_get_cause, BaseException_set_cause, "exception cause", NULL},
    {NULL},
};

static PyMemberDef BaseException_members[] = {
    {"__suppress_context__", Py_T_BOOL, offsetof(PyBaseExceptionObject, suppress_context), 0,
     NULL},
    {NULL},
};

/* ---- C accessors ----------------------------------------------------------- */

PyObject *
PyException_GetTraceback(PyObject *self)
{
    return Py_XNewRef(((BaseExc *)self)->traceback);
}

int
PyException_SetTraceback(PyObject *self, PyObject *tb)
{
    return BaseException_set_tb(self, tb ? tb : Py_None, NULL);
}

PyObject *
PyException_GetCause(PyObject *self)
{
    return Py_XNewRef(((BaseExc *)self)->cause);
}

void
PyException_SetCause(PyObject *self, PyObject *cause)
{
    BaseExc *exc = (BaseExc *)self;
    exc->suppress_context = 1;
    Py_XSETREF(exc->cause, cause);
}

PyObject *
PyException_GetContext(PyObject *self)
{
    return Py_XNewRef(((BaseExc *)self)->context);
}

void
PyException_SetContext(PyObject *self, PyObject *context)
{
    Py_XSETREF(((BaseExc *)self)->context, context);
}

PyObject *
PyException_GetArgs(PyObject *self)
{
    return Py_XNewRef(((BaseExc *)self)->args);
}

void
PyException_SetArgs(PyObject *self, PyObject *args)
{
    Py_XSETREF(((BaseExc *)self)->args, Py_XNewRef(args));
}

/* ---- Type definitions: machinery ------------------------------------------- */

#define EXC_TYPE_FULL(NAME, BASE, STRUCT, NEW, INIT, DEALLOC, TRAVERSE, CLEAR, STR, REPR,  \
                      MEMBERS, METHODS, GETSET, VECTORCALL, DOC)                           \
    static PyTypeObject _PyExc_##NAME = {                                                  \
        PyVarObject_HEAD_INIT(&PyType_Type, 0)                                             \
        .tp_name = #NAME,                                                                  \
        .tp_basicsize = sizeof(STRUCT),                                                    \
        .tp_dealloc = DEALLOC,                                                             \
        .tp_repr = REPR,                                                                   \
        .tp_str = STR,                                                                     \
        .tp_getattro = PyObject_GenericGetAttr,                                            \
        .tp_setattro = PyObject_GenericSetAttr,                                            \
        .tp_flags = EXC_FLAGS,                                                             \
        .tp_doc = DOC,                                                                     \
        .tp_traverse = TRAVERSE,                                                           \
        .tp_clear = CLEAR,                                                                 \
        .tp_methods = METHODS,                                                             \
        .tp_members = MEMBERS,                                                             \
        .tp_getset = GETSET,                                                               \
        .tp_base = BASE,                                                                   \
        .tp_dictoffset = offsetof(PyBaseExceptionObject, dict),                            \
        .tp_init = INIT,                                                                   \
        .tp_alloc = PyType_GenericAlloc,                                                   \
        .tp_new = NEW,                                                                     \
        .tp_free = PyObject_GC_Del,                                                        \
        .tp_vectorcall = VECTORCALL,                                                       \
    };                                                                                     \
    PyObject *PyExc_##NAME = (PyObject *)&_PyExc_##NAME;

/* Same layout and behaviour as the base, new name. */
#define SIMPLE_EXC(NAME, BASE, DOC)                                                        \
    EXC_TYPE_FULL(NAME, &_PyExc_##BASE, PyBaseExceptionObject, BaseException_new,          \
                  BaseException_init, BaseException_dealloc, BaseException_traverse,       \
                  BaseException_clear, NULL, NULL, NULL, NULL, NULL,                       \
                  BaseException_vectorcall, DOC)

/* A type with its own layout (STRUCT) and functions named PREFIX_xxx. */
#define COMPLEX_EXC(NAME, BASE, STRUCT, PREFIX, STR, MEMBERS, METHODS, GETSET, DOC)        \
    EXC_TYPE_FULL(NAME, &_PyExc_##BASE, STRUCT, PREFIX##_new, PREFIX##_init,               \
                  PREFIX##_dealloc, PREFIX##_traverse, PREFIX##_clear, STR, NULL, MEMBERS, \
                  METHODS, GETSET, NULL, DOC)

/* A type sharing the layout and functions of its complex base. */
#define SUBCLASS_EXC(NAME, BASE, STRUCT, PREFIX, DOC)                                      \
    COMPLEX_EXC(NAME, BASE, STRUCT, PREFIX, NULL, NULL, NULL, NULL, DOC)

EXC_TYPE_FULL(BaseException, NULL, PyBaseExceptionObject, BaseException_new,
              BaseException_init, BaseException_dealloc, BaseException_traverse,
              BaseException_clear, BaseException_str, BaseException_repr,
              BaseException_members, BaseException_methods, BaseException_getset,
              BaseException_vectorcall, "The root of the exception hierarchy.")

SIMPLE_EXC(Exception, BaseException, "Base of all exceptions that are not exits or interrupts.")
SIMPLE_EXC(TypeError, Exception, "An operation got an argument of the wrong type.")
SIMPLE_EXC(StopAsyncIteration, Exception, "Raised by an async iterator's __anext__ at its end.")
SIMPLE_EXC(GeneratorExit, BaseException, "Thrown into a generator or coroutine to close it.")
SIMPLE_EXC(KeyboardInterrupt, BaseException, "The user interrupted the program (Ctrl-C).")
SIMPLE_EXC(RuntimeError, Exception, "An error that fits no other category.")
SIMPLE_EXC(NotImplementedError, RuntimeError, "Something is not implemented (yet).")
SIMPLE_EXC(PythonFinalizationError, RuntimeError,
           "The operation is not possible while the interpreter shuts down.")
SIMPLE_EXC(RecursionError, RuntimeError, "The maximum recursion depth was exceeded.")
SIMPLE_EXC(EOFError, Exception, "Input ended unexpectedly.")
SIMPLE_EXC(AssertionError, Exception, "An assert statement failed.")
SIMPLE_EXC(LookupError, Exception, "A key or index was not found.")
SIMPLE_EXC(IndexError, LookupError, "A sequence index is out of range.")
/* KeyError shows its key as repr: str(KeyError('')) must not be empty. */
static PyObject *
KeyError_str(PyObject *op)
{
    BaseExc *self = (BaseExc *)op;
    if (PyTuple_GET_SIZE(self->args) == 1) {
        return PyObject_Repr(PyTuple_GET_ITEM(self->args, 0));
    }
    return BaseException_str(op);
}

EXC_TYPE_FULL(KeyError, &_PyExc_LookupError, PyBaseExceptionObject, BaseException_new,
              BaseException_init, BaseException_dealloc, BaseException_traverse,
              BaseException_clear, KeyError_str, NULL, NULL, NULL, NULL,
              BaseException_vectorcall, "A mapping key was not found.")
SIMPLE_EXC(ValueError, Exception, "An argument has the right type but an unsuitable value.")
SIMPLE_EXC(UnicodeError, ValueError, "Unicode encoding or decoding failed.")
SIMPLE_EXC(ArithmeticError, Exception, "A numeric operation failed.")
SIMPLE_EXC(FloatingPointError, ArithmeticError, "A floating point operation failed.")
SIMPLE_EXC(OverflowError, ArithmeticError, "A result is too large to be represented.")
SIMPLE_EXC(ZeroDivisionError, ArithmeticError, "The second operand of a division or modulo is zero.")
SIMPLE_EXC(SystemError, Exception,
           "An internal error of the interpreter (please report it).")
SIMPLE_EXC(ReferenceError, Exception, "A weak reference proxy's referent is gone.")
/* ---- MemoryError: raised without memory --------------------------------------

   PyErr_NoMemory must work when the allocator refuses everything (a full
   heap, or _testinternalcapi.set_nomemory).  Instances for it come from a
   reserve filled at start-up; an exact MemoryError that dies goes back into
   the reserve instead of being freed.  Only when the reserve is empty is a
   new one allocated, and should that fail too, one immortal instance made
   at start-up is shared. */
#define MEMERROR_RESERVE_SIZE 16
static PyObject *memerror_reserve[MEMERROR_RESERVE_SIZE];
static int memerror_reserved;
static PyObject *memerror_last_resort;

static void MemoryError_dealloc(PyObject *op);

EXC_TYPE_FULL(MemoryError, &_PyExc_Exception, PyBaseExceptionObject, BaseException_new,
              BaseException_init, MemoryError_dealloc, BaseException_traverse,
              BaseException_clear, NULL, NULL, NULL, NULL, NULL, BaseException_vectorcall,
              "Memory ran out.")

static void
MemoryError_dealloc(PyObject *op)
{
    if (!Py_IS_TYPE(op, &_PyExc_MemoryError) || memerror_reserved == MEMERROR_RESERVE_SIZE) {
        BaseException_dealloc(op);
        return;
    }
    PyObject_GC_UnTrack(op);
    (void)BaseException_clear(op);
    memerror_reserve[memerror_reserved++] = op;
}

static PyObject *
memerror_from_reserve(void)
{
    PyObject *op = memerror_reserve[--memerror_reserved];
    _PyObject_Init(op, &_PyExc_MemoryError);
    ((BaseExc *)op)->args = _PyTuple_EMPTY;
    PyObject_GC_Track(op);
    return op;
}

PyObject *
_PyExc_NewMemoryError(void)
{
    static int allocating; /* the allocation below fails into PyErr_NoMemory */
    if (memerror_reserved > 0) {
        return memerror_from_reserve();
    }
    if (!allocating) {
        allocating = 1;
        PyObject *exc = PyObject_CallNoArgs(PyExc_MemoryError);
        allocating = 0;
        if (exc != NULL) {
            return exc;
        }
        PyErr_Clear();
    }
    return Py_NewRef(memerror_last_resort);
}

static int
memerror_fill_reserve(void)
{
    if (memerror_last_resort == NULL) {
        memerror_last_resort = PyObject_CallNoArgs(PyExc_MemoryError);
        if (memerror_last_resort == NULL) {
            return -1;
        }
        PyObject_GC_UnTrack(memerror_last_resort);
        _Py_SetImmortal(memerror_last_resort);
    }
    while (memerror_reserved < MEMERROR_RESERVE_SIZE) {
        PyObject *exc = PyObject_CallNoArgs(PyExc_MemoryError);
        if (exc == NULL) {
            return -1;
        }
        Py_DECREF(exc); /* its dealloc puts it in the reserve */
    }
    return 0;
}

SIMPLE_EXC(BufferError, Exception, "A buffer operation failed.")
SIMPLE_EXC(Warning, Exception, "Base of all warning categories.")
SIMPLE_EXC(UserWarning, Warning, "Warnings issued by user code.")
SIMPLE_EXC(EncodingWarning, Warning, "Warnings about text encodings.")
SIMPLE_EXC(DeprecationWarning, Warning, "Warnings about deprecated features.")
SIMPLE_EXC(PendingDeprecationWarning, Warning,
           "Warnings about features that will be deprecated later.")
SIMPLE_EXC(SyntaxWarning, Warning, "Warnings about dubious syntax.")
SIMPLE_EXC(RuntimeWarning, Warning, "Warnings about dubious runtime behaviour.")
SIMPLE_EXC(FutureWarning, Warning, "Warnings about semantics that will change.")
SIMPLE_EXC(ImportWarning, Warning, "Warnings about probable mistakes in module imports.")
SIMPLE_EXC(UnicodeWarning, Warning, "Warnings related to Unicode.")
SIMPLE_EXC(BytesWarning, Warning, "Warnings related to bytes and bytearray.")
SIMPLE_EXC(ResourceWarning, Warning, "Warnings about resource usage.")

/* ---- StopIteration: value ---------------------------------------------------- */

typedef PyStopIterationObject StopIterationObject;

static PyObject *
StopIteration_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return BaseException_new(type, args, kwds);
}

static int
StopIteration_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    if (BaseException_init(op, args, kwds) < 0) {
        return -1;
    }
    PyObject *value = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : Py_None;
    Py_XSETREF(((StopIterationObject *)op)->value, Py_NewRef(value));
    return 0;
}

static int
StopIteration_clear(PyObject *op)
{
    Py_CLEAR(((StopIterationObject *)op)->value);
    return BaseException_clear(op);
}

static void
StopIteration_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
StopIteration_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((StopIterationObject *)op)->value);
    return BaseException_traverse(op, visit, arg);
}

static PyMemberDef StopIteration_members[] = {
    {"value", _Py_T_OBJECT, offsetof(PyStopIterationObject, value), 0,
     "generator return value"},
    {NULL},
};

COMPLEX_EXC(StopIteration, Exception, PyStopIterationObject, StopIteration, NULL,
            StopIteration_members, NULL, NULL, "Raised by an iterator's __next__ at its end.")

/* ---- SystemExit: code --------------------------------------------------------- */

static PyObject *
SystemExit_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return BaseException_new(type, args, kwds);
}

static int
SystemExit_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    if (BaseException_init(op, args, kwds) < 0) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *code = n == 0 ? Py_None : n == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    Py_XSETREF(((PySystemExitObject *)op)->code, Py_NewRef(code));
    return 0;
}

static int
SystemExit_clear(PyObject *op)
{
    Py_CLEAR(((PySystemExitObject *)op)->code);
    return BaseException_clear(op);
}

static void
SystemExit_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
SystemExit_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((PySystemExitObject *)op)->code);
    return BaseException_traverse(op, visit, arg);
}

static PyMemberDef SystemExit_members[] = {
    {"code", _Py_T_OBJECT, offsetof(PySystemExitObject, code), 0, "exception code"},
    {NULL},
};

COMPLEX_EXC(SystemExit, BaseException, PySystemExitObject, SystemExit, NULL, SystemExit_members,
            NULL, NULL, "Asks the interpreter to exit (sys.exit()).")

/* ---- Keyword-only arguments of NameError, AttributeError, ImportError ---- */

/* Match keyword arguments against `names`; out[i] receives a borrowed
   value or stays NULL.  `fname` is used in the error message. */
static int
parse_kwonly(const char *fname, PyObject *kwds, const char *const *names, int n, PyObject **out)
{
    if (kwds == NULL) {
        return 0;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(kwds, &pos, &key, &value)) {
        if (!PyUnicode_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "keywords must be strings");
            return -1;
        }
        int i;
        for (i = 0; i < n; i++) {
            if (PyUnicode_EqualToUTF8(key, names[i])) {
                out[i] = value;
                break;
            }
        }
        if (i == n) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname,
                         key);
            return -1;
        }
    }
    return 0;
}

/* ---- ImportError: msg, name, path, name_from ----------------------------------- */

typedef PyImportErrorObject ImportErrorObject;

static PyObject *
ImportError_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return BaseException_new(type, args, kwds);
}

static int
ImportError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"name", "path", "name_from"};
    PyObject *vals[3] = {NULL, NULL, NULL};
    ImportErrorObject *self = (ImportErrorObject *)op;
    if (BaseException_init(op, args, NULL) < 0 ||
        parse_kwonly("ImportError", kwds, names, 3, vals) < 0) {
        return -1;
    }
    Py_XSETREF(self->name, Py_XNewRef(vals[0]));
    Py_XSETREF(self->path, Py_XNewRef(vals[1]));
    Py_XSETREF(self->name_from, Py_XNewRef(vals[2]));
    PyObject *msg = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : NULL;
    Py_XSETREF(self->msg, Py_XNewRef(msg));
    return 0;
}

static int
ImportError_clear(PyObject *op)
{
    ImportErrorObject *self = (ImportErrorObject *)op;
    Py_CLEAR(self->msg);
    Py_CLEAR(self->name);
    Py_CLEAR(self->path);
    Py_CLEAR(self->name_from);
    return BaseException_clear(op);
}

static void
ImportError_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
ImportError_traverse(PyObject *op, visitproc visit, void *arg)
{
    ImportErrorObject *self = (ImportErrorObject *)op;
    Py_VISIT(self->msg);
    Py_VISIT(self->name);
    Py_VISIT(self->path);
    Py_VISIT(self->name_from);
    return BaseException_traverse(op, visit, arg);
}

static PyObject *
ImportError_str(PyObject *op)
{
    ImportErrorObject *self = (ImportErrorObject *)op;
    if (self->msg != NULL && PyUnicode_CheckExact(self->msg)) {
        return Py_NewRef(self->msg);
    }
    return BaseException_str(op);
}

/* The instance dict plus name and path (when set), for pickling. */
static PyObject *
ImportError_getstate(ImportErrorObject *self)
{
    if (self->name == NULL && self->path == NULL) {
        return Py_NewRef(self->dict != NULL ? self->dict : Py_None);
    }
    PyObject *state = self->dict != NULL ? PyDict_Copy(self->dict) : PyDict_New();
    if (state == NULL) {
        return NULL;
    }
    if ((self->name != NULL && PyDict_SetItemString(state, "name", self->name) < 0) ||
        (self->path != NULL && PyDict_SetItemString(state, "path", self->path) < 0)) {
        Py_DECREF(state);
        return NULL;
    }
    return state;
}

static PyObject *
ImportError_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    ImportErrorObject *self = (ImportErrorObject *)op;
    PyObject *state = ImportError_getstate(self);
    if (state == NULL) {
        return NULL;
    }
    PyObject *res;
    if (state == Py_None) {
        res = PyTuple_Pack(2, Py_TYPE(self), self->args);
    }
    else {
        res = PyTuple_Pack(3, Py_TYPE(self), self->args, state);
    }
    Py_DECREF(state);
    return res;
}

static PyMemberDef ImportError_members[] = {
    {"msg", _Py_T_OBJECT, offsetof(PyImportErrorObject, msg), 0, "exception message"},
    {"name", _Py_T_OBJECT, offsetof(PyImportErrorObject, name), 0, "module name"},
    {"path", _Py_T_OBJECT, offsetof(PyImportErrorObject, path), 0, "module path"},
    {"name_from", _Py_T_OBJECT, offsetof(PyImportErrorObject, name_from), 0, "name imported"},
    {NULL},
};

static PyMethodDef ImportError_methods[] = {
    {"__reduce__", ImportError_reduce, METH_NOARGS, NULL},
    {NULL},
};

COMPLEX_EXC(ImportError, Exception, PyImportErrorObject, ImportError, ImportError_str,
            ImportError_members, ImportError_methods, NULL,
            "A module, or a name from a module, could not be imported.")
SUBCLASS_EXC(ModuleNotFoundError, ImportError, PyImportErrorObject, ImportError,
             "No module with the requested name was found.")

/* ---- NameError: name; AttributeError: name, obj --------------------------------- */

static PyObject *
NameError_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return BaseException_new(type, args, kwds);
}

static int
NameError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"name"};
    PyObject *name = NULL;
    if (BaseException_init(op, args, NULL) < 0 ||
        parse_kwonly("NameError", kwds, names, 1, &name) < 0) {
        return -1;
    }
    Py_XSETREF(((PyNameErrorObject *)op)->name, Py_XNewRef(name));
    return 0;
}

static int
NameError_clear(PyObject *op)
{
    Py_CLEAR(((PyNameErrorObject *)op)->name);
    return BaseException_clear(op);
}

static void
NameError_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
NameError_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((PyNameErrorObject *)op)->name);
    return BaseException_traverse(op, visit, arg);
}

static PyMemberDef NameError_members[] = {
    {"name", _Py_T_OBJECT, offsetof(PyNameErrorObject, name), 0, "name"},
    {NULL},
};

COMPLEX_EXC(NameError, Exception, PyNameErrorObject, NameError, NULL, NameError_members, NULL,
            NULL, "A name was not found.")
SUBCLASS_EXC(UnboundLocalError, NameError, PyNameErrorObject, NameError,
             "A local variable was read before being assigned.")

static PyObject *
AttributeError_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return BaseException_new(type, args, kwds);
}

static int
AttributeError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"name", "obj"};
    PyObject *vals[2] = {NULL, NULL};
    PyAttributeErrorObject *self = (PyAttributeErrorObject *)op;
    if (BaseException_init(op, args, NULL) < 0 ||
        parse_kwonly("AttributeError", kwds, names, 2, vals) < 0) {
        return -1;
    }
    Py_XSETREF(self->name, Py_XNewRef(vals[0]));
    Py_XSETREF(self->obj, Py_XNewRef(vals[1]));
    return 0;
}

static int
AttributeError_clear(PyObject *op)
{
    PyAttributeErrorObject *self = (PyAttributeErrorObject *)op;
    Py_CLEAR(self->obj);
    Py_CLEAR(self->name);
    return BaseException_clear(op);
}

static void
AttributeError_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
AttributeError_traverse(PyObject *op, visitproc visit, void *arg)
{
    PyAttributeErrorObject *self = (PyAttributeErrorObject *)op;
    Py_VISIT(self->obj);
    Py_VISIT(self->name);
    return BaseException_traverse(op, visit, arg);
}

static PyMemberDef AttributeError_members[] = {
    {"name", _Py_T_OBJECT, offsetof(PyAttributeErrorObject, name), 0, "attribute name"},
    {"obj", _Py_T_OBJECT, offsetof(PyAttributeErrorObject, obj), 0, "object"},
    {NULL},
};

COMPLEX_EXC(AttributeError, Exception, PyAttributeErrorObject, AttributeError, NULL,
            AttributeError_members, NULL, NULL, "An attribute was not found or is read-only.")

void
_PyExc_SetAttributeErrorContext(PyObject *obj, PyObject *name)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return;
    }
    if (PyObject_TypeCheck(exc, &_PyExc_AttributeError)) {
        PyAttributeErrorObject *ae = (PyAttributeErrorObject *)exc;
        if (ae->name == NULL && ae->obj == NULL) {
            ae->name = Py_NewRef(name);
            ae->obj = Py_NewRef(obj);
        }
    }
    PyErr_SetRaisedException(exc);
}

/* ---- SyntaxError ------------------------------------------------------------------ */

typedef PySyntaxErrorObject SyntaxErrorObject;

static PyObject *
SyntaxError_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return BaseException_new(type, args, kwds);
}

/* SyntaxError(msg) or SyntaxError(msg, (filename, lineno, offset, text
   [, end_lineno, end_offset[, metadata]])). */
static int
SyntaxError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    SyntaxErrorObject *self = (SyntaxErrorObject *)op;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (BaseException_init(op, args, kwds) < 0) {
        return -1;
    }
    if (nargs >= 1) {
        Py_XSETREF(self->msg, Py_NewRef(PyTuple_GET_ITEM(args, 0)));
    }
    if (nargs != 2) {
        return 0;
    }
    PyObject *info = PySequence_Tuple(PyTuple_GET_ITEM(args, 1));
    if (info == NULL) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(info);
    if (n < 4 || n > 7) {
        PyErr_Format(PyExc_TypeError, "function takes at %s %d arguments (%zd given)",
                     n < 4 ? "least" : "most", n < 4 ? 4 : 7, n);
        Py_DECREF(info);
        return -1;
    }
    PyObject **fields[] = {&self->filename, &self->lineno, &self->offset, &self->text,
                           &self->end_lineno, &self->end_offset, &self->metadata};
    for (Py_ssize_t i = 0; i < 7; i++) {
        PyObject *v = i < n ? PyTuple_GET_ITEM(info, i) : NULL;
        Py_XSETREF(*fields[i], Py_XNewRef(v));
    }
    Py_DECREF(info);
    return 0;
}

static int
SyntaxError_clear(PyObject *op)
{
    SyntaxErrorObject *self = (SyntaxErrorObject *)op;
    Py_CLEAR(self->msg);
    Py_CLEAR(self->filename);
    Py_CLEAR(self->lineno);
    Py_CLEAR(self->offset);
    Py_CLEAR(self->end_lineno);
    Py_CLEAR(self->end_offset);
    Py_CLEAR(self->text);
    Py_CLEAR(self->print_file_and_line);
    Py_CLEAR(self->metadata);
    return BaseException_clear(op);
}

static void
SyntaxError_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
SyntaxError_traverse(PyObject *op, visitproc visit, void *arg)
{
    SyntaxErrorObject *self = (SyntaxErrorObject *)op;
    Py_VISIT(self->msg);
    Py_VISIT(self->filename);
    Py_VISIT(self->lineno);
    Py_VISIT(self->offset);
    Py_VISIT(self->end_lineno);
    Py_VISIT(self->end_offset);
    Py_VISIT(self->text);
    Py_VISIT(self->print_file_and_line);
    Py_VISIT(self->metadata);
    return BaseException_traverse(op, visit, arg);
}

/* The last path component: messages show "x.py", not the full path. */
static PyObject *
path_basename(PyObject *filename)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(filename);
    Py_ssize_t slash = PyUnicode_FindChar(filename, '/', 0, len, -1);
    if (slash == -2) {
        return NULL;
    }
    if (slash == -1) {
        return Py_NewRef(filename);
    }
    return PyUnicode_Substring(filename, slash + 1, len);
}

static PyObject *
SyntaxError_str(PyObject *op)
{
    SyntaxErrorObject *self = (SyntaxErrorObject *)op;
    PyObject *filename = NULL, *result;
    if (self->filename != NULL && PyUnicode_Check(self->filename)) {
        filename = path_basename(self->filename);
        if (filename == NULL) {
            return NULL;
        }
    }
    int have_lineno = self->lineno != NULL && PyLong_CheckExact(self->lineno);
    long lineno = 0;
    if (have_lineno) {
        int overflow;
        lineno = PyLong_AsLongAndOverflow(self->lineno, &overflow);
        if (overflow) {
            have_lineno = 0;
        }
        else if (lineno == -1 && PyErr_Occurred()) {
            Py_XDECREF(filename);
            return NULL;
        }
    }
    PyObject *msg = self->msg != NULL ? self->msg : Py_None;
    if (filename != NULL && have_lineno) {
        result = PyUnicode_FromFormat("%S (%U, line %ld)", msg, filename, lineno);
    }
    else if (filename != NULL) {
        result = PyUnicode_FromFormat("%S (%U)", msg, filename);
    }
    else if (have_lineno) {
        result = PyUnicode_FromFormat("%S (line %ld)", msg, lineno);
    }
    else {
        result = PyObject_Str(msg);
    }
    Py_XDECREF(filename);
    return result;
}

#define SOFF(x) offsetof(PySyntaxErrorObject, x)
static PyMemberDef SyntaxError_members[] = {
    {"msg", _Py_T_OBJECT, SOFF(msg), 0, "exception msg"},
    {"filename", _Py_T_OBJECT, SOFF(filename), 0, "exception filename"},
    {"lineno", _Py_T_OBJECT, SOFF(lineno), 0, "exception lineno"},
    {"offset", _Py_T_OBJECT, SOFF(offset), 0, "exception offset"},
    {"text", _Py_T_OBJECT, SOFF(text), 0, "exception text"},
    {"end_lineno", _Py_T_OBJECT, SOFF(end_lineno), 0, "exception end lineno"},
    {"end_offset", _Py_T_OBJECT, SOFF(end_offset), 0, "exception end offset"},
    {"print_file_and_line", _Py_T_OBJECT, SOFF(print_file_and_line), 0,
     "exception print_file_and_line"},
    {"_metadata", Py_T_OBJECT_EX, SOFF(metadata), 0, "exception private metadata"},
    {NULL},
};
#undef SOFF

COMPLEX_EXC(SyntaxError, Exception, PySyntaxErrorObject, SyntaxError, SyntaxError_str,
            SyntaxError_members, NULL, NULL, "The source code is not valid Python.")
SUBCLASS_EXC(_IncompleteInputError, SyntaxError, PySyntaxErrorObject, SyntaxError,
             "The source code ended before the statement was complete.")
SUBCLASS_EXC(IndentationError, SyntaxError, PySyntaxErrorObject, SyntaxError,
             "The source code is not indented correctly.")
SUBCLASS_EXC(TabError, IndentationError, PySyntaxErrorObject, SyntaxError,
             "The source code mixes tabs and spaces inconsistently.")

/* ---- OSError ------------------------------------------------------------------------ */

typedef PyOSErrorObject OSErrorObject;

static PyObject *OSError_new(PyTypeObject *type, PyObject *args, PyObject *kwds);
static int OSError_init(PyObject *op, PyObject *args, PyObject *kwds);

/* Subclasses that override __init__ (but not __new__) get their arguments
   parsed by __init__, so that they may change them first. */
static int
oserror_use_init(PyTypeObject *type)
{
    return type->tp_init != OSError_init && type->tp_new == OSError_new;
}

static PyTypeObject *errno_subclass(long err);

/* OSError(errno, strerror[, filename[, winerror[, filename2]]]).  With a
   filename, args keeps only (errno, strerror). */
static int
oserror_parse_and_set(OSErrorObject *self, PyObject *args)
{
    PyObject *myerrno = NULL, *strerror = NULL, *filename = NULL, *filename2 = NULL;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs >= 2 && nargs <= 5) {
        myerrno = PyTuple_GET_ITEM(args, 0);
        strerror = PyTuple_GET_ITEM(args, 1);
        filename = nargs > 2 ? PyTuple_GET_ITEM(args, 2) : NULL;
        filename2 = nargs > 4 ? PyTuple_GET_ITEM(args, 4) : NULL;
    }
    Py_INCREF(args);
    if (filename != NULL && filename != Py_None) {
        if (Py_IS_TYPE(self, (PyTypeObject *)PyExc_BlockingIOError) && PyNumber_Check(filename)) {
            /* BlockingIOError's third argument is characters_written. */
            self->written = PyNumber_AsSsize_t(filename, PyExc_ValueError);
            if (self->written == -1 && PyErr_Occurred()) {
                Py_DECREF(args);
                return -1;
            }
        }
        else {
            Py_XSETREF(self->filename, Py_NewRef(filename));
            if (filename2 != NULL && filename2 != Py_None) {
                Py_XSETREF(self->filename2, Py_NewRef(filename2));
            }
            PyObject *two = PyTuple_GetSlice(args, 0, 2);
            Py_DECREF(args);
            if (two == NULL) {
                return -1;
            }
            args = two;
        }
    }
    Py_XSETREF(self->myerrno, Py_XNewRef(myerrno));
    Py_XSETREF(self->strerror, Py_XNewRef(strerror));
    Py_XSETREF(self->args, args);
    return 0;
}

static PyObject *
OSError_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    int use_init = oserror_use_init(type);
    if (!use_init) {
        if (!_PyArg_NoKeywords(type->tp_name, kwds)) {
            return NULL;
        }
        Py_ssize_t nargs = PyTuple_GET_SIZE(args);
        if ((PyObject *)type == PyExc_OSError && nargs >= 2 && nargs <= 5 &&
            PyLong_Check(PyTuple_GET_ITEM(args, 0))) {
            int overflow;
            long err = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(args, 0), &overflow);
            if (err == -1 && PyErr_Occurred()) {
                return NULL;
            }
            PyTypeObject *sub = overflow ? NULL : errno_subclass(err);
            if (sub != NULL) {
                type = sub;
            }
        }
    }
    OSErrorObject *self = (OSErrorObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->written = -1;
    if (use_init) {
        self->args = PyTuple_New(0);
        if (self->args == NULL) {
            goto error;
        }
    }
    else if (oserror_parse_and_set(self, args) < 0) {
        goto error;
    }
    return (PyObject *)self;
error:
    Py_DECREF(self);
    return NULL;
}

static int
OSError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    if (!oserror_use_init(Py_TYPE(op))) {
        return 0; /* __new__ did everything */
    }
    if (!_PyArg_NoKeywords(Py_TYPE(op)->tp_name, kwds)) {
        return -1;
    }
    return oserror_parse_and_set((OSErrorObject *)op, args);
}

static int
OSError_clear(PyObject *op)
{
    OSErrorObject *self = (OSErrorObject *)op;
    Py_CLEAR(self->myerrno);
    Py_CLEAR(self->strerror);
    Py_CLEAR(self->filename);
    Py_CLEAR(self->filename2);
    return BaseException_clear(op);
}

static void
OSError_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
OSError_traverse(PyObject *op, visitproc visit, void *arg)
{
    OSErrorObject *self = (OSErrorObject *)op;
    Py_VISIT(self->myerrno);
    Py_VISIT(self->strerror);
    Py_VISIT(self->filename);
    Py_VISIT(self->filename2);
    return BaseException_traverse(op, visit, arg);
}

static PyObject *
OSError_str(PyObject *op)
{
    OSErrorObject *self = (OSErrorObject *)op;
    if (self->filename != NULL) {
        if (self->filename2 != NULL) {
            return PyUnicode_FromFormat("[Errno %S] %S: %R -> %R", self->myerrno, self->strerror,
                                        self->filename, self->filename2);
        }
        return PyUnicode_FromFormat("[Errno %S] %S: %R", self->myerrno, self->strerror,
                                    self->filename);
    }
    if (self->myerrno != NULL && self->strerror != NULL) {
        return PyUnicode_FromFormat("[Errno %S] %S", self->myerrno, self->strerror);
    }
    return BaseException_str(op);
}

/* args holds only (errno, strerror) when a filename was given: rebuild the
   full argument list so that unpickling sees the filename again. */
static PyObject *
OSError_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    OSErrorObject *self = (OSErrorObject *)op;
    PyObject *args = self->args;
    if (PyTuple_GET_SIZE(args) == 2 && self->filename != NULL) {
        if (self->filename2 != NULL) {
            args = PyTuple_Pack(5, PyTuple_GET_ITEM(self->args, 0), PyTuple_GET_ITEM(self->args, 1),
                                self->filename, Py_None, self->filename2);
        }
        else {
            args = PyTuple_Pack(3, PyTuple_GET_ITEM(self->args, 0), PyTuple_GET_ITEM(self->args, 1),
                                self->filename);
        }
        if (args == NULL) {
            return NULL;
        }
    }
    else {
        Py_INCREF(args);
    }
    PyObject *res = self->dict != NULL ? PyTuple_Pack(3, Py_TYPE(self), args, self->dict)
                                       : PyTuple_Pack(2, Py_TYPE(self), args);
    Py_DECREF(args);
    return res;
}

static PyObject *
OSError_get_written(PyObject *op, void *closure)
{
    OSErrorObject *self = (OSErrorObject *)op;
    if (self->written == -1) {
        PyErr_SetString(PyExc_AttributeError, "characters_written");
        return NULL;
    }
    return PyLong_FromSsize_t(self->written);
}

static int
OSError_set_written(PyObject *op, PyObject *arg, void *closure)
{
    OSErrorObject *self = (OSErrorObject *)op;
    if (arg == NULL) {
        if (self->written == -1) {
            PyErr_SetString(PyExc_AttributeError, "characters_written");
            return -1;
        }
        self->written = -1;
        return 0;
    }
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_ValueError);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    self->written = n;
    return 0;
}

#define OOFF(x) offsetof(PyOSErrorObject, x)
static PyMemberDef OSError_members[] = {
    {"errno", _Py_T_OBJECT, OOFF(myerrno), 0, "POSIX exception code"},
    {"strerror", _Py_T_OBJECT, OOFF(strerror), 0, "exception strerror"},
    {"filename", _Py_T_OBJECT, OOFF(filename), 0, "exception filename"},
    {"filename2", _Py_T_OBJECT, OOFF(filename2), 0, "second exception filename"},
    {NULL},
};
#undef OOFF

static PyMethodDef OSError_methods[] = {
    {"__reduce__", OSError_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyGetSetDef OSError_getset[] = {
    {"characters_written", OSError_get_written, OSError_set_written, NULL, NULL},
    {NULL},
};

COMPLEX_EXC(OSError, Exception, PyOSErrorObject, OSError, OSError_str, OSError_members,
            OSError_methods, OSError_getset, "An operating system call failed.")
SUBCLASS_EXC(BlockingIOError, OSError, PyOSErrorObject, OSError,
             "A non-blocking operation would block.")
SUBCLASS_EXC(ConnectionError, OSError, PyOSErrorObject, OSError,
             "Base of the connection errors.")
SUBCLASS_EXC(ChildProcessError, OSError, PyOSErrorObject, OSError,
             "An operation on a child process failed.")
SUBCLASS_EXC(BrokenPipeError, ConnectionError, PyOSErrorObject, OSError,
             "Wrote to a pipe or socket whose other end is closed.")
SUBCLASS_EXC(ConnectionAbortedError, ConnectionError, PyOSErrorObject, OSError,
             "The peer aborted the connection.")
SUBCLASS_EXC(ConnectionRefusedError, ConnectionError, PyOSErrorObject, OSError,
             "The peer refused the connection.")
SUBCLASS_EXC(ConnectionResetError, ConnectionError, PyOSErrorObject, OSError,
             "The peer reset the connection.")
SUBCLASS_EXC(FileExistsError, OSError, PyOSErrorObject, OSError,
             "The file or directory already exists.")
SUBCLASS_EXC(FileNotFoundError, OSError, PyOSErrorObject, OSError,
             "There is no such file or directory.")
SUBCLASS_EXC(IsADirectoryError, OSError, PyOSErrorObject, OSError,
             "A file operation was attempted on a directory.")
SUBCLASS_EXC(NotADirectoryError, OSError, PyOSErrorObject, OSError,
             "A directory operation was attempted on something else.")
SUBCLASS_EXC(InterruptedError, OSError, PyOSErrorObject, OSError,
             "A system call was interrupted by a signal.")
SUBCLASS_EXC(PermissionError, OSError, PyOSErrorObject, OSError,
             "The operation is not permitted.")
SUBCLASS_EXC(ProcessLookupError, OSError, PyOSErrorObject, OSError,
             "There is no such process.")
SUBCLASS_EXC(TimeoutError, OSError, PyOSErrorObject, OSError, "The operation timed out.")

/* OSError(errno, ...) picks the subclass that names the error. */
static PyTypeObject *
errno_subclass(long err)
{
    switch (err) {
    case EAGAIN:
#if defined(EWOULDBLOCK) && EWOULDBLOCK != EAGAIN
    case EWOULDBLOCK:
#endif
    case EALREADY:
    case EINPROGRESS:
        return &_PyExc_BlockingIOError;
    case ECHILD:
        return &_PyExc_ChildProcessError;
    case EPIPE:
#ifdef ESHUTDOWN
    case ESHUTDOWN:
#endif
        return &_PyExc_BrokenPipeError;
    case ECONNABORTED:
        return &_PyExc_ConnectionAbortedError;
    case ECONNREFUSED:
        return &_PyExc_ConnectionRefusedError;
    case ECONNRESET:
        return &_PyExc_ConnectionResetError;
    case EEXIST:
        return &_PyExc_FileExistsError;
    case ENOENT:
        return &_PyExc_FileNotFoundError;
    case EISDIR:
        return &_PyExc_IsADirectoryError;
    case ENOTDIR:
        return &_PyExc_NotADirectoryError;
    case EINTR:
        return &_PyExc_InterruptedError;
    case EACCES:
    case EPERM:
#ifdef ENOTCAPABLE
    case ENOTCAPABLE:
#endif
        return &_PyExc_PermissionError;
    case ESRCH:
        return &_PyExc_ProcessLookupError;
    case ETIMEDOUT:
        return &_PyExc_TimeoutError;
    default:
        return NULL;
    }
}

/* ---- UnicodeEncodeError, UnicodeDecodeError, UnicodeTranslateError ------------------ */

typedef PyUnicodeErrorObject UnicodeErrorObject;

static PyObject *
UnicodeError_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return BaseException_new(type, args, kwds);
}

static int
UnicodeError_clear(PyObject *op)
{
    UnicodeErrorObject *self = (UnicodeErrorObject *)op;
    Py_CLEAR(self->encoding);
    Py_CLEAR(self->object);
    Py_CLEAR(self->reason);
    return BaseException_clear(op);
}

static void
UnicodeError_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
UnicodeError_traverse(PyObject *op, visitproc visit, void *arg)
{
    UnicodeErrorObject *self = (UnicodeErrorObject *)op;
    Py_VISIT(self->encoding);
    Py_VISIT(self->object);
    Py_VISIT(self->reason);
    return BaseException_traverse(op, visit, arg);
}

static int
check_str_arg(PyObject *args, int i)
{
    PyObject *v = PyTuple_GET_ITEM(args, i);
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "argument %d must be str, not %.50s", i + 1,
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    return 0;
}

static int
ssize_arg(PyObject *args, int i, Py_ssize_t *out)
{
    PyObject *v = PyNumber_Index(PyTuple_GET_ITEM(args, i));
    if (v == NULL) {
        return -1;
    }
    *out = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
check_arg_count(PyObject *args, Py_ssize_t expected)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n != expected) {
        PyErr_Format(PyExc_TypeError, "function takes exactly %zd arguments (%zd given)",
                     expected, n);
        return -1;
    }
    return 0;
}

static PyObject *
bytes_like_copy(PyObject *obj)
{
    if (PyBytes_Check(obj)) {
        return Py_NewRef(obj);
    }
    if (PyByteArray_Check(obj)) {
        return PyBytes_FromStringAndSize(PyByteArray_AS_STRING(obj), PyByteArray_GET_SIZE(obj));
    }
    if (Py_TYPE(obj)->tp_as_buffer != NULL && Py_TYPE(obj)->tp_as_buffer->bf_getbuffer != NULL) {
        return PyBytes_FromObject(obj);
    }
    PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                 Py_TYPE(obj)->tp_name);
    return NULL;
}

static void
unicode_error_set(UnicodeErrorObject *self, PyObject *encoding, PyObject *object,
                  Py_ssize_t start, Py_ssize_t end, PyObject *reason)
{
    Py_XSETREF(self->encoding, Py_XNewRef(encoding));
    Py_XSETREF(self->object, object); /* stolen */
    self->start = start;
    self->end = end;
    Py_XSETREF(self->reason, Py_NewRef(reason));
}

/* UnicodeEncodeError(encoding, object, start, end, reason) */
static int
UnicodeEncodeError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    Py_ssize_t start, end;
    if (BaseException_init(op, args, kwds) < 0 || check_arg_count(args, 5) < 0 ||
        check_str_arg(args, 0) < 0 || check_str_arg(args, 1) < 0 ||
        ssize_arg(args, 2, &start) < 0 || ssize_arg(args, 3, &end) < 0 ||
        check_str_arg(args, 4) < 0) {
        return -1;
    }
    unicode_error_set((UnicodeErrorObject *)op, PyTuple_GET_ITEM(args, 0),
                      Py_NewRef(PyTuple_GET_ITEM(args, 1)), start, end, PyTuple_GET_ITEM(args, 4));
    return 0;
}

/* UnicodeDecodeError(encoding, object, start, end, reason); object is any
   bytes-like object and is kept as bytes. */
static int
UnicodeDecodeError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    Py_ssize_t start, end;
    if (BaseException_init(op, args, kwds) < 0 || check_arg_count(args, 5) < 0 ||
        check_str_arg(args, 0) < 0) {
        return -1;
    }
    PyObject *object = bytes_like_copy(PyTuple_GET_ITEM(args, 1));
    if (object == NULL) {
        return -1;
    }
    if (ssize_arg(args, 2, &start) < 0 || ssize_arg(args, 3, &end) < 0 ||
        check_str_arg(args, 4) < 0) {
        Py_DECREF(object);
        return -1;
    }
    unicode_error_set((UnicodeErrorObject *)op, PyTuple_GET_ITEM(args, 0), object, start, end,
                      PyTuple_GET_ITEM(args, 4));
    return 0;
}

/* UnicodeTranslateError(object, start, end, reason) */
static int
UnicodeTranslateError_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    Py_ssize_t start, end;
    if (BaseException_init(op, args, kwds) < 0 || check_arg_count(args, 4) < 0 ||
        check_str_arg(args, 0) < 0 || ssize_arg(args, 1, &start) < 0 ||
        ssize_arg(args, 2, &end) < 0 || check_str_arg(args, 3) < 0) {
        return -1;
    }
    unicode_error_set((UnicodeErrorObject *)op, NULL, Py_NewRef(PyTuple_GET_ITEM(args, 0)),
                      start, end, PyTuple_GET_ITEM(args, 3));
    return 0;
}

/* '\xNN', '\uNNNN' or '\UNNNNNNNN' for a code point. */
static void
format_codepoint(char *buf, size_t size, Py_UCS4 ch)
{
    if (ch <= 0xff) {
        snprintf(buf, size, "\\x%02x", (unsigned int)ch);
    }
    else if (ch <= 0xffff) {
        snprintf(buf, size, "\\u%04x", (unsigned int)ch);
    }
    else {
        snprintf(buf, size, "\\U%08x", (unsigned int)ch);
    }
}

/* str() of the codec errors: one offending item is shown, a range is
   given as first-last. */
static PyObject *
unicode_error_str(UnicodeErrorObject *self, const char *verb, int is_decode, int has_encoding)
{
    if (self->object == NULL) {
        return Py_NewRef(_PyUnicode_GetEmpty());
    }
    PyObject *reason = PyObject_Str(self->reason ? self->reason : Py_None);
    PyObject *encoding = has_encoding ? PyObject_Str(self->encoding ? self->encoding : Py_None)
                                      : NULL;
    PyObject *result = NULL;
    if (reason == NULL || (has_encoding && encoding == NULL)) {
        goto done;
    }
    Py_ssize_t len = is_decode ? PyBytes_GET_SIZE(self->object)
                               : PyUnicode_GET_LENGTH(self->object);
    Py_ssize_t start = self->start, end = self->end;
    if (start >= 0 && start < len && end >= 0 && end <= len && end == start + 1) {
        char item[16];
        if (is_decode) {
            snprintf(item, sizeof(item), "0x%02x",
                     (unsigned int)(unsigned char)PyBytes_AS_STRING(self->object)[start]);
            result = PyUnicode_FromFormat("'%U' codec can't decode byte %s in position %zd: %U",
                                          encoding, item, start, reason);
        }
        else {
            format_codepoint(item, sizeof(item), PyUnicode_READ_CHAR(self->object, start));
            if (has_encoding) {
                result = PyUnicode_FromFormat("'%U' codec can't %s character '%s' in position %zd: %U",
                                              encoding, verb, item, start, reason);
            }
            else {
                result = PyUnicode_FromFormat("can't %s character '%s' in position %zd: %U", verb,
                                              item, start, reason);
            }
        }
    }
    else if (has_encoding) {
        result = PyUnicode_FromFormat("'%U' codec can't %s %s in position %zd-%zd: %U", encoding,
                                      verb, is_decode ? "bytes" : "characters", start, end - 1,
                                      reason);
    }
    else {
        result = PyUnicode_FromFormat("can't %s characters in position %zd-%zd: %U", verb, start,
                                      end - 1, reason);
    }
done:
    Py_XDECREF(reason);
    Py_XDECREF(encoding);
    return result;
}

static PyObject *
UnicodeEncodeError_str(PyObject *op)
{
    return unicode_error_str((UnicodeErrorObject *)op, "encode", 0, 1);
}

static PyObject *
UnicodeDecodeError_str(PyObject *op)
{
    return unicode_error_str((UnicodeErrorObject *)op, "decode", 1, 1);
}

static PyObject *
UnicodeTranslateError_str(PyObject *op)
{
    return unicode_error_str((UnicodeErrorObject *)op, "translate", 0, 0);
}

#define UOFF(x) offsetof(PyUnicodeErrorObject, x)
static PyMemberDef UnicodeError_members[] = {
    {"encoding", _Py_T_OBJECT, UOFF(encoding), 0, "exception encoding"},
    {"object", _Py_T_OBJECT, UOFF(object), 0, "exception object"},
    {"start", Py_T_PYSSIZET, UOFF(start), 0, "exception start"},
    {"end", Py_T_PYSSIZET, UOFF(end), 0, "exception end"},
    {"reason", _Py_T_OBJECT, UOFF(reason), 0, "exception reason"},
    {NULL},
};
#undef UOFF

#define UNICODE_EXC(NAME, DOC)                                                              \
    EXC_TYPE_FULL(NAME, &_PyExc_UnicodeError, PyUnicodeErrorObject, UnicodeError_new,       \
                  NAME##_init, UnicodeError_dealloc, UnicodeError_traverse,                 \
                  UnicodeError_clear, NAME##_str, NULL, UnicodeError_members, NULL, NULL,   \
                  NULL, DOC)

UNICODE_EXC(UnicodeEncodeError, "A str could not be encoded.")
UNICODE_EXC(UnicodeDecodeError, "Bytes could not be decoded.")
UNICODE_EXC(UnicodeTranslateError, "A str could not be translated.")

/* C API of the codec errors. */

static UnicodeErrorObject *
as_unicode_error(PyObject *exc, PyTypeObject *type)
{
    if (!PyObject_TypeCheck(exc, type)) {
        PyErr_Format(PyExc_TypeError, "expected a %s, not %.100s", type->tp_name,
                     Py_TYPE(exc)->tp_name);
        return NULL;
    }
    return (UnicodeErrorObject *)exc;
}

static PyObject *
checked_attr(PyObject *attr, const char *name, int want_bytes)
{
    if (attr == NULL) {
        PyErr_Format(PyExc_TypeError, "%s attribute not set", name);
        return NULL;
    }
    if (want_bytes ? !PyBytes_Check(attr) : !PyUnicode_Check(attr)) {
        PyErr_Format(PyExc_TypeError, "%s attribute must be %s", name,
                     want_bytes ? "bytes" : "unicode");
        return NULL;
    }
    return Py_NewRef(attr);
}

#define UNICODE_ERROR_GETTERS(KIND, OBJ_IS_BYTES)                                          \
    PyObject *PyUnicode##KIND##Error_GetObject(PyObject *exc)                              \
    {                                                                                      \
        UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_Unicode##KIND##Error);       \
        return e == NULL ? NULL : checked_attr(e->object, "object", OBJ_IS_BYTES);         \
    }                                                                                      \
    PyObject *PyUnicode##KIND##Error_GetReason(PyObject *exc)                              \
    {                                                                                      \
        UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_Unicode##KIND##Error);       \
        return e == NULL ? NULL : checked_attr(e->reason, "reason", 0);                    \
    }                                                                                      \
    int PyUnicode##KIND##Error_SetReason(PyObject *exc, const char *reason)                \
    {                                                                                      \
        UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_Unicode##KIND##Error);       \
        PyObject *r = e == NULL ? NULL : PyUnicode_FromString(reason);                     \
        if (r == NULL) {                                                                   \
            return -1;                                                                     \
        }                                                                                  \
        Py_XSETREF(e->reason, r);                                                          \
        return 0;                                                                          \
    }                                                                                      \
    int PyUnicode##KIND##Error_GetStart(PyObject *exc, Py_ssize_t *start)                  \
    {                                                                                      \
        UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_Unicode##KIND##Error);       \
        return e == NULL ? -1 : unicode_error_bound(e, OBJ_IS_BYTES, 1, start);            \
    }                                                                                      \
    int PyUnicode##KIND##Error_GetEnd(PyObject *exc, Py_ssize_t *end)                      \
    {                                                                                      \
        UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_Unicode##KIND##Error);       \
        return e == NULL ? -1 : unicode_error_bound(e, OBJ_IS_BYTES, 0, end);              \
    }                                                                                      \
    int PyUnicode##KIND##Error_SetStart(PyObject *exc, Py_ssize_t start)                   \
    {                                                                                      \
        UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_Unicode##KIND##Error);       \
        if (e == NULL) {                                                                   \
            return -1;                                                                     \
        }                                                                                  \
        e->start = start;                                                                  \
        return 0;                                                                          \
    }                                                                                      \
    int PyUnicode##KIND##Error_SetEnd(PyObject *exc, Py_ssize_t end)                       \
    {                                                                                      \
        UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_Unicode##KIND##Error);       \
        if (e == NULL) {                                                                   \
            return -1;                                                                     \
        }                                                                                  \
        e->end = end;                                                                      \
        return 0;                                                                          \
    }

/* start is clamped to [0, len-1] and end to [1, len] (0 for an empty
   object), so that callers can index the object safely. */
static int
unicode_error_bound(UnicodeErrorObject *e, int obj_is_bytes, int want_start, Py_ssize_t *out)
{
    PyObject *obj = checked_attr(e->object, "object", obj_is_bytes);
    if (obj == NULL) {
        return -1;
    }
    Py_ssize_t len = obj_is_bytes ? PyBytes_GET_SIZE(obj) : PyUnicode_GET_LENGTH(obj);
    Py_DECREF(obj);
    Py_ssize_t v;
    if (want_start) {
        v = e->start < 0 ? 0 : e->start;
        if (v >= len) {
            v = len == 0 ? 0 : len - 1;
        }
    }
    else {
        v = e->end < 1 ? 1 : e->end;
        if (v > len) {
            v = len;
        }
    }
    *out = v;
    return 0;
}

UNICODE_ERROR_GETTERS(Encode, 0)
UNICODE_ERROR_GETTERS(Decode, 1)
UNICODE_ERROR_GETTERS(Translate, 0)

PyObject *
PyUnicodeEncodeError_GetEncoding(PyObject *exc)
{
    UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_UnicodeEncodeError);
    return e == NULL ? NULL : checked_attr(e->encoding, "encoding", 0);
}

PyObject *
PyUnicodeDecodeError_GetEncoding(PyObject *exc)
{
    UnicodeErrorObject *e = as_unicode_error(exc, &_PyExc_UnicodeDecodeError);
    return e == NULL ? NULL : checked_attr(e->encoding, "encoding", 0);
}

PyObject *
PyUnicodeDecodeError_Create(const char *encoding, const char *object, Py_ssize_t length,
                            Py_ssize_t start, Py_ssize_t end, const char *reason)
{
    return PyObject_CallFunction(PyExc_UnicodeDecodeError, "sy#nns", encoding, object, length,
                                 start, end, reason);
}

PyObject *
_PyUnicodeEncodeError_Create(const char *encoding, PyObject *object, Py_ssize_t start,
                             Py_ssize_t end, const char *reason)
{
    return PyObject_CallFunction(PyExc_UnicodeEncodeError, "sOnns", encoding, object, start, end,
                                 reason);
}

PyObject *
_PyUnicodeTranslateError_Create(PyObject *object, Py_ssize_t start, Py_ssize_t end,
                                const char *reason)
{
    return PyObject_CallFunction(PyExc_UnicodeTranslateError, "Onns", object, start, end, reason);
}

/* ---- BaseExceptionGroup and ExceptionGroup ---------------------------------------- */

typedef PyBaseExceptionGroupObject GroupObject;

static PyObject *
BaseExceptionGroup_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError,
                     "BaseExceptionGroup.__new__() takes exactly 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *message = PyTuple_GET_ITEM(args, 0);
    PyObject *exceptions = PyTuple_GET_ITEM(args, 1);
    if (!PyUnicode_Check(message)) {
        _PyArg_BadArgument("BaseExceptionGroup.__new__", "argument 1", "str", message);
        return NULL;
    }
    if (!PySequence_Check(exceptions)) {
        PyErr_SetString(PyExc_TypeError, "second argument (exceptions) must be a sequence");
        return NULL;
    }
    PyObject *excs = PySequence_Tuple(exceptions);
    if (excs == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(excs);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "second argument (exceptions) must be a non-empty sequence");
        goto error;
    }
    int nested_base = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *exc = PyTuple_GET_ITEM(excs, i);
        if (!PyExceptionInstance_Check(exc)) {
            PyErr_Format(PyExc_ValueError,
                         "Item %zd of second argument (exceptions) is not an exception", i);
            goto error;
        }
        int is_exception = PyObject_IsInstance(exc, PyExc_Exception);
        if (is_exception < 0) {
            goto error;
        }
        if (!is_exception) {
            nested_base = 1;
        }
    }
    PyTypeObject *cls = type;
    if (cls == (PyTypeObject *)PyExc_BaseExceptionGroup) {
        if (!nested_base) {
            cls = (PyTypeObject *)PyExc_ExceptionGroup;
        }
    }
    else if (cls == (PyTypeObject *)PyExc_ExceptionGroup) {
        if (nested_base) {
            PyErr_SetString(PyExc_TypeError, "Cannot nest BaseExceptions in an ExceptionGroup");
            goto error;
        }
    }
    else if (nested_base) {
        int sub = PyType_IsSubtype(cls, (PyTypeObject *)PyExc_Exception);
        if (sub) {
            PyErr_Format(PyExc_TypeError, "Cannot nest BaseExceptions in '%.200s'", cls->tp_name);
            goto error;
        }
    }
    GroupObject *self = (GroupObject *)BaseException_new(cls, args, kwds);
    if (self == NULL) {
        goto error;
    }
    self->msg = Py_NewRef(message);
    self->excs = excs;
    return (PyObject *)self;
error:
    Py_DECREF(excs);
    return NULL;
}

static int
BaseExceptionGroup_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    return BaseException_init(op, args, kwds);
}

static int
BaseExceptionGroup_clear(PyObject *op)
{
    GroupObject *self = (GroupObject *)op;
    Py_CLEAR(self->msg);
    Py_CLEAR(self->excs);
    return BaseException_clear(op);
}

static void
BaseExceptionGroup_dealloc(PyObject *op)
{
    BaseException_dealloc(op);
}

static int
BaseExceptionGroup_traverse(PyObject *op, visitproc visit, void *arg)
{
    GroupObject *self = (GroupObject *)op;
    Py_VISIT(self->msg);
    Py_VISIT(self->excs);
    return BaseException_traverse(op, visit, arg);
}

static PyObject *
BaseExceptionGroup_str(PyObject *op)
{
    GroupObject *self = (GroupObject *)op;
    Py_ssize_t n = self->excs != NULL ? PyTuple_GET_SIZE(self->excs) : 0;
    return PyUnicode_FromFormat("%S (%zd sub-exception%s)", self->msg ? self->msg : Py_None, n,
                                n > 1 ? "s" : "");
}

static PyObject *
BaseExceptionGroup_derive(PyObject *op, PyObject *excs)
{
    GroupObject *self = (GroupObject *)op;
    return PyObject_CallFunction(PyExc_BaseExceptionGroup, "(OO)", self->msg, excs);
}

/* How split() and subgroup() decide whether a leaf matches. */
typedef enum { MATCH_BY_TYPE, MATCH_BY_PREDICATE, MATCH_BY_IDS } matcher_kind;

static int
get_matcher_kind(PyObject *value, matcher_kind *kind)
{
    if (PyCallable_Check(value) && !PyType_Check(value)) {
        *kind = MATCH_BY_PREDICATE;
        return 0;
    }
    if (PyExceptionClass_Check(value)) {
        *kind = MATCH_BY_TYPE;
        return 0;
    }
    if (PyTuple_CheckExact(value)) {
        Py_ssize_t n = PyTuple_GET_SIZE(value);
        Py_ssize_t i;
        for (i = 0; i < n; i++) {
            if (!PyExceptionClass_Check(PyTuple_GET_ITEM(value, i))) {
                break;
            }
        }
        if (i == n) {
            *kind = MATCH_BY_TYPE;
            return 0;
        }
    }
    PyErr_SetString(PyExc_TypeError,
                    "expected an exception type, a tuple of exception types, or a callable "
                    "(other than a class)");
    return -1;
}

static int
matcher_matches(PyObject *exc, matcher_kind kind, PyObject *value)
{
    switch (kind) {
    case MATCH_BY_TYPE:
        return PyErr_GivenExceptionMatches(exc, value);
    case MATCH_BY_PREDICATE: {
        PyObject *r = PyObject_CallOneArg(value, exc);
        if (r == NULL) {
            return -1;
        }
        int truth = PyObject_IsTrue(r);
        Py_DECREF(r);
        return truth;
    }
    case MATCH_BY_IDS: {
        PyObject *id = PyLong_FromVoidPtr(exc);
        if (id == NULL) {
            return -1;
        }
        int r = PySet_Contains(value, id);
        Py_DECREF(id);
        return r;
    }
    }
    return 0;
}

/* A copy of the group `orig` holding `excs` (made by orig.derive()), with
   orig's traceback, cause, context and notes.  *result is NULL when excs
   is empty. */
static int
group_subset(PyObject *orig, PyObject *excs, PyObject **result)
{
    *result = NULL;
    if (PyList_GET_SIZE(excs) == 0) {
        return 0;
    }
    PyObject *eg = PyObject_CallMethod(orig, "derive", "(O)", excs);
    if (eg == NULL) {
        return -1;
    }
    if (!_PyBaseExceptionGroup_Check(eg)) {
        PyErr_SetString(PyExc_TypeError, "derive must return an instance of BaseExceptionGroup");
        goto error;
    }
    BaseExc *src = (BaseExc *)orig;
    if (PyException_SetTraceback(eg, src->traceback ? src->traceback : Py_None) < 0) {
        goto error;
    }
    PyException_SetContext(eg, Py_XNewRef(src->context));
    PyException_SetCause(eg, Py_XNewRef(src->cause));
    ((BaseExc *)eg)->suppress_context = src->suppress_context;
    PyObject *notes;
    if (PyObject_GetOptionalAttr(orig, id_notes(), &notes) < 0) {
        goto error;
    }
    if (notes != NULL) {
        if (PySequence_Check(notes)) {
            PyObject *copy = PySequence_List(notes);
            int r = copy == NULL ? -1 : PyObject_SetAttr(eg, id_notes(), copy);
            Py_XDECREF(copy);
            if (r < 0) {
                Py_DECREF(notes);
                goto error;
            }
        }
        Py_DECREF(notes);
    }
    *result = eg;
    return 0;
error:
    Py_DECREF(eg);
    return -1;
}

/* Split `exc` by the matcher, keeping the tree shape: the whole exception
   if it matches, else (for a group) the matching and non-matching parts
   of its members.  rest is only built when want_rest is set. */
static int
split_recursive(PyObject *exc, matcher_kind kind, PyObject *value, int want_rest,
                PyObject **match, PyObject **rest)
{
    *match = *rest = NULL;
    int is_match = matcher_matches(exc, kind, value);
    if (is_match < 0) {
        return -1;
    }
    if (is_match) {
        *match = Py_NewRef(exc);
        return 0;
    }
    if (!_PyBaseExceptionGroup_Check(exc)) {
        if (want_rest) {
            *rest = Py_NewRef(exc);
        }
        return 0;
    }
    int result = -1;
    PyObject *match_list = PyList_New(0);
    PyObject *rest_list = want_rest ? PyList_New(0) : NULL;
    if (match_list == NULL || (want_rest && rest_list == NULL)) {
        goto done;
    }
    PyObject *excs = ((GroupObject *)exc)->excs;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(excs); i++) {
        PyObject *m, *r;
        if (Py_EnterRecursiveCall(" in split_recursive()")) {
            goto done;
        }
        int err = split_recursive(PyTuple_GET_ITEM(excs, i), kind, value, want_rest, &m, &r);
        Py_LeaveRecursiveCall();
        if (err < 0) {
            goto done;
        }
        err = (m != NULL && PyList_Append(match_list, m) < 0) ||
              (r != NULL && PyList_Append(rest_list, r) < 0);
        Py_XDECREF(m);
        Py_XDECREF(r);
        if (err) {
            goto done;
        }
    }
    if (group_subset(exc, match_list, match) < 0) {
        goto done;
    }
    if (want_rest && group_subset(exc, rest_list, rest) < 0) {
        Py_CLEAR(*match);
        goto done;
    }
    result = 0;
done:
    Py_XDECREF(match_list);
    Py_XDECREF(rest_list);
    return result;
}

static PyObject *
BaseExceptionGroup_split(PyObject *self, PyObject *matcher)
{
    matcher_kind kind;
    if (get_matcher_kind(matcher, &kind) < 0) {
        return NULL;
    }
    PyObject *match, *rest;
    if (split_recursive(self, kind, matcher, 1, &match, &rest) < 0) {
        return NULL;
    }
    return Py_BuildValue("(NN)", match ? match : Py_NewRef(Py_None),
                         rest ? rest : Py_NewRef(Py_None));
}

static PyObject *
BaseExceptionGroup_subgroup(PyObject *self, PyObject *matcher)
{
    matcher_kind kind;
    if (get_matcher_kind(matcher, &kind) < 0) {
        return NULL;
    }
    PyObject *match, *rest;
    if (split_recursive(self, kind, matcher, 0, &match, &rest) < 0) {
        return NULL;
    }
    return match ? match : Py_NewRef(Py_None);
}

static PyMemberDef BaseExceptionGroup_members[] = {
    {"message", _Py_T_OBJECT, offsetof(PyBaseExceptionGroupObject, msg), Py_READONLY,
     "exception message"},
    {"exceptions", _Py_T_OBJECT, offsetof(PyBaseExceptionGroupObject, excs), Py_READONLY,
     "nested exceptions"},
    {NULL},
};

static PyMethodDef BaseExceptionGroup_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"derive", BaseExceptionGroup_derive, METH_O, NULL},
    {"split", BaseExceptionGroup_split, METH_O, NULL},
    {"subgroup", BaseExceptionGroup_subgroup, METH_O, NULL},
    {NULL},
};

COMPLEX_EXC(BaseExceptionGroup, BaseException, PyBaseExceptionGroupObject, BaseExceptionGroup,
            BaseExceptionGroup_str, BaseExceptionGroup_members, BaseExceptionGroup_methods, NULL,
            "A group of unrelated exceptions raised together.")
SUBCLASS_EXC(ExceptionGroup, BaseExceptionGroup, PyBaseExceptionGroupObject, BaseExceptionGroup,
             "A group of unrelated Exceptions raised together.")

PyObject *
_PyExc_CreateExceptionGroup(const char *msg_str, PyObject *excs)
{
    PyObject *msg = PyUnicode_FromString(msg_str);
    if (msg == NULL) {
        return NULL;
    }
    PyObject *result = PyObject_CallFunction(PyExc_BaseExceptionGroup, "(OO)", msg, excs);
    Py_DECREF(msg);
    return result;
}

int
_PyExc_SplitByType(PyObject *exc, PyObject *types, PyObject **match, PyObject **rest)
{
    PyObject *m, *r;
    if (split_recursive(exc, MATCH_BY_TYPE, types, 1, &m, &r) < 0) {
        return -1;
    }
    *match = m ? m : Py_NewRef(Py_None);
    *rest = r ? r : Py_NewRef(Py_None);
    return 0;
}

/* ---- except* re-raise ----------------------------------------------------------- */

static int
collect_leaf_ids(PyObject *exc, PyObject *ids)
{
    if (exc == Py_None) {
        return 0;
    }
    if (!_PyBaseExceptionGroup_Check(exc)) {
        PyObject *id = PyLong_FromVoidPtr(exc);
        if (id == NULL) {
            return -1;
        }
        int r = PySet_Add(ids, id);
        Py_DECREF(id);
        return r;
    }
    PyObject *excs = ((GroupObject *)exc)->excs;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(excs); i++) {
        if (collect_leaf_ids(PyTuple_GET_ITEM(excs, i), ids) < 0) {
            return -1;
        }
    }
    return 0;
}

/* A re-raised exception still carries the traceback, cause and context
   it had when caught; a newly raised one has its own. */
static int
same_metadata(PyObject *a, PyObject *b)
{
    BaseExc *e1 = (BaseExc *)a, *e2 = (BaseExc *)b;
    return e1->traceback == e2->traceback && e1->cause == e2->cause &&
           e1->context == e2->context;
}

/* The part of `eg` whose leaves are the leaves of the exceptions in
   `keep`, in eg's shape; None when nothing is left. */
static PyObject *
group_projection(PyObject *eg, PyObject *keep)
{
    PyObject *ids = PySet_New(NULL);
    if (ids == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keep); i++) {
        if (collect_leaf_ids(PyList_GET_ITEM(keep, i), ids) < 0) {
            Py_DECREF(ids);
            return NULL;
        }
    }
    PyObject *match, *rest;
    int r = split_recursive(eg, MATCH_BY_IDS, ids, 0, &match, &rest);
    Py_DECREF(ids);
    if (r < 0) {
        return NULL;
    }
    return match ? match : Py_NewRef(Py_None);
}

PyObject *
_PyExc_PrepReraiseStar(PyObject *orig, PyObject *excs)
{
    Py_ssize_t n = PyList_GET_SIZE(excs);
    if (n == 0) {
        return Py_NewRef(Py_None);
    }
    if (!_PyBaseExceptionGroup_Check(orig)) {
        /* A naked exception was wrapped for matching: at most one clause
           ran, so there is at most one thing to raise. */
        return Py_NewRef(PyList_GET_ITEM(excs, 0));
    }
    PyObject *result = NULL, *reraised_eg = NULL;
    PyObject *raised = PyList_New(0);
    PyObject *reraised = PyList_New(0);
    if (raised == NULL || reraised == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = PyList_GET_ITEM(excs, i);
        if (e == Py_None) {
            continue;
        }
        if (PyList_Append(same_metadata(e, orig) ? reraised : raised, e) < 0) {
            goto done;
        }
    }
    reraised_eg = group_projection(orig, reraised);
    if (reraised_eg == NULL) {
        goto done;
    }
    if (PyList_GET_SIZE(raised) == 0) {
        result = Py_NewRef(reraised_eg);
        goto done;
    }
    if (reraised_eg != Py_None && PyList_Append(raised, reraised_eg) < 0) {
        goto done;
    }
    if (PyList_GET_SIZE(raised) > 1) {
        result = _PyExc_CreateExceptionGroup("", raised);
    }
    else {
        result = Py_NewRef(PyList_GET_ITEM(raised, 0));
    }
done:
    Py_XDECREF(raised);
    Py_XDECREF(reraised);
    Py_XDECREF(reraised_eg);
    return result;
}

/* ---- PyErr_NewException ----------------------------------------------------------- */

PyObject *
PyErr_NewException(const char *name, PyObject *base, PyObject *dict)
{
    PyObject *modulename = NULL, *mydict = NULL, *bases = NULL, *result = NULL;
    const char *dot = strrchr(name, '.');
    if (dot == NULL) {
        PyErr_SetString(PyExc_SystemError, "PyErr_NewException: name must be module.class");
        return NULL;
    }
    if (base == NULL) {
        base = PyExc_Exception;
    }
    if (dict == NULL) {
        dict = mydict = PyDict_New();
        if (dict == NULL) {
            goto done;
        }
    }
    int r = PyDict_ContainsString(dict, "__module__");
    if (r < 0) {
        goto done;
    }
    if (r == 0) {
        modulename = PyUnicode_FromStringAndSize(name, dot - name);
        if (modulename == NULL || PyDict_SetItemString(dict, "__module__", modulename) < 0) {
            goto done;
        }
    }
    bases = PyTuple_Check(base) ? Py_NewRef(base) : PyTuple_Pack(1, base);
    if (bases == NULL) {
        goto done;
    }
    result = PyObject_CallFunction((PyObject *)&PyType_Type, "sOO", dot + 1, bases, dict);
done:
    Py_XDECREF(bases);
    Py_XDECREF(mydict);
    Py_XDECREF(modulename);
    return result;
}

PyObject *
PyErr_NewExceptionWithDoc(const char *name, const char *doc, PyObject *base, PyObject *dict)
{
    PyObject *mydict = NULL, *result = NULL;
    if (dict == NULL) {
        dict = mydict = PyDict_New();
        if (dict == NULL) {
            return NULL;
        }
    }
    if (doc != NULL) {
        PyObject *docobj = PyUnicode_FromString(doc);
        int r = docobj == NULL ? -1 : PyDict_SetItemString(dict, "__doc__", docobj);
        Py_XDECREF(docobj);
        if (r < 0) {
            goto done;
        }
    }
    result = PyErr_NewException(name, base, dict);
done:
    Py_XDECREF(mydict);
    return result;
}

/* ---- Start-up ------------------------------------------------------------------------ */

/* Parents before children. */
static PyTypeObject *const static_exceptions[] = {
    &_PyExc_BaseException,
    &_PyExc_BaseExceptionGroup,
    &_PyExc_Exception,
    &_PyExc_ExceptionGroup,
    &_PyExc_GeneratorExit,
    &_PyExc_KeyboardInterrupt,
    &_PyExc_SystemExit,
    &_PyExc_ArithmeticError,
    &_PyExc_FloatingPointError,
    &_PyExc_OverflowError,
    &_PyExc_ZeroDivisionError,
    &_PyExc_AssertionError,
    &_PyExc_AttributeError,
    &_PyExc_BufferError,
    &_PyExc_EOFError,
    &_PyExc_ImportError,
    &_PyExc_ModuleNotFoundError,
    &_PyExc_LookupError,
    &_PyExc_IndexError,
    &_PyExc_KeyError,
    &_PyExc_MemoryError,
    &_PyExc_NameError,
    &_PyExc_UnboundLocalError,
    &_PyExc_OSError,
    &_PyExc_BlockingIOError,
    &_PyExc_ChildProcessError,
    &_PyExc_ConnectionError,
    &_PyExc_BrokenPipeError,
    &_PyExc_ConnectionAbortedError,
    &_PyExc_ConnectionRefusedError,
    &_PyExc_ConnectionResetError,
    &_PyExc_FileExistsError,
    &_PyExc_FileNotFoundError,
    &_PyExc_InterruptedError,
    &_PyExc_IsADirectoryError,
    &_PyExc_NotADirectoryError,
    &_PyExc_PermissionError,
    &_PyExc_ProcessLookupError,
    &_PyExc_TimeoutError,
    &_PyExc_ReferenceError,
    &_PyExc_RuntimeError,
    &_PyExc_NotImplementedError,
    &_PyExc_PythonFinalizationError,
    &_PyExc_RecursionError,
    &_PyExc_StopAsyncIteration,
    &_PyExc_StopIteration,
    &_PyExc_SyntaxError,
    &_PyExc__IncompleteInputError,
    &_PyExc_IndentationError,
    &_PyExc_TabError,
    &_PyExc_SystemError,
    &_PyExc_TypeError,
    &_PyExc_ValueError,
    &_PyExc_UnicodeError,
    &_PyExc_UnicodeDecodeError,
    &_PyExc_UnicodeEncodeError,
    &_PyExc_UnicodeTranslateError,
    &_PyExc_Warning,
    &_PyExc_BytesWarning,
    &_PyExc_DeprecationWarning,
    &_PyExc_EncodingWarning,
    &_PyExc_FutureWarning,
    &_PyExc_ImportWarning,
    &_PyExc_PendingDeprecationWarning,
    &_PyExc_ResourceWarning,
    &_PyExc_RuntimeWarning,
    &_PyExc_SyntaxWarning,
    &_PyExc_UnicodeWarning,
    &_PyExc_UserWarning,
};

int
_PyExc_InitTypes(PyInterpreterState *interp)
{
    (void)interp;
    if (_PyExc_ExceptionGroup.tp_bases == NULL) {
        PyObject *bases = PyTuple_Pack(2, PyExc_BaseExceptionGroup, PyExc_Exception);
        if (bases == NULL) {
            return -1;
        }
        _Py_SetImmortal(bases);
        _PyExc_ExceptionGroup.tp_bases = bases;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(static_exceptions); i++) {
        if (_PyStaticType_InitBuiltin(static_exceptions[i]) < 0) {
            return -1;
        }
    }
    return memerror_fill_reserve();
}

int
_PyBuiltins_AddExceptions(PyObject *bltinmod_dict)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(static_exceptions); i++) {
        PyTypeObject *t = static_exceptions[i];
        if (PyDict_SetItemString(bltinmod_dict, t->tp_name, (PyObject *)t) < 0) {
            return -1;
        }
    }
    if (PyDict_SetItemString(bltinmod_dict, "EnvironmentError", PyExc_OSError) < 0 ||
        PyDict_SetItemString(bltinmod_dict, "IOError", PyExc_OSError) < 0) {
        return -1;
    }
    return 0;
}
