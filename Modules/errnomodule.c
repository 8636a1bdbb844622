/* The errno module: every error number the C library defines, by name,
   and errorcode, the reverse mapping from number to name. */

#include "Python.h"
#include <errno.h>

typedef struct {
    const char *name;
    int code;
    int alias;  /* a second name for a number: errorcode keeps the other */
} errno_name;

static const errno_name errno_names[] = {
#ifdef E2BIG
    {"E2BIG", E2BIG, 0},
#endif
#ifdef EACCES
    {"EACCES", EACCES, 0},
#endif
#ifdef EADDRINUSE
    {"EADDRINUSE", EADDRINUSE, 0},
#endif
#ifdef EADDRNOTAVAIL
    {"EADDRNOTAVAIL", EADDRNOTAVAIL, 0},
#endif
#ifdef EADV
    {"EADV", EADV, 0},
#endif
#ifdef EAFNOSUPPORT
    {"EAFNOSUPPORT", EAFNOSUPPORT, 0},
#endif
#ifdef EAGAIN
    {"EAGAIN", EAGAIN, 0},
#endif
#ifdef EALREADY
    {"EALREADY", EALREADY, 0},
#endif
#ifdef EBADE
    {"EBADE", EBADE, 0},
#endif
#ifdef EBADF
    {"EBADF", EBADF, 0},
#endif
#ifdef EBADFD
    {"EBADFD", EBADFD, 0},
#endif
#ifdef EBADMSG
    {"EBADMSG", EBADMSG, 0},
#endif
#ifdef EBADR
    {"EBADR", EBADR, 0},
#endif
#ifdef EBADRQC
    {"EBADRQC", EBADRQC, 0},
#endif
#ifdef EBADSLT
    {"EBADSLT", EBADSLT, 0},
#endif
#ifdef EBFONT
    {"EBFONT", EBFONT, 0},
#endif
#ifdef EBUSY
    {"EBUSY", EBUSY, 0},
#endif
#ifdef ECANCELED
    {"ECANCELED", ECANCELED, 0},
#endif
#ifdef ECHILD
    {"ECHILD", ECHILD, 0},
#endif
#ifdef ECHRNG
    {"ECHRNG", ECHRNG, 0},
#endif
#ifdef ECOMM
    {"ECOMM", ECOMM, 0},
#endif
#ifdef ECONNABORTED
    {"ECONNABORTED", ECONNABORTED, 0},
#endif
#ifdef ECONNREFUSED
    {"ECONNREFUSED", ECONNREFUSED, 0},
#endif
#ifdef ECONNRESET
    {"ECONNRESET", ECONNRESET, 0},
#endif
#ifdef EDEADLK
    {"EDEADLK", EDEADLK, 1},
#endif
#ifdef EDEADLOCK
    {"EDEADLOCK", EDEADLOCK, 0},
#endif
#ifdef EDESTADDRREQ
    {"EDESTADDRREQ", EDESTADDRREQ, 0},
#endif
#ifdef EDOM
    {"EDOM", EDOM, 0},
#endif
#ifdef EDOTDOT
    {"EDOTDOT", EDOTDOT, 0},
#endif
#ifdef EDQUOT
    {"EDQUOT", EDQUOT, 0},
#endif
#ifdef EEXIST
    {"EEXIST", EEXIST, 0},
#endif
#ifdef EFAULT
    {"EFAULT", EFAULT, 0},
#endif
#ifdef EFBIG
    {"EFBIG", EFBIG, 0},
#endif
#ifdef EHOSTDOWN
    {"EHOSTDOWN", EHOSTDOWN, 0},
#endif
#ifdef EHOSTUNREACH
    {"EHOSTUNREACH", EHOSTUNREACH, 0},
#endif
#ifdef EHWPOISON
    {"EHWPOISON", EHWPOISON, 0},
#endif
#ifdef EIDRM
    {"EIDRM", EIDRM, 0},
#endif
#ifdef EILSEQ
    {"EILSEQ", EILSEQ, 0},
#endif
#ifdef EINPROGRESS
    {"EINPROGRESS", EINPROGRESS, 0},
#endif
#ifdef EINTR
    {"EINTR", EINTR, 0},
#endif
#ifdef EINVAL
    {"EINVAL", EINVAL, 0},
#endif
#ifdef EIO
    {"EIO", EIO, 0},
#endif
#ifdef EISCONN
    {"EISCONN", EISCONN, 0},
#endif
#ifdef EISDIR
    {"EISDIR", EISDIR, 0},
#endif
#ifdef EISNAM
    {"EISNAM", EISNAM, 0},
#endif
#ifdef EKEYEXPIRED
    {"EKEYEXPIRED", EKEYEXPIRED, 0},
#endif
#ifdef EKEYREJECTED
    {"EKEYREJECTED", EKEYREJECTED, 0},
#endif
#ifdef EKEYREVOKED
    {"EKEYREVOKED", EKEYREVOKED, 0},
#endif
#ifdef EL2HLT
    {"EL2HLT", EL2HLT, 0},
#endif
#ifdef EL2NSYNC
    {"EL2NSYNC", EL2NSYNC, 0},
#endif
#ifdef EL3HLT
    {"EL3HLT", EL3HLT, 0},
#endif
#ifdef EL3RST
    {"EL3RST", EL3RST, 0},
#endif
#ifdef ELIBACC
    {"ELIBACC", ELIBACC, 0},
#endif
#ifdef ELIBBAD
    {"ELIBBAD", ELIBBAD, 0},
#endif
#ifdef ELIBEXEC
    {"ELIBEXEC", ELIBEXEC, 0},
#endif
#ifdef ELIBMAX
    {"ELIBMAX", ELIBMAX, 0},
#endif
#ifdef ELIBSCN
    {"ELIBSCN", ELIBSCN, 0},
#endif
#ifdef ELNRNG
    {"ELNRNG", ELNRNG, 0},
#endif
#ifdef ELOOP
    {"ELOOP", ELOOP, 0},
#endif
#ifdef EMEDIUMTYPE
    {"EMEDIUMTYPE", EMEDIUMTYPE, 0},
#endif
#ifdef EMFILE
    {"EMFILE", EMFILE, 0},
#endif
#ifdef EMLINK
    {"EMLINK", EMLINK, 0},
#endif
#ifdef EMSGSIZE
    {"EMSGSIZE", EMSGSIZE, 0},
#endif
#ifdef EMULTIHOP
    {"EMULTIHOP", EMULTIHOP, 0},
#endif
#ifdef ENAMETOOLONG
    {"ENAMETOOLONG", ENAMETOOLONG, 0},
#endif
#ifdef ENAVAIL
    {"ENAVAIL", ENAVAIL, 0},
#endif
#ifdef ENETDOWN
    {"ENETDOWN", ENETDOWN, 0},
#endif
#ifdef ENETRESET
    {"ENETRESET", ENETRESET, 0},
#endif
#ifdef ENETUNREACH
    {"ENETUNREACH", ENETUNREACH, 0},
#endif
#ifdef ENFILE
    {"ENFILE", ENFILE, 0},
#endif
#ifdef ENOANO
    {"ENOANO", ENOANO, 0},
#endif
#ifdef ENOBUFS
    {"ENOBUFS", ENOBUFS, 0},
#endif
#ifdef ENOCSI
    {"ENOCSI", ENOCSI, 0},
#endif
#ifdef ENODATA
    {"ENODATA", ENODATA, 0},
#endif
#ifdef ENODEV
    {"ENODEV", ENODEV, 0},
#endif
#ifdef ENOENT
    {"ENOENT", ENOENT, 0},
#endif
#ifdef ENOEXEC
    {"ENOEXEC", ENOEXEC, 0},
#endif
#ifdef ENOKEY
    {"ENOKEY", ENOKEY, 0},
#endif
#ifdef ENOLCK
    {"ENOLCK", ENOLCK, 0},
#endif
#ifdef ENOLINK
    {"ENOLINK", ENOLINK, 0},
#endif
#ifdef ENOMEDIUM
    {"ENOMEDIUM", ENOMEDIUM, 0},
#endif
#ifdef ENOMEM
    {"ENOMEM", ENOMEM, 0},
#endif
#ifdef ENOMSG
    {"ENOMSG", ENOMSG, 0},
#endif
#ifdef ENONET
    {"ENONET", ENONET, 0},
#endif
#ifdef ENOPKG
    {"ENOPKG", ENOPKG, 0},
#endif
#ifdef ENOPROTOOPT
    {"ENOPROTOOPT", ENOPROTOOPT, 0},
#endif
#ifdef ENOSPC
    {"ENOSPC", ENOSPC, 0},
#endif
#ifdef ENOSR
    {"ENOSR", ENOSR, 0},
#endif
#ifdef ENOSTR
    {"ENOSTR", ENOSTR, 0},
#endif
#ifdef ENOSYS
    {"ENOSYS", ENOSYS, 0},
#endif
#ifdef ENOTBLK
    {"ENOTBLK", ENOTBLK, 0},
#endif
#ifdef ENOTCONN
    {"ENOTCONN", ENOTCONN, 0},
#endif
#ifdef ENOTDIR
    {"ENOTDIR", ENOTDIR, 0},
#endif
#ifdef ENOTEMPTY
    {"ENOTEMPTY", ENOTEMPTY, 0},
#endif
#ifdef ENOTNAM
    {"ENOTNAM", ENOTNAM, 0},
#endif
#ifdef ENOTRECOVERABLE
    {"ENOTRECOVERABLE", ENOTRECOVERABLE, 0},
#endif
#ifdef ENOTSOCK
    {"ENOTSOCK", ENOTSOCK, 0},
#endif
#ifdef ENOTSUP
    {"ENOTSUP", ENOTSUP, 0},
#endif
#ifdef ENOTTY
    {"ENOTTY", ENOTTY, 0},
#endif
#ifdef ENOTUNIQ
    {"ENOTUNIQ", ENOTUNIQ, 0},
#endif
#ifdef ENXIO
    {"ENXIO", ENXIO, 0},
#endif
#ifdef EOPNOTSUPP
    {"EOPNOTSUPP", EOPNOTSUPP, 1},
#endif
#ifdef EOVERFLOW
    {"EOVERFLOW", EOVERFLOW, 0},
#endif
#ifdef EOWNERDEAD
    {"EOWNERDEAD", EOWNERDEAD, 0},
#endif
#ifdef EPERM
    {"EPERM", EPERM, 0},
#endif
#ifdef EPFNOSUPPORT
    {"EPFNOSUPPORT", EPFNOSUPPORT, 0},
#endif
#ifdef EPIPE
    {"EPIPE", EPIPE, 0},
#endif
#ifdef EPROTO
    {"EPROTO", EPROTO, 0},
#endif
#ifdef EPROTONOSUPPORT
    {"EPROTONOSUPPORT", EPROTONOSUPPORT, 0},
#endif
#ifdef EPROTOTYPE
    {"EPROTOTYPE", EPROTOTYPE, 0},
#endif
#ifdef ERANGE
    {"ERANGE", ERANGE, 0},
#endif
#ifdef EREMCHG
    {"EREMCHG", EREMCHG, 0},
#endif
#ifdef EREMOTE
    {"EREMOTE", EREMOTE, 0},
#endif
#ifdef EREMOTEIO
    {"EREMOTEIO", EREMOTEIO, 0},
#endif
#ifdef ERESTART
    {"ERESTART", ERESTART, 0},
#endif
#ifdef ERFKILL
    {"ERFKILL", ERFKILL, 0},
#endif
#ifdef EROFS
    {"EROFS", EROFS, 0},
#endif
#ifdef ESHUTDOWN
    {"ESHUTDOWN", ESHUTDOWN, 0},
#endif
#ifdef ESOCKTNOSUPPORT
    {"ESOCKTNOSUPPORT", ESOCKTNOSUPPORT, 0},
#endif
#ifdef ESPIPE
    {"ESPIPE", ESPIPE, 0},
#endif
#ifdef ESRCH
    {"ESRCH", ESRCH, 0},
#endif
#ifdef ESRMNT
    {"ESRMNT", ESRMNT, 0},
#endif
#ifdef ESTALE
    {"ESTALE", ESTALE, 0},
#endif
#ifdef ESTRPIPE
    {"ESTRPIPE", ESTRPIPE, 0},
#endif
#ifdef ETIME
    {"ETIME", ETIME, 0},
#endif
#ifdef ETIMEDOUT
    {"ETIMEDOUT", ETIMEDOUT, 0},
#endif
#ifdef ETOOMANYREFS
    {"ETOOMANYREFS", ETOOMANYREFS, 0},
#endif
#ifdef ETXTBSY
    {"ETXTBSY", ETXTBSY, 0},
#endif
#ifdef EUCLEAN
    {"EUCLEAN", EUCLEAN, 0},
#endif
#ifdef EUNATCH
    {"EUNATCH", EUNATCH, 0},
#endif
#ifdef EUSERS
    {"EUSERS", EUSERS, 0},
#endif
#ifdef EWOULDBLOCK
    {"EWOULDBLOCK", EWOULDBLOCK, 1},
#endif
#ifdef EXDEV
    {"EXDEV", EXDEV, 0},
#endif
#ifdef EXFULL
    {"EXFULL", EXFULL, 0},
#endif
    {NULL, 0, 0},
};

