/* _sqlite3: the types and helpers the files of Modules/_sqlite/ share.

   The module wraps Debian's libsqlite3.  Each Python type lives in its own
   file (connection.c, cursor.c, row.c, statement.c, blob.c,
   microprotocols.c) and the module object, its registries and constants in
   module.c.  State is process-wide (the module is built in and initialised
   once), held in the sqlite_globals structure below. */

#ifndef SQLITE_MODULE_H
#define SQLITE_MODULE_H

#include "Python.h"
#include <sqlite3.h>

/* ---- Process-wide state (module.c) ---- */

typedef struct {
    /* Exception classes, in hierarchy order. */
    PyObject *Warning;
    PyObject *Error;
    PyObject *InterfaceError;
    PyObject *DatabaseError;
    PyObject *DataError;
    PyObject *OperationalError;
    PyObject *IntegrityError;
    PyObject *InternalError;
    PyObject *ProgrammingError;
    PyObject *NotSupportedError;
    PyObject *adapters;         /* (type, protocol) -> callable */
    PyObject *converters;       /* upper-cased name -> callable */
    int callback_tracebacks;    /* enable_callback_tracebacks() flag */
} sqlite_globals;

extern sqlite_globals _PySqlite_State;
#define SQ (&_PySqlite_State)

/* The autocommit attribute's legacy value (LEGACY_TRANSACTION_CONTROL). */
#define SQ_AUTOCOMMIT_LEGACY (-1)

#define SQ_PARSE_DECLTYPES 1
#define SQ_PARSE_COLNAMES 2

/* ---- Types ---- */

typedef struct SqBlob SqBlob;

typedef struct {
    PyObject_HEAD
    sqlite3 *db;                /* NULL once closed (or before __init__) */
    int initialized;
    unsigned long owner_thread;
    int check_same_thread;
    int detect_types;
    int autocommit;             /* 1, 0 or SQ_AUTOCOMMIT_LEGACY */
    PyObject *isolation_level;  /* str or None */
    PyObject *row_factory;
    PyObject *text_factory;
    PyObject *stmt_cache;       /* dict sql -> Statement, in use order */
    int cache_limit;
    SqBlob *open_blobs;         /* intrusive list, closed with the db */
    /* Python callables sqlite holds only as C pointers. */
    PyObject *authorizer;
    PyObject *progress_handler;
    PyObject *trace_callback;
} SqConnection;

typedef struct {
    PyObject_HEAD
    sqlite3_stmt *st;
    int is_dml;                 /* INSERT/UPDATE/DELETE/REPLACE */
    int in_use;                 /* a cursor is reading its rows */
} SqStatement;

typedef struct {
    PyObject_HEAD
    SqConnection *connection;
    PyObject *description;
    PyObject *row_factory;
    PyObject *lastrowid;
    PyObject *converters;       /* list (one per column) or NULL */
    SqStatement *statement;     /* the statement rows come from */
    Py_ssize_t arraysize;
    long long rowcount;
    int has_row;                /* a row is waiting to be fetched */
    int initialized;
    int closed;
    int locked;                 /* re-entry guard while executing */
    PyObject *weakrefs;         /* weak references to this cursor */
} SqCursor;

typedef struct {
    PyObject_HEAD
    PyObject *data;             /* tuple of values */
    PyObject *description;      /* the cursor's description */
} SqRow;

struct SqBlob {
    PyObject_HEAD
    SqConnection *connection;   /* strong reference, NULL once closed */
    sqlite3_blob *blob;
    int offset;
    SqBlob *prev, *next;        /* the connection's open_blobs list */
};

extern PyTypeObject _PySqlite_ConnectionType;
extern PyTypeObject _PySqlite_CursorType;
extern PyTypeObject _PySqlite_RowType;
extern PyTypeObject _PySqlite_StatementType;
extern PyTypeObject _PySqlite_BlobType;
extern PyTypeObject _PySqlite_PrepareProtocolType;

/* ---- module.c ---- */
int _PySqlite_WarnPositional(const char *caller, Py_ssize_t npos);

