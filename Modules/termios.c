/* The `termios` module: terminal attributes and line control over the
   POSIX termios(3) calls, plus the window size ioctls, and the Linux
   constants (speeds, flag bits, c_cc indexes, tty ioctls).

   An attribute list is [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]
   where cc holds NCCS one-byte bytes objects, except that with ICANON
   off the VMIN and VTIME slots are counts and come out as ints.  Going
   back, each cc slot may be a one-byte bytes object or an int.

   Failed calls raise termios.error(errno, strerror). */

#include "Python.h"
#include <errno.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* The module's state: its error class, made per module object so that
   it goes away with the module. */
typedef struct {
    PyObject *error;
} termios_state;

static PyObject *
raise_errno(PyObject *module)
{
    termios_state *state = PyModule_GetState(module);
    return PyErr_SetFromErrno(state->error);
}

static int
fd_arg(PyObject *obj, int *fd)
{
    *fd = PyObject_AsFileDescriptor(obj);
    return *fd < 0 ? -1 : 0;
}

static int
int_arg(PyObject *obj, int *out)
{
    *out = PyLong_AsInt(obj);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t want)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s expected %zd arguments, got %zd", name, want, nargs);
        return -1;
    }
    return 0;
}

/* ---- attributes ------------------------------------------------------------------------ */

static PyObject *
control_chars(const struct termios *mode)
{
    PyObject *cc = PyList_New(NCCS);
    if (cc == NULL) {
        return NULL;
    }
    int counts = (mode->c_lflag & ICANON) == 0;
    for (int i = 0; i < NCCS; i++) {
        char byte = (char)mode->c_cc[i];
        PyObject *item = (counts && (i == VMIN || i == VTIME))
                             ? PyLong_FromLong((unsigned char)byte)
                             : PyBytes_FromStringAndSize(&byte, 1);
        if (item == NULL) {
            Py_DECREF(cc);
            return NULL;
        }
        PyList_SET_ITEM(cc, i, item);
    }
    return cc;
}

static PyObject *
termios_tcgetattr(PyObject *module, PyObject *arg)
{
    int fd;
    if (fd_arg(arg, &fd) < 0) {
        return NULL;
    }
    struct termios mode;
    if (tcgetattr(fd, &mode) < 0) {
        return raise_errno(module);
    }
    PyObject *cc = control_chars(&mode);
    if (cc == NULL) {
        return NULL;
    }
    return Py_BuildValue("[kkkkkkN]", (unsigned long)mode.c_iflag, (unsigned long)mode.c_oflag,
                         (unsigned long)mode.c_cflag, (unsigned long)mode.c_lflag,
                         (unsigned long)cfgetispeed(&mode), (unsigned long)cfgetospeed(&mode), cc);
}

/* One c_cc slot from a one-byte bytes object or an int. */
static int
control_char(PyObject *item, cc_t *out)
{
    if (PyBytes_Check(item) && PyBytes_GET_SIZE(item) == 1) {
        *out = (cc_t)PyBytes_AS_STRING(item)[0];
        return 0;
    }
    if (PyLong_Check(item)) {
        long value = PyLong_AsLong(item);
        if (value == -1 && PyErr_Occurred()) {
            return -1;
        }
        *out = (cc_t)value;
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "tcsetattr: elements of attributes must be characters or integers");
    return -1;
}

/* Fill `mode` (already holding the terminal's current state, so fields
   the list does not cover stay as they are) from an attribute list. */
static int
apply_attributes(PyObject *module, PyObject *attrs, struct termios *mode)
{
    unsigned long flags[4];
    for (int i = 0; i < 4; i++) {
        flags[i] = PyLong_AsUnsignedLongMask(PyList_GET_ITEM(attrs, i));
        if (flags[i] == (unsigned long)-1 && PyErr_Occurred()) {
            return -1;
        }
    }
    speed_t speeds[2];
    for (int i = 0; i < 2; i++) {
        long value = PyLong_AsLong(PyList_GET_ITEM(attrs, 4 + i));
        if (value == -1 && PyErr_Occurred()) {
            return -1;
        }
        speeds[i] = (speed_t)value;
    }
    PyObject *cc = PyList_GET_ITEM(attrs, 6);
    if (!PyList_Check(cc) || PyList_GET_SIZE(cc) != NCCS) {
        PyErr_Format(PyExc_TypeError, "tcsetattr: attributes[6] must be %d element list", NCCS);
        return -1;
    }
    for (int i = 0; i < NCCS; i++) {
        if (control_char(PyList_GET_ITEM(cc, i), &mode->c_cc[i]) < 0) {
            return -1;
        }
    }
    mode->c_iflag = (tcflag_t)flags[0];
    mode->c_oflag = (tcflag_t)flags[1];
    mode->c_cflag = (tcflag_t)flags[2];
    mode->c_lflag = (tcflag_t)flags[3];
    if (cfsetispeed(mode, speeds[0]) < 0 || cfsetospeed(mode, speeds[1]) < 0) {
        raise_errno(module);
        return -1;
    }
    return 0;
}

