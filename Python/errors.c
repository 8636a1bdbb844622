/* Raising and inspecting exceptions from C.

   The exception being raised lives in tstate->current_exception (always a
   normalised instance).  The exception being handled (sys.exception())
   lives on the tstate->exc_info stack, one item per generator and the
   thread's own bottom item. */

#include "Python.h"
#include "pycore_exceptions.h"
#include "pycore_pyerrors.h"
#include "pycore_pystate.h"
#include "pycore_traceback.h"

/* ---- Setting --------------------------------------------------------------------- */

void
_PyErr_SetRaisedException(PyThreadState *tstate, PyObject *exc)
{
    PyObject *old = tstate->current_exception;
    tstate->current_exception = exc;
    Py_XDECREF(old);
}

void
PyErr_SetRaisedException(PyObject *exc)
{
    _PyErr_SetRaisedException(_PyThreadState_GET(), exc);
}

PyObject *
_PyErr_GetRaisedException(PyThreadState *tstate)
{
    PyObject *exc = tstate->current_exception;
    tstate->current_exception = NULL;
    return exc;
}

PyObject *
PyErr_GetRaisedException(void)
{
    return _PyErr_GetRaisedException(_PyThreadState_GET());
}

_PyErr_StackItem *
_PyErr_GetTopmostException(PyThreadState *tstate)
{
    _PyErr_StackItem *exc_info = tstate->exc_info;
    while (exc_info->previous_item != NULL &&
           (exc_info->exc_value == NULL || Py_IsNone(exc_info->exc_value))) {
        exc_info = exc_info->previous_item;
    }
    return exc_info;
}

/* Make an exception instance from (type, value) the way `raise` would. */
static PyObject *
create_exception(PyThreadState *tstate, PyObject *exception_type, PyObject *value)
{
    if (value == NULL || Py_IsNone(value)) {
        return PyObject_CallNoArgs(exception_type);
    }
    if (PyTuple_Check(value)) {
        return PyObject_Call(exception_type, value, NULL);
    }
    (void)tstate;
    return PyObject_CallOneArg(exception_type, value);
}

/* The exception `start`'s __context__ chain reaches `target` at link
   `*holder` (the exception whose context is target): 1, else 0.  A chain
   that loops back on itself before reaching target (a cycle someone built)
   ends the walk: Brent's trick, a second pointer that jumps to the first
   at powers of two, detects it in linear time. */
static int
context_chain_reaches(PyObject *start, PyObject *target, PyObject **holder)
{
    PyObject *walker = start, *anchor = start;
    Py_ssize_t steps = 0, limit = 2;
    for (;;) {
        PyObject *next = PyException_GetContext(walker);
        if (next == NULL) {
            return 0;
        }
        Py_DECREF(next); /* the chain keeps it alive */
        if (next == target) {
            *holder = walker;
            return 1;
        }
        walker = next;
        if (walker == anchor) {
            return 0;
        }
        if (++steps == limit) {
            anchor = walker;
            steps = 0;
            limit *= 2;
        }
    }
}

/* Make the exception being handled the __context__ of `value`.  If value
   is already somewhere in that exception's own context chain, the new link
   would close a loop: the chain is cut just before value first. */
void
_PyErr_ChainContext(PyObject *value, PyObject *handled)
{
    if (handled == NULL || Py_IsNone(handled) || handled == value) {
        return;
    }
    PyObject *holder;
    if (context_chain_reaches(handled, value, &holder)) {
        PyException_SetContext(holder, NULL);
    }
    PyException_SetContext(value, Py_NewRef(handled));
}

static void
chain_context(PyThreadState *tstate, PyObject *value)
{
    _PyErr_ChainContext(value, _PyErr_GetTopmostException(tstate)->exc_value);
}

