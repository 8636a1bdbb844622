/* The command line: `python [option] ... [-c cmd | -m mod | file | -] [arg] ...`.

   Exit statuses follow CPython: 0 on success, 1 for an uncaught
   exception, SystemExit's code, 2 for usage errors and unreadable
   scripts, 120 when flushing at exit fails. */

#include "Python.h"
#include "pycore_jit.h"
#include "pycore_optimizer.h"
#include "pycore_import.h"
#include "pycore_initconfig.h"
#include "pycore_pythonrun.h"
#include "pycore_stress.h"
#include "pycore_sysmodule.h"

#include <errno.h>
#include <unistd.h>

extern int _Py_ShowRefcount;
extern int _Py_Specialization_Enabled;
int _Py_JitRequested = -1; /* -X jit / PYTHON_JIT: 1 on, 0 off, -1 default */
static int perf_map_requested = 0;  /* -X perf: JIT code named in /tmp/perf-PID.map */
static int jit_stress = 0;  /* -X jit_stress: tier-2 thresholds at their minimum */
static int stats_requested = 0;  /* -X pystats or PYTHONSTATS: tier-2 figures at exit */

static const char usage_text[] =
    "usage: python [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
    "Options (and corresponding environment variables):\n"
    "-b     : issue warnings about str(bytes) and comparing bytes with str (-bb: errors)\n"
    "-B     : don't write .pyc files on import; also PYTHONDONTWRITEBYTECODE=x\n"
    "-c cmd : program passed in as string (terminates option list)\n"
    "-d     : turn on parser debugging output (no effect in this build)\n"
    "-E     : ignore PYTHON* environment variables (such as PYTHONPATH)\n"
    "-h     : print this help message and exit (also -? or --help)\n"
    "-I     : isolate Python from the user's environment (implies -E, -P and -s)\n"
    "-m mod : run library module as a script (terminates option list)\n"
    "-O     : remove assert and __debug__-dependent statements; -OO also drops docstrings\n"
    "-P     : don't prepend a potentially unsafe path to sys.path\n"
    "-q     : don't print version and copyright messages on interactive startup\n"
    "-R     : accepted for compatibility (see Doc/startup.md)\n"
    "-s     : don't add user site directory to sys.path; also PYTHONNOUSERSITE=x\n"
    "-S     : don't imply 'import site' on initialization\n"
    "-u     : force the stdout and stderr streams to be unbuffered\n"
    "-v     : verbose (trace import statements); also PYTHONVERBOSE=x\n"
    "-V     : print the Python version number and exit (also --version)\n"
    "-W arg : warning control; arg is action:message:category:module:lineno\n"
    "-X opt : set implementation-specific option:\n"
    "         -X faulthandler: dump Python tracebacks on fatal signals (also PYTHONFAULTHANDLER)\n"
    "         -X jit, -X jit=0|1: switch the JIT on or off (also PYTHON_JIT)\n"
    "         -X showrefcount: print the total reference count at exit (debug builds)\n"
    "         -X specialization=0: run every instruction in its generic form\n"
    "file   : program read from script file\n"
    "-      : program read from stdin (default; interactive mode if a tty)\n"
    "arg ...: arguments passed to program in sys.argv[1:]\n";

/* PYTHONSTRESSALLOC=N, N:M or N: (stress build; see pycore_stress.h): the
   numbers of the allocations the main program sees fail, counting from 1.
   Returns 0 when unset, 1 when parsed into *first and *last (last 0: no end), -1
   when malformed. */
static int
stress_alloc_window(Py_ssize_t *first, Py_ssize_t *last)
{
    const char *spec = _Py_Config.use_environment ? getenv("PYTHONSTRESSALLOC") : NULL;
    if (spec == NULL || spec[0] == '\0') {
        return 0;
    }
    char *end;
    errno = 0;
    long long n = strtoll(spec, &end, 10);
    if (errno != 0 || end == spec || n < 1) {
        return -1;
    }
    long long m = n;
    if (*end == ':') {
        const char *rest = end + 1;
        m = 0;
        if (*rest != '\0') {
            m = strtoll(rest, &end, 10);
            if (errno != 0 || end == rest || m < n) {
                return -1;
            }
        }
        else {
            end = (char *)rest;
        }
    }
    if (*end != '\0') {
        return -1;
    }
    *first = (Py_ssize_t)n;
    *last = (Py_ssize_t)m;
    return 1;
}

