/* _ssl certificates: an X509 as the dict getpeercert() returns, the
   Certificate type (get_verified_chain's items), and the ASN.1 object
   look-ups txt2obj/nid2obj.

   The dict: subject and issuer as tuples of RDNs, each a tuple of
   (long attribute name, value) pairs; version; serialNumber in upper-case
   hex; notBefore/notAfter as "Mon DD HH:MM:SS YYYY GMT"; then, when the
   extensions are there, subjectAltName as (kind, value) pairs, OCSP and
   caIssuers URIs from authorityInfoAccess, crlDistributionPoints URIs. */

#include "ssl.h"
#include <openssl/pem.h>
#include <openssl/bio.h>

/* ---- Small pieces -------------------------------------------------------- */

/* An ASN1_STRING as str (decoded through UTF-8). */
static PyObject *
asn1_string_to_str(const ASN1_STRING *s)
{
    unsigned char *utf8 = NULL;
    int n = ASN1_STRING_to_UTF8(&utf8, s);
    if (n < 0) {
        return PySSL_QUEUE_ERROR("cannot decode an ASN.1 string");
    }
    PyObject *out = PyUnicode_DecodeUTF8((char *)utf8, n, "strict");
    OPENSSL_free(utf8);
    return out;
}

/* Text of whatever a memory BIO collected, as str; frees the BIO. */
static PyObject *
bio_to_str(BIO *bio)
{
    char *data;
    long n = BIO_get_mem_data(bio, &data);
    PyObject *out = PyUnicode_DecodeUTF8(data, n, "replace");
    BIO_free(bio);
    return out;
}

static PyObject *
asn1_time_to_str(const ASN1_TIME *t)
{
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) {
        return PyErr_NoMemory();
    }
    ASN1_TIME_print(bio, t);
    return bio_to_str(bio);
}

/* One (name, value) pair of a distinguished name. */
static PyObject *
name_entry_pair(X509_NAME_ENTRY *entry)
{
    const ASN1_OBJECT *obj = X509_NAME_ENTRY_get_object(entry);
    char buf[100];
    int nid = OBJ_obj2nid(obj);
    const char *ln = nid == NID_undef ? NULL : OBJ_nid2ln(nid);
    if (ln == NULL) {
        OBJ_obj2txt(buf, sizeof buf, obj, 1);
        ln = buf;
    }
    PyObject *value = asn1_string_to_str(X509_NAME_ENTRY_get_data(entry));
    if (value == NULL) {
        return NULL;
    }
    return Py_BuildValue("(sN)", ln, value);
}

/* A name as a tuple of RDNs: entries with the same set number share one
   inner tuple (multi-valued RDNs). */
static PyObject *
decode_name(const X509_NAME *name)
{
    PyObject *rdns = PyList_New(0), *current = NULL;
    if (rdns == NULL) {
        return NULL;
    }
    int last_set = -1;
    int count = X509_NAME_entry_count(name);
    for (int i = 0; i < count; i++) {
        X509_NAME_ENTRY *entry = X509_NAME_get_entry(name, i);
        int set = X509_NAME_ENTRY_set(entry);
        if (current != NULL && set != last_set) {
            PyObject *t = PyList_AsTuple(current);
            Py_CLEAR(current);
            if (t == NULL || PyList_Append(rdns, t) < 0) {
                Py_XDECREF(t);
                goto error;
            }
            Py_DECREF(t);
        }
        if (current == NULL && (current = PyList_New(0)) == NULL) {
            goto error;
        }
        last_set = set;
        PyObject *pair = name_entry_pair(entry);
        if (pair == NULL || PyList_Append(current, pair) < 0) {
            Py_XDECREF(pair);
            goto error;
        }
        Py_DECREF(pair);
    }
    if (current != NULL) {
        PyObject *t = PyList_AsTuple(current);
        Py_CLEAR(current);
        if (t == NULL || PyList_Append(rdns, t) < 0) {
            Py_XDECREF(t);
            goto error;
        }
        Py_DECREF(t);
    }
    PyObject *out = PyList_AsTuple(rdns);
    Py_DECREF(rdns);
    return out;
error:
    Py_XDECREF(current);
    Py_DECREF(rdns);
    return NULL;
}

/* An IP address of a subjectAltName: dotted quad, or eight groups of
   upper-case hex for IPv6. */
static PyObject *
ip_to_str(const ASN1_OCTET_STRING *ip)
{
    const unsigned char *p = ASN1_STRING_get0_data(ip);
    int len = ASN1_STRING_length(ip);
    if (len == 4) {
        return PyUnicode_FromFormat("%d.%d.%d.%d", p[0], p[1], p[2], p[3]);
    }
    if (len == 16) {
        char buf[40];
        int pos = 0;
        for (int i = 0; i < 8; i++) {
            pos += snprintf(buf + pos, sizeof buf - pos, i ? ":%X" : "%X",
                            (p[2 * i] << 8) | p[2 * i + 1]);
        }
        return PyUnicode_FromString(buf);
    }
    return PyUnicode_FromString("<invalid>");
}