static PyObject *
termios_tcsetattr(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int fd, when;
    if (check_nargs("tcsetattr", nargs, 3) < 0 || fd_arg(args[0], &fd) < 0 ||
        int_arg(args[1], &when) < 0) {
        return NULL;
    }
    PyObject *attrs = args[2];
    if (!PyList_Check(attrs) || PyList_GET_SIZE(attrs) != 7) {
        PyErr_SetString(PyExc_TypeError, "tcsetattr, arg 3: must be 7 element list");
        return NULL;
    }
    struct termios mode;
    if (tcgetattr(fd, &mode) < 0) {
        return raise_errno(module);
    }
    if (apply_attributes(module, attrs, &mode) < 0) {
        return NULL;
    }
    if (tcsetattr(fd, when, &mode) < 0) {
        return raise_errno(module);
    }
    Py_RETURN_NONE;
}

/* ---- line control ---------------------------------------------------------------------- */

/* The calls of the form f(fd, int) -> 0 or -1. */
typedef int (*line_call)(int fd, int arg);

static PyObject *
fd_and_int(PyObject *module, const char *name, line_call call, PyObject *const *args, Py_ssize_t nargs)
{
    int fd, value;
    if (check_nargs(name, nargs, 2) < 0 || fd_arg(args[0], &fd) < 0 || int_arg(args[1], &value) < 0) {
        return NULL;
    }
    if (call(fd, value) < 0) {
        return raise_errno(module);
    }
    Py_RETURN_NONE;
}

static PyObject *
termios_tcsendbreak(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return fd_and_int(module, "tcsendbreak", tcsendbreak, args, nargs);
}

static PyObject *
termios_tcflush(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return fd_and_int(module, "tcflush", tcflush, args, nargs);
}

static PyObject *
termios_tcflow(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return fd_and_int(module, "tcflow", tcflow, args, nargs);
}

static PyObject *
termios_tcdrain(PyObject *module, PyObject *arg)
{
    int fd;
    if (fd_arg(arg, &fd) < 0) {
        return NULL;
    }
    int rc;
    /* Draining waits for the output to go out: let other threads run. */
    Py_BEGIN_ALLOW_THREADS
    rc = tcdrain(fd);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return raise_errno(module);
    }
    Py_RETURN_NONE;
}

/* ---- window size ----------------------------------------------------------------------- */

static PyObject *
termios_tcgetwinsize(PyObject *module, PyObject *arg)
{
    int fd;
    if (fd_arg(arg, &fd) < 0) {
        return NULL;
    }
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) < 0) {
        return raise_errno(module);
    }
    return Py_BuildValue("(ii)", (int)size.ws_row, (int)size.ws_col);
}

static int
winsize_field(PyObject *seq, Py_ssize_t index, unsigned short *out)
{
    PyObject *item = PySequence_GetItem(seq, index);
    if (item == NULL) {
        return -1;
    }
    long value = PyLong_AsLong(item);
    Py_DECREF(item);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (value < 0 || value > USHRT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "winsize value(s) out of range.");
        return -1;
    }
    *out = (unsigned short)value;
    return 0;
}

static PyObject *
termios_tcsetwinsize(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int fd;
    if (check_nargs("tcsetwinsize", nargs, 2) < 0 || fd_arg(args[0], &fd) < 0) {
        return NULL;
    }
    PyObject *seq = args[1];
    if (!PySequence_Check(seq) || PySequence_Size(seq) != 2) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "tcsetwinsize, arg 2: must be a two-item sequence");
        return NULL;
    }
    unsigned short rows, cols;
    if (winsize_field(seq, 0, &rows) < 0 || winsize_field(seq, 1, &cols) < 0) {
        return NULL;
    }
    /* Start from the current size so the pixel fields are kept. */
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) < 0) {
        return raise_errno(module);
    }
    size.ws_row = rows;
    size.ws_col = cols;
    if (ioctl(fd, TIOCSWINSZ, &size) < 0) {
        return raise_errno(module);
    }
    Py_RETURN_NONE;
}

