/* The `pwd` module: the user account database (getpwnam, getpwuid,
   getpwall), each entry a pwd.struct_passwd.

   Look-ups use the reentrant getpw*_r() calls with a buffer that grows
   while the C library answers ERANGE, so that one thread's answer is
   never overwritten by another's.  getpwall() walks getpwent(), which
   has no reentrant form in POSIX; it holds the GIL for the whole walk. */

#include "Python.h"
#include "pycore_object.h"
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static PyStructSequence_Field passwd_fields[] = {
    {"pw_name", "login name"},
    {"pw_passwd", "encrypted password field (usually 'x')"},
    {"pw_uid", "numeric user id"},
    {"pw_gid", "numeric id of the primary group"},
    {"pw_gecos", "full name or comment"},
    {"pw_dir", "home directory"},
    {"pw_shell", "login program"},
    {NULL, NULL},
};

static PyStructSequence_Desc passwd_desc = {
    "pwd.struct_passwd",
    "One account of the user database, as returned by pwd.getpw*():\n"
    "(pw_name, pw_passwd, pw_uid, pw_gid, pw_gecos, pw_dir, pw_shell),\n"
    "readable by index or by attribute.",
    passwd_fields,
    7,
};

static PyTypeObject PasswdType;

/* An id as Python shows it: (uid_t)-1 reads back as -1. */
static PyObject *
id_to_int(uid_t id)
{
    if (id == (uid_t)-1) {
        return PyLong_FromLong(-1);
    }
    return PyLong_FromUnsignedLong((unsigned long)id);
}

static PyObject *
text_or_empty(const char *s)
{
    return PyUnicode_DecodeFSDefault(s != NULL ? s : "");
}

static PyObject *
passwd_entry(const struct passwd *pw)
{
    PyObject *items[7] = {
        text_or_empty(pw->pw_name), text_or_empty(pw->pw_passwd), id_to_int(pw->pw_uid),
        id_to_int((uid_t)pw->pw_gid), text_or_empty(pw->pw_gecos), text_or_empty(pw->pw_dir),
        text_or_empty(pw->pw_shell),
    };
    PyObject *entry = PyStructSequence_New(&PasswdType);
    int failed = entry == NULL;
    for (int i = 0; i < 7; i++) {
        failed |= items[i] == NULL;
    }
    if (failed) {
        for (int i = 0; i < 7; i++) {
            Py_XDECREF(items[i]);
        }
        Py_XDECREF(entry);
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        PyStructSequence_SetItem(entry, i, items[i]);
    }
    return entry;
}

/* What a getpw*_r() look-up needs besides its key. */
typedef int (*lookup_fn)(const void *key, struct passwd *, char *, size_t, struct passwd **);

static int
by_uid(const void *key, struct passwd *pw, char *buf, size_t size, struct passwd **found)
{
    return getpwuid_r(*(const uid_t *)key, pw, buf, size, found);
}

static int
by_name(const void *key, struct passwd *pw, char *buf, size_t size, struct passwd **found)
{
    return getpwnam_r((const char *)key, pw, buf, size, found);
}

/* The entry for `key`, or NULL: with an exception set on failure, or
   with none when the database has no such account. */
