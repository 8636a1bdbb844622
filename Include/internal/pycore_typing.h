/* Internal glue between the typing objects: GenericAlias, the union type and
   the PEP 695 type parameter objects (TypeVar, ParamSpec, ...). */
#ifndef Py_INTERNAL_TYPING_H
#define Py_INTERNAL_TYPING_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Objects/genericaliasobject.c */
extern PyTypeObject _PyGenericAliasIter_Type;
/* repr() of one argument as typing shows it: "int", "mod.Cls", "...". */
PyAPI_FUNC(PyObject *) _PyTyping_ArgRepr(PyObject *obj);
/* The type parameters mentioned by a tuple of arguments, in order, once each. */
PyAPI_FUNC(PyObject *) _PyTyping_CollectParameters(PyObject *args);
/* args with each parameter in params replaced by the matching item. */
PyAPI_FUNC(PyObject *) _PyTyping_SubstituteArgs(PyObject *self, PyObject *args,
                                                PyObject *params, PyObject *item);

/* Objects/unionobject.c */
PyAPI_DATA(PyTypeObject) _PyUnion_Type;
#define _PyUnion_Check(op) Py_IS_TYPE((op), &_PyUnion_Type)
PyAPI_FUNC(PyObject *) _Py_union_type_or(PyObject *self, PyObject *other);
/* Union of the items of a tuple (flattened, deduplicated); one item alone
   is returned as it is. */
PyAPI_FUNC(PyObject *) _Py_union_from_tuple(PyObject *args);
PyAPI_FUNC(PyObject *) _Py_union_args(PyObject *self);

/* Objects/typevarobject.c */
PyAPI_DATA(PyTypeObject) _PyTypeVar_Type;
PyAPI_DATA(PyTypeObject) _PyParamSpec_Type;
PyAPI_DATA(PyTypeObject) _PyTypeVarTuple_Type;
PyAPI_DATA(PyTypeObject) _PyParamSpecArgs_Type;
PyAPI_DATA(PyTypeObject) _PyParamSpecKwargs_Type;
PyAPI_DATA(PyTypeObject) _PyTypeAlias_Type;
PyAPI_DATA(PyTypeObject) _PyNoDefault_Type;
PyAPI_DATA(PyObject) _Py_NoDefaultStruct;
#define _Py_NoDefault (&_Py_NoDefaultStruct)
/* typing.Generic, made at start-up (a heap-like static class). */
PyAPI_FUNC(PyObject *) _PyTyping_GetGeneric(void);
/* The PEP 695 intrinsics. */
PyAPI_FUNC(PyObject *) _Py_make_typevar(PyObject *name, PyObject *evaluate_bound,
                                        PyObject *evaluate_constraints);
PyAPI_FUNC(PyObject *) _Py_make_paramspec(PyObject *name);
PyAPI_FUNC(PyObject *) _Py_make_typevartuple(PyObject *name);
PyAPI_FUNC(PyObject *) _Py_subscript_generic(PyObject *params);
PyAPI_FUNC(PyObject *) _Py_make_typealias(PyObject *args);
PyAPI_FUNC(PyObject *) _Py_set_typeparam_default(PyObject *typeparam, PyObject *evaluate_default);
PyAPI_FUNC(int) _PyTyping_InitTypes(void);

#endif
