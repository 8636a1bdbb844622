/* Types defined by the builtins module (Python/bltinmodule.c). */
#ifndef Py_BLTINMODULE_H
#define Py_BLTINMODULE_H

PyAPI_DATA(PyTypeObject) PyFilter_Type;
PyAPI_DATA(PyTypeObject) PyMap_Type;
PyAPI_DATA(PyTypeObject) PyZip_Type;
PyAPI_DATA(PyTypeObject) PyEnum_Type;
PyAPI_DATA(PyTypeObject) PyReversed_Type;

#endif /* !Py_BLTINMODULE_H */