static PyObject *
general_name_pair(const GENERAL_NAME *gn)
{
    switch (gn->type) {
    case GEN_DNS:
        return Py_BuildValue("(sN)", "DNS", asn1_string_to_str(gn->d.dNSName));
    case GEN_EMAIL:
        return Py_BuildValue("(sN)", "email", asn1_string_to_str(gn->d.rfc822Name));
    case GEN_URI:
        return Py_BuildValue("(sN)", "URI", asn1_string_to_str(gn->d.uniformResourceIdentifier));
    case GEN_IPADD:
        return Py_BuildValue("(sN)", "IP Address", ip_to_str(gn->d.iPAddress));
    case GEN_DIRNAME:
        return Py_BuildValue("(sN)", "DirName", decode_name(gn->d.directoryName));
    case GEN_RID: {
        char buf[128];
        OBJ_obj2txt(buf, sizeof buf, gn->d.registeredID, 1);
        return Py_BuildValue("(ss)", "Registered ID", buf);
    }
    case GEN_OTHERNAME:
        return Py_BuildValue("(ss)", "othername", "<unsupported>");
    case GEN_X400:
        return Py_BuildValue("(ss)", "X400Name", "<unsupported>");
    case GEN_EDIPARTY:
        return Py_BuildValue("(ss)", "EdiPartyName", "<unsupported>");
    default:
        return Py_BuildValue("(ss)", "unknown", "<unsupported>");
    }
}

/* Append tuple(items) under `key` when items is non-empty; steals items. */
static int
set_nonempty(PyObject *dict, const char *key, PyObject *items)
{
    if (items == NULL) {
        return -1;
    }
    int rc = 0;
    if (PyList_GET_SIZE(items) > 0) {
        PyObject *t = PyList_AsTuple(items);
        rc = t == NULL ? -1 : PyDict_SetItemString(dict, key, t);
        Py_XDECREF(t);
    }
    Py_DECREF(items);
    return rc;
}

static PyObject *
decode_alt_names(X509 *cert)
{
    PyObject *out = PyList_New(0);
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    if (out == NULL || names == NULL) {
        return out;
    }
    for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
        PyObject *pair = general_name_pair(sk_GENERAL_NAME_value(names, i));
        if (pair == NULL || PyList_Append(out, pair) < 0) {
            Py_XDECREF(pair);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(pair);
    }
    GENERAL_NAMES_free(names);
    return out;
}

/* URIs of authorityInfoAccess entries whose method is `method_nid`. */
static PyObject *
decode_aia(X509 *cert, int method_nid)
{
    PyObject *out = PyList_New(0);
    AUTHORITY_INFO_ACCESS *aia = X509_get_ext_d2i(cert, NID_info_access, NULL, NULL);
    if (out == NULL || aia == NULL) {
        return out;
    }
    for (int i = 0; i < sk_ACCESS_DESCRIPTION_num(aia); i++) {
        ACCESS_DESCRIPTION *ad = sk_ACCESS_DESCRIPTION_value(aia, i);
        if (OBJ_obj2nid(ad->method) != method_nid || ad->location->type != GEN_URI) {
            continue;
        }
        PyObject *uri = asn1_string_to_str(ad->location->d.uniformResourceIdentifier);
        if (uri == NULL || PyList_Append(out, uri) < 0) {
            Py_XDECREF(uri);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(uri);
    }
    AUTHORITY_INFO_ACCESS_free(aia);
    return out;
}

static PyObject *
decode_crl_points(X509 *cert)
{
    PyObject *out = PyList_New(0);
    STACK_OF(DIST_POINT) *points = X509_get_ext_d2i(cert, NID_crl_distribution_points, NULL, NULL);
    if (out == NULL || points == NULL) {
        return out;
    }
    for (int i = 0; i < sk_DIST_POINT_num(points) && out != NULL; i++) {
        DIST_POINT *dp = sk_DIST_POINT_value(points, i);
        if (dp->distpoint == NULL || dp->distpoint->type != 0) {
            continue;
        }
        GENERAL_NAMES *names = dp->distpoint->name.fullname;
        for (int j = 0; j < sk_GENERAL_NAME_num(names); j++) {
            GENERAL_NAME *gn = sk_GENERAL_NAME_value(names, j);
            if (gn->type != GEN_URI) {
                continue;
            }
            PyObject *uri = asn1_string_to_str(gn->d.uniformResourceIdentifier);
            if (uri == NULL || PyList_Append(out, uri) < 0) {
                Py_XDECREF(uri);
                Py_CLEAR(out);
                break;
            }
            Py_DECREF(uri);
        }
    }
    CRL_DIST_POINTS_free(points);
    return out;
}

/* The serial number as OpenSSL prints an INTEGER: hex digit pairs. */
static PyObject *
serial_to_str(X509 *cert)
{
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) {
        return PyErr_NoMemory();
    }
    if (i2a_ASN1_INTEGER(bio, X509_get0_serialNumber(cert)) < 0) {
        BIO_free(bio);
        return PySSL_QUEUE_ERROR("bad serial number");
    }
    return bio_to_str(bio);
}

