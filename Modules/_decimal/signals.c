/* Signals of the decimal module: the exception classes, their status bits
   in libmpdec, the flags/traps mappings and raising a trapped signal.

   A signal is one of the nine classes that flags and traps are keyed by.
   InvalidOperation stands for several libmpdec conditions; four of them
   have their own subclasses (ConversionSyntax, ...), which show in the
   argument list of a raised exception but are not keys of the mappings. */

#include "decimal.h"

typedef struct {
    const char *name;
    uint32_t bits;
    const char *bases[3];       /* names of other signals, or builtin tags */
    PyObject *cls;
} SignalInfo;

/* In the order the flags and traps mappings iterate. */
static SignalInfo signal_table[] = {
    {"InvalidOperation", MPD_IEEE_Invalid_operation, {"DecimalException"}},
    {"FloatOperation", DEC_FLOAT_OPERATION, {"DecimalException", "!TypeError"}},
    {"DivisionByZero", MPD_Division_by_zero,
     {"DecimalException", "!ZeroDivisionError"}},
    {"Overflow", MPD_Overflow, {"Inexact", "Rounded"}},
    {"Underflow", MPD_Underflow, {"Inexact", "Rounded", "Subnormal"}},
    {"Subnormal", MPD_Subnormal, {"DecimalException"}},
    {"Inexact", MPD_Inexact, {"DecimalException"}},
    {"Rounded", MPD_Rounded, {"DecimalException"}},
    {"Clamped", MPD_Clamped, {"DecimalException"}},
};
#define SIGNAL_COUNT ((int)Py_ARRAY_LENGTH(signal_table))

/* The conditions folded into InvalidOperation that have a class. */
static SignalInfo condition_table[] = {
    {"ConversionSyntax", MPD_Conversion_syntax, {"InvalidOperation"}},
    {"DivisionImpossible", MPD_Division_impossible, {"InvalidOperation"}},
    {"DivisionUndefined", MPD_Division_undefined,
     {"InvalidOperation", "!ZeroDivisionError"}},
    {"InvalidContext", MPD_Invalid_context, {"InvalidOperation"}},
};
#define CONDITION_COUNT ((int)Py_ARRAY_LENGTH(condition_table))

static PyObject *decimal_exception;     /* the root DecimalException */
PyTypeObject *_PyDecSignalDict_Type;

static const char invalid_signal_message[] =
    "valid values for signals are:\n"
    "  [InvalidOperation, FloatOperation, DivisionByZero,\n"
    "   Overflow, Underflow, Subnormal, Inexact, Rounded,\n"
    "   Clamped]";

/* ---- Building the class hierarchy ------------------------------------- */

static PyObject *
class_named(const char *name)
{
    if (name[0] == '!') {
        if (strcmp(name + 1, "TypeError") == 0) {
            return PyExc_TypeError;
        }
        return PyExc_ZeroDivisionError;
    }
    if (strcmp(name, "DecimalException") == 0) {
        return decimal_exception;
    }
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        if (strcmp(signal_table[i].name, name) == 0) {
            return signal_table[i].cls;
        }
    }
    return NULL;
}

/* Create the class of ENTRY once its bases exist; 0 when it must wait. */
static int
try_create_class(SignalInfo *entry)
{
    PyObject *bases[3];
    int n = 0;
    for (; n < 3 && entry->bases[n] != NULL; n++) {
        bases[n] = class_named(entry->bases[n]);
        if (bases[n] == NULL) {
            return 0;
        }
    }
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(bases[i]));
    }
    char qualified[64];
    snprintf(qualified, sizeof(qualified), "decimal.%s", entry->name);
    entry->cls = PyErr_NewException(qualified, tuple, NULL);
    Py_DECREF(tuple);
    return entry->cls == NULL ? -1 : 1;
}

