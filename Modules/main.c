/* The command line: `python [option] ... [-c cmd | -m mod | file | -] [arg] ...`.

   Exit statuses follow CPython: 0 on success, 1 for an uncaught
   exception, SystemExit's code, 2 for usage errors and unreadable
   scripts, 120 when flushing at exit fails. */

#include "Python.h"
#include "pycore_pythonrun.h"
#include "pycore_sysmodule.h"

extern int _Py_ShowRefcount;
extern int _Py_Specialization_Enabled;
int _Py_JitRequested = -1; /* -X jit / PYTHON_JIT: 1 on, 0 off, -1 default */

static const char usage_text[] =
    "usage: python [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
    "Options (and corresponding environment variables):\n"
    "-c cmd : program passed in as string (terminates option list)\n"
    "-h     : print this help message and exit (also -? or --help)\n"
    "-m mod : run library module as a script (terminates option list)\n"
    "-u     : force the stdout and stderr streams to be unbuffered\n"
    "-V     : print the Python version number and exit (also --version)\n"
    "-X opt : set implementation-specific option:\n"
    "         -X jit, -X jit=0|1: switch the JIT on or off (also PYTHON_JIT)\n"
    "         -X showrefcount: print the total reference count at exit (debug builds)\n"
    "         -X specialization=0: run every instruction in its generic form\n"
    "file   : program read from script file\n"
    "-      : program read from stdin (default; interactive mode if a tty)\n"
    "arg ...: arguments passed to program in sys.argv[1:]\n";

static int
usage(int status, const char *program)
{
    FILE *f = status ? stderr : stdout;
    if (status) {
        fprintf(f, "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
                   "Try `python -h' for more information.\n", program);
    }
    else {
        fputs(usage_text, f);
    }
    return status;
}

static void
apply_xoption(const char *opt)
{
    if (strcmp(opt, "showrefcount") == 0) {
        _Py_ShowRefcount = 1;
    }
    else if (strcmp(opt, "jit") == 0 || strcmp(opt, "jit=1") == 0) {
        _Py_JitRequested = 1;
    }
    else if (strcmp(opt, "jit=0") == 0) {
        _Py_JitRequested = 0;
    }
    else if (strcmp(opt, "specialization=0") == 0) {
        _Py_Specialization_Enabled = 0;
    }
    /* Unknown -X options are accepted and ignored, as CPython does. */
}

static int
run_stdin(void)
{
    size_t cap = 8192, len = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        return 1;
    }
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
        len += n;
        if (len + 1 >= cap) {
            cap *= 2;
            char *nbuf = realloc(buf, cap);
            if (nbuf == NULL) {
                free(buf);
                return 1;
            }
            buf = nbuf;
        }
    }
    buf[len] = '\0';
    int status = _PyRun_MainCommand(buf);
    free(buf);
    return status;
}

/* -m: run the module's source as __main__, with sys.argv[0] its path. */
static int
run_module(const char *module)
{
    PyObject *name = PyUnicode_FromString(module);
    PyObject *filename = name ? _PyImport_FindMainSource(name) : NULL;
    Py_XDECREF(name);
    if (filename == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ImportError)) {
            PyObject *exc = PyErr_GetRaisedException();
            PyObject *msg = PyObject_Str(exc);
            fprintf(stderr, "%s: %s\n", "python", msg ? PyUnicode_AsUTF8(msg) : module);
            Py_XDECREF(msg);
            Py_DECREF(exc);
            return 1;
        }
        return _PyRun_HandleUncaught();
    }
    /* Relative imports in the module resolve against its package. */
    PyObject *package = PyObject_CallMethod(filename, "endswith", "s", "/__main__.py");
    int is_package_main = package == Py_True;
    Py_XDECREF(package);
    PyObject *pkg_name = NULL;
    if (is_package_main) {
        pkg_name = PyUnicode_FromString(module);
    }
    else {
        PyObject *n = PyUnicode_FromString(module);
        PyObject *parts = n ? PyObject_CallMethod(n, "rpartition", "s", ".") : NULL;
        pkg_name = parts ? Py_NewRef(PyTuple_GET_ITEM(parts, 0)) : NULL;
        Py_XDECREF(parts);
        Py_XDECREF(n);
    }
    PyObject *main_mod = PyImport_AddModuleRef("__main__");
    if (main_mod == NULL || pkg_name == NULL ||
        PyObject_SetAttrString(main_mod, "__package__", pkg_name) < 0) {
        Py_XDECREF(main_mod);
        Py_XDECREF(pkg_name);
        Py_DECREF(filename);
        return _PyRun_HandleUncaught();
    }
    Py_DECREF(main_mod);
    Py_DECREF(pkg_name);
    PyObject *argv = PySys_GetObject("argv");
    if (argv != NULL && PyList_Check(argv) && PyList_GET_SIZE(argv) > 0) {
        PyList_SetItem(argv, 0, Py_NewRef(filename));
    }
    int status = _PyRun_MainFile(PyUnicode_AsUTF8(filename));
    Py_DECREF(filename);
    return status;
}

