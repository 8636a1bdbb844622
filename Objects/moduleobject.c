/* Module objects (PyModule_Type) and module definitions for C modules.

   A module is mostly its namespace dict (md_dict).  C modules describe
   themselves with a PyModuleDef: single-phase init builds the module at
   once (PyModule_Create2); multi-phase init (PEP 489) creates it from a
   spec (PyModule_FromDefAndSpec2) and then runs its Py_mod_exec slots
   (PyModule_ExecDef), so the import system can register the module
   between the two steps. */

#include "Python.h"
#include "pycore_call.h"
#include "pycore_exceptions.h"
#include "pycore_modsupport.h"
#include "pycore_moduleobject.h"
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

#define DEFINE_ID(fname, text)                    \
    static PyObject *                             \
    fname(void)                                   \
    {                                             \
        static PyObject *cache;                   \
        return cached_id(&cache, text);           \
    }

DEFINE_ID(id_name, "__name__")
DEFINE_ID(id_doc, "__doc__")
DEFINE_ID(id_package, "__package__")
DEFINE_ID(id_loader, "__loader__")
DEFINE_ID(id_spec, "__spec__")
DEFINE_ID(id_file, "__file__")
DEFINE_ID(id_getattr, "__getattr__")
DEFINE_ID(id_dir, "__dir__")
DEFINE_ID(id_annotations, "__annotations__")
DEFINE_ID(id_annotate, "__annotate__")
DEFINE_ID(id_builtins, "__builtins__")

/* ---- Creation ------------------------------------------------------------- */

static int
module_init_dict(PyModuleObject *mod, PyObject *name, PyObject *doc)
{
    PyObject *dict = mod->md_dict;
    if (doc == NULL) {
        doc = Py_None;
    }
    if (PyDict_SetItem(dict, id_name(), name) < 0 ||
        PyDict_SetItem(dict, id_doc(), doc) < 0 ||
        PyDict_SetItem(dict, id_package(), Py_None) < 0 ||
        PyDict_SetItem(dict, id_loader(), Py_None) < 0 ||
        PyDict_SetItem(dict, id_spec(), Py_None) < 0) {
        return -1;
    }
    if (PyUnicode_CheckExact(name)) {
        Py_XSETREF(mod->md_name, Py_NewRef(name));
    }
    return 0;
}

/* A module with an empty dict and no name yet; tracked by the GC. */
static PyModuleObject *
module_alloc(PyTypeObject *type)
{
    PyModuleObject *m = (PyModuleObject *)type->tp_alloc(type, 0);
    if (m == NULL) {
        return NULL;
    }
    m->md_def = NULL;
    m->md_state = NULL;
    m->md_weaklist = NULL;
    m->md_name = NULL;
    m->md_dict = PyDict_New();
    if (m->md_dict == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

PyObject *
PyModule_NewObject(PyObject *name)
{
    PyModuleObject *m = module_alloc(&PyModule_Type);
    if (m == NULL) {
        return NULL;
    }
    if (module_init_dict(m, name, NULL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return (PyObject *)m;
}

PyObject *
PyModule_New(const char *name)
{
    PyObject *nameobj = PyUnicode_FromString(name);
    if (nameobj == NULL) {
        return NULL;
    }
    PyObject *m = PyModule_NewObject(nameobj);
    Py_DECREF(nameobj);
    return m;
}

static PyObject *
module_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    return (PyObject *)module_alloc(type);
}

static int
module_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"name", "doc", NULL};
    PyObject *name, *doc = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:module", kwlist, &name, &doc)) {
        return -1;
    }
    if (!PyUnicode_Check(name)) {
        _PyArg_BadArgument("module", "argument 'name'", "str", name);
        return -1;
    }
    return module_init_dict((PyModuleObject *)self, name, doc);
}

/* ---- Module definitions ------------------------------------------------------ */

PyTypeObject PyModuleDef_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "moduledef",
    .tp_basicsize = sizeof(PyModuleDef),
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

static Py_ssize_t max_module_number;

