/* sqlite3.Cursor: executing statements (one parameter set, many, or a
   script), turning result columns into Python values through the
   converters and the text factory, fetching rows through the row factory,
   and the DB-API attributes (description, rowcount, lastrowid,
   arraysize). */

#include "module.h"

/* ---- State checks ---- */

/* A converter or adapter run by this cursor must not use it again. */
static int
refuse_reentry(SqCursor *self)
{
    if (self->locked) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Recursive use of cursors not allowed.");
        return -1;
    }
    return 0;
}

static int
check_cursor(SqCursor *self)
{
    if (!self->initialized) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Base Cursor.__init__ not called.");
        return -1;
    }
    if (_PySqlite_CheckConnection(self->connection) < 0) {
        return -1;
    }
    if (self->closed) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Cannot operate on a closed cursor.");
        return -1;
    }
    return refuse_reentry(self);
}

/* Stop reading the current statement's rows (leaving it reusable). */
static void
drop_statement(SqCursor *self)
{
    if (self->statement != NULL && self->has_row) {
        _PySqlite_StatementReset(self->statement);
    }
    self->has_row = 0;
    Py_CLEAR(self->statement);
}

/* ---- Column names and converters ---- */

/* The description's name for a column: with PARSE_COLNAMES, the text
   before a "[type]" suffix (and the one space separating them). */
static PyObject *
column_name(SqCursor *self, int i)
{
    const char *name = sqlite3_column_name(self->statement->st, i);
    if (name == NULL) {
        return PyErr_NoMemory();
    }
    size_t len = strlen(name);
    if (self->connection->detect_types & SQ_PARSE_COLNAMES) {
        const char *bracket = strchr(name, '[');
        if (bracket != NULL) {
            len = (size_t)(bracket - name);
            if (len > 0 && name[len - 1] == ' ') {
                len--;
            }
        }
    }
    return PyUnicode_FromStringAndSize(name, (Py_ssize_t)len);
}

/* The converter registered under a type name (case-insensitively);
   borrowed, NULL when none (error set only on failure). */
static PyObject *
find_converter(const char *type_name, Py_ssize_t len)
{
    PyObject *name = PyUnicode_FromStringAndSize(type_name, len);
    if (name == NULL) {
        return NULL;
    }
    PyObject *key = PyObject_CallMethod(name, "upper", NULL);
    Py_DECREF(name);
    if (key == NULL) {
        return NULL;
    }
    PyObject *converter = PyDict_GetItemWithError(SQ->converters, key);
    Py_DECREF(key);
    return converter;
}

/* PARSE_COLNAMES: the name inside "[...]" of the column's name. */
static PyObject *
converter_from_colname(const char *colname)
{
    const char *open = colname ? strchr(colname, '[') : NULL;
    const char *close = open ? strchr(open, ']') : NULL;
    if (close == NULL) {
        return NULL;
    }
    return find_converter(open + 1, close - open - 1);
}

/* PARSE_DECLTYPES: the first word of the declared type. */
static PyObject *
converter_from_decltype(const char *decltype)
{
    if (decltype == NULL) {
        return NULL;
    }
    size_t len = strcspn(decltype, " (");
    return find_converter(decltype, (Py_ssize_t)len);
}

static int
build_converters(SqCursor *self, int ncols)
{
    int detect = self->connection->detect_types;
    Py_CLEAR(self->converters);
    if (!(detect & (SQ_PARSE_COLNAMES | SQ_PARSE_DECLTYPES))) {
        return 0;
    }
    PyObject *list = PyList_New(ncols);
    if (list == NULL) {
        return -1;
    }
    sqlite3_stmt *st = self->statement->st;
    for (int i = 0; i < ncols; i++) {
        PyObject *converter = NULL;
        if (detect & SQ_PARSE_COLNAMES) {
            converter = converter_from_colname(sqlite3_column_name(st, i));
        }
        if (converter == NULL && !PyErr_Occurred()
            && (detect & SQ_PARSE_DECLTYPES)) {
            converter = converter_from_decltype(sqlite3_column_decltype(st, i));
        }
        if (PyErr_Occurred()) {
            Py_DECREF(list);
            return -1;
        }
        PyList_SET_ITEM(list, i, Py_NewRef(converter ? converter : Py_None));
    }
    self->converters = list;
    return 0;
}