/* Checks PYTHONSTRESSALLOC before start-up; 0 or an exit status. */
static int
check_stress_alloc(const char *program, Py_ssize_t *first, Py_ssize_t *last)
{
    int found = stress_alloc_window(first, last);
    if (found == 0) {
        return 0;
    }
    if (!_Py_STRESS) {
        fprintf(stderr, "%s: PYTHONSTRESSALLOC: this build injects no allocation "
                        "failures (configure --with-stress)\n", program);
        return 2;
    }
    if (found < 0) {
        fprintf(stderr, "%s: PYTHONSTRESSALLOC takes N, N:M or N: (allocation numbers "
                        "from 1, M >= N), not '%s'\n", program, getenv("PYTHONSTRESSALLOC"));
        return 2;
    }
    return 0;
}

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

/* The one-letter switches without an argument; 0 for an unknown one. */
static int
apply_flag(char flag)
{
    _PyRuntimeConfig *config = &_Py_Config;
    switch (flag) {
    case 'b': config->bytes_warning++; break;
    case 'B': config->write_bytecode = 0; break;
    case 'd': config->parser_debug++; break;
    case 'E': config->use_environment = 0; break;
    case 'I': config->isolated = 1; break;
    case 'O': config->optimization_level++; break;
    case 'P': config->safe_path = 1; break;
    case 'q': config->quiet = 1; break;
    case 'R': config->hash_random_forced = 1; break;
    case 's': config->user_site_directory = 0; break;
    case 'S': config->site_import = 0; break;
    case 'u': config->buffered_stdio = 0; break;
    case 'v': config->verbose++; break;
    default: return 0;
    }
    return 1;
}