PyObject *
PyModuleDef_Init(PyModuleDef *def)
{
    if (def->m_base.m_index == 0) {
        Py_SET_TYPE(def, &PyModuleDef_Type);
        /* Definitions are static data: never let a count free them. */
        _Py_SetImmortal((PyObject *)def);
        def->m_base.m_index = ++max_module_number;
    }
    return (PyObject *)def;
}

static int
add_methods(PyObject *module, PyObject *modname, PyMethodDef *functions)
{
    for (PyMethodDef *fdef = functions; fdef->ml_name != NULL; fdef++) {
        if ((fdef->ml_flags & METH_CLASS) || (fdef->ml_flags & METH_STATIC)) {
            PyErr_SetString(PyExc_ValueError,
                            "module functions cannot set METH_CLASS or METH_STATIC");
            return -1;
        }
        PyObject *func = PyCFunction_NewEx(fdef, module, modname);
        if (func == NULL) {
            return -1;
        }
        int r = PyObject_SetAttrString(module, fdef->ml_name, func);
        Py_DECREF(func);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

int
PyModule_SetDocString(PyObject *m, const char *doc)
{
    PyObject *v = PyUnicode_FromString(doc);
    if (v == NULL) {
        return -1;
    }
    int r = PyObject_SetAttr(m, id_doc(), v);
    Py_DECREF(v);
    return r;
}

static int
alloc_state(PyModuleObject *m, PyModuleDef *def)
{
    if (def->m_size > 0 && m->md_state == NULL) {
        m->md_state = PyMem_Calloc(1, (size_t)def->m_size);
        if (m->md_state == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

PyObject *
PyModule_Create2(PyModuleDef *def, int apiver)
{
    (void)apiver;
    if (PyModuleDef_Init(def) == NULL) {
        return NULL;
    }
    if (def->m_slots != NULL) {
        PyErr_Format(PyExc_SystemError, "module %s: PyModule_Create is incompatible with m_slots",
                     def->m_name);
        return NULL;
    }
    PyModuleObject *m = (PyModuleObject *)PyModule_New(def->m_name);
    if (m == NULL) {
        return NULL;
    }
    if (alloc_state(m, def) < 0) {
        goto error;
    }
    if (def->m_methods != NULL && add_methods((PyObject *)m, m->md_name, def->m_methods) < 0) {
        goto error;
    }
    if (def->m_doc != NULL && PyModule_SetDocString((PyObject *)m, def->m_doc) < 0) {
        goto error;
    }
    m->md_def = def;
    return (PyObject *)m;
error:
    Py_DECREF(m);
    return NULL;
}

static PyObject *
create_from_slot(PyObject *(*create)(PyObject *, PyModuleDef *), PyObject *spec,
                 PyModuleDef *def, const char *name)
{
    PyObject *m = create(spec, def);
    if (m == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_SystemError, "creation of module %s failed without setting an exception",
                         name);
        }
        return NULL;
    }
    if (PyErr_Occurred()) {
        _PyErr_FormatFromCause(PyExc_SystemError, "creation of module %s raised unreported exception",
                               name);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

PyObject *
PyModule_FromDefAndSpec2(PyModuleDef *def, PyObject *spec, int module_api_version)
{
    (void)module_api_version;
    PyObject *(*create)(PyObject *, PyModuleDef *) = NULL;
    PyObject *nameobj, *m = NULL;
    if (PyModuleDef_Init(def) == NULL) {
        return NULL;
    }
    nameobj = PyObject_GetAttrString(spec, "name");
    if (nameobj == NULL) {
        return NULL;
    }
    const char *name = PyUnicode_AsUTF8(nameobj);
    if (name == NULL) {
        goto error;
    }
    for (PyModuleDef_Slot *cur = def->m_slots; cur != NULL && cur->slot; cur++) {
        switch (cur->slot) {
        case Py_mod_create:
            if (create != NULL) {
                PyErr_Format(PyExc_SystemError, "module %s has multiple create slots", name);
                goto error;
            }
            create = (PyObject * (*)(PyObject *, PyModuleDef *)) cur->value;
            break;
        case Py_mod_exec:
        case Py_mod_multiple_interpreters:
        case Py_mod_gil:
            break;
        default:
            if (cur->slot < 0 || cur->slot > Py_mod_gil) {
                PyErr_Format(PyExc_SystemError, "module %s uses unknown slot ID %i", name,
                             cur->slot);
                goto error;
            }
        }
    }
    m = create != NULL ? create_from_slot(create, spec, def, name) : PyModule_NewObject(nameobj);
    if (m == NULL) {
        goto error;
    }
    if (PyModule_Check(m)) {
        ((PyModuleObject *)m)->md_state = NULL;
        ((PyModuleObject *)m)->md_def = def;
    }
    else if (def->m_size > 0 || def->m_traverse || def->m_clear || def->m_free) {
        PyErr_Format(PyExc_SystemError, "module %s is not a module object, but requests module state",
                     name);
        goto error;
    }
    if (def->m_methods != NULL && add_methods(m, nameobj, def->m_methods) < 0) {
        goto error;
    }
    if (def->m_doc != NULL && PyModule_SetDocString(m, def->m_doc) < 0) {
        goto error;
    }
    Py_DECREF(nameobj);
    return m;
error:
    Py_DECREF(nameobj);
    Py_XDECREF(m);
    return NULL;
}

int
PyModule_ExecDef(PyObject *module, PyModuleDef *def)
{
    PyObject *nameobj = PyModule_GetNameObject(module);
    if (nameobj == NULL) {
        return -1;
    }
    int result = -1;
    const char *name = PyUnicode_AsUTF8(nameobj);
    if (name == NULL) {
        goto done;
    }
    if (def->m_size >= 0 && alloc_state((PyModuleObject *)module, def) < 0) {
        goto done;
    }
    for (PyModuleDef_Slot *cur = def->m_slots; cur != NULL && cur->slot; cur++) {
        if (cur->slot != Py_mod_exec) {
            continue;
        }
        int (*exec)(PyObject *) = (int (*)(PyObject *))cur->value;
        int ret = exec(module);
        if (ret != 0) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_SystemError,
                             "execution of module %s failed without setting an exception", name);
            }
            goto done;
        }
        if (PyErr_Occurred()) {
            _PyErr_FormatFromCause(PyExc_SystemError,
                                   "execution of module %s raised unreported exception", name);
            goto done;
        }
    }
    result = 0;
done:
    Py_DECREF(nameobj);
    return result;
}

/* ---- Adding things to a module ---------------------------------------------- */

int
PyModule_AddObjectRef(PyObject *mod, const char *name, PyObject *value)
{
    if (!PyModule_Check(mod)) {
        PyErr_SetString(PyExc_TypeError, "PyModule_AddObjectRef() first argument must be a module");
        return -1;
    }
    if (value == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError,
                            "PyModule_AddObjectRef() must be called with an exception raised if "
                            "value is NULL");
        }
        return -1;
    }
    return PyDict_SetItemString(((PyModuleObject *)mod)->md_dict, name, value);
}

