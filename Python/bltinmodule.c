/* The builtins module: built-in functions, and the map/filter/zip types. */

#include "Python.h"
#include "pycore_genobject.h"
#include "pycore_initconfig.h"
#include "pycore_abstract.h"
#include "pycore_ast.h"
#include "pycore_ceval.h"
#include "pycore_compile.h"
#include "pycore_exceptions.h"
#include "pycore_frame.h"
#include "pycore_object.h"
#include "pycore_parser.h"
#include "pycore_pystate.h"
#include "pycore_pythonrun.h"
#include "pycore_typeobject.h"

/* ---- Functions ------------------------------------------------------------------------ */

/* PEP 560: a base that is not a class but has __mro_entries__ (list[int],
   Generic[T]) is replaced by the classes that method returns.  Returns a
   new reference: the original tuple when nothing changed. */
static PyObject *
resolve_bases(PyObject *bases)
{
    PyObject *out = NULL;    /* made on the first replacement */
    Py_ssize_t n = PyTuple_GET_SIZE(bases);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *b = PyTuple_GET_ITEM(bases, i);
        PyObject *hook = NULL;
        if (!PyType_Check(b) && PyObject_GetOptionalAttrString(b, "__mro_entries__", &hook) < 0) {
            goto fail;
        }
        if (hook == NULL) {
            if (out != NULL && PyList_Append(out, b) < 0) {
                goto fail;
            }
            continue;
        }
        PyObject *entries = PyObject_CallOneArg(hook, bases);
        Py_DECREF(hook);
        if (entries == NULL) {
            goto fail;
        }
        if (!PyTuple_Check(entries)) {
            PyErr_SetString(PyExc_TypeError, "__mro_entries__ must return a tuple");
            Py_DECREF(entries);
            goto fail;
        }
        if (out == NULL) {
            out = PyList_New(0);
            PyObject *head = out ? PyTuple_GetSlice(bases, 0, i) : NULL;
            int err = head ? PyList_Extend(out, head) : -1;
            Py_XDECREF(head);
            if (err) {
                Py_DECREF(entries);
                goto fail;
            }
        }
        int err = PyList_Extend(out, entries);
        Py_DECREF(entries);
        if (err < 0) {
            goto fail;
        }
    }
    if (out == NULL) {
        return Py_NewRef(bases);
    }
    PyObject *r = PyList_AsTuple(out);
    Py_DECREF(out);
    return r;
fail:
    Py_XDECREF(out);
    return NULL;
}

/* The class's namespace: meta.__prepare__(name, bases, **kwds), or a dict. */
static PyObject *
class_namespace(PyObject *meta, PyObject *name, PyObject *bases, PyObject *mkw)
{
    PyObject *prepare = NULL;
    if (PyObject_GetOptionalAttrString(meta, "__prepare__", &prepare) < 0) {
        return NULL;
    }
    if (prepare == NULL) {
        return PyDict_New();
    }
    PyObject *pargs[2] = {name, bases};
    PyObject *ns = PyObject_VectorcallDict(prepare, pargs, 2, mkw);
    Py_DECREF(prepare);
    if (ns != NULL && !PyMapping_Check(ns)) {
        PyErr_Format(PyExc_TypeError, "%.200s.__prepare__() must return a mapping, not %.200s",
                     PyType_Check(meta) ? ((PyTypeObject *)meta)->tp_name : "<metaclass>",
                     Py_TYPE(ns)->tp_name);
        Py_CLEAR(ns);
    }
    return ns;
}

/* The body's __class__ cell must end up holding the class that was made. */
static int
check_class_cell(PyObject *cell, PyObject *cls, PyObject *name)
{
    if (!PyType_Check(cls) || !PyCell_Check(cell) || PyCell_GET(cell) == cls) {
        return 0;
    }
    if (PyCell_GET(cell) == NULL) {
        PyErr_Format(PyExc_RuntimeError,
                     "__class__ not set defining %.200R as %.200R. "
                     "Was __classcell__ propagated to type.__new__?", name, cls);
    }
    else {
        PyErr_Format(PyExc_TypeError, "__class__ set to %.200R defining %.200R as %.200R",
                     PyCell_GET(cell), name, cls);
    }
    return -1;
}

/* Pull metaclass= out of the class keywords; absent, derive it from the bases. */
static PyObject *
choose_metaclass(PyObject *mkw, PyObject *bases)
{
    PyObject *meta = NULL;
    if (mkw != NULL) {
        PyObject *key = PyUnicode_InternFromString("metaclass");
        int r = key ? PyDict_Pop(mkw, key, &meta) : -1;
        Py_XDECREF(key);
        if (r < 0) {
            return NULL;
        }
    }
    if (meta != NULL && !PyType_Check(meta)) {
        return meta;    /* a plain callable is used as given */
    }
    PyTypeObject *start = meta != NULL ? (PyTypeObject *)meta
                        : PyTuple_GET_SIZE(bases) ? Py_TYPE(PyTuple_GET_ITEM(bases, 0))
                                                  : &PyType_Type;
    PyTypeObject *winner = _PyType_CalculateMetaclass(start, bases);
    Py_XDECREF(meta);
    return winner ? Py_NewRef((PyObject *)winner) : NULL;
}

/* When PEP 560 changed the bases, the class keeps what was written. */
static int
remember_orig_bases(PyObject *ns, PyObject *orig_bases)
{
    PyObject *key = PyUnicode_FromString("__orig_bases__");
    if (key == NULL) {
        return -1;
    }
    int err = PyObject_SetItem(ns, key, orig_bases);
    Py_DECREF(key);
    return err;
}

static int
check_build_class_args(PyObject *const *args, Py_ssize_t nargs)
{
    const char *problem = nargs < 2 ? "__build_class__: not enough arguments"
                        : !PyFunction_Check(args[0]) ? "__build_class__: func must be a function"
                        : !PyUnicode_Check(args[1]) ? "__build_class__: name is not a string"
                                                    : NULL;
    if (problem != NULL) {
        PyErr_SetString(PyExc_TypeError, problem);
        return -1;
    }
    return 0;
}