static int
build_description(SqCursor *self)
{
    Py_CLEAR(self->description);
    int ncols = sqlite3_column_count(self->statement->st);
    if (ncols == 0) {
        return 0;
    }
    PyObject *desc = PyTuple_New(ncols);
    if (desc == NULL) {
        return -1;
    }
    for (int i = 0; i < ncols; i++) {
        PyObject *name = column_name(self, i);
        PyObject *entry = name ? PyTuple_Pack(7, name, Py_None, Py_None,
                                              Py_None, Py_None, Py_None,
                                              Py_None) : NULL;
        Py_XDECREF(name);
        if (entry == NULL) {
            Py_DECREF(desc);
            return -1;
        }
        PyTuple_SET_ITEM(desc, i, entry);
    }
    self->description = desc;
    return build_converters(self, ncols);
}

/* ---- Column values ---- */

static PyObject *
text_value(SqCursor *self, int i)
{
    sqlite3_stmt *st = self->statement->st;
    const char *text = (const char *)sqlite3_column_text(st, i);
    Py_ssize_t n = sqlite3_column_bytes(st, i);
    PyObject *factory = self->connection->text_factory;
    if (text == NULL) {
        return PyErr_NoMemory();
    }
    if (factory == NULL || factory == (PyObject *)&PyUnicode_Type) {
        PyObject *value = PyUnicode_DecodeUTF8(text, n, NULL);
        if (value == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
            PyErr_Clear();
            PyObject *shown = PyUnicode_DecodeUTF8(text, n, "replace");
            if (shown != NULL) {
                PyErr_Format(SQ->OperationalError,
                             "Could not decode to UTF-8 column '%s' with "
                             "text '%U'", sqlite3_column_name(st, i), shown);
                Py_DECREF(shown);
            }
        }
        return value;
    }
    if (factory == (PyObject *)&PyBytes_Type) {
        return PyBytes_FromStringAndSize(text, n);
    }
    if (factory == (PyObject *)&PyByteArray_Type) {
        return PyByteArray_FromStringAndSize(text, n);
    }
    PyObject *raw = PyBytes_FromStringAndSize(text, n);
    if (raw == NULL) {
        return NULL;
    }
    PyObject *value = PyObject_CallOneArg(factory, raw);
    Py_DECREF(raw);
    return value;
}

static PyObject *
blob_value(sqlite3_stmt *st, int i)
{
    const void *data = sqlite3_column_blob(st, i);
    Py_ssize_t n = sqlite3_column_bytes(st, i);
    if (data == NULL && n > 0) {
        return PyErr_NoMemory();
    }
    return PyBytes_FromStringAndSize(data ? data : "", n);
}

static PyObject *
column_value(SqCursor *self, int i)
{
    sqlite3_stmt *st = self->statement->st;
    int type = sqlite3_column_type(st, i);
    PyObject *converter = self->converters
                          ? PyList_GET_ITEM(self->converters, i) : Py_None;
    if (converter != Py_None && type != SQLITE_NULL) {
        PyObject *raw = blob_value(st, i);
        if (raw == NULL) {
            return NULL;
        }
        PyObject *value = PyObject_CallOneArg(converter, raw);
        Py_DECREF(raw);
        return value;
    }
    switch (type) {
    case SQLITE_NULL:
        Py_RETURN_NONE;
    case SQLITE_INTEGER:
        return PyLong_FromLongLong(sqlite3_column_int64(st, i));
    case SQLITE_FLOAT:
        return PyFloat_FromDouble(sqlite3_column_double(st, i));
    case SQLITE_TEXT:
        return text_value(self, i);
    default:
        return blob_value(st, i);
    }
}

static PyObject *
current_row(SqCursor *self)
{
    int ncols = sqlite3_data_count(self->statement->st);
    PyObject *row = PyTuple_New(ncols);
    if (row == NULL) {
        return NULL;
    }
    for (int i = 0; i < ncols; i++) {
        PyObject *value = column_value(self, i);
        if (value == NULL) {
            Py_DECREF(row);
            return NULL;
        }
        PyTuple_SET_ITEM(row, i, value);
    }
    return row;
}

/* ---- Stepping ---- */

/* Step the current statement and record what it produced; -1 with the
   error raised (and the statement reset) on failure. */
static int
advance(SqCursor *self)
{
    SqStatement *stmt = self->statement;
    int rc = _PySqlite_Step(stmt->st);
    if (rc == SQLITE_ROW) {
        self->has_row = 1;
        stmt->in_use = 1;
        return 0;
    }
    self->has_row = 0;
    if (rc == SQLITE_DONE) {
        if (stmt->is_dml) {
            self->rowcount += sqlite3_changes(self->connection->db);
        }
        _PySqlite_StatementReset(stmt);
        return 0;
    }
    if (!PyErr_Occurred()) {
        _PySqlite_RaiseFromDb(self->connection->db);
    }
    _PySqlite_StatementReset(stmt);
    return -1;
}

