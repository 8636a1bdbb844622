/* The `syslog` module: openlog(), syslog(), closelog() and setlogmask()
   over the C library's syslog(3), with the LOG_* priorities, facilities
   and options, and the LOG_MASK()/LOG_UPTO() mask helpers.

   openlog(3) keeps the ident pointer it is given, so the module owns a
   C copy of the ident until the next openlog() or closelog().  Because
   of that copy, syslog(3) is called with the GIL held: no other thread
   can free the ident under it. */

#include "Python.h"
#include <string.h>
#include <syslog.h>

/* The ident openlog(3) was last given, or NULL. */
static char *current_ident = NULL;
static int log_opened = 0;

static void
replace_ident(char *ident)
{
    PyMem_RawFree(current_ident);
    current_ident = ident;
}

/* A raw-allocated copy of str's UTF-8 text, or NULL with an exception. */
static char *
copy_text(PyObject *str)
{
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(str, &size);
    if (text == NULL) {
        return NULL;
    }
    char *copy = PyMem_RawMalloc((size_t)size + 1);
    if (copy == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, text, (size_t)size + 1);
    return copy;
}

/* The default ident: the last path component of sys.argv[0], or NULL
   (the C library then uses the program name) when there is none. */
static char *
ident_from_argv(void)
{
    PyObject *argv = PySys_GetObject("argv");
    if (argv == NULL || !PyList_Check(argv) || PyList_GET_SIZE(argv) == 0) {
        return NULL;
    }
    PyObject *first = PyList_GET_ITEM(argv, 0);
    if (!PyUnicode_Check(first) || PyUnicode_GET_LENGTH(first) == 0) {
        return NULL;
    }
    char *path = copy_text(first);
    if (path == NULL) {
        PyErr_Clear();
        return NULL;
    }
    const char *slash = strrchr(path, '/');
    if (slash != NULL) {
        memmove(path, slash + 1, strlen(slash + 1) + 1);
    }
    return path;
}

static void
open_log(char *ident, int option, int facility)
{
    replace_ident(ident);
    openlog(current_ident, option, facility);
    log_opened = 1;
}

static PyObject *
syslog_openlog(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"ident", "logoption", "facility", NULL};
    PyObject *argv[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "openlog", names, 0, 3, 0, argv)) {
        return NULL;
    }
    PyObject *ident_obj = argv[0] != NULL ? argv[0] : Py_None;
    if (ident_obj != Py_None && !PyUnicode_Check(ident_obj)) {
        PyErr_Format(PyExc_TypeError, "openlog() argument 'ident' must be str, not %.200s",
                     Py_TYPE(ident_obj)->tp_name);
        return NULL;
    }
    int numbers[2] = {0, LOG_USER}; /* logoption, facility */
    for (int i = 0; i < 2; i++) {
        if (argv[i + 1] != NULL) {
            numbers[i] = PyLong_AsInt(argv[i + 1]);
            if (numbers[i] == -1 && PyErr_Occurred()) {
                return NULL;
            }
        }
    }
    char *ident = ident_obj == Py_None ? ident_from_argv() : copy_text(ident_obj);
    if (ident == NULL && ident_obj != Py_None) {
        return NULL;
    }
    open_log(ident, numbers[0], numbers[1]);
    Py_RETURN_NONE;
}

