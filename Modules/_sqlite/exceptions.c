/* _sqlite3's exception hierarchy (PEP 249) and the mapping from sqlite
   result codes to it.  Errors raised for a failing sqlite call carry the
   extended result code and its symbolic name as the attributes
   sqlite_errorcode and sqlite_errorname. */

#include "module.h"

#define C(name) {#name, name}

/* Every result code the module exports, primary and extended.  It doubles
   as the table sqlite_errorname is read from. */
static const struct { const char *name; int code; } result_codes[] = {
    C(SQLITE_ABORT), C(SQLITE_ABORT_ROLLBACK), C(SQLITE_AUTH),
    C(SQLITE_AUTH_USER), C(SQLITE_BUSY), C(SQLITE_BUSY_RECOVERY),
    C(SQLITE_BUSY_SNAPSHOT), C(SQLITE_BUSY_TIMEOUT), C(SQLITE_CANTOPEN),
    C(SQLITE_CANTOPEN_CONVPATH), C(SQLITE_CANTOPEN_DIRTYWAL),
    C(SQLITE_CANTOPEN_FULLPATH), C(SQLITE_CANTOPEN_ISDIR),
    C(SQLITE_CANTOPEN_NOTEMPDIR), C(SQLITE_CANTOPEN_SYMLINK),
    C(SQLITE_CONSTRAINT), C(SQLITE_CONSTRAINT_CHECK),
    C(SQLITE_CONSTRAINT_COMMITHOOK), C(SQLITE_CONSTRAINT_FOREIGNKEY),
    C(SQLITE_CONSTRAINT_FUNCTION), C(SQLITE_CONSTRAINT_NOTNULL),
    C(SQLITE_CONSTRAINT_PINNED), C(SQLITE_CONSTRAINT_PRIMARYKEY),
    C(SQLITE_CONSTRAINT_ROWID), C(SQLITE_CONSTRAINT_TRIGGER),
    C(SQLITE_CONSTRAINT_UNIQUE), C(SQLITE_CONSTRAINT_VTAB), C(SQLITE_CORRUPT),
    C(SQLITE_CORRUPT_INDEX), C(SQLITE_CORRUPT_SEQUENCE),
    C(SQLITE_CORRUPT_VTAB), C(SQLITE_DONE), C(SQLITE_EMPTY), C(SQLITE_ERROR),
    C(SQLITE_ERROR_MISSING_COLLSEQ), C(SQLITE_ERROR_RETRY),
    C(SQLITE_ERROR_SNAPSHOT), C(SQLITE_FORMAT), C(SQLITE_FULL),
    C(SQLITE_INTERNAL), C(SQLITE_INTERRUPT), C(SQLITE_IOERR),
    C(SQLITE_IOERR_ACCESS), C(SQLITE_IOERR_AUTH),
    C(SQLITE_IOERR_BEGIN_ATOMIC), C(SQLITE_IOERR_BLOCKED),
    C(SQLITE_IOERR_CHECKRESERVEDLOCK), C(SQLITE_IOERR_CLOSE),
    C(SQLITE_IOERR_COMMIT_ATOMIC), C(SQLITE_IOERR_CONVPATH),
    C(SQLITE_IOERR_CORRUPTFS), C(SQLITE_IOERR_DATA), C(SQLITE_IOERR_DELETE),
    C(SQLITE_IOERR_DELETE_NOENT), C(SQLITE_IOERR_DIR_CLOSE),
    C(SQLITE_IOERR_DIR_FSYNC), C(SQLITE_IOERR_FSTAT), C(SQLITE_IOERR_FSYNC),
    C(SQLITE_IOERR_GETTEMPPATH), C(SQLITE_IOERR_LOCK), C(SQLITE_IOERR_MMAP),
    C(SQLITE_IOERR_NOMEM), C(SQLITE_IOERR_RDLOCK), C(SQLITE_IOERR_READ),
    C(SQLITE_IOERR_ROLLBACK_ATOMIC), C(SQLITE_IOERR_SEEK),
    C(SQLITE_IOERR_SHMLOCK), C(SQLITE_IOERR_SHMMAP), C(SQLITE_IOERR_SHMOPEN),
    C(SQLITE_IOERR_SHMSIZE), C(SQLITE_IOERR_SHORT_READ),
    C(SQLITE_IOERR_TRUNCATE), C(SQLITE_IOERR_UNLOCK), C(SQLITE_IOERR_VNODE),
    C(SQLITE_IOERR_WRITE), C(SQLITE_LOCKED), C(SQLITE_LOCKED_SHAREDCACHE),
    C(SQLITE_LOCKED_VTAB), C(SQLITE_MISMATCH), C(SQLITE_MISUSE),
    C(SQLITE_NOLFS), C(SQLITE_NOMEM), C(SQLITE_NOTADB), C(SQLITE_NOTFOUND),
    C(SQLITE_NOTICE), C(SQLITE_NOTICE_RECOVER_ROLLBACK),
    C(SQLITE_NOTICE_RECOVER_WAL), C(SQLITE_OK), C(SQLITE_OK_LOAD_PERMANENTLY),
    C(SQLITE_OK_SYMLINK), C(SQLITE_PERM), C(SQLITE_PROTOCOL), C(SQLITE_RANGE),
    C(SQLITE_READONLY), C(SQLITE_READONLY_CANTINIT),
    C(SQLITE_READONLY_CANTLOCK), C(SQLITE_READONLY_DBMOVED),
    C(SQLITE_READONLY_DIRECTORY), C(SQLITE_READONLY_RECOVERY),
    C(SQLITE_READONLY_ROLLBACK), C(SQLITE_ROW), C(SQLITE_SCHEMA),
    C(SQLITE_TOOBIG), C(SQLITE_WARNING), C(SQLITE_WARNING_AUTOINDEX),
};

