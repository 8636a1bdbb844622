/* Exceptions: raising, fetching and the built-in exception classes.
   Convention everywhere: a failing function returns NULL or -1 and leaves
   the exception in the thread state. */
#ifndef Py_ERRORS_H
#define Py_ERRORS_H

#include <stdarg.h>

PyAPI_FUNC(void) PyErr_SetNone(PyObject *);
PyAPI_FUNC(void) PyErr_SetObject(PyObject *, PyObject *);
PyAPI_FUNC(void) PyErr_SetString(PyObject *exception, const char *string);
PyAPI_FUNC(PyObject *) PyErr_SetImportError(PyObject *msg, PyObject *name, PyObject *path);
PyAPI_FUNC(PyObject *) PyErr_SetImportErrorSubclass(PyObject *exception, PyObject *msg,
                                                    PyObject *name, PyObject *path);
PyAPI_FUNC(PyObject *) PyErr_Format(PyObject *exception, const char *format, ...);
PyAPI_FUNC(PyObject *) PyErr_FormatV(PyObject *exception, const char *format, va_list vargs);
PyAPI_FUNC(PyObject *) PyErr_Occurred(void);
PyAPI_FUNC(void) PyErr_Clear(void);
PyAPI_FUNC(void) PyErr_Fetch(PyObject **, PyObject **, PyObject **);
PyAPI_FUNC(void) PyErr_Restore(PyObject *, PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) PyErr_GetRaisedException(void);
PyAPI_FUNC(void) PyErr_SetRaisedException(PyObject *);
PyAPI_FUNC(PyObject *) PyErr_GetHandledException(void);
PyAPI_FUNC(void) PyErr_SetHandledException(PyObject *);
PyAPI_FUNC(int) PyErr_GivenExceptionMatches(PyObject *, PyObject *);
PyAPI_FUNC(int) PyErr_ExceptionMatches(PyObject *);
PyAPI_FUNC(void) PyErr_NormalizeException(PyObject **, PyObject **, PyObject **);
PyAPI_FUNC(int) PyErr_BadArgument(void);
PyAPI_FUNC(PyObject *) PyErr_NoMemory(void);
PyAPI_FUNC(PyObject *) PyErr_SetFromErrno(PyObject *);
PyAPI_FUNC(PyObject *) PyErr_SetFromErrnoWithFilename(PyObject *, const char *);
PyAPI_FUNC(PyObject *) PyErr_SetFromErrnoWithFilenameObject(PyObject *, PyObject *);
PyAPI_FUNC(void) _PyErr_BadInternalCall(const char *filename, int lineno);
#define PyErr_BadInternalCall() _PyErr_BadInternalCall(__FILE__, __LINE__)
PyAPI_FUNC(void) PyErr_Print(void);
PyAPI_FUNC(void) PyErr_PrintEx(int);
PyAPI_FUNC(void) PyErr_Display(PyObject *, PyObject *, PyObject *);
PyAPI_FUNC(void) PyErr_DisplayException(PyObject *);
PyAPI_FUNC(void) PyErr_WriteUnraisable(PyObject *);
PyAPI_FUNC(int) PyErr_CheckSignals(void);
PyAPI_FUNC(void) PyErr_SetInterrupt(void);
PyAPI_FUNC(int) PyErr_SetInterruptEx(int signum);
PyAPI_FUNC(int) PyErr_WarnEx(PyObject *category, const char *message, Py_ssize_t stack_level);
PyAPI_FUNC(int) PyErr_WarnFormat(PyObject *category, Py_ssize_t stack_level, const char *format, ...);
PyAPI_FUNC(int) PyErr_ResourceWarning(PyObject *source, Py_ssize_t stack_level, const char *format, ...);
PyAPI_FUNC(int) PyErr_WarnExplicitObject(PyObject *category, PyObject *message, PyObject *filename,
                                         int lineno, PyObject *module, PyObject *registry);
PyAPI_FUNC(int) PyErr_WarnExplicit(PyObject *category, const char *message, const char *filename,
                                   int lineno, const char *module, PyObject *registry);
PyAPI_FUNC(PyObject *) PyErr_NewException(const char *name, PyObject *base, PyObject *dict);
PyAPI_FUNC(PyObject *) PyErr_NewExceptionWithDoc(const char *name, const char *doc, PyObject *base,
                                                  PyObject *dict);
PyAPI_FUNC(void) PyErr_SyntaxLocationObject(PyObject *filename, int lineno, int col_offset);