static int
create_hierarchy(void)
{
    decimal_exception = PyErr_NewException("decimal.DecimalException",
                                           PyExc_ArithmeticError, NULL);
    if (decimal_exception == NULL) {
        return -1;
    }
    /* Bases may come later in the table: sweep until all exist. */
    for (int sweep = 0; sweep < SIGNAL_COUNT; sweep++) {
        for (int i = 0; i < SIGNAL_COUNT; i++) {
            if (signal_table[i].cls == NULL
                && try_create_class(&signal_table[i]) < 0) {
                return -1;
            }
        }
    }
    for (int i = 0; i < CONDITION_COUNT; i++) {
        if (try_create_class(&condition_table[i]) <= 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- Keys and bits ----------------------------------------------------- */

/* The bits of a signal class used as a key; KeyError for anything else. */
int
_PyDecSignals_BitsFromKey(PyObject *key, uint32_t *bits)
{
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        if (key == signal_table[i].cls) {
            *bits = signal_table[i].bits;
            return 0;
        }
    }
    PyErr_SetString(PyExc_KeyError, invalid_signal_message);
    return -1;
}

static int
bits_from_signal_dict(PyObject *dict, uint32_t *bits)
{
    if (PyDict_Size(dict) != SIGNAL_COUNT) {
        PyErr_SetString(PyExc_KeyError, "invalid signal dict");
        return -1;
    }
    uint32_t result = 0;
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        PyObject *value;
        if (PyDict_GetItemRef(dict, signal_table[i].cls, &value) <= 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_KeyError, "invalid signal dict");
            }
            return -1;
        }
        int truth = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (truth < 0) {
            return -1;
        }
        if (truth) {
            result |= signal_table[i].bits;
        }
    }
    *bits = result;
    return 0;
}

/* Bits from a constructor argument: a dict of all signals, a signal dict,
   or a list of signal classes. */
int
_PyDecSignals_BitsFromArg(PyObject *arg, uint32_t *bits)
{
    if (PyObject_TypeCheck(arg, &_PyDecSignalDictMixin_Type)) {
        *bits = ((PyDecSignalDictObject *)arg)->bits;
        return 0;
    }
    if (PyDict_Check(arg)) {
        return bits_from_signal_dict(arg, bits);
    }
    if (!PyList_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "argument must be a signal dict");
        return -1;
    }
    PyObject *items = Py_NewRef(arg);
    uint32_t result = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++) {
        uint32_t one;
        if (_PyDecSignals_BitsFromKey(PyList_GET_ITEM(items, i), &one) < 0) {
            Py_DECREF(items);
            return -1;
        }
        result |= one;
    }
    Py_DECREF(items);
    *bits = result;
    return 0;
}

static SignalInfo *
signal_of_bit(uint32_t bit)
{
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        if (signal_table[i].bits & bit) {
            return &signal_table[i];
        }
    }
    return NULL;
}

/* The signals set in BITS: as classes in mapping order (as_classes), or
   as a list of names in libmpdec's bit order (what Context's repr shows). */
PyObject *
_PyDecSignals_NamesList(uint32_t bits, int as_classes)
{
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    if (as_classes) {
        for (int i = 0; i < SIGNAL_COUNT; i++) {
            if ((bits & signal_table[i].bits)
                && PyList_Append(list, signal_table[i].cls) < 0) {
                goto error;
            }
        }
        return list;
    }
    uint32_t shown = 0;
    for (uint32_t bit = 1; bit <= MPD_Max_status; bit <<= 1) {
        SignalInfo *entry = signal_of_bit(bit);
        if (!(bits & bit) || entry == NULL || (shown & entry->bits)) {
            continue;
        }
        shown |= entry->bits;
        PyObject *name = PyUnicode_FromString(entry->name);
        if (name == NULL || PyList_Append(list, name) < 0) {
            Py_XDECREF(name);
            goto error;
        }
        Py_DECREF(name);
    }
    return list;
error:
    Py_DECREF(list);
    return NULL;
}

/* ---- Raising ------------------------------------------------------------ */

