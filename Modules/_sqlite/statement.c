/* Prepared statements: the Statement wrapper around sqlite3_stmt, the
   per-connection cache of them (a dict kept in last-use order, so its
   first key is the one to evict), parameter binding and stepping. */

#include "module.h"

static void
statement_dealloc(PyObject *op)
{
    SqStatement *self = (SqStatement *)op;
    if (self->st != NULL) {
        sqlite3_finalize(self->st);
    }
    Py_TYPE(op)->tp_free(op);
}

PyTypeObject _PySqlite_StatementType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sqlite3.Statement",
    .tp_basicsize = sizeof(SqStatement),
    .tp_dealloc = statement_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
};

/* ---- Looking at SQL text ---- */

/* Skip whitespace and SQL comments; returns the first significant byte
   (the terminating NUL when only comments remain). */
static const char *
skip_insignificant(const char *p)
{
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'
               || *p == '\f') {
            p++;
        }
        if (p[0] == '-' && p[1] == '-') {
            while (*p != '\0' && *p != '\n') {
                p++;
            }
        }
        else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            if (end == NULL) {
                return p + strlen(p);
            }
            p = end + 2;
        }
        else {
            return p;
        }
    }
}

/* Whether `text` starts with the lower-case ASCII word `word`, in any case. */
static int
starts_with_word(const char *text, const char *word)
{
    for (; *word != '\0'; text++, word++) {
        char c = *text;
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (c != *word) {
            return 0;
        }
    }
    return 1;
}

int
_PySqlite_StatementIsDml(const char *sql)
{
    static const char *const verbs[] = {"insert", "update", "delete",
                                        "replace"};
    const char *p = skip_insignificant(sql);
    for (size_t i = 0; i < Py_ARRAY_LENGTH(verbs); i++) {
        if (starts_with_word(p, verbs[i])) {
            return 1;
        }
    }
    return 0;
}

/* ---- Preparing and caching ---- */

static SqStatement *
prepare_statement(SqConnection *con, const char *sql, Py_ssize_t size)
{
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_prepare_v2(con->db, sql, (int)size + 1, &st, &tail);
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        return (SqStatement *)_PySqlite_RaiseFromDb(con->db);
    }
    if (*skip_insignificant(tail) != '\0') {
        sqlite3_finalize(st);
        PyErr_SetString(SQ->ProgrammingError,
                        "You can only execute one statement at a time.");
        return NULL;
    }
    SqStatement *stmt = PyObject_New(SqStatement, &_PySqlite_StatementType);
    if (stmt == NULL) {
        sqlite3_finalize(st);
        return NULL;
    }
    stmt->st = st;
    stmt->is_dml = _PySqlite_StatementIsDml(sql);
    stmt->in_use = 0;
    return stmt;
}

/* Take `stmt` out of the cache order and put it back last (most recent). */
static int
touch_cached(SqConnection *con, PyObject *sql, SqStatement *stmt)
{
    Py_INCREF(stmt);
    int rc = PyDict_DelItem(con->stmt_cache, sql) < 0
             || PyDict_SetItem(con->stmt_cache, sql, (PyObject *)stmt) < 0;
    Py_DECREF(stmt);
    return rc ? -1 : 0;
}

static int
remember_statement(SqConnection *con, PyObject *sql, SqStatement *stmt)
{
    if (PyDict_SetItem(con->stmt_cache, sql, (PyObject *)stmt) < 0) {
        return -1;
    }
    while (PyDict_GET_SIZE(con->stmt_cache) > con->cache_limit) {
        Py_ssize_t pos = 0;
        PyObject *oldest, *value;
        if (!PyDict_Next(con->stmt_cache, &pos, &oldest, &value)) {
            break;
        }
        if (PyDict_DelItem(con->stmt_cache, oldest) < 0) {
            return -1;
        }
    }
    return 0;
}

