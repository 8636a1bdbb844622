/* _heapq: the C half of heapq.py.  Binary heaps kept in a plain list,
   smallest item first (heappush ...) or largest item first (the *_max
   functions).

   The item layout must match heapq.py's pure-Python functions exactly,
   ties included, since code may inspect the list: items sink to a leaf
   along the path of preferred children and then climb back (the
   "bottom-up" variant that heapq.py documents), and a right child is
   preferred unless the left one orders strictly before it.

   Comparisons run arbitrary Python code which may mutate the list, so
   every comparison holds its own references and is followed by a size
   check. */

#include "Python.h"

/* Which end of the order sits at the root. */
typedef enum { MIN_HEAP = 0, MAX_HEAP = 1 } heap_kind;

/* 1 if a must sit nearer the root than b, 0 if not, -1 on error. */
static int
orders_before(PyObject *a, PyObject *b, heap_kind kind)
{
    Py_INCREF(a);
    Py_INCREF(b);
    int r = kind == MIN_HEAP ? PyObject_RichCompareBool(a, b, Py_LT)
                             : PyObject_RichCompareBool(b, a, Py_LT);
    Py_DECREF(a);
    Py_DECREF(b);
    return r;
}

/* orders_before on two list slots, failing if the comparison resized
   the list. */
static int
slots_in_order(PyObject *heap, Py_ssize_t i, Py_ssize_t j, heap_kind kind)
{
    Py_ssize_t size = PyList_GET_SIZE(heap);
    int r = orders_before(PyList_GET_ITEM(heap, i), PyList_GET_ITEM(heap, j), kind);
    if (r >= 0 && PyList_GET_SIZE(heap) != size) {
        PyErr_SetString(PyExc_RuntimeError, "list changed size during iteration");
        return -1;
    }
    return r;
}

static void
swap_slots(PyObject *heap, Py_ssize_t i, Py_ssize_t j)
{
    PyObject **items = ((PyListObject *)heap)->ob_item;
    PyObject *tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
}

/* Move the item at pos up while it orders before its parent, never past
   top. */
static int
climb(PyObject *heap, Py_ssize_t top, Py_ssize_t pos, heap_kind kind)
{
    while (pos > top) {
        Py_ssize_t parent = (pos - 1) / 2;
        int before = slots_in_order(heap, pos, parent, kind);
        if (before < 0) {
            return -1;
        }
        if (!before) {
            break;
        }
        swap_slots(heap, pos, parent);
        pos = parent;
    }
    return 0;
}

/* Restore the heap below pos, whose children are heaps already: sink the
   item at pos to a leaf, then let it climb back to where it belongs. */
static int
sink(PyObject *heap, Py_ssize_t pos, heap_kind kind)
{
    Py_ssize_t top = pos;
    Py_ssize_t size = PyList_GET_SIZE(heap);
    Py_ssize_t first_leaf = size / 2;
    while (pos < first_leaf) {
        Py_ssize_t pick = 2 * pos + 1;
        if (pick + 1 < size) {
            int left_first = slots_in_order(heap, pick, pick + 1, kind);
            if (left_first < 0) {
                return -1;
            }
            if (!left_first) {
                pick++;
            }
        }
        swap_slots(heap, pos, pick);
        pos = pick;
    }
    return climb(heap, top, pos, kind);
}

/* ---- Argument checks ------------------------------------------------------- */

static int
check_heap(PyObject *heap, const char *fname, int has_item)
{
    if (PyList_Check(heap)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s() argument%s must be list, not %.200s", fname,
                 has_item ? " 1" : "", Py_TYPE(heap)->tp_name);
    return -1;
}

static int
check_heap_and_item(PyObject *const *args, Py_ssize_t nargs, const char *fname)
{
    if (!_PyArg_CheckPositional(fname, nargs, 2, 2)) {
        return -1;
    }
    return check_heap(args[0], fname, 1);
}

static PyObject *
index_error(void)
{
    PyErr_SetString(PyExc_IndexError, "index out of range");
    return NULL;
}

/* ---- The operations, parametrised by heap kind ------------------------------ */

