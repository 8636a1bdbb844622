/* The door to frame objects, and the reification of lazy frames.

   A frame run by a JIT may keep its locals, value stack and instruction
   pointer out of date.  Such a frame has a PyUnstable_JITExecutable in
   f_executable.  Everyone who needs the frame's real state goes through
   _PyFrame_GetFrameObject (for an object) or _PyFrame_EnsureComplete (for
   the fields): both call the executable's reifier first, which writes the
   true state back, and then swap the code object in, so the frame is an
   ordinary interpreter frame from then on.  Doc/frames.md has the
   contract a JIT must keep. */

#include "Python.h"
#include "pycore_frame.h"
#include "pycore_object.h"
#include "pycore_pystate.h"

/* Counters for tests (sys._stats-like; read through _testinternalcapi). */
Py_ssize_t _Py_frame_objects_created = 0;
Py_ssize_t _Py_frame_reifications = 0;

int
_PyFrame_EnsureComplete(_PyInterpreterFrame *frame)
{
    PyObject *executable = PyStackRef_AsPyObjectBorrow(frame->f_executable);
    if (!PyUnstable_JITExecutable_Check(executable)) {
        return 0;
    }
    PyUnstable_JITExecutable *je = (PyUnstable_JITExecutable *)executable;
    if (je->je_reifier(frame, je->je_state) < 0) {
        assert(PyErr_Occurred());
        return -1;
    }
    _Py_frame_reifications++;
    /* From now on the frame is complete: the code object is its executable. */
    _PyStackRef old = frame->f_executable;
    frame->f_executable = PyStackRef_FromPyObjectNew((PyObject *)je->je_code);
    PyStackRef_CLOSE(old);
    return 0;
}

PyFrameObject *
_PyFrame_GetFrameObject(_PyInterpreterFrame *frame)
{
    assert(!_PyFrame_IsIncomplete(frame));
    if (_PyFrame_EnsureComplete(frame) < 0) {
        return NULL;
    }
    if (frame->frame_obj != NULL) {
        return frame->frame_obj;
    }
    PyFrameObject *f = _PyFrame_MakeAndSetFrameObject(frame);
    if (f != NULL) {
        _Py_frame_objects_created++;
    }
    return f;
}

int
PyUnstable_InterpreterFrame_GetLasti(_PyInterpreterFrame *frame)
{
    return _PyInterpreterFrame_LASTI(frame) * (int)sizeof(_Py_CODEUNIT);
}

int
PyUnstable_InterpreterFrame_GetLine(_PyInterpreterFrame *frame)
{
    if (_PyFrame_EnsureComplete(frame) < 0) {
        PyErr_Clear();
        return -1;
    }
    return PyCode_Addr2Line(_PyFrame_GetCode(frame), PyUnstable_InterpreterFrame_GetLasti(frame));
}

PyObject *
PyUnstable_InterpreterFrame_GetCode(_PyInterpreterFrame *frame)
{
    return Py_NewRef(_PyFrame_GetCode(frame));
}

/* ---- PyUnstable_JITExecutable ------------------------------------------------------ */

static void
jitexecutable_dealloc(PyObject *self)
{
    PyUnstable_JITExecutable *je = (PyUnstable_JITExecutable *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(je->je_code);
    Py_XDECREF(je->je_state);
    PyObject_GC_Del(self);
}

static int
jitexecutable_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyUnstable_JITExecutable *je = (PyUnstable_JITExecutable *)self;
    Py_VISIT(je->je_code);
    Py_VISIT(je->je_state);
    return 0;
}

static PyObject *
jitexecutable_repr(PyObject *self)
{
    PyUnstable_JITExecutable *je = (PyUnstable_JITExecutable *)self;
    return PyUnicode_FromFormat("<JIT executable for %R>", je->je_code);
}

PyTypeObject PyUnstable_JITExecutable_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "jit_executable",
    .tp_basicsize = sizeof(PyUnstable_JITExecutable),
    .tp_dealloc = jitexecutable_dealloc,
    .tp_repr = jitexecutable_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_traverse = jitexecutable_traverse,
};

PyObject *
PyUnstable_MakeJITExecutable(PyUnstable_JITReifier reifier, PyCodeObject *code, PyObject *state)
{
    if (reifier == NULL || code == NULL || !PyCode_Check(code)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyUnstable_JITExecutable *je = PyObject_GC_New(PyUnstable_JITExecutable,
                                                   &PyUnstable_JITExecutable_Type);
    if (je == NULL) {
        return NULL;
    }
    je->je_code = (PyCodeObject *)Py_NewRef(code);
    je->je_reifier = reifier;
    je->je_state = Py_XNewRef(state);
    PyObject_GC_Track(je);
    return (PyObject *)je;
}

/* Slot 0 is "skip"; slot 2 is unused, as upstream. */
const PyTypeObject *const PyUnstable_ExecutableKinds[PyUnstable_EXECUTABLE_KINDS + 1] = {
    [PyUnstable_EXECUTABLE_KIND_SKIP] = &_PyNone_Type,
    [PyUnstable_EXECUTABLE_KIND_PY_FUNCTION] = &PyCode_Type,
    [PyUnstable_EXECUTABLE_KIND_BUILTIN_FUNCTION] = &PyCFunction_Type,
    [PyUnstable_EXECUTABLE_KIND_METHOD_DESCRIPTOR] = &PyMethodDescr_Type,
    [PyUnstable_EXECUTABLE_KIND_JIT] = &PyUnstable_JITExecutable_Type,
    [PyUnstable_EXECUTABLE_KINDS] = NULL,
};

/* locals() and friends: the namespace dict of module and class frames, or
   the frame object's f_locals for function frames. */
PyObject *
_PyFrame_GetLocals(_PyInterpreterFrame *frame)
{
    if (_PyFrame_EnsureComplete(frame) < 0) {
        return NULL;
    }
    if (frame->f_locals != NULL && !(_PyFrame_GetCode(frame)->co_flags & CO_OPTIMIZED)) {
        return Py_NewRef(frame->f_locals);
    }
    PyFrameObject *f = _PyFrame_GetFrameObject(frame);
    if (f == NULL) {
        return NULL;
    }
    return PyObject_GetAttrString((PyObject *)f, "f_locals");
}
