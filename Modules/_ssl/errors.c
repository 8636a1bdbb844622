/* _ssl errors: the SSLError family and the translation of OpenSSL
   failures into it.

   OpenSSL reports a failure in two places: SSL_get_error's code for the
   connection call that failed (want-read, zero-return, syscall, ...), and
   a per-thread queue of (library, reason) entries.  An SSLError carries
   both: errno is the SSL_ERROR_* code (or, for configuration calls, the
   reason code), `library` and `reason` are the mnemonics of the latest
   queue entry, and the message reads "[LIBRARY: REASON] description
   (file:line)". */

#include "ssl.h"
#include <string.h>

PyObject *_PySSL_Error;
PyObject *_PySSL_CertVerificationError;
PyObject *_PySSL_ZeroReturnError;
PyObject *_PySSL_WantReadError;
PyObject *_PySSL_WantWriteError;
PyObject *_PySSL_SyscallError;
PyObject *_PySSL_EOFError;

/* ---- The classes ----------------------------------------------------------- */

/* Their only behaviour beyond OSError is __str__ (the message without the
   "[Errno N]" prefix), so they are written in Python. */
static const char error_classes_src[] =
    "class SSLError(OSError):\n"
    "    'An error from the TLS layer (OpenSSL).'\n"
    "    def __str__(self):\n"
    "        text = self.strerror\n"
    "        if isinstance(text, str):\n"
    "            return text\n"
    "        return str(self.args)\n"
    "class SSLCertVerificationError(SSLError, ValueError):\n"
    "    'The peer certificate did not verify.'\n"
    "class SSLZeroReturnError(SSLError):\n"
    "    'The TLS connection was closed cleanly (close_notify).'\n"
    "class SSLWantReadError(SSLError):\n"
    "    'A non-blocking operation needs more input first.'\n"
    "class SSLWantWriteError(SSLError):\n"
    "    'A non-blocking operation needs to send output first.'\n"
    "class SSLSyscallError(SSLError):\n"
    "    'The system call under the TLS layer failed.'\n"
    "class SSLEOFError(SSLError):\n"
    "    'The connection ended without a TLS close_notify.'\n";

static const struct {
    const char *name;
    PyObject **slot;
} error_slots[] = {
    {"SSLError", &_PySSL_Error},
    {"SSLCertVerificationError", &_PySSL_CertVerificationError},
    {"SSLZeroReturnError", &_PySSL_ZeroReturnError},
    {"SSLWantReadError", &_PySSL_WantReadError},
    {"SSLWantWriteError", &_PySSL_WantWriteError},
    {"SSLSyscallError", &_PySSL_SyscallError},
    {"SSLEOFError", &_PySSL_EOFError},
    {NULL, NULL},
};

int
_PySSL_InitErrors(PyObject *module)
{
    if (_PySSL_Error == NULL) {
        PyObject *ns = PyDict_New();
        if (ns == NULL) {
            return -1;
        }
        PyObject *modname = PyUnicode_FromString("ssl");
        int bad = modname == NULL ||
                  PyDict_SetItemString(ns, "__builtins__", PyEval_GetBuiltins()) < 0 ||
                  PyDict_SetItemString(ns, "__name__", modname) < 0;
        Py_XDECREF(modname);
        if (bad) {
            Py_DECREF(ns);
            return -1;
        }
        PyObject *r = PyRun_String(error_classes_src, Py_file_input, ns, ns);
        if (r == NULL) {
            Py_DECREF(ns);
            return -1;
        }
        Py_DECREF(r);
        for (int i = 0; error_slots[i].name != NULL; i++) {
            PyObject *cls = PyDict_GetItemString(ns, error_slots[i].name);
            if (cls == NULL) {
                Py_DECREF(ns);
                PyErr_SetString(PyExc_SystemError, "_ssl: error class missing");
                return -1;
            }
            /* Like the C types of the module: no attribute assignment. */
            ((PyTypeObject *)cls)->tp_flags |= Py_TPFLAGS_IMMUTABLETYPE;
            *error_slots[i].slot = Py_NewRef(cls);
        }
        Py_DECREF(ns);
    }
    for (int i = 0; error_slots[i].name != NULL; i++) {
        if (PyModule_AddObjectRef(module, error_slots[i].name, *error_slots[i].slot) < 0) {
            return -1;
        }
    }
    return 0;
}

