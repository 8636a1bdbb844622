/* The table of modules built into the executable (besides sys and
   builtins, which start-up creates itself). */

#include "Python.h"
#include "pycore_pythonrun.h"

extern PyObject *PyInit__testinternalcapi(void);
extern PyObject *PyInit_gc(void);
extern PyObject *PyInit_time(void);
extern PyObject *PyInit_math(void);
extern PyObject *PyInit__ast(void);
extern PyObject *PyInit__typing(void);

struct _inittab _PyImport_Inittab[] = {
    {"_testinternalcapi", PyInit__testinternalcapi},
    {"gc", PyInit_gc},
    {"time", PyInit_time},
    {"math", PyInit_math},
    {"_ast", PyInit__ast},
    {"_typing", PyInit__typing},
    {NULL, NULL},
};
