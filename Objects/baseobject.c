/* `object`, the root of every class, and `super`, the proxy that
   continues an attribute lookup further along the MRO.

   object's methods give every class its defaults: identity equality, the
   pointer hash, "<module.Class object at 0x...>", the pickling protocol
   (__reduce_ex__, __getstate__) and dir() support. */
#include "Python.h"
#include "pycore_call.h"
#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"

/* ---- object: construction ------------------------------------------------------

   object.__new__ and object.__init__ accept extra arguments only when the
   other one is overridden: `class C: def __init__(self, x)` must not fail
   in object.__new__, yet `C(1)` with neither overridden must. */

static int object_init(PyObject *self, PyObject *args, PyObject *kwds);
static PyObject *object_new(PyTypeObject *type, PyObject *args, PyObject *kwds);

static int
excess_args(PyObject *args, PyObject *kwds)
{
    return PyTuple_GET_SIZE(args) || (kwds != NULL && PyDict_Check(kwds) && PyDict_GET_SIZE(kwds));
}

static int
object_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyTypeObject *type = Py_TYPE(self);
    if (excess_args(args, kwds)) {
        if (type->tp_init != object_init) {
            PyErr_SetString(PyExc_TypeError,
                            "object.__init__() takes exactly one argument (the instance to "
                            "initialize)");
            return -1;
        }
        if (type->tp_new == object_new) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s.__init__() takes exactly one argument (the instance to "
                         "initialize)",
                         type->tp_name);
            return -1;
        }
    }
    return 0;
}

static PyObject *
abstract_error(PyTypeObject *type)
{
    PyObject *methods = PyObject_GetAttr((PyObject *)type, _Py_ID(__abstractmethods__));
    if (methods == NULL) {
        return NULL;
    }
    PyObject *sorted = PySequence_List(methods);
    Py_DECREF(methods);
    if (sorted == NULL) {
        return NULL;
    }
    PyObject *joined = NULL, *sep = NULL;
    if (PyList_Sort(sorted) < 0) {
        goto done;
    }
    sep = PyUnicode_FromString("', '");
    if (sep == NULL) {
        goto done;
    }
    joined = PyUnicode_Join(sep, sorted);
    if (joined == NULL) {
        goto done;
    }
    PyErr_Format(PyExc_TypeError,
                 "Can't instantiate abstract class %s without an implementation for abstract "
                 "method%s '%U'",
                 type->tp_name, PyList_GET_SIZE(sorted) > 1 ? "s" : "", joined);
done:
    Py_XDECREF(joined);
    Py_XDECREF(sep);
    Py_DECREF(sorted);
    return NULL;
}

static PyObject *
object_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (excess_args(args, kwds)) {
        if (type->tp_new != object_new) {
            PyErr_SetString(PyExc_TypeError,
                            "object.__new__() takes exactly one argument (the type to "
                            "instantiate)");
            return NULL;
        }
        if (type->tp_init == object_init) {
            PyErr_Format(PyExc_TypeError, "%.200s() takes no arguments", type->tp_name);
            return NULL;
        }
    }
    if (PyType_HasFeature(type, Py_TPFLAGS_IS_ABSTRACT)) {
        return abstract_error(type);
    }
    return type->tp_alloc(type, 0);
}

PyObject *
_PyObject_NewDefault(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return object_new(type, args, kwds);
}

int
_PyObject_InitDefault(PyObject *self, PyObject *args, PyObject *kwds)
{
    return object_init(self, args, kwds);
}

static void
object_dealloc(PyObject *self)
{
    Py_TYPE(self)->tp_free(self);
}

/* ---- object: repr, str, comparison ------------------------------------------------ */

static PyObject *
object_repr(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject *mod = _PyType_GetModuleName(type);
    if (mod == NULL) {
        PyErr_Clear();
    }
    else if (!PyUnicode_Check(mod)) {
        Py_CLEAR(mod);
    }
    PyObject *name = PyType_GetQualName(type);
    if (name == NULL) {
        Py_XDECREF(mod);
        return NULL;
    }
    PyObject *res;
    if (mod != NULL && !_PyUnicode_EqualToASCIIString(mod, "builtins")) {
        res = PyUnicode_FromFormat("<%U.%U object at %p>", mod, name, (void *)self);
    }
    else {
        res = PyUnicode_FromFormat("<%s object at %p>", type->tp_name, (void *)self);
    }
    Py_XDECREF(mod);
    Py_DECREF(name);
    return res;
}

