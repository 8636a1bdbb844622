/* float: IEEE 754 double. */
#ifndef Py_FLOATOBJECT_H
#define Py_FLOATOBJECT_H

typedef struct {
    PyObject_HEAD
    double ob_fval;
} PyFloatObject;

PyAPI_DATA(PyTypeObject) PyFloat_Type;
#define PyFloat_Check(op) PyObject_TypeCheck((op), &PyFloat_Type)
#define PyFloat_CheckExact(op) Py_IS_TYPE((op), &PyFloat_Type)
#define PyFloat_AS_DOUBLE(op) (((PyFloatObject *)(op))->ob_fval)

PyAPI_FUNC(PyObject *) PyFloat_FromDouble(double);
PyAPI_FUNC(PyObject *) PyFloat_FromString(PyObject *);
PyAPI_FUNC(double) PyFloat_AsDouble(PyObject *);
PyAPI_FUNC(PyObject *) PyFloat_GetInfo(void);
PyAPI_FUNC(double) PyFloat_GetMax(void);
PyAPI_FUNC(double) PyFloat_GetMin(void);

/* Python/pystrtod.c */
PyAPI_FUNC(double) PyOS_string_to_double(const char *str, char **endptr, PyObject *overflow_exception);
/* format_code: 'e', 'f', 'g', 'r' (repr: shortest round-trip); flags below. */
PyAPI_FUNC(char *) PyOS_double_to_string(double val, char format_code, int precision,
                                         int flags, int *type);
#define Py_DTSF_SIGN 0x01
#define Py_DTSF_ADD_DOT_0 0x02
#define Py_DTSF_ALT 0x04
#define Py_DTSF_NO_NEG_0 0x08
#define Py_DTST_FINITE 0
#define Py_DTST_INFINITE 1
#define Py_DTST_NAN 2

/* IEEE 754 binary16/32/64 packing (struct, marshal, array): le = 1 for
   little-endian.  Pack returns 0, or -1 with OverflowError; Unpack returns
   the value, or -1.0 with an exception. */
PyAPI_FUNC(int) PyFloat_Pack2(double x, char *p, int le);
PyAPI_FUNC(int) PyFloat_Pack4(double x, char *p, int le);
PyAPI_FUNC(int) PyFloat_Pack8(double x, char *p, int le);
PyAPI_FUNC(double) PyFloat_Unpack2(const char *p, int le);
PyAPI_FUNC(double) PyFloat_Unpack4(const char *p, int le);
PyAPI_FUNC(double) PyFloat_Unpack8(const char *p, int le);

#endif /* !Py_FLOATOBJECT_H */