/* Exception object accessors (Objects/exceptions.c) */
PyAPI_FUNC(PyObject *) PyException_GetTraceback(PyObject *);
PyAPI_FUNC(int) PyException_SetTraceback(PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) PyException_GetCause(PyObject *);
PyAPI_FUNC(void) PyException_SetCause(PyObject *, PyObject *);   /* steals */
PyAPI_FUNC(PyObject *) PyException_GetContext(PyObject *);
PyAPI_FUNC(void) PyException_SetContext(PyObject *, PyObject *); /* steals */
PyAPI_FUNC(PyObject *) PyException_GetArgs(PyObject *);
PyAPI_FUNC(void) PyException_SetArgs(PyObject *, PyObject *);

/* Codec errors (Objects/exceptions.c).  Start and end are clamped to the
   object's bounds by the getters. */
PyAPI_FUNC(PyObject *) PyUnicodeDecodeError_Create(const char *encoding, const char *object,
                                                   Py_ssize_t length, Py_ssize_t start,
                                                   Py_ssize_t end, const char *reason);
PyAPI_FUNC(PyObject *) PyUnicodeEncodeError_GetEncoding(PyObject *);
PyAPI_FUNC(PyObject *) PyUnicodeDecodeError_GetEncoding(PyObject *);
PyAPI_FUNC(PyObject *) PyUnicodeEncodeError_GetObject(PyObject *);
PyAPI_FUNC(PyObject *) PyUnicodeDecodeError_GetObject(PyObject *);
PyAPI_FUNC(PyObject *) PyUnicodeTranslateError_GetObject(PyObject *);
PyAPI_FUNC(int) PyUnicodeEncodeError_GetStart(PyObject *, Py_ssize_t *);
PyAPI_FUNC(int) PyUnicodeDecodeError_GetStart(PyObject *, Py_ssize_t *);
PyAPI_FUNC(int) PyUnicodeTranslateError_GetStart(PyObject *, Py_ssize_t *);
PyAPI_FUNC(int) PyUnicodeEncodeError_SetStart(PyObject *, Py_ssize_t);
PyAPI_FUNC(int) PyUnicodeDecodeError_SetStart(PyObject *, Py_ssize_t);
PyAPI_FUNC(int) PyUnicodeTranslateError_SetStart(PyObject *, Py_ssize_t);
PyAPI_FUNC(int) PyUnicodeEncodeError_GetEnd(PyObject *, Py_ssize_t *);
PyAPI_FUNC(int) PyUnicodeDecodeError_GetEnd(PyObject *, Py_ssize_t *);
PyAPI_FUNC(int) PyUnicodeTranslateError_GetEnd(PyObject *, Py_ssize_t *);
PyAPI_FUNC(int) PyUnicodeEncodeError_SetEnd(PyObject *, Py_ssize_t);
PyAPI_FUNC(int) PyUnicodeDecodeError_SetEnd(PyObject *, Py_ssize_t);
PyAPI_FUNC(int) PyUnicodeTranslateError_SetEnd(PyObject *, Py_ssize_t);
PyAPI_FUNC(PyObject *) PyUnicodeEncodeError_GetReason(PyObject *);
PyAPI_FUNC(PyObject *) PyUnicodeDecodeError_GetReason(PyObject *);
PyAPI_FUNC(PyObject *) PyUnicodeTranslateError_GetReason(PyObject *);
PyAPI_FUNC(int) PyUnicodeEncodeError_SetReason(PyObject *exc, const char *reason);
PyAPI_FUNC(int) PyUnicodeDecodeError_SetReason(PyObject *exc, const char *reason);
PyAPI_FUNC(int) PyUnicodeTranslateError_SetReason(PyObject *exc, const char *reason);

/* snprintf that always NUL-terminates (Python/mysnprintf.c). */
PyAPI_FUNC(int) PyOS_snprintf(char *str, size_t size, const char *format, ...);
PyAPI_FUNC(int) PyOS_vsnprintf(char *str, size_t size, const char *format, va_list va);

#define PyExceptionClass_Check(x) \
    (PyType_Check((x)) && PyType_FastSubclass((PyTypeObject *)(x), Py_TPFLAGS_BASE_EXC_SUBCLASS))
#define PyExceptionInstance_Check(x) \
    PyType_FastSubclass(Py_TYPE(x), Py_TPFLAGS_BASE_EXC_SUBCLASS)
#define PyExceptionInstance_Class(x) _PyObject_CAST(Py_TYPE(x))
#define PyExceptionClass_Name(x) (((PyTypeObject *)(x))->tp_name)