/* One fetched row through the row factory; NULL without an error when
   the rows are exhausted. */
static PyObject *
next_row(SqCursor *self)
{
    if (!self->has_row) {
        return NULL;
    }
    self->locked = 1; /* the converters are Python code */
    PyObject *row = current_row(self);
    self->locked = 0;
    if (row == NULL) {
        return NULL;
    }
    if (advance(self) < 0) {
        Py_DECREF(row);
        return NULL;
    }
    if (self->row_factory != NULL && self->row_factory != Py_None) {
        PyObject *made = PyObject_CallFunctionObjArgs(
            self->row_factory, (PyObject *)self, row, NULL);
        Py_DECREF(row);
        return made;
    }
    return row;
}

/* ---- Executing ---- */

static int
run_once(SqCursor *self, PyObject *params)
{
    SqStatement *stmt = self->statement;
    _PySqlite_StatementReset(stmt);
    stmt->in_use = 1;
    if (_PySqlite_BindParameters(stmt, params) < 0) {
        return -1;
    }
    return advance(self);
}

static int
run_many(SqCursor *self, PyObject *param_sets)
{
    PyObject *it = PyObject_GetIter(param_sets);
    if (it == NULL) {
        return -1;
    }
    PyObject *params;
    int rc = 0;
    while (rc == 0 && (params = PyIter_Next(it)) != NULL) {
        rc = run_once(self, params);
        Py_DECREF(params);
        if (rc == 0 && self->has_row) {
            /* DML ... RETURNING: executemany discards the rows. */
            _PySqlite_StatementReset(self->statement);
            self->has_row = 0;
        }
    }
    Py_DECREF(it);
    return (rc < 0 || PyErr_Occurred()) ? -1 : 0;
}

static int
execute_statement(SqCursor *self, PyObject *sql, PyObject *params, int many)
{
    SqStatement *stmt = _PySqlite_GetStatement(self->connection, sql);
    if (stmt == NULL) {
        return -1;
    }
    self->statement = stmt;
    if (stmt->st == NULL) {
        return 0;
    }
    if (many && !stmt->is_dml) {
        PyErr_SetString(SQ->ProgrammingError,
                        "executemany() can only execute DML statements.");
        return -1;
    }
    if (stmt->is_dml) {
        if (_PySqlite_BeginIfLegacy(self->connection) < 0) {
            return -1;
        }
        self->rowcount = 0;
    }
    if (build_description(self) < 0) {
        return -1;
    }
    if ((many ? run_many(self, params) : run_once(self, params)) < 0) {
        return -1;
    }
    if (!many) {
        Py_XSETREF(self->lastrowid, PyLong_FromLongLong(
            sqlite3_last_insert_rowid(self->connection->db)));
        if (self->lastrowid == NULL) {
            return -1;
        }
    }
    return 0;
}

PyObject *
_PySqlite_CursorExecute(SqCursor *self, PyObject *sql, PyObject *params,
                        int many)
{
    if (check_cursor(self) < 0) {
        return NULL;
    }
    if (self->locked) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Recursive use of cursors not allowed.");
        return NULL;
    }
    drop_statement(self);
    Py_CLEAR(self->description);
    Py_CLEAR(self->converters);
    self->rowcount = -1;
    self->locked = 1;
    int rc = execute_statement(self, sql, params, many);
    self->locked = 0;
    if (rc < 0) {
        if (self->statement != NULL && self->statement->st != NULL) {
            self->has_row = 0;
            _PySqlite_StatementReset(self->statement);
        }
        return NULL;
    }
    return Py_NewRef(self);
}

static PyObject *
cursor_execute(PyObject *op, PyObject *args)
{
    PyObject *sql, *params = NULL;
    if (!PyArg_ParseTuple(args, "U|O:execute", &sql, &params)) {
        return NULL;
    }
    return _PySqlite_CursorExecute((SqCursor *)op, sql, params, 0);
}

static PyObject *
cursor_executemany(PyObject *op, PyObject *args)
{
    PyObject *sql, *param_sets;
    if (!PyArg_ParseTuple(args, "UO:executemany", &sql, &param_sets)) {
        return NULL;
    }
    return _PySqlite_CursorExecute((SqCursor *)op, sql, param_sets, 1);
}