static void
apply_xoption(const char *opt)
{
    _PyConfig_AddXOption(opt);
    if (strcmp(opt, "dev") == 0) {
        _Py_Config.dev_mode = 1;
    }
    else if (strcmp(opt, "warn_default_encoding") == 0) {
        _Py_Config.warn_default_encoding = 1;
    }
    else if (strncmp(opt, "int_max_str_digits=", 19) == 0) {
        _Py_Config.int_max_str_digits = atoi(opt + 19);
    }
    else if (strcmp(opt, "faulthandler") == 0) {
        _Py_Config.faulthandler = 1;
    }
    else if (strcmp(opt, "importtime") == 0) {
        _Py_Config.import_time = 1;
    }
    else if (strncmp(opt, "pycache_prefix=", 15) == 0) {
        _Py_Config.pycache_prefix = opt + 15;
    }
    else if (strncmp(opt, "thread_inherit_context", 22) == 0) {
        _Py_Config.thread_inherit_context = strcmp(opt + 22, "=0") != 0;
    }
    else if (strncmp(opt, "context_aware_warnings", 22) == 0) {
        _Py_Config.context_aware_warnings = strcmp(opt + 22, "=0") != 0;
    }
    if (strcmp(opt, "showrefcount") == 0) {
        _Py_ShowRefcount = 1;
    }
    else if (strcmp(opt, "jit") == 0 || strcmp(opt, "jit=1") == 0) {
        _Py_JitRequested = 1;
    }
    else if (strcmp(opt, "jit=0") == 0) {
        _Py_JitRequested = 0;
    }
    else if (strcmp(opt, "jit_stress") == 0) {
        jit_stress = 1;
    }
    else if (strcmp(opt, "perf") == 0) {
        perf_map_requested = 1;
    }
    else if (strcmp(opt, "pystats") == 0) {
        stats_requested = 1;
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

/* ---- The interactive interpreter (Doc/repl.md) ---------------------------- */

static void
print_banner(void)
{
    PyObject *platform = PySys_GetObject("platform");
    const char *name = platform != NULL && PyUnicode_Check(platform)
                       ? PyUnicode_AsUTF8(platform) : NULL;
    if (name == NULL) {
        PyErr_Clear();
        name = "unknown";
    }
    fprintf(stderr, "Python %s on %s\n", Py_GetVersion(), name);
    fputs("Type \"help\", \"copyright\", \"credits\" or \"license\" "
          "for more information.\n", stderr);
    fflush(stderr);
}

/* PYTHONSTARTUP runs in __main__ before the first prompt of a REPL that
   has no main program; its errors are reported and the REPL goes on. */
static void
run_startup_file(void)
{
    const char *path = _Py_Config.startup;
    if (path == NULL || path[0] == '\0') {
        return;
    }
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        int err = errno;
        PySys_WriteStderr("Could not open PYTHONSTARTUP\n");
        errno = err;
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
        PyErr_Print();
        return;
    }
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    (void)PyRun_SimpleFileExFlags(fp, path, 1, &cf);
}

/* The basic REPL reads the C stdin; it also is what _pyrepl falls back on. */
static int
run_basic_repl(int with_startup)
{
    if (with_startup) {
        run_startup_file();
    }
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    PyObject *name = PyUnicode_FromString("<stdin>");
    if (name == NULL) {
        return _PyRun_HandleUncaught();
    }
    int r = _PyRun_InteractiveLoopObject(stdin, name, &cf);
    Py_DECREF(name);
    return r < 0 ? 1 : 0;
}

/* 3.14's default REPL, the pure-Python _pyrepl, for a terminal on both
   stdin and stdout.  _pyrepl.main.interactive_console itself falls back
   to sys._baserepl() (with "warning: can't use pyrepl: ...") when the
   terminal cannot support it; if the package cannot even be imported,
   the error is shown and the basic REPL runs. */
static int
run_repl(int with_startup)
{
    _PyRun_MarkReplStarted();
    const char *basic = _Py_Config.use_environment ? getenv("PYTHON_BASIC_REPL") : NULL;
    if ((basic != NULL && basic[0] != '\0') || !isatty(fileno(stdin))
        || !isatty(fileno(stdout))) {
        return run_basic_repl(with_startup);
    }
    PyObject *console = _PyImport_GetModuleAttrString("_pyrepl.main", "interactive_console");
    if (console == NULL) {
        PyErr_Print();
        return run_basic_repl(with_startup);
    }
    PyObject *main_module = PyImport_AddModuleRef("__main__");
    PyObject *kwargs = main_module == NULL ? NULL
        : Py_BuildValue("{sOsOsO}", "mainmodule", main_module,
                        "quiet", _Py_Config.quiet ? Py_True : Py_False,
                        "pythonstartup", with_startup ? Py_True : Py_False);
    PyObject *res = kwargs ? PyObject_VectorcallDict(console, NULL, 0, kwargs) : NULL;
    Py_XDECREF(kwargs);
    Py_XDECREF(main_module);
    Py_DECREF(console);
    if (res == NULL) {
        return _PyRun_HandleUncaught();
    }
    Py_DECREF(res);
    return 0;
}

/* -m: runpy finds the module and runs it as __main__ (it sets
   sys.argv[0], __spec__ and __package__, and reports a missing module as
   "python: No module named x"). */
static int
run_module(const char *module)
{
    PyObject *run = _PyImport_GetModuleAttrString("runpy", "_run_module_as_main");
    if (run == NULL) {
        fprintf(stderr, "Could not import runpy module\n");
        return _PyRun_HandleUncaught();
    }
    PyObject *res = PyObject_CallFunction(run, "sO", module, Py_True);
    Py_DECREF(run);
    if (res == NULL) {
        return _PyRun_HandleUncaught();
    }
    Py_DECREF(res);
    return 0;
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
            printf("Python %s\n", PY_VERSION);
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
                /* -VV adds the build and compiler, as sys.version has. */
                printf("Python %s\n", p[1] == 'V' ? Py_GetVersion() : PY_VERSION);
                return 0;
            case 'h':
            case '?':
                return usage(0, argv[0]);
            case 'i':
                _Py_Config.inspect = 1;
                _Py_Config.interactive = 1;
                break;
            case 'W': {
                const char *value = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
                if (value == NULL) {
                    fprintf(stderr, "Argument expected for the -W option\n");
                    return usage(2, argv[0]);
                }
                _PyConfig_AddWarnOption(value);
                goto next_arg;
            }
            default:
                if (!apply_flag(*p)) {
                    fprintf(stderr, "Unknown option: -%c\n", *p);
                    return usage(2, argv[0]);
                }
                break;
            }
        }
    next_arg:;
    }
