/* sqlite3.Blob: incremental I/O on one BLOB cell.  A file-like cursor
   (read, write, seek, tell), byte and slice indexing that leave that
   cursor alone, and a context manager that closes the handle.  The
   connection keeps its open blobs on a list so closing it closes them. */

#include "module.h"

/* ---- The connection's list of open blobs ---- */

static void
link_blob(SqConnection *con, SqBlob *blob)
{
    blob->prev = NULL;
    blob->next = con->open_blobs;
    if (con->open_blobs != NULL) {
        con->open_blobs->prev = blob;
    }
    con->open_blobs = blob;
}

/* Close the sqlite handle and leave the list (idempotent). */
static void
close_handle(SqBlob *blob)
{
    if (blob->blob == NULL) {
        return;
    }
    SqConnection *con = blob->connection;
    if (blob->prev != NULL) {
        blob->prev->next = blob->next;
    }
    else if (con != NULL && con->open_blobs == blob) {
        con->open_blobs = blob->next;
    }
    if (blob->next != NULL) {
        blob->next->prev = blob->prev;
    }
    blob->prev = blob->next = NULL;
    sqlite3_blob *handle = blob->blob;
    blob->blob = NULL;
    Py_BEGIN_ALLOW_THREADS
    sqlite3_blob_close(handle);
    Py_END_ALLOW_THREADS
}

void
_PySqlite_CloseAllBlobs(SqConnection *con)
{
    while (con->open_blobs != NULL) {
        close_handle(con->open_blobs);
    }
}

/* ---- Opening ---- */

PyObject *
_PySqlite_OpenBlob(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"", "", "", "readonly", "name", NULL};
    SqConnection *con = (SqConnection *)op;
    const char *table, *column, *name = "main";
    long long row;
    int readonly = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ssL|$ps:blobopen", kwlist,
                                     &table, &column, &row, &readonly,
                                     &name)) {
        return NULL;
    }
    if (_PySqlite_CheckConnection(con) < 0) {
        return NULL;
    }
    sqlite3_blob *handle = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_blob_open(con->db, name, table, column, row, !readonly,
                           &handle);
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        return _PySqlite_RaiseFromDb(con->db);
    }
    SqBlob *blob = PyObject_GC_New(SqBlob, &_PySqlite_BlobType);
    if (blob == NULL) {
        sqlite3_blob_close(handle);
        return NULL;
    }
    blob->connection = (SqConnection *)Py_NewRef(op);
    blob->blob = handle;
    blob->offset = 0;
    link_blob(con, blob);
    PyObject_GC_Track(blob);
    return (PyObject *)blob;
}

/* ---- Checks and raw I/O ---- */

static int
check_blob(SqBlob *self)
{
    if (self->connection == NULL
        || _PySqlite_CheckConnection(self->connection) < 0) {
        return -1;
    }
    if (self->blob == NULL) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Cannot operate on a closed blob.");
        return -1;
    }
    return 0;
}

static int
blob_size(SqBlob *self)
{
    return sqlite3_blob_bytes(self->blob);
}

static int
raw_read(SqBlob *self, void *buf, int n, int at)
{
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_blob_read(self->blob, buf, n, at);
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        _PySqlite_RaiseFromDb(self->connection->db);
        return -1;
    }
    return 0;
}

static int
raw_write(SqBlob *self, const void *buf, int n, int at)
{
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_blob_write(self->blob, buf, n, at);
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        _PySqlite_RaiseFromDb(self->connection->db);
        return -1;
    }
    return 0;
}

/* n bytes from position `at` as a bytes object. */
static PyObject *
read_bytes(SqBlob *self, int n, int at)
{
    PyObject *result = PyBytes_FromStringAndSize(NULL, n);
    if (result != NULL && n > 0
        && raw_read(self, PyBytes_AS_STRING(result), n, at) < 0) {
        Py_CLEAR(result);
    }
    return result;
}

/* ---- File-like methods ---- */

static PyObject *
blob_read(PyObject *op, PyObject *args)
{
    SqBlob *self = (SqBlob *)op;
    int length = -1;
    if (!PyArg_ParseTuple(args, "|i:read", &length)) {
        return NULL;
    }
    if (check_blob(self) < 0) {
        return NULL;
    }
    int remaining = blob_size(self) - self->offset;
    if (length < 0 || length > remaining) {
        length = remaining;
    }
    PyObject *data = read_bytes(self, length, self->offset);
    if (data != NULL) {
        self->offset += length;
    }
    return data;
}