/* Run each statement of a script to completion, in order. */
static int
run_script(SqConnection *con, const char *sql)
{
    while (*sql != '\0') {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = sqlite3_prepare_v2(con->db, sql, -1, &st, &tail);
        if (rc == SQLITE_OK && st != NULL) {
            do {
                rc = sqlite3_step(st);
            } while (rc == SQLITE_ROW);
            if (rc == SQLITE_DONE) {
                rc = SQLITE_OK;
            }
        }
        Py_END_ALLOW_THREADS
        if (rc != SQLITE_OK) {
            _PySqlite_RaiseFromDb(con->db);
            sqlite3_finalize(st);
            return -1;
        }
        sqlite3_finalize(st);
        sql = tail;
    }
    return 0;
}

static PyObject *
cursor_executescript(PyObject *op, PyObject *script)
{
    SqCursor *self = (SqCursor *)op;
    if (!PyUnicode_Check(script)) {
        PyErr_Format(PyExc_TypeError,
                     "executescript() argument must be str, not %.100s",
                     Py_TYPE(script)->tp_name);
        return NULL;
    }
    if (check_cursor(self) < 0) {
        return NULL;
    }
    Py_ssize_t size;
    const char *sql = PyUnicode_AsUTF8AndSize(script, &size);
    if (sql == NULL) {
        return NULL;
    }
    if ((Py_ssize_t)strlen(sql) != size) {
        PyErr_SetString(PyExc_ValueError, "embedded null character");
        return NULL;
    }
    SqConnection *con = self->connection;
    if (size > sqlite3_limit(con->db, SQLITE_LIMIT_SQL_LENGTH, -1)) {
        PyErr_SetString(SQ->DataError, "query string is too large");
        return NULL;
    }
    drop_statement(self);
    if (con->autocommit == SQ_AUTOCOMMIT_LEGACY
        && !sqlite3_get_autocommit(con->db)
        && _PySqlite_ExecSimple(con, "COMMIT") < 0) {
        return NULL;
    }
    if (run_script(con, sql) < 0) {
        return NULL;
    }
    return Py_NewRef(op);
}

/* ---- Fetching ---- */

static PyObject *
cursor_fetchone(PyObject *op, PyObject *unused)
{
    SqCursor *self = (SqCursor *)op;
    if (check_cursor(self) < 0) {
        return NULL;
    }
    PyObject *row = next_row(self);
    if (row == NULL && !PyErr_Occurred()) {
        Py_RETURN_NONE;
    }
    return row;
}

/* Up to `limit` rows (all when limit < 0) as a list. */
static PyObject *
fetch_rows(SqCursor *self, Py_ssize_t limit)
{
    if (check_cursor(self) < 0) {
        return NULL;
    }
    PyObject *rows = PyList_New(0);
    if (rows == NULL) {
        return NULL;
    }
    for (Py_ssize_t n = 0; limit < 0 || n < limit; n++) {
        PyObject *row = next_row(self);
        if (row == NULL) {
            if (PyErr_Occurred()) {
                Py_CLEAR(rows);
            }
            break;
        }
        int rc = PyList_Append(rows, row);
        Py_DECREF(row);
        if (rc < 0) {
            Py_CLEAR(rows);
            break;
        }
    }
    return rows;
}

static PyObject *
cursor_fetchmany(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"size", NULL};
    SqCursor *self = (SqCursor *)op;
    Py_ssize_t size = self->arraysize;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|n:fetchmany", kwlist,
                                     &size)) {
        return NULL;
    }
    return fetch_rows(self, size);
}

static PyObject *
cursor_fetchall(PyObject *op, PyObject *unused)
{
    return fetch_rows((SqCursor *)op, -1);
}

static PyObject *
cursor_iternext(PyObject *op)
{
    SqCursor *self = (SqCursor *)op;
    if (check_cursor(self) < 0) {
        return NULL;
    }
    return next_row(self);
}

static PyObject *
cursor_close(PyObject *op, PyObject *unused)
{
    SqCursor *self = (SqCursor *)op;
    if (!self->initialized) {
        PyErr_SetString(SQ->ProgrammingError,
                        "Base Cursor.__init__ not called.");
        return NULL;
    }
    if (_PySqlite_CheckThread(self->connection) < 0 || refuse_reentry(self) < 0) {
        return NULL;
    }
    drop_statement(self);
    self->closed = 1;
    Py_RETURN_NONE;
}

/* PEP 249 asks for these; sqlite needs no size hints. */
static PyObject *
cursor_setinputsizes(PyObject *op, PyObject *sizes)
{
    Py_RETURN_NONE;
}