static int
append_class(PyObject *list, PyObject *cls)
{
    return PyList_Append(list, cls);
}

/* The classes of the trapped conditions, as the exception's argument. */
static PyObject *
trapped_classes(uint32_t trapped)
{
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        SignalInfo *sig = &signal_table[i];
        if (!(trapped & sig->bits)) {
            continue;
        }
        if (sig->bits != MPD_IEEE_Invalid_operation) {
            if (append_class(list, sig->cls) < 0) {
                goto error;
            }
            continue;
        }
        uint32_t plain = trapped & MPD_IEEE_Invalid_operation;
        for (int j = 0; j < CONDITION_COUNT; j++) {
            if (trapped & condition_table[j].bits) {
                plain &= ~condition_table[j].bits;
                if (append_class(list, condition_table[j].cls) < 0) {
                    goto error;
                }
            }
        }
        if (plain && append_class(list, sig->cls) < 0) {
            goto error;
        }
    }
    return list;
error:
    Py_DECREF(list);
    return NULL;
}

/* Raise the first trapped signal, its argument listing all that trapped. */
int
_PyDecSignals_Raise(uint32_t trapped)
{
    if (trapped & MPD_Malloc_error) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *cls = NULL;
    for (int i = 0; i < SIGNAL_COUNT && cls == NULL; i++) {
        if (trapped & signal_table[i].bits) {
            cls = signal_table[i].cls;
        }
    }
    PyObject *arg = trapped_classes(trapped);
    if (arg == NULL) {
        return -1;
    }
    PyErr_SetObject(cls, arg);
    Py_DECREF(arg);
    return -1;
}

/* ---- The signal dict ------------------------------------------------------ */

PyObject *
_PyDecSignals_NewDict(uint32_t bits)
{
    PyTypeObject *type = _PyDecSignalDict_Type;
    PyDecSignalDictObject *d = (PyDecSignalDictObject *)type->tp_alloc(type, 0);
    if (d != NULL) {
        d->bits = bits;
    }
    return (PyObject *)d;
}

static Py_ssize_t
sigdict_length(PyObject *self)
{
    return SIGNAL_COUNT;
}

static PyObject *
sigdict_subscript(PyObject *self, PyObject *key)
{
    uint32_t bits;
    if (_PyDecSignals_BitsFromKey(key, &bits) < 0) {
        return NULL;
    }
    return PyBool_FromLong((((PyDecSignalDictObject *)self)->bits & bits) != 0);
}

static int
sigdict_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "signal keys cannot be deleted");
        return -1;
    }
    uint32_t bits;
    if (_PyDecSignals_BitsFromKey(key, &bits) < 0) {
        return -1;
    }
    int truth = PyObject_IsTrue(value);
    if (truth < 0) {
        return -1;
    }
    PyDecSignalDictObject *d = (PyDecSignalDictObject *)self;
    d->bits = truth ? (d->bits | bits) : (d->bits & ~bits);
    return 0;
}

