/* The one header C code includes to use the Python C API. */
#ifndef Py_PYTHON_H
#define Py_PYTHON_H

#include "patchlevel.h"
#include "pyconfig.h"
#include "pymacro.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "pyport.h"
#include "pymem.h"
#include "object.h"
#include "objimpl.h"
#include "pyhash.h"
#include "longobject.h"
#include "boolobject.h"
#include "floatobject.h"
#include "complexobject.h"
#include "unicodeobject.h"
#include "bytesobject.h"
#include "tupleobject.h"
#include "listobject.h"
#include "dictobject.h"
#include "setobject.h"
#include "rangeobject.h"
#include "sliceobject.h"
#include "iterobject.h"
#include "methodobject.h"
#include "descrobject.h"
#include "funcobject.h"
#include "cpython/code.h"
#include "cellobject.h"
#include "moduleobject.h"
#include "pyframe.h"
#include "traceback.h"
#include "pyerrors.h"
#include "pystate.h"
#include "pythread.h"
#include "modsupport.h"
#include "compile.h"
#include "pythonrun.h"
#include "ceval.h"
#include "sysmodule.h"
#include "import.h"
#include "pylifecycle.h"
#include "bltinmodule.h"
#include "abstract.h"
#include "pybuffer.h"
#include "codecs.h"
#include "memoryobject.h"
#include "context.h"
#include "fileobject.h"
#include "structseq.h"
#include "osmodule.h"
#include "genericaliasobject.h"
#include "cpython/jitexecutable.h"

#endif /* !Py_PYTHON_H */