/* ---- exceptions.c ---- */
int _PySqlite_InitExceptions(PyObject *module);
void _PySqlite_ClearExceptions(void);
/* Raise the exception matching the db's last error; returns NULL. */
PyObject *_PySqlite_RaiseFromDb(sqlite3 *db);
/* Raise for an explicit result code when no db carries the message. */
PyObject *_PySqlite_RaiseCode(sqlite3 *db, int code);
const char *_PySqlite_ErrorName(int code);
int _PySqlite_AddErrorCodes(PyObject *module);

/* ---- connection.c ---- */
/* Check thread affinity and that the db is open; -1 with error set. */
int _PySqlite_CheckConnection(SqConnection *con);
int _PySqlite_CheckThread(SqConnection *con);
/* Run a statement with no parameters and no result rows. */
int _PySqlite_ExecSimple(SqConnection *con, const char *sql);
int _PySqlite_BeginIfLegacy(SqConnection *con);
void _PySqlite_ForgetBlob(SqBlob *blob);

/* ---- connection_callbacks.c (Connection methods) ---- */
PyObject *_PySqlite_CreateFunction(PyObject *, PyObject *, PyObject *);
PyObject *_PySqlite_CreateAggregate(PyObject *, PyObject *, PyObject *);
PyObject *_PySqlite_CreateWindowFunction(PyObject *, PyObject *);
PyObject *_PySqlite_CreateCollation(PyObject *, PyObject *);
PyObject *_PySqlite_SetAuthorizer(PyObject *, PyObject *, PyObject *);
PyObject *_PySqlite_SetProgressHandler(PyObject *, PyObject *, PyObject *);
PyObject *_PySqlite_SetTraceCallback(PyObject *, PyObject *, PyObject *);
/* Print or drop the exception a callback raised. */
void _PySqlite_ReportCallbackError(PyObject *callable);
/* Python value for an sqlite3_value (a callback argument). */
PyObject *_PySqlite_ValueToPython(sqlite3_value *value);

/* ---- connection_extra.c (Connection methods) ---- */
PyObject *_PySqlite_EnableLoadExtension(PyObject *, PyObject *);
PyObject *_PySqlite_LoadExtension(PyObject *, PyObject *, PyObject *);
PyObject *_PySqlite_Backup(PyObject *, PyObject *, PyObject *);
PyObject *_PySqlite_GetLimit(PyObject *, PyObject *);
PyObject *_PySqlite_SetLimit(PyObject *, PyObject *);
PyObject *_PySqlite_GetConfig(PyObject *, PyObject *);
PyObject *_PySqlite_SetConfig(PyObject *, PyObject *);
PyObject *_PySqlite_Serialize(PyObject *, PyObject *, PyObject *);
PyObject *_PySqlite_Deserialize(PyObject *, PyObject *, PyObject *);

/* ---- statement.c ---- */
/* A prepared statement for `sql`, from the connection's cache when one is
   idle there.  Returns a new reference, or NULL with an error set. */
SqStatement *_PySqlite_GetStatement(SqConnection *con, PyObject *sql);
/* Prepare without caching (executescript's pieces use sqlite directly). */
int _PySqlite_StatementIsDml(const char *sql);
void _PySqlite_StatementReset(SqStatement *stmt);
/* Step with the GIL released. */
int _PySqlite_Step(sqlite3_stmt *st);
int _PySqlite_BindParameters(SqStatement *stmt, PyObject *params);
void _PySqlite_ClearCache(SqConnection *con);

/* ---- microprotocols.c ---- */
int _PySqlite_InitAdapters(void);
/* Adapt `obj` for binding; returns `alt` when nothing applies and alt is
   given (new reference). */
PyObject *_PySqlite_Adapt(PyObject *obj, PyObject *proto, PyObject *alt);
extern PyMethodDef _PySqlite_AdapterMethods[];

/* ---- cursor.c ---- */
PyObject *_PySqlite_CursorExecute(SqCursor *cur, PyObject *sql,
                                  PyObject *params, int many);

/* ---- blob.c ---- */
PyObject *_PySqlite_OpenBlob(PyObject *con, PyObject *args, PyObject *kw);
void _PySqlite_CloseAllBlobs(SqConnection *con);

#endif /* SQLITE_MODULE_H */
