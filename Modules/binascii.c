/* binascii: conversions between binary data and ASCII encodings (hex,
   base64, uuencode, quoted-printable) and the CRC-32 and CRC-CCITT
   checksums.  The stdlib's base64, quopri, uu and zipfile build on it.

   Decoders take bytes-like objects or ASCII-only str; encoders take
   bytes-like objects only.  Every result is a new bytes object. */

#include "Python.h"
#include "pycore_modsupport.h"

static PyObject *BinasciiError;
static PyObject *BinasciiIncomplete;

/* ---- Arguments ------------------------------------------------------------ */

typedef struct {
    const unsigned char *data;
    Py_ssize_t len;
    Py_buffer view; /* view.obj is NULL unless a buffer was taken */
} bytesarg;

static int
buffer_arg(PyObject *obj, bytesarg *out)
{
    if (PyObject_GetBuffer(obj, &out->view, PyBUF_SIMPLE) < 0) {
        out->view.obj = NULL;
        return -1;
    }
    out->data = out->view.buf;
    out->len = out->view.len;
    return 0;
}

/* What decoders accept: a buffer, or a str of ASCII characters. */
static int
ascii_arg(PyObject *obj, bytesarg *out)
{
    out->view.obj = NULL;
    if (PyUnicode_Check(obj)) {
        if (!PyUnicode_IS_ASCII(obj)) {
            PyErr_SetString(PyExc_ValueError,
                            "string argument should contain only ASCII characters");
            return -1;
        }
        out->data = PyUnicode_1BYTE_DATA(obj);
        out->len = PyUnicode_GET_LENGTH(obj);
        return 0;
    }
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "argument should be bytes, buffer or ASCII string, not '%.100s'",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return buffer_arg(obj, out);
}

static void
arg_release(bytesarg *a)
{
    if (a->view.obj != NULL) {
        PyBuffer_Release(&a->view);
    }
}

/* A bytes object of `cap` bytes to fill; finish() trims it to `used`. */
static PyObject *
new_output(Py_ssize_t cap, unsigned char **p)
{
    PyObject *out = PyBytes_FromStringAndSize(NULL, cap);
    if (out != NULL) {
        *p = (unsigned char *)PyBytes_AS_STRING(out);
    }
    return out;
}

static PyObject *
finish(PyObject *out, Py_ssize_t used)
{
    if (out != NULL && used != PyBytes_GET_SIZE(out) && _PyBytes_Resize(&out, used) < 0) {
        return NULL;
    }
    return out;
}

/* binascii.Error, or ValueError once the module is gone at exit. */
static PyObject *
error_class(void)
{
    return BinasciiError != NULL ? BinasciiError : PyExc_ValueError;
}

static PyObject *
raise_error(const char *msg)
{
    PyErr_SetString(error_class(), msg);
    return NULL;
}

static const char hexdigits[] = "0123456789abcdef";

/* ---- Hex --------------------------------------------------------------------- */

/* The separator byte of hexlify(data, sep): -1 for none, -2 on error. */
static int
separator_byte(PyObject *sep)
{
    if (sep == NULL) {
        return -1;
    }
    Py_ssize_t n = PyObject_Length(sep);
    if (n < 0) {
        return -2;
    }
    if (n != 1) {
        PyErr_SetString(PyExc_ValueError, "sep must be length 1.");
        return -2;
    }
    if (PyUnicode_Check(sep)) {
        Py_UCS4 c = PyUnicode_READ_CHAR(sep, 0);
        if (c > 0xff) {
            PyErr_SetString(PyExc_ValueError, "sep must be ASCII.");
            return -2;
        }
        return (int)c;
    }
    bytesarg a;
    if (buffer_arg(sep, &a) < 0) {
        return -2;
    }
    int c = a.len == 1 ? a.data[0] : -2;
    arg_release(&a);
    if (c == -2) {
        PyErr_SetString(PyExc_ValueError, "sep must be length 1.");
    }
    return c;
}

/* Hex digits of data; with a separator every `group` bytes, counted from
   the right for positive groups and from the left for negative ones. */
