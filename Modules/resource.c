/* The `resource` module: process resource limits (getrlimit, setrlimit,
   prlimit), resource usage (getrusage, as resource.struct_rusage) and
   the page size.

   Limits cross into Python as signed integers, so RLIM_INFINITY (all
   bits set in rlim_t) reads as -1, and -1 given back means "no limit".
   resource.error is OSError itself. */

#include "Python.h"
#include "pycore_object.h"
#include <errno.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

static PyStructSequence_Field rusage_fields[] = {
    {"ru_utime", "user CPU time used, in seconds"},
    {"ru_stime", "system CPU time used, in seconds"},
    {"ru_maxrss", "largest resident set size (KiB)"},
    {"ru_ixrss", "integral shared memory size"},
    {"ru_idrss", "integral unshared data size"},
    {"ru_isrss", "integral unshared stack size"},
    {"ru_minflt", "page faults served without I/O"},
    {"ru_majflt", "page faults that needed I/O"},
    {"ru_nswap", "times swapped out"},
    {"ru_inblock", "block input operations"},
    {"ru_oublock", "block output operations"},
    {"ru_msgsnd", "IPC messages sent"},
    {"ru_msgrcv", "IPC messages received"},
    {"ru_nsignals", "signals received"},
    {"ru_nvcsw", "voluntary context switches"},
    {"ru_nivcsw", "involuntary context switches"},
    {NULL, NULL},
};

static PyStructSequence_Desc rusage_desc = {
    "resource.struct_rusage",
    "What getrusage() reports: CPU times as float seconds, then the\n"
    "counters of getrusage(2), by index or by their ru_* names.",
    rusage_fields,
    16,
};

static PyTypeObject RusageType;

/* ---- conversions ----------------------------------------------------------------------- */

static PyObject *
limit_to_int(rlim_t value)
{
    if (value == RLIM_INFINITY) {
        return PyLong_FromLong(-1);
    }
    return PyLong_FromUnsignedLongLong((unsigned long long)value);
}

static PyObject *
limits_to_tuple(const struct rlimit *rl)
{
    PyObject *soft = limit_to_int(rl->rlim_cur);
    PyObject *hard = limit_to_int(rl->rlim_max);
    PyObject *res = (soft && hard) ? PyTuple_Pack(2, soft, hard) : NULL;
    Py_XDECREF(soft);
    Py_XDECREF(hard);
    return res;
}

static int
int_to_limit(PyObject *obj, rlim_t *out)
{
    PyObject *num = PyNumber_Index(obj);
    if (num == NULL) {
        return -1;
    }
    long value = PyLong_AsLong(num);
    Py_DECREF(num);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = value < 0 ? RLIM_INFINITY : (rlim_t)value;
    return 0;
}

/* A (soft, hard) pair from any iterable of two integers. */
static int
tuple_to_limits(PyObject *obj, struct rlimit *rl)
{
    PyObject *pair = PySequence_Tuple(obj);
    if (pair == NULL) {
        return -1;
    }
    int rc = -1;
    if (PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_ValueError, "expected a tuple of 2 integers");
    }
    else if (int_to_limit(PyTuple_GET_ITEM(pair, 0), &rl->rlim_cur) == 0 &&
             int_to_limit(PyTuple_GET_ITEM(pair, 1), &rl->rlim_max) == 0) {
        rc = 0;
    }
    Py_DECREF(pair);
    return rc;
}

