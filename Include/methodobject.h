/* Built-in functions and methods implemented in C (PyCFunction). */
#ifndef Py_METHODOBJECT_H
#define Py_METHODOBJECT_H

typedef PyObject *(*PyCFunction)(PyObject *, PyObject *);
typedef PyObject *(*PyCFunctionFast)(PyObject *, PyObject *const *, Py_ssize_t);
typedef PyObject *(*PyCFunctionWithKeywords)(PyObject *, PyObject *, PyObject *);
typedef PyObject *(*PyCFunctionFastWithKeywords)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
typedef PyObject *(*PyCMethod)(PyObject *, PyTypeObject *, PyObject *const *, size_t, PyObject *);

#define _PyCFunction_CAST(func) ((PyCFunction)(void (*)(void))(func))

struct PyMethodDef {
    const char *ml_name;
    PyCFunction ml_meth;
    int ml_flags;
    const char *ml_doc;
};
typedef struct PyMethodDef PyMethodDef;

#define METH_VARARGS 0x0001
#define METH_KEYWORDS 0x0002
#define METH_NOARGS 0x0004
#define METH_O 0x0008
#define METH_CLASS 0x0010
#define METH_STATIC 0x0020
#define METH_COEXIST 0x0040
#define METH_FASTCALL 0x0080
#define METH_METHOD 0x0200

typedef struct {
    PyObject_HEAD
    PyMethodDef *m_ml;   /* description of the C function */
    PyObject *m_self;    /* bound object (or module), may be NULL */
    PyObject *m_module;  /* __module__, may be NULL */
    PyObject *m_weakreflist;
    vectorcallfunc vectorcall;
} PyCFunctionObject;

PyAPI_DATA(PyTypeObject) PyCFunction_Type;
#define PyCFunction_CheckExact(op) Py_IS_TYPE((op), &PyCFunction_Type)
#define PyCFunction_Check(op) PyObject_TypeCheck((op), &PyCFunction_Type)
#define PyCFunction_GET_FUNCTION(func) (((PyCFunctionObject *)(func))->m_ml->ml_meth)
#define PyCFunction_GET_SELF(func) \
    (((PyCFunctionObject *)(func))->m_ml->ml_flags & METH_STATIC ? NULL : ((PyCFunctionObject *)(func))->m_self)
#define PyCFunction_GET_FLAGS(func) (((PyCFunctionObject *)(func))->m_ml->ml_flags)

/* A builtin method that also knows the class defining it (METH_METHOD,
   called with the PyCMethod signature). */
typedef struct {
    PyCFunctionObject func;
    PyTypeObject *mm_class;
} PyCMethodObject;
PyAPI_DATA(PyTypeObject) PyCMethod_Type;
#define PyCMethod_CheckExact(op) Py_IS_TYPE((op), &PyCMethod_Type)
#define PyCMethod_Check(op) PyObject_TypeCheck((op), &PyCMethod_Type)

PyAPI_FUNC(PyObject *) PyCMethod_New(PyMethodDef *, PyObject *self, PyObject *module,
                                     PyTypeObject *cls);
PyAPI_FUNC(PyObject *) PyCFunction_New(PyMethodDef *, PyObject *);
PyAPI_FUNC(PyObject *) PyCFunction_NewEx(PyMethodDef *, PyObject *, PyObject *);
PyAPI_FUNC(PyCFunction) PyCFunction_GetFunction(PyObject *);
PyAPI_FUNC(PyObject *) PyCFunction_GetSelf(PyObject *);

#endif /* !Py_METHODOBJECT_H */
