/* Compiling and running source at the top level: files, -c commands,
   exec/eval strings, and reporting uncaught exceptions. */

#include "Python.h"
#include "pycore_ast.h"
#include "pycore_compile.h"
#include "pycore_import.h"
#include "pycore_parser.h"
#include "pycore_pyarena.h"
#include "pycore_pystate.h"
#include "pycore_pythonrun.h"
#include "pycore_sysmodule.h"
#include "pycore_traceback.h"
#include <unistd.h>

PyObject *
Py_CompileStringObject(const char *str, PyObject *filename, int start, PyCompilerFlags *flags,
                       int optimize)
{
    PyArena *arena = _PyArena_New();
    if (arena == NULL) {
        return NULL;
    }
    PyCompilerFlags local_flags = _PyCompilerFlags_INIT;
    if (flags == NULL) {
        flags = &local_flags;
    }
    mod_ty mod = _PyParser_ASTFromString(str, filename, start, flags, arena);
    PyObject *co = NULL;
    if (mod != NULL) {
        co = (PyObject *)_PyAST_Compile(mod, filename, flags, optimize, arena);
    }
    _PyArena_Free(arena);
    return co;
}

PyObject *
Py_CompileString(const char *str, const char *filename, int start)
{
    PyObject *fn = PyUnicode_DecodeFSDefault(filename);
    if (fn == NULL) {
        return NULL;
    }
    PyObject *co = Py_CompileStringObject(str, fn, start, NULL, -1);
    Py_DECREF(fn);
    return co;
}

static PyObject *
run_source(const char *str, PyObject *filename, int start, PyObject *globals, PyObject *locals,
           PyCompilerFlags *flags)
{
    PyObject *co = Py_CompileStringObject(str, filename, start, flags, -1);
    if (co == NULL) {
        return NULL;
    }
    PyObject *v = PyEval_EvalCode(co, globals, locals);
    Py_DECREF(co);
    return v;
}

PyObject *
PyRun_StringFlags(const char *str, int start, PyObject *globals, PyObject *locals,
                  PyCompilerFlags *flags)
{
    PyObject *filename = PyUnicode_FromString("<string>");
    if (filename == NULL) {
        return NULL;
    }
    PyObject *res = run_source(str, filename, start, globals, locals, flags);
    Py_DECREF(filename);
    return res;
}

