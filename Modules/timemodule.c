/* The time module: clocks and sleeping, then calendar time: struct_time,
   gmtime/localtime/mktime, strftime/strptime/asctime/ctime, and the local
   time zone (timezone, altzone, daylight, tzname, tzset). */

#include "Python.h"
#include "pycore_object.h"
#include <time.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>

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


static PyObject *
time_thread_time(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

static PyObject *
time_thread_time_ns(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static int
clock_id_arg(PyObject *arg, clockid_t *clock)
{
    int id = PyLong_AsInt(arg);
    if (id == -1 && PyErr_Occurred()) {
        return -1;
    }
    *clock = (clockid_t)id;
    return 0;
}

static PyObject *
time_clock_gettime(PyObject *m, PyObject *arg)
{
    clockid_t clock;
    return clock_id_arg(arg, &clock) < 0 ? NULL : clock_seconds(clock);
}

static PyObject *
time_clock_gettime_ns(PyObject *m, PyObject *arg)
{
    clockid_t clock;
    return clock_id_arg(arg, &clock) < 0 ? NULL : clock_ns(clock);
}

static PyObject *
time_clock_getres(PyObject *m, PyObject *arg)
{
    clockid_t clock;
    struct timespec ts;
    if (clock_id_arg(arg, &clock) < 0) {
        return NULL;
    }
    if (clock_getres(clock, &ts) != 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyFloat_FromDouble((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
}

static PyObject *
set_clock(PyObject *const *args, Py_ssize_t nargs, int nanoseconds)
{
    clockid_t clock;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "clock_settime() takes a clock id and a time");
        return NULL;
    }
    if (clock_id_arg(args[0], &clock) < 0) {
        return NULL;
    }
    struct timespec ts;
    if (nanoseconds) {
        long long ns = PyLong_AsLongLong(args[1]);
        if (ns == -1 && PyErr_Occurred()) {
            return NULL;
        }
        ts.tv_sec = (time_t)(ns / 1000000000LL);
        ts.tv_nsec = (long)(ns % 1000000000LL);
    }
    else {
        double secs = PyFloat_AsDouble(args[1]);
        if (secs == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
        double whole = floor(secs);
        ts.tv_sec = (time_t)whole;
        ts.tv_nsec = (long)((secs - whole) * 1e9);
    }
    if (clock_settime(clock, &ts) != 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
time_clock_settime(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return set_clock(args, nargs, 0);
}

static PyObject *
time_clock_settime_ns(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return set_clock(args, nargs, 1);
}

static PyObject *
time_pthread_getcpuclockid(PyObject *m, PyObject *arg)
{
    unsigned long ident = PyLong_AsUnsignedLong(arg);
    if (ident == (unsigned long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    clockid_t clock;
    int err = pthread_getcpuclockid((pthread_t)ident, &clock);
    if (err != 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLong((long)clock);
}

/* get_clock_info(name): which clock a function reads and its properties. */
static PyObject *
time_get_clock_info(PyObject *m, PyObject *arg)
{
    static const struct {
        const char *name, *implementation;
        clockid_t clock;
        int monotonic, adjustable;
    } clocks[] = {
        {"time", "clock_gettime(CLOCK_REALTIME)", CLOCK_REALTIME, 0, 1},
        {"monotonic", "clock_gettime(CLOCK_MONOTONIC)", CLOCK_MONOTONIC, 1, 0},
        {"perf_counter", "clock_gettime(CLOCK_MONOTONIC)", CLOCK_MONOTONIC, 1, 0},
        {"process_time", "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)", CLOCK_PROCESS_CPUTIME_ID, 1, 0},
        {"thread_time", "clock_gettime(CLOCK_THREAD_CPUTIME_ID)", CLOCK_THREAD_CPUTIME_ID, 1, 0},
    };
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (name == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "get_clock_info() argument must be str");
        }
        return NULL;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(clocks); i++) {
        if (strcmp(clocks[i].name, name) != 0) {
            continue;
        }
        struct timespec res;
        double resolution = clock_getres(clocks[i].clock, &res) == 0
                                ? (double)res.tv_sec + (double)res.tv_nsec * 1e-9 : 1e-9;
        PyObject *d = Py_BuildValue("{sssOsOsd}", "implementation", clocks[i].implementation,
                                    "monotonic", clocks[i].monotonic ? Py_True : Py_False,
                                    "adjustable", clocks[i].adjustable ? Py_True : Py_False,
                                    "resolution", resolution);
        if (d == NULL) {
            return NULL;
        }
        PyObject *ns = _PyNamespace_New(d);
        Py_DECREF(d);
        return ns;
    }
    PyErr_SetString(PyExc_ValueError, "unknown clock");
    return NULL;
}

/* ---- Calendar time --------------------------------------------------------------------- */

static PyTypeObject StructTimeType;
static PyStructSequence_Field struct_time_fields[] = {
    {"tm_year", "year, for example 1993"},
    {"tm_mon", "month of year, 1 to 12"},
    {"tm_mday", "day of month, 1 to 31"},
    {"tm_hour", "hours, 0 to 23"},
    {"tm_min", "minutes, 0 to 59"},
    {"tm_sec", "seconds, 0 to 61"},
    {"tm_wday", "day of week, 0 (Monday) to 6"},
    {"tm_yday", "day of year, 1 to 366"},
    {"tm_isdst", "1 in summer time, 0 if not, -1 if unknown"},
    {"tm_zone", "abbreviation of the time zone"},
    {"tm_gmtoff", "offset from UTC in seconds"},
    {NULL, NULL},
};
static PyStructSequence_Desc struct_time_desc = {
    "time.struct_time",
    "A time as gmtime(), localtime() and strptime() return it: a 9-tuple of\n"
    "year, month, day, hour, minute, second, weekday, day of the year and\n"
    "summer-time flag, with the zone name and UTC offset as attributes.",
    struct_time_fields, 9,
};

static PyObject *
struct_time_from_tm(const struct tm *tm)
{
    PyObject *v = PyStructSequence_New(&StructTimeType);
    if (v == NULL) {
        return NULL;
    }
    long fields[] = {tm->tm_year + 1900L, tm->tm_mon + 1L, tm->tm_mday, tm->tm_hour, tm->tm_min,
                     tm->tm_sec, (tm->tm_wday + 6L) % 7, tm->tm_yday + 1L, tm->tm_isdst};
    for (int i = 0; i < 9; i++) {
        PyStructSequence_SetItem(v, i, PyLong_FromLong(fields[i]));
    }
    PyStructSequence_SetItem(v, 9, PyUnicode_DecodeLocale(tm->tm_zone ? tm->tm_zone : "", "surrogateescape"));
    PyStructSequence_SetItem(v, 10, PyLong_FromLong(tm->tm_gmtoff));
    if (PyErr_Occurred()) {
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

/* A timestamp argument (None: now), floored to whole seconds. */
static int
timestamp_arg(PyObject *arg, time_t *out)
{
    if (arg == NULL || arg == Py_None) {
        *out = time(NULL);
        return 0;
    }
    double secs;
    if (PyLong_Check(arg)) {
        long long v = PyLong_AsLongLong(arg);
        if (v == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_SetString(PyExc_OverflowError, "timestamp out of range for platform time_t");
            }
            return -1;
        }
        *out = (time_t)v;
        return 0;
    }
    secs = PyFloat_AsDouble(arg);
    if (secs == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (isnan(secs)) {
        PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
        return -1;
    }
    secs = floor(secs);
    if (!(secs >= -9.2e18 && secs <= 9.2e18)) {
        PyErr_SetString(PyExc_OverflowError, "timestamp out of range for platform time_t");
        return -1;
    }
    *out = (time_t)secs;
    return 0;
}

static PyObject *
broken_down(PyObject *const *args, Py_ssize_t nargs, struct tm *(*convert)(const time_t *, struct tm *))
{
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "expected at most 1 argument");
        return NULL;
    }
    time_t t;
    struct tm tm;
    if (timestamp_arg(nargs ? args[0] : NULL, &t) < 0) {
        return NULL;
    }
    errno = 0;
    if (convert(&t, &tm) == NULL) {
        if (errno == 0) {
            errno = EINVAL;
        }
        return PyErr_SetFromErrno(errno == EOVERFLOW ? PyExc_OverflowError : PyExc_OSError);
    }
    return struct_time_from_tm(&tm);
}

static PyObject *
time_gmtime(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return broken_down(args, nargs, gmtime_r);
}

static PyObject *
time_localtime(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    return broken_down(args, nargs, localtime_r);
}

/* A struct_time or 9-tuple as struct tm (fields as C wants them). */
static int
tm_from_tuple(PyObject *t, struct tm *tm, const char *func)
{
    if (!PyTuple_Check(t)) {
        PyErr_SetString(PyExc_TypeError, "Tuple or struct_time argument required");
        return -1;
    }
    if (PyTuple_GET_SIZE(t) != 9) {
        PyErr_Format(PyExc_TypeError, "%s(): illegal time tuple argument", func);
        return -1;
    }
    long v[9];
    for (int i = 0; i < 9; i++) {
        v[i] = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (v[i] == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    memset(tm, 0, sizeof(*tm));
    tm->tm_year = (int)(v[0] - 1900);
    tm->tm_mon = (int)v[1] - 1;
    tm->tm_mday = (int)v[2];
    tm->tm_hour = (int)v[3];
    tm->tm_min = (int)v[4];
    tm->tm_sec = (int)v[5];
    tm->tm_wday = (int)((v[6] + 1) % 7);
    tm->tm_yday = (int)v[7] - 1;
    tm->tm_isdst = (int)v[8];
    if (PyObject_TypeCheck(t, &StructTimeType)) {
        /* A struct_time carries its zone: strftime's %Z and %z use it. */
        PyObject *zone = PyStructSequence_GetItem(t, 9);
        PyObject *gmtoff = PyStructSequence_GetItem(t, 10);
        if (zone != Py_None && PyUnicode_Check(zone)) {
            tm->tm_zone = PyUnicode_AsUTF8(zone);
        }
        if (gmtoff != Py_None) {
            tm->tm_gmtoff = PyLong_AsLong(gmtoff);
        }
        if (PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

/* strftime() and asctime() accept only sensible fields. */
static int
check_tm_ranges(struct tm *tm, const char *func)
{
    const char *bad = NULL;
    if (tm->tm_mon == -1) {
        tm->tm_mon = 0; /* 0 means January, as CPython accepts */
    }
    else if (tm->tm_mon < 0 || tm->tm_mon > 11) {
        bad = "month out of range";
    }
    if (tm->tm_mday == 0) {
        tm->tm_mday = 1;
    }
    else if (tm->tm_mday < 0 || tm->tm_mday > 31) {
        bad = "day of month out of range";
    }
    if (tm->tm_hour < 0 || tm->tm_hour > 23) {
        bad = "hour out of range";
    }
    if (tm->tm_min < 0 || tm->tm_min > 59) {
        bad = "minute out of range";
    }
    if (tm->tm_sec < 0 || tm->tm_sec > 61) {
        bad = "seconds out of range";
    }
    if (tm->tm_wday < 0) {
        bad = "day of week out of range";
    }
    if (tm->tm_yday == -1) {
        tm->tm_yday = 0;
    }
    else if (tm->tm_yday < 0 || tm->tm_yday > 365) {
        bad = "day of year out of range";
    }
    if (tm->tm_isdst < -1) {
        tm->tm_isdst = -1;
    }
    else if (tm->tm_isdst > 1) {
        tm->tm_isdst = 1;
    }
    if (bad != NULL) {
        PyErr_SetString(PyExc_ValueError, bad);
        return -1;
    }
    (void)func;
    return 0;
}

/* The time given, or the local time now. */
static int
tm_arg_or_now(PyObject *arg, struct tm *tm, const char *func)
{
    if (arg == NULL || arg == Py_None) {
        time_t now = time(NULL);
        if (localtime_r(&now, tm) == NULL) {
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        return 0;
    }
    return tm_from_tuple(arg, tm, func) < 0 ? -1 : check_tm_ranges(tm, func);
}

static PyObject *
time_strftime(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "strftime() takes a format string and an optional time tuple");
        return NULL;
    }
    struct tm tm;
    if (tm_arg_or_now(nargs == 2 ? args[1] : NULL, &tm, "strftime") < 0) {
        return NULL;
    }
    PyObject *fmt_bytes = PyUnicode_AsEncodedString(args[0], "utf-8", "surrogateescape");
    if (fmt_bytes == NULL) {
        return NULL;
    }
    const char *fmt = PyBytes_AS_STRING(fmt_bytes);
    size_t fmtlen = (size_t)PyBytes_GET_SIZE(fmt_bytes);
    PyObject *result = NULL;
    /* strftime() gives no way to tell "empty" from "did not fit": grow
       the buffer a while; a format whose output is empty ends the loop. */
    for (size_t size = 1024; ; size *= 2) {
        char *buf = PyMem_Malloc(size);
        if (buf == NULL) {
            PyErr_NoMemory();
            break;
        }
        size_t n = strftime(buf, size, fmt, &tm);
        if (n > 0 || size >= 256 * (fmtlen + 1) || fmtlen == 0) {
            result = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)n, "surrogateescape");
            PyMem_Free(buf);
            break;
        }
        PyMem_Free(buf);
    }
    Py_DECREF(fmt_bytes);
    return result;
}

static PyObject *
format_asctime(const struct tm *tm)
{
    static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    return PyUnicode_FromFormat("%s %s%3d %.2d:%.2d:%.2d %d", days[tm->tm_wday % 7],
                                months[tm->tm_mon % 12], tm->tm_mday, tm->tm_hour, tm->tm_min,
                                tm->tm_sec, 1900 + tm->tm_year);
}

static PyObject *
time_asctime(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "asctime() takes at most 1 argument");
        return NULL;
    }
    struct tm tm;
    if (tm_arg_or_now(nargs ? args[0] : NULL, &tm, "asctime") < 0) {
        return NULL;
    }
    return format_asctime(&tm);
}

static PyObject *
time_ctime(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "ctime() takes at most 1 argument");
        return NULL;
    }
    time_t t;
    struct tm tm;
    if (timestamp_arg(nargs ? args[0] : NULL, &t) < 0) {
        return NULL;
    }
    if (localtime_r(&t, &tm) == NULL) {
        PyErr_SetString(PyExc_OverflowError, "unconvertible time");
        return NULL;
    }
    return format_asctime(&tm);
}

static PyObject *
time_mktime(PyObject *m, PyObject *t)
{
    struct tm tm;
    if (tm_from_tuple(t, &tm, "mktime") < 0) {
        return NULL;
    }
    tm.tm_wday = -1; /* mktime() sets it on success: -1 left means failure */
    time_t result = mktime(&tm);
    if (result == (time_t)-1 && tm.tm_wday == -1) {
        PyErr_SetString(PyExc_OverflowError, "mktime argument out of range");
        return NULL;
    }
    return PyFloat_FromDouble((double)result);
}

/* strptime() is written in Python (the stdlib's _strptime). */
static PyObject *
time_strptime(PyObject *m, PyObject *args)
{
    PyObject *mod = PyImport_ImportModule("_strptime");
    if (mod == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallMethod(mod, "_strptime_time", "O", args);
    Py_DECREF(mod);
    return res;
}

/* timezone, altzone, daylight and tzname, from the zone rules in force
   in January and July of this year (so both hemispheres come out right). */
static int
set_zone_attributes(PyObject *m)
{
    time_t now = time(NULL);
    struct tm today;
    localtime_r(&now, &today);
    struct tm probe = {.tm_year = today.tm_year, .tm_mday = 1, .tm_isdst = -1};
    struct tm jan, jul;
    time_t t = mktime(&probe);
    localtime_r(&t, &jan);
    probe = (struct tm){.tm_year = today.tm_year, .tm_mon = 6, .tm_mday = 1, .tm_isdst = -1};
    t = mktime(&probe);
    localtime_r(&t, &jul);
    /* The standard zone is the one with the smaller offset. */
    struct tm *std = jan.tm_gmtoff <= jul.tm_gmtoff ? &jan : &jul;
    struct tm *dst = std == &jan ? &jul : &jan;
    PyObject *names = Py_BuildValue("(NN)", PyUnicode_DecodeLocale(std->tm_zone, "surrogateescape"),
                                    PyUnicode_DecodeLocale(dst->tm_zone, "surrogateescape"));
    if (names == NULL || PyModule_AddObject(m, "tzname", names) < 0 ||
        PyModule_AddIntConstant(m, "timezone", -std->tm_gmtoff) < 0 ||
        PyModule_AddIntConstant(m, "altzone", -dst->tm_gmtoff) < 0 ||
        PyModule_AddIntConstant(m, "daylight", jan.tm_gmtoff != jul.tm_gmtoff) < 0) {
        return -1;
    }
    return 0;
}

static PyObject *
time_tzset(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    tzset();
    if (set_zone_attributes(m) < 0) {
        return NULL;
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
    {"thread_time", time_thread_time, METH_NOARGS, "CPU time of this thread, in seconds."},
    {"thread_time_ns", time_thread_time_ns, METH_NOARGS, "thread_time() in nanoseconds."},
    {"clock_gettime", time_clock_gettime, METH_O, "Read the clock with this id, in seconds."},
    {"clock_gettime_ns", time_clock_gettime_ns, METH_O, "clock_gettime() in nanoseconds."},
    {"clock_getres", time_clock_getres, METH_O, "Resolution of the clock with this id."},
    {"clock_settime", _PyCFunction_CAST(time_clock_settime), METH_FASTCALL, "Set a clock, in seconds."},
    {"clock_settime_ns", _PyCFunction_CAST(time_clock_settime_ns), METH_FASTCALL,
     "Set a clock, in nanoseconds."},
    {"pthread_getcpuclockid", time_pthread_getcpuclockid, METH_O,
     "The CPU-time clock id of a thread."},
    {"get_clock_info", time_get_clock_info, METH_O, "How a clock of this module is implemented."},
    {"gmtime", _PyCFunction_CAST(time_gmtime), METH_FASTCALL,
     "gmtime([seconds]) -> struct_time in UTC."},
    {"localtime", _PyCFunction_CAST(time_localtime), METH_FASTCALL,
     "localtime([seconds]) -> struct_time in local time."},
    {"mktime", time_mktime, METH_O, "Seconds since the Epoch of a local struct_time."},
    {"strftime", _PyCFunction_CAST(time_strftime), METH_FASTCALL,
     "strftime(format[, tuple]) -> str formatted as the C function does."},
    {"strptime", time_strptime, METH_VARARGS, "strptime(string, format) -> struct_time."},
    {"asctime", _PyCFunction_CAST(time_asctime), METH_FASTCALL,
     "asctime([tuple]) -> 'Sat Jun 06 16:26:11 1998'."},
    {"ctime", _PyCFunction_CAST(time_ctime), METH_FASTCALL, "ctime([seconds]) -> asctime(localtime())."},
    {"tzset", time_tzset, METH_NOARGS, "Read the TZ variable again."},
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
    if (StructTimeType.tp_name == NULL &&
        (PyStructSequence_InitType2(&StructTimeType, &struct_time_desc) < 0 ||
         _PyStaticType_InitBuiltin(&StructTimeType) < 0)) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&timemodule);
    if (m == NULL) {
        return NULL;
    }
    static const struct {
        const char *name;
        long value;
    } clocks[] = {
        {"CLOCK_REALTIME", CLOCK_REALTIME}, {"CLOCK_MONOTONIC", CLOCK_MONOTONIC},
        {"CLOCK_MONOTONIC_RAW", CLOCK_MONOTONIC_RAW}, {"CLOCK_BOOTTIME", CLOCK_BOOTTIME},
        {"CLOCK_PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID},
        {"CLOCK_THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID}, {"CLOCK_TAI", CLOCK_TAI},
        {"_STRUCT_TM_ITEMS", 11},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(clocks); i++) {
        if (PyModule_AddIntConstant(m, clocks[i].name, clocks[i].value) < 0) {
            goto error;
        }
    }
    tzset();
    if (set_zone_attributes(m) < 0 ||
        PyModule_AddObjectRef(m, "struct_time", (PyObject *)&StructTimeType) < 0) {
        goto error;
    }
    return m;
error:
    Py_DECREF(m);
    return NULL;
}
