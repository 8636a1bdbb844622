/* The identifier table (Include/internal/pycore_identifiers.h).

   Each name the C code looks up as _Py_ID(name) is interned once, when
   start-up has a working str type, and stays immortal: after that an
   identifier costs one load and cannot fail, which the MemoryError paths
   rely on.  Uses earlier in start-up fill their slot on the spot. */

#include "Python.h"
#include "pycore_identifiers.h"
#include "pycore_unicodeobject.h"

struct _Py_identifier_table _Py_Identifiers;

PyObject *
_PyIdentifier_Make(PyObject **slot, const char *name)
{
    PyObject *s = _PyUnicode_InternImmortal(name);
    if (s == NULL) {
        Py_FatalError("out of memory interning the runtime's identifiers");
    }
    *slot = s;
    return s;
}

int
_PyIdentifiers_Init(void)
{
#define MAKE_IDENTIFIER(NAME)                                                \
    if (_Py_Identifiers.NAME == NULL) {                                      \
        _Py_Identifiers.NAME = _PyUnicode_InternImmortal(#NAME);             \
        if (_Py_Identifiers.NAME == NULL) {                                  \
            return -1;                                                       \
        }                                                                    \
    }
    _Py_FOR_EACH_IDENTIFIER(MAKE_IDENTIFIER)
#undef MAKE_IDENTIFIER
    return 0;
}