int
PyModule_Add(PyObject *mod, const char *name, PyObject *value)
{
    int r = PyModule_AddObjectRef(mod, name, value);
    Py_XDECREF(value);
    return r;
}

int
PyModule_AddObject(PyObject *mod, const char *name, PyObject *value)
{
    int r = PyModule_AddObjectRef(mod, name, value);
    if (r == 0) {
        Py_DECREF(value);
    }
    return r;
}

int
PyModule_AddIntConstant(PyObject *m, const char *name, long value)
{
    return PyModule_Add(m, name, PyLong_FromLong(value));
}

int
PyModule_AddStringConstant(PyObject *m, const char *name, const char *value)
{
    return PyModule_Add(m, name, PyUnicode_FromString(value));
}

int
PyModule_AddType(PyObject *module, PyTypeObject *type)
{
    if (!(type->tp_flags & Py_TPFLAGS_READY) && PyType_Ready(type) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, _PyType_Name(type), (PyObject *)type);
}

int
PyModule_AddFunctions(PyObject *m, PyMethodDef *functions)
{
    PyObject *name = PyModule_GetNameObject(m);
    if (name == NULL) {
        return -1;
    }
    int r = add_methods(m, name, functions);
    Py_DECREF(name);
    return r;
}

/* ---- Accessors ---------------------------------------------------------------- */

