/* The import system, in C for now: sys.modules, built-in modules from the
   inittab, and source modules and packages found on sys.path.  (Handing
   over to importlib._bootstrap once the stdlib is on the path is a later
   step; the entry points stay the same.) */

#include "Python.h"
#include "pycore_pystate.h"
#include "pycore_pythonrun.h"
#include <sys/stat.h>

int
_PyImport_Init(PyInterpreterState *interp)
{
    interp->modules = PyDict_New();
    return interp->modules == NULL ? -1 : 0;
}

PyObject *
PyImport_GetModuleDict(void)
{
    return _PyInterpreterState_GET()->modules;
}

PyObject *
PyImport_GetModule(PyObject *name)
{
    PyObject *m;
    if (PyDict_GetItemRef(PyImport_GetModuleDict(), name, &m) < 0) {
        return NULL;
    }
    return m;
}

PyObject *
PyImport_AddModuleObject(PyObject *name)
{
    PyObject *m = PyImport_GetModule(name);
    if (m != NULL || PyErr_Occurred()) {
        Py_XDECREF(m); /* the module stays alive in sys.modules */
        return m;
    }
    m = PyModule_NewObject(name);
    if (m == NULL) {
        return NULL;
    }
    if (PyDict_SetItem(PyImport_GetModuleDict(), name, m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(m);
    return m;
}

PyObject *
PyImport_AddModuleRef(const char *name)
{
    PyObject *n = PyUnicode_FromString(name);
    if (n == NULL) {
        return NULL;
    }
    PyObject *m = PyImport_AddModuleObject(n);
    Py_DECREF(n);
    return Py_XNewRef(m);
}

int
PyImport_AppendInittab(const char *name, PyObject *(*initfunc)(void))
{
    (void)name;
    (void)initfunc;
    PyErr_SetString(PyExc_RuntimeError, "PyImport_AppendInittab is not supported yet");
    return -1;
}

/* ---- Finding modules ----------------------------------------------------------------- */

static PyObject *
import_builtin(PyObject *name)
{
    const char *cname = PyUnicode_AsUTF8(name);
    if (cname == NULL) {
        return NULL;
    }
    for (struct _inittab *p = _PyImport_Inittab; p->name != NULL; p++) {
        if (strcmp(p->name, cname) != 0) {
            continue;
        }
        PyObject *mod = p->initfunc();
        if (mod == NULL) {
            return NULL;
        }
        if (PyObject_TypeCheck(mod, &PyModuleDef_Type)) {
            PyModuleDef *def = (PyModuleDef *)mod;
            mod = PyModule_NewObject(name);
            if (mod == NULL) {
                return NULL;
            }
            if (PyModule_AddFunctions(mod, def->m_methods ? def->m_methods : (PyMethodDef[]){{NULL}}) < 0 ||
                PyModule_ExecDef(mod, def) < 0) {
                Py_DECREF(mod);
                return NULL;
            }
        }
        if (PyDict_SetItem(PyImport_GetModuleDict(), name, mod) < 0) {
            Py_DECREF(mod);
            return NULL;
        }
        return mod;
    }
    return Py_NewRef(Py_None); /* not a built-in */
}

static int
is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Find `shortname` in one of the directories of `path` (a list of str):
   a package directory with __init__.py, or a .py file.  Returns the file
   to run (new str) and sets *is_package, or Py_None when not found. */
static PyObject *
find_source(PyObject *path, PyObject *shortname, int *is_package)
{
    if (path == NULL || !PyList_Check(path)) {
        return Py_NewRef(Py_None);
    }
    const char *name = PyUnicode_AsUTF8(shortname);
    if (name == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(path); i++) {
        PyObject *entry = PyList_GET_ITEM(path, i);
        if (!PyUnicode_Check(entry)) {
            continue;
        }
        const char *dir = PyUnicode_AsUTF8(entry);
        if (dir == NULL) {
            return NULL;
        }
        /* '' is the working directory: keep the names relative then. */
        const char *sep = *dir == '\0' ? "" : "/";
        char buf[4096];
        snprintf(buf, sizeof(buf), "%s%s%s/__init__.py", dir, sep, name);
        if (is_file(buf)) {
            *is_package = 1;
            return PyUnicode_DecodeFSDefault(buf);
        }
        snprintf(buf, sizeof(buf), "%s%s%s.py", dir, sep, name);
        if (is_file(buf)) {
            *is_package = 0;
            return PyUnicode_DecodeFSDefault(buf);
        }
    }
    return Py_NewRef(Py_None);
}

static PyObject *
exec_source_module(PyObject *fullname, PyObject *filename, int is_package)
{
    PyObject *mod = PyModule_NewObject(fullname);
    if (mod == NULL) {
        return NULL;
    }
    PyObject *d = PyModule_GetDict(mod);
    if (PyDict_SetItemString(d, "__file__", filename) < 0) {
        goto fail;
    }
    if (is_package) {
        PyObject *dir = PyObject_CallMethod(filename, "rpartition", "s", "/");
        PyObject *pathlist = dir ? PyList_New(1) : NULL;
        if (pathlist == NULL) {
            Py_XDECREF(dir);
            goto fail;
        }
        PyList_SET_ITEM(pathlist, 0, Py_NewRef(PyTuple_GET_ITEM(dir, 0)));
        Py_DECREF(dir);
        int err = PyDict_SetItemString(d, "__path__", pathlist);
        Py_DECREF(pathlist);
        if (err < 0 || PyDict_SetItemString(d, "__package__", fullname) < 0) {
            goto fail;
        }
    }
    else {
        PyObject *parts = PyObject_CallMethod(fullname, "rpartition", "s", ".");
        if (parts == NULL) {
            goto fail;
        }
        int err = PyDict_SetItemString(d, "__package__", PyTuple_GET_ITEM(parts, 0));
        Py_DECREF(parts);
        if (err < 0) {
            goto fail;
        }
    }
    if (PyDict_SetItem(PyImport_GetModuleDict(), fullname, mod) < 0) {
        goto fail;
    }
    const char *fn = PyUnicode_AsUTF8(filename);
    FILE *fp = fn ? fopen(fn, "rb") : NULL;
    if (fp == NULL) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, filename);
        goto fail_remove;
    }
    PyObject *res = PyRun_FileExFlags(fp, fn, Py_file_input, d, d, 1, NULL);
    if (res == NULL) {
        goto fail_remove;
    }
    Py_DECREF(res);
    /* The module may have replaced itself in sys.modules. */
    PyObject *final = PyImport_GetModule(fullname);
    Py_DECREF(mod);
    if (final == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ImportError, "loader for %U cannot handle %U", fullname, fullname);
    }
    return final;

