/* The Connection methods that hand Python callables to sqlite: scalar
   functions, aggregates and window functions, collations, and the
   authorizer, progress and trace hooks.

   sqlite may invoke these while a statement steps with the GIL released,
   so every trampoline takes the GIL itself.  A callable sqlite holds as
   user data is owned by that registration and released by the destructor
   sqlite calls when the registration is replaced or the database closes.
   Exceptions cannot travel through sqlite: a trampoline reports (or
   drops) them and tells sqlite the call failed, which surfaces as an
   OperationalError (or DataError for OverflowError) from the statement. */

#include "module.h"

/* ---- Shared helpers ---- */

void
_PySqlite_ReportCallbackError(PyObject *callable)
{
    if (!SQ->callback_tracebacks) {
        PyErr_Clear();
        return;
    }
    /* The traceback first, then the unraisable report naming the
       callable, as CPython shows them. */
    PyObject *exc = PyErr_GetRaisedException();
    PyErr_DisplayException(exc);
    PyErr_SetRaisedException(exc);
    PyErr_WriteUnraisable(callable);
}

static void
release_callable(void *callable)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_DECREF((PyObject *)callable);
    PyGILState_Release(gil);
}

PyObject *
_PySqlite_ValueToPython(sqlite3_value *value)
{
    switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER:
        return PyLong_FromLongLong(sqlite3_value_int64(value));
    case SQLITE_FLOAT:
        return PyFloat_FromDouble(sqlite3_value_double(value));
    case SQLITE_TEXT: {
        const char *text = (const char *)sqlite3_value_text(value);
        if (text == NULL) {
            return PyErr_NoMemory();
        }
        return PyUnicode_DecodeUTF8(text, sqlite3_value_bytes(value), NULL);
    }
    case SQLITE_BLOB: {
        const void *data = sqlite3_value_blob(value);
        Py_ssize_t n = sqlite3_value_bytes(value);
        return PyBytes_FromStringAndSize(data ? data : "", n);
    }
    default:
        Py_RETURN_NONE;
    }
}

static PyObject *
arguments_tuple(int argc, sqlite3_value **argv)
{
    PyObject *args = PyTuple_New(argc);
    if (args == NULL) {
        return NULL;
    }
    for (int i = 0; i < argc; i++) {
        PyObject *item = _PySqlite_ValueToPython(argv[i]);
        if (item == NULL) {
            Py_DECREF(args);
            return NULL;
        }
        PyTuple_SET_ITEM(args, i, item);
    }
    return args;
}

/* Hand a Python result to sqlite; -1 with an error for other types. */
static int
set_result(sqlite3_context *ctx, PyObject *result)
{
    if (result == Py_None) {
        sqlite3_result_null(ctx);
    }
    else if (PyLong_Check(result)) {
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(result, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to SQLite INTEGER");
            return -1;
        }
        if (n == -1 && PyErr_Occurred()) {
            return -1;
        }
        sqlite3_result_int64(ctx, n);
    }
    else if (PyFloat_Check(result)) {
        sqlite3_result_double(ctx, PyFloat_AS_DOUBLE(result));
    }
    else if (PyUnicode_Check(result)) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(result, &size);
        if (text == NULL) {
            return -1;
        }
        if (size > INT_MAX) {
            PyErr_SetString(PyExc_OverflowError, "string too long");
            return -1;
        }
        sqlite3_result_text(ctx, text, (int)size, SQLITE_TRANSIENT);
    }
    else if (PyObject_CheckBuffer(result)) {
        Py_buffer view;
        if (PyObject_GetBuffer(result, &view, PyBUF_SIMPLE) < 0) {
            return -1;
        }
        if (view.len > INT_MAX) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_OverflowError, "BLOB longer than INT_MAX bytes");
            return -1;
        }
        sqlite3_result_blob(ctx, view.buf, (int)view.len, SQLITE_TRANSIENT);
        PyBuffer_Release(&view);
    }
    else {
        PyErr_Format(PyExc_TypeError, "unsupported result type '%.100s'",
                     Py_TYPE(result)->tp_name);
        return -1;
    }
    return 0;
}