/* Read a whole file; NULL with OSError set on failure. */
static char *
read_file(FILE *fp, PyObject *filename)
{
    size_t cap = 8192, len = 0;
    char *buf = PyMem_RawMalloc(cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap *= 2;
            char *nbuf = PyMem_RawRealloc(buf, cap);
            if (nbuf == NULL) {
                PyMem_RawFree(buf);
                PyErr_NoMemory();
                return NULL;
            }
            buf = nbuf;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, fp);
        len += n;
        if (n == 0) {
            break;
        }
    }
    if (ferror(fp)) {
        PyMem_RawFree(buf);
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, filename);
        return NULL;
    }
    if (memchr(buf, '\0', len) != NULL) {
        PyMem_RawFree(buf);
        PyErr_SetString(PyExc_SyntaxError, "source code cannot contain null bytes");
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

PyObject *
PyRun_FileExFlags(FILE *fp, const char *filename_str, int start, PyObject *globals, PyObject *locals,
                  int closeit, PyCompilerFlags *flags)
{
    PyObject *filename = PyUnicode_DecodeFSDefault(filename_str);
    if (filename == NULL) {
        if (closeit) {
            fclose(fp);
        }
        return NULL;
    }
    char *src = read_file(fp, filename);
    if (closeit) {
        fclose(fp);
    }
    PyObject *res = NULL;
    if (src != NULL) {
        res = run_source(src, filename, start, globals, locals, flags);
        PyMem_RawFree(src);
    }
    Py_DECREF(filename);
    return res;
}

/* ---- __main__ ------------------------------------------------------------------------ */

static PyObject *
main_dict(const char *filename)
{
    PyObject *m = PyImport_AddModuleRef("__main__");
    if (m == NULL) {
        return NULL;
    }
    PyObject *d = PyModule_GetDict(m);
    Py_INCREF(d);
    Py_DECREF(m);
    if (filename != NULL) {
        PyObject *f = PyUnicode_DecodeFSDefault(filename);
        if (f == NULL || PyDict_SetItemString(d, "__file__", f) < 0) {
            Py_XDECREF(f);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(f);
    }
    return d;
}

/* Exit status for SystemExit(code), printing a non-integer code. */
static int
exit_status_from(PyObject *exc)
{
    PyObject *code = ((PySystemExitObject *)exc)->code;
    if (code == NULL || Py_IsNone(code)) {
        return 0;
    }
    if (PyLong_Check(code)) {
        int overflow;
        long status = PyLong_AsLongAndOverflow(code, &overflow);
        if (status == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
        return overflow ? -1 : (int)status;
    }
    _PySys_FlushStdFiles();
    PyObject *file = PySys_GetObject("stderr");
    if (file != NULL && !Py_IsNone(file)) {
        if (PyFile_WriteObject(code, file, Py_PRINT_RAW) < 0 || PyFile_WriteString("\n", file) < 0) {
            PyErr_Clear();
        }
    }
    else {
        PyObject_Print(code, stderr, Py_PRINT_RAW);
        fputc('\n', stderr);
    }
    return 1;
}

int
_PyRun_HandleUncaught(void)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return 0;
    }
    if (PyErr_GivenExceptionMatches(exc, PyExc_SystemExit)) {
        int status = exit_status_from(exc);
        Py_DECREF(exc);
        return status;
    }
    _PySys_FlushStdFiles();
    PyObject *hook = PySys_GetObject("excepthook");
    PyObject *tb = PyException_GetTraceback(exc);
    if (hook != NULL && !Py_IsNone(hook)) {
        PyObject *args[3] = {(PyObject *)Py_TYPE(exc), exc, tb ? tb : Py_None};
        PyObject *r = PyObject_Vectorcall(hook, args, 3, NULL);
        if (r == NULL) {
            /* The hook failed: show both. */
            PyObject *exc2 = PyErr_GetRaisedException();
            PyObject *file = PySys_GetObject("stderr");
            PyFile_WriteString("Error in sys.excepthook:\n", file);
            PyObject *tb2 = exc2 ? PyException_GetTraceback(exc2) : NULL;
            if (exc2) {
                _PyErr_Display(file, (PyObject *)Py_TYPE(exc2), exc2, tb2);
            }
            PyFile_WriteString("\nOriginal exception was:\n", file);
            _PyErr_Display(file, (PyObject *)Py_TYPE(exc), exc, tb);
            Py_XDECREF(tb2);
            Py_XDECREF(exc2);
        }
        Py_XDECREF(r);
    }
    else {
        _PyErr_Display(PySys_GetObject("stderr"), (PyObject *)Py_TYPE(exc), exc, tb);
    }
    Py_XDECREF(tb);
    Py_DECREF(exc);
    _PySys_FlushStdFiles();
    return 1;
}

void
PyErr_PrintEx(int set_sys_last_vars)
{
    (void)set_sys_last_vars;
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return;
    }
    if (PyErr_GivenExceptionMatches(exc, PyExc_SystemExit)) {
        int status = exit_status_from(exc);
        Py_DECREF(exc);
        Py_Exit(status);
    }
    PyErr_SetRaisedException(exc);
    (void)_PyRun_HandleUncaught();
}

void
PyErr_Print(void)
{
    PyErr_PrintEx(1);
}

void
PyErr_Display(PyObject *unused, PyObject *value, PyObject *tb)
{
    (void)unused;
    _PyErr_Display(PySys_GetObject("stderr"), (PyObject *)Py_TYPE(value), value, tb);
}

void
PyErr_DisplayException(PyObject *exc)
{
    PyObject *tb = PyException_GetTraceback(exc);
    PyErr_Display(NULL, exc, tb);
    Py_XDECREF(tb);
}

static int run_main_file(const char *filename, const char *given_filename);

/* The main script's file name as code objects record it: made absolute by
   joining it to the working directory (no normalisation, as CPython). */
static char *
absolute_script_path(const char *filename)
{
    if (filename[0] == '/') {
        return _PyMem_RawStrdup(filename);
    }
    char cwd[4096];
    if (getcwd(cwd, sizeof(cwd)) == NULL) {
        return _PyMem_RawStrdup(filename);
    }
    size_t size = strlen(cwd) + strlen(filename) + 2;
    char *path = PyMem_RawMalloc(size);
    if (path != NULL) {
        snprintf(path, size, "%s/%s", cwd, filename);
    }
    return path;
}