void
_PySSL_FiniErrors(void)
{
    for (int i = 0; error_slots[i].name != NULL; i++) {
        Py_CLEAR(*error_slots[i].slot);
    }
}

/* ---- Mnemonics --------------------------------------------------------------- */

static const struct {
    int lib;
    const char *name;
} lib_rows[] = {
#define PY_SSL_LIB_ROWS
#include "errcodes.h"
#undef PY_SSL_LIB_ROWS
    {0, NULL},
};

static const struct {
    int lib;
    int reason;
    const char *lib_name;
    const char *reason_name;
} reason_rows[] = {
#include "errcodes.h"
    {0, 0, NULL, NULL},
};

static const char *
lib_name(int lib)
{
    for (size_t i = 0; lib_rows[i].name != NULL; i++) {
        if (lib_rows[i].lib == lib) {
            return lib_rows[i].name;
        }
    }
    return NULL;
}

static const char *
reason_name(int lib, int reason)
{
    for (size_t i = 0; reason_rows[i].lib_name != NULL; i++) {
        if (reason_rows[i].lib == lib && reason_rows[i].reason == reason) {
            return reason_rows[i].reason_name;
        }
    }
    return NULL;
}

/* ---- Raising ---------------------------------------------------------------- */

/* Build type(code, "[LIB: REASON] text (where)") with its library and
   reason attributes, and set it as the current exception. */
static PyObject *
raise_full(PyObject *type, int code, const char *lib, const char *reason, const char *text,
           PyObject *verify_message, long verify_code, int line)
{
    PyObject *msg;
    const char *where = "_ssl";
    if (lib != NULL && reason != NULL) {
        msg = PyUnicode_FromFormat("[%s: %s] %s (%s.c:%d)", lib, reason, text, where, line);
    }
    else if (lib != NULL) {
        msg = PyUnicode_FromFormat("[%s] %s (%s.c:%d)", lib, text, where, line);
    }
    else {
        msg = PyUnicode_FromFormat("%s (%s.c:%d)", text, where, line);
    }
    if (msg == NULL) {
        return NULL;
    }
    PyObject *exc = PyObject_CallFunction(type, "iO", code, msg);
    Py_DECREF(msg);
    if (exc == NULL) {
        return NULL;
    }
    PyObject *lib_obj = lib ? PyUnicode_FromString(lib) : Py_NewRef(Py_None);
    PyObject *reason_obj = reason ? PyUnicode_FromString(reason) : Py_NewRef(Py_None);
    int rc = (lib_obj == NULL || reason_obj == NULL ||
              PyObject_SetAttrString(exc, "library", lib_obj) < 0 ||
              PyObject_SetAttrString(exc, "reason", reason_obj) < 0)
                 ? -1
                 : 0;
    Py_XDECREF(lib_obj);
    Py_XDECREF(reason_obj);
    if (rc == 0 && verify_message != NULL) {
        PyObject *vc = PyLong_FromLong(verify_code);
        rc = (vc == NULL || PyObject_SetAttrString(exc, "verify_code", vc) < 0 ||
              PyObject_SetAttrString(exc, "verify_message", verify_message) < 0)
                 ? -1
                 : 0;
        Py_XDECREF(vc);
    }
    if (rc == 0) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    }
    Py_DECREF(exc);
    return NULL;
}

PyObject *
_PySSL_RaiseSimple(PyObject *type, int code, const char *msg, int line)
{
    return raise_full(type, code, NULL, NULL, msg, NULL, 0, line);
}

PyObject *
_PySSL_RaiseFromQueue(const char *what, int line)
{
    unsigned long e = ERR_peek_last_error();
    ERR_clear_error();
    if (e == 0) {
        return raise_full(_PySSL_Error, 0, NULL, NULL, what, NULL, 0, line);
    }
    int lib = ERR_GET_LIB(e);
    int reason = ERR_GET_REASON(e);
    const char *text = ERR_reason_error_string(e);
    return raise_full(_PySSL_Error, reason, lib_name(lib), reason_name(lib, reason),
                      text ? text : what, NULL, 0, line);
}

/* The verification failure of a handshake: SSLCertVerificationError with
   verify_code and verify_message. */