void
_PyErr_SetObject(PyThreadState *tstate, PyObject *exception, PyObject *value)
{
    if (exception != NULL && !PyExceptionClass_Check(exception)) {
        _PyErr_Format(tstate, PyExc_SystemError,
                      "_PyErr_SetObject: exception %R is not a BaseException subclass", exception);
        return;
    }
    Py_XINCREF(value);
    if (value == NULL || !PyExceptionInstance_Check(value) ||
        !PyObject_TypeCheck(value, (PyTypeObject *)exception)) {
        /* Normalise before chaining, so __context__ is set on an instance. */
        _PyErr_Clear(tstate);
        PyObject *inst = create_exception(tstate, exception, value);
        Py_XDECREF(value);
        if (inst == NULL) {
            return;
        }
        if (!PyExceptionInstance_Check(inst)) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "calling %R should have returned an instance of BaseException, not %s",
                          exception, Py_TYPE(inst)->tp_name);
            Py_DECREF(inst);
            return;
        }
        value = inst;
    }
    chain_context(tstate, value);
    _PyErr_SetRaisedException(tstate, value);
}

void
PyErr_SetObject(PyObject *exception, PyObject *value)
{
    _PyErr_SetObject(_PyThreadState_GET(), exception, value);
}

void
PyErr_SetNone(PyObject *exception)
{
    _PyErr_SetObject(_PyThreadState_GET(), exception, NULL);
}

void
_PyErr_SetString(PyThreadState *tstate, PyObject *exception, const char *string)
{
    PyObject *value = PyUnicode_FromString(string);
    if (value != NULL) {
        _PyErr_SetObject(tstate, exception, value);
        Py_DECREF(value);
    }
}

void
PyErr_SetString(PyObject *exception, const char *string)
{
    _PyErr_SetString(_PyThreadState_GET(), exception, string);
}

/* Raise `exception` (ImportError or a subclass) with the message and its
   name and path attributes; name and path may be NULL (None). */
PyObject *
PyErr_SetImportErrorSubclass(PyObject *exception, PyObject *msg, PyObject *name, PyObject *path)
{
    if (!PyType_Check(exception) ||
        !PyType_IsSubtype((PyTypeObject *)exception, (PyTypeObject *)PyExc_ImportError)) {
        PyErr_SetString(PyExc_TypeError, "expected a subclass of ImportError");
        return NULL;
    }
    if (msg == NULL) {
        PyErr_SetString(PyExc_TypeError, "expected a message argument");
        return NULL;
    }
    PyObject *kwargs = Py_BuildValue("{sOsO}", "name", name ? name : Py_None, "path",
                                     path ? path : Py_None);
    if (kwargs == NULL) {
        return NULL;
    }
    PyObject *args[1] = {msg};
    PyObject *error = PyObject_VectorcallDict(exception, args, 1, kwargs);
    Py_DECREF(kwargs);
    if (error != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(error), error);
        Py_DECREF(error);
    }
    return NULL;
}

PyObject *
PyErr_SetImportError(PyObject *msg, PyObject *name, PyObject *path)
{
    return PyErr_SetImportErrorSubclass(PyExc_ImportError, msg, name, path);
}

static PyObject *
format_v(PyThreadState *tstate, PyObject *exception, const char *format, va_list vargs)
{
    /* The message must be built before the previous error is cleared, but
       building it must not see that error. */
    _PyErr_Clear(tstate);
    PyObject *string = PyUnicode_FromFormatV(format, vargs);
    if (string != NULL) {
        _PyErr_SetObject(tstate, exception, string);
        Py_DECREF(string);
    }
    return NULL;
}

PyObject *
_PyErr_Format(PyThreadState *tstate, PyObject *exception, const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    format_v(tstate, exception, format, vargs);
    va_end(vargs);
    return NULL;
}

PyObject *
PyErr_FormatV(PyObject *exception, const char *format, va_list vargs)
{
    return format_v(_PyThreadState_GET(), exception, format, vargs);
}

PyObject *
PyErr_Format(PyObject *exception, const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    format_v(_PyThreadState_GET(), exception, format, vargs);
    va_end(vargs);
    return NULL;
}