int
_PyRun_MainFile(const char *given_filename)
{
    char *filename = absolute_script_path(given_filename);
    if (filename == NULL) {
        fprintf(stderr, "python: out of memory\n");
        return 1;
    }
    int status = run_main_file(filename, given_filename);
    PyMem_RawFree(filename);
    return status;
}

static int
run_main_file(const char *filename, const char *given_filename)
{
    FILE *fp = fopen(filename, "rb");
    if (fp == NULL) {
        fprintf(stderr, "%s: can't open file '%s': [Errno %d] %s\n",
                "python", filename, errno, strerror(errno));
        (void)given_filename;
        return 2;
    }
    PyObject *d = main_dict(filename);
    if (d == NULL) {
        fclose(fp);
        return _PyRun_HandleUncaught();
    }
    PyObject *res = PyRun_FileExFlags(fp, filename, Py_file_input, d, d, 1, NULL);
    Py_DECREF(d);
    if (res == NULL) {
        return _PyRun_HandleUncaught();
    }
    Py_DECREF(res);
    return 0;
}

/* Tell linecache the source of code that has no file (linecache's
   _register_code, the hook CPython's -c and REPL use), so that
   traceback.py shows its lines.  Nothing happens without the stdlib. */
static void
register_with_linecache(PyObject *code, PyObject *source, PyObject *name)
{
    if (source == NULL || _PyInterpreterState_GET()->importlib == NULL) {
        return;
    }
    PyObject *reg = _PyImport_GetModuleAttrString("linecache", "_register_code");
    PyObject *res = reg ? PyObject_CallFunctionObjArgs(reg, code, source, name, NULL) : NULL;
    Py_XDECREF(reg);
    Py_XDECREF(res);
    PyErr_Clear();
}

int
_PyRun_MainCommand(const char *command)
{
    PyObject *d = main_dict(NULL);
    if (d == NULL) {
        return _PyRun_HandleUncaught();
    }
    /* -c code has no file: let tracebacks show its lines, as CPython
       does, both the C renderer's and linecache's (for traceback.py). */
    PyObject *filename = PyUnicode_FromString("<string>");
    PyObject *source = PyUnicode_DecodeUTF8(command, (Py_ssize_t)strlen(command), "replace");
    if (filename == NULL || source == NULL || _PyTraceBack_RegisterSource(filename, source) < 0) {
        PyErr_Clear();
    }
    PyObject *code = Py_CompileStringObject(command, filename, Py_file_input, NULL, -1);
    PyObject *res = NULL;
    if (code != NULL) {
        register_with_linecache(code, source, filename);
        res = PyEval_EvalCode(code, d, d);
        Py_DECREF(code);
    }
    Py_DECREF(d);
    int status = 0;
    if (res == NULL) {
        status = _PyRun_HandleUncaught();
    }
    Py_XDECREF(res);
    if (filename != NULL && _PyTraceBack_RegisterSource(filename, Py_None) < 0) {
        PyErr_Clear();
    }
    Py_XDECREF(filename);
    Py_XDECREF(source);
    return status;
}

/* The PyRun_Simple* convention: print any error, return -1 or 0. */
static int
simple_status(PyObject *res)
{
    if (res == NULL) {
        PyErr_Print();
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

int
PyRun_SimpleStringFlags(const char *command, PyCompilerFlags *flags)
{
    PyObject *d = main_dict(NULL);
    if (d == NULL) {
        return simple_status(NULL);
    }
    PyObject *res = PyRun_StringFlags(command, Py_file_input, d, d, flags);
    Py_DECREF(d);
    return simple_status(res);
}

int
PyRun_SimpleFileExFlags(FILE *fp, const char *filename, int closeit, PyCompilerFlags *flags)
{
    PyObject *d = main_dict(filename);
    if (d == NULL) {
        if (closeit) {
            fclose(fp);
        }
        return simple_status(NULL);
    }
    PyObject *res = PyRun_FileExFlags(fp, filename, Py_file_input, d, d, closeit, flags);
    Py_DECREF(d);
    return simple_status(res);
}
