/* Traceback objects: the chain of (frame, instruction, line) recorded as an
   exception propagates. */
#ifndef Py_TRACEBACK_H
#define Py_TRACEBACK_H

struct _frame;
typedef struct _traceback {
    PyObject_HEAD
    struct _traceback *tb_next;
    struct _frame *tb_frame;
    int tb_lasti; /* byte offset of the instruction */
    int tb_lineno; /* -1 until computed */
} PyTracebackObject;

PyAPI_DATA(PyTypeObject) PyTraceBack_Type;
#define PyTraceBack_Check(v) Py_IS_TYPE((v), &PyTraceBack_Type)

PyAPI_FUNC(int) PyTraceBack_Here(struct _frame *);
PyAPI_FUNC(int) PyTraceBack_Print(PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) _PyTraceBack_FromFrame(PyObject *tb_next, struct _frame *frame);

#endif /* !Py_TRACEBACK_H */