static PyMethodDef termios_methods[] = {
    {"tcgetattr", termios_tcgetattr, METH_O,
     "tcgetattr(fd) -> [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]\n\n"
     "The terminal attributes of fd; cc lists the control characters."},
    {"tcsetattr", _PyCFunction_CAST(termios_tcsetattr), METH_FASTCALL,
     "tcsetattr(fd, when, attributes)\n\n"
     "Set the attributes of fd from a tcgetattr()-shaped list, now (TCSANOW),\n"
     "after output drains (TCSADRAIN) or also discarding input (TCSAFLUSH)."},
    {"tcsendbreak", _PyCFunction_CAST(termios_tcsendbreak), METH_FASTCALL,
     "tcsendbreak(fd, duration)\n\nSend a break on fd (duration 0: 0.25 to 0.5 s)."},
    {"tcdrain", termios_tcdrain, METH_O, "tcdrain(fd)\n\nWait until the output written to fd is sent."},
    {"tcflush", _PyCFunction_CAST(termios_tcflush), METH_FASTCALL,
     "tcflush(fd, queue)\n\nDiscard queued data: TCIFLUSH, TCOFLUSH or TCIOFLUSH."},
    {"tcflow", _PyCFunction_CAST(termios_tcflow), METH_FASTCALL,
     "tcflow(fd, action)\n\nSuspend or resume data flow: TCOOFF, TCOON, TCIOFF, TCION."},
    {"tcgetwinsize", termios_tcgetwinsize, METH_O,
     "tcgetwinsize(fd) -> (rows, columns)\n\nThe window size of the terminal fd."},
    {"tcsetwinsize", _PyCFunction_CAST(termios_tcsetwinsize), METH_FASTCALL,
     "tcsetwinsize(fd, (rows, columns))\n\nSet the window size of the terminal fd."},
    {NULL, NULL, 0, NULL},
};

/* Every constant CPython's termios has on Linux (the list was taken
   once from its module; the values come from the system headers). */
