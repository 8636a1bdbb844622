/* sqlite3.Connection: opening and closing the database, the thread and
   state checks every entry point makes, transaction control in its three
   modes (legacy isolation_level, autocommit True and False), the
   shortcuts that run SQL through a fresh cursor, and the attributes.
   User callbacks live in connection_callbacks.c, backup, blobs,
   serialisation, limits and config in connection_extra.c. */

#include "module.h"

/* ---- Checks every entry point makes ---- */

int
_PySqlite_CheckThread(SqConnection *con)
{
    unsigned long here = PyThread_get_thread_ident();
    if (con->check_same_thread && here != con->owner_thread) {
        PyErr_Format(SQ->ProgrammingError,
                     "SQLite objects created in a thread can only be used in "
                     "that same thread. The object was created in thread id "
                     "%lu and this is thread id %lu.",
                     con->owner_thread, here);
        return -1;
    }
    return 0;
}

static int
check_open(SqConnection *con)
{
    if (!con->initialized) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Base Connection.__init__ not called.");
        return -1;
    }
    if (con->db == NULL) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Cannot operate on a closed database.");
        return -1;
    }
    return 0;
}

int
_PySqlite_CheckConnection(SqConnection *con)
{
    if (con->initialized && _PySqlite_CheckThread(con) < 0) {
        return -1;
    }
    return check_open(con);
}

/* ---- Running SQL the connection issues itself ---- */