/* __build_class__(func, name, *bases, metaclass=None, **kwds): runs the
   class body `func` in a fresh namespace and calls the metaclass. */
static PyObject *
builtin___build_class__(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (check_build_class_args(args, nargs) < 0) {
        return NULL;
    }
    PyObject *name = args[1], *orig_bases = NULL, *bases = NULL, *meta = NULL;
    PyObject *mkw = NULL, *ns = NULL, *cell = NULL, *cls = NULL;
    orig_bases = _PyTuple_FromArray(args + 2, nargs - 2);
    bases = orig_bases ? resolve_bases(orig_bases) : NULL;
    if (bases == NULL) {
        goto done;
    }
    if (kwnames != NULL && (mkw = _PyStack_AsDict(args + nargs, kwnames)) == NULL) {
        goto done;
    }
    meta = choose_metaclass(mkw, bases);
    ns = meta ? class_namespace(meta, name, bases, mkw) : NULL;
    if (ns == NULL) {
        goto done;
    }
    if (bases != orig_bases && remember_orig_bases(ns, orig_bases) < 0) {
        goto done;
    }
    cell = _PyEval_Vector(_PyThreadState_GET(), (PyFunctionObject *)args[0], ns, NULL, 0, NULL);
    if (cell != NULL) {
        PyObject *margs[3] = {name, bases, ns};
        cls = PyObject_VectorcallDict(meta, margs, 3, mkw);
        if (cls != NULL && check_class_cell(cell, cls, name) < 0) {
            Py_CLEAR(cls);
        }
    }
done:
    Py_XDECREF(cell);
    Py_XDECREF(ns);
    Py_XDECREF(meta);
    Py_XDECREF(mkw);
    Py_XDECREF(bases);
    Py_XDECREF(orig_bases);
    return cls;
}

/* __import__(name, globals=None, locals=None, fromlist=(), level=0):
   the arguments go to the import system unchecked but for level, which
   must be an int; the name's type is the import system's to judge. */
static PyObject *
builtin___import__(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const params[] = {"name", "globals", "locals", "fromlist", "level", NULL};
    PyObject *given[5];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "__import__", params, 1, 5, 0, given)) {
        return NULL;
    }
    int level = 0;
    if (given[4] != NULL) {
        level = PyLong_AsInt(given[4]);
        if (level == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    return PyImport_ImportModuleLevelObject(given[0], given[1], given[2], given[3], level);
}

static PyObject *
builtin_abs(PyObject *module, PyObject *x)
{
    return PyNumber_Absolute(x);
}

/* all() and any() share one loop: stop at the first item whose truth is
   `stop_on`. */
static PyObject *
all_any(PyObject *iterable, int stop_on)
{
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        return NULL;
    }
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        int r = PyObject_IsTrue(item);
        Py_DECREF(item);
        if (r < 0) {
            Py_DECREF(it);
            return NULL;
        }
        if (r == stop_on) {
            Py_DECREF(it);
            return PyBool_FromLong(stop_on);
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return NULL;
    }
    return PyBool_FromLong(!stop_on);
}

static PyObject *
builtin_all(PyObject *module, PyObject *iterable)
{
    return all_any(iterable, 0);
}

static PyObject *
builtin_any(PyObject *module, PyObject *iterable)
{
    return all_any(iterable, 1);
}

static PyObject *
builtin_ascii(PyObject *module, PyObject *obj)
{
    return PyObject_ASCII(obj);
}

static PyObject *
builtin_bin(PyObject *module, PyObject *number)
{
    return PyNumber_ToBase(number, 2);
}

static PyObject *
builtin_oct(PyObject *module, PyObject *number)
{
    return PyNumber_ToBase(number, 8);
}

static PyObject *
builtin_hex(PyObject *module, PyObject *number)
{
    return PyNumber_ToBase(number, 16);
}

static PyObject *
builtin_callable(PyObject *module, PyObject *obj)
{
    return PyBool_FromLong(PyCallable_Check(obj));
}

static PyObject *
builtin_chr(PyObject *module, PyObject *arg)
{
    int overflow;
    long v = PyLong_AsLongAndOverflow(arg, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow) {
        v = overflow < 0 ? INT_MIN : INT_MAX;
    }
    if (v < 0 || v > 0x10ffff) {
        PyErr_SetString(PyExc_ValueError, "chr() arg not in range(0x110000)");
        return NULL;
    }
    return PyUnicode_FromOrdinal((int)v);
}

static PyObject *
builtin_ord(PyObject *module, PyObject *c)
{
    Py_ssize_t size;
    if (PyBytes_Check(c)) {
        size = PyBytes_GET_SIZE(c);
        if (size == 1) {
            return PyLong_FromLong((unsigned char)PyBytes_AS_STRING(c)[0]);
        }
    }
    else if (PyUnicode_Check(c)) {
        size = PyUnicode_GET_LENGTH(c);
        if (size == 1) {
            return PyLong_FromLong((long)PyUnicode_READ_CHAR(c, 0));
        }
    }
    else if (PyByteArray_Check(c)) {
        size = PyByteArray_GET_SIZE(c);
        if (size == 1) {
            return PyLong_FromLong((unsigned char)PyByteArray_AS_STRING(c)[0]);
        }
    }
    else {
        PyErr_Format(PyExc_TypeError, "ord() expected string of length 1, but %.200s found",
                     Py_TYPE(c)->tp_name);
        return NULL;
    }
    PyErr_Format(PyExc_TypeError, "ord() expected a character, but string of length %zd found", size);
    return NULL;
}