#define C(name) {#name, (unsigned long)(name)}
static const struct {
    const char *name;
    unsigned long value;
} termios_constants[] = {
    C(B0), C(B1000000), C(B110), C(B115200), C(B1152000), C(B1200), C(B134), C(B150), C(B1500000),
    C(B1800), C(B19200), C(B200), C(B2000000), C(B230400), C(B2400), C(B2500000), C(B300),
    C(B3000000), C(B3500000), C(B38400), C(B4000000), C(B460800), C(B4800), C(B50), C(B500000),
    C(B57600), C(B576000), C(B600), C(B75), C(B921600), C(B9600), C(BRKINT), C(BS0), C(BS1),
    C(BSDLY), C(CBAUD), C(CBAUDEX), C(CDSUSP), C(CEOF), C(CEOL), C(CEOT), C(CERASE), C(CFLUSH),
    C(CIBAUD), C(CINTR), C(CKILL), C(CLNEXT), C(CLOCAL), C(CQUIT), C(CR0), C(CR1), C(CR2), C(CR3),
    C(CRDLY), C(CREAD), C(CRPRNT), C(CRTSCTS), C(CS5), C(CS6), C(CS7), C(CS8), C(CSIZE), C(CSTART),
    C(CSTOP), C(CSTOPB), C(CSUSP), C(CWERASE), C(ECHO), C(ECHOCTL), C(ECHOE), C(ECHOK), C(ECHOKE),
    C(ECHONL), C(ECHOPRT), C(EXTA), C(EXTB), C(EXTPROC), C(FF0), C(FF1), C(FFDLY), C(FIOASYNC),
    C(FIOCLEX), C(FIONBIO), C(FIONCLEX), C(FIONREAD), C(FLUSHO), C(HUPCL), C(ICANON), C(ICRNL),
    C(IEXTEN), C(IGNBRK), C(IGNCR), C(IGNPAR), C(IMAXBEL), C(INLCR), C(INPCK), C(IOCSIZE_MASK),
    C(IOCSIZE_SHIFT), C(ISIG), C(ISTRIP), C(IUCLC), C(IUTF8), C(IXANY), C(IXOFF), C(IXON), C(NCC),
    C(NCCS), C(NL0), C(NL1), C(NLDLY), C(NOFLSH), C(N_MOUSE), C(N_PPP), C(N_SLIP), C(N_STRIP),
    C(N_TTY), C(OCRNL), C(OFDEL), C(OFILL), C(OLCUC), C(ONLCR), C(ONLRET), C(ONOCR), C(OPOST),
    C(PARENB), C(PARMRK), C(PARODD), C(PENDIN), C(TAB0), C(TAB1), C(TAB2), C(TAB3), C(TABDLY),
    C(TCFLSH), C(TCGETA), C(TCGETS), C(TCIFLUSH), C(TCIOFF), C(TCIOFLUSH), C(TCION), C(TCOFLUSH),
    C(TCOOFF), C(TCOON), C(TCSADRAIN), C(TCSAFLUSH), C(TCSANOW), C(TCSBRK), C(TCSBRKP), C(TCSETA),
    C(TCSETAF), C(TCSETAW), C(TCSETS), C(TCSETSF), C(TCSETSW), C(TCXONC), C(TIOCCONS), C(TIOCEXCL),
    C(TIOCGETD), C(TIOCGICOUNT), C(TIOCGLCKTRMIOS), C(TIOCGPGRP), C(TIOCGSERIAL), C(TIOCGSOFTCAR),
    C(TIOCGWINSZ), C(TIOCINQ), C(TIOCLINUX), C(TIOCMBIC), C(TIOCMBIS), C(TIOCMGET), C(TIOCMIWAIT),
    C(TIOCMSET), C(TIOCM_CAR), C(TIOCM_CD), C(TIOCM_CTS), C(TIOCM_DSR), C(TIOCM_DTR), C(TIOCM_LE),
    C(TIOCM_RI), C(TIOCM_RNG), C(TIOCM_RTS), C(TIOCM_SR), C(TIOCM_ST), C(TIOCNOTTY), C(TIOCNXCL),
    C(TIOCOUTQ), C(TIOCPKT), C(TIOCPKT_DATA), C(TIOCPKT_DOSTOP), C(TIOCPKT_FLUSHREAD),
    C(TIOCPKT_FLUSHWRITE), C(TIOCPKT_NOSTOP), C(TIOCPKT_START), C(TIOCPKT_STOP), C(TIOCSCTTY),
    C(TIOCSERCONFIG), C(TIOCSERGETLSR), C(TIOCSERGETMULTI), C(TIOCSERGSTRUCT), C(TIOCSERGWILD),
    C(TIOCSERSETMULTI), C(TIOCSERSWILD), C(TIOCSER_TEMT), C(TIOCSETD), C(TIOCSLCKTRMIOS),
    C(TIOCSPGRP), C(TIOCSSERIAL), C(TIOCSSOFTCAR), C(TIOCSTI), C(TIOCSWINSZ), C(TOSTOP),
    C(VDISCARD), C(VEOF), C(VEOL), C(VEOL2), C(VERASE), C(VINTR), C(VKILL), C(VLNEXT), C(VMIN),
    C(VQUIT), C(VREPRINT), C(VSTART), C(VSTOP), C(VSUSP), C(VSWTC), C(VT0), C(VT1), C(VTDLY),
    C(VTIME), C(VWERASE), C(XCASE), C(XTABS), C(_POSIX_VDISABLE),
    /* glibc spells it VSWTC; CPython has both names. */
    {"VSWTCH", VSWTC},
};
#undef C

static int
termios_exec(PyObject *module)
{
    termios_state *state = PyModule_GetState(module);
    state->error = PyErr_NewException("termios.error", NULL, NULL);
    if (state->error == NULL || PyModule_AddObjectRef(module, "error", state->error) < 0) {
        return -1;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(termios_constants); i++) {
        PyObject *value = PyLong_FromUnsignedLong(termios_constants[i].value);
        if (PyModule_Add(module, termios_constants[i].name, value) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
termios_traverse(PyObject *module, visitproc visit, void *arg)
{
    termios_state *state = PyModule_GetState(module);
    Py_VISIT(state->error);
    return 0;
}

static int
termios_clear(PyObject *module)
{
    termios_state *state = PyModule_GetState(module);
    Py_CLEAR(state->error);
    return 0;
}

static void
termios_free(void *module)
{
    termios_clear((PyObject *)module);
}

static PyModuleDef_Slot termios_slots[] = {
    {Py_mod_exec, termios_exec},
    {0, NULL},
};

static PyModuleDef termios_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "termios",
    .m_doc = "POSIX terminal control: tcgetattr/tcsetattr and the line control calls.\n\n"
             "Each function takes a file descriptor or an object with fileno().",
    .m_size = sizeof(termios_state),
    .m_methods = termios_methods,
    .m_slots = termios_slots,
    .m_traverse = termios_traverse,
    .m_clear = termios_clear,
    .m_free = termios_free,
};

PyObject *
PyInit_termios(void)
{
    return PyModuleDef_Init(&termios_module);
}
