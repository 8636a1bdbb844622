/* _sqlite3: the module object.  connect(), the adapter and converter
   registries' entry points, complete_statement(), the constants, and the
   start-up that readies every type of the package. */

#include "module.h"
#include "pycore_object.h"      /* _PyStaticType_InitBuiltin */

sqlite_globals _PySqlite_State;

/* Warn (3.13+) about positional parameters past the database, naming the
   caller the way the message shows it. */
int
_PySqlite_WarnPositional(const char *caller, Py_ssize_t npos)
{
    if (npos <= 1) {
        return 0;
    }
    return PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
        "Passing more than 1 positional argument to %s() is deprecated. "
        "Parameters 'timeout', 'detect_types', 'isolation_level', "
        "'check_same_thread', 'factory', 'cached_statements' and 'uri' "
        "will become keyword-only parameters in Python 3.15.", caller);
}

/* connect(database, ...): warn about positional parameters, then let the
   factory (Connection or a subclass) parse everything; it warns again for
   itself, as CPython's does. */
static PyObject *
sq_connect(PyObject *module, PyObject *args, PyObject *kwargs)
{
    if (_PySqlite_WarnPositional("sqlite3.connect",
                                 PyTuple_GET_SIZE(args)) < 0) {
        return NULL;
    }
    PyObject *factory = NULL;
    if (PyTuple_GET_SIZE(args) > 5) {
        factory = PyTuple_GET_ITEM(args, 5);
    }
    else if (kwargs != NULL) {
        factory = PyDict_GetItemString(kwargs, "factory");
    }
    if (factory == NULL) {
        factory = (PyObject *)&_PySqlite_ConnectionType;
    }
    return PyObject_Call(factory, args, kwargs);
}

/* complete_statement(statement): whether sqlite sees a full statement
   (ending in a semicolon outside strings, comments and triggers). */
static PyObject *
sq_complete_statement(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"statement", NULL};
    PyObject *text;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:complete_statement",
                                     kwlist, &text)) {
        return NULL;
    }
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "complete_statement() argument "
                     "'statement' must be str, not %.100s",
                     Py_TYPE(text)->tp_name);
        return NULL;
    }
    const char *utf8 = PyUnicode_AsUTF8(text);
    if (utf8 == NULL) {
        return NULL;
    }
    if (sqlite3_complete(utf8)) {
        Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

static PyObject *
sq_register_adapter(PyObject *module, PyObject *args)
{
    PyObject *type, *adapter;
    if (!PyArg_ParseTuple(args, "OO:register_adapter", &type, &adapter)) {
        return NULL;
    }
    PyObject *key = PyTuple_Pack(2, type,
                                 (PyObject *)&_PySqlite_PrepareProtocolType);
    if (key == NULL) {
        return NULL;
    }
    int rc = PyDict_SetItem(SQ->adapters, key, adapter);
    Py_DECREF(key);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sq_register_converter(PyObject *module, PyObject *args)
{
    PyObject *name, *converter;
    if (!PyArg_ParseTuple(args, "UO:register_converter", &name, &converter)) {
        return NULL;
    }
    PyObject *key = PyObject_CallMethod(name, "upper", NULL);
    if (key == NULL) {
        return NULL;
    }
    int rc = PyDict_SetItem(SQ->converters, key, converter);
    Py_DECREF(key);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sq_enable_callback_tracebacks(PyObject *module, PyObject *arg)
{
    int flag = PyObject_IsTrue(arg);
    if (flag < 0) {
        return NULL;
    }
    SQ->callback_tracebacks = flag;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"connect", (PyCFunction)(void (*)(void))sq_connect,
     METH_VARARGS | METH_KEYWORDS, "Open a connection to an SQLite database."},
    {"complete_statement", (PyCFunction)(void (*)(void))sq_complete_statement,
     METH_VARARGS | METH_KEYWORDS,
     "True when the text ends in a complete SQL statement."},
    {"register_adapter", sq_register_adapter, METH_VARARGS,
     "Make callable(obj) the value bound for objects of the given type."},
    {"register_converter", sq_register_converter, METH_VARARGS,
     "Make callable(bytes) turn values of a declared type into objects."},
    {"enable_callback_tracebacks", sq_enable_callback_tracebacks, METH_O,
     "Report exceptions raised by user callbacks instead of dropping them."},
    {NULL},
};

#define C(name) {#name, name}

/* Authorizer action codes and verdicts, limit categories and config
   options; the result codes are added by exceptions.c. */
static const struct { const char *name; int value; } int_constants[] = {
    C(SQLITE_ALTER_TABLE), C(SQLITE_ANALYZE), C(SQLITE_ATTACH),
    C(SQLITE_CREATE_INDEX), C(SQLITE_CREATE_TABLE),
    C(SQLITE_CREATE_TEMP_INDEX), C(SQLITE_CREATE_TEMP_TABLE),
    C(SQLITE_CREATE_TEMP_TRIGGER), C(SQLITE_CREATE_TEMP_VIEW),
    C(SQLITE_CREATE_TRIGGER), C(SQLITE_CREATE_VIEW), C(SQLITE_CREATE_VTABLE),
    C(SQLITE_DBCONFIG_DEFENSIVE), C(SQLITE_DBCONFIG_DQS_DDL),
    C(SQLITE_DBCONFIG_DQS_DML), C(SQLITE_DBCONFIG_ENABLE_FKEY),
    C(SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER),
    C(SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION), C(SQLITE_DBCONFIG_ENABLE_QPSG),
    C(SQLITE_DBCONFIG_ENABLE_TRIGGER), C(SQLITE_DBCONFIG_ENABLE_VIEW),
    C(SQLITE_DBCONFIG_LEGACY_ALTER_TABLE),
    C(SQLITE_DBCONFIG_LEGACY_FILE_FORMAT),
    C(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE), C(SQLITE_DBCONFIG_RESET_DATABASE),
    C(SQLITE_DBCONFIG_TRIGGER_EQP), C(SQLITE_DBCONFIG_TRUSTED_SCHEMA),
    C(SQLITE_DBCONFIG_WRITABLE_SCHEMA), C(SQLITE_DELETE), C(SQLITE_DENY),
    C(SQLITE_DETACH), C(SQLITE_DROP_INDEX), C(SQLITE_DROP_TABLE),
    C(SQLITE_DROP_TEMP_INDEX), C(SQLITE_DROP_TEMP_TABLE),
    C(SQLITE_DROP_TEMP_TRIGGER), C(SQLITE_DROP_TEMP_VIEW),
    C(SQLITE_DROP_TRIGGER), C(SQLITE_DROP_VIEW), C(SQLITE_DROP_VTABLE),
    C(SQLITE_FUNCTION), C(SQLITE_IGNORE), C(SQLITE_INSERT),
    C(SQLITE_LIMIT_ATTACHED), C(SQLITE_LIMIT_COLUMN),
    C(SQLITE_LIMIT_COMPOUND_SELECT), C(SQLITE_LIMIT_EXPR_DEPTH),
    C(SQLITE_LIMIT_FUNCTION_ARG), C(SQLITE_LIMIT_LENGTH),
    C(SQLITE_LIMIT_LIKE_PATTERN_LENGTH), C(SQLITE_LIMIT_SQL_LENGTH),
    C(SQLITE_LIMIT_TRIGGER_DEPTH), C(SQLITE_LIMIT_VARIABLE_NUMBER),
    C(SQLITE_LIMIT_VDBE_OP), C(SQLITE_LIMIT_WORKER_THREADS), C(SQLITE_PRAGMA),
    C(SQLITE_READ), C(SQLITE_RECURSIVE), C(SQLITE_REINDEX),
    C(SQLITE_SAVEPOINT), C(SQLITE_SELECT), C(SQLITE_TRANSACTION),
    C(SQLITE_UPDATE),
    {"PARSE_DECLTYPES", SQ_PARSE_DECLTYPES},
    {"PARSE_COLNAMES", SQ_PARSE_COLNAMES},
    {"LEGACY_TRANSACTION_CONTROL", SQ_AUTOCOMMIT_LEGACY},
};

#undef C

/* PEP 249's threadsafety level for the library's compiled threading mode:
   serialized allows sharing connections (3), multi-thread only the module
   (1), single-thread nothing (0). */
static int
dbapi_threadsafety(void)
{
    switch (sqlite3_threadsafe()) {
    case 1:
        return 3;
    case 2:
        return 1;
    default:
        return 0;
    }
}

static int
add_constants(PyObject *m)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(int_constants); i++) {
        if (PyModule_AddIntConstant(m, int_constants[i].name,
                                    int_constants[i].value) < 0) {
            return -1;
        }
    }
    if (_PySqlite_AddErrorCodes(m) < 0
        || PyModule_AddIntConstant(m, "threadsafety", dbapi_threadsafety()) < 0
        || PyModule_AddStringConstant(m, "sqlite_version",
                                      sqlite3_libversion()) < 0) {
        return -1;
    }
    return 0;
}