fail_remove:
    {
        PyObject *exc = PyErr_GetRaisedException();
        if (PyDict_Pop(PyImport_GetModuleDict(), fullname, NULL) < 0) {
            PyErr_Clear();
        }
        PyErr_SetRaisedException(exc);
    }
fail:
    Py_DECREF(mod);
    return NULL;
}

/* Import one fully qualified name whose parent (if any) is imported. */
static PyObject *
import_one(PyObject *fullname)
{
    PyObject *mod = PyImport_GetModule(fullname);
    if (mod != NULL || PyErr_Occurred()) {
        return mod;
    }
    mod = import_builtin(fullname);
    if (mod != Py_None) {
        return mod;
    }
    Py_DECREF(mod);
    PyObject *parts = PyObject_CallMethod(fullname, "rpartition", "s", ".");
    if (parts == NULL) {
        return NULL;
    }
    PyObject *parent_name = PyTuple_GET_ITEM(parts, 0);
    PyObject *shortname = PyTuple_GET_ITEM(parts, 2);
    PyObject *path;
    PyObject *parent = NULL;
    if (PyUnicode_GET_LENGTH(parent_name) > 0) {
        parent = PyImport_GetModule(parent_name);
        if (parent == NULL) {
            Py_DECREF(parts);
            return NULL;
        }
        if (PyObject_GetOptionalAttrString(parent, "__path__", &path) < 0) {
            Py_DECREF(parent);
            Py_DECREF(parts);
            return NULL;
        }
        if (path == NULL) {
            PyErr_Format(PyExc_ModuleNotFoundError, "No module named '%U'; '%U' is not a package",
                         fullname, parent_name);
            Py_DECREF(parent);
            Py_DECREF(parts);
            return NULL;
        }
    }
    else {
        path = Py_XNewRef(PySys_GetObject("path"));
    }
    int is_package = 0;
    PyObject *filename = find_source(path, shortname, &is_package);
    Py_XDECREF(path);
    if (filename == NULL) {
        Py_XDECREF(parent);
        Py_DECREF(parts);
        return NULL;
    }
    if (filename == Py_None) {
        Py_DECREF(filename);
        PyObject *msg = PyUnicode_FromFormat("No module named '%U'", fullname);
        if (msg != NULL) {
            PyObject *exc = PyObject_CallOneArg(PyExc_ModuleNotFoundError, msg);
            if (exc != NULL) {
                PyObject_SetAttrString(exc, "name", fullname);
                PyErr_SetObject(PyExc_ModuleNotFoundError, exc);
                Py_DECREF(exc);
            }
            Py_DECREF(msg);
        }
        Py_XDECREF(parent);
        Py_DECREF(parts);
        return NULL;
    }
    mod = exec_source_module(fullname, filename, is_package);
    Py_DECREF(filename);
    if (mod != NULL && parent != NULL && PyObject_SetAttr(parent, shortname, mod) < 0) {
        Py_CLEAR(mod);
    }
    Py_XDECREF(parent);
    Py_DECREF(parts);
    return mod;
}

