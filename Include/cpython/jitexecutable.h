/* PyUnstable_JITExecutable: the public hook for lazy frames.

   A JIT (ours, or a third party's) may run a frame without keeping its
   locals, value stack and instruction pointer current.  It marks such a
   frame by putting a JIT executable in the frame's f_executable slot.  The
   executable names the code object (so cheap introspection such as
   co_name still works) and a reifier: before anyone looks at the frame
   (sys._getframe, tracebacks, f_locals, profilers, ...), the runtime calls
   the reifier, which must write the true state into the frame.  After that
   the frame is an ordinary interpreter frame.  See Doc/frames.md. */
#ifndef Py_CPYTHON_JITEXECUTABLE_H
#define Py_CPYTHON_JITEXECUTABLE_H

struct _PyInterpreterFrame;

/* Write the frame's true locals, stack and instruction pointer into
   `frame`, then return 0; or return -1 with an exception set. */
typedef int (*PyUnstable_JITReifier)(struct _PyInterpreterFrame *frame, PyObject *state);

typedef struct {
    PyObject_HEAD
    PyCodeObject *je_code;            /* strong */
    PyUnstable_JITReifier je_reifier;
    PyObject *je_state;               /* strong, may be NULL; the JIT's own data */
} PyUnstable_JITExecutable;

PyAPI_DATA(PyTypeObject) PyUnstable_JITExecutable_Type;
#define PyUnstable_JITExecutable_Check(op) Py_IS_TYPE((op), &PyUnstable_JITExecutable_Type)

PyAPI_FUNC(PyObject *) PyUnstable_MakeJITExecutable(PyUnstable_JITReifier reifier,
                                                    PyCodeObject *code, PyObject *state);

/* Kinds of f_executable, for tools that walk frames. */
#define PyUnstable_EXECUTABLE_KIND_SKIP 0
#define PyUnstable_EXECUTABLE_KIND_PY_FUNCTION 1
#define PyUnstable_EXECUTABLE_KIND_BUILTIN_FUNCTION 3
#define PyUnstable_EXECUTABLE_KIND_METHOD_DESCRIPTOR 4
#define PyUnstable_EXECUTABLE_KIND_JIT 5
#define PyUnstable_EXECUTABLE_KINDS 6
PyAPI_DATA(const PyTypeObject *const) PyUnstable_ExecutableKinds[PyUnstable_EXECUTABLE_KINDS + 1];

#endif /* !Py_CPYTHON_JITEXECUTABLE_H */
