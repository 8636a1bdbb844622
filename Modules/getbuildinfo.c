/* Py_GetBuildInfo, Py_GetCompiler and Py_GetVersion: the pieces of
   sys.version.  The shape "X.Y.Z (build, date, time) [compiler]" is what
   platform._sys_version() and other tools parse; the build tag is ours. */

#include "Python.h"

#define BUILD_TAG "lazypy"

const char *
Py_GetBuildInfo(void)
{
    /* __DATE__ is "Mmm dd yyyy", __TIME__ "hh:mm:ss". */
    return BUILD_TAG ", " __DATE__ ", " __TIME__;
}

const char *
Py_GetCompiler(void)
{
#if defined(__clang__)
    return "[Clang " __clang_version__ "]";
#elif defined(__GNUC__)
    return "[GCC " __VERSION__ "]";
#else
    return "[unknown compiler]";
#endif
}

const char *
Py_GetVersion(void)
{
    static char version[250];
    if (version[0] == '\0') {
        snprintf(version, sizeof(version), "%.80s (%.80s) %.80s", PY_VERSION,
                      Py_GetBuildInfo(), Py_GetCompiler());
    }
    return version;
}
