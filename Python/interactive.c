/* The basic interactive interpreter: the C read-eval-print loop.

   It is what `python` runs on a terminal when the pure-Python REPL
   (_pyrepl) cannot start or PYTHON_BASIC_REPL is set, what `-i` runs on
   a stdin that is not a terminal, and what sys._baserepl() falls back
   to.  See Doc/repl.md.

   One statement at a time:

     1. read a line after the sys.ps1 prompt (sys.ps2 for the lines that
        continue a statement);
     2. compile everything typed so far in 'single' mode with
        PyCF_ALLOW_INCOMPLETE_INPUT and PyCF_DONT_IMPLY_DEDENT: the parser
        answers with code, a SyntaxError, or _IncompleteInputError when
        the text could still become valid (an open bracket, a block
        header, a trailing backslash, an open triple-quoted string, an
        indented block not yet closed by an empty line);
     3. on "incomplete" ask for another line, else run the code in
        __main__ ('single' code hands expression values to
        sys.displayhook, which stores them in builtins._) or report the
        error through sys.excepthook, and start again.

   The text is kept without its last newline, as typed: a block stays
   open until an empty line closes it.  When the text is incomplete but
   the same text plus a newline is a real error ("1 +"), the error is
   reported at once instead of waiting for a line that cannot help. */

#include "Python.h"
#include "pycore_import.h"
#include "pycore_initconfig.h"
#include "pycore_pythonrun.h"
#include "pycore_sysmodule.h"
#include "pycore_traceback.h"

#include <errno.h>
#include <unistd.h>

/* Parser status codes as CPython's errcode.h spells them. */
#define INTERACTIVE_EOF 11 /* E_EOF: the input ended before a statement */

#define INCOMPLETE_FLAGS (PyCF_ALLOW_INCOMPLETE_INPUT | PyCF_DONT_IMPLY_DEDENT)

/* ---- Prompts and input lines ------------------------------------------- */

int (*PyOS_InputHook)(void) = NULL;

/* str(sys.<name>) as UTF-8, or "" when it is unset; NULL on error. */
static PyObject *
prompt_bytes(const char *name)
{
    PyObject *value = PySys_GetObject(name);
    if (value == NULL || Py_IsNone(value)) {
        return PyBytes_FromString("");
    }
    PyObject *text = PyObject_Str(value);
    if (text == NULL) {
        return NULL;
    }
    PyObject *bytes = PyUnicode_AsEncodedString(text, "utf-8", "replace");
    Py_DECREF(text);
    return bytes;
}

static void
flush_python_stream(const char *name)
{
    PyObject *f = PySys_GetObject(name);
    if (f != NULL && !Py_IsNone(f)) {
        PyObject *r = PyObject_CallMethod(f, "flush", NULL);
        if (r == NULL) {
            PyErr_Clear();
        }
        Py_XDECREF(r);
    }
}

/* Show the prompt (on stderr, as CPython's basic REPL does without
   readline) after whatever the last statement printed. */
static int
show_prompt(const char *name)
{
    flush_python_stream("stdout");
    flush_python_stream("stderr");
    PyObject *prompt = prompt_bytes(name);
    if (prompt == NULL) {
        return -1;
    }
    fputs(PyBytes_AS_STRING(prompt), stderr);
    fflush(stderr);
    Py_DECREF(prompt);
    return 0;
}

/* A line being read, without its newline. */
typedef struct {
    char *text;
    size_t len;
    size_t cap;
} line_buffer;

static int
line_append(line_buffer *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap) {
            cap *= 2;
        }
        char *text = PyMem_RawRealloc(b->text, cap);
        if (text == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->text = text;
        b->cap = cap;
    }
    memcpy(b->text + b->len, s, n);
    b->len += n;
    b->text[b->len] = '\0';
    return 0;
}

/* Read one line into `line` (emptied first).  1: a line, 0: end of
   input with nothing read, -1: an exception (KeyboardInterrupt when
   Ctrl-C arrived while waiting). */
static int
read_line(FILE *fp, line_buffer *line)
{
    line->len = 0;
    if (line_append(line, "", 0) < 0) {
        return -1;
    }
    if (PyOS_InputHook != NULL) {
        (void)PyOS_InputHook();
    }
    for (;;) {
        errno = 0;
        int c = getc(fp);
        if (c == EOF) {
            if (ferror(fp) && errno == EINTR) {
                clearerr(fp);
                if (PyErr_CheckSignals() < 0) {
                    return -1;
                }
                continue;
            }
            clearerr(fp); /* a later read may see more (a terminal after ^D) */
            return line->len > 0 ? 1 : 0;
        }
        if (c == '\n') {
            return 1;
        }
        char ch = c == '\0' ? ' ' : (char)c;
        if (line_append(line, &ch, 1) < 0) {
            return -1;
        }
    }
}

/* Nothing but blanks and a comment: no statement starts here. */
static int
is_blank_line(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\f' || *s == '\r') {
        s++;
    }
    return *s == '\0' || *s == '#';
}

