/* The table of modules built into the executable (besides sys and
   builtins, which start-up creates itself). */

#include "Python.h"
#include "pycore_pythonrun.h"

extern PyObject *PyInit__testinternalcapi(void);
extern PyObject *PyInit_gc(void);
extern PyObject *PyInit_time(void);
extern PyObject *PyInit_math(void);
extern PyObject *PyInit_marshal(void);
extern PyObject *PyInit__struct(void);
extern PyObject *PyInit_binascii(void);
extern PyObject *PyInit__random(void);
extern PyObject *PyInit_cmath(void);

struct _inittab _PyImport_Inittab[] = {
    {"_testinternalcapi", PyInit__testinternalcapi},
    {"gc", PyInit_gc},
    {"time", PyInit_time},
    {"math", PyInit_math},
    {"marshal", PyInit_marshal},
    {"_struct", PyInit__struct},
    {"binascii", PyInit_binascii},
    {"_random", PyInit__random},
    {"cmath", PyInit_cmath},
    {NULL, NULL},
};