/* Source for compile/exec/eval: str, bytes or a code object. */
static const char *
source_as_string(PyObject *cmd, const char *funcname, const char *what, PyObject **cmd_copy)
{
    *cmd_copy = NULL;
    if (PyUnicode_Check(cmd)) {
        const char *str = PyUnicode_AsUTF8(cmd);
        if (str != NULL && strlen(str) != (size_t)PyUnicode_GET_LENGTH(cmd) && PyUnicode_IS_ASCII(cmd)) {
            PyErr_SetString(PyExc_SyntaxError, "source code string cannot contain null bytes");
            return NULL;
        }
        return str;
    }
    if (PyBytes_Check(cmd)) {
        if (strlen(PyBytes_AS_STRING(cmd)) != (size_t)PyBytes_GET_SIZE(cmd)) {
            PyErr_SetString(PyExc_SyntaxError, "source code string cannot contain null bytes");
            return NULL;
        }
        return PyBytes_AS_STRING(cmd);
    }
    if (PyByteArray_Check(cmd)) {
        *cmd_copy = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(cmd), PyByteArray_GET_SIZE(cmd));
        return *cmd_copy ? PyBytes_AS_STRING(*cmd_copy) : NULL;
    }
    PyErr_Format(PyExc_TypeError, "%s() arg 1 must be a %s object", funcname, what);
    return NULL;
}

/* "O&" converter: a str, or bytes decoded from the file system encoding. */
static int
fs_decode(PyObject *arg, void *addr)
{
    PyObject *str;
    if (PyUnicode_Check(arg)) {
        str = Py_NewRef(arg);
    }
    else if (PyBytes_Check(arg)) {
        str = PyUnicode_DecodeFSDefaultAndSize(PyBytes_AS_STRING(arg), PyBytes_GET_SIZE(arg));
        if (str == NULL) {
            return 0;
        }
    }
    else {
        PyErr_Format(PyExc_TypeError, "expected str, bytes or os.PathLike object, not %.200s",
                     Py_TYPE(arg)->tp_name);
        return 0;
    }
    *(PyObject **)addr = str;
    return 1;
}

/* compile() mode names, in the order PyAST_obj2mod numbers them. */
static const struct {
    const char *name;
    int start;
} compile_modes[] = {
    {"exec", Py_file_input},
    {"eval", Py_eval_input},
    {"single", Py_single_input},
    {"func_type", Py_func_type_input},
};

/* compile(tree): a syntax tree object becomes code (or, with
   PyCF_ONLY_AST, is returned as it is after conversion checks it). */
static PyObject *
compile_tree(PyObject *tree, PyObject *filename, int mode, PyCompilerFlags *cf, int optimize)
{
    PyArena *arena = _PyArena_New();
    if (arena == NULL) {
        return NULL;
    }
    mod_ty mod = PyAST_obj2mod(tree, arena, mode);
    PyObject *result = NULL;
    if (mod != NULL) {
        result = (cf->cf_flags & PyCF_ONLY_AST) ? Py_NewRef(tree)
                 : (PyObject *)_PyAST_Compile(mod, filename, cf, optimize, arena);
    }
    _PyArena_Free(arena);
    return result;
}

/* compile(source, ..., PyCF_ONLY_AST): parse only, and give the tree as objects. */
static PyObject *
parse_to_tree(const char *str, PyObject *filename, int start, PyCompilerFlags *cf)
{
    PyArena *arena = _PyArena_New();
    if (arena == NULL) {
        return NULL;
    }
    mod_ty mod = _PyParser_ASTFromString(str, filename, start, cf, arena);
    PyObject *result = mod != NULL ? PyAST_mod2obj(mod) : NULL;
    _PyArena_Free(arena);
    return result;
}

static PyObject *
compile_source(PyObject *source, PyObject *filename, int mode, PyCompilerFlags *cf,
               int optimize)
{
    int is_tree = PyAST_Check(source);
    if (is_tree != 0) {
        return is_tree < 0 ? NULL : compile_tree(source, filename, mode, cf, optimize);
    }
    int start = compile_modes[mode].start;
    if (start == Py_func_type_input && !(cf->cf_flags & PyCF_ONLY_AST)) {
        PyErr_SetString(PyExc_ValueError, "compile() mode 'func_type' requires flag PyCF_ONLY_AST");
        return NULL;
    }
    PyObject *copy;
    const char *str = source_as_string(source, "compile", "string, bytes or AST", &copy);
    if (str == NULL) {
        return NULL;
    }
    cf->cf_flags |= PyCF_SOURCE_IS_UTF8;
    PyObject *result = (cf->cf_flags & PyCF_ONLY_AST)
                           ? parse_to_tree(str, filename, start, cf)
                           : Py_CompileStringObject(str, filename, start, cf, optimize);
    Py_XDECREF(copy);
    return result;
}

static PyObject *
builtin_compile(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"source", "filename", "mode", "flags", "dont_inherit", "optimize",
                             "_feature_version", NULL};
    PyObject *source, *filename;
    const char *mode;
    int flags = 0, dont_inherit = 0, optimize = -1, feature_version = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO&s|iii$i:compile", kwlist, &source,
                                     fs_decode, &filename, &mode, &flags, &dont_inherit,
                                     &optimize, &feature_version)) {
        return NULL;
    }
    int which = -1;
    for (int i = 0; i < (int)Py_ARRAY_LENGTH(compile_modes); i++) {
        if (strcmp(mode, compile_modes[i].name) == 0) {
            which = i;
        }
    }
    PyObject *result = NULL;
    if (which < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "compile() mode must be 'exec', 'eval', 'single' or 'func_type'");
    }
    else if (PyCode_Check(source)) {
        result = Py_NewRef(source);
    }
    else {
        PyCompilerFlags cf = _PyCompilerFlags_INIT;
        cf.cf_flags = flags;
        result = compile_source(source, filename, which, &cf, optimize);
    }
    Py_DECREF(filename);
    return result;
}

/* A code object run by exec()/eval() needs exactly one cell per free
   variable (a lambda's __code__, say): eval() cannot give any, exec()
   takes them as closure=.  0 when `closure` fits `source`, else -1 with
   TypeError. */
