/* Signals.  For now only SIGINT, turned into KeyboardInterrupt at the next
   eval-breaker check; the signal module itself comes later. */

#include "Python.h"
#include "pycore_pystate.h"
#include <signal.h>

static volatile sig_atomic_t sigint_pending = 0;

int
PyErr_CheckSignals(void)
{
    if (!sigint_pending) {
        return 0;
    }
    sigint_pending = 0;
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    return -1;
}