/* A resource number: an int naming one of the RLIMIT_* limits. */
static int
resource_arg(PyObject *obj, int *resource)
{
    *resource = PyLong_AsInt(obj);
    if (*resource == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (*resource < 0 || *resource >= RLIM_NLIMITS) {
        PyErr_SetString(PyExc_ValueError, "invalid resource specified");
        return -1;
    }
    return 0;
}

/* The errors a limit change can meet: EINVAL means soft > hard (for
   setrlimit and prlimit alike), EPERM raising the hard limit (only
   setrlimit words it as a ValueError). */
static PyObject *
limit_change_error(int eperm_as_value_error)
{
    if (errno == EINVAL) {
        PyErr_SetString(PyExc_ValueError, "current limit exceeds maximum limit");
    }
    else if (errno == EPERM && eperm_as_value_error) {
        PyErr_SetString(PyExc_ValueError, "not allowed to raise maximum limit");
    }
    else {
        PyErr_SetFromErrno(PyExc_OSError);
    }
    return NULL;
}

/* ---- the functions --------------------------------------------------------------------- */

static PyObject *
resource_getrlimit(PyObject *module, PyObject *arg)
{
    int resource;
    if (resource_arg(arg, &resource) < 0) {
        return NULL;
    }
    struct rlimit rl;
    if (getrlimit(resource, &rl) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return limits_to_tuple(&rl);
}

static PyObject *
resource_setrlimit(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "setrlimit expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    int resource;
    struct rlimit rl;
    if (resource_arg(args[0], &resource) < 0 || tuple_to_limits(args[1], &rl) < 0) {
        return NULL;
    }
    if (setrlimit(resource, &rl) < 0) {
        return limit_change_error(1);
    }
    Py_RETURN_NONE;
}

static PyObject *
resource_prlimit(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2) {
        PyErr_Format(PyExc_TypeError, "prlimit expected at least 2 arguments, got %zd", nargs);
        return NULL;
    }
    if (nargs > 3) {
        PyErr_Format(PyExc_TypeError, "prlimit expected at most 3 arguments, got %zd", nargs);
        return NULL;
    }
    int pid = PyLong_AsInt(args[0]);
    if (pid == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int resource;
    if (resource_arg(args[1], &resource) < 0) {
        return NULL;
    }
    struct rlimit new_limits, old_limits;
    int changing = nargs == 3 && args[2] != Py_None;
    if (changing && tuple_to_limits(args[2], &new_limits) < 0) {
        return NULL;
    }
    if (prlimit((pid_t)pid, resource, changing ? &new_limits : NULL, &old_limits) < 0) {
        return limit_change_error(0);
    }
    return limits_to_tuple(&old_limits);
}

static PyObject *
seconds(struct timeval tv)
{
    return PyFloat_FromDouble((double)tv.tv_sec + (double)tv.tv_usec * 1e-6);
}

static PyObject *
resource_getrusage(PyObject *module, PyObject *arg)
{
    int who = PyLong_AsInt(arg);
    if (who == -1 && PyErr_Occurred()) {
        return NULL;
    }
    struct rusage ru;
    if (getrusage(who, &ru) < 0) {
        if (errno == EINVAL) {
            PyErr_SetString(PyExc_ValueError, "invalid who parameter");
            return NULL;
        }
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    PyObject *res = PyStructSequence_New(&RusageType);
    if (res == NULL) {
        return NULL;
    }
    long counters[] = {
        ru.ru_maxrss, ru.ru_ixrss, ru.ru_idrss, ru.ru_isrss, ru.ru_minflt, ru.ru_majflt, ru.ru_nswap,
        ru.ru_inblock, ru.ru_oublock, ru.ru_msgsnd, ru.ru_msgrcv, ru.ru_nsignals, ru.ru_nvcsw,
        ru.ru_nivcsw,
    };
    PyStructSequence_SetItem(res, 0, seconds(ru.ru_utime));
    PyStructSequence_SetItem(res, 1, seconds(ru.ru_stime));
    for (int i = 0; i < 14; i++) {
        PyStructSequence_SetItem(res, 2 + i, PyLong_FromLong(counters[i]));
    }
    for (int i = 0; i < 16; i++) {
        if (PyStructSequence_GetItem(res, i) == NULL) { /* a failed allocation */
            Py_DECREF(res);
            return NULL;
        }
    }
    return res;
}

static PyObject *
resource_getpagesize(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(sysconf(_SC_PAGESIZE));
}

static PyMethodDef resource_methods[] = {
    {"getrlimit", resource_getrlimit, METH_O,
     "getrlimit(resource) -> (soft, hard)\n\nThe current limits; -1 stands for no limit."},
    {"setrlimit", _PyCFunction_CAST(resource_setrlimit), METH_FASTCALL,
     "setrlimit(resource, (soft, hard))\n\nChange this process's limits for resource."},
    {"prlimit", _PyCFunction_CAST(resource_prlimit), METH_FASTCALL,
     "prlimit(pid, resource[, (soft, hard)]) -> (soft, hard)\n\n"
     "Read, and optionally change, the limits of process pid (0: this one);\n"
     "returns the limits as they were before."},
    {"getrusage", resource_getrusage, METH_O,
     "getrusage(who) -> struct_rusage\n\nResource usage of RUSAGE_SELF, RUSAGE_CHILDREN or RUSAGE_THREAD."},
    {"getpagesize", resource_getpagesize, METH_NOARGS,
     "getpagesize() -> int\n\nThe size of a memory page in bytes."},
    {NULL, NULL, 0, NULL},
};

#define C(name) {#name, (long long)name}
static const struct {
    const char *name;
    long long value;
} resource_constants[] = {
    C(RLIMIT_AS), C(RLIMIT_CORE), C(RLIMIT_CPU), C(RLIMIT_DATA), C(RLIMIT_FSIZE),
    C(RLIMIT_MEMLOCK), C(RLIMIT_MSGQUEUE), C(RLIMIT_NICE), C(RLIMIT_NOFILE), C(RLIMIT_NPROC),
    C(RLIMIT_OFILE), C(RLIMIT_RSS), C(RLIMIT_RTPRIO), C(RLIMIT_RTTIME), C(RLIMIT_SIGPENDING),
    C(RLIMIT_STACK), C(RUSAGE_CHILDREN), C(RUSAGE_SELF), C(RUSAGE_THREAD),
    {"RLIM_INFINITY", -1},
};
#undef C

static int
resource_exec(PyObject *module)
{
    if (RusageType.tp_name == NULL &&
        (PyStructSequence_InitType2(&RusageType, &rusage_desc) < 0 ||
         _PyStaticType_InitBuiltin(&RusageType) < 0)) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "struct_rusage", (PyObject *)&RusageType) < 0 ||
        PyModule_AddObjectRef(module, "error", PyExc_OSError) < 0) {
        return -1;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(resource_constants); i++) {
        PyObject *value = PyLong_FromLongLong(resource_constants[i].value);
        if (PyModule_Add(module, resource_constants[i].name, value) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyModuleDef_Slot resource_slots[] = {
    {Py_mod_exec, resource_exec},
    {0, NULL},
};

static PyModuleDef resource_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "resource",
    .m_doc = "Process resource limits and usage: getrlimit, setrlimit, prlimit,\n"
             "getrusage and getpagesize, with the RLIMIT_* and RUSAGE_* numbers.",
    .m_methods = resource_methods,
    .m_slots = resource_slots,
};

PyObject *
PyInit_resource(void)
{
    return PyModuleDef_Init(&resource_module);
}