PyObject *
PyModule_GetDict(PyObject *m)
{
    if (!PyModule_Check(m)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return ((PyModuleObject *)m)->md_dict;
}

PyObject *
PyModule_GetNameObject(PyObject *m)
{
    if (!PyModule_Check(m)) {
        PyErr_BadArgument();
        return NULL;
    }
    PyObject *name;
    int r = PyDict_GetItemRef(((PyModuleObject *)m)->md_dict, id_name(), &name);
    if (r < 0) {
        return NULL;
    }
    if (r == 0 || !PyUnicode_Check(name)) {
        Py_XDECREF(name);
        PyErr_SetString(PyExc_SystemError, "nameless module");
        return NULL;
    }
    return name;
}

const char *
PyModule_GetName(PyObject *m)
{
    PyObject *name = PyModule_GetNameObject(m);
    if (name == NULL) {
        return NULL;
    }
    /* The module's dict keeps the string alive. */
    const char *s = PyUnicode_AsUTF8(name);
    Py_DECREF(name);
    return s;
}

PyObject *
PyModule_GetFilenameObject(PyObject *m)
{
    if (!PyModule_Check(m)) {
        PyErr_BadArgument();
        return NULL;
    }
    PyObject *file;
    int r = PyDict_GetItemRef(((PyModuleObject *)m)->md_dict, id_file(), &file);
    if (r < 0) {
        return NULL;
    }
    if (r == 0 || !PyUnicode_Check(file)) {
        Py_XDECREF(file);
        PyErr_SetString(PyExc_SystemError, "module filename missing");
        return NULL;
    }
    return file;
}

PyModuleDef *
PyModule_GetDef(PyObject *m)
{
    if (!PyModule_Check(m)) {
        PyErr_BadArgument();
        return NULL;
    }
    return ((PyModuleObject *)m)->md_def;
}

void *
PyModule_GetState(PyObject *m)
{
    if (!PyModule_Check(m)) {
        PyErr_BadArgument();
        return NULL;
    }
    return ((PyModuleObject *)m)->md_state;
}

/* ---- Attribute access ---------------------------------------------------------- */

static int
spec_flag(PyObject *spec, const char *attr)
{
    if (spec == NULL || spec == Py_None) {
        return 0;
    }
    PyObject *value;
    int r = PyObject_GetOptionalAttrString(spec, attr, &value);
    if (r <= 0) {
        return r;
    }
    r = PyObject_IsTrue(value);
    Py_DECREF(value);
    return r;
}

int
_PyModuleSpec_IsInitializing(PyObject *spec)
{
    return spec_flag(spec, "_initializing");
}

/* spec._uninitialized_submodules lists submodules still being imported. */
static int
spec_is_uninitialized_submodule(PyObject *spec, PyObject *name)
{
    if (spec == NULL || spec == Py_None) {
        return 0;
    }
    PyObject *subs;
    int r = PyObject_GetOptionalAttrString(spec, "_uninitialized_submodules", &subs);
    if (r <= 0) {
        return r;
    }
    r = PySequence_Contains(subs, name);
    Py_DECREF(subs);
    return r;
}

static PyObject *
module_missing_attribute(PyModuleObject *m, PyObject *name)
{
    PyObject *mod_name, *spec = NULL;
    if (PyDict_GetItemRef(m->md_dict, id_name(), &mod_name) < 0) {
        return NULL;
    }
    if (mod_name == NULL || !PyUnicode_Check(mod_name)) {
        Py_XDECREF(mod_name);
        PyErr_Format(PyExc_AttributeError, "module has no attribute '%U'", name);
        goto context;
    }
    if (PyDict_GetItemRef(m->md_dict, id_spec(), &spec) < 0) {
        Py_DECREF(mod_name);
        return NULL;
    }
    int initializing = _PyModuleSpec_IsInitializing(spec);
    int uninit_sub = initializing > 0 ? 0 : spec_is_uninitialized_submodule(spec, name);
    if (initializing > 0) {
        PyErr_Format(PyExc_AttributeError,
                     "partially initialized module '%U' has no attribute '%U' "
                     "(most likely due to a circular import)",
                     mod_name, name);
    }
    else if (uninit_sub > 0) {
        PyErr_Format(PyExc_AttributeError,
                     "cannot access submodule '%U' of module '%U' "
                     "(most likely due to a circular import)",
                     name, mod_name);
    }
    else if (initializing == 0 && uninit_sub == 0) {
        PyErr_Format(PyExc_AttributeError, "module '%U' has no attribute '%U'", mod_name, name);
    }
    Py_DECREF(mod_name);
    Py_XDECREF(spec);
context:
    _PyExc_SetAttributeErrorContext((PyObject *)m, name);
    return NULL;
}

/* Normal lookup, then the module's own __getattr__ (PEP 562). */
static PyObject *
module_getattro(PyObject *self, PyObject *name)
{
    PyModuleObject *m = (PyModuleObject *)self;
    PyObject *attr = _PyObject_GenericGetAttrWithDict(self, name, NULL, 1);
    if (attr != NULL || PyErr_Occurred()) {
        return attr;
    }
    PyObject *getattr;
    if (PyDict_GetItemRef(m->md_dict, id_getattr(), &getattr) < 0) {
        return NULL;
    }
    if (getattr != NULL) {
        PyObject *result = PyObject_CallOneArg(getattr, name);
        Py_DECREF(getattr);
        if (result == NULL) {
            _PyExc_SetAttributeErrorContext(self, name);
        }
        return result;
    }
    return module_missing_attribute(m, name);
}

static PyObject *
module_dir(PyObject *self, PyObject *Py_UNUSED(args))
{
    static PyObject *s_dict;
    PyObject *dict = PyObject_GetAttr(self, cached_id(&s_dict, "__dict__"));
    if (dict == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "<module>.__dict__ is not a dictionary");
    }
    else {
        PyObject *dirfunc;
        int r = PyDict_GetItemRef(dict, id_dir(), &dirfunc);
        if (r > 0) {
            result = PyObject_CallNoArgs(dirfunc);
            Py_DECREF(dirfunc);
        }
        else if (r == 0) {
            result = PyDict_Keys(dict);
        }
    }
    Py_DECREF(dict);
    return result;
}