/* Turn the pending exception into the sqlite error of this call. */
static void
fail_call(sqlite3_context *ctx, const char *message)
{
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        sqlite3_result_error_toobig(ctx);
    }
    else if (PyErr_ExceptionMatches(PyExc_MemoryError)) {
        sqlite3_result_error_nomem(ctx);
    }
    else {
        sqlite3_result_error(ctx, message, -1);
    }
    _PySqlite_ReportCallbackError(sqlite3_user_data(ctx));
}

/* CPython 3.13 deprecated passing these methods' leading parameters by
   keyword (positional-only from 3.15); warn when any of them came so. */
static int
warn_keyword_use(PyObject *kwargs, const char *const *names,
                 const char *message)
{
    if (kwargs == NULL) {
        return 0;
    }
    for (; *names != NULL; names++) {
        if (PyDict_GetItemString(kwargs, *names) != NULL) {
            return PyErr_WarnEx(PyExc_DeprecationWarning, message, 1);
        }
    }
    return 0;
}

#define DEPRECATED_KEYWORDS(method, plural, list) \
    "Passing keyword argument" plural " " list " to _sqlite3.Connection." \
    method "() is deprecated. Parameter" plural " " list \
    " will become positional-only in Python 3.15."

/* ---- Scalar functions ---- */

static void
scalar_trampoline(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *func = sqlite3_user_data(ctx);
    PyObject *args = arguments_tuple(argc, argv);
    PyObject *result = args ? PyObject_CallObject(func, args) : NULL;
    Py_XDECREF(args);
    if (result == NULL || set_result(ctx, result) < 0) {
        fail_call(ctx, "user-defined function raised exception");
    }
    Py_XDECREF(result);
    PyGILState_Release(gil);
}

static SqConnection *
checked_self(PyObject *op)
{
    SqConnection *self = (SqConnection *)op;
    return _PySqlite_CheckConnection(self) < 0 ? NULL : self;
}

PyObject *
_PySqlite_CreateFunction(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"name", "narg", "func", "deterministic", NULL};
    const char *name;
    int narg, deterministic = 0;
    PyObject *func;
    static const char *const positional_soon[] = {"name", "narg", "func",
                                                  NULL};
    if (warn_keyword_use(kwargs, positional_soon,
                         DEPRECATED_KEYWORDS("create_function", "s",
                                             "'name', 'narg' and 'func'")) < 0) {
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "siO|$p:create_function",
                                     kwlist, &name, &narg, &func,
                                     &deterministic)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    int flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0);
    int rc = sqlite3_create_function_v2(self->db, name, narg, flags,
                                        Py_NewRef(func), scalar_trampoline,
                                        NULL, NULL, release_callable);
    if (rc != SQLITE_OK) {
        /* On failure sqlite already ran the destructor. */
        PyErr_SetString(SQ->OperationalError, "Error creating function");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Aggregates and window functions ----

   Each evaluation of an aggregate gets its own instance of the class,
   made on the first step and kept in sqlite's aggregate context (a slot
   holding one PyObject pointer). */

static PyObject **
instance_slot(sqlite3_context *ctx, int create)
{
    return sqlite3_aggregate_context(ctx, create ? sizeof(PyObject *) : 0);
}

/* Call instance.<method>(*args); on failure set the sqlite error naming
   the method ("not defined" when it is missing). */
static PyObject *
call_aggregate_method(sqlite3_context *ctx, PyObject *instance,
                      const char *method, PyObject *args)
{
    char message[96];
    PyObject *bound = PyObject_GetAttrString(instance, method);
    if (bound == NULL) {
        snprintf(message, sizeof(message),
                      "user-defined aggregate's '%s' method not defined",
                      method);
        fail_call(ctx, message);
        return NULL;
    }
    PyObject *result = args ? PyObject_CallObject(bound, args)
                            : PyObject_CallNoArgs(bound);
    Py_DECREF(bound);
    if (result == NULL) {
        snprintf(message, sizeof(message),
                      "user-defined aggregate's '%s' method raised error",
                      method);
        fail_call(ctx, message);
    }
    return result;
}

