/* Frame objects as the public API sees them.  The real frame state lives in
   _PyInterpreterFrame (Include/internal/pycore_frame.h); a PyFrameObject is
   made only when someone asks for one (see Doc/frames.md). */
#ifndef Py_PYFRAME_H
#define Py_PYFRAME_H

typedef struct _frame PyFrameObject;

PyAPI_DATA(PyTypeObject) PyFrame_Type;
PyAPI_DATA(PyTypeObject) PyFrameLocalsProxy_Type;
#define PyFrame_Check(op) Py_IS_TYPE((op), &PyFrame_Type)

PyAPI_FUNC(int) PyFrame_GetLineNumber(PyFrameObject *);
PyAPI_FUNC(PyCodeObject *) PyFrame_GetCode(PyFrameObject *);
PyAPI_FUNC(PyFrameObject *) PyFrame_GetBack(PyFrameObject *);
PyAPI_FUNC(PyObject *) PyFrame_GetLocals(PyFrameObject *);
PyAPI_FUNC(PyObject *) PyFrame_GetGlobals(PyFrameObject *);
PyAPI_FUNC(PyObject *) PyFrame_GetBuiltins(PyFrameObject *);
PyAPI_FUNC(int) PyFrame_GetLasti(PyFrameObject *);
/* A frame object owning a fresh, not yet started frame for `code`. */
struct _ts;
PyAPI_FUNC(PyFrameObject *) PyFrame_New(struct _ts *, PyCodeObject *, PyObject *globals,
                                        PyObject *locals);

#endif /* !Py_PYFRAME_H */