/* PEP 649: module.__annotations__ is computed by __annotate__(1) when the
   module defines one, and cached in the dict once the module has finished
   executing. */
static PyObject *
module_get_annotations(PyObject *self, void *closure)
{
    PyObject *dict = ((PyModuleObject *)self)->md_dict;
    PyObject *ann;
    int r = PyDict_GetItemRef(dict, id_annotations(), &ann);
    if (r != 0) {
        return r < 0 ? NULL : ann;
    }
    PyObject *annotate;
    if (PyDict_GetItemRef(dict, id_annotate(), &annotate) < 0) {
        return NULL;
    }
    if (annotate != NULL && PyCallable_Check(annotate)) {
        PyObject *one = PyLong_FromLong(1);
        ann = one == NULL ? NULL : PyObject_CallOneArg(annotate, one);
        Py_XDECREF(one);
        Py_DECREF(annotate);
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
        Py_XDECREF(annotate);
        ann = PyDict_New();
        if (ann == NULL) {
            return NULL;
        }
    }
    PyObject *spec;
    if (PyDict_GetItemRef(dict, id_spec(), &spec) < 0) {
        Py_DECREF(ann);
        return NULL;
    }
    int initializing = _PyModuleSpec_IsInitializing(spec);
    Py_XDECREF(spec);
    if (initializing < 0 || (initializing == 0 && PyDict_SetItem(dict, id_annotations(), ann) < 0)) {
        Py_DECREF(ann);
        return NULL;
    }
    return ann;
}

static int
module_set_annotations(PyObject *self, PyObject *value, void *closure)
{
    PyObject *dict = ((PyModuleObject *)self)->md_dict;
    if (value != NULL) {
        return PyDict_SetItem(dict, id_annotations(), value);
    }
    PyObject *old;
    if (PyDict_Pop(dict, id_annotations(), &old) < 0) {
        return -1;
    }
    if (old == NULL) {
        PyErr_SetString(PyExc_AttributeError, "__annotations__");
        return -1;
    }
    Py_DECREF(old);
    return 0;
}

