/* Thread and interpreter state (layouts in pycore_pystate.h). */
#ifndef Py_PYSTATE_H
#define Py_PYSTATE_H

typedef struct _ts PyThreadState;
typedef struct _is PyInterpreterState;

PyAPI_FUNC(PyThreadState *) PyThreadState_Get(void);
PyAPI_FUNC(PyInterpreterState *) PyInterpreterState_Get(void);
PyAPI_FUNC(PyObject *) PyThreadState_GetDict(void);
PyAPI_FUNC(PyFrameObject *) PyThreadState_GetFrame(PyThreadState *);
PyAPI_FUNC(PyInterpreterState *) PyThreadState_GetInterpreter(PyThreadState *);
#define PyThreadState_GET() PyThreadState_Get()

#endif /* !Py_PYSTATE_H */