/* ---- Compiling what was typed ------------------------------------------ */

enum typed_state { TYPED_CODE, TYPED_MORE, TYPED_ERROR };

/* Compile `src`; *code receives the code object for TYPED_CODE, and for
   TYPED_ERROR the SyntaxError (as a normal compile reports it) is set. */
static enum typed_state
compile_typed(const char *src, PyObject *filename, PyCompilerFlags *flags,
              PyObject **code)
{
    PyCompilerFlags cf = *flags;
    cf.cf_flags |= INCOMPLETE_FLAGS;
    *code = Py_CompileStringObject(src, filename, Py_single_input, &cf, -1);
    if (*code != NULL) {
        return TYPED_CODE;
    }
    if (!PyErr_ExceptionMatches(PyExc_SyntaxError)) {
        return TYPED_ERROR; /* ValueError, OverflowError, MemoryError... */
    }
    int incomplete = PyErr_ExceptionMatches(PyExc__IncompleteInputError);
    PyErr_Clear();
    if (incomplete) {
        /* Would one more (empty) line settle it?  If that is an error,
           no later line can help. */
        size_t n = strlen(src);
        char *longer = PyMem_RawMalloc(n + 2);
        if (longer == NULL) {
            PyErr_NoMemory();
            return TYPED_ERROR;
        }
        memcpy(longer, src, n);
        longer[n] = '\n';
        longer[n + 1] = '\0';
        PyObject *probe = Py_CompileStringObject(longer, filename, Py_single_input, &cf, -1);
        PyMem_RawFree(longer);
        if (probe != NULL || PyErr_ExceptionMatches(PyExc__IncompleteInputError)) {
            Py_XDECREF(probe);
            PyErr_Clear();
            return TYPED_MORE;
        }
        PyErr_Clear();
    }
    /* A real error: compile once more without the incomplete-input
       rules so the message is the one compile() gives. */
    *code = Py_CompileStringObject(src, filename, Py_single_input, flags, -1);
    if (*code != NULL) {
        return TYPED_CODE;
    }
    return TYPED_ERROR;
}

/* ---- Running a statement ----------------------------------------------- */

/* sys.last_exc and the older trio, for pdb.pm() and friends. */
static void
remember_last_exception(PyObject *exc)
{
    PyObject *tb = PyException_GetTraceback(exc);
    if (PySys_SetObject("last_exc", exc) < 0
        || PySys_SetObject("last_type", (PyObject *)Py_TYPE(exc)) < 0
        || PySys_SetObject("last_value", exc) < 0
        || PySys_SetObject("last_traceback", tb ? tb : Py_None) < 0) {
        PyErr_Clear();
    }
    Py_XDECREF(tb);
}

/* Report the current exception; SystemExit ends the process here. */
static void
report_exception(void)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return;
    }
    if (!PyErr_GivenExceptionMatches(exc, PyExc_SystemExit)) {
        remember_last_exception(exc);
    }
    PyErr_SetRaisedException(exc);
    PyErr_Print();
}

static int
run_typed_code(PyObject *code, const char *src, PyObject *filename, PyCompilerFlags *flags)
{
    PyObject *m = PyImport_AddModuleRef("__main__");
    if (m == NULL) {
        return -1;
    }
    PyObject *d = PyModule_GetDict(m);
    PyObject *source = PyUnicode_DecodeUTF8(src, (Py_ssize_t)strlen(src), "replace");
    if (source != NULL) {
        _PyRun_RegisterWithLinecache(code, source, filename);
        Py_DECREF(source);
    }
    else {
        PyErr_Clear();
    }
    /* A __future__ import stays in force for the statements after it. */
    flags->cf_flags |= ((PyCodeObject *)code)->co_flags & PyCF_MASK;
    PyObject *res = PyEval_EvalCode(code, d, d);
    Py_DECREF(m);
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    flush_python_stream("stdout");
    return 0;
}

/* Read, compile and run one statement.  0: it ran, -1: an error was
   reported, INTERACTIVE_EOF: the input ended before a statement began. */
