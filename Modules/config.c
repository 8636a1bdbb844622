/* The table of modules built into the executable (besides sys and
   builtins, which start-up creates itself). */

#include "Python.h"
#include "pycore_import.h"
#include "pycore_pythonrun.h"

extern PyObject *PyInit__testinternalcapi(void);
extern PyObject *PyInit_gc(void);
extern PyObject *PyInit_time(void);
extern PyObject *PyInit_math(void);
extern PyObject *PyInit__warnings(void);
extern PyObject *PyInit__opcode(void);
extern PyObject *PyInit__posixsubprocess(void);
extern PyObject *PyInit_select(void);
extern PyObject *PyInit_fcntl(void);
extern PyObject *PyInit__stat(void);
extern PyObject *PyInit_errno(void);
extern PyObject *PyInit_posix(void);
extern PyObject *PyInit__sre(void);
extern PyObject *PyInit_marshal(void);
extern PyObject *PyInit__weakref(void);
extern PyObject *PyInit__codecs(void);
extern PyObject *PyInit__typing(void);
extern PyObject *PyInit__signal(void);
extern PyObject *PyInit__thread(void);
extern PyObject *PyInit_atexit(void);
extern PyObject *PyInit__collections(void);
extern PyObject *PyInit__functools(void);
extern PyObject *PyInit__operator(void);
extern PyObject *PyInit_itertools(void);
extern PyObject *PyInit__io(void);
extern PyObject *PyInit__struct(void);
extern PyObject *PyInit_binascii(void);
extern PyObject *PyInit__random(void);
extern PyObject *PyInit__string(void);
extern PyObject *PyInit__locale(void);
extern PyObject *PyInit__contextvars(void);
extern PyObject *PyInit__ast(void);
extern PyObject *PyInit_cmath(void);
extern PyObject *PyInit__ast(void);
extern PyObject *PyInit__typing(void);
extern PyObject *PyInit__blake2(void);
#ifdef HAVE_OPENSSL
extern PyObject *PyInit__hashlib(void);
#endif

struct _inittab _PyImport_Inittab[] = {
    {"_imp", PyInit__imp},
    {"_testinternalcapi", PyInit__testinternalcapi},
    {"gc", PyInit_gc},
    {"time", PyInit_time},
    {"math", PyInit_math},
    {"_warnings", PyInit__warnings},
    {"_opcode", PyInit__opcode},
    {"_posixsubprocess", PyInit__posixsubprocess},
    {"select", PyInit_select},
    {"fcntl", PyInit_fcntl},
    {"_stat", PyInit__stat},
    {"errno", PyInit_errno},
    {"posix", PyInit_posix},
    {"_sre", PyInit__sre},
    {"marshal", PyInit_marshal},
    {"_weakref", PyInit__weakref},
    {"_codecs", PyInit__codecs},
    {"_typing", PyInit__typing},
    {"_signal", PyInit__signal},
    {"_thread", PyInit__thread},
    {"atexit", PyInit_atexit},
    {"_collections", PyInit__collections},
    {"_functools", PyInit__functools},
    {"_operator", PyInit__operator},
    {"itertools", PyInit_itertools},
    {"_io", PyInit__io},
    {"_struct", PyInit__struct},
    {"binascii", PyInit_binascii},
    {"_random", PyInit__random},
    {"_string", PyInit__string},
    {"_locale", PyInit__locale},
    {"_contextvars", PyInit__contextvars},
    {"_ast", PyInit__ast},
    {"cmath", PyInit_cmath},
    {"_ast", PyInit__ast},
    {"_typing", PyInit__typing},
    {"_blake2", PyInit__blake2},
#ifdef HAVE_OPENSSL
    {"_hashlib", PyInit__hashlib},
#endif
    {NULL, NULL},
};