static PyObject *
hex_encode(const unsigned char *data, Py_ssize_t len, int sep, Py_ssize_t group)
{
    if (sep < 0 || group == 0) {
        group = 0;
    }
    Py_ssize_t width = group < 0 ? -group : group;
    Py_ssize_t nseps = (width > 0 && len > 0) ? (len - 1) / width : 0;
    if (len > (PY_SSIZE_T_MAX - nseps) / 2) {
        return PyErr_NoMemory();
    }
    unsigned char *p;
    PyObject *out = new_output(2 * len + nseps, &p);
    if (out == NULL) {
        return NULL;
    }
    /* With groups counted from the right, the first group is short. */
    Py_ssize_t lead = (group > 0 && len % width) ? len % width : width;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (width > 0 && i > 0 && (i - lead) % width == 0 && i >= lead) {
            *p++ = (unsigned char)sep;
        }
        *p++ = (unsigned char)hexdigits[data[i] >> 4];
        *p++ = (unsigned char)hexdigits[data[i] & 15];
    }
    return out;
}

static PyObject *
binascii_hexlify(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"data", "sep", "bytes_per_sep", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "hexlify", kwlist, 1, 3, 0, a)) {
        return NULL;
    }
    Py_ssize_t group = 1;
    if (a[2] != NULL && (group = PyLong_AsSsize_t(a[2])) == -1 && PyErr_Occurred()) {
        return NULL;
    }
    bytesarg data;
    if (buffer_arg(a[0], &data) < 0) {
        return NULL;
    }
    int sep = separator_byte(a[1]);
    PyObject *out = sep == -2 ? NULL : hex_encode(data.data, data.len, sep, group);
    arg_release(&data);
    return out;
}

static int
hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c |= 0x20;
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

static PyObject *
binascii_unhexlify(PyObject *m, PyObject *arg)
{
    bytesarg a;
    if (ascii_arg(arg, &a) < 0) {
        return NULL;
    }
    PyObject *out = NULL;
    unsigned char *p;
    if (a.len % 2 != 0) {
        raise_error("Odd-length string");
    }
    else if ((out = new_output(a.len / 2, &p)) != NULL) {
        for (Py_ssize_t i = 0; i < a.len; i += 2) {
            int hi = hex_value(a.data[i]), lo = hex_value(a.data[i + 1]);
            if (hi < 0 || lo < 0) {
                Py_CLEAR(out);
                raise_error("Non-hexadecimal digit found");
                break;
            }
            *p++ = (unsigned char)(hi << 4 | lo);
        }
    }
    arg_release(&a);
    return out;
}

/* ---- Base64 ------------------------------------------------------------------ */

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int
b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static PyObject *
binascii_b2a_base64(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "newline", NULL};
    PyObject *a[2];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "b2a_base64", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    int newline = a[1] == NULL ? 1 : PyObject_IsTrue(a[1]);
    bytesarg d;
    if (newline < 0 || buffer_arg(a[0], &d) < 0) {
        return NULL;
    }
    unsigned char *p, *start;
    PyObject *out = NULL;
    if (d.len > (PY_SSIZE_T_MAX - 4) / 4 * 3) {
        PyErr_NoMemory();
    }
    else if ((out = new_output((d.len + 2) / 3 * 4 + newline, &p)) != NULL) {
        start = p;
        for (Py_ssize_t i = 0; i < d.len; i += 3) {
            Py_ssize_t left = d.len - i;
            uint32_t group = (uint32_t)d.data[i] << 16;
            group |= left > 1 ? (uint32_t)d.data[i + 1] << 8 : 0;
            group |= left > 2 ? d.data[i + 2] : 0;
            for (int k = 0; k < 4; k++) {
                /* k-th sextet, or padding past the data */
                *p++ = (k <= left) ? b64_alphabet[(group >> (18 - 6 * k)) & 63] : '=';
            }
        }
        if (newline) {
            *p++ = '\n';
        }
        out = finish(out, p - start);
    }
    arg_release(&d);
    return out;
}