static int
check_closure(PyObject *source, PyObject *closure, const char *fname)
{
    if (!PyCode_Check(source)) {
        if (closure != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "closure can only be used when source is a code object");
            return -1;
        }
        return 0;
    }
    Py_ssize_t nfree = PyCode_GetNumFree((PyCodeObject *)source);
    if (nfree == 0) {
        if (closure != NULL) {
            PyErr_SetString(PyExc_TypeError, "cannot use a closure with this code object");
            return -1;
        }
        return 0;
    }
    if (fname[0] == 'e' && fname[1] == 'v') {
        PyErr_SetString(PyExc_TypeError,
                        "code object passed to eval() may not contain free variables");
        return -1;
    }
    /* A tuple of that many cells; anything else gets the same message,
       as in CPython. */
    int fits = closure != NULL && PyTuple_Check(closure) && PyTuple_GET_SIZE(closure) == nfree;
    for (Py_ssize_t i = 0; fits && i < nfree; i++) {
        fits = PyCell_Check(PyTuple_GET_ITEM(closure, i));
    }
    if (!fits) {
        PyErr_Format(PyExc_TypeError, "code object requires a closure of exactly length %zd",
                     nfree);
        return -1;
    }
    return 0;
}

/* Shared by exec() and eval(): resolve globals/locals and run. */
static PyObject *
run_source_or_code(PyObject *source, PyObject *globals, PyObject *locals, PyObject *closure,
                   int start, const char *fname)
{
    if (closure == Py_None) {
        closure = NULL;
    }
    if (check_closure(source, closure, fname) < 0) {
        return NULL;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    if (globals == Py_None) {
        globals = NULL;
    }
    if (locals == Py_None) {
        locals = NULL;
    }
    if (globals != NULL && !PyDict_Check(globals)) {
        PyErr_Format(PyExc_TypeError, "%s() globals must be a dict, not %.100s", fname,
                     Py_TYPE(globals)->tp_name);
        return NULL;
    }
    if (locals != NULL && !PyMapping_Check(locals)) {
        PyErr_Format(PyExc_TypeError, "locals must be a mapping or None, not %.100s",
                     Py_TYPE(locals)->tp_name);
        return NULL;
    }
    if (globals == NULL) {
        _PyInterpreterFrame *frame = _PyFrame_GetFirstComplete(tstate->current_frame);
        if (frame == NULL) {
            PyErr_SetString(PyExc_SystemError, "globals and locals cannot be NULL");
            return NULL;
        }
        globals = frame->f_globals;
        if (locals == NULL) {
            /* A function's exec/eval sees a snapshot, as locals() does. */
            locals = PyEval_GetFrameLocals();
            if (locals == NULL) {
                return NULL;
            }
        }
        else {
            Py_INCREF(locals);
        }
    }
    else if (locals == NULL) {
        locals = Py_NewRef(globals);
    }
    else {
        Py_INCREF(locals);
    }
    PyObject *result = NULL;
    if (PyCode_Check(source)) {
        result = _PyEval_EvalCodeWithClosure(source, globals, locals, closure);
    }
    else {
        PyObject *copy;
        const char *str = source_as_string(source, fname, "string, bytes or code", &copy);
        if (str != NULL) {
            /* eval() ignores leading spaces and tabs. */
            if (start == Py_eval_input) {
                while (*str == ' ' || *str == '\t') {
                    str++;
                }
            }
            PyCompilerFlags cf = _PyCompilerFlags_INIT;
            cf.cf_flags = PyCF_SOURCE_IS_UTF8;
            result = PyRun_StringFlags(str, start, globals, locals, &cf);
        }
        Py_XDECREF(copy);
    }
    Py_DECREF(locals);
    return result;
}

static PyObject *
builtin_exec(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"source", "globals", "locals", "closure", NULL};
    PyObject *source, *globals = Py_None, *locals = Py_None, *closure = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO$O:exec", kwlist, &source, &globals, &locals,
                                     &closure)) {
        return NULL;
    }
    PyObject *res = run_source_or_code(source, globals, locals, closure, Py_file_input, "exec");
    if (res == NULL) {
        return NULL;
    }
    Py_DECREF(res);
    Py_RETURN_NONE;
}

static PyObject *
builtin_eval(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"source", "globals", "locals", NULL};
    PyObject *source, *globals = Py_None, *locals = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:eval", kwlist, &source, &globals, &locals)) {
        return NULL;
    }
    return run_source_or_code(source, globals, locals, NULL, Py_eval_input, "eval");
}

static PyObject *
builtin_delattr(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("delattr", nargs, 2, 2)) {
        return NULL;
    }
    if (PyObject_DelAttr(args[0], args[1]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
builtin_setattr(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("setattr", nargs, 3, 3)) {
        return NULL;
    }
    if (PyObject_SetAttr(args[0], args[1], args[2]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
builtin_getattr(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("getattr", nargs, 2, 3)) {
        return NULL;
    }
    if (!PyUnicode_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "attribute name must be string, not '%.200s'",
                     Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    if (nargs == 3) {
        PyObject *result;
        if (PyObject_GetOptionalAttr(args[0], args[1], &result) == 0) {
            return Py_NewRef(args[2]);
        }
        return result;
    }
    return PyObject_GetAttr(args[0], args[1]);
}

static PyObject *
builtin_hasattr(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("hasattr", nargs, 2, 2)) {
        return NULL;
    }
    if (!PyUnicode_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "attribute name must be string, not '%.200s'",
                     Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    PyObject *v;
    int r = PyObject_GetOptionalAttr(args[0], args[1], &v);
    if (r < 0) {
        return NULL;
    }
    Py_XDECREF(v);
    return PyBool_FromLong(r);
}

static PyObject *
builtin_dir(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("dir", nargs, 0, 1)) {
        return NULL;
    }
    if (nargs == 0) {
        _PyInterpreterFrame *frame = _PyFrame_GetFirstComplete(_PyThreadState_GET()->current_frame);
        PyObject *locals = frame ? _PyFrame_GetLocals(frame) : NULL;
        if (locals == NULL) {
            return NULL;
        }
        PyObject *keys = PyMapping_Keys(locals);
        Py_DECREF(locals);
        if (keys == NULL || PyList_Sort(keys) < 0) {
            Py_XDECREF(keys);
            return NULL;
        }
        return keys;
    }
    return PyObject_Dir(args[0]);
}

static PyObject *
builtin_divmod(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("divmod", nargs, 2, 2)) {
        return NULL;
    }
    return PyNumber_Divmod(args[0], args[1]);
}

static PyObject *
builtin_format(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("format", nargs, 1, 2)) {
        return NULL;
    }
    if (nargs == 2 && !PyUnicode_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "format() argument 2 must be str, not %.200s",
                     Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    return PyObject_Format(args[0], nargs == 2 ? args[1] : NULL);
}

static PyObject *
builtin_globals(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *d = PyEval_GetGlobals();
    return Py_NewRef(d ? d : Py_None);
}

static PyObject *
builtin_locals(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyEval_GetFrameLocals();
}

static PyObject *
builtin_vars(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("vars", nargs, 0, 1)) {
        return NULL;
    }
    if (nargs == 0) {
        return builtin_locals(module, NULL);
    }
    PyObject *d;
    if (PyObject_GetOptionalAttrString(args[0], "__dict__", &d) == 0) {
        PyErr_SetString(PyExc_TypeError, "vars() argument must have __dict__ attribute");
    }
    return d;
}

static PyObject *
builtin_hash(PyObject *module, PyObject *obj)
{
    Py_hash_t x = PyObject_Hash(obj);
    if (x == -1) {
        return NULL;
    }
    return PyLong_FromSsize_t(x);
}

static PyObject *
builtin_id(PyObject *module, PyObject *v)
{
    return PyLong_FromVoidPtr(v);
}

static PyObject *
builtin_isinstance(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("isinstance", nargs, 2, 2)) {
        return NULL;
    }
    int r = PyObject_IsInstance(args[0], args[1]);
    if (r < 0) {
        return NULL;
    }
    return PyBool_FromLong(r);
}

