/* Kept for source compatibility with extension code that includes it
   directly; the macros themselves live in pyport.h. */
#ifndef Py_PYMACRO_H
#define Py_PYMACRO_H
#include "pyport.h"
#endif