static PyObject *
sigdict_iter(PyObject *self)
{
    PyObject *keys = _PyDecSignals_NamesList(DEC_ALL_SIGNAL_BITS, 1);
    if (keys == NULL) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

static PyObject *
sigdict_repr(PyObject *self)
{
    uint32_t bits = ((PyDecSignalDictObject *)self)->bits;
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        PyObject *s = PyUnicode_FromFormat("%R:%s", signal_table[i].cls,
                                           (bits & signal_table[i].bits) ? "True" : "False");
        if (s == NULL || PyList_Append(parts, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(s);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *body = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    if (body == NULL) {
        return NULL;
    }
    PyObject *result = PyUnicode_FromFormat("{%U}", body);
    Py_DECREF(body);
    return result;
}

/* copy(): a plain dict {signal: bool}. */
static PyObject *
sigdict_copy(PyObject *self, PyObject *unused)
{
    uint32_t bits = ((PyDecSignalDictObject *)self)->bits;
    PyObject *dict = PyDict_New();
    if (dict == NULL) {
        return NULL;
    }
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        PyObject *flag = (bits & signal_table[i].bits) ? Py_True : Py_False;
        if (PyDict_SetItem(dict, signal_table[i].cls, flag) < 0) {
            Py_DECREF(dict);
            return NULL;
        }
    }
    return dict;
}

static PyMappingMethods sigdict_as_mapping = {
    .mp_length = sigdict_length,
    .mp_subscript = sigdict_subscript,
    .mp_ass_subscript = sigdict_ass_subscript,
};

static PyMethodDef sigdict_methods[] = {
    {"copy", sigdict_copy, METH_NOARGS,
     "copy($self, /)\n--\n\nA plain dict of each signal and whether it is set."},
    {NULL, NULL, 0, NULL},
};

static void
sigdict_dealloc(PyObject *self)
{
    Py_TYPE(self)->tp_free(self);
}

PyTypeObject _PyDecSignalDictMixin_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "decimal.SignalDictMixin",
    .tp_basicsize = sizeof(PyDecSignalDictObject),
    .tp_dealloc = sigdict_dealloc,
    .tp_repr = sigdict_repr,
    .tp_as_mapping = &sigdict_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The flags or traps of a Context: each signal and whether it is set.",
    .tp_iter = sigdict_iter,
    .tp_methods = sigdict_methods,
    .tp_alloc = PyType_GenericAlloc,
    .tp_free = PyObject_Free,
};

/* SignalDict proper: the mixin plus collections.abc.MutableMapping, so
   keys(), items(), get() and the rest come from the ABC. */
static int
create_signal_dict_type(void)
{
    PyObject *abc = PyImport_ImportModule("collections.abc");
    if (abc == NULL) {
        return -1;
    }
    PyObject *mutable_mapping = PyObject_GetAttrString(abc, "MutableMapping");
    Py_DECREF(abc);
    if (mutable_mapping == NULL) {
        return -1;
    }
    PyObject *ns = Py_BuildValue("{sss()}", "__module__", "decimal", "__slots__");
    PyObject *type = NULL;
    if (ns != NULL) {
        type = PyObject_CallFunction((PyObject *)Py_TYPE(mutable_mapping), "s(OO)O",
                                     "SignalDict", &_PyDecSignalDictMixin_Type,
                                     mutable_mapping, ns);
    }
    Py_XDECREF(ns);
    Py_DECREF(mutable_mapping);
    if (type == NULL) {
        return -1;
    }
    _PyDecSignalDict_Type = (PyTypeObject *)type;
    return 0;
}

static int
add_classes(PyObject *module, SignalInfo *table, int count)
{
    for (int i = 0; i < count; i++) {
        if (PyModule_AddObjectRef(module, table[i].name, table[i].cls) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Drop the classes at finalization (the pydebug build counts references
   left at exit). */
void
_PyDecSignals_Fini(void)
{
    for (int i = 0; i < SIGNAL_COUNT; i++) {
        Py_CLEAR(signal_table[i].cls);
    }
    for (int i = 0; i < CONDITION_COUNT; i++) {
        Py_CLEAR(condition_table[i].cls);
    }
    Py_CLEAR(decimal_exception);
    Py_CLEAR(_PyDecSignalDict_Type);
}

int
_PyDecSignals_Init(PyObject *module)
{
    if (decimal_exception == NULL) {
        if (_PyDec_ReadyStatic(&_PyDecSignalDictMixin_Type) < 0
            || create_hierarchy() < 0 || create_signal_dict_type() < 0) {
            return -1;
        }
    }
    if (PyModule_AddObjectRef(module, "DecimalException", decimal_exception) < 0
        || add_classes(module, signal_table, SIGNAL_COUNT) < 0
        || add_classes(module, condition_table, CONDITION_COUNT) < 0) {
        return -1;
    }
    return 0;
}
