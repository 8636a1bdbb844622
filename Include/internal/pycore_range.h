/* Internal layout of range objects and their iterators, for the
   interpreter's FOR_ITER_RANGE specialisation and the JIT. */
#ifndef Py_INTERNAL_RANGE_H
#define Py_INTERNAL_RANGE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* start, stop, step and length are always Python ints.  When `small` is
   set, every value the range can produce (and its length) fits in a C
   long, so the c_* copies are valid and items are computed without
   allocating intermediate ints. */
typedef struct {
    PyObject_HEAD
    PyObject *start;
    PyObject *stop;
    PyObject *step;
    PyObject *length;
    int small;
    long c_start;
    long c_step;
    long c_len;
} _PyRangeObject;

/* The compact iterator used when the range is small: `start` is the next
   value to produce and `len` how many remain. */
typedef struct {
    PyObject_HEAD
    long start;
    long step;
    long len;
} _PyRangeIterObject;

/* Length of a range as a Py_ssize_t, or -1 with OverflowError set. */
PyAPI_FUNC(Py_ssize_t) _PyRange_Length(PyObject *range);

#endif /* !Py_INTERNAL_RANGE_H */