static PyObject *
blob_write(PyObject *op, PyObject *args)
{
    SqBlob *self = (SqBlob *)op;
    PyObject *data;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "O:write", &data)
        || PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (check_blob(self) < 0) {
        goto done;
    }
    if (view.len > blob_size(self) - self->offset) {
        PyErr_SetString(PyExc_ValueError, "data longer than blob length");
        goto done;
    }
    if (raw_write(self, view.buf, (int)view.len, self->offset) < 0) {
        goto done;
    }
    self->offset += (int)view.len;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&view);
    return result;
}

static PyObject *
blob_seek(PyObject *op, PyObject *args)
{
    SqBlob *self = (SqBlob *)op;
    int offset, origin = 0;
    if (!PyArg_ParseTuple(args, "i|i:seek", &offset, &origin)) {
        return NULL;
    }
    if (check_blob(self) < 0) {
        return NULL;
    }
    long long base;
    switch (origin) {
    case 0:
        base = 0;
        break;
    case 1:
        base = self->offset;
        break;
    case 2:
        base = blob_size(self);
        break;
    default:
        PyErr_SetString(PyExc_ValueError, "'origin' should be os.SEEK_SET, "
                        "os.SEEK_CUR, or os.SEEK_END");
        return NULL;
    }
    long long target = base + offset;
    if (target < 0 || target > blob_size(self)) {
        PyErr_SetString(PyExc_ValueError, "offset out of blob range");
        return NULL;
    }
    self->offset = (int)target;
    Py_RETURN_NONE;
}

static PyObject *
blob_tell(PyObject *op, PyObject *unused)
{
    SqBlob *self = (SqBlob *)op;
    if (check_blob(self) < 0) {
        return NULL;
    }
    return PyLong_FromLong(self->offset);
}

static PyObject *
blob_close(PyObject *op, PyObject *unused)
{
    SqBlob *self = (SqBlob *)op;
    if (self->connection == NULL
        || _PySqlite_CheckConnection(self->connection) < 0) {
        return NULL;
    }
    close_handle(self);
    Py_RETURN_NONE;
}

static PyObject *
blob_enter(PyObject *op, PyObject *unused)
{
    if (check_blob((SqBlob *)op) < 0) {
        return NULL;
    }
    return Py_NewRef(op);
}

static PyObject *
blob_exit(PyObject *op, PyObject *args)
{
    if (check_blob((SqBlob *)op) < 0) {
        return NULL;
    }
    close_handle((SqBlob *)op);
    Py_RETURN_FALSE;
}

/* ---- Indexing ---- */

static Py_ssize_t
blob_length(PyObject *op)
{
    SqBlob *self = (SqBlob *)op;
    if (check_blob(self) < 0) {
        return -1;
    }
    return blob_size(self);
}

/* Normalise a byte index; -1 with IndexError when out of range. */
static int
byte_position(SqBlob *self, PyObject *key, int *pos)
{
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
        return -1;
    }
    int size = blob_size(self);
    if (i < 0) {
        i += size;
    }
    if (i < 0 || i >= size) {
        PyErr_SetString(PyExc_IndexError, "Blob index out of range");
        return -1;
    }
    *pos = (int)i;
    return 0;
}

static int
slice_bounds(SqBlob *self, PyObject *key, Py_ssize_t *start,
             Py_ssize_t *step, Py_ssize_t *count)
{
    Py_ssize_t stop;
    if (PySlice_Unpack(key, start, &stop, step) < 0) {
        return -1;
    }
    *count = PySlice_AdjustIndices(blob_size(self), start, &stop, *step);
    return 0;
}

/* The bytes covering a slice's span, [start, start + span). */
static PyObject *
read_span(SqBlob *self, Py_ssize_t start, Py_ssize_t step, Py_ssize_t count,
          Py_ssize_t *lo)
{
    Py_ssize_t first = start, last = start + (count - 1) * step;
    *lo = first < last ? first : last;
    Py_ssize_t hi = first < last ? last : first;
    return read_bytes(self, (int)(hi - *lo + 1), (int)*lo);
}