static PyObject *
lookup(lookup_fn fn, const void *key)
{
    long hint = sysconf(_SC_GETPW_R_SIZE_MAX);
    size_t size = hint > 0 ? (size_t)hint : 1024;
    for (;;) {
        char *buf = PyMem_RawMalloc(size);
        if (buf == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        struct passwd pw, *found = NULL;
        int err;
        Py_BEGIN_ALLOW_THREADS
        err = fn(key, &pw, buf, size, &found);
        Py_END_ALLOW_THREADS
        if (err == ERANGE && size < (SIZE_MAX >> 1)) {
            PyMem_RawFree(buf);
            size <<= 1;
            continue;
        }
        PyObject *res = found != NULL ? passwd_entry(found) : NULL;
        PyMem_RawFree(buf);
        return res;
    }
}

/* A uid argument: any integer (via __index__) that fits uid_t, with -1
   meaning (uid_t)-1.  Returns 1 and sets *uid, 0 when the value is out
   of range (no exception: no account can have it), -1 on a type error. */
static int
uid_arg(PyObject *arg, uid_t *uid)
{
    if (!PyLong_Check(arg) && !PyIndex_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "uid should be integer, not %.200s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    PyObject *num = PyNumber_Index(arg);
    if (num == NULL) {
        return -1;
    }
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(num, &overflow);
    Py_DECREF(num);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow != 0 || value < -1 || value > (long long)UINT32_MAX) {
        return 0;
    }
    *uid = (uid_t)value;
    return 1;
}

static PyObject *
pwd_getpwuid(PyObject *module, PyObject *arg)
{
    uid_t uid;
    int ok = uid_arg(arg, &uid);
    if (ok < 0) {
        return NULL;
    }
    PyObject *entry = ok ? lookup(by_uid, &uid) : NULL;
    if (entry != NULL || PyErr_Occurred()) {
        return entry;
    }
    if (!ok) {
        PyErr_SetString(PyExc_KeyError, "getpwuid(): uid not found");
        return NULL;
    }
    PyObject *shown = id_to_int(uid);
    if (shown != NULL) {
        PyErr_Format(PyExc_KeyError, "getpwuid(): uid not found: %S", shown);
        Py_DECREF(shown);
    }
    return NULL;
}

static PyObject *
pwd_getpwnam(PyObject *module, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "getpwnam() argument must be str, not %.200s",
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
            PyErr_Format(PyExc_KeyError, "getpwnam(): name not found: %R", arg);
        }
    }
    Py_DECREF(encoded);
    return entry;
}

static PyObject *
pwd_getpwall(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *all = PyList_New(0);
    if (all == NULL) {
        return NULL;
    }
    setpwent();
    struct passwd *pw;
    while ((pw = getpwent()) != NULL) {
        PyObject *entry = passwd_entry(pw);
        if (entry == NULL || PyList_Append(all, entry) < 0) {
            Py_XDECREF(entry);
            Py_CLEAR(all);
            break;
        }
        Py_DECREF(entry);
    }
    endpwent();
    return all;
}

static PyMethodDef pwd_methods[] = {
    {"getpwuid", pwd_getpwuid, METH_O,
     "getpwuid(uid) -> struct_passwd\n\nThe account with user id uid; KeyError if there is none."},
    {"getpwnam", pwd_getpwnam, METH_O,
     "getpwnam(name) -> struct_passwd\n\nThe account with login name name; KeyError if there is none."},
    {"getpwall", pwd_getpwall, METH_NOARGS,
     "getpwall() -> list of struct_passwd\n\nEvery account of the database, in its order."},
    {NULL, NULL, 0, NULL},
};

static int
pwd_exec(PyObject *module)
{
    if (PasswdType.tp_name == NULL &&
        (PyStructSequence_InitType2(&PasswdType, &passwd_desc) < 0 ||
         _PyStaticType_InitBuiltin(&PasswdType) < 0)) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "struct_passwd", (PyObject *)&PasswdType);
}

static PyModuleDef_Slot pwd_slots[] = {
    {Py_mod_exec, pwd_exec},
    {0, NULL},
};

static PyModuleDef pwd_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pwd",
    .m_doc = "The Unix user account database.\n\n"
             "Entries are struct_passwd tuples: pw_name, pw_passwd, pw_uid, pw_gid,\n"
             "pw_gecos, pw_dir, pw_shell (ids are ints, the rest str).",
    .m_methods = pwd_methods,
    .m_slots = pwd_slots,
};

PyObject *
PyInit_pwd(void)
{
    return PyModuleDef_Init(&pwd_module);
}
