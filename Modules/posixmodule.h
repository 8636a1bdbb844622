/* What the files of the posix module share (Modules/posixmodule.c,
   posix_fd.c, posix_fs.c, posix_path.c, posix_process.c, posix_xattr.c):
   path arguments, OSError raising, and the hooks each file uses to add its
   part of the module. */
#ifndef Py_POSIXMODULE_H
#define Py_POSIXMODULE_H

#include "Python.h"

/* A path argument after conversion.  Either `name` is set (the encoded
   bytes of a str/bytes/PathLike) or `fd` is >= 0 (an int was given where
   the function accepts a file descriptor). */
typedef struct {
    const char *func;   /* function name, for messages */
    const char *arg;    /* parameter name, for messages */
    PyObject *object;   /* the str or bytes given (owned), or the int */
    PyObject *encoded;  /* bytes version of object (owned) */
    const char *name;   /* NUL-terminated name, or NULL */
    int fd;             /* -1 unless an fd was given */
    int as_bytes;       /* names in results should be bytes */
} _PyPosixPath;

/* Flags for _PyPosix_PathConvert. */
#define _PyPosix_PATH_FD 1       /* an int means a file descriptor */
#define _PyPosix_PATH_NONE 2     /* None (or a missing argument) means "." */

/* Fill `path` from `obj` (NULL counts as missing).  Returns 0, or -1 with
   TypeError/ValueError set; _PyPosix_PathClear must be called either way. */
extern int _PyPosix_PathConvert(_PyPosixPath *path, PyObject *obj, int flags);
extern void _PyPosix_PathClear(_PyPosixPath *path);

/* Raise OSError (subclass chosen from errno) naming one or two paths;
   always return NULL. */
extern PyObject *_PyPosix_PathError(_PyPosixPath *path);
extern PyObject *_PyPosix_PathError2(_PyPosixPath *a, _PyPosixPath *b);
extern PyObject *_PyPosix_Error(void);

/* dir_fd=None|int into *fd (AT_FDCWD for None or missing).  0 or -1. */
extern int _PyPosix_DirFd(PyObject *obj, int *fd);
/* A file descriptor argument (an int, or an object with fileno() is not
   accepted: posix takes ints).  0 or -1. */
extern int _PyPosix_Fd(PyObject *obj, int *fd);
/* A plain C int argument (flags, modes).  0 or -1. */
extern int _PyPosix_Int(PyObject *obj, int *out);
/* A truth value for keyword flags like follow_symlinks; NULL means `dflt`.
   Returns 0/1, or -1 with an exception. */
extern int _PyPosix_Flag(PyObject *obj, int dflt);

/* Each file adds its part of the module.  0 or -1. */
extern int _PyPosix_InitFd(PyObject *module);
extern int _PyPosix_InitFs(PyObject *module);
extern int _PyPosix_InitProcess(PyObject *module);
extern int _PyPosix_InitXattr(PyObject *module);
extern int _PyPosix_InitPath(PyObject *module);
/* Drop what posix_process.c keeps between calls (the fork hooks). */
extern void _PyPosix_FiniProcess(void);

/* Our types are static: _PyStaticType_InitBuiltin readies them for the
   life of the process. */
#include "pycore_object.h"

/* A stat() result as os.stat_result (posix_fs.c). */
struct stat;
extern PyObject *_PyPosix_StatResult(const struct stat *st);

#endif /* !Py_POSIXMODULE_H */