typedef struct {
    unsigned char *p;
    uint32_t acc; /* pending bits */
    int nbits;
    int quad;     /* data characters in the current group of four */
    int pads;     /* '=' seen since the last data character */
    Py_ssize_t ndata;
} b64state;

static void
b64_push(b64state *st, int v)
{
    st->acc = (st->acc << 6) | (uint32_t)v;
    st->nbits += 6;
    if (st->nbits >= 8) {
        st->nbits -= 8;
        *st->p++ = (unsigned char)(st->acc >> st->nbits);
        st->acc &= (1u << st->nbits) - 1;
    }
    st->quad = (st->quad + 1) % 4;
    st->pads = 0;
    st->ndata++;
}

/* Decode; NULL with binascii.Error on bad input.  Without strict mode,
   characters outside the alphabet are skipped and the first complete
   padding ends the data. */
static PyObject *
b64_decode(const unsigned char *s, Py_ssize_t len, int strict)
{
    unsigned char *start;
    PyObject *out = new_output(len / 4 * 3 + 3, &start);
    if (out == NULL) {
        return NULL;
    }
    b64state st = {start, 0, 0, 0, 0, 0};
    int padding = 0;
    const char *error = NULL;
    for (Py_ssize_t i = 0; i < len && error == NULL; i++) {
        unsigned char c = s[i];
        if (c == '=') {
            padding = 1;
            if (strict && (i == 0 || st.quad == 0)) {
                error = i == 0 ? "Leading padding not allowed" : "Excess padding not allowed";
            }
            else if (st.quad >= 2 && st.quad + ++st.pads >= 4) {
                if (strict && i + 1 < len) {
                    error = "Excess data after padding";
                }
                st.quad = 0;
                break;
            }
            continue;
        }
        int v = b64_value(c);
        if (v < 0) {
            error = strict ? "Only base64 data is allowed" : NULL;
            continue;
        }
        if (strict && padding) {
            error = "Discontinuous padding not allowed";
            continue;
        }
        b64_push(&st, v);
    }
    if (error == NULL && st.quad == 1) {
        PyErr_Format(error_class(),
                     "Invalid base64-encoded string: number of data characters (%zd) cannot be "
                     "1 more than a multiple of 4",
                     st.ndata);
        Py_DECREF(out);
        return NULL;
    }
    if (error == NULL && st.quad != 0) {
        error = "Incorrect padding";
    }
    if (error != NULL) {
        Py_DECREF(out);
        return raise_error(error);
    }
    return finish(out, st.p - start);
}

static PyObject *
binascii_a2b_base64(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "strict_mode", NULL};
    PyObject *a[2];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "a2b_base64", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    int strict = a[1] == NULL ? 0 : PyObject_IsTrue(a[1]);
    bytesarg d;
    if (strict < 0 || ascii_arg(a[0], &d) < 0) {
        return NULL;
    }
    PyObject *out = b64_decode(d.data, d.len, strict);
    arg_release(&d);
    return out;
}

/* ---- uuencode ---------------------------------------------------------------- */

#define UU_MAXLINE 45

/* The character for a 6-bit value; with backtick, '`' stands for 0. */
static unsigned char
uu_char(unsigned int v, int backtick)
{
    return (unsigned char)((backtick && v == 0) ? '`' : ' ' + v);
}

static PyObject *
binascii_b2a_uu(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "backtick", NULL};
    PyObject *a[2];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "b2a_uu", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    int backtick = a[1] == NULL ? 0 : PyObject_IsTrue(a[1]);
    bytesarg d;
    if (backtick < 0 || buffer_arg(a[0], &d) < 0) {
        return NULL;
    }
    PyObject *out = NULL;
    unsigned char *p, *start;
    if (d.len > UU_MAXLINE) {
        raise_error("At most 45 bytes at once");
    }
    else if ((out = new_output(2 + (d.len + 2) / 3 * 4, &p)) != NULL) {
        start = p;
        *p++ = uu_char((unsigned int)d.len, backtick);
        for (Py_ssize_t i = 0; i < d.len; i += 3) {
            uint32_t group = 0;
            for (int k = 0; k < 3; k++) {
                group = (group << 8) | (i + k < d.len ? d.data[i + k] : 0);
            }
            for (int k = 0; k < 4; k++) {
                *p++ = uu_char((group >> (18 - 6 * k)) & 63, backtick);
            }
        }
        *p++ = '\n';
        out = finish(out, p - start);
    }
    arg_release(&d);
    return out;
}