/* The built-in exception classes, as PyObject * like CPython's. */
#define Py_EXC_LIST(X)              \
    X(BaseException)                \
    X(BaseExceptionGroup)           \
    X(Exception)                    \
    X(GeneratorExit)                \
    X(KeyboardInterrupt)            \
    X(SystemExit)                   \
    X(ArithmeticError)              \
    X(FloatingPointError)           \
    X(OverflowError)                \
    X(ZeroDivisionError)            \
    X(AssertionError)               \
    X(AttributeError)               \
    X(BufferError)                  \
    X(EOFError)                     \
    X(ImportError)                  \
    X(ModuleNotFoundError)          \
    X(LookupError)                  \
    X(IndexError)                   \
    X(KeyError)                     \
    X(MemoryError)                  \
    X(NameError)                    \
    X(UnboundLocalError)            \
    X(OSError)                      \
    X(BlockingIOError)              \
    X(ChildProcessError)            \
    X(ConnectionError)              \
    X(BrokenPipeError)              \
    X(ConnectionAbortedError)       \
    X(ConnectionRefusedError)       \
    X(ConnectionResetError)         \
    X(FileExistsError)              \
    X(FileNotFoundError)            \
    X(InterruptedError)             \
    X(IsADirectoryError)            \
    X(NotADirectoryError)           \
    X(PermissionError)              \
    X(ProcessLookupError)           \
    X(TimeoutError)                 \
    X(ReferenceError)               \
    X(RuntimeError)                 \
    X(NotImplementedError)          \
    X(PythonFinalizationError)      \
    X(RecursionError)               \
    X(StopAsyncIteration)           \
    X(StopIteration)                \
    X(SyntaxError)                  \
    X(_IncompleteInputError)        \
    X(IndentationError)             \
    X(TabError)                     \
    X(SystemError)                  \
    X(TypeError)                    \
    X(ValueError)                   \
    X(UnicodeError)                 \
    X(UnicodeDecodeError)           \
    X(UnicodeEncodeError)           \
    X(UnicodeTranslateError)        \
    X(ExceptionGroup)               \
    X(Warning)                      \
    X(BytesWarning)                 \
    X(DeprecationWarning)           \
    X(EncodingWarning)              \
    X(FutureWarning)                \
    X(ImportWarning)                \
    X(PendingDeprecationWarning)    \
    X(ResourceWarning)              \
    X(RuntimeWarning)               \
    X(SyntaxWarning)                \
    X(UnicodeWarning)               \
    X(UserWarning)

#define _Py_DECLARE_EXC(NAME) PyAPI_DATA(PyObject *) PyExc_##NAME;
Py_EXC_LIST(_Py_DECLARE_EXC)
#undef _Py_DECLARE_EXC
#define PyExc_EnvironmentError PyExc_OSError
#define PyExc_IOError PyExc_OSError

/* Layouts of the exception instances (CPython's shapes) */
#define PyException_HEAD \
    PyObject_HEAD PyObject *dict; PyObject *args; PyObject *notes; \
    PyObject *traceback; PyObject *context; PyObject *cause; char suppress_context;

typedef struct { PyException_HEAD } PyBaseExceptionObject;
typedef struct { PyException_HEAD PyObject *msg; PyObject *excs; } PyBaseExceptionGroupObject;
typedef struct {
    PyException_HEAD
    PyObject *msg;
    PyObject *filename;
    PyObject *lineno;
    PyObject *offset;
    PyObject *end_lineno;
    PyObject *end_offset;
    PyObject *text;
    PyObject *print_file_and_line;
    PyObject *metadata;
} PySyntaxErrorObject;
typedef struct {
    PyException_HEAD PyObject *msg; PyObject *name; PyObject *path; PyObject *name_from;
} PyImportErrorObject;
typedef struct {
    PyException_HEAD PyObject *encoding; PyObject *object; Py_ssize_t start; Py_ssize_t end;
    PyObject *reason;
} PyUnicodeErrorObject;
typedef struct { PyException_HEAD PyObject *code; } PySystemExitObject;
typedef struct {
    PyException_HEAD PyObject *myerrno; PyObject *strerror; PyObject *filename;
    PyObject *filename2; Py_ssize_t written;
} PyOSErrorObject;
typedef struct { PyException_HEAD PyObject *value; } PyStopIterationObject;
typedef struct { PyException_HEAD PyObject *name; } PyNameErrorObject;
typedef struct { PyException_HEAD PyObject *obj; PyObject *name; } PyAttributeErrorObject;

#endif /* !Py_ERRORS_H */
