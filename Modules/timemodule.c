/* The time module: clocks and sleeping (struct_time and strftime come with
   the rest of the stdlib's C modules). */

#include "Python.h"
#include <time.h>
#include <errno.h>

static PyObject *
clock_seconds(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyFloat_FromDouble((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
}

static PyObject *
clock_ns(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLongLong((long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

static PyObject *
time_time(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_seconds(CLOCK_REALTIME);
}

static PyObject *
time_time_ns(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_ns(CLOCK_REALTIME);
}

static PyObject *
time_monotonic(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_seconds(CLOCK_MONOTONIC);
}

static PyObject *
time_monotonic_ns(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_ns(CLOCK_MONOTONIC);
}

static PyObject *
time_process_time(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

static PyObject *
time_process_time_ns(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

/* sleep(secs): restarts after signals unless a handler raised. */
static PyObject *
time_sleep(PyObject *m, PyObject *arg)
{
    double secs = PyFloat_AsDouble(arg);
    if (secs == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer",
                         Py_TYPE(arg)->tp_name);
        }
        return NULL;
    }
    if (secs < 0 || secs != secs) {
        PyErr_SetString(PyExc_ValueError, secs < 0 ? "sleep length must be non-negative" : "Invalid value NaN (not a number)");
        return NULL;
    }
    struct timespec req;
    req.tv_sec = (time_t)secs;
    req.tv_nsec = (long)((secs - (double)req.tv_sec) * 1e9);
    for (;;) {
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = nanosleep(&req, &req);
        Py_END_ALLOW_THREADS
        if (rc == 0) {
            break;
        }
        if (errno != EINTR) {
            return PyErr_SetFromErrno(PyExc_OSError);
        }
        if (PyErr_CheckSignals() < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef time_methods[] = {
    {"time", time_time, METH_NOARGS, "Seconds since the Epoch, as a float."},
    {"time_ns", time_time_ns, METH_NOARGS, "Nanoseconds since the Epoch, as an int."},
    {"monotonic", time_monotonic, METH_NOARGS, "A clock that never goes backwards, in seconds."},
    {"monotonic_ns", time_monotonic_ns, METH_NOARGS, "monotonic() in nanoseconds."},
    {"perf_counter", time_monotonic, METH_NOARGS, "The highest-resolution monotonic clock, in seconds."},
    {"perf_counter_ns", time_monotonic_ns, METH_NOARGS, "perf_counter() in nanoseconds."},
    {"process_time", time_process_time, METH_NOARGS, "CPU time of this process, in seconds."},
    {"process_time_ns", time_process_time_ns, METH_NOARGS, "process_time() in nanoseconds."},
    {"sleep", time_sleep, METH_O, "Delay execution for a number of seconds."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef timemodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "time",
    .m_doc = "Time access and conversions.",
    .m_size = -1,
    .m_methods = time_methods,
};

PyObject *
PyInit_time(void)
{
    return PyModule_Create(&timemodule);
}