static PyObject *
cursor_setoutputsize(PyObject *op, PyObject *args)
{
    PyObject *size, *column = Py_None;
    if (!PyArg_ParseTuple(args, "O|O:setoutputsize", &size, &column)) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Life cycle ---- */

static int
cursor_init(PyObject *op, PyObject *args, PyObject *kwargs)
{
    SqCursor *self = (SqCursor *)op;
    PyObject *con;
    if (!PyArg_ParseTuple(args, "O!:Cursor", &_PySqlite_ConnectionType,
                          &con)
        || refuse_reentry(self) < 0) {
        return -1;
    }
    drop_statement(self);
    Py_XSETREF(self->connection, (SqConnection *)Py_NewRef(con));
    Py_CLEAR(self->description);
    Py_CLEAR(self->converters);
    Py_XSETREF(self->row_factory, Py_NewRef(Py_None));
    Py_XSETREF(self->lastrowid, Py_NewRef(Py_None));
    self->arraysize = 1;
    self->rowcount = -1;
    self->closed = 0;
    self->initialized = 1;
    return 0;
}

static int
cursor_traverse(PyObject *op, visitproc visit, void *arg)
{
    SqCursor *self = (SqCursor *)op;
    Py_VISIT(self->connection);
    Py_VISIT(self->description);
    Py_VISIT(self->row_factory);
    Py_VISIT(self->lastrowid);
    Py_VISIT(self->converters);
    return 0;
}

static int
cursor_clear(PyObject *op)
{
    SqCursor *self = (SqCursor *)op;
    drop_statement(self);
    Py_CLEAR(self->connection);
    Py_CLEAR(self->description);
    Py_CLEAR(self->row_factory);
    Py_CLEAR(self->lastrowid);
    Py_CLEAR(self->converters);
    return 0;
}

static void
cursor_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    if (((SqCursor *)op)->weakrefs != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    cursor_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static PyMethodDef cursor_methods[] = {
    {"execute", cursor_execute, METH_VARARGS,
     "Run one SQL statement with optional parameters."},
    {"executemany", cursor_executemany, METH_VARARGS,
     "Run one DML statement for each parameter set of an iterable."},
    {"executescript", cursor_executescript, METH_O,
     "Run several SQL statements; commits first in legacy mode."},
    {"fetchone", cursor_fetchone, METH_NOARGS,
     "The next result row, or None."},
    {"fetchmany", (PyCFunction)(void (*)(void))cursor_fetchmany,
     METH_VARARGS | METH_KEYWORDS,
     "A list of up to size (default arraysize) further rows."},
    {"fetchall", cursor_fetchall, METH_NOARGS, "A list of the remaining rows."},
    {"close", cursor_close, METH_NOARGS, "Close the cursor."},
    {"setinputsizes", cursor_setinputsizes, METH_O, "Accepted and unused."},
    {"setoutputsize", cursor_setoutputsize, METH_VARARGS,
     "Accepted and unused."},
    {NULL},
};

static PyMemberDef cursor_members[] = {
    {"connection", _Py_T_OBJECT, offsetof(SqCursor, connection), Py_READONLY,
     "The connection the cursor runs on."},
    {"description", _Py_T_OBJECT, offsetof(SqCursor, description),
     Py_READONLY, "Column names of the last query, as 7-tuples."},
    {"lastrowid", _Py_T_OBJECT, offsetof(SqCursor, lastrowid), Py_READONLY,
     "Row id of the last inserted row."},
    {"rowcount", Py_T_LONGLONG, offsetof(SqCursor, rowcount), Py_READONLY,
     "Rows changed by the last DML statement, else -1."},
    {"arraysize", Py_T_PYSSIZET, offsetof(SqCursor, arraysize), 0,
     "Rows fetchmany() returns by default."},
    {"row_factory", _Py_T_OBJECT, offsetof(SqCursor, row_factory), 0,
     "Callable(cursor, row) building the rows, or None."},
    {NULL},
};

PyTypeObject _PySqlite_CursorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sqlite3.Cursor",
    .tp_basicsize = sizeof(SqCursor),
    .tp_weaklistoffset = offsetof(SqCursor, weakrefs),
    .tp_dealloc = cursor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A cursor running statements and fetching their rows.",
    .tp_traverse = cursor_traverse,
    .tp_clear = cursor_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = cursor_iternext,
    .tp_methods = cursor_methods,
    .tp_members = cursor_members,
    .tp_init = cursor_init,
    .tp_new = PyType_GenericNew,
};