static PyObject *
object_str(PyObject *self)
{
    reprfunc f = Py_TYPE(self)->tp_repr;
    if (f == NULL) {
        f = object_repr;
    }
    return f(self);
}

static PyObject *
object_richcompare(PyObject *self, PyObject *other, int op)
{
    switch (op) {
    case Py_EQ:
        return Py_NewRef(self == other ? Py_True : Py_NotImplemented);
    case Py_NE: {
        /* != is the negation of ==, unless == is not implemented. */
        richcmpfunc cmp = Py_TYPE(self)->tp_richcompare;
        if (cmp == NULL) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        PyObject *res = cmp(self, other, Py_EQ);
        if (res != NULL && res != Py_NotImplemented) {
            int ok = PyObject_IsTrue(res);
            Py_DECREF(res);
            if (ok < 0) {
                return NULL;
            }
            return Py_NewRef(ok ? Py_False : Py_True);
        }
        return res;
    }
    default:
        Py_RETURN_NOTIMPLEMENTED;
    }
}

/* ---- object: __class__ ------------------------------------------------------------ */

static PyObject *
object_get_class(PyObject *self, void *context)
{
    return Py_NewRef(Py_TYPE(self));
}

static int
object_set_class(PyObject *self, PyObject *value, void *context)
{
    return _PyObject_SetClass(self, value);
}