/* A line: its first character gives the byte count; characters missing at
   the end count as zeros; what follows the data may only be blanks. */
static PyObject *
uu_decode(const unsigned char *s, Py_ssize_t len)
{
    /* An empty line has the length of a NUL character, as CPython reads
       it: (0 - ' ') & 63 = 32 bytes. */
    Py_ssize_t want = ((len > 0 ? s[0] : 0) - ' ') & 63;
    Py_ssize_t pos = 1;
    unsigned char *p, *start;
    PyObject *out = new_output(want, &p);
    if (out == NULL) {
        return NULL;
    }
    start = p;
    uint32_t acc = 0;
    int nbits = 0;
    for (; p - start < want; pos++) {
        unsigned int v = 0;
        if (pos < len && s[pos] != '\n' && s[pos] != '\r') {
            if (s[pos] < ' ' || s[pos] > ' ' + 64) {
                Py_DECREF(out);
                return raise_error("Illegal char");
            }
            v = (s[pos] - ' ') & 63;
        }
        acc = (acc << 6) | v;
        nbits += 6;
        if (nbits >= 8) {
            nbits -= 8;
            *p++ = (unsigned char)(acc >> nbits);
            acc &= (1u << nbits) - 1;
        }
    }
    for (; pos < len; pos++) {
        unsigned char c = s[pos];
        if (c != ' ' && c != ' ' + 64 && c != '\n' && c != '\r') {
            Py_DECREF(out);
            return raise_error("Trailing garbage");
        }
    }
    return out;
}

static PyObject *
binascii_a2b_uu(PyObject *m, PyObject *arg)
{
    bytesarg a;
    if (ascii_arg(arg, &a) < 0) {
        return NULL;
    }
    PyObject *out = uu_decode(a.data, a.len);
    arg_release(&a);
    return out;
}

/* ---- Quoted-printable -------------------------------------------------------- */

#define QP_MAXLINE 76

static PyObject *
qp_decode(const unsigned char *s, Py_ssize_t len, int header)
{
    unsigned char *p, *start;
    PyObject *out = new_output(len, &p);
    if (out == NULL) {
        return NULL;
    }
    start = p;
    Py_ssize_t i = 0;
    while (i < len) {
        unsigned char c = s[i++];
        if (c == '_' && header) {
            *p++ = ' ';
        }
        else if (c != '=') {
            *p++ = c;
        }
        else if (i >= len) {
            break; /* a lone '=' at the very end */
        }
        else if (s[i] == '\n' || s[i] == '\r') {
            /* Soft line break: drop everything up to and with the '\n'. */
            while (i < len && s[i] != '\n') {
                i++;
            }
            i += i < len;
        }
        else if (s[i] == '=') {
            *p++ = '='; /* "==" as some broken encoders wrote '=' */
            i++;
        }
        else if (i + 1 < len && hex_value(s[i]) >= 0 && hex_value(s[i + 1]) >= 0) {
            *p++ = (unsigned char)(hex_value(s[i]) << 4 | hex_value(s[i + 1]));
            i += 2;
        }
        else {
            *p++ = '=';
        }
    }
    return finish(out, p - start);
}

static PyObject *
binascii_a2b_qp(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"data", "header", NULL};
    PyObject *a[2];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "a2b_qp", kwlist, 1, 2, 0, a)) {
        return NULL;
    }
    int header = a[1] == NULL ? 0 : PyObject_IsTrue(a[1]);
    bytesarg d;
    if (header < 0 || ascii_arg(a[0], &d) < 0) {
        return NULL;
    }
    PyObject *out = qp_decode(d.data, d.len, header);
    arg_release(&d);
    return out;
}