static int
add_errno(PyObject *module, PyObject *errorcode, const errno_name *e)
{
    PyObject *code = PyLong_FromLong(e->code);
    PyObject *name = PyUnicode_FromString(e->name);
    int err = (code == NULL || name == NULL || PyModule_AddObjectRef(module, e->name, code) < 0 ||
               (!e->alias && PyDict_SetItem(errorcode, code, name) < 0))
                  ? -1 : 0;
    Py_XDECREF(code);
    Py_XDECREF(name);
    return err;
}

static struct PyModuleDef errnomodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "errno",
    .m_doc = "The C library's error numbers (ENOENT, EACCES, ...) and errorcode,\n"
             "which maps each number back to its name.  os.strerror() gives the message.",
    .m_size = -1,
};

PyObject *
PyInit_errno(void)
{
    PyObject *m = PyModule_Create(&errnomodule);
    PyObject *errorcode = PyDict_New();
    if (m == NULL || errorcode == NULL) {
        goto error;
    }
    for (const errno_name *e = errno_names; e->name != NULL; e++) {
        if (add_errno(m, errorcode, e) < 0) {
            goto error;
        }
    }
    if (PyModule_Add(m, "errorcode", errorcode) < 0) {
        errorcode = NULL;
        goto error;
    }
    return m;
error:
    Py_XDECREF(errorcode);
    Py_XDECREF(m);
    return NULL;
}