static PyObject *
syslog_syslog(PyObject *module, PyObject *args)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "syslog.syslog requires 1 to 2 arguments");
        return NULL;
    }
    int priority = LOG_INFO;
    if (nargs == 2) {
        priority = PyLong_AsInt(PyTuple_GET_ITEM(args, 0));
        if (priority == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    PyObject *message = PyTuple_GET_ITEM(args, nargs - 1);
    if (!PyUnicode_Check(message)) {
        PyErr_Format(PyExc_TypeError, "syslog() argument %zd must be str, not %.200s", nargs,
                     Py_TYPE(message)->tp_name);
        return NULL;
    }
    const char *text = PyUnicode_AsUTF8(message);
    if (text == NULL) {
        return NULL;
    }
    if (!log_opened) {
        open_log(ident_from_argv(), 0, LOG_USER);
    }
    syslog(priority, "%s", text);
    Py_RETURN_NONE;
}

static PyObject *
syslog_closelog(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    if (log_opened) {
        closelog();
        replace_ident(NULL);
        log_opened = 0;
    }
    Py_RETURN_NONE;
}

static PyObject *
syslog_setlogmask(PyObject *module, PyObject *arg)
{
    int mask = PyLong_AsInt(arg);
    if (mask == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromLong(setlogmask(mask));
}

static PyObject *
syslog_log_mask(PyObject *module, PyObject *arg)
{
    int priority = PyLong_AsInt(arg);
    if (priority == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromLong(LOG_MASK(priority));
}

static PyObject *
syslog_log_upto(PyObject *module, PyObject *arg)
{
    int priority = PyLong_AsInt(arg);
    if (priority == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromLong(LOG_UPTO(priority));
}

typedef PyObject *(*fastcall_kw_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

static PyMethodDef syslog_methods[] = {
    {"openlog", (PyCFunction)(void (*)(void))(fastcall_kw_fn)syslog_openlog,
     METH_FASTCALL | METH_KEYWORDS,
     "openlog(ident=None, logoption=0, facility=LOG_USER)\n\n"
     "Set the tag, options and default facility of later syslog() calls;\n"
     "without ident, the name of the running script is used."},
    {"syslog", syslog_syslog, METH_VARARGS,
     "syslog([priority=LOG_INFO,] message)\n\nSend message to the system logger."},
    {"closelog", syslog_closelog, METH_NOARGS,
     "closelog()\n\nClose the connection to the logger; the next syslog() reopens it."},
    {"setlogmask", syslog_setlogmask, METH_O,
     "setlogmask(mask) -> previous mask\n\nOnly priorities whose bit is set in mask are logged;\n"
     "a mask of 0 leaves the mask as it is."},
    {"LOG_MASK", syslog_log_mask, METH_O, "LOG_MASK(pri) -> the mask bit of priority pri"},
    {"LOG_UPTO", syslog_log_upto, METH_O, "LOG_UPTO(pri) -> the mask of priorities up to pri"},
    {NULL, NULL, 0, NULL},
};

#define C(name) {#name, name}
static const struct {
    const char *name;
    int value;
} syslog_constants[] = {
    C(LOG_EMERG), C(LOG_ALERT), C(LOG_CRIT), C(LOG_ERR), C(LOG_WARNING), C(LOG_NOTICE),
    C(LOG_INFO), C(LOG_DEBUG), C(LOG_PID), C(LOG_CONS), C(LOG_ODELAY), C(LOG_NDELAY),
    C(LOG_NOWAIT), C(LOG_PERROR), C(LOG_KERN), C(LOG_USER), C(LOG_MAIL), C(LOG_DAEMON),
    C(LOG_AUTH), C(LOG_LPR), C(LOG_NEWS), C(LOG_UUCP), C(LOG_CRON), C(LOG_SYSLOG),
    C(LOG_LOCAL0), C(LOG_LOCAL1), C(LOG_LOCAL2), C(LOG_LOCAL3), C(LOG_LOCAL4), C(LOG_LOCAL5),
    C(LOG_LOCAL6), C(LOG_LOCAL7), C(LOG_AUTHPRIV), C(LOG_FTP),
};
#undef C

static int
syslog_exec(PyObject *module)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(syslog_constants); i++) {
        if (PyModule_AddIntConstant(module, syslog_constants[i].name, syslog_constants[i].value) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyModuleDef_Slot syslog_slots[] = {
    {Py_mod_exec, syslog_exec},
    {0, NULL},
};

static PyModuleDef syslog_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "syslog",
    .m_doc = "The Unix system logger: openlog, syslog, closelog, setlogmask.",
    .m_methods = syslog_methods,
    .m_slots = syslog_slots,
};

PyObject *
PyInit_syslog(void)
{
    return PyModuleDef_Init(&syslog_module);
}
