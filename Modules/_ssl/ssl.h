/* Declarations shared by the files of the `_ssl` module (TLS over OpenSSL).

   module.c     the module: constants, version data, RAND_*, init
   errors.c     the SSLError family and turning OpenSSL failures into them
   context.c    _SSLContext: configuration shared by connections (SSL_CTX)
   sslsocket.c  _SSLSocket: one connection (SSL) over a socket or two BIOs
   memorybio.c  MemoryBIO, and SSLSession
   certdecode.c X509 -> Python (getpeercert's dict), Certificate, OIDs

   Design notes are in Doc/ssl.md.  The Python half (ssl.SSLContext,
   ssl.SSLSocket, ssl.SSLObject) is CPython's Lib/ssl.py, fetched by
   Tools/scripts/fetch_ssl_py.sh. */

#ifndef Py_SSL_MODULE_H
#define Py_SSL_MODULE_H

#include "Python.h"
#include "pycore_typeobject.h" /* PyWeakref_NewRef, PyWeakref_GetRef */
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* Values of the Python-level constants that OpenSSL does not define. */
enum {
    PY_SSL_CERT_NONE = 0,
    PY_SSL_CERT_OPTIONAL = 1,
    PY_SSL_CERT_REQUIRED = 2,
};
enum {
    PY_SSL_VERSION_TLS = 2,
    PY_SSL_VERSION_TLS1 = 3,
    PY_SSL_VERSION_TLS1_1 = 4,
    PY_SSL_VERSION_TLS1_2 = 5,
    PY_SSL_VERSION_TLS_CLIENT = 0x10,
    PY_SSL_VERSION_TLS_SERVER = 0x11,
};
enum {
    PY_PROTO_MINIMUM_SUPPORTED = -2,
    PY_PROTO_MAXIMUM_SUPPORTED = -1,
};
/* SSLErrorNumber values beyond OpenSSL's SSL_ERROR_* codes. */
enum {
    PY_SSL_ERROR_EOF = 8,
    PY_SSL_ERROR_INVALID_ERROR_CODE = 10,
};
enum {
    PY_SSL_ENCODING_PEM = 1,
    PY_SSL_ENCODING_DER = 2,
};

typedef struct {
    PyObject_HEAD
    SSL_CTX *ctx;
    int protocol;            /* the PROTOCOL_* it was made with */
    int check_hostname;
    int post_handshake_auth;
    unsigned int host_flags; /* X509_CHECK_FLAG_* for hostname checks */
    unsigned char *alpn;     /* ALPN list in wire format, or NULL */
    unsigned int alpn_len;
    PyObject *sni_callback;  /* callable or NULL */
    PyObject *msg_callback;  /* callable or NULL (ssl.py's wrapper) */
    PyObject *keylog_filename; /* the object given, or NULL */
    FILE *keylog_file;
} PySSLContext;

typedef struct {
    PyObject_HEAD
    BIO *bio;
    int eof_written;
} PySSLMemoryBIO;

typedef struct {
    PyObject_HEAD
    SSL *ssl;
    PySSLContext *ctx;       /* strong */
    PyObject *sock;          /* weak reference to the socket, or NULL (BIO mode) */
    PyObject *owner;         /* weak reference to the Python-level object, or NULL */
    PyObject *server_hostname; /* str or NULL */
    PySSLMemoryBIO *inbio, *outbio; /* BIO mode only (strong) */
    int server_side;
    int handshake_done;
    PyThreadState *saved;    /* while OpenSSL runs without the GIL */
    PyObject *callback_exc;  /* raised by a callback during an operation */
} PySSLSocket;

typedef struct {
    PyObject_HEAD
    SSL_SESSION *session;
    PySSLContext *ctx;
} PySSLSession;

typedef struct {
    PyObject_HEAD
    X509 *cert;
    Py_hash_t hash;
} PySSLCertificate;

extern PyTypeObject _PySSLContext_Type;
extern PyTypeObject _PySSLSocket_Type;
extern PyTypeObject _PySSLMemoryBIO_Type;
extern PyTypeObject _PySSLSession_Type;
extern PyTypeObject _PySSLCertificate_Type;

/* errors.c.  The exception classes (built in _PySSL_InitErrors). */
extern PyObject *_PySSL_Error;
extern PyObject *_PySSL_CertVerificationError;
extern PyObject *_PySSL_ZeroReturnError;
extern PyObject *_PySSL_WantReadError;
extern PyObject *_PySSL_WantWriteError;
extern PyObject *_PySSL_SyscallError;
extern PyObject *_PySSL_EOFError;
int _PySSL_InitErrors(PyObject *module);
void _PySSL_FiniErrors(void); /* drop the classes (module free) */

/* Raise from OpenSSL's error queue (clearing it): an SSLError whose errno
   is the reason code of the latest entry.  `what` prefixes the message when
   the queue is empty.  Always returns NULL. */
PyObject *_PySSL_RaiseFromQueue(const char *what, int line);
#define PySSL_QUEUE_ERROR(what) _PySSL_RaiseFromQueue((what), __LINE__)

/* Raise for a failed SSL_* call on a connection: `ret` is its result and
   `err` SSL_get_error's answer, `sys_errno` errno right after the call. */
PyObject *_PySSL_RaiseForConnection(PySSLSocket *s, int ret, int err, int sys_errno, int line);

/* An SSLError(errno, message) of class `type` with library and reason set
   to None; returns NULL. */
PyObject *_PySSL_RaiseSimple(PyObject *type, int code, const char *msg, int line);

/* certdecode.c */
PyObject *_PySSL_DecodeCert(X509 *cert);
PyObject *_PySSL_CertToDER(X509 *cert);
PyObject *_PySSL_CertificateNew(X509 *cert); /* takes a new reference to cert */
PyObject *_PySSL_ASN1Obj(const ASN1_OBJECT *obj, int add_name);
extern PyMethodDef _PySSL_CertMethods[];

/* context.c */
PyObject *_PySSL_NewConnection(PySSLContext *ctx, PyObject *sock, int server_side,
                               PyObject *hostname, PyObject *owner, PyObject *session,
                               PySSLMemoryBIO *inbio, PySSLMemoryBIO *outbio);

/* sslsocket.c */
int _PySSL_SetSession(PySSLSocket *s, PyObject *value);

/* memorybio.c */
PyObject *_PySSL_SessionNew(SSL_SESSION *session, PySSLContext *ctx);

/* A path argument (str, bytes or os.PathLike) as a new bytes object, or
   NULL with TypeError(msg) set. */
PyObject *_PySSL_FSPath(PyObject *obj, const char *msg);

#endif /* !Py_SSL_MODULE_H */