static PyObject *
builtin_issubclass(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("issubclass", nargs, 2, 2)) {
        return NULL;
    }
    int r = PyObject_IsSubclass(args[0], args[1]);
    if (r < 0) {
        return NULL;
    }
    return PyBool_FromLong(r);
}

static PyObject *
builtin_iter(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("iter", nargs, 1, 2)) {
        return NULL;
    }
    if (nargs == 1) {
        return PyObject_GetIter(args[0]);
    }
    if (!PyCallable_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "iter(v, w): v must be callable");
        return NULL;
    }
    return PyCallIter_New(args[0], args[1]);
}

static PyObject *
builtin_aiter(PyObject *module, PyObject *async_iterable)
{
    return PyObject_GetAIter(async_iterable);
}

/* anext(it) is it.__anext__() itself; with a default, an awaitable that
   finishes with the default where __anext__() would raise
   StopAsyncIteration. */
static PyObject *
builtin_anext(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("anext", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *aiterator = args[0];
    if (!PyAIter_Check(aiterator)) {
        PyErr_Format(PyExc_TypeError, "'%.200s' object is not an async iterator",
                     Py_TYPE(aiterator)->tp_name);
        return NULL;
    }
    PyObject *awaitable = Py_TYPE(aiterator)->tp_as_async->am_anext(aiterator);
    if (nargs == 1 || awaitable == NULL) {
        return awaitable;
    }
    PyObject *res = _PyAnextAwaitable_New(awaitable, args[1]);
    Py_DECREF(awaitable);
    return res;
}

static PyObject *
builtin_next(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("next", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *it = args[0];
    if (!PyIter_Check(it)) {
        PyErr_Format(PyExc_TypeError, "'%.200s' object is not an iterator", Py_TYPE(it)->tp_name);
        return NULL;
    }
    PyObject *item = _PyIter_NextGuarded(it);
    int exhausted = item == NULL && !PyErr_Occurred();
    if (nargs == 1) {
        if (exhausted) {
            PyErr_SetNone(PyExc_StopIteration);
        }
        return item;
    }
    /* With a default: running out, or a StopIteration, gives the default. */
    if (item != NULL || (!exhausted && !PyErr_ExceptionMatches(PyExc_StopIteration))) {
        return item;
    }
    PyErr_Clear();
    return Py_NewRef(args[1]);
}

static PyObject *
builtin_len(PyObject *module, PyObject *obj)
{
    Py_ssize_t res = PyObject_Size(obj);
    if (res < 0) {
        assert(PyErr_Occurred());
        return NULL;
    }
    return PyLong_FromSsize_t(res);
}

/* min() and max(): op is Py_LT for min, Py_GT for max. */
static PyObject *
min_max(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int op)
{
    const char *name = op == Py_LT ? "min" : "max";
    PyObject *keyfunc = NULL, *defaultval = NULL;
    if (kwnames != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
            PyObject *kw = PyTuple_GET_ITEM(kwnames, i);
            if (PyUnicode_EqualToUTF8(kw, "key")) {
                keyfunc = args[nargs + i];
            }
            else if (PyUnicode_EqualToUTF8(kw, "default")) {
                defaultval = args[nargs + i];
            }
            else {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", name, kw);
                return NULL;
            }
        }
    }
    if (keyfunc == Py_None) {
        keyfunc = NULL;
    }
    PyObject *it;
    if (nargs == 0) {
        PyErr_Format(PyExc_TypeError, "%s expected at least 1 argument, got 0", name);
        return NULL;
    }
    if (nargs == 1) {
        it = PyObject_GetIter(args[0]);
    }
    else {
        if (defaultval != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "Cannot specify a default for %s() with multiple positional arguments", name);
            return NULL;
        }
        PyObject *tuple = _PyTuple_FromArray(args, nargs);
        it = tuple ? PyObject_GetIter(tuple) : NULL;
        Py_XDECREF(tuple);
    }
    if (it == NULL) {
        return NULL;
    }
    PyObject *maxitem = NULL, *maxval = NULL, *item;
    while ((item = PyIter_Next(it)) != NULL) {
        PyObject *val;
        if (keyfunc != NULL) {
            val = PyObject_CallOneArg(keyfunc, item);
            if (val == NULL) {
                Py_DECREF(item);
                goto fail;
            }
        }
        else {
            val = Py_NewRef(item);
        }
        if (maxval == NULL) {
            maxitem = item;
            maxval = val;
            continue;
        }
        int cmp = PyObject_RichCompareBool(val, maxval, op);
        if (cmp < 0) {
            Py_DECREF(val);
            Py_DECREF(item);
            goto fail;
        }
        if (cmp > 0) {
            Py_SETREF(maxval, val);
            Py_SETREF(maxitem, item);
        }
        else {
            Py_DECREF(val);
            Py_DECREF(item);
        }
    }
    if (PyErr_Occurred()) {
        goto fail;
    }
    Py_DECREF(it);
    Py_XDECREF(maxval);
    if (maxitem == NULL) {
        if (defaultval != NULL) {
            return Py_NewRef(defaultval);
        }
        PyErr_Format(PyExc_ValueError, "%s() iterable argument is empty", name);
    }
    return maxitem;
fail:
    Py_XDECREF(maxval);
    Py_XDECREF(maxitem);
    Py_DECREF(it);
    return NULL;
}