/* ---- The dict ------------------------------------------------------------------ */

static int
set_steal(PyObject *dict, const char *key, PyObject *value)
{
    if (value == NULL) {
        return -1;
    }
    int rc = PyDict_SetItemString(dict, key, value);
    Py_DECREF(value);
    return rc;
}

PyObject *
_PySSL_DecodeCert(X509 *cert)
{
    PyObject *d = PyDict_New();
    if (d == NULL) {
        return NULL;
    }
    if (set_steal(d, "subject", decode_name(X509_get_subject_name(cert))) < 0 ||
        set_steal(d, "issuer", decode_name(X509_get_issuer_name(cert))) < 0 ||
        set_steal(d, "version", PyLong_FromLong(X509_get_version(cert) + 1)) < 0 ||
        set_steal(d, "serialNumber", serial_to_str(cert)) < 0 ||
        set_steal(d, "notBefore", asn1_time_to_str(X509_get0_notBefore(cert))) < 0 ||
        set_steal(d, "notAfter", asn1_time_to_str(X509_get0_notAfter(cert))) < 0 ||
        set_nonempty(d, "subjectAltName", decode_alt_names(cert)) < 0 ||
        set_nonempty(d, "OCSP", decode_aia(cert, NID_ad_OCSP)) < 0 ||
        set_nonempty(d, "caIssuers", decode_aia(cert, NID_ad_ca_issuers)) < 0 ||
        set_nonempty(d, "crlDistributionPoints", decode_crl_points(cert)) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

PyObject *
_PySSL_CertToDER(X509 *cert)
{
    unsigned char *der = NULL;
    int n = i2d_X509(cert, &der);
    if (n < 0) {
        return PySSL_QUEUE_ERROR("cannot encode the certificate");
    }
    PyObject *out = PyBytes_FromStringAndSize((char *)der, n);
    OPENSSL_free(der);
    return out;
}

/* _ssl._test_decode_cert(path): the dict of a PEM file's first certificate. */
static PyObject *
ssl_test_decode_cert(PyObject *module, PyObject *arg)
{
    PyObject *path = _PySSL_FSPath(arg, "path should be a valid filesystem path");
    if (path == NULL) {
        return NULL;
    }
    BIO *bio = BIO_new_file(PyBytes_AS_STRING(path), "r");
    Py_DECREF(path);
    if (bio == NULL) {
        ERR_clear_error();
        PyErr_SetString(_PySSL_Error, "Can't open file");
        return NULL;
    }
    X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (cert == NULL) {
        ERR_clear_error();
        PyErr_SetString(_PySSL_Error, "Error decoding PEM-encoded file");
        return NULL;
    }
    PyObject *out = _PySSL_DecodeCert(cert);
    X509_free(cert);
    return out;
}

/* ---- ASN.1 objects -------------------------------------------------------------- */

PyObject *
_PySSL_ASN1Obj(const ASN1_OBJECT *obj, int add_name)
{
    char oid[128];
    int nid = OBJ_obj2nid(obj);
    if (OBJ_obj2txt(oid, sizeof oid, obj, 1) < 0) {
        return PySSL_QUEUE_ERROR("cannot format the OID");
    }
    const char *sn = nid == NID_undef ? NULL : OBJ_nid2sn(nid);
    const char *ln = nid == NID_undef ? NULL : OBJ_nid2ln(nid);
    (void)add_name;
    return Py_BuildValue("(izzs)", nid, sn, ln, oid);
}

static PyObject *
ssl_txt2obj(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"txt", "name", NULL};
    const char *txt;
    int name = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|p:txt2obj", kwlist, &txt, &name)) {
        return NULL;
    }
    ASN1_OBJECT *obj = OBJ_txt2obj(txt, name ? 0 : 1);
    if (obj == NULL) {
        ERR_clear_error();
        PyErr_Format(PyExc_ValueError, "unknown object '%s'", txt);
        return NULL;
    }
    PyObject *out = _PySSL_ASN1Obj(obj, 1);
    ASN1_OBJECT_free(obj);
    return out;
}

