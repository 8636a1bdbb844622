/* The table of modules built into the executable (besides sys and
   builtins, which start-up creates itself). */

#include "Python.h"
#include "pycore_pythonrun.h"

extern PyObject *PyInit__testinternalcapi(void);
extern PyObject *PyInit_gc(void);
extern PyObject *PyInit_time(void);
extern PyObject *PyInit_math(void);
extern PyObject *PyInit__weakref(void);
extern PyObject *PyInit__codecs(void);
extern PyObject *PyInit__string(void);
extern PyObject *PyInit__locale(void);
extern PyObject *PyInit__contextvars(void);

struct _inittab _PyImport_Inittab[] = {
    {"_testinternalcapi", PyInit__testinternalcapi},
    {"gc", PyInit_gc},
    {"time", PyInit_time},
    {"math", PyInit_math},
    {"_weakref", PyInit__weakref},
    {"_codecs", PyInit__codecs},
    {"_string", PyInit__string},
    {"_locale", PyInit__locale},
    {"_contextvars", PyInit__contextvars},
    {NULL, NULL},
};