static PyGetSetDef object_getsets[] = {
    {"__class__", object_get_class, object_set_class,
     "the object's class", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- object: pickling ---------------------------------------------------------------

   Protocol 2 and later reduce an instance to
   (copyreg.__newobj__, (cls, *newargs), state, listitems, dictitems);
   older protocols defer to copyreg._reduce_ex. */

static PyObject *
import_copyreg(void)
{
    return PyImport_ImportModule("copyreg");
}

/* The names of the __slots__ of cls and its bases (cached by copyreg in
   cls.__slotnames__), or None. */
static PyObject *
type_slotnames(PyTypeObject *cls)
{
    PyObject *slotnames;
    if (PyDict_GetItemRef(cls->tp_dict, _Py_ID(__slotnames__), &slotnames) < 0) {
        return NULL;
    }
    if (slotnames == NULL) {
        PyObject *copyreg = import_copyreg();
        if (copyreg == NULL) {
            return NULL;
        }
        slotnames = PyObject_CallMethodOneArg(copyreg, _Py_ID(_slotnames), (PyObject *)cls);
        Py_DECREF(copyreg);
        if (slotnames == NULL) {
            return NULL;
        }
    }
    if (slotnames != Py_None && !PyList_Check(slotnames)) {
        PyErr_SetString(PyExc_TypeError, "copyreg._slotnames didn't return a list or None");
        Py_DECREF(slotnames);
        return NULL;
    }
    return slotnames;
}

static int
instance_dict_is_empty(PyObject *obj)
{
    PyObject **dictptr = _PyObject_GetDictPtr(obj);
    return dictptr == NULL || *dictptr == NULL || PyDict_GET_SIZE(*dictptr) == 0;
}

static int
check_picklable_layout(PyObject *obj, PyObject *slotnames)
{
    PyTypeObject *tp = Py_TYPE(obj);
    Py_ssize_t basicsize = PyBaseObject_Type.tp_basicsize;
    if (tp->tp_dictoffset > 0) {
        basicsize += sizeof(PyObject *);
    }
    if (tp->tp_weaklistoffset > 0) {
        basicsize += sizeof(PyObject *);
    }
    if (slotnames != Py_None) {
        basicsize += sizeof(PyObject *) * PyList_GET_SIZE(slotnames);
    }
    if (tp->tp_basicsize > basicsize) {
        PyErr_Format(PyExc_TypeError, "cannot pickle '%.200s' object", tp->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
slots_state(PyObject *obj, PyObject *slotnames)
{
    PyObject *slots = PyDict_New();
    if (slots == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(slotnames); i++) {
        PyObject *name = PyList_GET_ITEM(slotnames, i), *value;
        Py_INCREF(name);
        int rc = PyObject_GetOptionalAttr(obj, name, &value);
        if (rc > 0) {
            rc = PyDict_SetItem(slots, name, value);
            Py_DECREF(value);
        }
        Py_DECREF(name);
        if (rc < 0) {
            Py_DECREF(slots);
            return NULL;
        }
    }
    return slots;
}

static PyObject *
object_getstate_default(PyObject *obj, int required)
{
    if (required && Py_TYPE(obj)->tp_itemsize) {
        PyErr_Format(PyExc_TypeError, "cannot pickle %.200s objects", Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyObject *state;
    if (instance_dict_is_empty(obj)) {
        state = Py_NewRef(Py_None);
    }
    else {
        state = PyObject_GenericGetDict(obj, NULL);
        if (state == NULL) {
            return NULL;
        }
    }
    PyObject *slotnames = type_slotnames(Py_TYPE(obj));
    if (slotnames == NULL) {
        Py_DECREF(state);
        return NULL;
    }
    if (required && check_picklable_layout(obj, slotnames) < 0) {
        goto error;
    }
    if (slotnames != Py_None && PyList_GET_SIZE(slotnames) > 0) {
        PyObject *slots = slots_state(obj, slotnames);
        if (slots == NULL) {
            goto error;
        }
        if (PyDict_GET_SIZE(slots) > 0) {
            Py_SETREF(state, PyTuple_Pack(2, state, slots));
        }
        Py_DECREF(slots);
        if (state == NULL) {
            goto error;
        }
    }
    Py_DECREF(slotnames);
    return state;
error:
    Py_DECREF(slotnames);
    Py_DECREF(state);
    return NULL;
}

static PyObject *object___getstate__(PyObject *self, PyObject *Py_UNUSED(ignored));

static PyObject *
object_getstate(PyObject *obj, int required)
{
    PyObject *getstate = PyObject_GetAttr(obj, _Py_ID(__getstate__));
    if (getstate == NULL) {
        return NULL;
    }
    PyObject *state;
    if (PyCFunction_Check(getstate) && PyCFunction_GET_SELF(getstate) == obj &&
        PyCFunction_GET_FUNCTION(getstate) == object___getstate__) {
        state = object_getstate_default(obj, required);
    }
    else {
        state = _PyObject_CallNoArgs(getstate);
    }
    Py_DECREF(getstate);
    return state;
}

PyObject *
_PyObject_GetState(PyObject *obj)
{
    return object_getstate(obj, 0);
}

static PyObject *
object___getstate__(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return object_getstate_default(self, 0);
}

static int
check_newargs_ex(PyObject *newargs)
{
    if (!PyTuple_Check(newargs)) {
        PyErr_Format(PyExc_TypeError, "__getnewargs_ex__ should return a tuple, not '%.200s'",
                     Py_TYPE(newargs)->tp_name);
        return -1;
    }
    if (PyTuple_GET_SIZE(newargs) != 2) {
        PyErr_Format(PyExc_ValueError,
                     "__getnewargs_ex__ should return a tuple of length 2, not %zd",
                     PyTuple_GET_SIZE(newargs));
        return -1;
    }
    PyObject *args = PyTuple_GET_ITEM(newargs, 0), *kwargs = PyTuple_GET_ITEM(newargs, 1);
    if (!PyTuple_Check(args)) {
        PyErr_Format(PyExc_TypeError,
                     "first item of the tuple returned by __getnewargs_ex__ must be a tuple, "
                     "not '%.200s'",
                     Py_TYPE(args)->tp_name);
        return -1;
    }
    if (!PyDict_Check(kwargs)) {
        PyErr_Format(PyExc_TypeError,
                     "second item of the tuple returned by __getnewargs_ex__ must be a dict, "
                     "not '%.200s'",
                     Py_TYPE(kwargs)->tp_name);
        return -1;
    }
    return 0;
}

static int
get_new_arguments(PyObject *obj, PyObject **args, PyObject **kwargs)
{
    *args = *kwargs = NULL;
    PyObject *func = _PyObject_LookupSpecial(obj, _Py_ID(__getnewargs_ex__));
    if (func != NULL) {
        PyObject *newargs = _PyObject_CallNoArgs(func);
        Py_DECREF(func);
        if (newargs == NULL) {
            return -1;
        }
        if (check_newargs_ex(newargs) < 0) {
            Py_DECREF(newargs);
            return -1;
        }
        *args = Py_NewRef(PyTuple_GET_ITEM(newargs, 0));
        *kwargs = Py_NewRef(PyTuple_GET_ITEM(newargs, 1));
        Py_DECREF(newargs);
        return 0;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    func = _PyObject_LookupSpecial(obj, _Py_ID(__getnewargs__));
    if (func != NULL) {
        *args = _PyObject_CallNoArgs(func);
        Py_DECREF(func);
        if (*args == NULL) {
            return -1;
        }
        if (!PyTuple_Check(*args)) {
            PyErr_Format(PyExc_TypeError, "__getnewargs__ should return a tuple, not '%.200s'",
                         Py_TYPE(*args)->tp_name);
            Py_CLEAR(*args);
            return -1;
        }
        return 0;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static int
get_items_iters(PyObject *obj, PyObject **listitems, PyObject **dictitems)
{
    *listitems = *dictitems = NULL;
    if (PyList_Check(obj)) {
        *listitems = PyObject_GetIter(obj);
        if (*listitems == NULL) {
            return -1;
        }
    }
    else {
        *listitems = Py_NewRef(Py_None);
    }
    if (PyDict_Check(obj)) {
        PyObject *items = PyObject_CallMethodNoArgs(obj, _Py_ID(items));
        if (items == NULL) {
            Py_CLEAR(*listitems);
            return -1;
        }
        *dictitems = PyObject_GetIter(items);
        Py_DECREF(items);
        if (*dictitems == NULL) {
            Py_CLEAR(*listitems);
            return -1;
        }
    }
    else {
        *dictitems = Py_NewRef(Py_None);
    }
    return 0;
}

static PyObject *
newobj_call(PyObject *copyreg, PyObject *cls, PyObject *args, PyObject *kwargs, PyObject **newargs)
{
    if (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0) {
        Py_ssize_t n = args == NULL ? 0 : PyTuple_GET_SIZE(args);
        *newargs = PyTuple_New(n + 1);
        if (*newargs == NULL) {
            return NULL;
        }
        PyTuple_SET_ITEM(*newargs, 0, Py_NewRef(cls));
        for (Py_ssize_t i = 0; i < n; i++) {
            PyTuple_SET_ITEM(*newargs, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
        }
        return PyObject_GetAttr(copyreg, _Py_ID(__newobj__));
    }
    *newargs = PyTuple_Pack(3, cls, args, kwargs);
    if (*newargs == NULL) {
        return NULL;
    }
    return PyObject_GetAttr(copyreg, _Py_ID(__newobj_ex__));
}

static PyObject *
reduce_newobj(PyObject *obj)
{
    if (Py_TYPE(obj)->tp_new == NULL) {
        PyErr_Format(PyExc_TypeError, "cannot pickle '%.200s' object", Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyObject *args, *kwargs;
    if (get_new_arguments(obj, &args, &kwargs) < 0) {
        return NULL;
    }
    PyObject *copyreg = import_copyreg();
    PyObject *newobj = NULL, *newargs = NULL, *state = NULL, *listitems = NULL,
             *dictitems = NULL, *result = NULL;
    if (copyreg == NULL) {
        goto done;
    }
    int hasargs = args != NULL;
    newobj = newobj_call(copyreg, (PyObject *)Py_TYPE(obj), args, kwargs, &newargs);
    if (newobj == NULL) {
        goto done;
    }
    state = object_getstate(obj, !(hasargs || PyList_Check(obj) || PyDict_Check(obj)));
    if (state == NULL || get_items_iters(obj, &listitems, &dictitems) < 0) {
        goto done;
    }
    result = PyTuple_Pack(5, newobj, newargs, state, listitems, dictitems);
done:
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    Py_XDECREF(copyreg);
    Py_XDECREF(newobj);
    Py_XDECREF(newargs);
    Py_XDECREF(state);
    Py_XDECREF(listitems);
    Py_XDECREF(dictitems);
    return result;
}

static PyObject *
common_reduce(PyObject *self, int proto)
{
    if (proto >= 2) {
        return reduce_newobj(self);
    }
    PyObject *copyreg = import_copyreg();
    if (copyreg == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallMethod(copyreg, "_reduce_ex", "Oi", self, proto);
    Py_DECREF(copyreg);
    return res;
}

static PyObject *
object___reduce__(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return common_reduce(self, 0);
}

PyObject *
_PyObject_ReduceEx(PyObject *self, int protocol)
{
    /* A class that overrides __reduce__ (but not __reduce_ex__) is served
       by its __reduce__. */
    PyObject *reduce;
    if (PyObject_GetOptionalAttr(self, _Py_ID(__reduce__), &reduce) < 0) {
        return NULL;
    }
    if (reduce != NULL) {
        PyObject *objreduce = PyDict_GetItemWithError(PyBaseObject_Type.tp_dict, _Py_ID(__reduce__));
        PyObject *clsreduce = PyObject_GetAttr((PyObject *)Py_TYPE(self), _Py_ID(__reduce__));
        if (clsreduce == NULL) {
            Py_DECREF(reduce);
            return NULL;
        }
        int override = clsreduce != objreduce;
        Py_DECREF(clsreduce);
        if (override) {
            PyObject *res = _PyObject_CallNoArgs(reduce);
            Py_DECREF(reduce);
            return res;
        }
        Py_DECREF(reduce);
    }
    return common_reduce(self, protocol);
}

static PyObject *
object___reduce_ex__(PyObject *self, PyObject *arg)
{
    int protocol = PyLong_AsInt(arg);
    if (protocol == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return _PyObject_ReduceEx(self, protocol);
}

/* ---- object: other methods ---------------------------------------------------------- */

static PyObject *
object_subclasshook(PyObject *cls, PyObject *arg)
{
    Py_RETURN_NOTIMPLEMENTED;
}

static PyObject *
object_init_subclass(PyObject *cls, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_NONE;
}

static PyObject *
object___format__(PyObject *self, PyObject *format_spec)
{
    if (!PyUnicode_Check(format_spec)) {
        PyErr_Format(PyExc_TypeError, "__format__() argument must be str, not %.200s",
                     Py_TYPE(format_spec)->tp_name);
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(format_spec) > 0) {
        PyErr_Format(PyExc_TypeError, "unsupported format string passed to %.200s.__format__",
                     Py_TYPE(self)->tp_name);
        return NULL;
    }
    return PyObject_Str(self);
}

static PyObject *
object___sizeof__(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t res = 0;
    Py_ssize_t isize = Py_TYPE(self)->tp_itemsize;
    if (isize > 0) {
        Py_ssize_t n = Py_SIZE(self);
        res = (n < 0 ? -n : n) * isize;
    }
    res += Py_TYPE(self)->tp_basicsize;
    return PyLong_FromSsize_t(res);
}

static PyObject *
object___dir__(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *dict, *itsclass = NULL, *result = NULL;
    if (PyObject_GetOptionalAttr(self, _Py_ID(__dict__), &dict) < 0) {
        return NULL;
    }
    if (dict == NULL || !PyDict_Check(dict)) {
        Py_XSETREF(dict, PyDict_New());
    }
    else {
        Py_SETREF(dict, PyDict_Copy(dict));
    }
    if (dict == NULL) {
        return NULL;
    }
    if (PyObject_GetOptionalAttr(self, _Py_ID(__class__), &itsclass) < 0) {
        goto done;
    }
    if (itsclass != NULL && _PyType_MergeClassDict(dict, itsclass) < 0) {
        goto done;
    }
    result = PyDict_Keys(dict);
done:
    Py_XDECREF(itsclass);
    Py_DECREF(dict);
    return result;
}

static PyMethodDef object_methods[] = {
    {"__reduce_ex__", object___reduce_ex__, METH_O, "Helper for pickle."},
    {"__reduce__", object___reduce__, METH_NOARGS, "Helper for pickle."},
    {"__getstate__", object___getstate__, METH_NOARGS, "Helper for pickle."},
    {"__subclasshook__", object_subclasshook, METH_CLASS | METH_O,
     "Abstract classes can override this to customize issubclass()."},
    {"__init_subclass__", object_init_subclass, METH_CLASS | METH_NOARGS,
     "Called when a class is subclassed; does nothing by default."},
    {"__format__", object___format__, METH_O, "Default object formatter."},
    {"__sizeof__", object___sizeof__, METH_NOARGS, "Size of object in memory, in bytes."},
    {"__dir__", object___dir__, METH_NOARGS, "Default dir() implementation."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyBaseObject_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "object",
    .tp_basicsize = sizeof(PyObject),
    .tp_dealloc = object_dealloc,
    .tp_repr = object_repr,
    .tp_hash = PyObject_GenericHash,
    .tp_str = object_str,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "object()\n--\n\nThe root of every class: a featureless instance without "
              "attributes.",
    .tp_richcompare = object_richcompare,
    .tp_methods = object_methods,
    .tp_getset = object_getsets,
    .tp_init = object_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = object_new,
    .tp_free = PyObject_Free,
};

/* ---- super ---------------------------------------------------------------------------

   super(type, obj) looks attributes up in the MRO of obj's class, starting
   after `type`, and binds what it finds to obj.  obj may also be a
   subclass of type (then class methods bind to it). */

typedef struct {
    PyObject_HEAD
    PyTypeObject *type;
    PyObject *obj;
    PyTypeObject *obj_type;
} superobject;

static PyMemberDef super_members[] = {
    {"__thisclass__", _Py_T_OBJECT, offsetof(superobject, type), Py_READONLY,
     "the class invoking super()"},
    {"__self__", _Py_T_OBJECT, offsetof(superobject, obj), Py_READONLY,
     "the instance invoking super(); may be None"},
    {"__self_class__", _Py_T_OBJECT, offsetof(superobject, obj_type), Py_READONLY,
     "the type of the instance invoking super(); may be None"},
    {NULL, 0, 0, 0, NULL},
};

static void
super_dealloc(PyObject *self)
{
    superobject *su = (superobject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(su->obj);
    Py_XDECREF(su->type);
    Py_XDECREF(su->obj_type);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
super_repr(PyObject *self)
{
    superobject *su = (superobject *)self;
    const char *name = su->type != NULL ? su->type->tp_name : "NULL";
    if (su->obj_type != NULL) {
        return PyUnicode_FromFormat("<super: <class '%s'>, <%s object>>", name,
                                    su->obj_type->tp_name);
    }
    return PyUnicode_FromFormat("<super: <class '%s'>, NULL>", name);
}

static int
is_unbound_method(PyObject *descr)
{
    return PyFunction_Check(descr) ||
           PyType_HasFeature(Py_TYPE(descr), Py_TPFLAGS_METHOD_DESCRIPTOR);
}

/* Look `name` up in starttype's MRO after `type`.  Returns a new
   reference, or NULL: with an exception on error, without one when the
   name is not there. */
static PyObject *
super_lookup_descr(PyTypeObject *type, PyObject *obj, PyTypeObject *starttype, PyObject *name,
                   int *method)
{
    PyObject *mro = starttype->tp_mro;
    if (mro == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(mro), i;
    for (i = 0; i + 1 < n; i++) {
        if ((PyObject *)type == PyTuple_GET_ITEM(mro, i)) {
            break;
        }
    }
    i++;
    Py_INCREF(mro);
    PyObject *res = NULL;
    for (; i < n; i++) {
        PyObject *dict = ((PyTypeObject *)PyTuple_GET_ITEM(mro, i))->tp_dict;
        if (dict == NULL) {
            continue;
        }
        int rc = PyDict_GetItemRef(dict, name, &res);
        if (rc < 0) {
            Py_DECREF(mro);
            return NULL;
        }
        if (rc > 0) {
            break;
        }
    }
    Py_DECREF(mro);
    if (res == NULL) {
        return NULL;
    }
    if (method != NULL && is_unbound_method(res)) {
        *method = 1;
        return res;
    }
    descrgetfunc f = Py_TYPE(res)->tp_descr_get;
    if (f != NULL) {
        Py_SETREF(res, f(res, obj == (PyObject *)starttype ? NULL : obj, (PyObject *)starttype));
    }
    return res;
}

static PyObject *
super_getattro(PyObject *self, PyObject *name)
{
    superobject *su = (superobject *)self;
    /* super().__class__ is the super type, not the next class's. */
    if (su->obj_type != NULL && !(PyUnicode_Check(name) &&
                                  _PyUnicode_EqualToASCIIString(name, "__class__"))) {
        PyObject *res = super_lookup_descr(su->type, su->obj, su->obj_type, name, NULL);
        if (res != NULL || PyErr_Occurred()) {
            return res;
        }
    }
    return PyObject_GenericGetAttr(self, name);
}

/* The class whose MRO super() walks: obj's class, or obj itself when obj
   is a subclass of type. */
static PyTypeObject *
supercheck(PyTypeObject *type, PyObject *obj)
{
    if (PyType_Check(obj) && PyType_IsSubtype((PyTypeObject *)obj, type)) {
        return (PyTypeObject *)Py_NewRef(obj);
    }
    if (PyType_IsSubtype(Py_TYPE(obj), type)) {
        return (PyTypeObject *)Py_NewRef(Py_TYPE(obj));
    }
    PyObject *class_attr;
    if (PyObject_GetOptionalAttr(obj, _Py_ID(__class__), &class_attr) < 0) {
        return NULL;
    }
    if (class_attr != NULL && PyType_Check(class_attr) &&
        (PyTypeObject *)class_attr != Py_TYPE(obj) &&
        PyType_IsSubtype((PyTypeObject *)class_attr, type)) {
        return (PyTypeObject *)class_attr;
    }
    Py_XDECREF(class_attr);
    if (PyType_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "super(type, obj): obj (type %.200s) is not an instance or subtype of type "
                     "(%.200s).",
                     ((PyTypeObject *)obj)->tp_name, type->tp_name);
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "super(type, obj): obj (instance of %.200s) is not an instance or subtype "
                     "of type (%.200s).",
                     Py_TYPE(obj)->tp_name, type->tp_name);
    }
    return NULL;
}

static int super_init_impl(PyObject *self, PyTypeObject *type, PyObject *obj);

PyObject *
_PySuper_Lookup(PyTypeObject *type, PyObject *obj, PyObject *name, int *meth_found)
{
    PyTypeObject *starttype = supercheck(type, obj);
    if (starttype == NULL) {
        return NULL;
    }
    PyObject *res = NULL;
    if (!(PyUnicode_Check(name) && _PyUnicode_EqualToASCIIString(name, "__class__"))) {
        res = super_lookup_descr(type, obj, starttype, name, meth_found);
    }
    Py_DECREF(starttype);
    if (res != NULL || PyErr_Occurred()) {
        return res;
    }
    /* Not in the MRO: attributes of the super object itself. */
    PyObject *su = PyType_GenericAlloc(&PySuper_Type, 0);
    if (su == NULL) {
        return NULL;
    }
    if (super_init_impl(su, type, obj) < 0) {
        Py_DECREF(su);
        return NULL;
    }
    res = PyObject_GenericGetAttr(su, name);
    Py_DECREF(su);
    return res;
}

PyObject *
_PyObject_LookupSpecialMethod(PyObject *self, PyObject *name, int *unbound)
{
    PyObject *res = _PyType_LookupRef(Py_TYPE(self), name);
    *unbound = 0;
    if (res == NULL) {
        return NULL;
    }
    if (is_unbound_method(res)) {
        *unbound = 1;
        return res;
    }
    descrgetfunc f = Py_TYPE(res)->tp_descr_get;
    if (f != NULL) {
        Py_SETREF(res, f(res, self, (PyObject *)Py_TYPE(self)));
    }
    return res;
}

static PyObject *
super_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    superobject *su = (superobject *)self;
    if (obj == NULL || obj == Py_None || su->obj != NULL) {
        return Py_NewRef(self);
    }
    if (!Py_IS_TYPE(su, &PySuper_Type)) {
        return PyObject_CallFunctionObjArgs((PyObject *)Py_TYPE(su), su->type, obj, NULL);
    }
    PyObject *newobj = PyType_GenericAlloc(&PySuper_Type, 0);
    if (newobj == NULL) {
        return NULL;
    }
    if (super_init_impl(newobj, su->type, obj) < 0) {
        Py_DECREF(newobj);
        return NULL;
    }
    return newobj;
}

/* Zero-argument super(): the running function's first argument, and the
   class from its __class__ cell (which the compiler creates for methods
   that mention super or __class__). */
static _PyInterpreterFrame *
current_python_frame(PyThreadState *tstate)
{
    _PyInterpreterFrame *frame = tstate->current_frame;
    while (frame != NULL && frame->owner >= FRAME_OWNED_BY_INTERPRETER) {
        frame = frame->previous;
    }
    return frame;
}

static PyObject *
frame_first_arg(_PyInterpreterFrame *frame, PyCodeObject *co)
{
    if (PyStackRef_IsNull(frame->localsplus[0])) {
        return NULL;
    }
    PyObject *firstarg = PyStackRef_AsPyObjectBorrow(frame->localsplus[0]);
    const unsigned char *kinds = (const unsigned char *)PyBytes_AS_STRING(co->co_localspluskinds);
    /* An argument that a closure captures lives in a cell. */
    if ((kinds[0] & CO_FAST_CELL) && PyCell_Check(firstarg)) {
        firstarg = PyCell_GET(firstarg);
    }
    return firstarg;
}

static PyObject *
frame_class_cell(_PyInterpreterFrame *frame, PyCodeObject *co)
{
    const unsigned char *kinds = (const unsigned char *)PyBytes_AS_STRING(co->co_localspluskinds);
    for (int i = co->co_nlocals; i < co->co_nlocalsplus; i++) {
        PyObject *name = PyTuple_GET_ITEM(co->co_localsplusnames, i);
        if (!(kinds[i] & CO_FAST_FREE) || !_PyUnicode_EqualToASCIIString(name, "__class__")) {
            continue;
        }
        if (PyStackRef_IsNull(frame->localsplus[i])) {
            return NULL;
        }
        return PyStackRef_AsPyObjectBorrow(frame->localsplus[i]);
    }
    return NULL;
}

int
_PySuper_GetFrameArgs(PyThreadState *tstate, PyTypeObject **type_p, PyObject **obj_p)
{
    _PyInterpreterFrame *frame = current_python_frame(tstate);
    if (frame == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "super(): no current frame");
        return -1;
    }
    if (_PyFrame_EnsureComplete(frame) < 0) {
        return -1;
    }
    PyCodeObject *co = _PyFrame_GetCode(frame);
    if (co->co_argcount == 0) {
        PyErr_SetString(PyExc_RuntimeError, "super(): no arguments");
        return -1;
    }
    PyObject *firstarg = frame_first_arg(frame, co);
    if (firstarg == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "super(): arg[0] deleted");
        return -1;
    }
    PyObject *cell = frame_class_cell(frame, co);
    if (cell == NULL || !PyCell_Check(cell)) {
        PyErr_SetString(PyExc_RuntimeError, "super(): __class__ cell not found");
        return -1;
    }
    PyObject *type = PyCell_GET(cell);
    if (type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "super(): empty __class__ cell");
        return -1;
    }
    if (!PyType_Check(type)) {
        PyErr_Format(PyExc_RuntimeError, "super(): __class__ is not a type (%s)",
                     Py_TYPE(type)->tp_name);
        return -1;
    }
    *type_p = (PyTypeObject *)type;
    *obj_p = firstarg;
    return 0;
}

static int
super_init_impl(PyObject *self, PyTypeObject *type, PyObject *obj)
{
    superobject *su = (superobject *)self;
    PyTypeObject *obj_type = NULL;
    if (type == NULL) {
        if (_PySuper_GetFrameArgs(_PyThreadState_GET(), &type, &obj) < 0) {
            return -1;
        }
    }
    if (!PyType_Check(type)) {
        PyErr_Format(PyExc_TypeError, "super() argument 1 must be a type, not %.200s",
                     Py_TYPE(type)->tp_name);
        return -1;
    }
    if (obj == Py_None) {
        obj = NULL;
    }
    if (obj != NULL) {
        obj_type = supercheck(type, obj);
        if (obj_type == NULL) {
            return -1;
        }
        Py_INCREF(obj);
    }
    Py_XSETREF(su->type, (PyTypeObject *)Py_NewRef(type));
    Py_XSETREF(su->obj, obj);
    Py_XSETREF(su->obj_type, obj_type);
    return 0;
}

static int
super_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "super() takes no keyword arguments");
        return -1;
    }
    PyObject *type = NULL, *obj = NULL;
    if (!PyArg_UnpackTuple(args, "super", 0, 2, &type, &obj)) {
        return -1;
    }
    return super_init_impl(self, (PyTypeObject *)type, obj);
}

static PyObject *
super_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyTypeObject *tp = (PyTypeObject *)self;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "super() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (!_PyArg_CheckPositional("super()", nargs, 0, 2)) {
        return NULL;
    }
    PyObject *obj = tp->tp_alloc(tp, 0);
    if (obj == NULL) {
        return NULL;
    }
    PyTypeObject *type = nargs >= 1 ? (PyTypeObject *)args[0] : NULL;
    PyObject *arg = nargs >= 2 ? args[1] : NULL;
    if (super_init_impl(obj, type, arg) < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    return obj;
}

static int
super_traverse(PyObject *self, visitproc visit, void *arg)
{
    superobject *su = (superobject *)self;
    Py_VISIT(su->obj);
    Py_VISIT(su->type);
    Py_VISIT(su->obj_type);
    return 0;
}

PyTypeObject PySuper_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "super",
    .tp_basicsize = sizeof(superobject),
    .tp_dealloc = super_dealloc,
    .tp_repr = super_repr,
    .tp_getattro = super_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "super(type=<enclosing class>, obj=<first argument>)\n--\n\n"
              "Proxy for attribute lookups that continue along the method resolution\n"
              "order of obj's class, after type.  obj may be an instance of type or a\n"
              "subclass of it; without obj the proxy is unbound.",
    .tp_traverse = super_traverse,
    .tp_members = super_members,
    .tp_descr_get = super_descr_get,
    .tp_init = super_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = super_vectorcall,
};