int
_PySqlite_ExecSimple(SqConnection *con, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_prepare_v2(con->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        do {
            rc = sqlite3_step(st);
        } while (rc == SQLITE_ROW);
        if (rc == SQLITE_DONE) {
            rc = SQLITE_OK;
        }
    }
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        /* Read the message before finalize can replace it. */
        _PySqlite_RaiseFromDb(con->db);
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

static int
in_transaction(SqConnection *con)
{
    return !sqlite3_get_autocommit(con->db);
}

/* The legacy mode's implicit BEGIN before a DML statement. */
int
_PySqlite_BeginIfLegacy(SqConnection *con)
{
    if (con->autocommit != SQ_AUTOCOMMIT_LEGACY
        || con->isolation_level == Py_None || in_transaction(con)) {
        return 0;
    }
    const char *level = PyUnicode_AsUTF8(con->isolation_level);
    if (level == NULL) {
        return -1;
    }
    char sql[32];
    snprintf(sql, sizeof(sql), "BEGIN %s", level);
    if (_PySqlite_ExecSimple(con, sql) < 0) {
        /* Threads sharing the connection race between the check above and
           BEGIN (the GIL is released while it runs): when another thread
           opened the transaction first, this statement simply joins it. */
        if (in_transaction(con)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    return 0;
}

/* ---- Argument validation shared by __init__ and the setters ---- */

/* Accept None or one of the level names, in any case; new reference to
   the value to store. */
static PyObject *
checked_isolation_level(PyObject *value)
{
    static const char *const levels[] = {"", "DEFERRED", "IMMEDIATE",
                                         "EXCLUSIVE"};
    if (value == Py_None) {
        return Py_NewRef(value);
    }
    if (!PyUnicode_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "isolation_level must be str or None");
        return NULL;
    }
    PyObject *upper = PyObject_CallMethod(value, "upper", NULL);
    if (upper == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(levels); i++) {
        if (PyUnicode_CompareWithASCIIString(upper, levels[i]) == 0) {
            return upper;
        }
    }
    Py_DECREF(upper);
    PyErr_SetString(PyExc_ValueError,
                    "isolation_level string must be '', 'DEFERRED', "
                    "'IMMEDIATE', or 'EXCLUSIVE'");
    return NULL;
}

static int
checked_autocommit(PyObject *value, int *out)
{
    if (value == Py_True) {
        *out = 1;
        return 0;
    }
    if (value == Py_False) {
        *out = 0;
        return 0;
    }
    if (PyLong_Check(value)) {
        int overflow;
        long n = PyLong_AsLongAndOverflow(value, &overflow);
        if (!overflow && n == SQ_AUTOCOMMIT_LEGACY) {
            *out = SQ_AUTOCOMMIT_LEGACY;
            return 0;
        }
        PyErr_Clear();
    }
    PyErr_SetString(PyExc_ValueError,
                    "autocommit must be True, False, or "
                    "sqlite3.LEGACY_TRANSACTION_CONTROL");
    return -1;
}

/* ---- Life cycle ---- */

static void
close_database(SqConnection *self)
{
    if (self->db == NULL) {
        return;
    }
    _PySqlite_CloseAllBlobs(self);
    _PySqlite_ClearCache(self);
    sqlite3 *db = self->db;
    self->db = NULL;
    /* close_v2 defers the real close while cursors still hold statements;
       their finalize completes it. */
    sqlite3_close_v2(db);
}

static int
open_database(SqConnection *self, const char *path, double timeout, int uri)
{
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (uri) {
        flags |= SQLITE_OPEN_URI;
    }
    sqlite3 *db = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_open_v2(path, &db, flags, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(db, (int)(timeout * 1000));
    }
    Py_END_ALLOW_THREADS
    if (db == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (rc != SQLITE_OK) {
        _PySqlite_RaiseFromDb(db);
        sqlite3_close(db);
        return -1;
    }
    self->db = db;
    return 0;
}

static int
connection_init(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"database", "timeout", "detect_types",
                             "isolation_level", "check_same_thread",
                             "factory", "cached_statements", "uri",
                             "autocommit", NULL};
    SqConnection *self = (SqConnection *)op;
    PyObject *path = NULL, *level_arg = NULL, *factory = NULL;
    PyObject *autocommit_arg = NULL;
    double timeout = 5.0;
    int detect_types = 0, check_same_thread = 1, cached = 128, uri = 0;
    int autocommit = SQ_AUTOCOMMIT_LEGACY;
    if (_PySqlite_WarnPositional("_sqlite3.Connection",
                                 PyTuple_GET_SIZE(args)) < 0) {
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|diOpOip$O:Connection",
                                     kwlist, PyUnicode_FSConverter, &path,
                                     &timeout, &detect_types, &level_arg,
                                     &check_same_thread, &factory, &cached,
                                     &uri, &autocommit_arg)) {
        return -1;
    }
    PyObject *level = level_arg ? checked_isolation_level(level_arg)
                                : PyUnicode_FromString("");
    if (level == NULL
        || (autocommit_arg && checked_autocommit(autocommit_arg,
                                                 &autocommit) < 0)) {
        Py_XDECREF(level);
        Py_DECREF(path);
        return -1;
    }
    close_database(self);
    int rc = open_database(self, PyBytes_AS_STRING(path), timeout, uri);
    Py_DECREF(path);
    if (rc < 0) {
        Py_DECREF(level);
        return -1;
    }
    Py_XSETREF(self->isolation_level, level);
    Py_XSETREF(self->stmt_cache, PyDict_New());
    Py_XSETREF(self->row_factory, Py_NewRef(Py_None));
    Py_XSETREF(self->text_factory, Py_NewRef((PyObject *)&PyUnicode_Type));
    if (self->stmt_cache == NULL) {
        return -1;
    }
    self->cache_limit = cached < 0 ? 0 : cached;
    self->detect_types = detect_types;
    self->check_same_thread = check_same_thread;
    self->owner_thread = PyThread_get_thread_ident();
    self->autocommit = autocommit;
    self->initialized = 1;
    if (autocommit == 0) {
        return _PySqlite_ExecSimple(self, "BEGIN");
    }
    return 0;
}

static int
connection_traverse(PyObject *op, visitproc visit, void *arg)
{
    SqConnection *self = (SqConnection *)op;
    Py_VISIT(self->isolation_level);
    Py_VISIT(self->row_factory);
    Py_VISIT(self->text_factory);
    Py_VISIT(self->stmt_cache);
    Py_VISIT(self->authorizer);
    Py_VISIT(self->progress_handler);
    Py_VISIT(self->trace_callback);
    return 0;
}

static int
connection_clear(PyObject *op)
{
    SqConnection *self = (SqConnection *)op;
    if (self->db != NULL) {
        /* The hooks read their callables from here; unhook before they go. */
        sqlite3_set_authorizer(self->db, NULL, NULL);
        sqlite3_progress_handler(self->db, 0, NULL, NULL);
        sqlite3_trace_v2(self->db, 0, NULL, NULL);
    }
    Py_CLEAR(self->isolation_level);
    Py_CLEAR(self->row_factory);
    Py_CLEAR(self->text_factory);
    Py_CLEAR(self->stmt_cache);
    Py_CLEAR(self->authorizer);
    Py_CLEAR(self->progress_handler);
    Py_CLEAR(self->trace_callback);
    return 0;
}

/* A connection dropped while open is closed by dealloc; say so, as
   CPython 3.13 does, with a ResourceWarning (ignored by default). */
static void
connection_finalize(PyObject *op)
{
    SqConnection *self = (SqConnection *)op;
    if (self->db == NULL) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    if (PyErr_ResourceWarning(op, 1, "unclosed database in %R", op) < 0) {
        /* Late in finalization the warnings machinery may be gone; the
           close itself still happens. */
        PyErr_Clear();
    }
    PyErr_SetRaisedException(exc);
}

static void
connection_dealloc(PyObject *op)
{
    SqConnection *self = (SqConnection *)op;
    if (PyObject_CallFinalizerFromDealloc(op) < 0) {
        return;     /* the warning's handler kept it alive */
    }
    PyObject_GC_UnTrack(op);
    close_database(self);
    connection_clear(op);
    Py_TYPE(op)->tp_free(op);
}

/* ---- Transactions ---- */

static int
finish_transaction(SqConnection *self, const char *verb)
{
    if (self->autocommit == 1) {
        return 0;
    }
    if (self->autocommit == SQ_AUTOCOMMIT_LEGACY) {
        return in_transaction(self) ? _PySqlite_ExecSimple(self, verb) : 0;
    }
    /* autocommit=False: a transaction is always open; end it and start
       the next one. */
    if (in_transaction(self) && _PySqlite_ExecSimple(self, verb) < 0) {
        return -1;
    }
    return _PySqlite_ExecSimple(self, "BEGIN");
}

static PyObject *
connection_commit(PyObject *op, PyObject *unused)
{
    SqConnection *self = (SqConnection *)op;
    if (_PySqlite_CheckConnection(self) < 0
        || finish_transaction(self, "COMMIT") < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
connection_rollback(PyObject *op, PyObject *unused)
{
    SqConnection *self = (SqConnection *)op;
    if (_PySqlite_CheckConnection(self) < 0
        || finish_transaction(self, "ROLLBACK") < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
connection_close(PyObject *op, PyObject *unused)
{
    SqConnection *self = (SqConnection *)op;
    if (!self->initialized) {
        Py_RETURN_NONE;
    }
    if (_PySqlite_CheckThread(self) < 0) {
        return NULL;
    }
    if (self->db != NULL && self->autocommit == 0 && in_transaction(self)
        && _PySqlite_ExecSimple(self, "ROLLBACK") < 0) {
        return NULL;
    }
    close_database(self);
    Py_RETURN_NONE;
}

static PyObject *
connection_enter(PyObject *op, PyObject *unused)
{
    if (_PySqlite_CheckConnection((SqConnection *)op) < 0) {
        return NULL;
    }
    return Py_NewRef(op);
}

/* __exit__: commit when the block succeeded, else roll back; a failed
   commit is rolled back too and its error raised. */
static PyObject *
connection_exit(PyObject *op, PyObject *args)
{
    SqConnection *self = (SqConnection *)op;
    PyObject *exc_type, *exc_value, *tb;
    if (!PyArg_ParseTuple(args, "OOO:__exit__", &exc_type, &exc_value, &tb)) {
        return NULL;
    }
    if (_PySqlite_CheckConnection(self) < 0) {
        return NULL;
    }
    if (exc_type != Py_None) {
        if (finish_transaction(self, "ROLLBACK") < 0) {
            return NULL;
        }
        Py_RETURN_FALSE;
    }
    if (finish_transaction(self, "COMMIT") < 0) {
        PyObject *exc = PyErr_GetRaisedException();
        if (finish_transaction(self, "ROLLBACK") < 0) {
            PyErr_Clear();
        }
        PyErr_SetRaisedException(exc);
        return NULL;
    }
    Py_RETURN_FALSE;
}

/* ---- Cursors and the SQL shortcuts ---- */

static PyObject *
connection_cursor(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"factory", NULL};
    SqConnection *self = (SqConnection *)op;
    PyObject *factory = (PyObject *)&_PySqlite_CursorType;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:cursor", kwlist,
                                     &factory)) {
        return NULL;
    }
    if (_PySqlite_CheckConnection(self) < 0) {
        return NULL;
    }
    PyObject *cursor = PyObject_CallOneArg(factory, op);
    if (cursor == NULL) {
        return NULL;
    }
    if (!PyObject_TypeCheck(cursor, &_PySqlite_CursorType)) {
        PyErr_Format(PyExc_TypeError, "factory must return a cursor, not %.100s",
                     Py_TYPE(cursor)->tp_name);
        Py_DECREF(cursor);
        return NULL;
    }
    if (self->row_factory != NULL && self->row_factory != Py_None) {
        Py_XSETREF(((SqCursor *)cursor)->row_factory,
                   Py_NewRef(self->row_factory));
    }
    return cursor;
}

/* Connection.execute and friends: the cursor's method on a new cursor. */
static PyObject *
run_on_new_cursor(PyObject *op, const char *method, PyObject *args)
{
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL) {
        return NULL;
    }
    PyObject *cursor = connection_cursor(op, empty, NULL);
    Py_DECREF(empty);
    if (cursor == NULL) {
        return NULL;
    }
    PyObject *bound = PyObject_GetAttrString(cursor, method);
    PyObject *result = bound ? PyObject_Call(bound, args, NULL) : NULL;
    Py_XDECREF(bound);
    if (result == NULL) {
        Py_DECREF(cursor);
        return NULL;
    }
    Py_DECREF(result);
    return cursor;
}

static PyObject *
connection_execute(PyObject *op, PyObject *args)
{
    return run_on_new_cursor(op, "execute", args);
}

static PyObject *
connection_executemany(PyObject *op, PyObject *args)
{
    return run_on_new_cursor(op, "executemany", args);
}

static PyObject *
connection_executescript(PyObject *op, PyObject *args)
{
    return run_on_new_cursor(op, "executescript", args);
}

static PyObject *
connection_interrupt(PyObject *op, PyObject *unused)
{
    SqConnection *self = (SqConnection *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    sqlite3_interrupt(self->db);
    Py_RETURN_NONE;
}

/* iterdump(*, filter=None): the dump generator lives in sqlite3.dump. */
static PyObject *
connection_iterdump(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"filter", NULL};
    PyObject *filter = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O:iterdump", kwlist,
                                     &filter)) {
        return NULL;
    }
    /* No check here: the dump is a generator, and its cursor checks the
       connection when it first runs. */
    PyObject *dump_module = PyImport_ImportModule("sqlite3.dump");
    if (dump_module == NULL) {
        return NULL;
    }
    PyObject *dumper = PyObject_GetAttrString(dump_module, "_iterdump");
    Py_DECREF(dump_module);
    if (dumper == NULL) {
        return NULL;
    }
    PyObject *call_args = PyTuple_Pack(1, op);
    PyObject *call_kw = Py_BuildValue("{sO}", "filter", filter);
    PyObject *result = NULL;
    if (call_args != NULL && call_kw != NULL) {
        result = PyObject_Call(dumper, call_args, call_kw);
    }
    Py_XDECREF(call_args);
    Py_XDECREF(call_kw);
    Py_DECREF(dumper);
    return result;
}