static PyObject *
ssl_nid2obj(PyObject *module, PyObject *arg)
{
    int nid = PyLong_AsInt(arg);
    if (nid == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (nid < 0) {
        PyErr_SetString(PyExc_ValueError, "NID must be positive.");
        return NULL;
    }
    ASN1_OBJECT *obj = OBJ_nid2obj(nid);
    if (obj == NULL || OBJ_obj2nid(obj) == NID_undef) {
        ERR_clear_error();
        if (nid == NID_undef) {
            PyErr_SetString(PyExc_ValueError, "Unknown object");
        }
        else {
            PyErr_Format(PyExc_ValueError, "unknown NID %i", nid);
        }
        return NULL;
    }
    PyObject *out = _PySSL_ASN1Obj(obj, 1);
    ASN1_OBJECT_free(obj);
    return out;
}

PyMethodDef _PySSL_CertMethods[] = {
    {"_test_decode_cert", ssl_test_decode_cert, METH_O,
     "The getpeercert() dict of the first certificate of a PEM file."},
    {"txt2obj", (PyCFunction)(void (*)(void))ssl_txt2obj, METH_VARARGS | METH_KEYWORDS,
     "(nid, shortname, longname, oid) of an OID string, or of a name with name=True."},
    {"nid2obj", ssl_nid2obj, METH_O, "(nid, shortname, longname, oid) of a NID."},
    {NULL, NULL, 0, NULL},
};

/* ---- Certificate ---------------------------------------------------------------- */

PyObject *
_PySSL_CertificateNew(X509 *cert)
{
    PySSLCertificate *c = PyObject_New(PySSLCertificate, &_PySSLCertificate_Type);
    if (c == NULL) {
        return NULL;
    }
    X509_up_ref(cert);
    c->cert = cert;
    c->hash = -1;
    return (PyObject *)c;
}

static void
cert_dealloc(PyObject *self)
{
    X509_free(((PySSLCertificate *)self)->cert);
    PyObject_Free(self);
}

static PyObject *
cert_public_bytes(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"format", NULL};
    int format = PY_SSL_ENCODING_PEM;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i:public_bytes", kwlist, &format)) {
        return NULL;
    }
    X509 *cert = ((PySSLCertificate *)self)->cert;
    if (format == PY_SSL_ENCODING_DER) {
        return _PySSL_CertToDER(cert);
    }
    if (format != PY_SSL_ENCODING_PEM) {
        PyErr_SetString(PyExc_ValueError, "Unsupported format");
        return NULL;
    }
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL || !PEM_write_bio_X509(bio, cert)) {
        BIO_free(bio);
        return PySSL_QUEUE_ERROR("cannot encode the certificate");
    }
    return bio_to_str(bio);
}

static PyObject *
cert_get_info(PyObject *self, PyObject *unused)
{
    return _PySSL_DecodeCert(((PySSLCertificate *)self)->cert);
}

static PyObject *
cert_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &_PySSLCertificate_Type) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = X509_cmp(((PySSLCertificate *)a)->cert, ((PySSLCertificate *)b)->cert) == 0;
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static Py_hash_t
cert_hash(PyObject *self)
{
    PySSLCertificate *c = (PySSLCertificate *)self;
    if (c->hash == -1) {
        Py_hash_t h = (Py_hash_t)X509_subject_name_hash(c->cert);
        c->hash = h == -1 ? -2 : h;
    }
    return c->hash;
}

static PyObject *
cert_repr(PyObject *self)
{
    X509_NAME *name = X509_get_subject_name(((PySSLCertificate *)self)->cert);
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) {
        return PyErr_NoMemory();
    }
    X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253);
    PyObject *text = bio_to_str(bio);
    if (text == NULL) {
        return NULL;
    }
    PyObject *out = PyUnicode_FromFormat("<%s '%U'>", Py_TYPE(self)->tp_name, text);
    Py_DECREF(text);
    return out;
}

static PyMethodDef cert_methods[] = {
    {"public_bytes", (PyCFunction)(void (*)(void))cert_public_bytes,
     METH_VARARGS | METH_KEYWORDS, "The certificate as PEM text or DER bytes."},
    {"get_info", cert_get_info, METH_NOARGS, "The certificate as getpeercert()'s dict."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PySSLCertificate_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_ssl.Certificate",
    .tp_basicsize = sizeof(PySSLCertificate),
    .tp_dealloc = cert_dealloc,
    .tp_repr = cert_repr,
    .tp_hash = cert_hash,
    .tp_richcompare = cert_richcompare,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An X.509 certificate of a verified or received chain.",
    .tp_methods = cert_methods,
};
