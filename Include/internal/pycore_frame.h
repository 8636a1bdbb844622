/* _PyInterpreterFrame: the frame the interpreter runs, and PyFrameObject,
   the Python-visible object made from it on demand.  Doc/frames.md has the
   full story; the short one:

   - Interpreter frames live in a per-thread data stack (pushed and popped
     like C frames, no malloc per call).  Generators embed theirs.
   - localsplus holds the fast locals, then cells, then free variables,
     then the value stack (co_stacksize slots).
   - f_executable is the code object, or a PyUnstable_JITExecutable for a
     lazy frame whose state may be stale until it is reified. */
#ifndef Py_INTERNAL_FRAME_H
#define Py_INTERNAL_FRAME_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_stackref.h"

enum _frameowner {
    FRAME_OWNED_BY_THREAD = 0,       /* on the thread's data stack */
    FRAME_OWNED_BY_GENERATOR = 1,    /* embedded in a generator/coroutine */
    FRAME_OWNED_BY_FRAME_OBJECT = 2, /* copied into its frame object */
    FRAME_OWNED_BY_INTERPRETER = 3,  /* entry frame of a C call into eval */
};
#define FRAME_OWNED_BY_CSTACK FRAME_OWNED_BY_INTERPRETER

typedef struct _PyInterpreterFrame {
    _PyStackRef f_executable; /* code object or JIT executable (strong) */
    struct _PyInterpreterFrame *previous;
    _PyStackRef f_funcobj;    /* the function (strong), or NULL/None */
    PyObject *f_globals;      /* borrowed */
    PyObject *f_builtins;     /* borrowed */
    PyObject *f_locals;       /* strong, may be NULL (module/class/exec code) */
    PyFrameObject *frame_obj; /* strong, NULL until someone asks for it */
    _Py_CODEUNIT *instr_ptr;  /* instruction being executed (or next to run) */
    _PyStackRef *stackpointer; /* valid when the frame is not running */
    uint16_t return_offset;   /* where the caller resumes, relative to its instr_ptr */
    char owner;
    char visited;
    _PyStackRef localsplus[1];
} _PyInterpreterFrame;

#define _PyInterpreterFrame_LASTI(IF) \
    ((int)((IF)->instr_ptr - _PyCode_CODE(_PyFrame_GetCode(IF))))

struct _frame {
    PyObject_HEAD
    PyFrameObject *f_back;      /* previous frame, set once the frame is gone */
    _PyInterpreterFrame *f_frame; /* points into _f_frame_data once owned */
    PyObject *f_trace;
    int f_lineno;               /* only valid while tracing */
    char f_trace_lines;
    char f_trace_opcodes;
    PyObject *f_extra_locals;   /* PEP 667: names set on f_locals that are not fast locals */
    PyObject *f_locals_cache;
    PyObject *f_overwritten_fast_locals;
    /* The interpreter frame is copied here when its owner goes away. */
    _PyStackRef _f_frame_data[1];
};

static inline PyCodeObject *
_PyFrame_GetCode(_PyInterpreterFrame *f)
{
    PyObject *executable = PyStackRef_AsPyObjectBorrow(f->f_executable);
    if (PyUnstable_JITExecutable_Check(executable)) {
        return ((PyUnstable_JITExecutable *)executable)->je_code;
    }
    assert(PyCode_Check(executable));
    return (PyCodeObject *)executable;
}

static inline PyFunctionObject *
_PyFrame_GetFunction(_PyInterpreterFrame *f)
{
    PyObject *func = PyStackRef_AsPyObjectBorrow(f->f_funcobj);
    assert(PyFunction_Check(func));
    return (PyFunctionObject *)func;
}

static inline _PyStackRef *
_PyFrame_Stackbase(_PyInterpreterFrame *f)
{
    return f->localsplus + _PyFrame_GetCode(f)->co_nlocalsplus;
}

static inline _PyStackRef *
_PyFrame_GetStackPointer(_PyInterpreterFrame *frame)
{
    assert(frame->stackpointer != NULL);
    return frame->stackpointer;
}

static inline void
_PyFrame_SetStackPointer(_PyInterpreterFrame *frame, _PyStackRef *stack_pointer)
{
    frame->stackpointer = stack_pointer;
}

static inline _PyStackRef *
_PyFrame_GetLocalsArray(_PyInterpreterFrame *frame)
{
    return frame->localsplus;
}

static inline int
_PyFrame_IsLazy(_PyInterpreterFrame *frame)
{
    return PyUnstable_JITExecutable_Check(PyStackRef_AsPyObjectBorrow(frame->f_executable));
}

/* Frames that are not (yet, or any more) running real Python code are
   skipped by anything that walks the stack for the user. */
