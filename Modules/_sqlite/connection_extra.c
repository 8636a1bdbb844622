/* The Connection methods that reach past plain SQL: online backup into
   another connection, run-time limits, boolean db_config options,
   (de)serialisation of a whole database, and extension loading. */

#include "module.h"

static SqConnection *
checked_self(PyObject *op)
{
    SqConnection *self = (SqConnection *)op;
    return _PySqlite_CheckConnection(self) < 0 ? NULL : self;
}

/* ---- Backup ---- */

typedef struct {
    int pages;
    PyObject *progress;
    int sleep_ms;
} backup_options;

/* Copy page batches until done; -1 when the progress callback raised. */
static int
run_backup(sqlite3_backup *job, const backup_options *opts)
{
    int rc;
    do {
        Py_BEGIN_ALLOW_THREADS
        rc = sqlite3_backup_step(job, opts->pages);
        Py_END_ALLOW_THREADS
        if (opts->progress != Py_None) {
            PyObject *r = PyObject_CallFunction(
                opts->progress, "iii", rc, sqlite3_backup_remaining(job),
                sqlite3_backup_pagecount(job));
            if (r == NULL) {
                return -1;
            }
            Py_DECREF(r);
        }
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
            Py_BEGIN_ALLOW_THREADS
            sqlite3_sleep(opts->sleep_ms);
            Py_END_ALLOW_THREADS
        }
    } while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
    return 0;
}

PyObject *
_PySqlite_Backup(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"target", "pages", "progress", "name", "sleep",
                             NULL};
    PyObject *target_obj;
    const char *name = "main";
    double sleep_s = 0.250;
    backup_options opts = {-1, Py_None, 0};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$iOsd:backup", kwlist,
                                     &target_obj, &opts.pages, &opts.progress,
                                     &name, &sleep_s)) {
        return NULL;
    }
    if (!PyObject_TypeCheck(target_obj, &_PySqlite_ConnectionType)) {
        PyErr_Format(PyExc_TypeError, "backup() argument 'target' must be "
                     "sqlite3.Connection, not %.100s",
                     Py_TYPE(target_obj)->tp_name);
        return NULL;
    }
    SqConnection *self = checked_self(op);
    SqConnection *target = (SqConnection *)target_obj;
    if (self == NULL || _PySqlite_CheckConnection(target) < 0) {
        return NULL;
    }
    if (target == self) {
        PyErr_SetString(PyExc_ValueError,
                        "target cannot be the same connection instance");
        return NULL;
    }
    if (opts.progress != Py_None && !PyCallable_Check(opts.progress)) {
        PyErr_SetString(PyExc_TypeError, "progress argument must be a callable");
        return NULL;
    }
    if (sleep_s < 0) {
        PyErr_SetString(PyExc_ValueError, "sleep must be greater-than or equal to zero");
        return NULL;
    }
    if (opts.pages == 0) {
        opts.pages = -1;
    }
    opts.sleep_ms = (int)(sleep_s * 1000.0);
    sqlite3_backup *job = sqlite3_backup_init(target->db, "main", self->db,
                                              name);
    if (job == NULL) {
        return _PySqlite_RaiseFromDb(target->db);
    }
    int failed = run_backup(job, &opts);
    int rc = sqlite3_backup_finish(job);
    if (failed) {
        return NULL;
    }
    if (rc != SQLITE_OK) {
        return _PySqlite_RaiseFromDb(target->db);
    }
    Py_RETURN_NONE;
}

/* ---- Limits ---- */

static PyObject *
change_limit(PyObject *op, int category, int value)
{
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    int old = sqlite3_limit(self->db, category, value);
    if (old < 0) {
        PyErr_SetString(SQ->ProgrammingError, "'category' is out of bounds");
        return NULL;
    }
    return PyLong_FromLong(old);
}

PyObject *
_PySqlite_GetLimit(PyObject *op, PyObject *args)
{
    int category;
    if (!PyArg_ParseTuple(args, "i:getlimit", &category)) {
        return NULL;
    }
    return change_limit(op, category, -1);
}

PyObject *
_PySqlite_SetLimit(PyObject *op, PyObject *args)
{
    int category, limit;
    if (!PyArg_ParseTuple(args, "ii:setlimit", &category, &limit)) {
        return NULL;
    }
    return change_limit(op, category, limit);
}

/* ---- db_config ---- */