int
Py_BytesMain(int argc, char **argv)
{
    const char *command = NULL;
    const char *module = NULL;
    int script_index = -1;
    int i;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            break;
        }
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(arg, "--version") == 0) {
            printf("Python 3.14.0\n");
            return 0;
        }
        if (strcmp(arg, "--help") == 0) {
            return usage(0, argv[0]);
        }
        for (const char *p = arg + 1; *p; p++) {
            switch (*p) {
            case 'c':
            case 'm':
            case 'X': {
                const char *value = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
                if (value == NULL) {
                    fprintf(stderr, "Argument expected for the -%c option\n", *p);
                    return usage(2, argv[0]);
                }
                if (*p == 'X') {
                    apply_xoption(value);
                    goto next_arg;
                }
                if (*p == 'c') {
                    command = value;
                }
                else {
                    module = value;
                }
                i++;
                goto options_done;
            }
            case 'V':
                printf("Python 3.14.0\n");
                return 0;
            case 'h':
            case '?':
                return usage(0, argv[0]);
            case 'u':
                Py_UnbufferedStdioFlag = 1;
                break;
            case 'B': case 'E': case 'I': case 'S': case 's': case 'O':
            case 'q': case 'b': case 'd': case 'i': case 'v': case 'R': case 'P':
                break; /* accepted; not all have an effect yet */
            case 'W': {
                if (!p[1]) {
                    i++;
                }
                goto next_arg;
            }
            default:
                fprintf(stderr, "Unknown option: -%c\n", *p);
                return usage(2, argv[0]);
            }
        }
    next_arg:;
    }
options_done:;
    const char *env_jit = getenv("PYTHON_JIT");
    if (env_jit != NULL && _Py_JitRequested < 0) {
        _Py_JitRequested = strcmp(env_jit, "0") != 0;
    }
#ifndef _Py_JIT
    /* Asking for the JIT on a build without one is refused, not ignored:
       a user who times `-X jit` must not be timing the interpreter. */
    if (_Py_JitRequested == 1) {
        fprintf(stderr, "%s: -X jit / PYTHON_JIT=1: this build has no JIT "
                        "(configure --enable-experimental-jit)\n", argv[0]);
        return 2;
    }
#endif

    /* sys.argv: [script or -c or -m or '', args...] */
    int rest = i;
    char **sys_argv;
    int sys_argc;
    char *c_marker = "-c";
    char *empty = "";
    if (command != NULL || module != NULL) {
        sys_argc = 1 + (argc - rest);
        sys_argv = malloc(sizeof(char *) * (size_t)sys_argc);
        sys_argv[0] = command ? c_marker : (char *)module;
        for (int k = rest; k < argc; k++) {
            sys_argv[1 + k - rest] = argv[k];
        }
    }
    else if (rest < argc) {
        script_index = rest;
        sys_argc = argc - rest;
        sys_argv = malloc(sizeof(char *) * (size_t)sys_argc);
        for (int k = rest; k < argc; k++) {
            sys_argv[k - rest] = argv[k];
        }
        if (strcmp(argv[rest], "-") == 0) {
            script_index = -1;
        }
    }
    else {
        sys_argc = 1;
        sys_argv = malloc(sizeof(char *));
        sys_argv[0] = empty;
    }

    if (_Py_InitializeMain(argc, argv, script_index) < 0 || _PySys_SetArgv(sys_argc, sys_argv) < 0) {
        PyErr_Print();
        free(sys_argv);
        return 1;
    }
    int status;
    if (command != NULL) {
        status = _PyRun_MainCommand(command);
    }
    else if (module != NULL) {
        status = run_module(module);
    }
    else if (script_index >= 0) {
        status = _PyRun_MainFile(argv[script_index]);
    }
    else {
        status = run_stdin();
    }
    free(sys_argv);
    if (Py_FinalizeEx() < 0 && status == 0) {
        status = 120;
    }
    return status;
}

int
Py_Main(int argc, wchar_t **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "Py_Main with wide arguments is not supported; use Py_BytesMain\n");
    return 2;
}