static inline int
_PyFrame_IsIncomplete(_PyInterpreterFrame *frame)
{
    if (frame->owner >= FRAME_OWNED_BY_INTERPRETER) {
        return 1;
    }
    if (_PyFrame_IsLazy(frame)) {
        /* A JIT frame is running real code; its instr_ptr may be stale. */
        return 0;
    }
    PyCodeObject *code = _PyFrame_GetCode(frame);
    return frame->owner != FRAME_OWNED_BY_GENERATOR &&
           frame->instr_ptr < _PyCode_CODE(code) + code->_co_firsttraceable;
}

static inline _PyInterpreterFrame *
_PyFrame_GetFirstComplete(_PyInterpreterFrame *frame)
{
    while (frame && _PyFrame_IsIncomplete(frame)) {
        frame = frame->previous;
    }
    return frame;
}

/* Fill in a frame's header and clear its locals.  Takes ownership of func
   and code (as stack refs) and does not touch the caller's frame. */
static inline void
_PyFrame_Initialize(PyThreadState *tstate, _PyInterpreterFrame *frame, _PyStackRef func,
                    PyObject *locals, PyCodeObject *code, int null_locals_from,
                    _PyInterpreterFrame *previous)
{
    (void)tstate;
    frame->previous = previous;
    frame->f_funcobj = func;
    frame->f_executable = PyStackRef_FromPyObjectNew((PyObject *)code);
    PyFunctionObject *func_obj = (PyFunctionObject *)PyStackRef_AsPyObjectBorrow(func);
    frame->f_builtins = func_obj->func_builtins;
    frame->f_globals = func_obj->func_globals;
    frame->f_locals = locals;
    frame->stackpointer = frame->localsplus + code->co_nlocalsplus;
    frame->frame_obj = NULL;
    frame->instr_ptr = _PyCode_CODE(code);
    frame->return_offset = 0;
    frame->owner = FRAME_OWNED_BY_THREAD;
    frame->visited = 0;
    /* Tested first: compilers turn the loop into a memset call, which
       costs more than the loop for the usual handful of slots (and is
       made even for none). */
    if (null_locals_from < code->co_nlocalsplus) {
        for (int i = null_locals_from; i < code->co_nlocalsplus; i++) {
            frame->localsplus[i] = PyStackRef_NULL;
        }
    }
}

/* The one door to a frame object: reifies a lazy frame first (calls its
   JIT executable's reifier), then returns frame_obj, making it if needed.
   Returns a borrowed reference, or NULL with an exception set. */
PyAPI_FUNC(PyFrameObject *) _PyFrame_GetFrameObject(_PyInterpreterFrame *frame);
/* For internal readers that need the frame's fields, not an object:
   reifies a lazy frame.  0 on success, -1 with an exception set. */
PyAPI_FUNC(int) _PyFrame_EnsureComplete(_PyInterpreterFrame *frame);
/* Makes the frame object (called by _PyFrame_GetFrameObject). */
PyAPI_FUNC(PyFrameObject *) _PyFrame_MakeAndSetFrameObject(_PyInterpreterFrame *frame);
/* Releases what a frame owns when it is popped; if a frame object exists
   the frame is copied into it first. */
PyAPI_FUNC(void) _PyFrame_ClearExceptCode(_PyInterpreterFrame *frame);
PyAPI_FUNC(void) _PyFrame_ClearLocals(_PyInterpreterFrame *frame);
PyAPI_FUNC(int) _PyFrame_Traverse(_PyInterpreterFrame *frame, visitproc visit, void *arg);
PyAPI_FUNC(PyObject *) _PyFrame_GetLocals(_PyInterpreterFrame *frame);
PyAPI_FUNC(int) PyUnstable_InterpreterFrame_GetLine(_PyInterpreterFrame *frame);
PyAPI_FUNC(int) PyUnstable_InterpreterFrame_GetLasti(_PyInterpreterFrame *frame);
PyAPI_FUNC(PyObject *) PyUnstable_InterpreterFrame_GetCode(_PyInterpreterFrame *frame);

/* Objects/frameobject.c: make a frame object that will own `frame`. */
PyAPI_FUNC(PyFrameObject *) _PyFrame_New_NoTrack(PyCodeObject *code);

/* Thread data stack (Python/pystate.c).  Frames are bump-allocated in
   chunks; pushing is a pointer increment in the common case. */
PyAPI_FUNC(_PyInterpreterFrame *) _PyThreadState_PushFrame(PyThreadState *tstate, size_t size);
PyAPI_FUNC(void) _PyThreadState_PopFrame(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* Size of the header in stack-ref-sized words. */
#define FRAME_SPECIALS_SIZE ((int)((sizeof(_PyInterpreterFrame) - 1) / sizeof(_PyStackRef)))

#endif /* !Py_INTERNAL_FRAME_H */
