/* Internal list helpers for the interpreter and the other object files. */
#ifndef Py_INTERNAL_LIST_H
#define Py_INTERNAL_LIST_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#define _PyList_ITEMS(op) (_PyList_CAST(op)->ob_item)

/* Grow the list by one slot (over-allocating) and store newitem, whose
   reference is taken.  Slow path of _PyList_AppendTakeRef. */
PyAPI_FUNC(int) _PyList_AppendTakeRefListResize(PyListObject *self, PyObject *newitem);

/* Fast append for LIST_APPEND: uses spare capacity when there is some. */
static inline int
_PyList_AppendTakeRefInline(PyListObject *self, PyObject *newitem)
{
    Py_ssize_t len = Py_SIZE(self);
    if (len < self->allocated) {
        self->ob_item[len] = newitem;
        Py_SET_SIZE(self, len + 1);
        return 0;
    }
    return _PyList_AppendTakeRefListResize(self, newitem);
}

/* New reference to item i, or NULL (no exception set) when out of range. */
static inline PyObject *
_PyList_GetItemRef(PyListObject *self, Py_ssize_t i)
{
    if ((size_t)i >= (size_t)Py_SIZE(self)) {
        return NULL;
    }
    return Py_NewRef(self->ob_item[i]);
}

/* list.copy(): a new list with the same items. */
PyAPI_FUNC(PyObject *) _PyList_Copy(PyObject *list);

/* The list's iteritem slot, exposed so that the interpreter can call it
   directly for exact lists. */
PyAPI_FUNC(int) _PyList_IterItem(PyObject *list, Py_ssize_t index, PyObject **item,
                                 Py_ssize_t *next_index);

#endif /* !Py_INTERNAL_LIST_H */