options_done:;
    if (_PyConfig_ReadEnvironment() < 0) {
        return 1;
    }
    const char *env_jit = _Py_Config.use_environment ? getenv("PYTHON_JIT") : NULL;
    if (env_jit != NULL && _Py_JitRequested < 0) {
        _Py_JitRequested = strcmp(env_jit, "0") != 0;
    }
    const char *env_stats = _Py_Config.use_environment ? getenv("PYTHONSTATS") : NULL;
    if (env_stats != NULL && env_stats[0] != '\0') {
        stats_requested = 1;
    }
#ifdef Py_STATS
    _Py_Stats_Requested = stats_requested;
#else
    if (stats_requested) {
        fprintf(stderr, "%s: -X pystats / PYTHONSTATS: this build counts no statistics "
                        "(configure --enable-experimental-jit=interpreter --enable-pystats)\n",
                argv[0]);
        return 2;
    }
#endif
    const char *env_perf = _Py_Config.use_environment ? getenv("PYTHONPERFSUPPORT") : NULL;
    if (env_perf != NULL && env_perf[0] != '\0' && strcmp(env_perf, "0") != 0) {
        perf_map_requested = 1;
    }
#ifdef _Py_JIT
    _Py_JIT_PerfMap = perf_map_requested;
#else
    /* The perf map names JIT code; this build makes none, and perf's own
       view of the interpreter needs no switch. */
    if (perf_map_requested) {
        fprintf(stderr, "%s: -X perf / PYTHONPERFSUPPORT: this build has no JIT code to "
                        "name in a perf map (configure --enable-experimental-jit)\n", argv[0]);
        return 2;
    }
#endif
    Py_ssize_t fail_first = 0, fail_last = -1;
    int stress_status = check_stress_alloc(argv[0], &fail_first, &fail_last);
    if (stress_status != 0) {
        return stress_status;
    }
#ifdef _Py_TIER2
    /* Before any code object exists: back edges get their tier-2
       counters when code is made. */
    _PyTier2_Init(jit_stress || _Py_STRESS);
#ifdef _Py_JIT_DEFAULT_ON
    _Py_Tier2_Enabled = _Py_JitRequested != 0;
#else
    _Py_Tier2_Enabled = _Py_JitRequested == 1;
#endif
#else
    /* Asking for the JIT on a build without one is refused, not ignored:
       a user who times `-X jit` must not be timing the interpreter. */
    if (_Py_JitRequested == 1 || jit_stress) {
        fprintf(stderr, "%s: %s: this build has no tier 2 or JIT "
                        "(configure --enable-experimental-jit=interpreter)\n", argv[0],
                jit_stress ? "-X jit_stress" : "-X jit / PYTHON_JIT=1");
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

    if (_Py_InitializeMain(argc, argv, script_index, module != NULL) < 0 || _PySys_SetArgv(sys_argc, sys_argv) < 0) {
        PyErr_Print();
        free(sys_argv);
        return 1;
    }
    int status;
    if (fail_last >= 0) {
        _PyMem_SetNoMemory(fail_first - 1, fail_last);
    }
    if (command != NULL) {
        status = _PyRun_MainCommand(command);
    }
    else if (module != NULL) {
        status = run_module(module);
    }
    else if (script_index >= 0) {
        status = _PyRun_MainFile(argv[script_index]);
    }
    else if (isatty(fileno(stdin)) || _Py_Config.interactive) {
        /* No main program: the REPL, announced unless -q. */
        if (!_Py_Config.quiet) {
            print_banner();
        }
        status = run_repl(1);
    }
    else {
        status = run_stdin();
    }
    /* Finalization gets its memory: the window is the program's. */
    _PyMem_ClearNoMemory();
    if ((command != NULL || module != NULL || script_index >= 0) && _PyRun_InspectAfterMain()) {
        /* -i / PYTHONINSPECT: look around after the program, even after
           an uncaught exception; the status is then the REPL's. */
        status = run_repl(0);
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