typedef struct {
    const unsigned char *s;
    Py_ssize_t len;
    int quotetabs, istext, header;
    const char *eol; /* "\n", or "\r\n" when the data's first line ends so */
    unsigned char *out;
    Py_ssize_t used;
    Py_ssize_t cap;
    Py_ssize_t linelen;
} qpwriter;

static int
qp_put(qpwriter *w, unsigned char c)
{
    if (w->used == w->cap) {
        Py_ssize_t cap = w->cap ? w->cap * 2 : 64;
        unsigned char *buf = PyMem_Realloc(w->out, (size_t)cap);
        if (buf == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->out = buf;
        w->cap = cap;
    }
    w->out[w->used++] = c;
    return 0;
}

static int
qp_put_str(qpwriter *w, const char *s)
{
    for (; *s; s++) {
        if (qp_put(w, (unsigned char)*s) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
qp_put_escape(qpwriter *w, unsigned char c)
{
    static const char upper[] = "0123456789ABCDEF";
    if (qp_put(w, '=') < 0 || qp_put(w, (unsigned char)upper[c >> 4]) < 0) {
        return -1;
    }
    return qp_put(w, (unsigned char)upper[c & 15]);
}

static int
qp_soft_break(qpwriter *w)
{
    w->linelen = 0;
    return qp_put(w, '=') < 0 ? -1 : qp_put_str(w, w->eol);
}

/* Length of the line ending at s[i] (1 or 2), or 0 if there is none. */
static int
line_end_at(const qpwriter *w, Py_ssize_t i)
{
    if (i < w->len && w->s[i] == '\n') {
        return 1;
    }
    return (i + 1 < w->len && w->s[i] == '\r' && w->s[i + 1] == '\n') ? 2 : 0;
}

static int
qp_needs_escape(const qpwriter *w, Py_ssize_t i)
{
    unsigned char c = w->s[i];
    int last = i + 1 == w->len;
    if (c > 126 || c == '=' || (w->header && c == '_')) {
        return 1;
    }
    /* A line that is just '.' would end an SMTP message.  Like CPython,
       a '.' followed by CR or NUL counts as such a line too. */
    if (c == '.' && w->linelen == 0 &&
        (last || w->s[i + 1] == '\n' || w->s[i + 1] == '\r' || w->s[i + 1] == '\0')) {
        return 1;
    }
    if (!w->istext && (c == '\r' || c == '\n')) {
        return 1;
    }
    if ((c == ' ' || c == '\t') && last) {
        return 1;
    }
    return c < 33 && c != '\r' && c != '\n' && (w->quotetabs || (c != ' ' && c != '\t'));
}

/* A hard line break; whitespace just before it is escaped so that mail
   transports cannot strip it. */
static int
qp_newline(qpwriter *w)
{
    if (w->used > 0 && (w->out[w->used - 1] == ' ' || w->out[w->used - 1] == '\t')) {
        unsigned char blank = w->out[--w->used];
        if (qp_put_escape(w, blank) < 0) {
            return -1;
        }
    }
    w->linelen = 0;
    return qp_put_str(w, w->eol);
}

static int
qp_encode(qpwriter *w)
{
    Py_ssize_t i = 0;
    while (i < w->len) {
        unsigned char c = w->s[i];
        int eol = w->istext ? line_end_at(w, i) : 0;
        if (qp_needs_escape(w, i)) {
            if (w->linelen + 3 >= QP_MAXLINE && qp_soft_break(w) < 0) {
                return -1;
            }
            if (qp_put_escape(w, c) < 0) {
                return -1;
            }
            w->linelen += 3;
            i++;
        }
        else if (eol) {
            if (qp_newline(w) < 0) {
                return -1;
            }
            i += eol;
        }
        else {
            int more = i + 1 < w->len && w->s[i + 1] != '\n';
            if (more && w->linelen + 1 >= QP_MAXLINE && qp_soft_break(w) < 0) {
                return -1;
            }
            if (qp_put(w, (w->header && c == ' ') ? '_' : c) < 0) {
                return -1;
            }
            w->linelen++;
            i++;
        }
    }
    return 0;
}

static PyObject *
binascii_b2a_qp(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"data", "quotetabs", "istext", "header", NULL};
    PyObject *a[4];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "b2a_qp", kwlist, 1, 4, 0, a)) {
        return NULL;
    }
    int flags[3] = {0, 1, 0}; /* quotetabs, istext, header */
    for (int k = 0; k < 3; k++) {
        if (a[k + 1] != NULL && (flags[k] = PyObject_IsTrue(a[k + 1])) < 0) {
            return NULL;
        }
    }
    bytesarg d;
    if (buffer_arg(a[0], &d) < 0) {
        return NULL;
    }
    const unsigned char *nl = memchr(d.data, '\n', (size_t)d.len);
    qpwriter w = {
        .s = d.data,
        .len = d.len,
        .quotetabs = flags[0],
        .istext = flags[1],
        .header = flags[2],
        .eol = (nl != NULL && nl > d.data && nl[-1] == '\r') ? "\r\n" : "\n",
    };
    PyObject *out = NULL;
    if (qp_encode(&w) == 0) {
        out = PyBytes_FromStringAndSize((const char *)w.out, w.used);
    }
    PyMem_Free(w.out);
    arg_release(&d);
    return out;
}

/* ---- CRCs -------------------------------------------------------------------- */

/* CRC-32 as zlib computes it: reflected, polynomial 0xEDB88320, the value
   inverted before and after. */
static uint32_t crc32_table[256];
/* CRC-CCITT (the XMODEM form): polynomial 0x1021, most significant bit
   first, no inversion. */
static uint16_t hqx_table[256];

static void
build_crc_tables(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t r = n;
        uint32_t h = n << 8;
        for (int k = 0; k < 8; k++) {
            r = (r & 1) ? (r >> 1) ^ 0xEDB88320u : r >> 1;
            h = (h & 0x8000) ? (h << 1) ^ 0x1021 : h << 1;
        }
        crc32_table[n] = r;
        hqx_table[n] = (uint16_t)h;
    }
}

