/* The `grp` module: the group database (getgrnam, getgrgid, getgrall),
   each entry a grp.struct_group whose gr_mem is the list of member
   login names.

   As in Modules/pwdmodule.c, single look-ups go through getgr*_r()
   with a buffer grown on ERANGE (groups with many members need large
   ones), and getgrall() walks getgrent() under the GIL. */

#include "Python.h"
#include "pycore_object.h"
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static PyStructSequence_Field group_fields[] = {
    {"gr_name", "group name"},
    {"gr_passwd", "group password field (usually 'x' or empty)"},
    {"gr_gid", "numeric group id"},
    {"gr_mem", "list of the members' login names"},
    {NULL, NULL},
};

static PyStructSequence_Desc group_desc = {
    "grp.struct_group",
    "One group of the group database, as returned by grp.getgr*():\n"
    "(gr_name, gr_passwd, gr_gid, gr_mem), readable by index or by attribute.",
    group_fields,
    4,
};

static PyTypeObject GroupType;

/* A gid as Python shows it: (gid_t)-1 reads back as -1. */
static PyObject *
gid_to_int(gid_t gid)
{
    if (gid == (gid_t)-1) {
        return PyLong_FromLong(-1);
    }
    return PyLong_FromUnsignedLong((unsigned long)gid);
}

static PyObject *
member_list(char *const *members)
{
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && members != NULL && members[i] != NULL; i++) {
        PyObject *name = PyUnicode_DecodeFSDefault(members[i]);
        if (name == NULL || PyList_Append(list, name) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(name);
    }
    return list;
}

static PyObject *
group_entry(const struct group *gr)
{
    PyObject *items[4] = {
        PyUnicode_DecodeFSDefault(gr->gr_name ? gr->gr_name : ""),
        PyUnicode_DecodeFSDefault(gr->gr_passwd ? gr->gr_passwd : ""),
        gid_to_int(gr->gr_gid),
        member_list(gr->gr_mem),
    };
    PyObject *entry = PyStructSequence_New(&GroupType);
    int failed = entry == NULL;
    for (int i = 0; i < 4; i++) {
        failed |= items[i] == NULL;
    }
    if (failed) {
        for (int i = 0; i < 4; i++) {
            Py_XDECREF(items[i]);
        }
        Py_XDECREF(entry);
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        PyStructSequence_SetItem(entry, i, items[i]);
    }
    return entry;
}

typedef int (*lookup_fn)(const void *key, struct group *, char *, size_t, struct group **);

static int
by_gid(const void *key, struct group *gr, char *buf, size_t size, struct group **found)
{
    return getgrgid_r(*(const gid_t *)key, gr, buf, size, found);
}

static int
by_name(const void *key, struct group *gr, char *buf, size_t size, struct group **found)
{
    return getgrnam_r((const char *)key, gr, buf, size, found);
}

/* The entry for `key`, or NULL: with an exception on failure, without
   one when there is no such group. */
static PyObject *
lookup(lookup_fn fn, const void *key)
{
    long hint = sysconf(_SC_GETGR_R_SIZE_MAX);
    size_t size = hint > 0 ? (size_t)hint : 1024;
    for (;;) {
        char *buf = PyMem_RawMalloc(size);
        if (buf == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        struct group gr, *found = NULL;
        int err;
        Py_BEGIN_ALLOW_THREADS
        err = fn(key, &gr, buf, size, &found);
        Py_END_ALLOW_THREADS
        if (err == ERANGE && size < (SIZE_MAX >> 1)) {
            PyMem_RawFree(buf);
            size <<= 1;
            continue;
        }
        PyObject *res = found != NULL ? group_entry(found) : NULL;
        PyMem_RawFree(buf);
        return res;
    }
}

/* A gid argument: an integer (via __index__) fitting gid_t, -1 standing
   for (gid_t)-1.  Out of range is an OverflowError, worded as CPython
   words it: only values beyond a C long are "greater than maximum". */
static int
gid_arg(PyObject *arg, gid_t *gid)
{
    if (!PyLong_Check(arg) && !PyIndex_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "gid should be integer, not %.200s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    PyObject *num = PyNumber_Index(arg);
    if (num == NULL) {
        return -1;
    }
    int overflow = 0;
    long value = PyLong_AsLongAndOverflow(num, &overflow);
    Py_DECREF(num);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow > 0) {
        PyErr_SetString(PyExc_OverflowError, "gid is greater than maximum");
        return -1;
    }
    if (overflow < 0 || value < -1 || value > (long)UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "gid is less than minimum");
        return -1;
    }
    *gid = (gid_t)value;
    return 0;
}