/* Import every prefix of a dotted name; returns the last module. */
static PyObject *
import_dotted(PyObject *name)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    PyObject *mod = NULL;
    Py_ssize_t start = 0;
    while (start <= len) {
        Py_ssize_t dot = PyUnicode_FindChar(name, '.', start, len, 1);
        Py_ssize_t end = dot < 0 ? len : dot;
        PyObject *prefix = PyUnicode_Substring(name, 0, end);
        if (prefix == NULL) {
            Py_XDECREF(mod);
            return NULL;
        }
        Py_XDECREF(mod);
        mod = import_one(prefix);
        Py_DECREF(prefix);
        if (mod == NULL) {
            return NULL;
        }
        if (dot < 0) {
            break;
        }
        start = dot + 1;
    }
    return mod;
}

/* Resolve a relative name against the importing module's package. */
static PyObject *
resolve_name(PyObject *name, PyObject *globals, int level)
{
    if (globals == NULL || !PyDict_Check(globals)) {
        PyErr_SetString(PyExc_KeyError, "'__name__' not in globals");
        return NULL;
    }
    PyObject *package = PyDict_GetItemString(globals, "__package__");
    PyObject *base;
    if (package != NULL && package != Py_None) {
        base = Py_NewRef(package);
    }
    else {
        PyObject *modname = PyDict_GetItemString(globals, "__name__");
        if (modname == NULL) {
            PyErr_SetString(PyExc_KeyError, "'__name__' not in globals");
            return NULL;
        }
        if (PyDict_GetItemString(globals, "__path__") != NULL) {
            base = Py_NewRef(modname);
        }
        else {
            PyObject *parts = PyObject_CallMethod(modname, "rpartition", "s", ".");
            if (parts == NULL) {
                return NULL;
            }
            base = Py_NewRef(PyTuple_GET_ITEM(parts, 0));
            Py_DECREF(parts);
        }
    }
    if (PyUnicode_GET_LENGTH(base) == 0) {
        Py_DECREF(base);
        PyErr_SetString(PyExc_ImportError, "attempted relative import with no known parent package");
        return NULL;
    }
    for (int i = 1; i < level; i++) {
        Py_ssize_t dot = PyUnicode_FindChar(base, '.', 0, PyUnicode_GET_LENGTH(base), -1);
        if (dot < 0) {
            Py_DECREF(base);
            PyErr_SetString(PyExc_ImportError, "attempted relative import beyond top-level package");
            return NULL;
        }
        Py_SETREF(base, PyUnicode_Substring(base, 0, dot));
        if (base == NULL) {
            return NULL;
        }
    }
    if (PyUnicode_GET_LENGTH(name) == 0) {
        return base;
    }
    PyObject *res = PyUnicode_FromFormat("%U.%U", base, name);
    Py_DECREF(base);
    return res;
}