static PyObject *
module_get_annotate(PyObject *self, void *closure)
{
    PyObject *annotate;
    int r = PyDict_GetItemRef(((PyModuleObject *)self)->md_dict, id_annotate(), &annotate);
    if (r == 0) {
        return Py_NewRef(Py_None);
    }
    return annotate;
}

static int
module_set_annotate(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot delete __annotate__ attribute");
        return -1;
    }
    if (value != Py_None && !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ must be callable or None");
        return -1;
    }
    PyObject *dict = ((PyModuleObject *)self)->md_dict;
    if (PyDict_SetItem(dict, id_annotate(), value) < 0) {
        return -1;
    }
    if (value != Py_None) {
        PyObject *old;
        if (PyDict_Pop(dict, id_annotations(), &old) < 0) {
            return -1;
        }
        Py_XDECREF(old);
    }
    return 0;
}

/* ---- repr ------------------------------------------------------------------------ */

static PyObject *
repr_from_spec(PyObject *spec)
{
    PyObject *name = NULL, *origin = NULL, *loader = NULL, *res = NULL;
    if (PyObject_GetOptionalAttrString(spec, "name", &name) < 0 ||
        PyObject_GetOptionalAttrString(spec, "origin", &origin) < 0) {
        goto done;
    }
    PyObject *shown = (name == NULL || name == Py_None) ? NULL : name;
    if (origin == NULL || origin == Py_None) {
        if (PyObject_GetOptionalAttrString(spec, "loader", &loader) < 0) {
            goto done;
        }
        if (loader == NULL || loader == Py_None) {
            res = shown ? PyUnicode_FromFormat("<module %R>", shown)
                        : PyUnicode_FromString("<module '?'>");
        }
        else {
            res = shown ? PyUnicode_FromFormat("<module %R (%R)>", shown, loader)
                        : PyUnicode_FromFormat("<module '?' (%R)>", loader);
        }
        goto done;
    }
    int has_location = spec_flag(spec, "has_location");
    if (has_location < 0) {
        goto done;
    }
    if (has_location) {
        res = shown ? PyUnicode_FromFormat("<module %R from %R>", shown, origin)
                    : PyUnicode_FromFormat("<module '?' from %R>", origin);
    }
    else {
        res = PyUnicode_FromFormat("<module %R (%S)>", name ? name : Py_None, origin);
    }
done:
    Py_XDECREF(name);
    Py_XDECREF(origin);
    Py_XDECREF(loader);
    return res;
}

/* The same rules as importlib's module repr: the spec if there is one,
   else __name__ with __file__ or __loader__.  C modules created without
   a spec, loader or file (made at start-up) say "(built-in)". */
static PyObject *
module_repr(PyObject *self)
{
    PyModuleObject *m = (PyModuleObject *)self;
    PyObject *spec = NULL, *loader = NULL, *name = NULL, *file = NULL, *res = NULL;
    if (PyObject_GetOptionalAttr(self, id_spec(), &spec) < 0) {
        return NULL;
    }
    if (spec != NULL) {
        int truth = PyObject_IsTrue(spec);
        if (truth < 0) {
            goto done;
        }
        if (truth) {
            res = repr_from_spec(spec);
            goto done;
        }
    }
    if (PyObject_GetOptionalAttr(self, id_loader(), &loader) < 0 ||
        PyObject_GetOptionalAttr(self, id_name(), &name) < 0 ||
        PyObject_GetOptionalAttr(self, id_file(), &file) < 0) {
        goto done;
    }
    if (name == NULL) {
        name = PyUnicode_FromString("?");
        if (name == NULL) {
            goto done;
        }
    }
    if (file != NULL) {
        res = PyUnicode_FromFormat("<module %R from %R>", name, file);
    }
    else if (loader != NULL && loader != Py_None) {
        res = PyUnicode_FromFormat("<module %R (%R)>", name, loader);
    }
    else if (m->md_def != NULL && (spec == NULL || spec == Py_None)) {
        res = PyUnicode_FromFormat("<module %R (built-in)>", name);
    }
    else {
        res = PyUnicode_FromFormat("<module %R>", name);
    }
done:
    Py_XDECREF(spec);
    Py_XDECREF(loader);
    Py_XDECREF(name);
    Py_XDECREF(file);
    return res;
}