static PyObject *
builtin_min(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return min_max(args, nargs, kwnames, Py_LT);
}

static PyObject *
builtin_max(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return min_max(args, nargs, kwnames, Py_GT);
}

static PyObject *
builtin_pow(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"base", "exp", "mod", NULL};
    PyObject *out[3] = {NULL, NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "pow", kwlist, 2, 3, 0, out)) {
        return NULL;
    }
    return PyNumber_Power(out[0], out[1], out[2] ? out[2] : Py_None);
}

static PyObject *
builtin_print(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *sep = NULL, *end = NULL, *file = NULL, *flush = NULL;
    if (kwnames != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
            PyObject *kw = PyTuple_GET_ITEM(kwnames, i);
            PyObject *v = args[nargs + i];
            if (PyUnicode_EqualToUTF8(kw, "sep")) {
                sep = v;
            }
            else if (PyUnicode_EqualToUTF8(kw, "end")) {
                end = v;
            }
            else if (PyUnicode_EqualToUTF8(kw, "file")) {
                file = v;
            }
            else if (PyUnicode_EqualToUTF8(kw, "flush")) {
                flush = v;
            }
            else {
                PyErr_Format(PyExc_TypeError, "print() got an unexpected keyword argument '%U'", kw);
                return NULL;
            }
        }
    }
    if (file == NULL || file == Py_None) {
        file = PySys_GetObject("stdout");
        if (file == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "lost sys.stdout");
            return NULL;
        }
        if (file == Py_None) {
            Py_RETURN_NONE;
        }
    }
    if (sep == Py_None) {
        sep = NULL;
    }
    else if (sep && !PyUnicode_Check(sep)) {
        PyErr_Format(PyExc_TypeError, "sep must be None or a string, not %.200s", Py_TYPE(sep)->tp_name);
        return NULL;
    }
    if (end == Py_None) {
        end = NULL;
    }
    else if (end && !PyUnicode_Check(end)) {
        PyErr_Format(PyExc_TypeError, "end must be None or a string, not %.200s", Py_TYPE(end)->tp_name);
        return NULL;
    }
    Py_INCREF(file);
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (i > 0) {
            int err = sep == NULL ? PyFile_WriteString(" ", file)
                                  : PyFile_WriteObject(sep, file, Py_PRINT_RAW);
            if (err) {
                Py_DECREF(file);
                return NULL;
            }
        }
        if (PyFile_WriteObject(args[i], file, Py_PRINT_RAW)) {
            Py_DECREF(file);
            return NULL;
        }
    }
    int err = end == NULL ? PyFile_WriteString("\n", file) : PyFile_WriteObject(end, file, Py_PRINT_RAW);
    if (err) {
        Py_DECREF(file);
        return NULL;
    }
    if (flush != NULL) {
        int do_flush = PyObject_IsTrue(flush);
        if (do_flush < 0) {
            Py_DECREF(file);
            return NULL;
        }
        if (do_flush) {
            PyObject *r = PyObject_CallMethod(file, "flush", NULL);
            if (r == NULL) {
                Py_DECREF(file);
                return NULL;
            }
            Py_DECREF(r);
        }
    }
    Py_DECREF(file);
    Py_RETURN_NONE;
}

static PyObject *
builtin_repr(PyObject *module, PyObject *obj)
{
    return PyObject_Repr(obj);
}

static PyObject *
builtin_round(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"number", "ndigits", NULL};
    PyObject *out[2] = {NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "round", kwlist, 1, 2, 0, out)) {
        return NULL;
    }
    PyObject *number = out[0], *ndigits = out[1];
    PyObject *round = _PyObject_LookupSpecial(number, PyUnicode_InternFromString("__round__"));
    if (round == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "type %.100s doesn't define __round__ method",
                         Py_TYPE(number)->tp_name);
        }
        return NULL;
    }
    PyObject *result = (ndigits == NULL || ndigits == Py_None) ? PyObject_CallNoArgs(round)
                                                               : PyObject_CallOneArg(round, ndigits);
    Py_DECREF(round);
    return result;
}

static PyObject *
builtin_sorted(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "sorted expected 1 argument, got %zd", nargs);
        return NULL;
    }
    PyObject *newlist = PySequence_List(args[0]);
    if (newlist == NULL) {
        return NULL;
    }
    PyObject *callable = PyObject_GetAttrString(newlist, "sort");
    if (callable == NULL) {
        Py_DECREF(newlist);
        return NULL;
    }
    PyObject *v = PyObject_Vectorcall(callable, args + 1, 0, kwnames);
    Py_DECREF(callable);
    if (v == NULL) {
        Py_DECREF(newlist);
        return NULL;
    }
    Py_DECREF(v);
    return newlist;
}

/* sum()'s way out of a fast path: partial + item, both references stolen
   (partial may be NULL after a failed allocation). */
static PyObject *
add_stealing(PyObject *partial, PyObject *item)
{
    PyObject *res = partial == NULL ? NULL : PyNumber_Add(partial, item);
    Py_XDECREF(partial);
    Py_DECREF(item);
    return res;
}