PyObject *
PyImport_ImportModuleLevelObject(PyObject *name, PyObject *globals, PyObject *locals,
                                 PyObject *fromlist, int level)
{
    (void)locals;
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "module name must be a string");
        return NULL;
    }
    if (level < 0) {
        PyErr_SetString(PyExc_ValueError, "level must be >= 0");
        return NULL;
    }
    PyObject *abs_name;
    if (level > 0) {
        abs_name = resolve_name(name, globals, level);
    }
    else {
        if (PyUnicode_GET_LENGTH(name) == 0) {
            PyErr_SetString(PyExc_ValueError, "Empty module name");
            return NULL;
        }
        abs_name = Py_NewRef(name);
    }
    if (abs_name == NULL) {
        return NULL;
    }
    PyObject *mod = import_dotted(abs_name);
    if (mod == NULL) {
        Py_DECREF(abs_name);
        return NULL;
    }
    int has_from = fromlist != NULL && fromlist != Py_None && PyObject_IsTrue(fromlist) > 0;
    if (has_from) {
        /* from pkg import submodule: import submodules named in fromlist. */
        PyObject *path = NULL;
        if (PyObject_GetOptionalAttrString(mod, "__path__", &path) > 0 && PyTuple_Check(fromlist)) {
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fromlist); i++) {
                PyObject *item = PyTuple_GET_ITEM(fromlist, i);
                if (!PyUnicode_Check(item) || PyUnicode_READ_CHAR(item, 0) == '*') {
                    continue;
                }
                PyObject *attr;
                if (PyObject_GetOptionalAttr(mod, item, &attr) > 0) {
                    Py_DECREF(attr);
                    continue;
                }
                PyObject *sub = PyUnicode_FromFormat("%U.%U", abs_name, item);
                PyObject *submod = sub ? import_one(sub) : NULL;
                Py_XDECREF(sub);
                if (submod == NULL) {
                    if (PyErr_ExceptionMatches(PyExc_ModuleNotFoundError)) {
                        PyErr_Clear(); /* IMPORT_FROM reports the missing name */
                        continue;
                    }
                    Py_DECREF(path);
                    Py_DECREF(mod);
                    Py_DECREF(abs_name);
                    return NULL;
                }
                Py_DECREF(submod);
            }
        }
        Py_XDECREF(path);
        Py_DECREF(abs_name);
        return mod;
    }
    /* import a.b.c binds the top-level package a. */
    Py_DECREF(mod);
    PyObject *top;
    if (level == 0) {
        Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), 1);
        PyObject *top_name = dot < 0 ? Py_NewRef(name) : PyUnicode_Substring(name, 0, dot);
        top = top_name ? PyImport_GetModule(top_name) : NULL;
        Py_XDECREF(top_name);
    }
    else {
        top = PyImport_GetModule(abs_name);
    }
    Py_DECREF(abs_name);
    if (top == NULL && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_KeyError, "module vanished from sys.modules");
    }
    return top;
}

PyObject *
PyImport_Import(PyObject *name)
{
    PyObject *fromlist = PyTuple_Pack(1, PyUnicode_InternFromString("__name__"));
    if (fromlist == NULL) {
        return NULL;
    }
    PyObject *m = PyImport_ImportModuleLevelObject(name, NULL, NULL, fromlist, 0);
    Py_DECREF(fromlist);
    return m;
}

PyObject *
PyImport_ImportModule(const char *name)
{
    PyObject *n = PyUnicode_FromString(name);
    if (n == NULL) {
        return NULL;
    }
    PyObject *m = PyImport_Import(n);
    Py_DECREF(n);
    return m;
}

/* For `python -m name`: the file to run as __main__ (a module's .py, or a
   package's __main__.py), as a new str; NULL with ImportError set when
   there is none.  Parent packages are imported, as runpy does. */
PyObject *
_PyImport_FindMainSource(PyObject *name)
{
    PyObject *parts = PyObject_CallMethod(name, "rpartition", "s", ".");
    if (parts == NULL) {
        return NULL;
    }
    PyObject *parent_name = PyTuple_GET_ITEM(parts, 0);
    PyObject *shortname = PyTuple_GET_ITEM(parts, 2);
    PyObject *path = NULL;
    if (PyUnicode_GET_LENGTH(parent_name) > 0) {
        PyObject *parent = import_dotted(parent_name);
        if (parent == NULL || PyObject_GetOptionalAttrString(parent, "__path__", &path) < 0) {
            Py_XDECREF(parent);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(parent);
    }
    else {
        path = Py_XNewRef(PySys_GetObject("path"));
    }
    int is_package = 0;
    PyObject *filename = find_source(path, shortname, &is_package);
    Py_XDECREF(path);
    Py_DECREF(parts);
    if (filename == NULL) {
        return NULL;
    }
    if (filename == Py_None) {
        Py_DECREF(filename);
        PyErr_Format(PyExc_ImportError, "No module named %U", name);
        return NULL;
    }
    if (is_package) {
        /* pkg/__init__.py -> pkg/__main__.py, after importing the package */
        PyObject *pkg = import_dotted(name);
        Py_XDECREF(pkg);
        PyObject *dir = PyObject_CallMethod(filename, "rpartition", "s", "/");
        Py_DECREF(filename);
        if (pkg == NULL || dir == NULL) {
            Py_XDECREF(dir);
            return NULL;
        }
        filename = PyUnicode_FromFormat("%U/__main__.py", PyTuple_GET_ITEM(dir, 0));
        Py_DECREF(dir);
        if (filename != NULL && !is_file(PyUnicode_AsUTF8(filename))) {
            PyErr_Format(PyExc_ImportError,
                         "No module named %U.__main__; '%U' is a package and cannot be directly executed",
                         name, name);
            Py_CLEAR(filename);
        }
    }
    return filename;
}