static PyObject *
grp_getgrgid(PyObject *module, PyObject *arg)
{
    gid_t gid;
    if (gid_arg(arg, &gid) < 0) {
        return NULL;
    }
    PyObject *entry = lookup(by_gid, &gid);
    if (entry == NULL && !PyErr_Occurred()) {
        PyObject *shown = gid_to_int(gid);
        if (shown != NULL) {
            PyErr_Format(PyExc_KeyError, "getgrgid(): gid not found: %S", shown);
            Py_DECREF(shown);
        }
    }
    return entry;
}

static PyObject *
grp_getgrnam(PyObject *module, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "getgrnam() argument 1 must be str, not %.200s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    PyObject *encoded = PyUnicode_EncodeFSDefault(arg);
    if (encoded == NULL) {
        return NULL;
    }
    const char *name = PyBytes_AS_STRING(encoded);
    PyObject *entry = NULL;
    if ((size_t)PyBytes_GET_SIZE(encoded) != strlen(name)) {
        PyErr_SetString(PyExc_ValueError, "embedded null byte");
    }
    else {
        entry = lookup(by_name, name);
        if (entry == NULL && !PyErr_Occurred()) {
            PyErr_Format(PyExc_KeyError, "getgrnam(): name not found: %R", arg);
        }
    }
    Py_DECREF(encoded);
    return entry;
}

static PyObject *
grp_getgrall(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *all = PyList_New(0);
    if (all == NULL) {
        return NULL;
    }
    setgrent();
    struct group *gr;
    while ((gr = getgrent()) != NULL) {
        PyObject *entry = group_entry(gr);
        if (entry == NULL || PyList_Append(all, entry) < 0) {
            Py_XDECREF(entry);
            Py_CLEAR(all);
            break;
        }
        Py_DECREF(entry);
    }
    endgrent();
    return all;
}

static PyMethodDef grp_methods[] = {
    {"getgrgid", grp_getgrgid, METH_O,
     "getgrgid(id) -> struct_group\n\nThe group with numeric id id; KeyError if there is none."},
    {"getgrnam", grp_getgrnam, METH_O,
     "getgrnam(name) -> struct_group\n\nThe group called name; KeyError if there is none."},
    {"getgrall", grp_getgrall, METH_NOARGS,
     "getgrall() -> list of struct_group\n\nEvery group of the database, in its order."},
    {NULL, NULL, 0, NULL},
};

static int
grp_exec(PyObject *module)
{
    if (GroupType.tp_name == NULL &&
        (PyStructSequence_InitType2(&GroupType, &group_desc) < 0 ||
         _PyStaticType_InitBuiltin(&GroupType) < 0)) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "struct_group", (PyObject *)&GroupType);
}

static PyModuleDef_Slot grp_slots[] = {
    {Py_mod_exec, grp_exec},
    {0, NULL},
};

static PyModuleDef grp_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "grp",
    .m_doc = "The Unix group database.\n\n"
             "Entries are struct_group tuples: gr_name, gr_passwd, gr_gid (an int)\n"
             "and gr_mem, the list of member login names.",
    .m_methods = grp_methods,
    .m_slots = grp_slots,
};

PyObject *
PyInit_grp(void)
{
    return PyModuleDef_Init(&grp_module);
}