/* ---- Lifetime ------------------------------------------------------------------- */

static int
module_uses_state_hooks(PyModuleObject *m)
{
    return m->md_def != NULL && (m->md_def->m_size <= 0 || m->md_state != NULL);
}

static int
module_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyModuleObject *m = (PyModuleObject *)self;
    if (module_uses_state_hooks(m) && m->md_def->m_traverse != NULL) {
        int r = m->md_def->m_traverse(self, visit, arg);
        if (r) {
            return r;
        }
    }
    Py_VISIT(m->md_dict);
    return 0;
}

static int
module_clear(PyObject *self)
{
    PyModuleObject *m = (PyModuleObject *)self;
    if (module_uses_state_hooks(m) && m->md_def->m_clear != NULL) {
        int r = m->md_def->m_clear(self);
        if (PyErr_Occurred()) {
            PyErr_WriteUnraisable(self);
        }
        if (r) {
            return r;
        }
    }
    Py_CLEAR(m->md_dict);
    return 0;
}

static void
module_dealloc(PyObject *self)
{
    PyModuleObject *m = (PyModuleObject *)self;
    PyObject_GC_UnTrack(self);
    if (module_uses_state_hooks(m) && m->md_def->m_free != NULL) {
        m->md_def->m_free(self);
    }
    if (m->md_weaklist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    Py_XDECREF(m->md_dict);
    Py_XDECREF(m->md_name);
    if (m->md_state != NULL) {
        PyMem_Free(m->md_state);
    }
    Py_TYPE(self)->tp_free(self);
}

/* Two passes: private names (one leading underscore) go first, then the
   rest, so that destructors that use the module's public names still
   find them while the private ones are torn down. */
void
_PyModule_ClearDict(PyObject *d)
{
    for (int pass = 0; pass < 2; pass++) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(d, &pos, &key, &value)) {
            if (value == Py_None || !PyUnicode_Check(key)) {
                continue;
            }
            if (PyUnicode_GET_LENGTH(key) == 0 || PyUnicode_Compare(key, id_builtins()) == 0) {
                continue;
            }
            if (pass == 0 && (PyUnicode_READ_CHAR(key, 0) != '_' ||
                              (PyUnicode_GET_LENGTH(key) > 1 && PyUnicode_READ_CHAR(key, 1) == '_'))) {
                continue;
            }
            if (PyDict_SetItem(d, key, Py_None) < 0) {
                PyErr_WriteUnraisable(NULL);
            }
        }
    }
}

void
_PyModule_Clear(PyObject *m)
{
    PyObject *d = ((PyModuleObject *)m)->md_dict;
    if (d != NULL) {
        _PyModule_ClearDict(d);
    }
}

static PyMethodDef module_methods[] = {
    {"__dir__", module_dir, METH_NOARGS, "__dir__($self, /)\n--\n\nThe module's names."},
    {NULL},
};

static PyMemberDef module_members[] = {
    {"__dict__", _Py_T_OBJECT, offsetof(PyModuleObject, md_dict), Py_READONLY, NULL},
    {NULL},
};

static PyGetSetDef module_getsets[] = {
    {"__annotations__", module_get_annotations, module_set_annotations, NULL, NULL},
    {"__annotate__", module_get_annotate, module_set_annotate, NULL, NULL},
    {NULL},
};

PyTypeObject PyModule_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "module",
    .tp_basicsize = sizeof(PyModuleObject),
    .tp_dealloc = module_dealloc,
    .tp_repr = module_repr,
    .tp_getattro = module_getattro,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "module(name, doc=None)\n--\n\n"
              "A module: a named namespace.  name must be a str; doc may be anything.",
    .tp_traverse = module_traverse,
    .tp_clear = module_clear,
    .tp_weaklistoffset = offsetof(PyModuleObject, md_weaklist),
    .tp_methods = module_methods,
    .tp_members = module_members,
    .tp_getset = module_getsets,
    .tp_dictoffset = offsetof(PyModuleObject, md_dict),
    .tp_init = module_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = module_new,
    .tp_free = PyObject_GC_Del,
};
