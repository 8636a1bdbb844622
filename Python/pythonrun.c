/* Compiling and running source at the top level: files, -c commands,
   exec/eval strings, and reporting uncaught exceptions. */

#include "Python.h"
#include "pycore_ast.h"
#include "pycore_compile.h"
#include "pycore_import.h"
#include "pycore_initconfig.h"
#include "pycore_parser.h"
#include "pycore_pyarena.h"
#include "pycore_pystate.h"
#include "pycore_pythonrun.h"
#include "pycore_sysmodule.h"
#include "pycore_traceback.h"
#include "pycore_unicodeobject.h"
#include "pycore_exceptions.h"
#include <unistd.h>

/* Source text to a code object, or with PyCF_ONLY_AST in the flags to
   the ast module's tree. */
PyObject *
Py_CompileStringObject(const char *str, PyObject *filename, int start, PyCompilerFlags *flags,
                       int optimize)
{
    PyCompilerFlags defaults = _PyCompilerFlags_INIT;
    PyCompilerFlags *cf = flags != NULL ? flags : &defaults;
    PyArena *arena = _PyArena_New();
    PyObject *result = NULL;
    mod_ty tree = arena ? _PyParser_ASTFromString(str, filename, start, cf, arena) : NULL;
    if (tree != NULL && (cf->cf_flags & PyCF_ONLY_AST)) {
        result = PyAST_mod2obj(tree);
    }
    else if (tree != NULL) {
        result = (PyObject *)_PyAST_Compile(tree, filename, cf, optimize, arena);
    }
    if (arena != NULL) {
        _PyArena_Free(arena);
    }
    return result;
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

/* The main program is followed by the REPL: -i, or PYTHONINSPECT (set
   before start-up or by the program itself), on a terminal or with -i. */
static int repl_started = 0; /* the REPL's own SystemExit ends the process */

int
_PyRun_InspectAfterMain(void)
{
    if (repl_started) {
        return 0;
    }
    int inspect = _Py_Config.inspect;
    if (!inspect && _Py_Config.use_environment) {
        const char *env = getenv("PYTHONINSPECT");
        inspect = env != NULL && env[0] != '\0';
    }
    return inspect && (_Py_Config.interactive || isatty(fileno(stdin)));
}

void
_PyRun_MarkReplStarted(void)
{
    repl_started = 1;
}

int
_PyRun_HandleUncaught(void)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return 0;
    }
    /* With the REPL to follow, SystemExit is reported like any other
       exception rather than ending the process. */
    if (PyErr_GivenExceptionMatches(exc, PyExc_SystemExit) && !_PyRun_InspectAfterMain()) {
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

/* ---- Displaying an exception ------------------------------------------------

   The traceback module is the reference (as in 3.13+): colours, carets,
   "Did you mean" suggestions and group boxes all come from it.  The plain
   rendering below is what is left when it cannot be used: no stdlib,
   finalization, or an error while it printed.  It writes the same lines
   without carets, and exception groups as a list of their members. */

/* 1 when the traceback module printed `value` to `file`. */
static int
display_with_traceback_module(PyObject *file, PyObject *value)
{
    static int busy = 0; /* it failed while printing: no second try inside */
    PyInterpreterState *interp = _PyInterpreterState_GET();
    if (busy || interp->finalizing || interp->importlib == NULL) {
        return 0;
    }
    busy = 1;
    PyObject *res = NULL;
    if (file == PySys_GetObject("stderr")) {
        PyObject *print = _PyImport_GetModuleAttrString("traceback", "_print_exception_bltin");
        res = print ? PyObject_CallOneArg(print, value) : NULL;
        Py_XDECREF(print);
    }
    else {
        PyObject *print = _PyImport_GetModuleAttrString("traceback", "print_exception");
        PyObject *kwargs = print ? Py_BuildValue("{sO}", "file", file) : NULL;
        PyObject *args[1] = {value};
        res = kwargs ? PyObject_VectorcallDict(print, args, 1, kwargs) : NULL;
        Py_XDECREF(kwargs);
        Py_XDECREF(print);
    }
    busy = 0;
    if (res == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(res);
    return 1;
}

typedef struct {
    PyObject *pieces; /* str pieces, joined at the end */
    PyObject *seen;   /* exceptions already shown (a set of ids) */
} plain_out;

static int
emit(plain_out *out, PyObject *piece)
{
    int err = piece == NULL || PyList_Append(out->pieces, piece) < 0;
    Py_XDECREF(piece);
    return err ? -1 : 0;
}

/* "module.Name" unless the module is builtins or __main__. */
static PyObject *
exception_type_name(PyObject *value)
{
    PyTypeObject *tp = Py_TYPE(value);
    PyObject *qualname = PyType_GetQualName(tp);
    PyObject *module = qualname ? PyObject_GetAttrString((PyObject *)tp, "__module__") : NULL;
    PyObject *name = NULL;
    if (module == NULL || !PyUnicode_Check(module) ||
        PyUnicode_EqualToUTF8(module, "builtins") || PyUnicode_EqualToUTF8(module, "__main__")) {
        PyErr_Clear();
        name = Py_XNewRef(qualname);
    }
    else {
        name = PyUnicode_FromFormat("%U.%U", module, qualname);
    }
    Py_XDECREF(module);
    Py_XDECREF(qualname);
    return name;
}

/* The SyntaxError layout: where, the line, and a caret under the spot. */
static int
emit_syntax_error_location(plain_out *out, PyObject *value)
{
    PySyntaxErrorObject *se = (PySyntaxErrorObject *)value;
    if (se->filename == NULL || !PyUnicode_Check(se->filename) || se->lineno == NULL ||
        !PyLong_Check(se->lineno)) {
        return 0;
    }
    long lineno = PyLong_AsLong(se->lineno);
    if (emit(out, PyUnicode_FromFormat("  File \"%U\", line %ld\n", se->filename, lineno)) < 0) {
        return -1;
    }
    if (se->text == NULL || !PyUnicode_Check(se->text)) {
        return 0;
    }
    PyObject *line = PyObject_CallMethod(se->text, "rstrip", "s", "\n");
    PyObject *stripped = line ? PyObject_CallMethod(line, "lstrip", NULL) : NULL;
    if (stripped == NULL) {
        Py_XDECREF(line);
        return -1;
    }
    Py_ssize_t cut = PyUnicode_GET_LENGTH(line) - PyUnicode_GET_LENGTH(stripped);
    long start = se->offset && PyLong_Check(se->offset) ? PyLong_AsLong(se->offset) : 0;
    long end = se->end_offset && PyLong_Check(se->end_offset) ? PyLong_AsLong(se->end_offset) : 0;
    Py_DECREF(line);
    int err = emit(out, PyUnicode_FromFormat("    %U\n", stripped));
    Py_ssize_t width = PyUnicode_GET_LENGTH(stripped);
    Py_DECREF(stripped);
    start -= (long)cut;
    end = end > start ? end - (long)cut : start + 1;
    if (!err && start >= 1 && start <= width + 1) {
        Py_ssize_t carets = (end > width + 1 ? width + 1 : end) - start;
        PyObject *pad = PyUnicode_FromFormat("%*s", (int)(start - 1), "");
        PyObject *marks = PyUnicode_FromOrdinal('^');
        PyObject *many = marks ? PySequence_Repeat(marks, carets < 1 ? 1 : carets) : NULL;
        err = pad == NULL || many == NULL || emit(out, PyUnicode_FromFormat("    %U%U\n", pad, many)) < 0;
        Py_XDECREF(pad);
        Py_XDECREF(marks);
        Py_XDECREF(many);
    }
    return err ? -1 : 0;
}

/* "Type: message" (or just "Type"), then the notes. */
static int
emit_exception_line(plain_out *out, PyObject *value)
{
    PyObject *name = exception_type_name(value);
    if (name == NULL) {
        return -1;
    }
    PyObject *text = PyObject_Str(value);
    if (text == NULL) {
        PyErr_Clear();
        text = PyUnicode_FromString("<exception str() failed>");
    }
    PyObject *msg = value;
    if (PyObject_TypeCheck(value, (PyTypeObject *)PyExc_SyntaxError)) {
        msg = ((PySyntaxErrorObject *)value)->msg;
        Py_XSETREF(text, msg && PyUnicode_Check(msg) ? Py_NewRef(msg) : text);
    }
    int err = text == NULL;
    if (!err) {
        err = PyUnicode_GET_LENGTH(text) == 0 ? emit(out, PyUnicode_FromFormat("%U\n", name))
                                              : emit(out, PyUnicode_FromFormat("%U: %U\n", name, text));
    }
    Py_DECREF(name);
    Py_XDECREF(text);
    PyObject *notes = NULL;
    if (!err && PyObject_GetOptionalAttrString(value, "__notes__", &notes) > 0) {
        PyObject *seq = PySequence_Check(notes) && !PyUnicode_Check(notes) ? PySequence_List(notes) : NULL;
        for (Py_ssize_t i = 0; seq != NULL && !err && i < PyList_GET_SIZE(seq); i++) {
            PyObject *note = PyList_GET_ITEM(seq, i);
            PyObject *shown = PyUnicode_Check(note) ? Py_NewRef(note) : PyObject_Repr(note);
            err = emit(out, shown ? PyUnicode_FromFormat("%U\n", shown) : NULL) < 0;
            Py_XDECREF(shown);
        }
        if (seq == NULL) {
            PyErr_Clear();
            PyObject *shown = PyObject_Repr(notes);
            err = emit(out, shown ? PyUnicode_FromFormat("%U\n", shown) : NULL) < 0;
            Py_XDECREF(shown);
        }
        Py_XDECREF(seq);
    }
    Py_XDECREF(notes);
    PyErr_Clear();
    return err ? -1 : 0;
}

static int emit_chain(plain_out *out, PyObject *value);

/* One exception: its traceback, where (for SyntaxError), the message; a
   group's members follow, each introduced by its number. */
static int
emit_one(plain_out *out, PyObject *value)
{
    PyObject *tb = PyException_GetTraceback(value);
    PyObject *entries = tb != NULL ? _PyTraceBack_Format(tb) : NULL;
    int err = tb != NULL && emit(out, entries) < 0;
    Py_XDECREF(tb);
    if (!err && PyObject_TypeCheck(value, (PyTypeObject *)PyExc_SyntaxError)) {
        err = emit_syntax_error_location(out, value) < 0;
    }
    err = err || emit_exception_line(out, value) < 0;
    if (err || !PyObject_TypeCheck(value, (PyTypeObject *)PyExc_BaseExceptionGroup)) {
        return err ? -1 : 0;
    }
    PyObject *members = ((PyBaseExceptionGroupObject *)value)->excs;
    Py_ssize_t n = members && PyTuple_Check(members) ? PyTuple_GET_SIZE(members) : 0;
    for (Py_ssize_t i = 0; i < n && !err; i++) {
        err = emit(out, PyUnicode_FromFormat("  [member %zd of %zd]\n", i + 1, n)) < 0 ||
              emit_chain(out, PyTuple_GET_ITEM(members, i)) < 0;
    }
    return err ? -1 : 0;
}

/* The exception with what led to it first: its __cause__, or else its
   __context__ unless suppressed; each shown once. */
static int
emit_chain(plain_out *out, PyObject *value)
{
    PyObject *key = PyLong_FromVoidPtr(value);
    int added = key ? PySet_Add(out->seen, key) : -1;
    Py_XDECREF(key);
    if (added < 0 || Py_EnterRecursiveCall(" while displaying an exception")) {
        return -1;
    }
    PyObject *cause = PyException_GetCause(value);
    PyObject *context = PyException_GetContext(value);
    PyObject *earlier = cause;
    const char *link = "\nThe above exception was the direct cause of the following exception:\n\n";
    if (earlier == NULL && !((PyBaseExceptionObject *)value)->suppress_context) {
        earlier = context;
        link = "\nDuring handling of the above exception, another exception occurred:\n\n";
    }
    int err = 0;
    if (earlier != NULL && PyExceptionInstance_Check(earlier)) {
        PyObject *ekey = PyLong_FromVoidPtr(earlier);
        int shown = ekey ? PySet_Contains(out->seen, ekey) : -1;
        Py_XDECREF(ekey);
        err = shown < 0 || (!shown && (emit_chain(out, earlier) < 0 ||
                                       emit(out, PyUnicode_FromString(link)) < 0));
    }
    Py_XDECREF(cause);
    Py_XDECREF(context);
    err = err || emit_one(out, value) < 0;
    Py_LeaveRecursiveCall();
    return err ? -1 : 0;
}

static PyObject *
format_plainly(PyObject *value)
{
    plain_out out = {PyList_New(0), PySet_New(NULL)};
    PyObject *text = NULL;
    if (out.pieces != NULL && out.seen != NULL && emit_chain(&out, value) == 0) {
        text = PyUnicode_Join(_PyUnicode_GetEmpty(), out.pieces);
    }
    Py_XDECREF(out.pieces);
    Py_XDECREF(out.seen);
    return text;
}

static void
write_to(PyObject *file, PyObject *text)
{
    if (file != NULL && file != Py_None) {
        if (PyFile_WriteObject(text, file, Py_PRINT_RAW) == 0) {
            PyObject *r = PyObject_CallMethod(file, "flush", NULL);
            Py_XDECREF(r);
        }
        PyErr_Clear();
        return;
    }
    /* No usable sys.stderr: the C stream. */
    Py_ssize_t n;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &n);
    if (utf8 != NULL) {
        fwrite(utf8, 1, (size_t)n, stderr);
        fflush(stderr);
    }
    PyErr_Clear();
}

void
_PyErr_Display(PyObject *file, PyObject *exception, PyObject *value, PyObject *tb)
{
    (void)exception;
    if (value == NULL) {
        return;
    }
    PyObject *pending = PyErr_GetRaisedException();
    Py_INCREF(value);
    if (PyExceptionInstance_Check(value) && tb != NULL && PyTraceBack_Check(tb) &&
        ((PyBaseExceptionObject *)value)->traceback == NULL) {
        (void)PyException_SetTraceback(value, tb);
    }
    if (file == NULL || file == Py_None) {
        file = PySys_GetObject("stderr");
    }
    if (!PyExceptionInstance_Check(value)) {
        PyObject *line = PyUnicode_FromFormat("TypeError: print_exception(): Exception expected "
                                              "for value, %s found\n", Py_TYPE(value)->tp_name);
        if (line != NULL) {
            write_to(file, line);
            Py_DECREF(line);
        }
    }
    else if (!display_with_traceback_module(file, value)) {
        PyObject *text = format_plainly(value);
        if (text != NULL) {
            write_to(file, text);
            Py_DECREF(text);
        }
        PyErr_Clear();
    }
    Py_DECREF(value);
    PyErr_SetRaisedException(pending);
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
void
_PyRun_RegisterWithLinecache(PyObject *code, PyObject *source, PyObject *name)
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
        _PyRun_RegisterWithLinecache(code, source, filename);
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