/* ---- Attributes ---- */

static PyObject *
get_isolation_level(PyObject *op, void *closure)
{
    SqConnection *self = (SqConnection *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    return Py_NewRef(self->isolation_level);
}

static int
set_isolation_level(PyObject *op, PyObject *value, void *closure)
{
    SqConnection *self = (SqConnection *)op;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete attribute");
        return -1;
    }
    if (_PySqlite_CheckConnection(self) < 0) {
        return -1;
    }
    PyObject *level = checked_isolation_level(value);
    if (level == NULL) {
        return -1;
    }
    /* Leaving the implicit-transaction mode ends the one it opened. */
    if (level == Py_None && self->autocommit == SQ_AUTOCOMMIT_LEGACY
        && in_transaction(self) && _PySqlite_ExecSimple(self, "COMMIT") < 0) {
        Py_DECREF(level);
        return -1;
    }
    Py_SETREF(self->isolation_level, level);
    return 0;
}

static PyObject *
get_autocommit(PyObject *op, void *closure)
{
    SqConnection *self = (SqConnection *)op;
    if (_PySqlite_CheckConnection(self) < 0) {
        return NULL;
    }
    if (self->autocommit == SQ_AUTOCOMMIT_LEGACY) {
        return PyLong_FromLong(SQ_AUTOCOMMIT_LEGACY);
    }
    return PyBool_FromLong(self->autocommit);
}