/* Raise a new exception whose __cause__ (and __context__) is the current one. */
PyObject *
_PyErr_FormatFromCause(PyObject *exception, const char *format, ...)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *cause = _PyErr_GetRaisedException(tstate);
    va_list vargs;
    va_start(vargs, format);
    format_v(tstate, exception, format, vargs);
    va_end(vargs);
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    if (exc != NULL && cause != NULL) {
        PyException_SetCause(exc, Py_NewRef(cause));
        PyException_SetContext(exc, Py_NewRef(cause));
    }
    Py_XDECREF(cause);
    _PyErr_SetRaisedException(tstate, exc);
    return NULL;
}

/* Put `exc` (a reference we take) back in play: as the __context__ of an
   exception raised meanwhile, or raised again if there is none. */
void
_PyErr_ChainExceptions1(PyObject *exc)
{
    if (exc == NULL) {
        return;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *newer = _PyErr_GetRaisedException(tstate);
    if (newer == NULL) {
        _PyErr_SetRaisedException(tstate, exc);
        return;
    }
    PyException_SetContext(newer, exc);
    _PyErr_SetRaisedException(tstate, newer);
}

void
_PyErr_SetKeyError(PyObject *key)
{
    PyObject *tup = PyTuple_Pack(1, key);
    if (tup != NULL) {
        PyErr_SetObject(PyExc_KeyError, tup);
        Py_DECREF(tup);
    }
}

/* ---- Querying ----------------------------------------------------------------------- */

PyObject *
PyErr_Occurred(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    return tstate == NULL ? NULL : _PyErr_Occurred(tstate);
}

void
_PyErr_Clear(PyThreadState *tstate)
{
    _PyErr_SetRaisedException(tstate, NULL);
}

void
PyErr_Clear(void)
{
    _PyErr_Clear(_PyThreadState_GET());
}

/* A class an exception instance or class `given` stands for. */
static PyObject *
as_exception_class(PyObject *given)
{
    return PyExceptionInstance_Check(given) ? PyExceptionInstance_Class(given) : given;
}

int
PyErr_GivenExceptionMatches(PyObject *err, PyObject *exc)
{
    if (err == NULL || exc == NULL) {
        return 0;
    }
    if (!PyTuple_Check(exc)) {
        PyObject *cls = as_exception_class(err);
        if (!PyExceptionClass_Check(cls) || !PyExceptionClass_Check(exc)) {
            return cls == exc; /* not classes: only identity matches */
        }
        return PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)exc);
    }
    /* A tuple matches when any of its items (tuples nest) does. */
    int found = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(exc) && !found; i++) {
        found = PyErr_GivenExceptionMatches(err, PyTuple_GET_ITEM(exc, i));
    }
    return found;
}

int
_PyErr_ExceptionMatches(PyThreadState *tstate, PyObject *exc)
{
    return PyErr_GivenExceptionMatches(_PyErr_Occurred(tstate), exc);
}

int
PyErr_ExceptionMatches(PyObject *exc)
{
    return _PyErr_ExceptionMatches(_PyThreadState_GET(), exc);
}

/* The pre-3.12 three-part view of the raised exception (taken away). */
void
PyErr_Fetch(PyObject **p_type, PyObject **p_value, PyObject **p_traceback)
{
    PyObject *raised = PyErr_GetRaisedException();
    PyObject *type = NULL, *tb = NULL;
    if (raised != NULL) {
        type = Py_NewRef((PyObject *)Py_TYPE(raised));
        tb = PyException_GetTraceback(raised);
    }
    *p_type = type;
    *p_value = raised;
    *p_traceback = tb;
}

void
PyErr_Restore(PyObject *type, PyObject *value, PyObject *traceback)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (type == NULL) {
        Py_XDECREF(value);
        Py_XDECREF(traceback);
        _PyErr_Clear(tstate);
        return;
    }
    if (value == NULL || !PyExceptionInstance_Check(value)) {
        PyObject *inst = create_exception(tstate, type, value);
        Py_XDECREF(value);
        if (inst == NULL) {
            Py_DECREF(type);
            Py_XDECREF(traceback);
            return;
        }
        value = inst;
    }
    if (traceback != NULL && !Py_IsNone(traceback)) {
        PyException_SetTraceback(value, traceback);
    }
    Py_XDECREF(traceback);
    Py_DECREF(type);
    _PyErr_SetRaisedException(tstate, value);
}