static const int known_configs[] = {
    SQLITE_DBCONFIG_ENABLE_FKEY, SQLITE_DBCONFIG_ENABLE_TRIGGER,
    SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER,
    SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
    SQLITE_DBCONFIG_ENABLE_QPSG, SQLITE_DBCONFIG_TRIGGER_EQP,
    SQLITE_DBCONFIG_RESET_DATABASE, SQLITE_DBCONFIG_DEFENSIVE,
    SQLITE_DBCONFIG_WRITABLE_SCHEMA, SQLITE_DBCONFIG_LEGACY_ALTER_TABLE,
    SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL,
    SQLITE_DBCONFIG_ENABLE_VIEW, SQLITE_DBCONFIG_LEGACY_FILE_FORMAT,
    SQLITE_DBCONFIG_TRUSTED_SCHEMA,
};

/* Set (value 0/1) or read (value -1) an option; its state after. */
static int
apply_config(SqConnection *self, int op, int value, int *state)
{
    int known = 0;
    for (size_t i = 0; i < Py_ARRAY_LENGTH(known_configs); i++) {
        known |= known_configs[i] == op;
    }
    if (!known) {
        PyErr_Format(PyExc_ValueError, "unknown config 'op': %d", op);
        return -1;
    }
    if (sqlite3_db_config(self->db, op, value, state) != SQLITE_OK) {
        _PySqlite_RaiseFromDb(self->db);
        return -1;
    }
    return 0;
}

PyObject *
_PySqlite_GetConfig(PyObject *op, PyObject *args)
{
    int option, state = 0;
    if (!PyArg_ParseTuple(args, "i:getconfig", &option)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL || apply_config(self, option, -1, &state) < 0) {
        return NULL;
    }
    return PyBool_FromLong(state);
}

PyObject *
_PySqlite_SetConfig(PyObject *op, PyObject *args)
{
    int option, enable = 1, state = 0;
    if (!PyArg_ParseTuple(args, "i|p:setconfig", &option, &enable)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL || apply_config(self, option, enable, &state) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Serialisation ---- */

PyObject *
_PySqlite_Serialize(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"name", NULL};
    const char *name = "main";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$s:serialize", kwlist,
                                     &name)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    sqlite3_int64 size = 0;
    /* An in-memory database can be read in place; others need a copy. */
    unsigned char *data = sqlite3_serialize(self->db, name, &size,
                                            SQLITE_SERIALIZE_NOCOPY);
    int copied = 0;
    if (data == NULL) {
        data = sqlite3_serialize(self->db, name, &size, 0);
        copied = 1;
    }
    if (data == NULL && size != 0) {
        PyErr_Format(SQ->OperationalError, "unable to serialize '%s'", name);
        return NULL;
    }
    PyObject *result = PyBytes_FromStringAndSize((const char *)data,
                                                 (Py_ssize_t)size);
    if (copied) {
        sqlite3_free(data);
    }
    return result;
}

PyObject *
_PySqlite_Deserialize(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"", "name", NULL};
    PyObject *data;
    Py_buffer view;
    const char *name = "main";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$s:deserialize",
                                     kwlist, &data, &name)
        || PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    unsigned char *copy = sqlite3_malloc64(view.len ? view.len : 1);
    if (copy == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(copy, view.buf, view.len);
    sqlite3_int64 size = view.len;
    PyBuffer_Release(&view);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_deserialize(self->db, name, copy, size, size,
                             SQLITE_DESERIALIZE_FREEONCLOSE
                             | SQLITE_DESERIALIZE_RESIZEABLE);
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        return _PySqlite_RaiseFromDb(self->db);
    }
    Py_RETURN_NONE;
}

/* ---- Extensions ---- */

PyObject *
_PySqlite_EnableLoadExtension(PyObject *op, PyObject *arg)
{
    int enable = PyObject_IsTrue(arg);
    if (enable < 0) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    if (sqlite3_enable_load_extension(self->db, enable) != SQLITE_OK) {
        PyErr_SetString(SQ->OperationalError, "Error enabling load extension");
        return NULL;
    }
    Py_RETURN_NONE;
}

PyObject *
_PySqlite_LoadExtension(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"name", "entrypoint", NULL};
    const char *path, *entry = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|$z:load_extension",
                                     kwlist, &path, &entry)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    char *message = NULL;
    if (sqlite3_load_extension(self->db, path, entry, &message) != SQLITE_OK) {
        PyErr_SetString(SQ->OperationalError,
                        message ? message : "extension could not be loaded");
        sqlite3_free(message);
        return NULL;
    }
    Py_RETURN_NONE;
}