static int
set_autocommit(PyObject *op, PyObject *value, void *closure)
{
    SqConnection *self = (SqConnection *)op;
    int mode;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete attribute");
        return -1;
    }
    if (_PySqlite_CheckConnection(self) < 0
        || checked_autocommit(value, &mode) < 0) {
        return -1;
    }
    self->autocommit = mode;
    if (mode == 1 && in_transaction(self)) {
        return _PySqlite_ExecSimple(self, "COMMIT");
    }
    if (mode == 0 && !in_transaction(self)) {
        return _PySqlite_ExecSimple(self, "BEGIN");
    }
    return 0;
}

static PyObject *
get_in_transaction(PyObject *op, void *closure)
{
    SqConnection *self = (SqConnection *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    return PyBool_FromLong(in_transaction(self));
}

static PyObject *
get_total_changes(PyObject *op, void *closure)
{
    SqConnection *self = (SqConnection *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    return PyLong_FromLong(sqlite3_total_changes(self->db));
}

/* The exception classes, reachable from connections as PEP 249 suggests;
   the closure is the class's slot in the module state. */
static PyObject *
get_exception_class(PyObject *op, void *closure)
{
    return Py_NewRef(*(PyObject **)closure);
}

#define EXCEPTION_ATTR(name) \
    {#name, get_exception_class, NULL, NULL, &_PySqlite_State.name}

static PyGetSetDef connection_getset[] = {
    {"isolation_level", get_isolation_level, set_isolation_level,
     "The BEGIN variant of implicit transactions, or None.", NULL},
    {"autocommit", get_autocommit, set_autocommit,
     "PEP 249 transaction control mode.", NULL},
    {"in_transaction", get_in_transaction, NULL,
     "True while a transaction is open.", NULL},
    {"total_changes", get_total_changes, NULL,
     "Rows changed since the connection opened.", NULL},
    EXCEPTION_ATTR(Warning),
    EXCEPTION_ATTR(Error),
    EXCEPTION_ATTR(InterfaceError),
    EXCEPTION_ATTR(DatabaseError),
    EXCEPTION_ATTR(DataError),
    EXCEPTION_ATTR(OperationalError),
    EXCEPTION_ATTR(IntegrityError),
    EXCEPTION_ATTR(InternalError),
    EXCEPTION_ATTR(ProgrammingError),
    EXCEPTION_ATTR(NotSupportedError),
    {NULL},
};

static PyMemberDef connection_members[] = {
    {"row_factory", _Py_T_OBJECT, offsetof(SqConnection, row_factory), 0,
     "Callable(cursor, row) building result rows; None for tuples."},
    {"text_factory", _Py_T_OBJECT, offsetof(SqConnection, text_factory), 0,
     "Callable turning TEXT values (as bytes) into objects."},
    {NULL},
};

#define METHOD(name, fn, flags, doc) \
    {name, (PyCFunction)(void (*)(void))(fn), flags, doc}

static PyMethodDef connection_methods[] = {
    METHOD("cursor", connection_cursor, METH_VARARGS | METH_KEYWORDS,
           "Return a new cursor (made by factory)."),
    METHOD("execute", connection_execute, METH_VARARGS,
           "Run one statement on a new cursor and return the cursor."),
    METHOD("executemany", connection_executemany, METH_VARARGS,
           "Run one statement per parameter set on a new cursor."),
    METHOD("executescript", connection_executescript, METH_VARARGS,
           "Run a script of statements on a new cursor."),
    METHOD("commit", connection_commit, METH_NOARGS,
           "Commit the open transaction, if any."),
    METHOD("rollback", connection_rollback, METH_NOARGS,
           "Roll the open transaction back, if any."),
    METHOD("close", connection_close, METH_NOARGS,
           "Close the database; pending changes are not committed."),
    METHOD("interrupt", connection_interrupt, METH_NOARGS,
           "Abort the queries running on this connection."),
    METHOD("iterdump", connection_iterdump, METH_VARARGS | METH_KEYWORDS,
           "Iterate over an SQL text dump of the database."),
    METHOD("__enter__", connection_enter, METH_NOARGS,
           "Start a with block: the connection itself."),
    METHOD("__exit__", connection_exit, METH_VARARGS,
           "End a with block: commit on success, roll back on error."),
    METHOD("create_function", _PySqlite_CreateFunction,
           METH_VARARGS | METH_KEYWORDS, "Register an SQL scalar function."),
    METHOD("create_aggregate", _PySqlite_CreateAggregate,
           METH_VARARGS | METH_KEYWORDS, "Register an SQL aggregate class."),
    METHOD("create_window_function", _PySqlite_CreateWindowFunction,
           METH_VARARGS, "Register an SQL aggregate window function class."),
    METHOD("create_collation", _PySqlite_CreateCollation, METH_VARARGS,
           "Register (or with None remove) a collation."),
    METHOD("set_authorizer", _PySqlite_SetAuthorizer,
           METH_VARARGS | METH_KEYWORDS,
           "Install a callable that allows or denies each access."),
    METHOD("set_progress_handler", _PySqlite_SetProgressHandler,
           METH_VARARGS | METH_KEYWORDS,
           "Call a handler every n virtual machine steps; true aborts."),
    METHOD("set_trace_callback", _PySqlite_SetTraceCallback,
           METH_VARARGS | METH_KEYWORDS,
           "Call a callable with the text of each statement run."),
    METHOD("enable_load_extension", _PySqlite_EnableLoadExtension, METH_O,
           "Allow or forbid loading SQLite extensions."),
    METHOD("load_extension", _PySqlite_LoadExtension,
           METH_VARARGS | METH_KEYWORDS, "Load an SQLite extension library."),
    METHOD("backup", _PySqlite_Backup, METH_VARARGS | METH_KEYWORDS,
           "Copy this database into another connection's."),
    METHOD("blobopen", _PySqlite_OpenBlob, METH_VARARGS | METH_KEYWORDS,
           "Open a Blob on one cell of a table."),
    METHOD("getlimit", _PySqlite_GetLimit, METH_VARARGS,
           "Return a run-time limit of the connection."),
    METHOD("setlimit", _PySqlite_SetLimit, METH_VARARGS,
           "Set a run-time limit; return its previous value."),
    METHOD("getconfig", _PySqlite_GetConfig, METH_VARARGS,
           "Return a boolean connection option."),
    METHOD("setconfig", _PySqlite_SetConfig, METH_VARARGS,
           "Set a boolean connection option."),
    METHOD("serialize", _PySqlite_Serialize, METH_VARARGS | METH_KEYWORDS,
           "Return the database's content as bytes."),
    METHOD("deserialize", _PySqlite_Deserialize, METH_VARARGS | METH_KEYWORDS,
           "Replace the database's content with the given bytes."),
    {NULL},
};

#undef METHOD

/* con(sql): compile SQL into a Statement without running it (an old,
   undocumented API some programs and CPython's tests still use).  The
   statement comes back unclaimed, as no cursor reads its rows. */
static PyObject *
connection_call(PyObject *op, PyObject *args, PyObject *kwargs)
{
    SqConnection *self = (SqConnection *)op;
    PyObject *sql;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError,
                        "sqlite3.Connection() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "U", &sql)
        || _PySqlite_CheckConnection(self) < 0) {
        return NULL;
    }
    SqStatement *stmt = _PySqlite_GetStatement(self, sql);
    if (stmt != NULL) {
        stmt->in_use = 0;
    }
    return (PyObject *)stmt;
}

PyTypeObject _PySqlite_ConnectionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sqlite3.Connection",
    .tp_basicsize = sizeof(SqConnection),
    .tp_dealloc = connection_dealloc,
    .tp_call = connection_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A connection to an SQLite database.",
    .tp_traverse = connection_traverse,
    .tp_clear = connection_clear,
    .tp_methods = connection_methods,
    .tp_members = connection_members,
    .tp_getset = connection_getset,
    .tp_init = connection_init,
    .tp_new = PyType_GenericNew,
    .tp_finalize = connection_finalize,
};
