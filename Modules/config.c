/* The table of modules built into the executable (besides sys and
   builtins, which start-up creates itself). */

#include "Python.h"
#include "pycore_import.h"
#include "pycore_pythonrun.h"

extern PyObject *PyInit__abc(void);
extern PyObject *PyInit__ast(void);
extern PyObject *PyInit__bisect(void);
extern PyObject *PyInit__codecs(void);
extern PyObject *PyInit__codecs_cn(void);
extern PyObject *PyInit__codecs_hk(void);
extern PyObject *PyInit__codecs_iso2022(void);
extern PyObject *PyInit__codecs_jp(void);
extern PyObject *PyInit__codecs_kr(void);
extern PyObject *PyInit__codecs_tw(void);
extern PyObject *PyInit__collections(void);
extern PyObject *PyInit__contextvars(void);
extern PyObject *PyInit__functools(void);
extern PyObject *PyInit__heapq(void);
extern PyObject *PyInit__io(void);
extern PyObject *PyInit__json(void);
extern PyObject *PyInit__locale(void);
extern PyObject *PyInit__lsprof(void);
extern PyObject *PyInit__multibytecodec(void);
extern PyObject *PyInit__opcode(void);
extern PyObject *PyInit__pickle(void);
extern PyObject *PyInit__operator(void);
extern PyObject *PyInit__posixsubprocess(void);
extern PyObject *PyInit__queue(void);
extern PyObject *PyInit__random(void);
extern PyObject *PyInit__signal(void);
extern PyObject *PyInit__sre(void);
extern PyObject *PyInit__stat(void);
extern PyObject *PyInit__string(void);
extern PyObject *PyInit__struct(void);
extern PyObject *PyInit__testinternalcapi(void);
extern PyObject *PyInit__thread(void);
extern PyObject *PyInit__typing(void);
extern PyObject *PyInit__warnings(void);
extern PyObject *PyInit__weakref(void);
extern PyObject *PyInit_atexit(void);
extern PyObject *PyInit_binascii(void);
extern PyObject *PyInit_cmath(void);
extern PyObject *PyInit_errno(void);
extern PyObject *PyInit_fcntl(void);
extern PyObject *PyInit_faulthandler(void);
extern PyObject *PyInit_gc(void);
extern PyObject *PyInit_grp(void);
extern PyObject *PyInit_itertools(void);
extern PyObject *PyInit_marshal(void);
extern PyObject *PyInit_math(void);
extern PyObject *PyInit_mmap(void);
extern PyObject *PyInit_posix(void);
extern PyObject *PyInit_pwd(void);
extern PyObject *PyInit_resource(void);
extern PyObject *PyInit_select(void);
extern PyObject *PyInit_syslog(void);
extern PyObject *PyInit_termios(void);
extern PyObject *PyInit_time(void);
extern PyObject *PyInit_unicodedata(void);
extern PyObject *PyInit__socket(void);
extern PyObject *PyInit__tokenize(void);
extern PyObject *PyInit__blake2(void);
extern PyObject *PyInit__csv(void);
#ifdef HAVE_LIBMPDEC
extern PyObject *PyInit__decimal(void);
#endif
extern PyObject *PyInit_array(void);

struct _inittab _PyImport_Inittab[] = {
    {"_abc", PyInit__abc},
    {"_ast", PyInit__ast},
    {"atexit", PyInit_atexit},
    {"binascii", PyInit_binascii},
    {"_bisect", PyInit__bisect},
    {"cmath", PyInit_cmath},
    {"_codecs", PyInit__codecs},
    {"_codecs_cn", PyInit__codecs_cn},
    {"_codecs_hk", PyInit__codecs_hk},
    {"_codecs_iso2022", PyInit__codecs_iso2022},
    {"_codecs_jp", PyInit__codecs_jp},
    {"_codecs_kr", PyInit__codecs_kr},
    {"_codecs_tw", PyInit__codecs_tw},
    {"_collections", PyInit__collections},
    {"_contextvars", PyInit__contextvars},
    {"errno", PyInit_errno},
    {"faulthandler", PyInit_faulthandler},
    {"fcntl", PyInit_fcntl},
    {"_functools", PyInit__functools},
    {"gc", PyInit_gc},
    {"grp", PyInit_grp},
    {"_heapq", PyInit__heapq},
    {"_imp", PyInit__imp},
    {"_io", PyInit__io},
    {"itertools", PyInit_itertools},
    {"_json", PyInit__json},
    {"_locale", PyInit__locale},
    {"_lsprof", PyInit__lsprof},
    {"_multibytecodec", PyInit__multibytecodec},
    {"marshal", PyInit_marshal},
    {"math", PyInit_math},
    {"mmap", PyInit_mmap},
    {"_opcode", PyInit__opcode},
    {"_operator", PyInit__operator},
    {"_pickle", PyInit__pickle},
    {"posix", PyInit_posix},
    {"_posixsubprocess", PyInit__posixsubprocess},
    {"pwd", PyInit_pwd},
    {"_queue", PyInit__queue},
    {"_random", PyInit__random},
    {"resource", PyInit_resource},
    {"select", PyInit_select},
    {"_signal", PyInit__signal},
    {"_sre", PyInit__sre},
    {"_stat", PyInit__stat},
    {"_string", PyInit__string},
    {"_struct", PyInit__struct},
    {"syslog", PyInit_syslog},
    {"termios", PyInit_termios},
    {"_testinternalcapi", PyInit__testinternalcapi},
    {"_thread", PyInit__thread},
    {"time", PyInit_time},
    {"_typing", PyInit__typing},
    {"unicodedata", PyInit_unicodedata},
    {"_warnings", PyInit__warnings},
    {"_weakref", PyInit__weakref},
    {"_socket", PyInit__socket},
    {"_tokenize", PyInit__tokenize},
    {"_blake2", PyInit__blake2},
    {"_csv", PyInit__csv},
#ifdef HAVE_LIBMPDEC
    {"_decimal", PyInit__decimal},
#endif
    {"array", PyInit_array},
    {NULL, NULL},
};