/* The low 32 bits of an int argument, whatever its sign. */
static int
crc_start(PyObject *arg, uint32_t *out)
{
    if (arg == NULL) {
        *out = 0;
        return 0;
    }
    PyObject *n = PyNumber_Index(arg);
    if (n == NULL) {
        return -1;
    }
    *out = (uint32_t)PyLong_AsUnsignedLongLongMask(n);
    Py_DECREF(n);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *
binascii_crc32(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t crc;
    bytesarg d;
    if (!_PyArg_CheckPositional("crc32", nargs, 1, 2) ||
        crc_start(nargs > 1 ? args[1] : NULL, &crc) < 0 || buffer_arg(args[0], &d) < 0) {
        return NULL;
    }
    crc = ~crc;
    for (Py_ssize_t i = 0; i < d.len; i++) {
        crc = crc32_table[(crc ^ d.data[i]) & 0xff] ^ (crc >> 8);
    }
    arg_release(&d);
    return PyLong_FromUnsignedLong(~crc & 0xffffffffu);
}

static PyObject *
binascii_crc_hqx(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t start;
    bytesarg d;
    if (!_PyArg_CheckPositional("crc_hqx", nargs, 2, 2) || crc_start(args[1], &start) < 0 ||
        buffer_arg(args[0], &d) < 0) {
        return NULL;
    }
    uint16_t crc = (uint16_t)start;
    for (Py_ssize_t i = 0; i < d.len; i++) {
        crc = (uint16_t)(hqx_table[((crc >> 8) ^ d.data[i]) & 0xff] ^ (crc << 8));
    }
    arg_release(&d);
    return PyLong_FromUnsignedLong(crc);
}

/* ---- Module -------------------------------------------------------------------- */

static PyMethodDef binascii_methods[] = {
    {"hexlify", _PyCFunction_CAST(binascii_hexlify), METH_FASTCALL | METH_KEYWORDS,
     "hexlify(data, sep=None, bytes_per_sep=1)\n--\n\n"
     "Two hex digits per byte, with an optional separator between groups."},
    {"b2a_hex", _PyCFunction_CAST(binascii_hexlify), METH_FASTCALL | METH_KEYWORDS,
     "b2a_hex(data, sep=None, bytes_per_sep=1)\n--\n\nThe same as hexlify()."},
    {"unhexlify", binascii_unhexlify, METH_O,
     "unhexlify($module, hexstr, /)\n--\n\nThe bytes spelled by an even number of hex digits."},
    {"a2b_hex", binascii_unhexlify, METH_O,
     "a2b_hex($module, hexstr, /)\n--\n\nThe same as unhexlify()."},
    {"b2a_base64", _PyCFunction_CAST(binascii_b2a_base64), METH_FASTCALL | METH_KEYWORDS,
     "b2a_base64($module, data, /, *, newline=True)\n--\n\nBase64 text for data."},
    {"a2b_base64", _PyCFunction_CAST(binascii_a2b_base64), METH_FASTCALL | METH_KEYWORDS,
     "a2b_base64($module, data, /, *, strict_mode=False)\n--\n\n"
     "Decode base64; strict mode refuses anything but well-padded base64."},
    {"b2a_uu", _PyCFunction_CAST(binascii_b2a_uu), METH_FASTCALL | METH_KEYWORDS,
     "b2a_uu($module, data, /, *, backtick=False)\n--\n\nOne uuencoded line for up to 45 bytes."},
    {"a2b_uu", binascii_a2b_uu, METH_O,
     "a2b_uu($module, data, /)\n--\n\nDecode one uuencoded line."},
    {"b2a_qp", _PyCFunction_CAST(binascii_b2a_qp), METH_FASTCALL | METH_KEYWORDS,
     "b2a_qp($module, /, data, quotetabs=False, istext=True, header=False)\n--\n\n"
     "Quoted-printable text for data."},
    {"a2b_qp", _PyCFunction_CAST(binascii_a2b_qp), METH_FASTCALL | METH_KEYWORDS,
     "a2b_qp($module, /, data, header=False)\n--\n\nDecode quoted-printable text."},
    {"crc32", _PyCFunction_CAST(binascii_crc32), METH_FASTCALL,
     "crc32($module, data, crc=0, /)\n--\n\nThe CRC-32 of data, continuing from crc."},
    {"crc_hqx", _PyCFunction_CAST(binascii_crc_hqx), METH_FASTCALL,
     "crc_hqx($module, data, crc, /)\n--\n\nThe CRC-CCITT of data, continuing from crc."},
    {NULL, NULL, 0, NULL},
};

/* The module that owns the exception classes (borrowed): the last one
   made, should binascii be imported again. */
static PyObject *owner_module;

/* When the owning module goes (at exit), the exception classes go too,
   so they are not left behind. */
static void
binascii_module_free(void *m)
{
    if (m == owner_module) {
        Py_CLEAR(BinasciiError);
        Py_CLEAR(BinasciiIncomplete);
        owner_module = NULL;
    }
}

static struct PyModuleDef binasciimodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "binascii",
    .m_doc = "Conversions between binary data and ASCII: hex, base64, uuencode, "
             "quoted-printable, and CRCs.",
    .m_size = -1,
    .m_methods = binascii_methods,
    .m_free = binascii_module_free,
};

PyObject *
PyInit_binascii(void)
{
    if (crc32_table[1] == 0) {
        build_crc_tables();
    }
    if (BinasciiError == NULL) {
        BinasciiError = PyErr_NewException("binascii.Error", PyExc_ValueError, NULL);
        BinasciiIncomplete = PyErr_NewException("binascii.Incomplete", NULL, NULL);
        if (BinasciiError == NULL || BinasciiIncomplete == NULL) {
            Py_CLEAR(BinasciiError);
            Py_CLEAR(BinasciiIncomplete);
            return NULL;
        }
    }
    PyObject *m = PyModule_Create(&binasciimodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "Error", BinasciiError) < 0 ||
        PyModule_AddObjectRef(m, "Incomplete", BinasciiIncomplete) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    owner_module = m;
    return m;
}