/* Feed step() or inverse() one row of arguments. */
static void
feed_row(sqlite3_context *ctx, int argc, sqlite3_value **argv,
         const char *method)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject **slot = instance_slot(ctx, 1);
    if (slot == NULL) {
        sqlite3_result_error_nomem(ctx);
        goto done;
    }
    if (*slot == NULL) {
        *slot = PyObject_CallNoArgs(sqlite3_user_data(ctx));
        if (*slot == NULL) {
            fail_call(ctx, "user-defined aggregate's '__init__' method "
                           "raised error");
            goto done;
        }
    }
    PyObject *args = arguments_tuple(argc, argv);
    if (args == NULL) {
        fail_call(ctx, "user-defined aggregate's 'step' method raised error");
        goto done;
    }
    PyObject *result = call_aggregate_method(ctx, *slot, method, args);
    Py_DECREF(args);
    Py_XDECREF(result);
done:
    PyGILState_Release(gil);
}

static void
aggregate_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    feed_row(ctx, argc, argv, "step");
}

static void
window_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    feed_row(ctx, argc, argv, "inverse");
}

/* finalize() or value(): produce the current result.  With no row seen
   there is no instance and the result is NULL. */
static void
produce_result(sqlite3_context *ctx, const char *method, int last)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject **slot = instance_slot(ctx, 0);
    if (slot != NULL && *slot != NULL) {
        PyObject *result = call_aggregate_method(ctx, *slot, method, NULL);
        if (result != NULL && set_result(ctx, result) < 0) {
            char message[96];
            snprintf(message, sizeof(message),
                          "user-defined aggregate's '%s' method raised error",
                          method);
            fail_call(ctx, message);
        }
        Py_XDECREF(result);
        if (last) {
            Py_CLEAR(*slot);
        }
    }
    PyGILState_Release(gil);
}

static void
aggregate_final(sqlite3_context *ctx)
{
    produce_result(ctx, "finalize", 1);
}

static void
window_value(sqlite3_context *ctx)
{
    produce_result(ctx, "value", 0);
}

PyObject *
_PySqlite_CreateAggregate(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"name", "n_arg", "aggregate_class", NULL};
    const char *name;
    int narg;
    PyObject *cls;
    static const char *const positional_soon[] = {"name", "n_arg",
                                                  "aggregate_class", NULL};
    if (warn_keyword_use(kwargs, positional_soon,
                         DEPRECATED_KEYWORDS("create_aggregate", "s",
                                             "'name', 'n_arg' and 'aggregate_class'")) < 0) {
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "siO:create_aggregate",
                                     kwlist, &name, &narg, &cls)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    int rc = sqlite3_create_function_v2(self->db, name, narg, SQLITE_UTF8,
                                        Py_NewRef(cls), NULL, aggregate_step,
                                        aggregate_final, release_callable);
    if (rc != SQLITE_OK) {
        PyErr_SetString(SQ->OperationalError, "Error creating aggregate");
        return NULL;
    }
    Py_RETURN_NONE;
}

