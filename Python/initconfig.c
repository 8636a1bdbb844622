/* The runtime configuration (Include/internal/pycore_initconfig.h): the
   defaults, the PYTHON* environment variables, and the -W / -X option
   lists that become sys.warnoptions and sys._xoptions. */

#include "Python.h"
#include "pycore_initconfig.h"

#include <errno.h>

_PyRuntimeConfig _Py_Config = {
    .use_environment = 1,
    .site_import = 1,
    .user_site_directory = 1,
    .write_bytecode = 1,
    .buffered_stdio = 1,
    .int_max_str_digits = -1,
};

/* A variable's value when the environment is honoured and it is set to
   something non-empty (CPython treats empty as unset). */
static const char *
env_value(const char *name)
{
    if (!_Py_Config.use_environment) {
        return NULL;
    }
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? value : NULL;
}

/* Flags that count (-v -v, PYTHONVERBOSE=2): a number, or 1 for any
   other text; the larger of the command line and the variable wins. */
static void
raise_from_env(int *field, const char *name)
{
    const char *value = env_value(name);
    if (value == NULL) {
        return;
    }
    char *end;
    long n = strtol(value, &end, 10);
    int level = (*end == '\0' && n >= 0 && n < 1000) ? (int)n : 1;
    if (level > *field) {
        *field = level;
    }
}

/* Switches that an environment variable can only turn off. */
static void
clear_from_env(int *field, const char *name)
{
    if (env_value(name) != NULL) {
        *field = 0;
    }
}

static int
append_option(const char ***list, int *count, const char *option)
{
    const char **grown = realloc(*list, (size_t)(*count + 1) * sizeof(**list));
    if (grown == NULL) {
        return -1;
    }
    grown[(*count)++] = option;
    *list = grown;
    return 0;
}

int
_PyConfig_AddWarnOption(const char *option)
{
    return append_option(&_Py_Config.warnoptions, &_Py_Config.nwarnoptions, option);
}

int
_PyConfig_AddXOption(const char *option)
{
    return append_option(&_Py_Config.xoptions, &_Py_Config.nxoptions, option);
}

/* PYTHONWARNINGS is a comma-separated list; its entries come before the
   -W options, which therefore take precedence in the warnings filters. */
static void
read_warnings_variable(void)
{
    const char *value = env_value("PYTHONWARNINGS");
    if (value == NULL) {
        return;
    }
    const char **given = _Py_Config.warnoptions;
    int ngiven = _Py_Config.nwarnoptions;
    _Py_Config.warnoptions = NULL;
    _Py_Config.nwarnoptions = 0;
    char *copy = strdup(value); /* kept for the life of the process */
    for (char *item = strtok(copy, ","); item != NULL; item = strtok(NULL, ",")) {
        _PyConfig_AddWarnOption(item);
    }
    for (int i = 0; i < ngiven; i++) {
        _PyConfig_AddWarnOption(given[i]);
    }
    free(given);
}

/* PYTHONHASHSEED: unset or "random" leaves the key to the OS; otherwise
   a decimal number below 2**32 (an optional '+', no sign, no trailing
   text) fixes it.  -R overrides the variable. */