static int
interactive_one(FILE *fp, PyObject *filename, PyCompilerFlags *flags)
{
    line_buffer line = {NULL, 0, 0};
    line_buffer typed = {NULL, 0, 0};
    int result = -1;
    for (;;) {
        if (show_prompt(typed.len == 0 ? "ps1" : "ps2") < 0) {
            goto error;
        }
        int r = read_line(fp, &line);
        if (r < 0) {
            if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
                /* Ctrl-C at a prompt drops what was typed. */
                PyErr_Clear();
                flush_python_stream("stdout");
                PyObject *ferr = PySys_GetObject("stderr");
                if (ferr == NULL || Py_IsNone(ferr)
                    || PyFile_WriteString("\nKeyboardInterrupt\n", ferr) < 0) {
                    PyErr_Clear();
                    fputs("\nKeyboardInterrupt\n", stderr);
                }
                flush_python_stream("stderr");
                result = -1;
                goto done;
            }
            goto error;
        }
        if (r == 0) {
            if (typed.len == 0) {
                result = INTERACTIVE_EOF;
                goto done;
            }
            /* The input ended inside a statement: what was typed is all
               there is, so end the prompt's line and compile it as it
               stands. */
            fputc('\n', stderr);
            fflush(stderr);
            PyObject *code = Py_CompileStringObject(typed.text, filename, Py_single_input,
                                                    flags, -1);
            if (code == NULL) {
                goto error;
            }
            result = run_typed_code(code, typed.text, filename, flags);
            Py_DECREF(code);
            if (result < 0) {
                goto error;
            }
            goto done;
        }
        if (typed.len == 0 && is_blank_line(line.text)) {
            continue;
        }
        if ((typed.len > 0 && line_append(&typed, "\n", 1) < 0)
            || line_append(&typed, line.text, line.len) < 0) {
            goto error;
        }
        PyObject *code = NULL;
        enum typed_state state = compile_typed(typed.text, filename, flags, &code);
        if (state == TYPED_MORE) {
            continue;
        }
        if (state == TYPED_ERROR) {
            goto error;
        }
        result = run_typed_code(code, typed.text, filename, flags);
        Py_DECREF(code);
        if (result < 0) {
            goto error;
        }
        goto done;
    }
error:
    report_exception();
    result = -1;
done:
    PyMem_RawFree(line.text);
    PyMem_RawFree(typed.text);
    return result;
}

/* ---- Public entry points ----------------------------------------------- */

static int
set_default_prompt(const char *name, const char *text)
{
    if (PySys_GetObject(name) != NULL) {
        return 0;
    }
    PyObject *s = PyUnicode_FromString(text);
    int err = s == NULL || PySys_SetObject(name, s) < 0;
    Py_XDECREF(s);
    return err ? -1 : 0;
}

int
PyRun_InteractiveOneObject(FILE *fp, PyObject *filename, PyCompilerFlags *flags)
{
    PyCompilerFlags defaults = _PyCompilerFlags_INIT;
    return interactive_one(fp, filename, flags != NULL ? flags : &defaults);
}

typedef int (*interactive_runner)(FILE *, PyObject *, PyCompilerFlags *);

/* The char * entry points: decode the name, then run the object form. */
static int
run_with_decoded_name(interactive_runner run, FILE *fp, const char *name,
                      PyCompilerFlags *flags)
{
    PyObject *decoded = PyUnicode_DecodeFSDefault(name != NULL ? name : "???");
    if (decoded == NULL) {
        PyErr_Print();
        return -1;
    }
    int status = run(fp, decoded, flags);
    Py_DECREF(decoded);
    return status;
}

int
PyRun_InteractiveOneFlags(FILE *fp, const char *filename_str, PyCompilerFlags *flags)
{
    return run_with_decoded_name(PyRun_InteractiveOneObject, fp, filename_str, flags);
}

/* Statements until the end of input: 0 then, -1 if the loop could not
   start.  Errors in statements are reported and the loop goes on;
   SystemExit (exit(), quit()) ends the process from PyErr_Print. */
int
_PyRun_InteractiveLoopObject(FILE *fp, PyObject *filename, PyCompilerFlags *flags)
{
    PyCompilerFlags defaults = _PyCompilerFlags_INIT;
    if (flags == NULL) {
        flags = &defaults;
    }
    if (set_default_prompt("ps1", ">>> ") < 0 || set_default_prompt("ps2", "... ") < 0) {
        PyErr_Print();
        return -1;
    }
    for (;;) {
        int r = interactive_one(fp, filename, flags);
        if (r == INTERACTIVE_EOF) {
            break;
        }
    }
    /* End the line the last prompt left open. */
    fputc('\n', stderr);
    fflush(stderr);
    return 0;
}

int
PyRun_InteractiveLoopFlags(FILE *fp, const char *filename_str, PyCompilerFlags *flags)
{
    return run_with_decoded_name(_PyRun_InteractiveLoopObject, fp, filename_str, flags);
}

/* A terminal, or with -i the standard input under its usual names. */
int
Py_FdIsInteractive(FILE *fp, const char *filename)
{
    if (isatty(fileno(fp))) {
        return 1;
    }
    if (!_Py_Config.interactive) {
        return 0;
    }
    return filename == NULL || strcmp(filename, "<stdin>") == 0 || strcmp(filename, "???") == 0;
}

int
PyRun_AnyFileExFlags(FILE *fp, const char *filename, int closeit, PyCompilerFlags *flags)
{
    if (filename == NULL) {
        filename = "???";
    }
    if (Py_FdIsInteractive(fp, filename)) {
        int r = PyRun_InteractiveLoopFlags(fp, filename, flags);
        if (closeit) {
            fclose(fp);
        }
        return r;
    }
    return PyRun_SimpleFileExFlags(fp, filename, closeit, flags);
}

/* sys._baserepl(): _pyrepl's way back to this loop when it cannot run. */
PyObject *
_PySys_BaseRepl(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    if (PyRun_AnyFileExFlags(stdin, "<stdin>", 0, &cf) < 0 && PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}