static PyObject *
blob_subscript(PyObject *op, PyObject *key)
{
    SqBlob *self = (SqBlob *)op;
    if (check_blob(self) < 0) {
        return NULL;
    }
    if (PyIndex_Check(key)) {
        int pos;
        unsigned char byte;
        if (byte_position(self, key, &pos) < 0 || raw_read(self, &byte, 1, pos) < 0) {
            return NULL;
        }
        return PyLong_FromLong(byte);
    }
    if (!PySlice_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "Blob indices must be integers");
        return NULL;
    }
    Py_ssize_t start, step, count, lo;
    if (slice_bounds(self, key, &start, &step, &count) < 0) {
        return NULL;
    }
    if (count <= 0) {
        return PyBytes_FromStringAndSize("", 0);
    }
    if (step == 1) {
        return read_bytes(self, (int)count, (int)start);
    }
    PyObject *span = read_span(self, start, step, count, &lo);
    if (span == NULL) {
        return NULL;
    }
    PyObject *result = PyBytes_FromStringAndSize(NULL, count);
    if (result != NULL) {
        const char *src = PyBytes_AS_STRING(span);
        char *dst = PyBytes_AS_STRING(result);
        for (Py_ssize_t i = 0; i < count; i++) {
            dst[i] = src[start + i * step - lo];
        }
    }
    Py_DECREF(span);
    return result;
}

static int
assign_byte(SqBlob *self, PyObject *key, PyObject *value)
{
    int pos;
    if (byte_position(self, key, &pos) < 0) {
        return -1;
    }
    long n = PyLong_AsLong(value);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (n < 0 || n > 255) {
        PyErr_SetString(PyExc_ValueError, "byte must be in range(0, 256)");
        return -1;
    }
    unsigned char byte = (unsigned char)n;
    return raw_write(self, &byte, 1, pos);
}

static int
assign_slice(SqBlob *self, PyObject *key, PyObject *value)
{
    Py_ssize_t start, step, count, lo;
    if (slice_bounds(self, key, &start, &step, &count) < 0) {
        return -1;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(value, &view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    int rc = -1;
    if (view.len != (count > 0 ? count : 0)) {
        PyErr_SetString(PyExc_IndexError,
                        "Blob slice assignment is wrong size");
    }
    else if (count <= 0) {
        rc = 0;
    }
    else if (step == 1) {
        rc = raw_write(self, view.buf, (int)count, (int)start);
    }
    else {
        /* Read the covered span, patch the stepped bytes, write it back. */
        PyObject *span = read_span(self, start, step, count, &lo);
        if (span != NULL) {
            char *buf = PyBytes_AS_STRING(span);
            for (Py_ssize_t i = 0; i < count; i++) {
                buf[start + i * step - lo] = ((const char *)view.buf)[i];
            }
            rc = raw_write(self, buf, (int)PyBytes_GET_SIZE(span), (int)lo);
            Py_DECREF(span);
        }
    }
    PyBuffer_Release(&view);
    return rc;
}

static int
blob_ass_subscript(PyObject *op, PyObject *key, PyObject *value)
{
    SqBlob *self = (SqBlob *)op;
    if (check_blob(self) < 0) {
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Blob doesn't support item deletion");
        return -1;
    }
    if (PyIndex_Check(key)) {
        return assign_byte(self, key, value);
    }
    if (PySlice_Check(key)) {
        return assign_slice(self, key, value);
    }
    PyErr_SetString(PyExc_TypeError, "Blob indices must be integers");
    return -1;
}

/* ---- Type ---- */

static int
blob_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((SqBlob *)op)->connection);
    return 0;
}

static int
blob_clear(PyObject *op)
{
    SqBlob *self = (SqBlob *)op;
    close_handle(self);
    Py_CLEAR(self->connection);
    return 0;
}

static void
blob_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    blob_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static PyMethodDef blob_methods[] = {
    {"read", blob_read, METH_VARARGS,
     "Read up to length bytes (all remaining by default) at the offset."},
    {"write", blob_write, METH_VARARGS,
     "Write bytes at the offset; the blob's size cannot change."},
    {"seek", blob_seek, METH_VARARGS,
     "Move the offset, relative to start, current or end."},
    {"tell", blob_tell, METH_NOARGS, "The current offset."},
    {"close", blob_close, METH_NOARGS, "Close the blob."},
    {"__enter__", blob_enter, METH_NOARGS, "The blob itself."},
    {"__exit__", blob_exit, METH_VARARGS, "Close the blob."},
    {NULL},
};

static PyMappingMethods blob_as_mapping = {
    .mp_length = blob_length,
    .mp_subscript = blob_subscript,
    .mp_ass_subscript = blob_ass_subscript,
};

PyTypeObject _PySqlite_BlobType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sqlite3.Blob",
    .tp_basicsize = sizeof(SqBlob),
    .tp_dealloc = blob_dealloc,
    .tp_as_mapping = &blob_as_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC
                | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "Incremental I/O on one BLOB value.",
    .tp_traverse = blob_traverse,
    .tp_clear = blob_clear,
    .tp_methods = blob_methods,
};
