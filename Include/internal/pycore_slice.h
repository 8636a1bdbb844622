/* Internal slice helpers shared by the sequence types and the interpreter. */
#ifndef Py_INTERNAL_SLICE_H
#define Py_INTERNAL_SLICE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* slice.indices() in arbitrary precision: new references to the clamped
   start, stop and step for a sequence of `length` items (an int >= 0).
   Returns 0 on success, -1 with an exception set. */
PyAPI_FUNC(int) _PySlice_GetLongIndices(PySliceObject *self, PyObject *length,
                                        PyObject **start_ptr, PyObject **stop_ptr,
                                        PyObject **step_ptr);

/* Unpack and clamp in one go for the common "seq[slice]" path; returns the
   slice length, or -1 with an exception set.  The length is read after
   unpacking: a bound's __index__ may resize a mutable `seq`. */
static inline Py_ssize_t
_PySlice_Resolve(PyObject *slice, PyObject *seq, Py_ssize_t *start,
                 Py_ssize_t *stop, Py_ssize_t *step)
{
    if (PySlice_Unpack(slice, start, stop, step) < 0) {
        return -1;
    }
    return PySlice_AdjustIndices(Py_SIZE(seq), start, stop, *step);
}

#endif /* !Py_INTERNAL_SLICE_H */