SqStatement *
_PySqlite_GetStatement(SqConnection *con, PyObject *sql)
{
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(sql, &size);
    if (text == NULL) {
        return NULL;
    }
    if ((Py_ssize_t)strlen(text) != size) {
        PyErr_SetString(SQ->ProgrammingError,
                        "the query contains a null character");
        return NULL;
    }
    if (size > sqlite3_limit(con->db, SQLITE_LIMIT_SQL_LENGTH, -1)) {
        PyErr_SetString(SQ->DataError, "query string is too large");
        return NULL;
    }
    int caching = con->cache_limit > 0 && con->stmt_cache != NULL;
    if (caching) {
        PyObject *hit = PyDict_GetItemWithError(con->stmt_cache, sql);
        if (hit != NULL && !((SqStatement *)hit)->in_use) {
            SqStatement *stmt = (SqStatement *)Py_NewRef(hit);
            if (touch_cached(con, sql, stmt) < 0) {
                Py_DECREF(stmt);
                return NULL;
            }
            _PySqlite_StatementReset(stmt);
            stmt->in_use = 1;
            return stmt;
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    SqStatement *stmt = prepare_statement(con, text, size);
    if (stmt != NULL && caching && remember_statement(con, sql, stmt) < 0) {
        Py_CLEAR(stmt);
    }
    if (stmt != NULL) {
        /* Claimed until its run ends: another thread executing the same
           SQL meanwhile (the GIL is released while stepping) gets a
           statement of its own. */
        stmt->in_use = stmt->st != NULL;
    }
    return stmt;
}

void
_PySqlite_ClearCache(SqConnection *con)
{
    if (con->stmt_cache != NULL) {
        PyDict_Clear(con->stmt_cache);
    }
}

void
_PySqlite_StatementReset(SqStatement *stmt)
{
    if (stmt->st != NULL) {
        sqlite3_reset(stmt->st);
        sqlite3_clear_bindings(stmt->st);
    }
    stmt->in_use = 0;
}

int
_PySqlite_Step(sqlite3_stmt *st)
{
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_step(st);
    Py_END_ALLOW_THREADS
    return rc;
}

/* ---- Binding ---- */

/* Whether binding `obj` may skip the adaptation hooks: exact built-in
   values with no adapter registered for their type. */
static int
binds_directly(PyObject *obj)
{
    return obj == Py_None || PyLong_CheckExact(obj) || PyFloat_CheckExact(obj)
           || PyUnicode_CheckExact(obj) || PyBytes_CheckExact(obj)
           || PyByteArray_CheckExact(obj);
}

static int
bind_buffer(sqlite3_stmt *st, int index, PyObject *value)
{
    Py_buffer view;
    if (PyObject_GetBuffer(value, &view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    int rc = -1;
    if (view.len > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "BLOB longer than INT_MAX bytes");
    }
    else {
        rc = sqlite3_bind_blob(st, index, view.buf, (int)view.len,
                               SQLITE_TRANSIENT);
    }
    PyBuffer_Release(&view);
    return rc;
}

/* Bind a value that needs no adapting.  Returns the sqlite result code,
   -1 with a Python error set, or -2 for a type sqlite cannot store. */
static int
bind_value(sqlite3_stmt *st, int index, PyObject *value)
{
    if (value == Py_None) {
        return sqlite3_bind_null(st, index);
    }
    if (PyLong_Check(value)) {
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to SQLite INTEGER");
            return -1;
        }
        if (n == -1 && PyErr_Occurred()) {
            return -1;
        }
        return sqlite3_bind_int64(st, index, n);
    }
    if (PyFloat_Check(value)) {
        return sqlite3_bind_double(st, index, PyFloat_AS_DOUBLE(value));
    }
    if (PyUnicode_Check(value)) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(value, &size);
        if (text == NULL) {
            return -1;
        }
        if (size > INT_MAX) {
            PyErr_SetString(PyExc_OverflowError,
                            "string longer than INT_MAX bytes");
            return -1;
        }
        return sqlite3_bind_text(st, index, text, (int)size, SQLITE_TRANSIENT);
    }
    if (PyObject_CheckBuffer(value)) {
        return bind_buffer(st, index, value);
    }
    return -2;
}

static int
bind_parameter(SqStatement *stmt, int index, PyObject *value)
{
    PyObject *adapted;
    if (binds_directly(value) && PyDict_GET_SIZE(SQ->adapters) == 0) {
        adapted = Py_NewRef(value);
    }
    else {
        adapted = _PySqlite_Adapt(value,
                                  (PyObject *)&_PySqlite_PrepareProtocolType,
                                  value);
        if (adapted == NULL) {
            return -1;
        }
    }
    int rc = bind_value(stmt->st, index, adapted);
    if (rc == -2) {
        PyErr_Format(SQ->ProgrammingError,
                     "Error binding parameter %d: type '%s' is not supported",
                     index, Py_TYPE(adapted)->tp_name);
    }
    Py_DECREF(adapted);
    if (rc < 0) {
        return -1;
    }
    if (rc != SQLITE_OK) {
        _PySqlite_RaiseCode(sqlite3_db_handle(stmt->st), rc);
        return -1;
    }
    return 0;
}

static int
bind_sequence(SqStatement *stmt, int count, PyObject *params)
{
    Py_ssize_t supplied = PySequence_Size(params);
    if (supplied < 0) {
        return -1;
    }
    if (supplied != count) {
        PyErr_Format(SQ->ProgrammingError,
                     "Incorrect number of bindings supplied. The current "
                     "statement uses %d, and there are %zd supplied.",
                     count, supplied);
        return -1;
    }
    for (int i = 1; i <= count; i++) {
        const char *name = sqlite3_bind_parameter_name(stmt->st, i);
        if (name != NULL && name[0] != '?') {
            PyErr_Format(SQ->ProgrammingError,
                         "Binding %d ('%s') is a named parameter, but you "
                         "supplied a sequence which requires nameless (qmark) "
                         "placeholders.", i, name);
            return -1;
        }
        PyObject *value = PySequence_GetItem(params, i - 1);
        if (value == NULL) {
            return -1;
        }
        int rc = bind_parameter(stmt, i, value);
        Py_DECREF(value);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

static int
bind_mapping(SqStatement *stmt, int count, PyObject *params)
{
    for (int i = 1; i <= count; i++) {
        const char *name = sqlite3_bind_parameter_name(stmt->st, i);
        if (name == NULL || name[0] == '?') {
            PyErr_Format(SQ->ProgrammingError,
                         "Binding %d has no name, but you supplied a "
                         "dictionary (which has only names).", i);
            return -1;
        }
        PyObject *key = PyUnicode_FromString(name + 1);
        if (key == NULL) {
            return -1;
        }
        PyObject *value = PyObject_GetItem(params, key);
        Py_DECREF(key);
        if (value == NULL) {
            if (PyErr_ExceptionMatches(PyExc_LookupError)) {
                PyErr_Format(SQ->ProgrammingError,
                             "You did not supply a value for binding "
                             "parameter %s.", name);
            }
            return -1;
        }
        int rc = bind_parameter(stmt, i, value);
        Py_DECREF(value);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

int
_PySqlite_BindParameters(SqStatement *stmt, PyObject *params)
{
    int count = stmt->st ? sqlite3_bind_parameter_count(stmt->st) : 0;
    if (params == NULL) {
        params = Py_None;
    }
    if (PyTuple_CheckExact(params) || PyList_CheckExact(params)
        || (!PyDict_Check(params) && params != Py_None
            && PySequence_Check(params))) {
        return bind_sequence(stmt, count, params);
    }
    if (PyDict_Check(params)) {
        return bind_mapping(stmt, count, params);
    }
    if (params == Py_None && count == 0) {
        return 0;
    }
    if (params == Py_None) {
        PyErr_Format(SQ->ProgrammingError,
                     "Incorrect number of bindings supplied. The current "
                     "statement uses %d, and there are 0 supplied.", count);
        return -1;
    }
    PyErr_SetString(SQ->ProgrammingError, "parameters are of unsupported type");
    return -1;
}
