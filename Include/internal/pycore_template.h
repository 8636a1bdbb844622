/* Template strings (PEP 750): the string.templatelib.Template and
   string.templatelib.Interpolation types, and the constructors the
   BUILD_TEMPLATE / BUILD_INTERPOLATION instructions call. */
#ifndef Py_INTERNAL_TEMPLATE_H
#define Py_INTERNAL_TEMPLATE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

extern PyTypeObject _PyTemplate_Type;
extern PyTypeObject _PyTemplateIter_Type;
extern PyTypeObject _PyInterpolation_Type;

#define _PyTemplate_CheckExact(op) Py_IS_TYPE((op), &_PyTemplate_Type)
#define _PyInterpolation_CheckExact(op) Py_IS_TYPE((op), &_PyInterpolation_Type)

/* Readies the three types (called once from interpreter start-up). */
extern int _PyTemplate_InitTypes(void);

/* A Template from a tuple of N+1 strings and a tuple of N Interpolation
   objects, both borrowed; the caller guarantees the shapes. */
PyAPI_FUNC(PyObject *) _PyTemplate_Build(PyObject *strings,
                                         PyObject *interpolations);

/* An Interpolation; `conversion` is an FVC_* code (FVC_NONE gives None),
   `format_spec` may be NULL for ''.  Arguments are borrowed. */
PyAPI_FUNC(PyObject *) _PyInterpolation_Build(PyObject *value,
                                              PyObject *expression,
                                              int conversion,
                                              PyObject *format_spec);

#endif /* !Py_INTERNAL_TEMPLATE_H */
