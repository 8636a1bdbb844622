/* faulthandler (Modules/faulthandler.c): the tracebacks written from
   signal handlers and the watchdog thread, and the start-up/shutdown
   hooks the runtime calls.  Modules/faulthandler_dump.c holds the
   writer, which must stay async-signal-safe: no allocation, no locks,
   no Python API that can do either. */
#ifndef Py_INTERNAL_FAULTHANDLER_H
#define Py_INTERNAL_FAULTHANDLER_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* write(2) the whole of text (NUL-terminated), retrying on EINTR. */
PyAPI_FUNC(void) _PyFaulthandler_WriteText(int fd, const char *text);

/* Write the Python stack of every thread of interp (all_threads) or of
   current only.  current is the thread state of the thread that writes,
   or NULL when it has none (the watchdog); it is flagged as "Current
   thread".  Frames are read as they stand: a lazy (JIT) frame is never
   reified here, so its line may be stale. */
PyAPI_FUNC(void) _PyFaulthandler_DumpStacks(int fd, PyInterpreterState *interp,
                                            PyThreadState *current, int all_threads);

/* The thread state of the calling OS thread, found by walking interp's
   thread list (no TLS lookup, no lock), or NULL. */
PyAPI_FUNC(PyThreadState *) _PyFaulthandler_FindCurrent(PyInterpreterState *interp);

/* -X faulthandler / PYTHONFAULTHANDLER: faulthandler.enable() once sys
   and its streams exist. */
PyAPI_FUNC(int) _PyFaulthandler_StartUp(void);

/* Py_FinalizeEx: stop the watchdog and put every signal handler back. */
PyAPI_FUNC(void) _PyFaulthandler_Fini(void);

#endif /* !Py_INTERNAL_FAULTHANDLER_H */