void
PyErr_NormalizeException(PyObject **exc, PyObject **val, PyObject **tb)
{
    if (*exc == NULL || (*val != NULL && PyExceptionInstance_Check(*val))) {
        return;
    }
    PyObject *inst = create_exception(_PyThreadState_GET(), *exc, *val);
    if (inst == NULL) {
        return;
    }
    Py_XSETREF(*val, inst);
    (void)tb;
}

PyObject *
PyErr_GetHandledException(void)
{
    PyObject *exc = _PyErr_GetTopmostException(_PyThreadState_GET())->exc_value;
    return (exc == NULL || Py_IsNone(exc)) ? NULL : Py_NewRef(exc);
}

void
PyErr_SetHandledException(PyObject *exc)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_XSETREF(tstate->exc_info->exc_value, Py_XNewRef(exc == NULL || Py_IsNone(exc) ? NULL : exc));
}

/* ---- Convenience raisers ----------------------------------------------------------- */

int
PyErr_BadArgument(void)
{
    PyErr_SetString(PyExc_TypeError, "bad argument type for built-in operation");
    return 0;
}

PyObject *
PyErr_NoMemory(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    /* Reporting that memory ran out must not need any. */
    PyObject *exc = _PyExc_NewMemoryError();
    _PyErr_SetObject(tstate, PyExc_MemoryError, exc);
    Py_DECREF(exc);
    return NULL;
}

void
_PyErr_BadInternalCall(const char *filename, int lineno)
{
    PyErr_Format(PyExc_SystemError, "%s:%d: bad argument to internal function", filename, lineno);
}

PyObject *
PyErr_SetFromErrnoWithFilenameObject(PyObject *exc, PyObject *filenameObject)
{
    int i = errno;
    if (i == EINTR && PyErr_CheckSignals()) {
        return NULL;
    }
    PyObject *message = PyUnicode_DecodeFSDefault(i ? strerror(i) : "Error");
    if (message == NULL) {
        return NULL;
    }
    PyObject *args;
    if (filenameObject != NULL) {
        args = Py_BuildValue("(iOO)", i, message, filenameObject);
    }
    else {
        args = Py_BuildValue("(iO)", i, message);
    }
    Py_DECREF(message);
    if (args != NULL) {
        PyObject *v = PyObject_Call(exc, args, NULL);
        Py_DECREF(args);
        if (v != NULL) {
            PyErr_SetObject((PyObject *)Py_TYPE(v), v);
            Py_DECREF(v);
        }
    }
    return NULL;
}

PyObject *
PyErr_SetFromErrnoWithFilename(PyObject *exc, const char *filename)
{
    if (filename == NULL) {
        return PyErr_SetFromErrnoWithFilenameObject(exc, NULL);
    }
    /* Decoding the name may itself touch errno: keep the caller's. */
    int caller_errno = errno;
    PyObject *decoded = PyUnicode_DecodeFSDefault(filename);
    if (decoded != NULL) {
        errno = caller_errno;
        PyErr_SetFromErrnoWithFilenameObject(exc, decoded);
        Py_DECREF(decoded);
    }
    return NULL;
}

PyObject *
PyErr_SetFromErrno(PyObject *exc)
{
    return PyErr_SetFromErrnoWithFilenameObject(exc, NULL);
}

/* ---- Unraisable exceptions and warnings --------------------------------------------- */

void
PyErr_WriteUnraisable(PyObject *obj)
{
    _PyErr_WriteUnraisableMsg(NULL, obj); /* through sys.unraisablehook */
}

/* ---- Syntax errors ---------------------------------------------------------------------- */