static PyObject *
builtin_sum(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "start", NULL};
    PyObject *out[2] = {NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "sum", kwlist, 1, 2, 0, out)) {
        return NULL;
    }
    PyObject *iterable = out[0];
    PyObject *result = out[1];
    if (result != NULL) {
        if (PyUnicode_Check(result)) {
            PyErr_SetString(PyExc_TypeError, "sum() can't sum strings [use ''.join(seq) instead]");
            return NULL;
        }
        if (PyBytes_Check(result)) {
            PyErr_SetString(PyExc_TypeError, "sum() can't sum bytes [use b''.join(seq) instead]");
            return NULL;
        }
        if (PyByteArray_Check(result)) {
            PyErr_SetString(PyExc_TypeError, "sum() can't sum bytearray [use b''.join(seq) instead]");
            return NULL;
        }
        Py_INCREF(result);
    }
    else {
        result = PyLong_FromLong(0);
        if (result == NULL) {
            return NULL;
        }
    }
    PyObject *iter = PyObject_GetIter(iterable);
    if (iter == NULL) {
        Py_DECREF(result);
        return NULL;
    }
    /* Fast path: accumulate small ints in a C long until it would overflow. */
    if (PyLong_CheckExact(result)) {
        int overflow;
        long i_result = PyLong_AsLongAndOverflow(result, &overflow);
        if (!overflow) {
            Py_SETREF(result, NULL);
            PyObject *item;
            while (result == NULL) {
                item = PyIter_Next(iter);
                if (item == NULL) {
                    Py_DECREF(iter);
                    if (PyErr_Occurred()) {
                        return NULL;
                    }
                    return PyLong_FromLong(i_result);
                }
                if (PyLong_CheckExact(item) || PyBool_Check(item)) {
                    long b = PyLong_AsLongAndOverflow(item, &overflow);
                    if (!overflow) {
                        long x;
                        if (!__builtin_add_overflow(i_result, b, &x)) {
                            i_result = x;
                            Py_DECREF(item);
                            continue;
                        }
                    }
                }
                result = add_stealing(PyLong_FromLong(i_result), item);
                if (result == NULL) {
                    Py_DECREF(iter);
                    return NULL;
                }
            }
        }
    }
    /* Fast path for floats: compensated (Neumaier) summation, so that
       sum([0.1] * 10) == 1.0 as in CPython 3.12+. */
    if (PyFloat_CheckExact(result)) {
        double f = PyFloat_AS_DOUBLE(result);
        double c = 0.0;
        Py_SETREF(result, NULL);
        while (result == NULL) {
            PyObject *item = PyIter_Next(iter);
            if (item == NULL) {
                Py_DECREF(iter);
                if (PyErr_Occurred()) {
                    return NULL;
                }
                if (c != 0.0 && isfinite(c)) {
                    f += c;
                }
                return PyFloat_FromDouble(f);
            }
            double x;
            int have_x = 0;
            if (PyFloat_CheckExact(item)) {
                x = PyFloat_AS_DOUBLE(item);
                have_x = 1;
            }
            else if (PyLong_CheckExact(item) || PyBool_Check(item)) {
                int overflow;
                long value = PyLong_AsLongAndOverflow(item, &overflow);
                /* Only ints a double holds exactly join the fast path. */
                if (!overflow && value >= -(1L << 53) && value <= (1L << 53)) {
                    x = (double)value;
                    have_x = 1;
                }
            }
            if (have_x) {
                double t = f + x;
                if (fabs(f) >= fabs(x)) {
                    c += (f - t) + x;
                }
                else {
                    c += (x - t) + f;
                }
                f = t;
                Py_DECREF(item);
                continue;
            }
            if (c != 0.0 && isfinite(c)) {
                f += c;
            }
            result = add_stealing(PyFloat_FromDouble(f), item);
            if (result == NULL) {
                Py_DECREF(iter);
                return NULL;
            }
        }
    }
    PyObject *item;
    while ((item = PyIter_Next(iter)) != NULL) {
        PyObject *temp = PyNumber_Add(result, item);
        Py_DECREF(result);
        Py_DECREF(item);
        result = temp;
        if (result == NULL) {
            break;
        }
    }
    Py_DECREF(iter);
    if (PyErr_Occurred()) {
        Py_XDECREF(result);
        return NULL;
    }
    return result;
}

static PyObject *
builtin_input(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("input", nargs, 0, 1)) {
        return NULL;
    }
    if (nargs == 1) {
        PyObject *out = PySys_GetObject("stdout");
        if (out != NULL && out != Py_None) {
            if (PyFile_WriteObject(args[0], out, Py_PRINT_RAW) < 0) {
                return NULL;
            }
            PyObject *r = PyObject_CallMethod(out, "flush", NULL);
            if (r == NULL) {
                return NULL;
            }
            Py_DECREF(r);
        }
    }
    /* Read through sys.stdin so its buffer and ours never disagree. */
    PyObject *in = PySys_GetObject("stdin");
    if (in == NULL || Py_IsNone(in)) {
        PyErr_SetString(PyExc_RuntimeError, "input(): lost sys.stdin");
        return NULL;
    }
    PyObject *line = PyObject_CallMethod(in, "readline", NULL);
    if (line == NULL) {
        return NULL;
    }
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "object.readline() returned non-string");
        Py_DECREF(line);
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(line);
    if (len == 0) {
        Py_DECREF(line);
        PyErr_SetNone(PyExc_EOFError);
        return NULL;
    }
    if (PyUnicode_READ_CHAR(line, len - 1) == '\n') {
        Py_SETREF(line, PyUnicode_Substring(line, 0, len - 1));
    }
    return line;
}

/* breakpoint(*args, **kws): hand everything to sys.breakpointhook, which
   decides what debugger (if any) starts. */
static PyObject *
builtin_breakpoint(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *hook = PySys_GetObject("breakpointhook");
    if (hook == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lost sys.breakpointhook");
        return NULL;
    }
    Py_INCREF(hook);
    PyObject *res = PyObject_Vectorcall(hook, args, (size_t)nargs, kwnames);
    Py_DECREF(hook);
    return res;
}

