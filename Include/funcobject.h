/* Python function objects, classmethod and staticmethod. */
#ifndef Py_FUNCOBJECT_H
#define Py_FUNCOBJECT_H

typedef struct {
    PyObject_HEAD
    PyObject *func_globals;
    PyObject *func_builtins;
    PyObject *func_name;
    PyObject *func_qualname;
    PyObject *func_code;       /* a PyCodeObject */
    PyObject *func_defaults;   /* tuple or NULL */
    PyObject *func_kwdefaults; /* dict or NULL */
    PyObject *func_closure;    /* tuple of cells or NULL */
    PyObject *func_doc;
    PyObject *func_dict;
    PyObject *func_weakreflist;
    PyObject *func_module;
    PyObject *func_annotations;
    PyObject *func_annotate;
    PyObject *func_typeparams;
    vectorcallfunc vectorcall;
    /* Changes whenever code, defaults or closure change; the specializer
       guards calls on it.  0 means "no valid version". */
    uint32_t func_version;
} PyFunctionObject;

PyAPI_DATA(PyTypeObject) PyFunction_Type;
PyAPI_DATA(PyTypeObject) PyClassMethod_Type;
PyAPI_DATA(PyTypeObject) PyStaticMethod_Type;
PyAPI_DATA(PyTypeObject) PyMethod_Type; /* bound methods */

#define PyFunction_Check(op) Py_IS_TYPE((op), &PyFunction_Type)
#define PyFunction_GET_CODE(func) (((PyFunctionObject *)(func))->func_code)
#define PyFunction_GET_GLOBALS(func) (((PyFunctionObject *)(func))->func_globals)
#define PyFunction_GET_MODULE(func) (((PyFunctionObject *)(func))->func_module)
#define PyFunction_GET_DEFAULTS(func) (((PyFunctionObject *)(func))->func_defaults)
#define PyFunction_GET_KW_DEFAULTS(func) (((PyFunctionObject *)(func))->func_kwdefaults)
#define PyFunction_GET_CLOSURE(func) (((PyFunctionObject *)(func))->func_closure)

PyAPI_FUNC(PyObject *) PyFunction_New(PyObject *code, PyObject *globals);
PyAPI_FUNC(PyObject *) PyFunction_NewWithQualName(PyObject *code, PyObject *globals, PyObject *qualname);
PyAPI_FUNC(PyObject *) PyFunction_GetCode(PyObject *);
PyAPI_FUNC(PyObject *) PyFunction_GetGlobals(PyObject *);
PyAPI_FUNC(PyObject *) PyFunction_GetModule(PyObject *);
PyAPI_FUNC(PyObject *) PyFunction_GetDefaults(PyObject *);
PyAPI_FUNC(int) PyFunction_SetDefaults(PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) PyFunction_GetKwDefaults(PyObject *);
PyAPI_FUNC(int) PyFunction_SetKwDefaults(PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) PyFunction_GetClosure(PyObject *);
PyAPI_FUNC(int) PyFunction_SetClosure(PyObject *, PyObject *);
/* The vectorcall entry of Python functions: runs the code in a new frame
   through the interpreter (Python/ceval.c). */
PyAPI_FUNC(PyObject *) _PyFunction_Vectorcall(PyObject *func, PyObject *const *stack,
                                              size_t nargsf, PyObject *kwnames);

typedef struct {
    PyObject_HEAD
    PyObject *im_func;
    PyObject *im_self;
    PyObject *im_weakreflist;
    vectorcallfunc vectorcall;
} PyMethodObject;
#define PyMethod_Check(op) Py_IS_TYPE((op), &PyMethod_Type)
#define PyMethod_GET_FUNCTION(meth) (((PyMethodObject *)(meth))->im_func)
#define PyMethod_GET_SELF(meth) (((PyMethodObject *)(meth))->im_self)
PyAPI_FUNC(PyObject *) PyMethod_New(PyObject *, PyObject *);
PyAPI_FUNC(PyObject *) PyClassMethod_New(PyObject *);
PyAPI_FUNC(PyObject *) PyStaticMethod_New(PyObject *);

#endif /* !Py_FUNCOBJECT_H */