PyObject *
_PySqlite_CreateWindowFunction(PyObject *op, PyObject *args)
{
    const char *name;
    int narg;
    PyObject *cls;
    if (!PyArg_ParseTuple(args, "siO:create_window_function", &name, &narg,
                          &cls)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    int rc;
    if (cls == Py_None) {
        rc = sqlite3_create_window_function(self->db, name, narg, SQLITE_UTF8,
                                            NULL, NULL, NULL, NULL, NULL,
                                            NULL);
    }
    else {
        rc = sqlite3_create_window_function(
            self->db, name, narg, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
            Py_NewRef(cls), aggregate_step, aggregate_final, window_value,
            window_inverse, release_callable);
    }
    if (rc != SQLITE_OK) {
        /* sqlite leaves no message on the connection for this failure. */
        PyErr_SetString(SQ->ProgrammingError, sqlite3_errstr(rc));
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Collations ---- */

static int
collation_trampoline(void *callable, int a_len, const void *a, int b_len,
                     const void *b)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    int order = 0;
    PyObject *left = PyUnicode_DecodeUTF8(a, a_len, NULL);
    PyObject *right = left ? PyUnicode_DecodeUTF8(b, b_len, NULL) : NULL;
    PyObject *result = right ? PyObject_CallFunctionObjArgs(
                                   (PyObject *)callable, left, right, NULL)
                             : NULL;
    if (result != NULL) {
        long n = PyLong_AsLong(result);
        order = n < 0 ? -1 : n > 0;
    }
    if (PyErr_Occurred()) {
        order = 0;
        _PySqlite_ReportCallbackError((PyObject *)callable);
    }
    Py_XDECREF(left);
    Py_XDECREF(right);
    Py_XDECREF(result);
    PyGILState_Release(gil);
    return order;
}

PyObject *
_PySqlite_CreateCollation(PyObject *op, PyObject *args)
{
    const char *name;
    PyObject *callable;
    if (!PyArg_ParseTuple(args, "sO:create_collation", &name, &callable)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    int rc;
    if (callable == Py_None) {
        rc = sqlite3_create_collation_v2(self->db, name, SQLITE_UTF8, NULL,
                                         NULL, NULL);
    }
    else {
        if (!PyCallable_Check(callable)) {
            PyErr_SetString(PyExc_TypeError, "parameter must be callable");
            return NULL;
        }
        rc = sqlite3_create_collation_v2(self->db, name, SQLITE_UTF8,
                                         Py_NewRef(callable),
                                         collation_trampoline,
                                         release_callable);
        if (rc != SQLITE_OK) {
            /* create_collation_v2 does not run the destructor on failure. */
            Py_DECREF(callable);
        }
    }
    if (rc != SQLITE_OK) {
        return _PySqlite_RaiseFromDb(self->db);
    }
    Py_RETURN_NONE;
}

/* ---- Authorizer, progress handler, trace callback ----

   These take the connection as user data and read the callable from it,
   so replacing or clearing one is a plain attribute update. */

static PyObject *
optional_text(const char *text)
{
    if (text == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(text);
}

static int
authorizer_trampoline(void *user, int action, const char *arg1,
                      const char *arg2, const char *dbname,
                      const char *source)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    SqConnection *con = user;
    int verdict = SQLITE_DENY;
    PyObject *result = PyObject_CallFunction(
        con->authorizer, "iNNNN", action, optional_text(arg1),
        optional_text(arg2), optional_text(dbname), optional_text(source));
    if (result != NULL && PyLong_Check(result)) {
        long n = PyLong_AsLong(result);
        if (!(n == -1 && PyErr_Occurred())) {
            verdict = (int)n;
        }
    }
    if (PyErr_Occurred()) {
        verdict = SQLITE_DENY;
        _PySqlite_ReportCallbackError(con->authorizer);
    }
    Py_XDECREF(result);
    PyGILState_Release(gil);
    return verdict;
}

PyObject *
_PySqlite_SetAuthorizer(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"authorizer_callback", NULL};
    PyObject *callable;
    static const char *const positional_soon[] = {"authorizer_callback", NULL};
    if (warn_keyword_use(kwargs, positional_soon,
                         DEPRECATED_KEYWORDS("set_authorizer", "",
                                             "'authorizer_callback'")) < 0) {
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:set_authorizer", kwlist,
                                     &callable)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    int rc;
    if (callable == Py_None) {
        rc = sqlite3_set_authorizer(self->db, NULL, NULL);
        Py_CLEAR(self->authorizer);
    }
    else {
        Py_XSETREF(self->authorizer, Py_NewRef(callable));
        rc = sqlite3_set_authorizer(self->db, authorizer_trampoline, self);
    }
    if (rc != SQLITE_OK) {
        PyErr_SetString(SQ->OperationalError,
                        "Error setting authorizer callback");
        Py_CLEAR(self->authorizer);
        return NULL;
    }
    Py_RETURN_NONE;
}

static int
progress_trampoline(void *user)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    SqConnection *con = user;
    int abort_query = 1;
    PyObject *result = PyObject_CallNoArgs(con->progress_handler);
    if (result != NULL) {
        abort_query = PyObject_IsTrue(result);
        Py_DECREF(result);
    }
    if (abort_query < 0 || PyErr_Occurred()) {
        abort_query = 1;
        _PySqlite_ReportCallbackError(con->progress_handler);
    }
    PyGILState_Release(gil);
    return abort_query;
}

PyObject *
_PySqlite_SetProgressHandler(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"progress_handler", "n", NULL};
    PyObject *callable;
    int n;
    static const char *const positional_soon[] = {"progress_handler", NULL};
    if (warn_keyword_use(kwargs, positional_soon,
                         DEPRECATED_KEYWORDS("set_progress_handler", "",
                                             "'progress_handler'")) < 0) {
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Oi:set_progress_handler",
                                     kwlist, &callable, &n)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    if (callable == Py_None) {
        sqlite3_progress_handler(self->db, 0, NULL, NULL);
        Py_CLEAR(self->progress_handler);
    }
    else {
        Py_XSETREF(self->progress_handler, Py_NewRef(callable));
        sqlite3_progress_handler(self->db, n, progress_trampoline, self);
    }
    Py_RETURN_NONE;
}