static PyMethodDef builtin_methods[] = {
    {"__build_class__", _PyCFunction_CAST(builtin___build_class__), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"__import__", _PyCFunction_CAST(builtin___import__), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"abs", builtin_abs, METH_O, NULL},
    {"all", builtin_all, METH_O, NULL},
    {"any", builtin_any, METH_O, NULL},
    {"ascii", builtin_ascii, METH_O, NULL},
    {"bin", builtin_bin, METH_O, NULL},
    {"breakpoint", _PyCFunction_CAST(builtin_breakpoint), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"aiter", builtin_aiter, METH_O,
     "aiter($module, async_iterable, /)\n--\n\nThe async iterator of async_iterable: its __aiter__()."},
    {"anext", _PyCFunction_CAST(builtin_anext), METH_FASTCALL,
     "anext(aiterator[, default])\n\nAn awaitable for aiterator's next item; with default, "
     "that is the result once the iterator is exhausted."},
    {"callable", builtin_callable, METH_O, NULL},
    {"chr", builtin_chr, METH_O, NULL},
    {"compile", _PyCFunction_CAST(builtin_compile), METH_VARARGS | METH_KEYWORDS, NULL},
    {"delattr", _PyCFunction_CAST(builtin_delattr), METH_FASTCALL, NULL},
    {"dir", _PyCFunction_CAST(builtin_dir), METH_FASTCALL, NULL},
    {"divmod", _PyCFunction_CAST(builtin_divmod), METH_FASTCALL, NULL},
    {"eval", _PyCFunction_CAST(builtin_eval), METH_VARARGS | METH_KEYWORDS, NULL},
    {"exec", _PyCFunction_CAST(builtin_exec), METH_VARARGS | METH_KEYWORDS, NULL},
    {"format", _PyCFunction_CAST(builtin_format), METH_FASTCALL, NULL},
    {"getattr", _PyCFunction_CAST(builtin_getattr), METH_FASTCALL, NULL},
    {"globals", builtin_globals, METH_NOARGS, NULL},
    {"hasattr", _PyCFunction_CAST(builtin_hasattr), METH_FASTCALL, NULL},
    {"hash", builtin_hash, METH_O, NULL},
    {"hex", builtin_hex, METH_O, NULL},
    {"id", builtin_id, METH_O, NULL},
    {"input", _PyCFunction_CAST(builtin_input), METH_FASTCALL, NULL},
    {"isinstance", _PyCFunction_CAST(builtin_isinstance), METH_FASTCALL, NULL},
    {"issubclass", _PyCFunction_CAST(builtin_issubclass), METH_FASTCALL, NULL},
    {"iter", _PyCFunction_CAST(builtin_iter), METH_FASTCALL, NULL},
    {"len", builtin_len, METH_O, NULL},
    {"locals", builtin_locals, METH_NOARGS, NULL},
    {"max", _PyCFunction_CAST(builtin_max), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"min", _PyCFunction_CAST(builtin_min), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"next", _PyCFunction_CAST(builtin_next), METH_FASTCALL, NULL},
    {"oct", builtin_oct, METH_O, NULL},
    {"ord", builtin_ord, METH_O, NULL},
    {"pow", _PyCFunction_CAST(builtin_pow), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"print", _PyCFunction_CAST(builtin_print), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"repr", builtin_repr, METH_O, NULL},
    {"round", _PyCFunction_CAST(builtin_round), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"setattr", _PyCFunction_CAST(builtin_setattr), METH_FASTCALL, NULL},
    {"sorted", _PyCFunction_CAST(builtin_sorted), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"sum", _PyCFunction_CAST(builtin_sum), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"vars", _PyCFunction_CAST(builtin_vars), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef builtinsmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "builtins",
    .m_doc = "Built-in functions, types, exceptions, and other objects.",
    .m_size = -1,
    .m_methods = builtin_methods,
};

PyObject *
_PyBuiltin_Init(PyInterpreterState *interp)
{
    /* The builtins that are objects rather than functions: the
       singletons and the built-in types, by the names Python code uses. */
    const struct {
        const char *name;
        PyObject *value;
    } objects[] = {
        {"None", Py_None}, {"Ellipsis", Py_Ellipsis}, {"NotImplemented", Py_NotImplemented},
        {"False", Py_False}, {"True", Py_True},
        {"__debug__", _Py_Config.optimization_level ? Py_False : Py_True},
        {"bool", (PyObject *)&PyBool_Type}, {"bytearray", (PyObject *)&PyByteArray_Type},
        {"bytes", (PyObject *)&PyBytes_Type}, {"classmethod", (PyObject *)&PyClassMethod_Type},
        {"complex", (PyObject *)&PyComplex_Type}, {"dict", (PyObject *)&PyDict_Type},
        {"enumerate", (PyObject *)&PyEnum_Type}, {"filter", (PyObject *)&PyFilter_Type},
        {"float", (PyObject *)&PyFloat_Type}, {"frozenset", (PyObject *)&PyFrozenSet_Type},
        {"property", (PyObject *)&PyProperty_Type}, {"int", (PyObject *)&PyLong_Type},
        {"list", (PyObject *)&PyList_Type}, {"map", (PyObject *)&PyMap_Type},
        {"memoryview", (PyObject *)&PyMemoryView_Type}, {"object", (PyObject *)&PyBaseObject_Type},
        {"range", (PyObject *)&PyRange_Type}, {"reversed", (PyObject *)&PyReversed_Type},
        {"set", (PyObject *)&PySet_Type}, {"slice", (PyObject *)&PySlice_Type},
        {"staticmethod", (PyObject *)&PyStaticMethod_Type}, {"str", (PyObject *)&PyUnicode_Type},
        {"super", (PyObject *)&PySuper_Type}, {"tuple", (PyObject *)&PyTuple_Type},
        {"type", (PyObject *)&PyType_Type}, {"zip", (PyObject *)&PyZip_Type},
    };
    PyObject *mod = PyModule_Create(&builtinsmodule);
    if (mod == NULL) {
        return NULL;
    }
    PyObject *dict = PyModule_GetDict(mod);
    int err = 0;
    for (size_t i = 0; i < Py_ARRAY_LENGTH(objects) && !err; i++) {
        err = PyDict_SetItemString(dict, objects[i].name, objects[i].value) < 0;
    }
    if (err || _PyBuiltins_AddExceptions(dict) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    interp->builtins = Py_NewRef(dict);
    return mod;
}