static PyTypeObject *const exported_types[] = {
    &_PySqlite_ConnectionType, &_PySqlite_CursorType, &_PySqlite_RowType,
    &_PySqlite_BlobType, &_PySqlite_PrepareProtocolType,
};

static int
ready_types(PyObject *m)
{
    if (_PyStaticType_InitBuiltin(&_PySqlite_StatementType) < 0) {
        return -1;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(exported_types); i++) {
        PyTypeObject *type = exported_types[i];
        if (_PyStaticType_InitBuiltin(type) < 0) {
            return -1;
        }
        const char *dot = strrchr(type->tp_name, '.');
        if (PyModule_AddObjectRef(m, dot + 1, (PyObject *)type) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *state_owner;

static void
sqlite_module_free(void *m)
{
    if (m != state_owner) {
        return;
    }
    Py_CLEAR(SQ->adapters);
    Py_CLEAR(SQ->converters);
    _PySqlite_ClearExceptions();
    state_owner = NULL;
}

static struct PyModuleDef sqlite_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_sqlite3",
    .m_doc = "SQLite databases through the DB-API 2.0 interface.",
    .m_size = -1,
    .m_methods = module_methods,
    .m_free = sqlite_module_free,
};

static int
init_module(PyObject *m)
{
    if (sqlite3_libversion_number() < 3015002) {
        PyErr_SetString(PyExc_ImportError, "SQLite 3.15.2 or higher required");
        return -1;
    }
    if (sqlite3_initialize() != SQLITE_OK) {
        PyErr_SetString(PyExc_ImportError, "could not initialise SQLite");
        return -1;
    }
    if (ready_types(m) < 0 || _PySqlite_InitExceptions(m) < 0
        || _PySqlite_InitAdapters() < 0 || add_constants(m) < 0) {
        return -1;
    }
    if (SQ->converters == NULL && (SQ->converters = PyDict_New()) == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(m, "adapters", SQ->adapters) < 0
        || PyModule_AddObjectRef(m, "converters", SQ->converters) < 0
        || PyModule_AddFunctions(m, _PySqlite_AdapterMethods) < 0) {
        return -1;
    }
    if (state_owner == NULL) {
        state_owner = m;
    }
    return 0;
}

PyObject *
PyInit__sqlite3(void)
{
    PyObject *m = PyModule_Create(&sqlite_module_def);
    if (m != NULL && init_module(m) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