/* The text shown for a traced statement: trigger comments as sqlite
   gives them, other statements with their parameters expanded. */
static PyObject *
traced_text(sqlite3_stmt *st, const char *given)
{
    if (given != NULL && given[0] == '-' && given[1] == '-') {
        return PyUnicode_FromString(given);
    }
    char *expanded = sqlite3_expanded_sql(st);
    if (expanded == NULL) {
        return optional_text(sqlite3_sql(st));
    }
    PyObject *text = PyUnicode_FromString(expanded);
    sqlite3_free(expanded);
    return text;
}

static int
trace_trampoline(unsigned int kind, void *user, void *stmt, void *sql)
{
    if (kind != SQLITE_TRACE_STMT) {
        return 0;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    SqConnection *con = user;
    PyObject *text = traced_text(stmt, sql);
    PyObject *result = text ? PyObject_CallOneArg(con->trace_callback, text)
                            : NULL;
    Py_XDECREF(text);
    if (result == NULL) {
        _PySqlite_ReportCallbackError(con->trace_callback);
    }
    Py_XDECREF(result);
    PyGILState_Release(gil);
    return 0;
}

PyObject *
_PySqlite_SetTraceCallback(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"trace_callback", NULL};
    PyObject *callable;
    static const char *const positional_soon[] = {"trace_callback", NULL};
    if (warn_keyword_use(kwargs, positional_soon,
                         DEPRECATED_KEYWORDS("set_trace_callback", "",
                                             "'trace_callback'")) < 0) {
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:set_trace_callback",
                                     kwlist, &callable)) {
        return NULL;
    }
    SqConnection *self = checked_self(op);
    if (self == NULL) {
        return NULL;
    }
    if (callable == Py_None) {
        sqlite3_trace_v2(self->db, 0, NULL, NULL);
        Py_CLEAR(self->trace_callback);
    }
    else {
        Py_XSETREF(self->trace_callback, Py_NewRef(callable));
        sqlite3_trace_v2(self->db, SQLITE_TRACE_STMT, trace_trampoline, self);
    }
    Py_RETURN_NONE;
}