static int
read_hash_seed(void)
{
    const char *value = env_value("PYTHONHASHSEED");
    if (_Py_Config.hash_random_forced || value == NULL || strcmp(value, "random") == 0) {
        return 0;
    }
    const char *digits = value;
    while (*digits == ' ' || (*digits >= '\t' && *digits <= '\r')) {
        digits++;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(value, &end, 10);
    if (*digits == '-' || end == value || *end != '\0' || errno != 0 || n > 0xFFFFFFFFULL) {
        fprintf(stderr, "Fatal Python error: PYTHONHASHSEED must be \"random\" or an integer "
                        "in range [0; 4294967295]\n");
        return -1;
    }
    _Py_Config.use_hash_seed = 1;
    _Py_Config.hash_seed = (unsigned long)n;
    return 0;
}

int
_PyConfig_ReadEnvironment(void)
{
    if (_Py_Config.isolated) {
        _Py_Config.use_environment = 0;
        _Py_Config.user_site_directory = 0;
        _Py_Config.safe_path = 1;
    }
    raise_from_env(&_Py_Config.optimization_level, "PYTHONOPTIMIZE");
    raise_from_env(&_Py_Config.verbose, "PYTHONVERBOSE");
    raise_from_env(&_Py_Config.parser_debug, "PYTHONDEBUG");
    raise_from_env(&_Py_Config.inspect, "PYTHONINSPECT");
    raise_from_env(&_Py_Config.safe_path, "PYTHONSAFEPATH");
    raise_from_env(&_Py_Config.dev_mode, "PYTHONDEVMODE");
    raise_from_env(&_Py_Config.warn_default_encoding, "PYTHONWARNDEFAULTENCODING");
    raise_from_env(&_Py_Config.thread_inherit_context, "PYTHON_THREAD_INHERIT_CONTEXT");
    raise_from_env(&_Py_Config.context_aware_warnings, "PYTHON_CONTEXT_AWARE_WARNINGS");
    clear_from_env(&_Py_Config.write_bytecode, "PYTHONDONTWRITEBYTECODE");
    clear_from_env(&_Py_Config.buffered_stdio, "PYTHONUNBUFFERED");
    clear_from_env(&_Py_Config.user_site_directory, "PYTHONNOUSERSITE");
    const char *digits = env_value("PYTHONINTMAXSTRDIGITS");
    if (digits != NULL && _Py_Config.int_max_str_digits < 0) {
        _Py_Config.int_max_str_digits = atoi(digits);
    }
    raise_from_env(&_Py_Config.import_time, "PYTHONPROFILEIMPORTTIME");
    /* Any non-empty value turns it on, "0" included, as in CPython. */
    if (env_value("PYTHONFAULTHANDLER") != NULL || _Py_Config.dev_mode) {
        _Py_Config.faulthandler = 1;
    }
    if (_Py_Config.pycache_prefix == NULL) {
        _Py_Config.pycache_prefix = env_value("PYTHONPYCACHEPREFIX");
    }
    _Py_Config.pythonpath = env_value("PYTHONPATH");
    _Py_Config.startup = env_value("PYTHONSTARTUP");
    read_warnings_variable();
    return read_hash_seed();
}

PyObject *
_PyConfig_WarnOptionsList(void)
{
    PyObject *list = PyList_New(0);
    for (int i = 0; list != NULL && i < _Py_Config.nwarnoptions; i++) {
        PyObject *item = PyUnicode_DecodeFSDefault(_Py_Config.warnoptions[i]);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(item);
    }
    return list;
}

/* "-X name=value" maps name to the str value, "-X name" to True. */
static int
add_xoption(PyObject *dict, const char *option)
{
    const char *eq = strchr(option, '=');
    PyObject *key, *value;
    if (eq == NULL) {
        key = PyUnicode_DecodeFSDefault(option);
        value = Py_NewRef(Py_True);
    }
    else {
        key = PyUnicode_DecodeFSDefaultAndSize(option, eq - option);
        value = PyUnicode_DecodeFSDefault(eq + 1);
    }
    int err = key == NULL || value == NULL || PyDict_SetItem(dict, key, value) < 0;
    Py_XDECREF(key);
    Py_XDECREF(value);
    return err ? -1 : 0;
}

PyObject *
_PyConfig_XOptionsDict(void)
{
    PyObject *dict = PyDict_New();
    for (int i = 0; dict != NULL && i < _Py_Config.nxoptions; i++) {
        if (add_xoption(dict, _Py_Config.xoptions[i]) < 0) {
            Py_CLEAR(dict);
        }
    }
    return dict;
}