static PyObject *
do_push(PyObject *heap, PyObject *item, heap_kind kind)
{
    if (PyList_Append(heap, item) < 0) {
        return NULL;
    }
    if (climb(heap, 0, PyList_GET_SIZE(heap) - 1, kind) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
do_pop(PyObject *heap, heap_kind kind)
{
    Py_ssize_t n = PyList_GET_SIZE(heap);
    if (n == 0) {
        return index_error();
    }
    PyObject *last = Py_NewRef(PyList_GET_ITEM(heap, n - 1));
    if (PyList_SetSlice(heap, n - 1, n, NULL) < 0) {
        Py_DECREF(last);
        return NULL;
    }
    if (n == 1) {
        return last;
    }
    /* The old root leaves; the last item takes its slot (stealing last). */
    PyObject *root = PyList_GET_ITEM(heap, 0);
    PyList_SET_ITEM(heap, 0, last);
    if (sink(heap, 0, kind) < 0) {
        Py_DECREF(root);
        return NULL;
    }
    return root;
}

/* Put item at the root and return the old root (a new reference). */
static PyObject *
swap_root(PyObject *heap, PyObject *item, heap_kind kind)
{
    PyObject *root = PyList_GET_ITEM(heap, 0);
    PyList_SET_ITEM(heap, 0, Py_NewRef(item));
    if (sink(heap, 0, kind) < 0) {
        Py_DECREF(root);
        return NULL;
    }
    return root;
}

static PyObject *
do_replace(PyObject *heap, PyObject *item, heap_kind kind)
{
    if (PyList_GET_SIZE(heap) == 0) {
        return index_error();
    }
    return swap_root(heap, item, kind);
}

static PyObject *
do_pushpop(PyObject *heap, PyObject *item, heap_kind kind)
{
    if (PyList_GET_SIZE(heap) == 0) {
        return Py_NewRef(item);
    }
    int root_first = orders_before(PyList_GET_ITEM(heap, 0), item, kind);
    if (root_first < 0) {
        return NULL;
    }
    if (!root_first) {
        return Py_NewRef(item);
    }
    if (PyList_GET_SIZE(heap) == 0) {
        return index_error();
    }
    return swap_root(heap, item, kind);
}

static PyObject *
do_heapify(PyObject *heap, heap_kind kind)
{
    for (Py_ssize_t i = PyList_GET_SIZE(heap) / 2 - 1; i >= 0; i--) {
        if (sink(heap, i, kind) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

/* ---- Module functions ------------------------------------------------------- */

/* Two wrappers per operation, one per heap kind. */
#define HEAP_ITEM_FUNC(pyname, op, kind)                                             \
    static PyObject *heapq_##pyname(PyObject *m, PyObject *const *args, Py_ssize_t n) \
    {                                                                                \
        if (check_heap_and_item(args, n, #pyname) < 0) {                             \
            return NULL;                                                             \
        }                                                                            \
        return op(args[0], args[1], kind);                                           \
    }

#define HEAP_ONLY_FUNC(pyname, op, kind)                                             \
    static PyObject *heapq_##pyname(PyObject *m, PyObject *heap)                     \
    {                                                                                \
        if (check_heap(heap, #pyname, 0) < 0) {                                      \
            return NULL;                                                             \
        }                                                                            \
        return op(heap, kind);                                                       \
    }

HEAP_ITEM_FUNC(heappush, do_push, MIN_HEAP)
HEAP_ITEM_FUNC(heappush_max, do_push, MAX_HEAP)
HEAP_ITEM_FUNC(heapreplace, do_replace, MIN_HEAP)
HEAP_ITEM_FUNC(heapreplace_max, do_replace, MAX_HEAP)
HEAP_ITEM_FUNC(heappushpop, do_pushpop, MIN_HEAP)
HEAP_ITEM_FUNC(heappushpop_max, do_pushpop, MAX_HEAP)
HEAP_ONLY_FUNC(heappop, do_pop, MIN_HEAP)
HEAP_ONLY_FUNC(heappop_max, do_pop, MAX_HEAP)
HEAP_ONLY_FUNC(heapify, do_heapify, MIN_HEAP)
HEAP_ONLY_FUNC(heapify_max, do_heapify, MAX_HEAP)

#define ITEM_ENTRY(name, sig, doc) \
    {#name, (PyCFunction)(void (*)(void))heapq_##name, METH_FASTCALL, #name sig "\n--\n\n" doc}
#define ONLY_ENTRY(name, sig, doc) {#name, (PyCFunction)heapq_##name, METH_O, #name sig "\n--\n\n" doc}

static PyMethodDef heapq_methods[] = {
    ITEM_ENTRY(heappush, "($module, heap, item, /)", "Add item to the min-heap."),
    ONLY_ENTRY(heappop, "($module, heap, /)", "Remove and return the smallest item."),
    ITEM_ENTRY(heapreplace, "($module, heap, item, /)",
               "Remove and return the smallest item, then add item.\n\n"
               "The heap must not be empty; the result may be larger than item."),
    ITEM_ENTRY(heappushpop, "($module, heap, item, /)",
               "Add item, then remove and return the smallest item (quicker than\n"
               "heappush followed by heappop)."),
    ONLY_ENTRY(heapify, "($module, heap, /)", "Rearrange the list into a min-heap, in place."),
    ITEM_ENTRY(heappush_max, "($module, heap, item, /)", "Add item to the max-heap."),
    ONLY_ENTRY(heappop_max, "($module, heap, /)", "Remove and return the largest item."),
    ITEM_ENTRY(heapreplace_max, "($module, heap, item, /)",
               "Remove and return the largest item, then add item."),
    ITEM_ENTRY(heappushpop_max, "($module, heap, item, /)",
               "Add item, then remove and return the largest item."),
    ONLY_ENTRY(heapify_max, "($module, heap, /)", "Rearrange the list into a max-heap, in place."),
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef heapqmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_heapq",
    .m_doc = "Heap queue operations on lists, in C (heapq.py re-exports them).",
    .m_size = -1,
    .m_methods = heapq_methods,
};

PyObject *
PyInit__heapq(void)
{
    return PyModule_Create(&heapqmodule);
}