PyObject *
_PyErr_ProgramDecodedTextObject(PyObject *filename, int lineno, const char *encoding)
{
    (void)encoding;
    if (filename == NULL || lineno <= 0 || !PyUnicode_Check(filename)) {
        return NULL;
    }
    const char *path = PyUnicode_AsUTF8(filename);
    if (path == NULL) {
        PyErr_Clear();
        return NULL;
    }
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        return NULL;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = 0;
    for (int i = 1; i <= lineno; i++) {
        len = getline(&line, &cap, fp);
        if (len < 0) {
            break;
        }
    }
    fclose(fp);
    PyObject *res = NULL;
    if (len >= 0 && line != NULL) {
        res = PyUnicode_DecodeUTF8(line, len, "replace");
        if (res == NULL) {
            PyErr_Clear();
        }
    }
    free(line);
    return res;
}

PyObject *
PyErr_ProgramTextObject(PyObject *filename, int lineno)
{
    return _PyErr_ProgramDecodedTextObject(filename, lineno, NULL);
}

/* Byte offset (0-based) in UTF-8 text -> 1-based character offset. */
static int
byte_to_char_offset(PyObject *text, int byte_offset)
{
    if (text == NULL || byte_offset < 0) {
        return byte_offset + 1;
    }
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    if (utf8 == NULL) {
        PyErr_Clear();
        return byte_offset + 1;
    }
    if (byte_offset > size) {
        byte_offset = (int)size;
    }
    int chars = 0;
    for (int i = 0; i < byte_offset; i++) {
        if (((unsigned char)utf8[i] & 0xC0) != 0x80) {
            chars++;
        }
    }
    return chars + 1;
}

void
_PyErr_RaiseSyntaxErrorWithText(PyObject *exc_type, PyObject *msg, PyObject *filename, int lineno,
                                int col_offset, int end_lineno, int end_col_offset, PyObject *text)
{
    int offset = byte_to_char_offset(text, col_offset);
    int end_offset = end_col_offset;
    if (end_col_offset >= 0) {
        PyObject *end_text = text;
        if (end_lineno != lineno) {
            end_text = NULL;
        }
        end_offset = byte_to_char_offset(end_text, end_col_offset);
    }
    PyObject *loc = Py_BuildValue("(OiiOii)", filename ? filename : Py_None, lineno, offset,
                                  text ? text : Py_None, end_lineno, end_offset);
    if (loc == NULL) {
        return;
    }
    PyObject *args = PyTuple_Pack(2, msg, loc);
    Py_DECREF(loc);
    if (args == NULL) {
        return;
    }
    PyErr_SetObject(exc_type ? exc_type : PyExc_SyntaxError, args);
    Py_DECREF(args);
}

void
_PyErr_RaiseSyntaxError(PyObject *msg, PyObject *filename, int lineno, int col_offset,
                        int end_lineno, int end_col_offset)
{
    PyObject *text = PyErr_ProgramTextObject(filename, lineno);
    _PyErr_RaiseSyntaxErrorWithText(PyExc_SyntaxError, msg, filename, lineno, col_offset,
                                    end_lineno, end_col_offset, text);
    Py_XDECREF(text);
}

void
PyErr_SyntaxLocationObject(PyObject *filename, int lineno, int col_offset)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL || !PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_SyntaxError)) {
        PyErr_SetRaisedException(exc);
        return;
    }
    PySyntaxErrorObject *se = (PySyntaxErrorObject *)exc;
    Py_XSETREF(se->filename, Py_XNewRef(filename));
    Py_XSETREF(se->lineno, PyLong_FromLong(lineno));
    Py_XSETREF(se->offset, PyLong_FromLong(col_offset));
    if (se->text == NULL || Py_IsNone(se->text)) {
        PyObject *text = PyErr_ProgramTextObject(filename, lineno);
        if (text != NULL) {
            Py_XSETREF(se->text, text);
        }
    }
    PyErr_SetRaisedException(exc);
}
