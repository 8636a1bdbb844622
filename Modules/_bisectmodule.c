/* _bisect: the C half of bisect.py.  Binary search and sorted insertion
   on any sequence: lists are read directly, anything else through
   __getitem__, and non-lists receive new items through their insert()
   method. */

#include "Python.h"

/* The search window and the optional key, parsed from the arguments. */
typedef struct {
    PyObject *seq;
    PyObject *x;
    Py_ssize_t lo;
    Py_ssize_t hi;
    PyObject *key; /* NULL when key is None */
} search_args;

/* A Py_ssize_t from an integer argument (lo, or an explicit hi). */
static int
index_arg(PyObject *obj, Py_ssize_t *out)
{
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL) {
        return -1;
    }
    *out = PyLong_AsSsize_t(index);
    Py_DECREF(index);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* hi=None (and, as in CPython, hi=-1) means "to the end". */
static int
resolve_hi(PyObject *hi_obj, PyObject *seq, Py_ssize_t *hi)
{
    Py_ssize_t value = -1;
    if (hi_obj != NULL && !Py_IsNone(hi_obj) && index_arg(hi_obj, &value) < 0) {
        return -1;
    }
    if (value == -1) {
        value = PySequence_Size(seq);
        if (value < 0) {
            return -1;
        }
    }
    *hi = value;
    return 0;
}

static int
parse_search_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                  const char *fname, search_args *out)
{
    static const char *const kwlist[] = {"a", "x", "lo", "hi", "key", NULL};
    PyObject *given[5];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, fname, kwlist, 2, 4, 0, given)) {
        return -1;
    }
    out->seq = given[0];
    out->x = given[1];
    out->lo = 0;
    if (given[2] != NULL && index_arg(given[2], &out->lo) < 0) {
        return -1;
    }
    if (out->lo < 0) {
        PyErr_SetString(PyExc_ValueError, "lo must be non-negative");
        return -1;
    }
    out->key = given[4] != NULL && !Py_IsNone(given[4]) ? given[4] : NULL;
    return resolve_hi(given[3], out->seq, &out->hi);
}

/* seq[i], passed through key when there is one. */
static PyObject *
probe(PyObject *seq, Py_ssize_t i, PyObject *key)
{
    PyObject *item;
    if (PyList_CheckExact(seq) && i < PyList_GET_SIZE(seq)) {
        item = Py_NewRef(PyList_GET_ITEM(seq, i));
    }
    else {
        item = PySequence_GetItem(seq, i);
    }
    if (item == NULL || key == NULL) {
        return item;
    }
    PyObject *keyed = PyObject_CallOneArg(key, item);
    Py_DECREF(item);
    return keyed;
}

/* First index in [lo, hi] whose item is not before x (after_equal=0) or
   is after x (after_equal=1).  x is already keyed. */
static Py_ssize_t
search(PyObject *seq, PyObject *x, Py_ssize_t lo, Py_ssize_t hi, PyObject *key, int after_equal)
{
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        PyObject *item = probe(seq, mid, key);
        if (item == NULL) {
            return -1;
        }
        /* go_right: the answer lies above mid. */
        int go_right = after_equal ? PyObject_RichCompareBool(x, item, Py_LT)
                                   : PyObject_RichCompareBool(item, x, Py_LT);
        Py_DECREF(item);
        if (go_right < 0) {
            return -1;
        }
        if (after_equal) {
            go_right = !go_right;
        }
        if (go_right) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return lo;
}

static PyObject *
bisect_common(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
              int after_equal)
{
    search_args a;
    if (parse_search_args(args, nargs, kwnames, fname, &a) < 0) {
        return NULL;
    }
    Py_ssize_t at = search(a.seq, a.x, a.lo, a.hi, a.key, after_equal);
    return at < 0 ? NULL : PyLong_FromSsize_t(at);
}

static PyObject *
insert_at(PyObject *seq, Py_ssize_t at, PyObject *x)
{
    if (PyList_CheckExact(seq)) {
        if (PyList_Insert(seq, at, x) < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    PyObject *r = PyObject_CallMethod(seq, "insert", "nO", at, x);
    if (r == NULL) {
        return NULL;
    }
    Py_DECREF(r);
    Py_RETURN_NONE;
}

static PyObject *
insort_common(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
              int after_equal)
{
    search_args a;
    if (parse_search_args(args, nargs, kwnames, fname, &a) < 0) {
        return NULL;
    }
    PyObject *target = a.key == NULL ? Py_NewRef(a.x) : PyObject_CallOneArg(a.key, a.x);
    if (target == NULL) {
        return NULL;
    }
    Py_ssize_t at = search(a.seq, target, a.lo, a.hi, a.key, after_equal);
    Py_DECREF(target);
    return at < 0 ? NULL : insert_at(a.seq, at, a.x);
}

static PyObject *
bisect_bisect_left(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return bisect_common(args, nargs, kwnames, "bisect_left", 0);
}

static PyObject *
bisect_bisect_right(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return bisect_common(args, nargs, kwnames, "bisect_right", 1);
}

static PyObject *
bisect_insort_left(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return insort_common(args, nargs, kwnames, "insort_left", 0);
}

static PyObject *
bisect_insort_right(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return insort_common(args, nargs, kwnames, "insort_right", 1);
}

#define BISECT_SIG "($module, /, a, x, lo=0, hi=None, *, key=None)\n--\n\n"
#define BISECT_ENTRY(name, doc) \
    {#name, (PyCFunction)(void (*)(void))bisect_##name, METH_FASTCALL | METH_KEYWORDS, #name BISECT_SIG doc}

static PyMethodDef bisect_methods[] = {
    BISECT_ENTRY(bisect_left, "Index where x would go in the sorted a[lo:hi], left of any equal\n"
                              "items.  key, if given, maps items (not x) before comparing."),
    BISECT_ENTRY(bisect_right, "Index where x would go in the sorted a[lo:hi], right of any equal\n"
                               "items.  key, if given, maps items (not x) before comparing."),
    BISECT_ENTRY(insort_left, "Insert x into the sorted a[lo:hi], left of any equal items.\n"
                              "key, if given, maps both x and the items before comparing."),
    BISECT_ENTRY(insort_right, "Insert x into the sorted a[lo:hi], right of any equal items.\n"
                               "key, if given, maps both x and the items before comparing."),
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef bisectmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_bisect",
    .m_doc = "Binary search over sorted sequences, in C (bisect.py re-exports it).",
    .m_size = -1,
    .m_methods = bisect_methods,
};

PyObject *
PyInit__bisect(void)
{
    return PyModule_Create(&bisectmodule);
}
