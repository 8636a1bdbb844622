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

PyAPI_FUNC(PyThreadState *) PyThreadState_New(PyInterpreterState *);
PyAPI_FUNC(void) PyThreadState_Clear(PyThreadState *);
PyAPI_FUNC(void) PyThreadState_Delete(PyThreadState *);
PyAPI_FUNC(void) PyThreadState_DeleteCurrent(void);
PyAPI_FUNC(PyThreadState *) PyThreadState_Swap(PyThreadState *);
PyAPI_FUNC(PyThreadState *) PyThreadState_GetUnchecked(void);
PyAPI_FUNC(uint64_t) PyThreadState_GetID(PyThreadState *);
PyAPI_FUNC(PyInterpreterState *) PyInterpreterState_Main(void);
PyAPI_FUNC(PyThreadState *) PyInterpreterState_ThreadHead(PyInterpreterState *);
PyAPI_FUNC(PyThreadState *) PyThreadState_Next(PyThreadState *);

/* Calling into Python from a thread that may not hold the interpreter
   lock, or may have no thread state yet. */
typedef enum { PyGILState_LOCKED, PyGILState_UNLOCKED } PyGILState_STATE;
PyAPI_FUNC(PyGILState_STATE) PyGILState_Ensure(void);
PyAPI_FUNC(void) PyGILState_Release(PyGILState_STATE);
PyAPI_FUNC(PyThreadState *) PyGILState_GetThisThreadState(void);
PyAPI_FUNC(int) PyGILState_Check(void);

#endif /* !Py_PYSTATE_H */