#undef C

const char *
_PySqlite_ErrorName(int code)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(result_codes); i++) {
        if (result_codes[i].code == code) {
            return result_codes[i].name;
        }
    }
    return "unknown";
}

int
_PySqlite_AddErrorCodes(PyObject *module)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(result_codes); i++) {
        if (PyModule_AddIntConstant(module, result_codes[i].name,
                                    result_codes[i].code) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The hierarchy: each entry names its parent by its slot in the state. */
typedef struct {
    const char *name;           /* attribute name; "sqlite3." + name */
    PyObject **slot;
    PyObject **parent;          /* NULL: derives from Exception */
} exception_spec;

static exception_spec exception_specs[] = {
    {"Warning", &SQ->Warning, NULL},
    {"Error", &SQ->Error, NULL},
    {"InterfaceError", &SQ->InterfaceError, &SQ->Error},
    {"DatabaseError", &SQ->DatabaseError, &SQ->Error},
    {"DataError", &SQ->DataError, &SQ->DatabaseError},
    {"OperationalError", &SQ->OperationalError, &SQ->DatabaseError},
    {"IntegrityError", &SQ->IntegrityError, &SQ->DatabaseError},
    {"InternalError", &SQ->InternalError, &SQ->DatabaseError},
    {"ProgrammingError", &SQ->ProgrammingError, &SQ->DatabaseError},
    {"NotSupportedError", &SQ->NotSupportedError, &SQ->DatabaseError},
};

int
_PySqlite_InitExceptions(PyObject *module)
{
    char qualified[64];
    for (size_t i = 0; i < Py_ARRAY_LENGTH(exception_specs); i++) {
        exception_spec *spec = &exception_specs[i];
        if (*spec->slot == NULL) {
            PyObject *base = spec->parent ? *spec->parent : PyExc_Exception;
            snprintf(qualified, sizeof(qualified), "sqlite3.%s",
                          spec->name);
            *spec->slot = PyErr_NewException(qualified, base, NULL);
            if (*spec->slot == NULL) {
                return -1;
            }
        }
        if (PyModule_AddObjectRef(module, spec->name, *spec->slot) < 0) {
            return -1;
        }
    }
    return 0;
}

void
_PySqlite_ClearExceptions(void)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(exception_specs); i++) {
        Py_CLEAR(*exception_specs[i].slot);
    }
}

/* Which exception class a primary result code stands for. */
static PyObject *
class_for_code(int primary)
{
    switch (primary) {
    case SQLITE_INTERNAL:
    case SQLITE_NOTFOUND:
        return SQ->InternalError;
    case SQLITE_NOMEM:
        return PyExc_MemoryError;
    case SQLITE_ERROR: case SQLITE_PERM: case SQLITE_ABORT:
    case SQLITE_BUSY: case SQLITE_LOCKED: case SQLITE_READONLY:
    case SQLITE_INTERRUPT: case SQLITE_IOERR: case SQLITE_FULL:
    case SQLITE_CANTOPEN: case SQLITE_PROTOCOL: case SQLITE_EMPTY:
    case SQLITE_SCHEMA:
        return SQ->OperationalError;
    case SQLITE_TOOBIG:
        return SQ->DataError;
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
        return SQ->IntegrityError;
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
        return SQ->InterfaceError;
    default:
        return SQ->DatabaseError;
    }
}

/* Build the exception instance and attach the code attributes. */
static PyObject *
raise_with_code(int code, const char *message)
{
    PyObject *cls = class_for_code(code & 0xff);
    if (cls == PyExc_MemoryError) {
        return PyErr_NoMemory();
    }
    PyObject *exc = PyObject_CallFunction(cls, "s", message);
    if (exc == NULL) {
        return NULL;
    }
    PyObject *num = PyLong_FromLong(code);
    PyObject *name = PyUnicode_FromString(_PySqlite_ErrorName(code));
    if (num != NULL && name != NULL
        && PyObject_SetAttrString(exc, "sqlite_errorcode", num) == 0
        && PyObject_SetAttrString(exc, "sqlite_errorname", name) == 0) {
        PyErr_SetObject(cls, exc);
    }
    Py_XDECREF(num);
    Py_XDECREF(name);
    Py_DECREF(exc);
    return NULL;
}

PyObject *
_PySqlite_RaiseFromDb(sqlite3 *db)
{
    return raise_with_code(sqlite3_extended_errcode(db), sqlite3_errmsg(db));
}

PyObject *
_PySqlite_RaiseCode(sqlite3 *db, int code)
{
    const char *message = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    return raise_with_code(code, message);
}
