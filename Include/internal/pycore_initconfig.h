/* The runtime's configuration: what the command line and the PYTHON*
   environment variables asked for (Python/initconfig.c).  Modules/main.c
   fills it before start-up; sys.flags, site, the import system and the
   standard streams read it. */
#ifndef Py_INTERNAL_INITCONFIG_H
#define Py_INTERNAL_INITCONFIG_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

typedef struct {
    int isolated;              /* -I: implies -E, -s and -P */
    int use_environment;       /* 0 with -E: PYTHON* variables are ignored */
    int site_import;           /* 0 with -S: no `import site` at start-up */
    int user_site_directory;   /* 0 with -s / PYTHONNOUSERSITE */
    int write_bytecode;        /* 0 with -B / PYTHONDONTWRITEBYTECODE */
    int buffered_stdio;        /* 0 with -u / PYTHONUNBUFFERED */
    int optimization_level;    /* -O count / PYTHONOPTIMIZE */
    int verbose;               /* -v count / PYTHONVERBOSE */
    int quiet;                 /* -q */
    int inspect;               /* -i / PYTHONINSPECT */
    int interactive;           /* the REPL reads a terminal */
    int bytes_warning;         /* -b count */
    int parser_debug;          /* -d / PYTHONDEBUG */
    int safe_path;             /* -P / PYTHONSAFEPATH: no script directory on sys.path */
    int dev_mode;              /* -X dev / PYTHONDEVMODE */
    int warn_default_encoding; /* -X warn_default_encoding / PYTHONWARNDEFAULTENCODING */
    int int_max_str_digits;    /* -X int_max_str_digits / PYTHONINTMAXSTRDIGITS; -1 default */
    int thread_inherit_context; /* -X thread_inherit_context / PYTHON_THREAD_INHERIT_CONTEXT:
                                   threading.py gives new threads a copy of the context */
    int faulthandler;          /* -X faulthandler / PYTHONFAULTHANDLER / -X dev:
                                  faulthandler.enable() at start-up */
    int import_time;           /* -X importtime / PYTHONPROFILEIMPORTTIME */
    int hash_random_forced;    /* -R: a random hash key whatever PYTHONHASHSEED says */
    int use_hash_seed;         /* PYTHONHASHSEED is a number: the hash key comes from it */
    unsigned long hash_seed;   /* that number; 0 turns hash randomization off */
    const char *pycache_prefix; /* -X pycache_prefix / PYTHONPYCACHEPREFIX: sys.pycache_prefix */
    int context_aware_warnings; /* -X context_aware_warnings / PYTHON_CONTEXT_AWARE_WARNINGS:
                                   the warnings module keeps its filters in a context var */
    /* -W options then PYTHONWARNINGS entries, and -X options: kept as
       given (pointers into argv/environ), turned into sys.warnoptions
       and sys._xoptions at start-up. */
    const char **warnoptions;
    int nwarnoptions;
    const char **xoptions;
    int nxoptions;
    const char *pythonpath;    /* PYTHONPATH, NULL when unset or ignored */
    const char *startup;       /* PYTHONSTARTUP, for the interactive REPL */
} _PyRuntimeConfig;

PyAPI_DATA(_PyRuntimeConfig) _Py_Config;

/* Read the PYTHON* variables into _Py_Config (after the command line,
   which wins where both speak).  -1, with a message on stderr, when a
   variable holds a value start-up must refuse (PYTHONHASHSEED). */
PyAPI_FUNC(int) _PyConfig_ReadEnvironment(void);
PyAPI_FUNC(int) _PyConfig_AddWarnOption(const char *option);
PyAPI_FUNC(int) _PyConfig_AddXOption(const char *option);
/* sys.warnoptions and sys._xoptions from the options kept. */
PyAPI_FUNC(PyObject *) _PyConfig_WarnOptionsList(void);
PyAPI_FUNC(PyObject *) _PyConfig_XOptionsDict(void);

#endif /* !Py_INTERNAL_INITCONFIG_H */