static PyObject *
raise_verify_failed(PySSLSocket *s, unsigned long e, int line)
{
    long code = SSL_get_verify_result(s->ssl);
    PyObject *vmsg;
    if (code == X509_V_ERR_HOSTNAME_MISMATCH && s->server_hostname != NULL) {
        vmsg = PyUnicode_FromFormat("Hostname mismatch, certificate is not valid for '%U'.",
                                    s->server_hostname);
    }
    else if (code == X509_V_ERR_IP_ADDRESS_MISMATCH && s->server_hostname != NULL) {
        vmsg = PyUnicode_FromFormat("IP address mismatch, certificate is not valid for '%U'.",
                                    s->server_hostname);
    }
    else {
        vmsg = PyUnicode_FromString(X509_verify_cert_error_string(code));
    }
    if (vmsg == NULL) {
        return NULL;
    }
    const char *reason_text = ERR_reason_error_string(e);
    PyObject *text = PyUnicode_FromFormat("%s: %U", reason_text ? reason_text : "certificate verify failed", vmsg);
    if (text != NULL) {
        const char *utf8 = PyUnicode_AsUTF8(text);
        if (utf8 != NULL) {
            raise_full(_PySSL_CertVerificationError, SSL_ERROR_SSL, "SSL",
                       "CERTIFICATE_VERIFY_FAILED", utf8, vmsg, code, line);
        }
        Py_DECREF(text);
    }
    Py_DECREF(vmsg);
    return NULL;
}

PyObject *
_PySSL_RaiseForConnection(PySSLSocket *s, int ret, int err, int sys_errno, int line)
{
    unsigned long e = ERR_peek_last_error();
    PyObject *type = _PySSL_Error;
    int code = err;
    const char *text;
    switch (err) {
    case SSL_ERROR_ZERO_RETURN:
        type = _PySSL_ZeroReturnError;
        text = "TLS/SSL connection has been closed (EOF)";
        break;
    case SSL_ERROR_WANT_READ:
        type = _PySSL_WantReadError;
        text = "The operation did not complete (read)";
        break;
    case SSL_ERROR_WANT_WRITE:
        type = _PySSL_WantWriteError;
        text = "The operation did not complete (write)";
        break;
    case SSL_ERROR_WANT_X509_LOOKUP:
        text = "The operation did not complete (X509 lookup)";
        break;
    case SSL_ERROR_WANT_CONNECT:
        text = "The operation did not complete (connect)";
        break;
    case SSL_ERROR_SYSCALL:
        if (e == 0) {
            if (ret == 0 || sys_errno == 0) {
                type = _PySSL_EOFError;
                code = PY_SSL_ERROR_EOF;
                text = "EOF occurred in violation of protocol";
            }
            else {
                ERR_clear_error();
                errno = sys_errno;
                return PyErr_SetFromErrno(PyExc_OSError);
            }
        }
        else {
            type = _PySSL_SyscallError;
            text = "Some I/O error occurred";
        }
        break;
    case SSL_ERROR_SSL: {
        if (e == 0) {
            text = "A failure in the SSL library occurred";
            break;
        }
        int lib = ERR_GET_LIB(e), reason = ERR_GET_REASON(e);
        if (lib == ERR_LIB_SSL && reason == SSL_R_CERTIFICATE_VERIFY_FAILED) {
            ERR_clear_error();
            return raise_verify_failed(s, e, line);
        }
        if (lib == ERR_LIB_SSL && reason == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
            type = _PySSL_EOFError;
            code = PY_SSL_ERROR_EOF;
            ERR_clear_error();
            return raise_full(type, code, "SSL", "UNEXPECTED_EOF_WHILE_READING",
                              "EOF occurred in violation of protocol", NULL, 0, line);
        }
        const char *rtext = ERR_reason_error_string(e);
        ERR_clear_error();
        return raise_full(type, code, lib_name(lib), reason_name(lib, reason),
                          rtext ? rtext : "unknown error", NULL, 0, line);
    }
    default:
        code = PY_SSL_ERROR_INVALID_ERROR_CODE;
        text = "Invalid error code";
        break;
    }
    ERR_clear_error();
    return raise_full(type, code, NULL, NULL, text, NULL, 0, line);
}
