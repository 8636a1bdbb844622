/* The table of modules built into the executable (besides sys and
   builtins, which start-up creates itself). */

#include "Python.h"
#include "pycore_pythonrun.h"

extern PyObject *PyInit__testinternalcapi(void);
extern PyObject *PyInit_gc(void);
extern PyObject *PyInit_time(void);
extern PyObject *PyInit_math(void);
extern PyObject *PyInit__collections(void);
extern PyObject *PyInit__functools(void);
extern PyObject *PyInit__operator(void);
extern PyObject *PyInit_itertools(void);

struct _inittab _PyImport_Inittab[] = {
    {"_testinternalcapi", PyInit__testinternalcapi},
    {"gc", PyInit_gc},
    {"time", PyInit_time},
    {"math", PyInit_math},
    {"_collections", PyInit__collections},
    {"_functools", PyInit__functools},
    {"_operator", PyInit__operator},
    {"itertools", PyInit_itertools},
    {NULL, NULL},
};
